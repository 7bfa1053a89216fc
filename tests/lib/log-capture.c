// SPDX-License-Identifier: LGPL-2.1
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/log-capture.h"

char log_text[8192];
static enum libauxtrace_print_level capture_max;

static int log_capture__print(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(log_text);

	if (level > capture_max || len + 2 >= sizeof(log_text))
		return 0;
	log_text[len++] = "EWID"[level];
	log_text[len] = '\0';
	return vsnprintf(log_text + len, sizeof(log_text) - len, fmt, ap);
}

void log_capture_start_at(enum libauxtrace_print_level max)
{
	log_text[0] = '\0';
	capture_max = max;
	libauxtrace_set_print(log_capture__print);
}

void log_capture_start(void)
{
	log_capture_start_at(LIBAUXTRACE_DEBUG);
}

void log_capture_stop(void)
{
	libauxtrace_set_print(NULL);
}

bool log_captured(const char *needle)
{
	return strstr(log_text, needle) != NULL;
}
