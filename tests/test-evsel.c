// SPDX-License-Identifier: LGPL-2.1
/*
 * evsel on a real kernel: counting software events per thread and per CPU, enable and
 * disable by CPU and by thread, groups, sample IDs, tracepoint filters, and the error
 * messages of a failed open.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/evsel.h>
#include "lib/perf-testlib.h"
#include "lib/log-capture.h"
#include "lib/testlib.h"
#include "lib/unprivileged.h"

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static volatile unsigned long burn_sink;

static void burn(void)
{
	for (unsigned long i = 0; i < 2000000; i++)
		burn_sink += i;
}

static struct evsel *sw_evsel(uint64_t config, uint64_t read_format)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.disabled = 1,
		.read_format = read_format,
	};
	struct evsel *evsel = evsel__new(&attr);

	ck_assert_ptr_nonnull(evsel);
	return evsel;
}

START_TEST(test_names_and_defaults)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_TASK_CLOCK };
	struct evsel *a = evsel__new(&attr), *b;

	ck_assert_str_eq(evsel__name(a), "task-clock");
	ck_assert_uint_eq(evsel__attr(a)->size, sizeof(struct perf_event_attr));
	ck_assert_int_eq(evsel__idx(a), -1);
	ck_assert_ptr_eq(evsel__leader(a), a);
	ck_assert(!evsel__is_open(a));
	ck_assert_int_eq(evsel__fd(a, 0, 0), -1);
	ck_assert_int_eq(evsel__enable(a), -EBADF);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(evsel__set_name(a, "mine"), 0);
	ck_assert_str_eq(evsel__name(a), "mine");
	attr = (struct perf_event_attr){ .type = PERF_TYPE_TRACEPOINT, .config = 291 };
	b = evsel__new(&attr);
	ck_assert_str_eq(evsel__name(b), "tracepoint:291");
	evsel__delete(b);
	attr = (struct perf_event_attr){ .type = 42, .config = 0x1f };
	b = evsel__new(&attr);
	ck_assert_str_eq(evsel__name(b), "type42/config=0x1f/");
	evsel__set_leader(b, a);
	ck_assert_ptr_eq(evsel__leader(b), a);
	evsel__set_leader(b, NULL);
	ck_assert_ptr_eq(evsel__leader(b), b);
	ck_assert(!evsel__needs_auxtrace_mmap(b));
	evsel__set_needs_auxtrace_mmap(b, true);
	ck_assert(evsel__needs_auxtrace_mmap(b));
	evsel__delete(b);
	evsel__delete(a);
}
END_TEST

START_TEST(test_task_clock_enable_disable)
{
	struct perf_thread_map *self = perf_thread_map__new_tid(gettid_());
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_TASK_CLOCK,
				       PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING);
	struct perf_counts_values c0, c1, c2;

	ck_assert_int_eq(evsel__open(evsel, NULL, self), 0);
	ck_assert(evsel__is_open(evsel));
	ck_assert_int_eq(perf_cpu_map__nr(evsel__cpus(evsel)), 1);
	ck_assert_int_eq(perf_cpu_map__cpu(evsel__cpus(evsel), 0).cpu, -1);
	burn();
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c0), 0);
	ck_assert_uint_eq(c0.val, 0);	/* disabled: nothing counted */
	ck_assert_uint_eq(c0.ena, 0);
	ck_assert_int_eq(evsel__enable(evsel), 0);
	burn();
	ck_assert_int_eq(evsel__disable(evsel), 0);
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c1), 0);
	ck_assert_uint_gt(c1.val, 0);
	ck_assert_uint_gt(c1.ena, 0);
	ck_assert_uint_eq(c1.ena, c1.run);	/* a software event is never multiplexed */
	burn();
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c2), 0);
	ck_assert_uint_eq(c2.val, c1.val);
	evsel__close(evsel);
	ck_assert(!evsel__is_open(evsel));
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c2), -EBADF);
	evsel__delete(evsel);
	perf_thread_map__put(self);
}
END_TEST

START_TEST(test_per_cpu_enable_cpu)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_online_cpus();
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, 0);
	struct perf_counts_values c;
	int nr = perf_cpu_map__nr(cpus), i;

	TEST_REQUIRE_ROOT();
	ck_assert_int_eq(evsel__open(evsel, cpus, NULL), 0);
	ck_assert_int_eq(perf_thread_map__pid(evsel__threads(evsel), 0), -1);
	for (i = 0; i < nr; i++)
		ck_assert_int_ge(evsel__fd(evsel, i, 0), 0);
	ck_assert_int_eq(evsel__fd(evsel, nr, 0), -1);
	ck_assert_int_eq(evsel__fd(evsel, 0, 1), -1);
	ck_assert_int_eq(evsel__enable_cpu(evsel, 0), 0);
	burn();
	ck_assert_int_eq(evsel__disable_cpu(evsel, 0), 0);
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c), 0);
	ck_assert_uint_gt(c.val, 0);
	for (i = 1; i < nr; i++) {
		ck_assert_int_eq(evsel__read(evsel, i, 0, &c), 0);
		ck_assert_uint_eq(c.val, 0);
	}
	ck_assert_int_eq(evsel__enable_cpu(evsel, nr), -EINVAL);
	evsel__delete(evsel);
	perf_cpu_map__put(cpus);
}
END_TEST

