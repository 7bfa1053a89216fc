// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf data ring, side by side on one load: libauxtrace's consumer core and libbpf's
 * perf_buffer draining the same bpf-output events, fed by a BPF program on
 * syscalls:sys_enter_getppid while a thread pinned to the first CPU calls getppid() in a loop.
 *
 * Rows (each one a way to drain the rings the BPF map points at):
 *   ceiling          no consumer, no wakeups: the producer unhindered. It writes bursts of
 *                    3/4 of a ring as large as the consumers' rings, emptied between bursts
 *                    (a ring large enough for a whole row would not stay in the caches, and
 *                    its cache misses made that "ceiling" slower than a drained ring)
 *   ceiling, wakeup  the same with a wakeup per record (what wakeup_events = 1 costs the
 *                    producer: an irq_work even when nobody sleeps on the ring)
 *   push             evlist + ring set (evlist__add_to_ring_set: ring_set__poll pushes each
 *                    ready ring with perf_mmap__push) to a sink that takes the bytes (a file
 *                    sink without the write); the core counts the records (-W: the sink
 *                    walks the records itself, a second pass over them)
 *   read_event       the same rings through perf_mmap__read_event (the per-record API), as
 *                    ring set sources of the caller's own (ring_set__add_source)
 *   perf_buffer      libbpf 1.1: perf_buffer__new + perf_buffer__poll (wakeup per record)
 *
 * The machine may be shared and noisy, so the rows run interleaved, round after round, and
 * the table shows medians. "x ceiling" compares each row with the ceiling of its own round,
 * both counted per second of the producer thread's CPU time: when another task takes the
 * producer's CPU, wall-clock rates fall for reasons that are neither ring's.
 * The consumer runs on the last CPU, the producer on the first. Figures only: the exit code
 * says whether the bench could run, never how fast it was.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>

#include <auxtrace/cpumap.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/mmap.h>
#include <auxtrace/ring-set.h>

#include "bpf-getppid.h"
#include "util.h"

#define NAME "bench-perf-ring"
#define MAX_RUNS 101
#define bench_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct opts {
	double seconds;		/* producer run per row and round */
	int rounds;		/* throughput rounds (medians are printed) */
	unsigned int pages;	/* data pages per CPU ring (ours and perf_buffer alike) */
	unsigned int wakeup_div; /* ours wakes up every ring/wakeup_div bytes */
	unsigned int payload;	/* raw bytes per record */
	int reps;		/* pre-filled drains per consumer (the median is printed) */
	bool walk;		/* the push sink walks the records */
};

struct bench {
	struct opts opts;
	struct bpf_getppid bpf;
	struct perf_cpu_map *online;
	int prod_cpu, cons_cpu;
	size_t page;
	size_t rec_size;
	size_t ring_bytes;
	uint64_t prefill;	/* records per pre-filled drain and per ceiling burst */
};

struct consumer;

struct consumer_ops {
	/* Point the BPF map at this consumer's rings and reset its stop state. 0 or -errno. */
	int (*route)(struct bench *b, struct consumer *c);
	/* Wait for data and drain what is ready: 0, 1 once the producer is done, -errno.
	 * NULL: nobody consumes while the producer runs (a ceiling: it runs in bursts). */
	int (*poll)(struct consumer *c);
	/* Drain (count) everything there now, without waiting. 0 or -errno. */
	int (*drain)(struct consumer *c);
	/* Run by the producer thread when it stops. */
	void (*stop)(void *c);
	uint64_t (*lost)(struct consumer *c);
};

/* One row of the table. */
struct consumer {
	const char *name;
	const struct consumer_ops *ops;
	uint64_t samples;	/* PERF_RECORD_SAMPLEs seen by drains */
	/* per round / per repetition */
	double rate[MAX_RUNS], cpu[MAX_RUNS], drain_ns[MAX_RUNS];
	/* records per second of the producer's CPU time, and its ratio to the ceiling's */
	double rate_cpu[MAX_RUNS], ratio[MAX_RUNS];
	/* over all rounds */
	uint64_t produced, delivered, lost, preempted;
	double cpu_s;
};

static int die_errno(const char *what, int err)
{
	fprintf(stderr, NAME ": %s: %s\n", what, strerror(err < 0 ? -err : err));
	return -1;
}

