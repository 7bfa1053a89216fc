// SPDX-License-Identifier: LGPL-2.1
/* A workload with a known count: getppid-loop N [CPU] makes exactly N getppid() calls,
 * pinned to CPU when given. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 100;

	if (argc > 2) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(atoi(argv[2]), &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}
	for (long i = 0; i < n; i++)
		getppid();
	return 0;
}
