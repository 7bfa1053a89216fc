// SPDX-License-Identifier: LGPL-2.1
/* auxrec: record AUX-area, perf ring-buffer and ftrace data with libauxtrace. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <auxtrace/core.h>
#include "cmd.h"
#include "commands.h"
#include "error.h"

/*
 * The library's errors always reach the user, its warnings unless -q (auxrec_verbose -1);
 * info and debug with -v / -vv.
 */
static int auxrec_print(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[LIBAUXTRACE_ERR] = "libauxtrace error", [LIBAUXTRACE_WARN] = "auxrec: warning",
		[LIBAUXTRACE_INFO] = "libauxtrace info", [LIBAUXTRACE_DEBUG] = "libauxtrace debug",
	};
	size_t len = strlen(fmt);

	if ((level == LIBAUXTRACE_WARN && auxrec_verbose < 0) ||
	    (level == LIBAUXTRACE_INFO && auxrec_verbose < 1) ||
	    (level == LIBAUXTRACE_DEBUG && auxrec_verbose < 2))
		return 0;
	fprintf(stderr, "%s: ", prefix[level]);
	vfprintf(stderr, fmt, ap);
	if (!len || fmt[len - 1] != '\n')
		fputc('\n', stderr);
	return 0;
}

int main(int argc, char **argv)
{
	auxrec_cmd_fn cmd;
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "-v", 2) && strspn(argv[i] + 1, "v") == strlen(argv[i] + 1); i++)
		auxrec_verbose += (int)strlen(argv[i]) - 1;
	libauxtrace_set_print(auxrec_print);
	if (i >= argc || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
		auxrec_usage(i >= argc ? stderr : stdout);
		return i >= argc ? 2 : 0;
	}
	/* perf's --version and version: the library's, which the tool is built with */
	if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "version")) {
		printf("auxrec %s\n", libauxtrace_version());
		return 0;
	}
	if (!strcmp(argv[i], "help"))
		return cmd_help(argc - i, argv + i);
	cmd = auxrec_command(argv[i]);
	return cmd ? cmd(argc - i, argv + i) : auxrec_unknown_command(argv[i]);
}
