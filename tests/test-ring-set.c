// SPDX-License-Identifier: LGPL-2.1
/*
 * The ring set against the real kernel: perf data rings (with the AUX test producer beside
 * them), tracefs CPU buffers, task hang-ups and stops, and fake sources that show only the
 * ready rings are drained.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include <auxtrace/evlist.h>
#include <auxtrace/ring-set.h>
#include <tracefs.h>
#include "lib/aux-producer.h"
#include "lib/perf-testlib.h"
#include "lib/testlib.h"

/* A fake ring: a pipe whose bytes its drain reads out, counting its calls. */
struct fake_source {
	int p[2];
	int drains;
	struct ring_stats stats;
};

static ssize_t fake_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	struct fake_source *f = ctx;
	char buf[256];
	ssize_t n = read(f->p[0], buf, sizeof(buf));
	struct iovec iov = { .iov_base = buf, .iov_len = n > 0 ? n : 0 };

	(void)final;
	f->drains++;
	if (n <= 0)
		return 0;
	f->stats.bytes += n;
	return sink->push(sink, &iov, 1);
}

static const struct ring_stats *fake_source__stats(void *ctx)
{
	return &((struct fake_source *)ctx)->stats;
}

static const struct ring_source_ops fake_ops = {
	.drain = fake_source__drain,
	.stats = fake_source__stats,
};

static size_t passes_bytes;

static void count_pass(void *ctx, size_t bytes)
{
	(void)ctx;
	passes_bytes += bytes;
}

/* One ready ring among many idle ones: only it is drained, and the pass is reported. */
START_TEST(test_only_ready_rings_are_drained)
{
	enum { NR = 16 };
	AUXTRACE_OPTS(ring_set_opts, opts, .pass_done = count_pass);
	static struct fake_source f[NR];
	struct ring_sink_memory mem;
	struct ring_stats st;
	struct ring_set *set;
	char out[64];

	set = ring_set__new(&opts);
	ck_assert_ptr_nonnull(set);
	ring_sink_memory__init(&mem, out, sizeof(out));
	for (int i = 0; i < NR; i++) {
		ck_assert_int_eq(pipe2(f[i].p, O_NONBLOCK), 0);
		f[i].drains = 0;
		f[i].stats = (struct ring_stats){ 0 };
		ck_assert_int_eq(ring_set__add_source(set, f[i].p[0], i % 2, RING_SOURCE_OTHER,
						      &fake_ops, &f[i], &mem.sink), 0);
	}
	ck_assert_int_eq(ring_set__nr_rings(set), NR);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);
	ck_assert_int_eq(write(f[5].p[1], "ready", 5), 5);
	passes_bytes = 0;
	ck_assert_int_eq(ring_set__poll(set, 1000), 1);
	for (int i = 0; i < NR; i++)
		ck_assert_int_eq(f[i].drains, i == 5);
	ck_assert_uint_eq(mem.used, 5);
	ck_assert_uint_eq(passes_bytes, 5);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);	/* drained: not ready any more */
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_OTHER, 1, &st), 0);
	ck_assert_uint_eq(st.bytes, 5);
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_OTHER, 0, &st), 0);
	ck_assert_uint_eq(st.bytes, 0);
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_FTRACE, -1, &st), -ENOENT);
	/* an older caller's smaller struct: filled as far as it reaches, and no further */
	{
		struct ring_stats older[2];
		size_t sz = offsetof(struct ring_stats, chunks);

		memset(older, 0x5a, sizeof(older));
		ck_assert_int_eq(ring_set__stats_sz(set, RING_SOURCE_OTHER, 1, older, sz), 0);
		ck_assert_uint_eq(older[0].sz, sz);
		ck_assert_uint_eq(older[0].bytes, 5);
		ck_assert_uint_eq(older[0].chunks, 0x5a5a5a5a5a5a5a5aull);
		ck_assert_int_eq(ring_set__stats_sz(set, RING_SOURCE_OTHER, 1, older, 2), -EINVAL);
	}
	ck_assert_int_eq(ring_set__nr_alive(set), -1);	/* no task-bound fd */
	/* drain_all asks every ring, ready or not */
	ck_assert_int_eq(ring_set__drain_all(set, true), 0);
	for (int i = 0; i < NR; i++)
		ck_assert_int_eq(f[i].drains, i == 5 ? 2 : 1);
	ring_set__delete(set);
	for (int i = 0; i < NR; i++) {
		close(f[i].p[0]);
		close(f[i].p[1]);
	}
}
END_TEST

static struct ring_set *alarm_set;