/* ---- the producer's ceiling: rings we map ourselves and only count ----------------------- */

struct raw_ring {
	int fd;
	struct perf_event_mmap_page *pg;
	size_t len, size;
};

struct ceiling {
	struct consumer c;
	struct bench *b;
	bool wakeup_each;
	int nr;
	struct raw_ring *rings;
	bool filled;
};

static int raw_ring__open(struct raw_ring *r, int cpu, size_t size, bool wakeup_each)
{
	struct perf_event_attr attr;
	long page = sysconf(_SC_PAGESIZE);
	void *base;

	bpf_getppid__output_attr(&attr);
	if (!wakeup_each) {
		attr.watermark = 1;
		attr.wakeup_watermark = size;
	}
	r->fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->size = size;
	r->len = page + size;
	base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (base == MAP_FAILED) {
		int err = -errno;

		close(r->fd);
		return err;
	}
	r->pg = base;
	return 0;
}

static void raw_ring__close(struct raw_ring *r)
{
	munmap(r->pg, r->len);
	close(r->fd);
}

/* Bytes written since the last call, which gives them back to the kernel unread. */
static uint64_t raw_ring__take(struct raw_ring *r)
{
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t bytes = head - r->pg->data_tail;

	__atomic_store_n(&r->pg->data_tail, head, __ATOMIC_RELEASE);
	return bytes;
}

static int ceiling__route(struct bench *b, struct consumer *c)
{
	struct ceiling *ce = bench_container_of(c, struct ceiling, c);
	int i, err;

	for (i = 0; i < ce->nr; i++) {
		err = bpf_getppid__set_output(&b->bpf, perf_cpu_map__cpu(b->online, i).cpu,
					      ce->rings[i].fd);
		if (err)
			return err;
	}
	return 0;
}

/* Every record is the program's, all of one size: count them by the head. */
static int ceiling__drain(struct consumer *c)
{
	struct ceiling *ce = bench_container_of(c, struct ceiling, c);
	int i;

	for (i = 0; i < ce->nr; i++) {
		uint64_t bytes = raw_ring__take(&ce->rings[i]);

		if (bytes + ce->b->rec_size > ce->rings[i].size)
			ce->filled = true;
		c->samples += bytes / ce->b->rec_size;
	}
	return 0;
}

static uint64_t ceiling__lost(struct consumer *c)
{
	(void)c;
	return 0;
}

static const struct consumer_ops ceiling_ops = {
	.route = ceiling__route,
	.drain = ceiling__drain,
	.lost = ceiling__lost,
};

static int ceiling__open(struct bench *b, struct ceiling *ce)
{
	int i, err;

	ce->c.ops = &ceiling_ops;
	ce->b = b;
	ce->rings = calloc(perf_cpu_map__nr(b->online), sizeof(*ce->rings));
	if (!ce->rings)
		return die_errno("ceiling rings", -ENOMEM);
	for (i = 0; i < perf_cpu_map__nr(b->online); i++) {
		int cpu = perf_cpu_map__cpu(b->online, i).cpu;

		err = raw_ring__open(&ce->rings[i], cpu, b->ring_bytes, ce->wakeup_each);
		if (err)
			return die_errno("ceiling: perf_event_open + mmap of a bpf-output event",
					 err);
		ce->nr++;
	}
	return 0;
}

static void ceiling__close(struct ceiling *ce)
{
	int i;

	for (i = 0; i < ce->nr; i++)
		raw_ring__close(&ce->rings[i]);
	free(ce->rings);
}

/* ---- libauxtrace: evlist of one bpf-output evsel per CPU --------------------------------- */

/* Takes the bytes as a file sink would, without the write. */
static ssize_t byte_sink__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	ssize_t total = 0;
	int i;

	(void)sink;
	for (i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	return total;
}

/* Counts the samples in the raw spans it is handed: a second pass over the records. */
struct sample_counter {
	struct ring_sink sink;
	uint64_t *samples;
};

