// SPDX-License-Identifier: LGPL-2.1
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/core.h>
#include "lib/perf-testlib.h"
#include "lib/testlib.h"

long testlib_tracepoint_id(const char *system, const char *event)
{
	const char *t = testlib_tracefs();
	char path[512], buf[32];
	long id = -1;
	FILE *f;

	if (!t)
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", t, system, event);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		id = strtol(buf, NULL, 10);
	fclose(f);
	return id;
}

static char log_buf[64 * 1024];

static int log_append(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	size_t used = strlen(log_buf);

	(void)level;
	vsnprintf(log_buf + used, sizeof(log_buf) - used, fmt, ap);
	return 0;
}

void testlib_log_capture(void)
{
	log_buf[0] = '\0';
	libauxtrace_set_print(log_append);
}

const char *testlib_log(void)
{
	return log_buf;
}

int testlib_log_count(const char *fmt, ...)
{
	char line[256];
	const char *p = log_buf;
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	while ((p = strstr(p, line)) != NULL) {
		n += (p == log_buf || p[-1] == '\n') && p[strlen(line)] == '\n';
		p++;
	}
	return n;
}