struct waiter {
	int go[2];
	pid_t tid;
	int calls;
};

static void *waiter_thread(void *arg)
{
	struct waiter *w = arg;
	char c;

	__atomic_store_n(&w->tid, gettid_(), __ATOMIC_RELEASE);
	if (read(w->go[0], &c, 1) != 1)
		return NULL;
	for (int i = 0; i < w->calls; i++)
		syscall(SYS_getpgid, 0);
	return NULL;
}

/* Two threads of this process, one counting tracepoint; only thread 1 enabled. */
START_TEST(test_enable_thread)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT, .disabled = 1 };
	struct waiter w = { .calls = 7 };
	struct perf_thread_map *threads;
	struct perf_counts_values c;
	struct evsel *evsel;
	pthread_t th;
	long id = testlib_tracepoint_id("syscalls", "sys_enter_getpgid");
	pid_t tids[2];

	TEST_REQUIRE_ROOT();
	if (id < 0)
		TEST_SKIP("no syscalls:sys_enter_getpgid tracepoint in tracefs");
	attr.config = id;
	ck_assert_int_eq(pipe(w.go), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, waiter_thread, &w), 0);
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	tids[0] = gettid_();
	tids[1] = w.tid;
	threads = perf_thread_map__new_array(2, tids);
	evsel = evsel__new(&attr);
	ck_assert_int_eq(evsel__open(evsel, NULL, threads), 0);
	ck_assert_int_eq(evsel__enable_thread(evsel, 1), 0);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getpgid, 0);
	ck_assert_int_eq(write(w.go[1], "g", 1), 1);
	pthread_join(th, NULL);
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c), 0);
	ck_assert_uint_eq(c.val, 0);
	ck_assert_int_eq(evsel__read(evsel, 0, 1, &c), 0);
	ck_assert_uint_eq(c.val, 7);
	ck_assert_int_eq(evsel__enable_thread(evsel, 2), -EINVAL);
	evsel__delete(evsel);
	perf_thread_map__put(threads);
	close(w.go[0]);
	close(w.go[1]);
}
END_TEST

START_TEST(test_group_leader_and_member)
{
	struct perf_thread_map *self = perf_thread_map__new_tid(gettid_());
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	struct evsel *leader = sw_evsel(PERF_COUNT_SW_TASK_CLOCK, rf);
	struct evsel *member = sw_evsel(PERF_COUNT_SW_PAGE_FAULTS, rf);
	struct perf_counts_values c;
	uint64_t raw[16], id;

	evsel__attr(member)->disabled = 0;	/* counts whenever its leader does */
	evsel__set_leader(member, leader);
	log_capture_start();
	/* The member first: its leader has no fd to give. */
	ck_assert_int_eq(evsel__open(member, NULL, self), -ENOTCONN);
	ck_assert_msg(log_captured("page-faults"), "log: %s", log_text);
	ck_assert_msg(log_captured("task-clock is not open"), "log: %s", log_text);
	ck_assert(!evsel__is_open(member));

	ck_assert_int_eq(evsel__open(leader, NULL, self), 0);
	ck_assert_int_eq(evsel__open(member, NULL, self), 0);
	ck_assert_int_eq(evsel__enable(leader), 0);
	burn();
	ck_assert_int_eq(evsel__disable(leader), 0);
	/* The kernel's group read lists both: the member really joined the leader. */
	ck_assert_int_gt(read(evsel__fd(leader, 0, 0), raw, sizeof(raw)), 0);
	ck_assert_uint_eq(raw[0], 2);
	ck_assert_int_eq(evsel__id(member, 0, 0, &id), 0);
	ck_assert_uint_eq(raw[5], id);
	ck_assert_int_eq(evsel__read(leader, 0, 0, &c), 0);
	ck_assert_int_eq(evsel__id(leader, 0, 0, &id), 0);
	ck_assert_uint_eq(c.id, id);
	ck_assert_uint_eq(c.val, raw[2]);
	ck_assert_uint_gt(c.val, 0);
	ck_assert_uint_gt(c.ena, 0);
	evsel__delete(member);
	evsel__delete(leader);
	perf_thread_map__put(self);
}
END_TEST