static ssize_t sample_counter__push(struct ring_sink *sink, const struct iovec *iov,
				    int iovcnt)
{
	struct sample_counter *sc = bench_container_of(sink, struct sample_counter, sink);
	size_t carry = 0, total = 0;
	int i;

	for (i = 0; i < iovcnt; i++) {
		const char *p = iov[i].iov_base;
		size_t len = iov[i].iov_len, off = carry;

		total += len;
		/* Records are 8-byte aligned: a header never straddles two spans, a body may. */
		while (off < len) {
			const struct perf_event_header *hdr = (const void *)(p + off);

			if (len - off < sizeof(*hdr) || hdr->size < sizeof(*hdr))
				return -EBADMSG;
			*sc->samples += hdr->type == PERF_RECORD_SAMPLE;
			off += hdr->size;
		}
		carry = off - len;
	}
	return total;
}

/* Both rows of ours read the same rings, each through a ring set of its own. */
struct ours {
	struct consumer c;
	struct evlist *evlist;
	struct evsel *evsel;
	bool walk;
	struct ring_set *set;
	struct sample_counter sc;
	struct ring_sink bytes;
	struct read_event_source *sources;	/* read_event: one per ring */
};

/* A data ring read record by record: the read_event row's source. */
struct read_event_source {
	struct perf_mmap *map;
	uint64_t *samples;
};

static int ours__route(struct bench *b, struct consumer *c)
{
	struct ours *o = bench_container_of(c, struct ours, c);
	struct perf_cpu_map *cpus = evsel__cpus(o->evsel);
	int i, err;

	for (i = 0; i < perf_cpu_map__nr(cpus); i++) {
		err = bpf_getppid__set_output(&b->bpf, perf_cpu_map__cpu(cpus, i).cpu,
					      evsel__fd(o->evsel, i, 0));
		if (err)
			return err;
	}
	ring_set__resume(o->set);
	return 0;
}

/* Records the core counted in every ring, less its loss reports. */
static uint64_t ours__seen(const struct ours *o)
{
	uint64_t seen = 0;
	int i;

	for (i = 0; i < evlist__nr_mmaps(o->evlist); i++) {
		const struct ring_stats *st = perf_mmap__stats(evlist__mmap_at(o->evlist, i));

		seen += st->records - st->lost_reports;
	}
	return seen;
}

/*
 * Wait for ready rings and drain them (wait false: drain every ring now). The push row's
 * samples are what the core counted meanwhile, unless its sink walks them.
 */
static int ours__run_set(struct ours *o, bool wait)
{
	uint64_t seen = o->walk || o->sources ? 0 : ours__seen(o);
	int n = wait ? ring_set__poll(o->set, -1) : (int)ring_set__drain_all(o->set, false);

	if (!o->walk && !o->sources)
		o->c.samples += ours__seen(o) - seen;
	return n;
}

static int ours__drain(struct consumer *c)
{
	int n = ours__run_set(bench_container_of(c, struct ours, c), false);

	return n < 0 ? n : 0;
}

static int ours__poll(struct consumer *c)
{
	struct ours *o = bench_container_of(c, struct ours, c);
	int n = ours__run_set(o, true);

	if (n == -ECANCELED) {
		ring_set__resume(o->set);	/* the producer is done: the last drain follows */
		return 1;
	}
	return n < 0 && n != -EINTR ? n : 0;
}

/* libperf's loop, as the header documents it. */
static ssize_t read_event_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	struct read_event_source *r = ctx;
	union perf_event *event;
	ssize_t bytes = 0;
	int err;

	(void)sink, (void)final;
	while ((err = perf_mmap__read_init(r->map)) == 0) {
		while ((event = perf_mmap__read_event(r->map)) != NULL) {
			*r->samples += event->header.type == PERF_RECORD_SAMPLE;
			bytes += event->header.size;
			perf_mmap__consume(r->map);
		}
		perf_mmap__read_done(r->map);
	}
	return err == -EAGAIN ? bytes : err;
}

static const struct ring_source_ops read_event_source_ops = {
	.drain = read_event_source__drain,
};

static void ours__stop(void *c)
{
	ring_set__stop(bench_container_of(c, struct ours, c)->set);
}

static uint64_t ours__lost(struct consumer *c)
{
	struct ours *o = bench_container_of(c, struct ours, c);
	uint64_t lost = 0;
	int i;

	for (i = 0; i < evlist__nr_mmaps(o->evlist); i++)
		lost += perf_mmap__stats(evlist__mmap_at(o->evlist, i))->lost;
	return lost;
}

