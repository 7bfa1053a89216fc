/* SPDX-License-Identifier: LGPL-2.1 */
/* Shared test helpers: suite runner, skips that say what the kernel lacks, cleanup. */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Run a suite in fork mode, print check's summary, then remove any tracefs instance this
 * process tree created (names start with testlib_instance_prefix()), also when tests failed
 * or crashed. Returns the process exit code.
 */
int testlib_run(Suite *s);

/*
 * Check 0.15 has no skip result: a skipped test prints "SKIP: <test>: <what is missing>" and
 * returns early (counted as passed by check, as skipped by scripts/run-tests).
 */
#define TEST_SKIP(why, ...)						\
	do {								\
		printf("SKIP: %s: " why "\n", __func__, ##__VA_ARGS__);	\
		fflush(stdout);						\
		return;							\
	} while (0)

#define TEST_REQUIRE_ROOT()						\
	do {								\
		if (!testlib_is_root())					\
			TEST_SKIP("needs root (perf_event_open system-wide, tracefs)"); \
	} while (0)

bool testlib_is_root(void);

/*
 * Under make memcheck (valgrind, some 30 times slower): a sweep over thousands of inputs
 * takes one in testlib_sweep_step() of them; make test and its sanitizer run take each one.
 */
unsigned int testlib_sweep_step(void);

/* expr must fail as the library's pointer functions do: NULL with errno err. */
#define assert_null_errno(expr, err)			\
	do {						\
		errno = 0;				\
		ck_assert_ptr_null(expr);		\
		ck_assert_int_eq(errno, err);		\
	} while (0)

/* The tracefs mount point, or NULL when tracefs is not mounted. */
const char *testlib_tracefs(void);

/* "auxtrace-test-<pid of the runner>-": every test instance name starts with it. */
const char *testlib_instance_prefix(void);

/* A fresh unique instance name under the prefix (static buffer per call site is fine). */
void testlib_instance_name(char *buf, size_t size);

/* Remove instances under the prefix (what testlib_run does at the end). Returns how many. */
int testlib_remove_instances(void);

/* Pin the calling thread to one CPU. 0 or -errno. */
int testlib_pin_cpu(int cpu);

/* A number field of /proc/self/status ("VmHWM", base 10; "CapEff", base 16); -1 if absent. */
long long testlib_self_status(const char *field, int base);

/* Number of online CPUs and whether cpu is online. */
int testlib_nr_online_cpus(void);

#endif
