/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec: the record tool, built only on libauxtrace's public API. */
#ifndef AUXREC_H
#define AUXREC_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

extern int auxrec_verbose;

int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* The commands (commands.c): the one called name, or NULL; help is not one of them. */
typedef int (*auxrec_cmd_fn)(int argc, char **argv);
auxrec_cmd_fn auxrec_command(const char *name);
/* Say that name is no command, with the usage; returns 2, the exit status for it. */
int auxrec_unknown_command(const char *name);
/* auxrec's own usage: the commands and the options before them. */
void auxrec_usage(FILE *f);

/* Print to stderr with the tool's prefix. */
void auxrec_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * strerror(err) (err positive or negative), with the fix for errors that a limit of the
 * user's causes: out of file descriptors names ulimit -n.
 */
const char *auxrec_strerror(int err);

/*
 * A command started stopped: forked, waiting on a pipe until workload__start() so that the
 * events can be opened on its pid first (perf's workload protocol).
 */
struct workload {
	pid_t pid;
	int go_fd;	/* write end: closing it lets the child exec */
	int exec_err_fd;	/* read end: the child's errno when exec failed, EOF on success */
	int status;
	bool exited;
};

int workload__prepare(struct workload *w, char **argv);
int workload__start(struct workload *w);
/* Reap without blocking; true once the child exited. */
bool workload__poll_exit(struct workload *w);
void workload__kill(struct workload *w);

#endif