static const struct consumer_ops ours_ops = {
	.route = ours__route,
	.poll = ours__poll,
	.drain = ours__drain,
	.stop = ours__stop,
	.lost = ours__lost,
};

/* The push row's set: the evlist's rings, pushed into a sink that takes or walks them. */
static int ours__push_set(struct ours *o)
{
	o->sc = (struct sample_counter){ .sink.push = sample_counter__push,
					 .samples = &o->c.samples };
	o->bytes = (struct ring_sink){ .push = byte_sink__push };
	o->set = ring_set__new(NULL);
	if (!o->set)
		return -errno;
	return evlist__add_to_ring_set(o->evlist, o->set, o->walk ? &o->sc.sink : &o->bytes);
}

/* The read_event row's set: each ring a source of ours, on the fd that owns it. */
static int ours__read_event_set(struct ours *o)
{
	int i, err, nr = evlist__nr_mmaps(o->evlist);

	o->bytes = (struct ring_sink){ .push = byte_sink__push };	/* never pushed to */
	o->sources = calloc(nr, sizeof(*o->sources));
	o->set = ring_set__new(NULL);
	if (!o->sources || !o->set)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct perf_mmap *map = evlist__mmap_at(o->evlist, i);

		o->sources[i] = (struct read_event_source){ .map = map, .samples = &o->c.samples };
		err = ring_set__add_source(o->set, perf_mmap__fd(map), perf_mmap__cpu(map).cpu,
					   RING_SOURCE_OTHER, &read_event_source_ops,
					   &o->sources[i], &o->bytes);
		if (err)
			return err;
	}
	return 0;
}

static void ours__close(struct ours *o)
{
	ring_set__delete(o->set);
	free(o->sources);
}

/*
 * As an embedder would set it up: a wakeup when a fraction of the ring was written (not per
 * record), and each ready ring drained on every wakeup. The ring must cover the data
 * rate times the worst wakeup latency: on a busy 2-vCPU VM that reached several ms, so perf's
 * 512 KiB default lost records at ~60 MB/s where the default 4 MiB here did not.
 */
static int ours__open(struct bench *b, struct ours *o)
{
	struct perf_event_attr attr;
	int err;

	bpf_getppid__output_attr(&attr);
	attr.watermark = 1;
	attr.wakeup_watermark = b->ring_bytes / b->opts.wakeup_div;
	o->evlist = evlist__new();
	o->evsel = evsel__new(&attr);
	if (!o->evlist || !o->evsel)
		return die_errno("evlist__new/evsel__new", errno);
	evsel__set_name(o->evsel, "bpf-output");
	evlist__add(o->evlist, o->evsel);
	err = evlist__set_maps(o->evlist, b->online, NULL);
	if (err)
		return die_errno("evlist__set_maps", err);
	err = evlist__open(o->evlist);
	if (err)
		return die_errno("evlist__open (bpf-output per CPU)", err);
	err = evlist__mmap(o->evlist, b->opts.pages);
	if (err)
		return die_errno("evlist__mmap", err);
	return 0;
}

/* ---- libbpf perf_buffer ------------------------------------------------------------------ */

struct pb {
	struct consumer c;
	struct perf_buffer *pb;
	atomic_bool stopped;
	uint64_t lost_cnt;
};

static void pb__sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct pb *p = ctx;

	(void)cpu, (void)data, (void)size;
	p->c.samples++;
}

static void pb__lost_cb(void *ctx, int cpu, __u64 cnt)
{
	struct pb *p = ctx;

	(void)cpu;
	p->lost_cnt += cnt;
}

/* libbpf 1.1 opens buffer i on the i-th online CPU (below the map's size). */
static int pb__route(struct bench *b, struct consumer *c)
{
	struct pb *p = bench_container_of(c, struct pb, c);
	size_t i;
	int err;

	for (i = 0; i < perf_buffer__buffer_cnt(p->pb); i++) {
		err = bpf_getppid__set_output(&b->bpf, perf_cpu_map__cpu(b->online, i).cpu,
					      perf_buffer__buffer_fd(p->pb, i));
		if (err)
			return err;
	}
	atomic_store(&p->stopped, false);
	return 0;
}

