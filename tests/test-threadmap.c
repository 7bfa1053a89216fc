// SPDX-License-Identifier: LGPL-2.1
/* Thread maps: dummy, one tid, every thread of a live process, arrays, references. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/cpumap.h>
#include "lib/testlib.h"

START_TEST(test_dummy)
{
	struct perf_thread_map *map = perf_thread_map__new_dummy();

	ck_assert_ptr_nonnull(map);
	ck_assert_int_eq(perf_thread_map__nr(map), 1);
	ck_assert_int_eq(perf_thread_map__pid(map, 0), -1);
	ck_assert_int_eq(perf_thread_map__idx(map, -1), 0);
	/* get/put balance, as libperf's test-threadmap */
	ck_assert_ptr_eq(perf_thread_map__get(map), map);
	perf_thread_map__put(map);
	ck_assert_int_eq(perf_thread_map__pid(map, 0), -1);
	perf_thread_map__put(map);
}
END_TEST

START_TEST(test_null_and_bounds)
{
	struct perf_thread_map *map = perf_thread_map__new_tid(getpid());

	ck_assert_int_eq(perf_thread_map__nr(NULL), 1);
	ck_assert_int_eq(perf_thread_map__pid(NULL, 0), -1);
	ck_assert_int_eq(perf_thread_map__idx(NULL, 1), -1);
	ck_assert_int_eq(perf_thread_map__nr(map), 1);
	ck_assert_int_eq(perf_thread_map__pid(map, 0), getpid());
	ck_assert_int_eq(perf_thread_map__pid(map, 1), -1);
	ck_assert_int_eq(perf_thread_map__pid(map, -1), -1);
	ck_assert_int_eq(perf_thread_map__idx(map, getpid()), 0);
	ck_assert_int_eq(perf_thread_map__idx(map, getpid() + 1), -1);
	ck_assert_ptr_null(perf_thread_map__get(NULL));
	perf_thread_map__put(NULL);
	perf_thread_map__put(map);
}
END_TEST

START_TEST(test_array)
{
	pid_t tids[] = { 30, 10, 20 }, bad[] = { 5, -2 };
	struct perf_thread_map *map = perf_thread_map__new_array(3, tids);

	/* An array keeps the caller's order: it decides which thread is idx 0. */
	ck_assert_int_eq(perf_thread_map__nr(map), 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(perf_thread_map__pid(map, i), tids[i]);
		ck_assert_int_eq(perf_thread_map__idx(map, tids[i]), i);
	}
	perf_thread_map__put(map);
	assert_null_errno(perf_thread_map__new_array(2, bad), EINVAL);
	assert_null_errno(perf_thread_map__new_array(0, tids), EINVAL);
}
END_TEST

/* Threads that report their tid and wait until the test is done with the map. */
struct sleeper {
	pthread_t thread;
	pid_t tid;
};

static pthread_barrier_t started, done;

static void *sleeper__run(void *arg)
{
	struct sleeper *s = arg;

	s->tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&started);
	pthread_barrier_wait(&done);
	return NULL;
}

START_TEST(test_pid_all_threads)
{
	struct sleeper sl[3];
	struct perf_thread_map *map;

	ck_assert_int_eq(pthread_barrier_init(&started, NULL, 4), 0);
	ck_assert_int_eq(pthread_barrier_init(&done, NULL, 4), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_create(&sl[i].thread, NULL, sleeper__run, &sl[i]), 0);
	pthread_barrier_wait(&started);

	map = perf_thread_map__new_pid(getpid());
	ck_assert_ptr_nonnull(map);
	/* check's fork mode runs the test in a single-threaded child: us plus three. */
	ck_assert_int_eq(perf_thread_map__nr(map), 4);
	ck_assert_int_ge(perf_thread_map__idx(map, getpid()), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_ge(perf_thread_map__idx(map, sl[i].tid), 0);
	for (int i = 1; i < perf_thread_map__nr(map); i++)
		ck_assert_int_lt(perf_thread_map__pid(map, i - 1), perf_thread_map__pid(map, i));

	pthread_barrier_wait(&done);
	for (int i = 0; i < 3; i++)
		pthread_join(sl[i].thread, NULL);
	perf_thread_map__put(map);

	/*
	 * After the joins only the main thread is left, once the kernel has reaped the others:
	 * a join returns when a thread has cleared its tid, which it does on its way out,
	 * before its /proc/PID/task entry goes (seen under load: 2 for a moment).
	 */
	for (int tries = 0;; tries++) {
		map = perf_thread_map__new_pid(getpid());
		ck_assert_ptr_nonnull(map);
		if (perf_thread_map__nr(map) == 1 || tries == 100)
			break;
		perf_thread_map__put(map);
		usleep(10000);
	}
	ck_assert_int_eq(perf_thread_map__nr(map), 1);
	ck_assert_int_eq(perf_thread_map__pid(map, 0), getpid());
	perf_thread_map__put(map);
}
END_TEST

START_TEST(test_pid_gone)
{
	pid_t child = fork();
	int status;

	ck_assert_int_ge(child, 0);
	if (!child)
		_exit(0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	/* Reaped: /proc/<child> is gone (pid reuse this fast is not a concern in a test). */
	assert_null_errno(perf_thread_map__new_pid(child), ESRCH);
	assert_null_errno(perf_thread_map__new_pid(0), EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("threadmap");
	TCase *tc = tcase_create("threadmap");

	tcase_add_test(tc, test_dummy);
	tcase_add_test(tc, test_null_and_bounds);
	tcase_add_test(tc, test_array);
	tcase_add_test(tc, test_pid_all_threads);
	tcase_add_test(tc, test_pid_gone);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
