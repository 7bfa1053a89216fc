// SPDX-License-Identifier: LGPL-2.1
/*
 * The ring set against the real kernel: perf data rings (with the AUX test producer beside
 * them), tracefs CPU buffers, task hang-ups and stops, and fake sources that show only the
 * ready rings are drained, followers with their leaders, and rounds over the sources that
 * ask for them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/evlist.h>
#include <auxtrace/ring-set.h>
#include <tracefs.h>
#include "lib/aux-producer.h"
#include "lib/log-capture.h"
#include "lib/perf-testlib.h"
#include "lib/testlib.h"

/* A fake ring: a pipe whose bytes its drain reads out, counting its calls. */
struct fake_source {
	int p[2];
	int drains;
	int last;		/* the drain_seq of its last drain */
	struct ring_stats stats;
};

static int drain_seq;	/* drains of every fake source so far: their order */

static ssize_t fake_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	struct fake_source *f = ctx;
	char buf[256];
	ssize_t n = read(f->p[0], buf, sizeof(buf));
	struct iovec iov = { .iov_base = buf, .iov_len = n > 0 ? n : 0 };

	(void)final;
	f->drains++;
	f->last = ++drain_seq;
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

/* Per CPU, the sink a rotation moves the sources to; NULL at cpu refuse_cpu. */
struct next_sinks {
	struct ring_sink_memory mem[2];
	int refuse_cpu;
};

static struct ring_sink *next_sink_of(void *ctx, int cpu)
{
	struct next_sinks *n = ctx;

	if (cpu == n->refuse_cpu) {
		errno = ENOSPC;
		return NULL;
	}
	return &n->mem[cpu].sink;
}

/*
 * A rotation: the sources of one kind move to new sinks, each its CPU's, and what their
 * rings hold goes there from then on, none of it to the old sink; the other kinds stay. A
 * sink that cannot be had leaves every source where it was.
 */
START_TEST(test_set_sinks_moves_one_kind)
{
	static struct fake_source f[3];
	struct ring_sink_memory old, other;
	struct next_sinks next = { .refuse_cpu = 1 };
	char old_buf[64], other_buf[64], next_buf[2][64];
	struct ring_set *set = ring_set__new(NULL);

	ck_assert_ptr_nonnull(set);
	ring_sink_memory__init(&old, old_buf, sizeof(old_buf));
	ring_sink_memory__init(&other, other_buf, sizeof(other_buf));
	for (int i = 0; i < 2; i++)
		ring_sink_memory__init(&next.mem[i], next_buf[i], sizeof(next_buf[i]));
	for (int i = 0; i < 3; i++) {
		f[i] = (struct fake_source){ 0 };
		ck_assert_int_eq(pipe2(f[i].p, O_NONBLOCK), 0);
		ck_assert_int_eq(ring_set__add_source(set, f[i].p[0], i % 2,
						      i < 2 ? RING_SOURCE_FTRACE : RING_SOURCE_OTHER,
						      &fake_ops, &f[i], i < 2 ? &old.sink : &other.sink), 0);
		ck_assert_int_eq(write(f[i].p[1], "ab", 2), 2);
	}
	ck_assert_int_eq(ring_set__drain_all(set, false), 6);
	ck_assert_uint_eq(old.used, 4);
	/* CPU 1 has no sink: nothing moves, and the cause is the sink_of's */
	ck_assert_int_eq(ring_set__set_sinks(set, RING_SOURCE_FTRACE, next_sink_of, &next), -ENOSPC);
	next.refuse_cpu = -2;
	ck_assert_int_eq(ring_set__set_sinks(set, RING_SOURCE_FTRACE, next_sink_of, &next), 2);
	ck_assert_int_eq(ring_set__set_sinks(set, RING_SOURCE_AUX, next_sink_of, &next), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(write(f[i].p[1], "cde", 3), 3);
	ck_assert_int_eq(ring_set__drain_all(set, false), 9);
	ck_assert_uint_eq(old.used, 4);
	ck_assert_uint_eq(next.mem[0].used, 3);
	ck_assert_uint_eq(next.mem[1].used, 3);
	ck_assert_uint_eq(other.used, 5);
	ck_assert_int_eq(memcmp(next_buf[1], "cde", 3), 0);
	ck_assert_int_eq(ring_set__set_sinks(NULL, RING_SOURCE_FTRACE, next_sink_of, &next), -EINVAL);
	ck_assert_int_eq(ring_set__set_sinks(set, RING_SOURCE__MAX, next_sink_of, &next), -EINVAL);
	ck_assert_int_eq(ring_set__set_sinks(set, RING_SOURCE_FTRACE, NULL, &next), -EINVAL);
	ring_set__delete(set);
	for (int i = 0; i < 3; i++) {
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

static void *stopper(void *set)
{
	ring_set__stop(set);
	return NULL;
}

/* A stop from another thread, before or during a wait, ends it; resume undoes it. */
START_TEST(test_stop_from_thread)
{
	struct ring_set *set = ring_set__new(NULL);
	pthread_t th;

	ck_assert_ptr_nonnull(set);
	ck_assert_int_ge(ring_set__fd(set), 0);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, stopper, set), 0);
	ck_assert_int_eq(ring_set__poll(set, -1), -ECANCELED);
	pthread_join(th, NULL);
	ck_assert_int_eq(ring_set__poll(set, -1), -ECANCELED);	/* until resumed */
	ring_set__resume(set);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);
	ring_set__delete(set);
}
END_TEST