START_TEST(test_ids_per_cpu)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_online_cpus();
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, PERF_FORMAT_ID | PERF_FORMAT_LOST);
	struct perf_counts_values c;
	uint64_t id, prev = 0;
	int i;

	TEST_REQUIRE_ROOT();
	ck_assert_int_eq(evsel__open(evsel, cpus, NULL), 0);
	for (i = 0; i < perf_cpu_map__nr(cpus); i++) {
		ck_assert_int_eq(evsel__id(evsel, i, 0, &id), 0);
		ck_assert_uint_ne(id, prev);
		ck_assert_int_eq(evsel__read(evsel, i, 0, &c), 0);
		ck_assert_uint_eq(c.id, id);
		ck_assert_uint_eq(c.lost, 0);
		prev = id;
	}
	ck_assert_int_eq(evsel__id(evsel, i, 0, &id), -EBADF);
	evsel__delete(evsel);
	perf_cpu_map__put(cpus);
}
END_TEST

/* getpgid 5 times with filter on a counting tracepoint on this thread; the count. */
static uint64_t count_filtered(long id, const char *filter, int expect_err)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT, .config = id,
					.disabled = 1 };
	struct perf_thread_map *self = perf_thread_map__new_tid(gettid_());
	struct evsel *evsel = evsel__new(&attr);
	struct perf_counts_values c;

	ck_assert_int_eq(evsel__open(evsel, NULL, self), 0);
	ck_assert_int_eq(evsel__apply_filter(evsel, filter), expect_err);
	if (!expect_err)
		ck_assert_int_eq(evsel__apply_filter(evsel, filter), -EEXIST);
	ck_assert_int_eq(evsel__enable(evsel), 0);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getpgid, 0);
	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c), 0);
	evsel__delete(evsel);
	perf_thread_map__put(self);
	return c.val;
}

START_TEST(test_apply_filter)
{
	long id = testlib_tracepoint_id("syscalls", "sys_enter_getpgid");
	char filter[64];

	TEST_REQUIRE_ROOT();
	if (id < 0)
		TEST_SKIP("no syscalls:sys_enter_getpgid tracepoint in tracefs");
	/* pid 0 (the idle task) never calls getpgid: nothing passes. */
	ck_assert_uint_eq(count_filtered(id, "common_pid == 0", 0), 0);
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	log_capture_start();
	ck_assert_uint_eq(count_filtered(id, filter, 0), 5);
	ck_assert_msg(log_captured("does not replace one"), "log: %s", log_text);
	log_capture_start();
	ck_assert_uint_eq(count_filtered(id, "no_such_field ===", -EINVAL), 5);
	ck_assert_msg(log_captured("no_such_field ==="), "log: %s", log_text);
}
END_TEST

START_TEST(test_system_wide_opens_dummy_thread)
{
	struct perf_thread_map *self = perf_thread_map__new_tid(getpid());
	struct perf_cpu_map *cpus = perf_cpu_map__new_online_cpus();
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_DUMMY, 0);

	TEST_REQUIRE_ROOT();
	evsel__set_system_wide(evsel, true);
	ck_assert(evsel__system_wide(evsel));
	ck_assert_int_eq(evsel__open(evsel, cpus, self), 0);
	ck_assert_int_eq(perf_thread_map__nr(evsel__threads(evsel)), 1);
	ck_assert_int_eq(perf_thread_map__pid(evsel__threads(evsel), 0), -1);
	ck_assert_int_ge(evsel__fd(evsel, perf_cpu_map__nr(cpus) - 1, 0), 0);
	ck_assert_int_eq(evsel__open(evsel, cpus, self), -EBUSY);
	evsel__delete(evsel);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(self);
}
END_TEST

START_TEST(test_open_errors_name_cause_and_fix)
{
	struct perf_thread_map *self = perf_thread_map__new_tid(gettid_());
	struct perf_event_attr attr = { .type = 0x7fff0000 };
	struct evsel *evsel = evsel__new(&attr);
	struct perf_thread_map *gone;
	pid_t child;

	log_capture_start();
	ck_assert_int_eq(evsel__open(evsel, NULL, self), -ENOENT);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_msg(log_captured("type2147418112/config=0/"), "log: %s", log_text);
	ck_assert_msg(log_captured("CPU -1, thread"), "log: %s", log_text);
	ck_assert_msg(log_captured("does not provide the event"), "log: %s", log_text);
	ck_assert(!evsel__is_open(evsel));
	evsel__delete(evsel);

	attr = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_CPU_CLOCK,
					 .sample_type = 1ULL << 62 };
	evsel = evsel__new(&attr);
	log_capture_start();
	ck_assert_int_eq(evsel__open(evsel, NULL, self), -EINVAL);
	ck_assert_msg(log_captured("cpu-clock"), "log: %s", log_text);
	ck_assert_msg(log_captured("rejected the attr"), "log: %s", log_text);
	evsel__delete(evsel);

	/* A thread that is gone. */
	child = fork();
	if (child == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(child, NULL, 0), child);
	gone = perf_thread_map__new_tid(child);
	evsel = sw_evsel(PERF_COUNT_SW_TASK_CLOCK, 0);
	log_capture_start();
	ck_assert_int_eq(evsel__open(evsel, NULL, gone), -ESRCH);
	ck_assert_msg(log_captured("exited or never existed"), "log: %s", log_text);
	evsel__delete(evsel);
	perf_thread_map__put(gone);
	perf_thread_map__put(self);
}
END_TEST