static int pb__poll(struct consumer *c)
{
	struct pb *p = bench_container_of(c, struct pb, c);
	int n;

	/* No stop fd in its epoll set: a short timeout bounds the wait after the producer. */
	if (atomic_load(&p->stopped))
		return 1;
	n = perf_buffer__poll(p->pb, 100);
	return n < 0 && n != -EINTR ? n : 0;
}

static int pb__drain(struct consumer *c)
{
	int n = perf_buffer__consume(bench_container_of(c, struct pb, c)->pb);

	return n < 0 ? n : 0;
}

static void pb__stop(void *c)
{
	atomic_store(&bench_container_of(c, struct pb, c)->stopped, true);
}

static uint64_t pb__lost(struct consumer *c)
{
	return bench_container_of(c, struct pb, c)->lost_cnt;
}

static const struct consumer_ops pb_ops = {
	.route = pb__route,
	.poll = pb__poll,
	.drain = pb__drain,
	.stop = pb__stop,
	.lost = pb__lost,
};

static int pb__open(struct bench *b, struct pb *p)
{
	p->pb = perf_buffer__new(b->bpf.map_fd, b->opts.pages, pb__sample, pb__lost_cb, p, NULL);
	if (!p->pb)
		return die_errno("perf_buffer__new", errno);
	if (perf_buffer__buffer_cnt(p->pb) != (size_t)perf_cpu_map__nr(b->online)) {
		fprintf(stderr, NAME ": perf_buffer has %zu rings for %d online CPUs\n",
			perf_buffer__buffer_cnt(p->pb), perf_cpu_map__nr(b->online));
		return -1;
	}
	return 0;
}

/* ---- the two measurements ---------------------------------------------------------------- */

/* Route the map to c and empty its rings (uncounted). */
static int consumer__take_over(struct bench *b, struct consumer *c)
{
	int err = c->ops->route(b, c);

	if (!err)
		err = c->ops->drain(c);
	return err;
}

/*
 * The kernel reports records it dropped (PERF_RECORD_LOST) only ahead of the next record it
 * can write: emit one more so that a loss at the end of a row is counted in that row.
 */
static int flush_losses(struct bench *b, struct consumer *c, struct bpf_getppid_load *load)
{
	struct bpf_getppid_load one = { .cpu = b->prod_cpu, .calls_max = 1 };
	int err = bpf_getppid_load__run(&one);

	if (!err)
		err = c->ops->drain(c);
	load->calls += one.calls;
	return err;
}

/* The producer runs for the set time while c drains on this CPU. */
static int run_consumed(struct bench *b, struct consumer *c, struct bpf_getppid_load *load,
			double *cpu, uint64_t *preempted)
{
	uint64_t nivcsw0, nivcsw;
	double cpu0;
	int err;

	load->duration_ns = b->opts.seconds * 1e9;
	load->done = c->ops->stop;
	load->ctx = c;
	cpu0 = bench__thread_cpu_s(&nivcsw0);
	err = bpf_getppid_load__start(load);
	if (err)
		return err;
	while ((err = c->ops->poll(c)) == 0)
		;
	if (err > 0)
		err = c->ops->drain(c);	/* what arrived below the wakeup mark */
	*cpu = bench__thread_cpu_s(&nivcsw) - cpu0;
	*preempted = nivcsw - nivcsw0;
	bpf_getppid_load__join(load);
	if (!err)
		err = flush_losses(b, c, load);
	return err;
}

/* No consumer: bursts that fill 3/4 of the ring, counted and emptied in between. */
static int run_bursts(struct bench *b, struct consumer *c, struct bpf_getppid_load *load)
{
	uint64_t calls = 0, ns = 0, cpu_ns = 0;
	int err = 0;

	while (!err && ns < b->opts.seconds * 1e9) {
		load->calls_max = b->prefill;
		err = bpf_getppid_load__run(load);
		if (!err)
			err = c->ops->drain(c);
		calls += load->calls;
		ns += load->elapsed_ns;
		cpu_ns += load->cpu_ns;
	}
	load->calls = calls;
	load->elapsed_ns = ns;
	load->cpu_ns = cpu_ns;
	return err;
}

