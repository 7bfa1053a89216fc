// SPDX-License-Identifier: LGPL-2.1
/* auxrec: record AUX-area, perf ring-buffer and ftrace data with libauxtrace. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <auxtrace/core.h>
#include "cmd.h"
#include "error.h"

static const char usage[] =
	"usage: auxrec <command> [options]\n"
	"\n"
	"commands:\n"
	"  info      what this machine can record: PMUs (and which produce AUX data),\n"
	"            tracefs and ring-buffer mapping, perf_event_paranoid, mlock limits\n"
	"  record    drain perf rings, AUX areas and ftrace rings; print per-CPU totals\n"
	"  report    what a recording holds, per source and CPU, from its files; -D every\n"
	"            perf.data record; --html a timeline page\n"
	"  script    the samples of a recording, and the branches decoded from its Intel PT\n"
	"            or BTS data, one line each as perf script prints them\n"
	"\n"
	"auxrec <command> -h for the command's options; -v (repeatable) before the command\n"
	"shows the library's messages.\n";

/* The library's errors and warnings always reach the user; info and debug with -v / -vv. */
static int auxrec_print(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[LIBAUXTRACE_ERR] = "error", [LIBAUXTRACE_WARN] = "warning",
		[LIBAUXTRACE_INFO] = "info", [LIBAUXTRACE_DEBUG] = "debug",
	};
	size_t len = strlen(fmt);

	if ((level == LIBAUXTRACE_INFO && auxrec_verbose < 1) ||
	    (level == LIBAUXTRACE_DEBUG && auxrec_verbose < 2))
		return 0;
	fprintf(stderr, "libauxtrace %s: ", prefix[level]);
	vfprintf(stderr, fmt, ap);
	if (!len || fmt[len - 1] != '\n')
		fputc('\n', stderr);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "-v", 2) && strspn(argv[i] + 1, "v") == strlen(argv[i] + 1); i++)
		auxrec_verbose += (int)strlen(argv[i]) - 1;
	libauxtrace_set_print(auxrec_print);
	if (i >= argc || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
		fputs(usage, i >= argc ? stderr : stdout);
		return i >= argc ? 2 : 0;
	}
	if (!strcmp(argv[i], "info"))
		return cmd_info(argc - i, argv + i);
	if (!strcmp(argv[i], "record"))
		return cmd_record(argc - i, argv + i);
	if (!strcmp(argv[i], "report"))
		return cmd_report(argc - i, argv + i);
	if (!strcmp(argv[i], "script"))
		return cmd_script(argc - i, argv + i);
	auxrec_error("unknown command '%s'", argv[i]);
	fputs(usage, stderr);
	return 2;
}
