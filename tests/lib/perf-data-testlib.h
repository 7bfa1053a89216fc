/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Helpers for the perf.data writer suites: a workload started on cue, a sampling session
 * with side-band, reading files and record streams back, and perf 6.1 as the oracle.
 */
#ifndef TESTLIB_PERF_DATA_TESTLIB_H
#define TESTLIB_PERF_DATA_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <auxtrace/evlist.h>
#include <auxtrace/event.h>
#include <auxtrace/perf-data-format.h>
#include <auxtrace/ring.h>

/* $B/tests/progs/<name> (B: the build directory, "build" by default). */
const char *testlib_prog(const char *name);

/* A forked command that waits for test_workload__start() before it execs. */
struct test_workload {
	pid_t pid;
	int go_fd;
};
int test_workload__prepare(struct test_workload *w, char *const argv[]);
void test_workload__start(struct test_workload *w);
/* waitpid: the exit status as waitpid gives it. */
int test_workload__wait(struct test_workload *w);

/*
 * cpu-clock:u sampling every period_ns (IP, TID, TIME, PERIOD, IDENTIFIER) and a tracking
 * dummy (mmap2, comm, task; TID, TIME, IDENTIFIER), both sample_id_all, per thread on
 * threads, enabled on exec of the workload when enable_on_exec (else enabled now),
 * opened and mapped. NULL with errno when the kernel refuses.
 */
struct evlist *testlib_sampling_evlist(struct perf_thread_map *threads, uint64_t period_ns,
				       bool enable_on_exec);
/* Push every data ring of evlist into sink. Bytes, or -errno. */
ssize_t testlib_push_rings(struct evlist *evlist, struct ring_sink *sink);

/* A whole file in memory (free it), NULL with errno. */
void *testlib_slurp(const char *path, size_t *len);

/* The records of a data section: fn for each, stopping at a non-zero return. AUXTRACE
 * payloads are stepped over. Returns the records walked, or -EINVAL at a torn record. */
int testlib_walk_records(const void *data, uint64_t size,
			 int (*fn)(void *ctx, const union perf_event *ev), void *ctx);

/*
 * Run "timeout 60 perf ARGS" (a shell command line) with stderr merged into *out
 * (malloc'd, NUL-terminated; free it). Returns the exit status (124: timeout), -1 when it
 * could not run.
 */
int testlib_perf(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* perf is installed and runs. */
bool testlib_have_perf(void);
/* perf is the oracle: root and perf, or the test is skipped (testlib.h's TEST_SKIP). */
#define REQUIRE_PERF()							\
	do {								\
		TEST_REQUIRE_ROOT();					\
		if (!testlib_have_perf())				\
			TEST_SKIP("perf is not installed (linux-perf)");	\
	} while (0)
/* Lines of text containing needle. */
int testlib_count_lines(const char *text, const char *needle);

#endif