/* Round r of row c. */
static int run_throughput(struct bench *b, struct consumer *c, int r)
{
	struct bpf_getppid_load load = { .cpu = b->prod_cpu };
	uint64_t lost0, samples0, delivered, preempted = 0;
	double secs;
	int err;

	err = consumer__take_over(b, c);
	if (err)
		return die_errno(c->name, err);
	samples0 = c->samples;
	lost0 = c->ops->lost(c);
	if (c->ops->poll)
		err = run_consumed(b, c, &load, &c->cpu[r], &preempted);
	else
		err = run_bursts(b, c, &load);
	if (err)
		return die_errno(c->name, err);
	secs = load.elapsed_ns / 1e9;
	delivered = c->samples - samples0;
	c->cpu_s += c->cpu[r];
	c->cpu[r] /= secs;
	c->rate[r] = delivered / secs;
	c->rate_cpu[r] = delivered / (load.cpu_ns / 1e9);
	c->produced += load.calls;
	c->delivered += delivered;
	c->lost += c->ops->lost(c) - lost0;
	c->preempted += preempted;
	return 0;
}

/* Fill the rings with the consumer idle, then time one drain of them. */
static int drain_prefilled(struct bench *b, struct consumer *c, double *ns)
{
	struct bpf_getppid_load load = { .cpu = b->prod_cpu, .calls_max = b->prefill };
	uint64_t samples0, t0, n;
	int err;

	err = consumer__take_over(b, c);
	if (!err)
		err = bpf_getppid_load__run(&load);
	if (err)
		return die_errno(c->name, err);
	samples0 = c->samples;
	t0 = bench__now_ns();
	err = c->ops->drain(c);
	*ns = (double)(bench__now_ns() - t0);
	if (err)
		return die_errno(c->name, err);
	n = c->samples - samples0;
	if (n < b->prefill)
		fprintf(stderr, NAME ": %s drained %llu of %llu pre-filled records\n", c->name,
			(unsigned long long)n, (unsigned long long)b->prefill);
	*ns /= n ? n : 1;
	return 0;
}

/* ---- report ------------------------------------------------------------------------------ */

struct row_summary {
	double rate, ratio, ratio_min, ratio_max, cpu, cpu_ns, drain_ns;
};

static struct row_summary summarize(const struct bench *b, struct consumer *c)
{
	struct row_summary s;
	int n = b->opts.rounds;

	s.rate = bench__median(c->rate, n);
	s.cpu = bench__median(c->cpu, n);
	s.ratio = bench__median(c->ratio, n);
	s.ratio_min = c->ratio[0];
	s.ratio_max = c->ratio[n - 1];
	s.drain_ns = c->ops->poll ? bench__median(c->drain_ns, b->opts.reps) : 0;
	/* The consumer's whole cost per record: wakeups, polls and drains. */
	s.cpu_ns = c->delivered ? c->cpu_s * 1e9 / c->delivered : 0;
	return s;
}