static void on_alarm(int sig)
{
	(void)sig;
	ring_set__stop(alarm_set);
}

/* A stop from a signal handler ends a poll that would wait for ever; resume undoes it. */
START_TEST(test_stop_from_signal_handler)
{
	struct ring_set *set = ring_set__new(NULL);
	struct fake_source f = { 0 };
	struct ring_sink_memory mem;
	char out[16];

	ck_assert_ptr_nonnull(set);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(pipe2(f.p, O_NONBLOCK), 0);
	ck_assert_int_eq(ring_set__add_source(set, f.p[0], -1, RING_SOURCE_OTHER, &fake_ops, &f,
					      &mem.sink), 0);
	alarm_set = set;
	signal(SIGALRM, on_alarm);
	ualarm(20000, 0);
	ck_assert_int_eq(ring_set__poll(set, -1), -ECANCELED);
	ck_assert_int_eq(errno, ECANCELED);
	ck_assert_int_eq(ring_set__poll(set, 0), -ECANCELED);	/* until resumed */
	ring_set__resume(set);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);
	signal(SIGALRM, SIG_DFL);
	ring_set__delete(set);
	close(f.p[0]);
	close(f.p[1]);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct ring_set *set = ring_set__new(NULL);
	struct ring_sink_memory mem;
	struct fake_source f = { 0 };
	char out[16];

	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(ring_set__add_source(set, -1, 0, RING_SOURCE_OTHER, &fake_ops, &f,
					      &mem.sink), -EINVAL);
	ck_assert_int_eq(ring_set__add_source(set, 0, 0, RING_SOURCE__MAX, &fake_ops, &f,
					      &mem.sink), -EINVAL);
	ck_assert_int_eq(ring_set__add_source(set, 0, 0, RING_SOURCE_OTHER, NULL, &f,
					      &mem.sink), -EINVAL);
	ck_assert_int_eq(ring_set__add_evlist(set, NULL, NULL, &mem.sink, NULL), -EINVAL);
	ck_assert_int_eq(ring_set__poll(NULL, 0), -EINVAL);
	ring_set__delete(set);
	ring_set__delete(NULL);
}
END_TEST

/* sys_enter_getppid sampled on CPU 0, every hit a wakeup. */
static struct evlist *getppid_evlist(struct perf_cpu_map *cpus, struct perf_thread_map *threads)
{
	struct evsel *evsel = testlib_tracepoint_evsel("syscalls", "sys_enter_getppid",
						       PERF_SAMPLE_TID | PERF_SAMPLE_CPU, false);
	struct evlist *evlist;

	if (!evsel)
		return NULL;
	evlist = evlist__new();
	ck_assert_int_eq(evlist__add(evlist, evsel), 0);
	ck_assert_int_eq(evlist__set_maps(evlist, cpus, threads), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	return evlist;
}

/*
 * A real data ring, with the AUX test producer attached to the same control page: one
 * wakeup of the event fd drains the data ring and the AUX area at its idx together.
 */
START_TEST(test_data_ring_and_aux_area_together)
{
	struct aux_producer *p = aux_producer__new(&(struct aux_producer_config){ 0 });
	struct perf_cpu_map *cpus = perf_cpu_map__new("0");
	struct perf_thread_map *threads = perf_thread_map__new_dummy();
	static char data_out[1 << 16], aux_out[1 << 16];
	struct ring_sink_memory data, auxs;
	unsigned char payload[96];
	struct auxtrace_mmaps *aux;
	struct ring_stats st;
	struct evlist *evlist;
	struct ring_set *set;
	int n;

	TEST_REQUIRE_ROOT();
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	evlist = getppid_evlist(cpus, threads);
	if (!evlist)
		TEST_SKIP("no syscalls:sys_enter_getppid tracepoint");
	evsel__set_needs_auxtrace_mmap(evlist__first(evlist), true);
	aux = auxtrace_mmaps__new(evlist, NULL, 16, false);
	aux_producer__route_mmaps(p, aux);
	ck_assert_int_eq(evlist__mmap_ex(evlist, 4, auxtrace_mmaps__hooks(aux)), 0);
	set = ring_set__new(NULL);
	ring_sink_memory__init(&data, data_out, sizeof(data_out));
	ring_sink_memory__init(&auxs, aux_out, sizeof(aux_out));
	ck_assert_int_eq(ring_set__add_evlist(set, evlist, aux, &data.sink, &auxs.sink), 0);
	ck_assert_int_eq(ring_set__nr_rings(set), 1);

	memset(payload, 0xa5, sizeof(payload));
	ck_assert_uint_eq(aux_producer__write(p, payload, sizeof(payload)), sizeof(payload));
	ck_assert_int_eq(ring_set__poll(set, 0), 0);	/* AUX bytes alone wake nobody here */
	evlist__enable(evlist);
	for (int i = 0; i < 10; i++)
		getppid();
	evlist__disable(evlist);
	n = ring_set__poll(set, 1000);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_gt(data.used, 0);
	ck_assert_uint_eq(auxs.used, sizeof(struct perf_record_auxtrace) + sizeof(payload));
	ck_assert_int_eq(ring_set__drain_all(set, true), 0);	/* nothing left anywhere */
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_PERF, 0, &st), 0);
	ck_assert_uint_ge(st.records, 10);
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_AUX, 0, &st), 0);
	ck_assert_uint_eq(st.bytes, auxs.used);
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_PERF, 1, &st), -ENOENT);
	ring_set__delete(set);
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
}
END_TEST