/* Out of fds half-way through the table: the message names ulimit -n, nothing stays open. */
START_TEST(test_open_emfile_closes_everything)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_online_cpus();
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, 0);
	struct rlimit rl;
	int probe;

	TEST_REQUIRE_ROOT();
	if (perf_cpu_map__nr(cpus) < 2)
		TEST_SKIP("needs two online CPUs");
	/* Room for exactly one more fd. */
	probe = dup(0);
	ck_assert_int_ge(probe, 0);
	close(probe);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = probe + 1;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	log_capture_start();
	ck_assert_int_eq(evsel__open(evsel, cpus, NULL), -EMFILE);
	ck_assert_msg(log_captured("ulimit -n"), "log: %s", log_text);
	ck_assert_msg(log_captured("CPU 1"), "log: %s", log_text);
	ck_assert(!evsel__is_open(evsel));
	/* The first CPU's fd was closed again: the slot is free. */
	probe = dup(0);
	ck_assert_int_ge(probe, 0);
	close(probe);
	evsel__delete(evsel);
	perf_cpu_map__put(cpus);
}
END_TEST

/* What an ordinary user opens under perf_event_paranoid, and how a refusal is explained. */
static void open_unprivileged(void *ctx)
{
	struct perf_cpu_map *cpu0 = perf_cpu_map__new("0");
	struct perf_thread_map *self = perf_thread_map__new_tid(gettid_());
	struct evsel *user = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, 0);
	struct evsel *kernel = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, 0);
	struct evsel *cpu_wide = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, 0);
	int paranoid = testlib_perf_paranoid();
	char says[64];

	(void)ctx;
	snprintf(says, sizeof(says), "perf_event_paranoid is %d", paranoid);
	/* User space of our own thread: allowed at every level up to 2. */
	evsel__attr(user)->exclude_kernel = 1;
	ck_assert_int_eq(evsel__open(user, NULL, self), 0);

	/* Kernel profiling needs paranoid <= 1, a CPU-wide event <= 0. */
	evsel__attr(cpu_wide)->exclude_kernel = 1;
	log_capture_start();
	ck_assert_int_eq(evsel__open(kernel, NULL, self), paranoid > 1 ? -EACCES : 0);
	ck_assert_int_eq(evsel__open(cpu_wide, cpu0, NULL), paranoid > 0 ? -EACCES : 0);
	log_capture_stop();
	if (paranoid > 0) {
		ck_assert_msg(log_captured(says) && log_captured("CPU 0, thread -1") &&
			      log_captured("with CAP_PERFMON") &&
			      log_captured("sysctl kernel.perf_event_paranoid=-1"), "log: %s",
			      log_text);
		ck_assert(!evsel__is_open(cpu_wide));
	}
	if (paranoid > 1)
		ck_assert_msg(log_captured("CPU -1, thread") && log_captured("kernel profiling <= 1"),
			      "log: %s", log_text);
	evsel__delete(user);
	evsel__delete(kernel);
	evsel__delete(cpu_wide);
	perf_cpu_map__put(cpu0);
	perf_thread_map__put(self);
}

START_TEST(test_open_without_privileges)
{
	TEST_REQUIRE_ROOT();
	if (testlib_perf_paranoid() <= 0)
		TEST_SKIP("perf_event_paranoid is %d: nothing is refused to a user",
			  testlib_perf_paranoid());
	testlib_run_unprivileged(0, open_unprivileged, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evsel");
	TCase *tc = tcase_create("evsel");

	tcase_add_test(tc, test_names_and_defaults);
	tcase_add_test(tc, test_task_clock_enable_disable);
	tcase_add_test(tc, test_per_cpu_enable_cpu);
	tcase_add_test(tc, test_enable_thread);
	tcase_add_test(tc, test_group_leader_and_member);
	tcase_add_test(tc, test_ids_per_cpu);
	tcase_add_test(tc, test_apply_filter);
	tcase_add_test(tc, test_system_wide_opens_dummy_thread);
	tcase_add_test(tc, test_open_errors_name_cause_and_fix);
	tcase_add_test(tc, test_open_emfile_closes_everything);
	tcase_add_test(tc, test_open_without_privileges);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
