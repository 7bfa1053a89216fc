// SPDX-License-Identifier: LGPL-2.1
/*
 * A workload with a known count: getppid-loop N [CPU [getpgid]] makes exactly N getppid()
 * calls (or getpgid(0) calls), pinned to CPU when given (-1: not pinned). getpgid lets a test
 * count on a tracepoint that a concurrently running benchmark's BPF program does not own.
 */
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 100;

	bool pgid = argc > 3 && !strcmp(argv[3], "getpgid");

	if (argc > 2 && atoi(argv[2]) >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(atoi(argv[2]), &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}
	for (long i = 0; i < n; i++) {
		if (pgid)
			getpgid(0);
		else
			getppid();
	}
	return 0;
}
