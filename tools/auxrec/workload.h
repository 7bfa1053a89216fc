/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A command started stopped: forked, waiting on a pipe until workload__start() so that the
 * events can be opened on its pid first (perf's workload protocol).
 */
#ifndef AUXREC_WORKLOAD_H
#define AUXREC_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

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
