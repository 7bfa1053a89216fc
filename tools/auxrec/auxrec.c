// SPDX-License-Identifier: LGPL-2.1
/* auxrec: record AUX-area, perf ring-buffer and ftrace data with libauxtrace. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <auxtrace/core.h>
#include "auxrec.h"

int auxrec_verbose;

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
	"  help      a command's manual page: auxrec help record opens auxrec-record(1)\n"
	"\n"
	"auxrec <command> -h for the command's options; -v (repeatable) before the command\n"
	"shows the library's messages; auxrec --version its version.\n";

void auxrec_error(const char *fmt, ...)
{
	va_list ap;

	fputs("auxrec: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *auxrec_strerror(int err)
{
	static char buf[128];

	if (err < 0)
		err = -err;
	if (err != EMFILE && err != ENFILE)
		return strerror(err);
	snprintf(buf, sizeof(buf), "%s (out of file descriptors: raise ulimit -n)",
		 strerror(err));
	return buf;
}

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

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "info", cmd_info }, { "record", cmd_record }, { "report", cmd_report },
	{ "script", cmd_script }, { "help", cmd_help },
};

bool auxrec_is_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return true;
	return false;
}

void auxrec_usage(FILE *f)
{
	fputs(usage, f);
}

int auxrec_run_command(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[0], commands[i].name))
			return commands[i].run(argc, argv);
	auxrec_error("unknown command '%s'", argv[0]);
	fputs(usage, stderr);
	return 2;
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
	/* perf's --version and version: the library's, which the tool is built with */
	if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "version")) {
		printf("auxrec %s\n", libauxtrace_version());
		return 0;
	}
	return auxrec_run_command(argc - i, argv + i);
}
