// SPDX-License-Identifier: LGPL-2.1
/*
 * A workload with known phases for the report page's task lanes: sched-phases [MS]
 *   phase 1: task "phase-a" spins for MS ms of CPU time on CPU 0 (default 150)
 *   sleep:   MS ms with nothing of ours running
 *   phase 2: "phase-b" on CPU 0 and "phase-c" on CPU 1 spin MS ms of CPU time each, at once
 * CPU time, not wall time: on a busy machine each phase still runs its MS ms (in a longer span).
 * Each phase is a child process named by prctl(PR_SET_NAME) and pinned before it spins, so a
 * context switch names it on its CPU; the parent waits for each (it sleeps meanwhile).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A child called name, pinned to cpu, spinning ms ms. */
static pid_t spin(const char *name, int cpu, long ms)
{
	pid_t pid = fork();
	cpu_set_t set;

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || prctl(PR_SET_NAME, name)) {
		perror(name);
		_exit(1);
	}
	/* yield once, so that the switch to the pinned, renamed task comes after the rename */
	sched_yield();
	for (double end = cpu_ms() + (double)ms; cpu_ms() < end;)
		;
	_exit(0);
}

static int reap(pid_t pid)
{
	int st;

	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : 1;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 0) : 150;
	struct timespec gap = { ms / 1000, ms % 1000 * 1000000 };
	int err;
	pid_t b;

	err = reap(spin("phase-a", 0, ms));
	nanosleep(&gap, NULL);
	b = spin("phase-b", 0, ms);
	err |= reap(spin("phase-c", 1, ms));
	err |= reap(b);
	return err;
}