/* pass_done's view: what the data rings of CPUs 0 and 1 had delivered when it was called. */
struct round_check {
	struct ring_set *set;
	uint64_t records[2];
	int calls;
};

static void round_check__pass_done(void *ctx, size_t bytes)
{
	struct round_check *rc = ctx;
	struct ring_stats st;

	(void)bytes;
	for (int cpu = 0; cpu < 2; cpu++) {
		ck_assert_int_eq(ring_set__stats(rc->set, RING_SOURCE_PERF, cpu, &st), 0);
		rc->records[cpu] = st.records;
	}
	rc->calls++;
}

/*
 * Two perf data rings of a sys_enter_getppid event on this thread, CPUs 0 and 1, in a set
 * made with opts (its ctx a round_check): CPU 1's ring holds 10 records, under its wakeup
 * mark of 100, and CPU 0's ring 100, which makes it ready.
 */
struct two_rings {
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct evlist *evlist;
	struct ring_sink_memory mem;
	char out[1 << 16];
};

static bool two_rings__setup(struct two_rings *t, struct round_check *rc,
			     const struct ring_set_opts *opts)
{
	struct evsel *evsel;

	if (!testlib_is_root() || testlib_nr_online_cpus() < 2)
		return false;
	evsel = testlib_tracepoint_evsel("syscalls", "sys_enter_getppid", PERF_SAMPLE_TID, false);
	if (!evsel)
		return false;
	evsel__attr(evsel)->wakeup_events = 100;
	t->cpus = perf_cpu_map__new("0-1");
	t->threads = perf_thread_map__new_tid(getpid());
	t->evlist = evlist__new();
	ck_assert_int_eq(evlist__add(t->evlist, evsel), 0);
	ck_assert_int_eq(evlist__set_maps(t->evlist, t->cpus, t->threads), 0);
	ck_assert_int_eq(evlist__open(t->evlist), 0);
	ck_assert_int_eq(evlist__mmap(t->evlist, 4), 0);
	rc->set = ring_set__new(opts);
	ring_sink_memory__init(&t->mem, t->out, sizeof(t->out));
	ck_assert_int_eq(ring_set__add_evlist(rc->set, t->evlist, NULL, &t->mem.sink, NULL), 0);
	ck_assert_int_eq(ring_set__nr_rings(rc->set), 2);

	evlist__enable(t->evlist);
	ck_assert_int_eq(testlib_pin_cpu(1), 0);
	for (int i = 0; i < 10; i++)
		getppid();
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	for (int i = 0; i < 100; i++)
		getppid();
	evlist__disable(t->evlist);
	return true;
}

static void two_rings__teardown(struct two_rings *t, struct round_check *rc)
{
	ring_set__delete(rc->set);
	evlist__delete(t->evlist);
	perf_cpu_map__put(t->cpus);
	perf_thread_map__put(t->threads);
}

#define TWO_RINGS_SETUP(t, rc, opts)							\
	do {										\
		if (!two_rings__setup(t, rc, opts))					\
			TEST_SKIP("needs root, CPUs 0 and 1 online and the "		\
				  "syscalls:sys_enter_getppid tracepoint");		\
	} while (0)

/*
 * A pass that moved anything has drained every perf data ring when pass_done runs, the ready
 * ones and the others: a perf.data writer puts FINISHED_ROUND there and perf sorts by round,
 * so records left in a ring below its wakeup mark would come out behind newer ones ("out of
 * order events" in perf report). Here CPU 1's ring holds 10 of this thread's records, under
 * its mark of 100, when CPU 0's ring wakes the set.
 */