/* A fake source as struct ring_source: no fd yet. */
static int fake_source__add(struct ring_set *set, struct fake_source *f, unsigned int flags,
			    struct ring_sink *sink)
{
	AUXTRACE_OPTS(ring_source, src, .kind = RING_SOURCE_OTHER, .cpu = -1, .flags = flags,
		      .ops = &fake_ops, .ctx = f, .sink = sink);

	ck_assert_int_eq(pipe2(f->p, O_NONBLOCK), 0);
	*f = (struct fake_source){ .p = { f->p[0], f->p[1] } };
	return ring_set__add(set, &src);
}

static void fake_source__close(struct fake_source *f)
{
	close(f->p[0]);
	close(f->p[1]);
}

/*
 * Followers (an AUX area behind its data ring) are drained right after their leader, in the
 * order they were added, whenever it is and only then: their own bytes wake nobody.
 */
START_TEST(test_followers_drain_with_their_leader)
{
	static struct fake_source lead, f1, f2, other;
	struct ring_sink_memory mem;
	struct ring_set *set;
	int l, a, b, o;
	char out[64];

	set = ring_set__new(NULL);
	ring_sink_memory__init(&mem, out, sizeof(out));
	l = fake_source__add(set, &lead, 0, &mem.sink);
	a = fake_source__add(set, &f1, 0, &mem.sink);
	b = fake_source__add(set, &f2, 0, &mem.sink);
	o = fake_source__add(set, &other, 0, &mem.sink);
	ck_assert(l == 0 && a == 1 && b == 2 && o == 3);
	ck_assert_int_eq(ring_set__watch(set, l, lead.p[0], 0), 0);
	ck_assert_int_eq(ring_set__watch(set, o, other.p[0], 0), 0);
	ck_assert_int_eq(ring_set__follow(set, a, l), 0);
	ck_assert_int_eq(ring_set__follow(set, b, l), 0);
	ck_assert_int_eq(ring_set__find_source(set, &f2), b);
	/* one level, no loops */
	ck_assert_int_eq(ring_set__follow(set, a, a), -EINVAL);
	ck_assert_int_eq(ring_set__follow(set, a, o), -EINVAL);	/* follows one only */
	ck_assert_int_eq(ring_set__follow(set, l, o), -EINVAL);	/* a leader follows none */
	ck_assert_int_eq(ring_set__follow(set, o, a), -EINVAL);	/* a follower leads none */

	ck_assert_int_eq(write(f1.p[1], "a", 1), 1);
	ck_assert_int_eq(write(f2.p[1], "b", 1), 1);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);
	ck_assert_int_eq(f1.drains + f2.drains, 0);
	ck_assert_int_eq(write(lead.p[1], "L", 1), 1);
	ck_assert_int_eq(ring_set__poll(set, 1000), 1);
	ck_assert_int_eq(lead.drains, 1);
	ck_assert_msg(f1.drains == 1 && f2.drains == 1 && lead.last < f1.last &&
		      f1.last < f2.last, "followers drained %d and %d times, in the order %d %d "
		      "%d", f1.drains, f2.drains, lead.last, f1.last, f2.last);
	ck_assert_int_eq(other.drains, 0);
	ck_assert_uint_eq(mem.used, 3);
	/* drain_all: each once, the followers behind their leader */
	ck_assert_int_eq(ring_set__drain_all(set, true), 0);
	ck_assert(lead.drains == 2 && f1.drains == 2 && f2.drains == 2 && other.drains == 1);
	ck_assert(lead.last < f1.last && f1.last < f2.last);
	ring_set__delete(set);
	fake_source__close(&lead);
	fake_source__close(&f1);
	fake_source__close(&f2);
	fake_source__close(&other);
}
END_TEST

/*
 * A round drains every RING_SOURCE_F_ROUND source that was not ready (a perf data ring under
 * its wakeup mark) before pass_done, and leaves the others alone.
 */
