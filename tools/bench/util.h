/* SPDX-License-Identifier: LGPL-2.1 */
/* Linked into every benchmark: measuring helpers and the plumbing every bench repeats. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdint.h>

uint64_t bench__now_ns(void);
/* CPU time of the calling thread in ns (CLOCK_THREAD_CPUTIME_ID). */
uint64_t bench__thread_cpu_ns(void);
/* CPU seconds of the calling thread; nivcsw (may be NULL): its involuntary switches so far. */
double bench__thread_cpu_s(uint64_t *nivcsw);
/* Median of v[0..n), n >= 1; sorts v. */
double bench__median(double *v, int n);

/* A child's run: wall time, CPU time (user + system), peak RSS, wait status (-1: none). */
struct bench_run {
	double seconds;
	double cpu_seconds;
	long max_rss_kib;
	int status;
};

/* Run argv (searched in PATH) with stdout and stderr to /dev/null, and wait for it. */
struct bench_run bench__run(char *const argv[]);

/*
 * Run copies of argv at once, as bench__run does one: seconds until the last ends, their
 * CPU summed, the largest peak RSS, the first failure's status. What a machine gives two
 * independent processes is the most it can give two threads of one.
 */
struct bench_run bench__run_copies(char *const argv[], int copies);

/* Pin the calling thread to cpu. 0 or -errno. */
int bench__pin_self(int cpu);

/*
 * Route the library's errors and warnings to stderr as "<name>: libauxtrace: ...";
 * its info and debug messages are dropped so they do not mix into the tables.
 */
void bench__print_lib_warnings(const char *name);

/* The id of tracepoint "sys/event" from tracefs (either mount point), or -ENOENT. */
int bench__tracepoint_id(const char *sys_event);

#endif