START_TEST(test_pass_done_follows_every_perf_ring)
{
	struct round_check rc = { 0 };
	AUXTRACE_OPTS(ring_set_opts, opts, .pass_done = round_check__pass_done, .ctx = &rc);
	static struct two_rings t;

	TWO_RINGS_SETUP(&t, &rc, &opts);
	ck_assert_int_eq(ring_set__poll(rc.set, 1000), 1);	/* CPU 0's ring was ready */
	ck_assert_int_eq(rc.calls, 1);
	ck_assert_uint_eq(rc.records[0], 100);
	ck_assert_msg(rc.records[1] == 10, "CPU 1's ring had given %llu of its 10 records when "
		      "the round ended", (unsigned long long)rc.records[1]);
	ck_assert_int_eq(ring_set__drain_all(rc.set, true), 0);	/* nothing was left */
	two_rings__teardown(&t, &rc);
}
END_TEST

/*
 * With round_ms, a wakeup drains only the ready ring (its cost does not grow with the
 * number of rings); the round, with every perf data ring drained before pass_done, comes
 * once round_ms have passed, and a wait for data is cut short for it: a poll with no
 * timeout returns when the round is due, so no record waits for the next wakeup.
 */
START_TEST(test_rounds_every_round_ms)
{
	struct round_check rc = { 0 };
	AUXTRACE_OPTS(ring_set_opts, opts, .pass_done = round_check__pass_done, .ctx = &rc,
		      .round_ms = 2000);
	static struct two_rings t;
	struct ring_stats st;

	TWO_RINGS_SETUP(&t, &rc, &opts);
	ck_assert_int_eq(ring_set__poll(rc.set, 1000), 1);	/* CPU 0's ring was ready */
	ck_assert_int_eq(ring_set__stats(rc.set, RING_SOURCE_PERF, 1, &st), 0);
	ck_assert_msg(st.records == 0 && rc.calls == 0, "a wakeup before the round was due "
		      "drained CPU 1's idle ring (%llu records) or ended a round (%d)",
		      (unsigned long long)st.records, rc.calls);
	/* nothing is ready any more: the wait ends when the round is due */
	ck_assert_int_eq(ring_set__poll(rc.set, -1), 0);
	ck_assert_int_eq(rc.calls, 1);
	ck_assert_uint_eq(rc.records[0], 100);
	ck_assert_uint_eq(rc.records[1], 10);
	ck_assert_int_eq(ring_set__drain_all(rc.set, true), 0);	/* nothing was left */
	ck_assert_int_eq(rc.calls, 1);
	two_rings__teardown(&t, &rc);
}
END_TEST

/* A source whose drain stops the set when it had data, as a signal in the middle would. */
static ssize_t stopping_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	ssize_t n = fake_source__drain(ctx, sink, final);

	if (n > 0)
		ring_set__stop(alarm_set);
	return n;
}

static const struct ring_source_ops stopping_ops = { .drain = stopping_source__drain };

/*
 * A stop (a second ^C) ends drain_all after the ring it is in: -ECANCELED, the rest left
 * in their rings; after ring_set__resume, drain_all takes everything.
 */
START_TEST(test_stop_cuts_drain_all_short)
{
	enum { NR = 4 };
	static struct fake_source f[NR];
	struct ring_sink_memory mem;
	struct ring_set *set;
	char out[64];

	set = ring_set__new(NULL);
	alarm_set = set;
	ring_sink_memory__init(&mem, out, sizeof(out));
	for (int i = 0; i < NR; i++) {
		ck_assert_int_eq(pipe2(f[i].p, O_NONBLOCK), 0);
		f[i].drains = 0;
		ck_assert_int_eq(ring_set__add_source(set, f[i].p[0], i, RING_SOURCE_OTHER,
						      i == 1 ? &stopping_ops : &fake_ops, &f[i],
						      &mem.sink), 0);
		ck_assert_int_eq(write(f[i].p[1], "x", 1), 1);
	}
	ring_set__stop(set);
	ck_assert_int_eq(ring_set__drain_all(set, true), -ECANCELED);
	ck_assert_uint_eq(mem.used, 0);
	ring_set__resume(set);
	ck_assert_int_eq(ring_set__drain_all(set, true), -ECANCELED);	/* ring 1 stops it */
	ck_assert_uint_eq(mem.used, 2);
	ck_assert_int_eq(f[2].drains + f[3].drains, 0);
	ring_set__resume(set);
	ck_assert_int_eq(ring_set__drain_all(set, true), 2);	/* rings 2 and 3 */
	ck_assert_uint_eq(mem.used, 4);
	ring_set__delete(set);
	for (int i = 0; i < NR; i++) {
		close(f[i].p[0]);
		close(f[i].p[1]);
	}
}
END_TEST