START_TEST(test_round_drains_round_sources)
{
	struct ring_set_opts opts = { .sz = sizeof(opts), .pass_done = count_pass };
	static struct fake_source waker, ready_round, idle_round, idle;
	struct ring_sink_memory mem;
	struct ring_set *set;
	char out[64];
	int w, r;

	set = ring_set__new(&opts);
	ring_sink_memory__init(&mem, out, sizeof(out));
	w = fake_source__add(set, &waker, 0, &mem.sink);
	r = fake_source__add(set, &ready_round, RING_SOURCE_F_ROUND, &mem.sink);
	ck_assert_int_ge(fake_source__add(set, &idle_round, RING_SOURCE_F_ROUND, &mem.sink), 0);
	ck_assert_int_ge(fake_source__add(set, &idle, 0, &mem.sink), 0);
	ck_assert_int_eq(ring_set__watch(set, w, waker.p[0], 0), 0);
	ck_assert_int_eq(ring_set__watch(set, r, ready_round.p[0], 0), 0);
	/* idle_round and idle have bytes, but no fd to say so */
	ck_assert_int_eq(write(idle_round.p[1], "12", 2), 2);
	ck_assert_int_eq(write(idle.p[1], "xyz", 3), 3);
	ck_assert_int_eq(write(waker.p[1], "w", 1), 1);
	ck_assert_int_eq(write(ready_round.p[1], "r", 1), 1);
	passes_bytes = 0;
	ck_assert_int_eq(ring_set__poll(set, 1000), 2);
	ck_assert_msg(idle_round.drains == 1, "the round drained the idle round source %d times",
		      idle_round.drains);
	ck_assert_int_eq(ready_round.drains, 1);	/* drained when ready: not again */
	ck_assert_int_eq(idle.drains, 0);
	ck_assert_uint_eq(passes_bytes, 4);
	ck_assert_uint_eq(mem.used, 4);
	ring_set__delete(set);
	fake_source__close(&waker);
	fake_source__close(&ready_round);
	fake_source__close(&idle_round);
	fake_source__close(&idle);
}
END_TEST

/*
 * A fd wakes one source; a task-bound one counts in nr_alive until it hangs up, and a fd
 * that hung up is drained once more and leaves the set (the loop must not spin on it).
 */
START_TEST(test_watch_task_fd_hang_up)
{
	static struct fake_source f, g;
	struct ring_sink_memory mem;
	struct ring_set *set;
	char out[64];
	int id;

	set = ring_set__new(NULL);
	ring_sink_memory__init(&mem, out, sizeof(out));
	id = fake_source__add(set, &f, 0, &mem.sink);
	ck_assert_int_eq(ring_set__watch(set, id, f.p[0], 7), -EINVAL);	/* unknown flags */
	ck_assert_int_eq(ring_set__watch(set, id, f.p[0], RING_WATCH_F_TASK), 0);
	ck_assert_int_eq(ring_set__nr_alive(set), 1);
	log_capture_start();
	ck_assert_int_eq(ring_set__add_source(set, f.p[0], -1, RING_SOURCE_OTHER, &fake_ops, &g,
					      &mem.sink), -EEXIST);
	log_capture_stop();
	ck_assert_msg(log_captured("ring_set__follow"), "log: %s", log_text);
	ck_assert_int_eq(ring_set__nr_rings(set), 1);	/* the refused source is gone */
	ck_assert_int_eq(write(f.p[1], "x", 1), 1);
	ck_assert_int_eq(ring_set__poll(set, -1), 1);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);	/* drained */
	ck_assert_int_eq(write(f.p[1], "y", 1), 1);
	close(f.p[1]);
	ck_assert_int_eq(ring_set__poll(set, -1), 1);	/* the hang-up, and what came before */
	ck_assert_uint_eq(mem.used, 2);
	ck_assert_int_eq(ring_set__nr_alive(set), 0);
	ck_assert_int_eq(ring_set__poll(set, 0), 0);	/* out of the set */
	ring_set__delete(set);
	close(f.p[0]);
}
END_TEST

/*
 * struct ring_source follows the option structs' rule (tests/test-opts.c checks it at large):
 * sz not set, or a newer caller's byte set past this library's struct, is refused. Its
 * fields are required, so an older caller's struct that lacks one is refused too; and
 * unknown flags are.
 */
