// SPDX-License-Identifier: LGPL-2.1
/*
 * What one wakeup costs when one ring is ready among 1, 16 and 256 idle ones.
 *
 * ring set:  ring_set__poll(): epoll says which fd is ready, only that ring is drained.
 * drain all: what a loop on a poll that only returns a count must do (auxrec before the
 *            ring set: a poll of every ring fd, then every ring's drain): the same
 *            epoll_wait, then every ring's drain, ready or not.
 *
 * The rings are fake, pipes: an idle ring's drain costs what draining an idle tracefs CPU
 * costs (one non-blocking read(2) that says EAGAIN). Per wakeup, one byte is written to
 * the ready ring's pipe, then the loop under test runs once. Both loops use the same set of
 * fds, side by side in one run.
 *
 * Then auxrec's own path: real perf data rings (a per-thread dummy event each, idle, and
 * one sys_enter_getppid tracepoint ring that a getppid() call wakes), in a ring set with a
 * pass_done that ends rounds (FINISHED_ROUND in perf.data): with round_ms 0 every wakeup is
 * a round and looks at every ring; with auxrec's 10 ms only the ready ring is drained.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/ring-set.h>
#include "util.h"

#define WAKEUPS 20000
#define REPS 5

struct fake_ring {
	int p[2];
};

static ssize_t fake_ring__drain(void *ctx, struct ring_sink *sink, bool final)
{
	struct fake_ring *r = ctx;
	char buf[64];
	ssize_t n = read(r->p[0], buf, sizeof(buf));
	struct iovec iov = { .iov_base = buf, .iov_len = n > 0 ? n : 0 };

	(void)final;
	return n > 0 ? sink->push(sink, &iov, 1) : 0;
}

static const struct ring_source_ops fake_ring_ops = { .drain = fake_ring__drain };

static ssize_t discard(void *ctx, const struct iovec *iov, int iovcnt)
{
	size_t n = 0;

	(void)ctx;
	for (int i = 0; i < iovcnt; i++)
		n += iov[i].iov_len;
	return n;
}

struct bench {
	int nr;
	struct fake_ring *rings;
	struct ring_set *set;
	struct ring_sink_callback sink;
};

static int bench__setup(struct bench *b, int nr)
{
	b->nr = nr;
	b->rings = calloc(nr, sizeof(*b->rings));
	b->set = ring_set__new(NULL);
	if (!b->rings || !b->set)
		return -ENOMEM;
	ring_sink_callback__init(&b->sink, discard, NULL);
	for (int i = 0; i < nr; i++) {
		if (pipe2(b->rings[i].p, O_NONBLOCK | O_CLOEXEC) < 0)
			return -errno;
		if (ring_set__add_source(b->set, b->rings[i].p[0], i, RING_SOURCE_OTHER,
					 &fake_ring_ops, &b->rings[i], &b->sink.sink) < 0)
			return -errno;
	}
	return 0;
}

static void bench__teardown(struct bench *b)
{
	for (int i = 0; b->rings && i < b->nr; i++) {
		close(b->rings[i].p[0]);
		close(b->rings[i].p[1]);
	}
	ring_set__delete(b->set);
	free(b->rings);
}

/* ns per wakeup of the ring set's own loop. */
static double bench__ring_set(struct bench *b)
{
	struct fake_ring *ready = &b->rings[b->nr / 2];
	uint64_t t0 = bench__now_ns();

	for (int i = 0; i < WAKEUPS; i++) {
		if (write(ready->p[1], "x", 1) != 1 || ring_set__poll(b->set, -1) != 1)
			return -1;
	}
	return (double)(bench__now_ns() - t0) / WAKEUPS;
}

/* ns per wakeup of a loop that learns only that something is ready, then drains all. */
static double bench__drain_all(struct bench *b)
{
	struct fake_ring *ready = &b->rings[b->nr / 2];
	int epfd = ring_set__fd(b->set);
	struct epoll_event ev[64];
	uint64_t t0 = bench__now_ns();

	for (int i = 0; i < WAKEUPS; i++) {
		if (write(ready->p[1], "x", 1) != 1 || epoll_wait(epfd, ev, 64, -1) < 1)
			return -1;
		for (int r = 0; r < b->nr; r++)
			if (fake_ring__drain(&b->rings[r], &b->sink.sink, false) < 0)
				return -1;
	}
	return (double)(bench__now_ns() - t0) / WAKEUPS;
}

/* auxrec's path: real perf rings on this thread, one of them woken by each getppid(). */
struct perf_bench {
	int nr;			/* idle rings */
	struct evlist **evlists;	/* [0]: the getppid ring, then the idle ones */
	struct ring_set *set;
	struct ring_sink_callback sink;
};

static void pass_done__count(void *ctx, size_t bytes)
{
	(void)bytes;
	++*(uint64_t *)ctx;
}

/* One evlist with one event on this thread, mapped, in the set. 0 or -errno. */
static int perf_bench__add(struct perf_bench *b, int i, const char *event)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *threads = perf_thread_map__new_tid((int)syscall(SYS_gettid));
	struct evlist *evlist = evlist__new();
	struct evsel *evsel;
	int err = -ENOMEM;

	b->evlists[i] = evlist;
	if (cpus && threads && evlist)
		err = parse_events(evlist, event, NULL, NULL);
	if (!err) {
		evlist__for_each_entry(evlist, evsel) {
			evsel__attr(evsel)->sample_period = 1;
			evsel__attr(evsel)->wakeup_events = 1;
		}
		err = evlist__set_maps(evlist, cpus, threads);
	}
	if (!err)
		err = evlist__open(evlist);
	if (!err)
		err = evlist__mmap(evlist, 1);
	if (!err)
		err = evlist__add_to_ring_set(evlist, b->set, &b->sink.sink);
	if (!err)
		err = evlist__enable(evlist);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return err;
}

