/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Capture what the library logs, to check that an error names its cause and fix:
 *
 *	log_capture_start();
 *	... call ...
 *	ck_assert_msg(log_captured("must be a power of 2"), "log: %s", log_text);
 *	log_capture_stop();
 *
 * Messages of every level are appended, each prefixed with its level letter (E W I D).
 * Header-only: the suites that include it each get their own buffer.
 */
#ifndef TESTS_LOG_CAPTURE_H
#define TESTS_LOG_CAPTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <auxtrace/core.h>

static char log_text[8192];

static int log_capture__print(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(log_text);

	if (len + 2 >= sizeof(log_text))
		return 0;
	log_text[len++] = "EWID"[level];
	log_text[len] = '\0';
	return vsnprintf(log_text + len, sizeof(log_text) - len, fmt, ap);
}

static inline void log_capture_start(void)
{
	log_text[0] = '\0';
	libauxtrace_set_print(log_capture__print);
}

static inline void log_capture_stop(void)
{
	libauxtrace_set_print(NULL);
}

static inline bool log_captured(const char *needle)
{
	return strstr(log_text, needle) != NULL;
}

#endif