static void print_table(const struct bench *b, struct consumer **cs, int nr, int ours, int pb)
{
	struct row_summary s[8];
	char range[32];
	int i;

	printf("%-24s %12s %17s %8s %12s %11s %9s %12s\n", "consumer", "delivered/s",
	       "x ceiling (range)", "lost", "consumer CPU", "CPU ns/rec", "preempted",
	       "drain ns/rec");
	for (i = 0; i < nr; i++) {
		s[i] = summarize(b, cs[i]);
		snprintf(range, sizeof(range), "%.2f (%.2f-%.2f)", s[i].ratio, s[i].ratio_min,
			 s[i].ratio_max);
		printf("%-24s %10.3f M %17s ", cs[i]->name, s[i].rate / 1e6, range);
		if (!cs[i]->ops->poll) {
			printf("%8s %12s %11s %9s %12s\n", "-", "-", "-", "-", "-");
			continue;
		}
		printf("%8llu %11.1f%% %11.1f %9llu %12.1f\n", (unsigned long long)cs[i]->lost,
		       s[i].cpu * 100, s[i].cpu_ns, (unsigned long long)cs[i]->preempted,
		       s[i].drain_ns);
		if (cs[i]->delivered + cs[i]->lost < cs[i]->produced)
			fprintf(stderr, NAME ": %s: %llu records neither delivered nor reported "
				"lost\n", cs[i]->name, (unsigned long long)(cs[i]->produced -
				cs[i]->delivered - cs[i]->lost));
	}
	printf("\nrecord %zu B (payload %u B); rings %u pages/CPU; %d rounds x %.2f s per row; "
	       "producer on CPU %d, consumer on CPU %d\n"
	       "delivered/s: wall clock; x ceiling: per second of producer CPU time, median "
	       "(min-max) of the rounds\n"
	       "wakeups: libauxtrace every %zu KiB (ring/%u), perf_buffer every record\n"
	       "CPU ns/rec: consumer CPU time per delivered record, all rounds; drain: one drain "
	       "of %llu pre-filled records (3/4 ring), median of %d;\n"
	       "preempted: the consumer's involuntary context switches\n",
	       b->rec_size, b->opts.payload, b->opts.pages, b->opts.rounds, b->opts.seconds,
	       b->prod_cpu, b->cons_cpu, b->ring_bytes / b->opts.wakeup_div / 1024,
	       b->opts.wakeup_div, (unsigned long long)b->prefill, b->opts.reps);
	printf("targets (%s vs %s): delivered >= 0.95x ceiling %s (%.2f); zero loss %s (%llu); "
	       "CPU <= 0.1x %s (%.3fx); pre-filled drain no slower %s (%.2fx)\n",
	       cs[ours]->name, cs[pb]->name,
	       s[ours].ratio >= 0.95 ? "met" : "MISSED", s[ours].ratio,
	       cs[ours]->lost ? "MISSED" : "met", (unsigned long long)cs[ours]->lost,
	       s[ours].cpu <= 0.1 * s[pb].cpu ? "met" : "MISSED",
	       s[pb].cpu ? s[ours].cpu / s[pb].cpu : 0,
	       s[ours].drain_ns <= s[pb].drain_ns ? "met" : "MISSED",
	       s[pb].drain_ns ? s[ours].drain_ns / s[pb].drain_ns : 0);
}