/* The fds of a per-thread event on a task hang up when it exits: nr_alive reaches 0. */
START_TEST(test_task_exit_hangs_up)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *threads;
	static char out[1 << 16];
	struct ring_sink_memory mem;
	struct evlist *evlist;
	struct ring_set *set;
	int go[2], status, polls = 0;
	pid_t child;

	TEST_REQUIRE_ROOT();
	ck_assert_int_eq(pipe(go), 0);
	child = fork();
	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			for (int i = 0; i < 5; i++)
				getppid();
		_exit(0);
	}
	close(go[0]);
	threads = perf_thread_map__new_tid(child);
	evlist = getppid_evlist(cpus, threads);
	if (!evlist) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		TEST_SKIP("no syscalls:sys_enter_getppid tracepoint");
	}
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	set = ring_set__new(NULL);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(ring_set__add_evlist(set, evlist, NULL, &mem.sink, NULL), 0);
	ck_assert_int_eq(ring_set__nr_alive(set), 1);
	evlist__enable(evlist);
	ck_assert_int_eq(write(go[1], "x", 1), 1);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	while (ring_set__nr_alive(set) > 0 && polls++ < 100)
		ck_assert_int_ge(ring_set__poll(set, 100), 0);
	ck_assert_int_eq(ring_set__nr_alive(set), 0);
	ck_assert_uint_gt(mem.used, 0);		/* what the task wrote before it went */
	ck_assert_int_eq(ring_set__poll(set, 0), 0);	/* the hung-up fd left the set */
	ring_set__delete(set);
	evlist__delete(evlist);
	close(go[1]);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
}
END_TEST

/* A tracefs CPU buffer as a source: woken at buffer_percent 0, flushed at the end. */
START_TEST(test_tracefs_cpu_source)
{
	const bool buffered = _i;
	struct tracefs_instance *inst;
	static char out[1 << 20];
	struct ring_sink_memory mem;
	struct tracefs_cpu *tcpu;
	struct ring_stats st;
	struct ring_set *set;
	char name[128], filter[64];

	TEST_REQUIRE_ROOT();
	if (!testlib_tracefs())
		TEST_SKIP("tracefs is not mounted");
	testlib_instance_name(name, sizeof(name));
	inst = tracefs_instance_create(name);
	ck_assert_ptr_nonnull(inst);
	ck_assert_int_eq(tracefs_instance_set_buffer_percent(inst, 0), 0);
	/* our calls only: other processes on CPU 0 make getppid calls too */
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	if (tracefs_instance_file_write(inst, "events/syscalls/sys_enter_getppid/filter",
					filter) < 0 ||
	    tracefs_event_enable(inst, "syscalls", "sys_enter_getppid") < 0)
		TEST_SKIP("no syscalls:sys_enter_getppid ftrace event");
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	tcpu = tracefs_cpu_open(inst, 0, true);
	ck_assert_ptr_nonnull(tcpu);
	set = ring_set__new(NULL);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(tracefs_cpu_add_to_ring_set(tcpu, set, buffered, &mem.sink), 0);
	for (int i = 0; i < 50; i++)
		getppid();
	tracefs_trace_off(inst);
	/* ready at once; splice leaves the page the writer is on for the final drain */
	ck_assert_int_ge(ring_set__poll(set, 1000), buffered ? 0 : 1);
	ck_assert_int_ge(ring_set__drain_all(set, true), 0);
	ck_assert_int_eq(ring_set__stats(set, RING_SOURCE_FTRACE, 0, &st), 0);
	ck_assert_uint_eq(st.records, 50);
	ck_assert_uint_eq(st.bytes, mem.used);
	ck_assert_uint_gt(mem.used, 0);
	ring_set__delete(set);
	tracefs_cpu_close(tcpu);
	tracefs_event_disable(inst, NULL, NULL);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ring-set");
	TCase *tc = tcase_create("ring-set");

	tcase_add_test(tc, test_only_ready_rings_are_drained);
	tcase_add_test(tc, test_stop_from_signal_handler);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_data_ring_and_aux_area_together);
	tcase_add_test(tc, test_pass_done_follows_every_perf_ring);
	tcase_add_test(tc, test_task_exit_hangs_up);
	tcase_add_test(tc, test_rounds_every_round_ms);
	tcase_add_test(tc, test_stop_cuts_drain_all_short);
	tcase_add_loop_test(tc, test_tracefs_cpu_source, 0, 2);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