static int perf_bench__setup(struct perf_bench *b, int nr, unsigned int round_ms,
			     uint64_t *rounds)
{
	AUXTRACE_OPTS(ring_set_opts, opts, .pass_done = pass_done__count, .ctx = rounds,
		      .round_ms = round_ms);
	int err = 0;

	b->nr = nr;
	b->evlists = calloc(nr + 1, sizeof(*b->evlists));
	b->set = ring_set__new(&opts);
	if (!b->evlists || !b->set)
		return -ENOMEM;
	ring_sink_callback__init(&b->sink, discard, NULL);
	err = perf_bench__add(b, 0, "syscalls:sys_enter_getppid");
	for (int i = 1; !err && i <= nr; i++)
		err = perf_bench__add(b, i, "dummy");
	return err;
}

static void perf_bench__teardown(struct perf_bench *b)
{
	for (int i = 0; b->evlists && i <= b->nr; i++)
		evlist__delete(b->evlists[i]);
	ring_set__delete(b->set);
	free(b->evlists);
}

/* ns per wakeup: a getppid() writes a record and wakes the set, which drains. */
static double perf_bench__run(struct perf_bench *b)
{
	uint64_t t0 = bench__now_ns();

	for (int i = 0; i < WAKEUPS; i++) {
		syscall(SYS_getppid);
		if (ring_set__poll(b->set, -1) < 0)
			return -1;
	}
	return (double)(bench__now_ns() - t0) / WAKEUPS;
}

/* The table of auxrec's path. 0, or 1 when the kernel refused something. */
static int perf_bench__table(const int *counts, int nr_counts)
{
	static const unsigned int round_ms[2] = { 0, 10 };
	double ns[3][2];

	printf("\nauxrec's path: real perf rings (idle per-thread dummy events), one woken by a\n"
	       "getppid() tracepoint record per wakeup; rounds end with pass_done (FINISHED_ROUND)\n\n");
	printf("%8s %20s %20s %16s\n", "rings", "round every poll ns", "round_ms 10 ns",
	       "rounds (each)");
	for (int c = 0; c < nr_counts; c++) {
		uint64_t rounds[2] = { 0, 0 };

		for (int m = 0; m < 2; m++) {
			struct perf_bench b = { 0 };
			double v[REPS];
			int err = perf_bench__setup(&b, counts[c], round_ms[m], &rounds[m]);

			for (int r = 0; !err && r < REPS; r++)
				if ((v[r] = perf_bench__run(&b)) < 0)
					err = -errno;
			perf_bench__teardown(&b);
			if (err) {
				fprintf(stderr, "bench-ring-set: perf rings, %d idle: %s\n", counts[c],
					strerror(-err));
				return 1;
			}
			ns[c][m] = bench__median(v, REPS);
		}
		printf("%8d %20.0f %20.0f %9llu/%-6llu\n", counts[c], ns[c][0], ns[c][1],
		       (unsigned long long)rounds[0], (unsigned long long)rounds[1]);
	}
	printf("\n256 idle rings against 1: round every poll %.2fx, round_ms 10 %.2fx (flat is 1.0x)\n",
	       ns[nr_counts - 1][0] / ns[0][0], ns[nr_counts - 1][1] / ns[0][1]);
	return 0;
}

int main(void)
{
	static const int counts[] = { 1, 16, 256 };
	struct rlimit rl;
	double set_ns[3], all_ns[3];

	bench__print_lib_warnings("bench-ring-set");
	bench__pin_self(0);
	/* 256 pipes are 512 fds: raise the soft limit to the hard one */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	printf("bench-ring-set: one wakeup with one ready ring among N (fake rings: pipes;\n"
	       "an idle ring's drain is one read(2) that says EAGAIN), median of %d x %d wakeups\n\n",
	       REPS, WAKEUPS);
	printf("%8s %16s %16s %10s\n", "rings", "ring set ns", "drain all ns", "all/set");
	for (int c = 0; c < 3; c++) {
		double s[REPS], a[REPS];
		struct bench b = { 0 };

		if (bench__setup(&b, counts[c]) < 0) {
			fprintf(stderr, "bench-ring-set: setting up %d rings: %m\n", counts[c]);
			bench__teardown(&b);
			return 1;
		}
		for (int r = 0; r < REPS; r++) {
			s[r] = bench__ring_set(&b);
			a[r] = bench__drain_all(&b);
			if (s[r] < 0 || a[r] < 0) {
				fprintf(stderr, "bench-ring-set: a wakeup failed: %m\n");
				bench__teardown(&b);
				return 1;
			}
		}
		set_ns[c] = bench__median(s, REPS);
		all_ns[c] = bench__median(a, REPS);
		printf("%8d %16.0f %16.0f %9.1fx\n", counts[c], set_ns[c], all_ns[c],
		       all_ns[c] / set_ns[c]);
		bench__teardown(&b);
	}
	printf("\nring set, 256 rings against 1: %.2fx (flat is 1.0x); drain all: %.1fx\n",
	       set_ns[2] / set_ns[0], all_ns[2] / all_ns[0]);
	return perf_bench__table(counts, 3);
}
