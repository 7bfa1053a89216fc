/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Capture what the library logs, to check that an error names its cause and fix:
 *
 *	log_capture_start();
 *	... call ...
 *	log_capture_stop();
 *	ck_assert_msg(log_captured("must be a power of 2"), "log: %s", log_text);
 *
 * Messages are appended, each prefixed with its level letter (E W I D).
 */
#ifndef TESTLIB_LOG_CAPTURE_H
#define TESTLIB_LOG_CAPTURE_H

#include <stdbool.h>
#include <auxtrace/core.h>

extern char log_text[8192];

/* Empty log_text and capture messages of every level. */
void log_capture_start(void);
/* The same, for messages at level max or more severe only (LIBAUXTRACE_WARN: E and W). */
void log_capture_start_at(enum libauxtrace_print_level max);
/* Stop capturing (the library's default print again); log_text keeps what was captured. */
void log_capture_stop(void);
bool log_captured(const char *needle);

#endif