/* ---- setup ------------------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr, "usage: " NAME " [-d SECONDS] [-n ROUNDS] [-p PAGES] [-w DIV] "
		"[-s PAYLOAD] [-r REPS] [-W]\n"
		"  -d  producer run per row and round (default 0.4)\n"
		"  -n  rounds; rows run interleaved, medians are shown (default 7)\n"
		"  -p  data pages per CPU ring, a power of two (default 1024)\n"
		"  -w  libauxtrace wakes up every ring/DIV bytes (default 4)\n"
		"  -s  raw payload bytes per record, a multiple of 8 (default 8)\n"
		"  -r  pre-filled drains per consumer; the median is shown (default 15)\n"
		"  -W  the push sink walks the records (default: it takes the bytes)\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c;

	*o = (struct opts){ .seconds = 0.4, .rounds = 7, .pages = 1024, .wakeup_div = 4,
			    .payload = 8, .reps = 15 };
	while ((c = getopt(argc, argv, "d:n:p:w:s:r:Wh")) != -1) {
		switch (c) {
		case 'd': o->seconds = atof(optarg); break;
		case 'n': o->rounds = atoi(optarg); break;
		case 'p': o->pages = strtoul(optarg, NULL, 0); break;
		case 'w': o->wakeup_div = strtoul(optarg, NULL, 0); break;
		case 's': o->payload = strtoul(optarg, NULL, 0); break;
		case 'r': o->reps = atoi(optarg); break;
		case 'W': o->walk = true; break;
		default: usage(); return -1;
		}
	}
	if (o->seconds <= 0 || o->seconds > 10 || o->rounds < 1 || o->rounds > MAX_RUNS ||
	    !o->pages || (o->pages & (o->pages - 1)) || o->wakeup_div < 1 || o->reps < 1 ||
	    o->reps > MAX_RUNS) {
		usage();
		return -1;
	}
	return 0;
}

/* 1: SKIP printed; 0: ready; -1: a setup error was printed. */
static int setup(struct bench *b)
{
	char msg[9000];
	int err;

	b->page = sysconf(_SC_PAGESIZE);
	b->online = perf_cpu_map__new_online_cpus();
	if (!b->online)
		return die_errno("reading the online CPUs", errno);
	b->prod_cpu = perf_cpu_map__min(b->online).cpu;
	b->cons_cpu = perf_cpu_map__max(b->online).cpu;
	if (perf_cpu_map__nr(b->online) < 2)
		fprintf(stderr, NAME ": one online CPU: producer and consumer share it\n");
	err = bench__pin_self(b->cons_cpu);
	if (err)
		return die_errno("pinning the consumer", err);
	/* Only our calls: other programs' getppid() must not feed (or fill) our rings. */
	err = bpf_getppid__open(&b->bpf, b->opts.payload, getpid(), msg, sizeof(msg));
	if (err && bpf_getppid__unavailable(err)) {
		printf("SKIP: " NAME ": %s\n", msg);
		return 1;
	}
	if (err) {
		fprintf(stderr, NAME ": %s\n", msg);
		return -1;
	}
	b->rec_size = bpf_getppid__record_size(&b->bpf);
	b->ring_bytes = (size_t)b->opts.pages * b->page;
	b->prefill = b->ring_bytes / 4 * 3 / b->rec_size;
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	struct ceiling ceil = { .c.name = "ceiling, no wakeups" };
	struct ceiling ceil_wake = { .c.name = "ceiling, wakeup/record", .wakeup_each = true };
	struct ours push = { .c = { .name = "libauxtrace push", .ops = &ours_ops } };
	struct ours rev = { .c = { .name = "libauxtrace read_event", .ops = &ours_ops } };
	struct pb pb = { .c = { .name = "libbpf perf_buffer", .ops = &pb_ops } };
	struct consumer *cs[] = { &ceil.c, &ceil_wake.c, &push.c, &rev.c, &pb.c };
	const int nr = sizeof(cs) / sizeof(cs[0]), ours = 2;
	int i, r, err;

	if (parse_opts(argc, argv, &b.opts))
		return 2;
	if (b.opts.walk)
		push.c.name = "libauxtrace push+walk";
	if (geteuid() != 0) {
		printf("SKIP: " NAME ": needs root (BPF program load, system-wide bpf-output "
		       "events)\n");
		return 0;
	}
	bench__print_lib_warnings(NAME);
	libbpf_set_print(NULL);
	err = setup(&b);
	if (err)
		return err > 0 ? 0 : 1;

	err = ceiling__open(&b, &ceil);
	if (!err)
		err = ceiling__open(&b, &ceil_wake);
	if (!err)
		err = ours__open(&b, &push);
	if (!err) {
		/* Both rows of ours read the same rings. */
		rev.evlist = push.evlist;
		rev.evsel = push.evsel;
		push.walk = b.opts.walk;
		err = ours__push_set(&push);
		if (!err)
			err = ours__read_event_set(&rev);
		if (err)
			err = die_errno("the ring sets of libauxtrace's rows", err);
	}
	if (!err)
		err = pb__open(&b, &pb);
	for (r = 0; r < b.opts.rounds && !err; r++)
		for (i = 0; i < nr && !err; i++) {
			err = run_throughput(&b, cs[i], r);
			if (!err)
				cs[i]->ratio[r] = cs[i]->rate_cpu[r] / ceil.c.rate_cpu[r];
			if (!err && !ceil.c.delivered) {
				fprintf(stderr, NAME ": the BPF program emitted nothing for this "
					"process's getppid() calls: run it in the initial pid "
					"namespace (the program matches that namespace's tgid)\n");
				err = -1;
			}
		}
	for (r = 0; r < b.opts.reps && !err; r++)
		for (i = ours; i < nr && !err; i++)
			err = drain_prefilled(&b, cs[i], &cs[i]->drain_ns[r]);
	if (!err) {
		if (ceil.filled || ceil_wake.filled)
			fprintf(stderr, NAME ": a ceiling ring filled up: the figures are wrong\n");
		print_table(&b, cs, nr, ours, nr - 1);
	}

	if (pb.pb)
		perf_buffer__free(pb.pb);
	ours__close(&rev);
	ours__close(&push);
	evlist__delete(push.evlist);
	ceiling__close(&ceil_wake);
	ceiling__close(&ceil);
	bpf_getppid__close(&b.bpf);
	perf_cpu_map__put(b.online);
	return err ? 1 : 0;
}
