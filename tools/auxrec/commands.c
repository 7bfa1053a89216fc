// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec's commands: the one list that main() runs them from and help finds them in, and the
 * usage that names them. help itself is not in the list: it runs the others' -h, and a file
 * that both lists help and is called by it would be a circle.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "commands.h"
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
	"  convert   a recording as Trace Event Format JSON (--to chrome) for\n"
	"            chrome://tracing, Perfetto UI and speedscope\n"
	"  recover   make the files of a recording whose auxrec record died readable\n"
	"            by perf and trace-cmd, up to what was drained\n"
	"  help      a command's manual page: auxrec help record opens auxrec-record(1)\n"
	"\n"
	"auxrec <command> -h for the command's options; -v (repeatable) before the command\n"
	"shows the library's messages; auxrec --version its version.\n";

static const struct {
	const char *name;
	auxrec_cmd_fn run;
} commands[] = {
	{ "info", cmd_info }, { "record", cmd_record }, { "report", cmd_report },
	{ "script", cmd_script }, { "convert", cmd_convert }, { "recover", cmd_recover },
};

auxrec_cmd_fn auxrec_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].run;
	return NULL;
}

int auxrec_unknown_command(const char *name)
{
	auxrec_error("unknown command '%s'", name);
	auxrec_usage(stderr);
	return 2;
}

void auxrec_usage(FILE *f)
{
	fputs(usage, f);
}