START_TEST(test_source_struct_size)
{
	struct {
		struct ring_source src;
		char newer[8];
	} big;
	struct ring_set *set = ring_set__new(NULL);
	struct ring_sink_memory mem;
	struct fake_source f = { 0 };
	char out[16];

	ring_sink_memory__init(&mem, out, sizeof(out));
	memset(&big, 0, sizeof(big));
	big.src = (struct ring_source){ .sz = sizeof(big), .kind = RING_SOURCE_OTHER, .cpu = -1,
					.ops = &fake_ops, .ctx = &f, .sink = &mem.sink };
	log_capture_start();
	ck_assert_int_eq(ring_set__add(set, &big.src), 0);
	big.newer[5] = 1;
	ck_assert_int_eq(ring_set__add(set, &big.src), -EINVAL);
	ck_assert_msg(log_captured("struct ring_source") &&
		      log_captured("built against a newer libauxtrace"), "log: %s", log_text);
	big.newer[5] = 0;
	big.src.sz = 0;
	ck_assert_int_eq(ring_set__add(set, &big.src), -EINVAL);
	ck_assert_msg(log_captured("AUXTRACE_OPTS(ring_source"), "log: %s", log_text);
	big.src.sz = offsetof(struct ring_source, sink);	/* no sink */
	ck_assert_int_eq(ring_set__add(set, &big.src), -EINVAL);
	big.src.sz = sizeof(struct ring_source);
	big.src.flags = 1u << 7;
	ck_assert_int_eq(ring_set__add(set, &big.src), -EINVAL);
	big.src.flags = RING_SOURCE_F_ROUND;
	ck_assert_int_eq(ring_set__add(set, &big.src), 1);
	log_capture_stop();
	ck_assert_int_eq(ring_set__nr_rings(set), 2);
	ring_set__delete(set);
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
	ck_assert_int_eq(evlist__add_to_ring_set(NULL, set, &mem.sink), -EINVAL);
	ck_assert_int_eq(auxtrace_mmaps__add_to_ring_set(NULL, set, &mem.sink), -EINVAL);
	ck_assert_int_eq(ring_set__add(set, NULL), -EINVAL);
	ck_assert_int_eq(ring_set__watch(set, 0, 0, 0), -EINVAL);	/* no source 0 */
	ck_assert_int_eq(ring_set__follow(set, 0, 1), -EINVAL);
	ck_assert_int_eq(ring_set__find_source(set, &f), -ENOENT);
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
	log_capture_start();
	ck_assert_int_eq(auxtrace_mmaps__add_to_ring_set(aux, set, &auxs.sink), -ENOENT);
	log_capture_stop();
	ck_assert_msg(log_captured("call evlist__add_to_ring_set first"), "log: %s", log_text);
	ck_assert_int_eq(evlist__add_to_ring_set(evlist, set, &data.sink), 0);
	ck_assert_int_eq(auxtrace_mmaps__add_to_ring_set(aux, set, &auxs.sink), 0);
	ck_assert_int_eq(ring_set__nr_rings(set), 2);	/* the data ring, the AUX area after it */

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
	ck_assert_int_eq(evlist__add_to_ring_set(t->evlist, rc->set, &t->mem.sink), 0);
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

static uint64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
	uint64_t start;

	TWO_RINGS_SETUP(&t, &rc, &opts);
	ck_assert_int_eq(ring_set__poll(rc.set, 1000), 1);	/* CPU 0's ring was ready */
	ck_assert_int_eq(ring_set__stats(rc.set, RING_SOURCE_PERF, 1, &st), 0);
	ck_assert_msg(st.records == 0 && rc.calls == 0, "a wakeup before the round was due "
		      "drained CPU 1's idle ring (%llu records) or ended a round (%d)",
		      (unsigned long long)st.records, rc.calls);
	/*
	 * nothing is ready any more: the wait ends when the round is due, with no timeout of
	 * the caller's (_i 0) and with one longer than the round's (_i 1)
	 */
	start = monotonic_ms();
	ck_assert_int_eq(ring_set__poll(rc.set, _i ? 30000 : -1), 0);
	ck_assert_msg(monotonic_ms() - start < 10000, "a due round waited for the caller's "
		      "timeout: %llu ms", (unsigned long long)(monotonic_ms() - start));
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
	ck_assert_int_eq(evlist__add_to_ring_set(evlist, set, &mem.sink), 0);
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
	tcase_add_test(tc, test_set_sinks_moves_one_kind);
	tcase_add_test(tc, test_stop_from_thread);
	tcase_add_test(tc, test_followers_drain_with_their_leader);
	tcase_add_test(tc, test_round_drains_round_sources);
	tcase_add_test(tc, test_watch_task_fd_hang_up);
	tcase_add_test(tc, test_source_struct_size);
	tcase_add_test(tc, test_data_ring_and_aux_area_together);
	tcase_add_test(tc, test_pass_done_follows_every_perf_ring);
	tcase_add_test(tc, test_task_exit_hangs_up);
	tcase_add_loop_test(tc, test_rounds_every_round_ms, 0, 2);
	tcase_add_test(tc, test_stop_cuts_drain_all_short);
	tcase_add_loop_test(tc, test_tracefs_cpu_source, 0, 2);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
