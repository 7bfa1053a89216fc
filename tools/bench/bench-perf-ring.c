// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf data ring, side by side on one load: libauxtrace's consumer core and libbpf's
 * perf_buffer draining the same bpf-output events, fed by a BPF program on
 * syscalls:sys_enter_getppid while a thread pinned to the first CPU calls getppid() in a loop.
 *
 *   ceiling      a large ring and no consumer: how fast the producer runs unhindered, with
 *                no wakeups and with one per record (what wakeup_events = 1 costs the producer)
 *   push         evlist + evlist__poll + perf_mmap__push to a sink that walks the records
 *   read_event   the same rings through perf_mmap__read_event (the per-record API)
 *   perf_buffer  libbpf 1.1: perf_buffer__new + perf_buffer__poll (wakeup per record)
 *
 * The consumer runs on the last CPU; the producer on the first. Figures only: the exit code
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>

#include <auxtrace/cpumap.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/mmap.h>

#include "bpf-getppid.h"

#define NAME "bench-perf-ring"
#define bench_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct opts {
	double seconds;		/* producer run per throughput row */
	unsigned int pages;	/* data pages per CPU ring (ours and perf_buffer alike) */
	unsigned int payload;	/* raw bytes per record */
	int reps;		/* pre-filled drains per consumer (the median is printed) */
};

struct bench {
	struct opts opts;
	struct bpf_getppid bpf;
	struct perf_cpu_map *online;
	int prod_cpu, cons_cpu;
	size_t rec_size;
	size_t ring_bytes;
	uint64_t prefill;	/* records per pre-filled drain */
	unsigned int ceiling_pages;
	double ceiling;		/* records/s, no wakeups: the ratio column's reference */
	double ceiling_wakeup;	/* records/s, a wakeup per record and nobody woken */
};

/* One row of the table: a way to drain the rings. */
struct consumer {
	const char *name;
	/* Point the BPF map at this consumer's rings. */
	int (*route)(struct bench *b, struct consumer *c);
	/* Wait for data and drain what is ready: 0, 1 once the producer said it is done, -errno. */
	int (*poll)(struct consumer *c);
	/* Drain everything there now, without waiting. 0 or -errno. */
	int (*drain)(struct consumer *c);
	/* Called by the producer thread when it stops. */
	void (*stop)(void *c);
	uint64_t (*lost)(struct consumer *c);
	uint64_t samples;	/* PERF_RECORD_SAMPLEs seen */
	/* results */
	double rate, cpu, drain_ns;
	uint64_t delivered, lost_records, produced;
};

static int die_errno(const char *what, int err)
{
	fprintf(stderr, NAME ": %s: %s\n", what, strerror(err < 0 ? -err : err));
	return -1;
}

static int print_lib(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBAUXTRACE_WARN)
		return 0;
	fputs(NAME ": libauxtrace: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static double thread_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ---- the producer's ceiling: rings we map ourselves, never read -------------------------- */

struct raw_ring {
	int fd;
	void *base;
	size_t len;
};

static int raw_ring__open(struct raw_ring *r, int cpu, size_t data_bytes, bool wakeup_each)
{
	struct perf_event_attr attr;
	long page = sysconf(_SC_PAGESIZE);

	bpf_getppid__output_attr(&attr);
	/* A wakeup costs the producer an irq_work even when nobody waits. */
	if (!wakeup_each) {
		attr.watermark = 1;
		attr.wakeup_watermark = data_bytes;
	}
	r->fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->len = page + data_bytes;
	r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		int err = -errno;

		close(r->fd);
		return err;
	}
	return 0;
}

static void raw_ring__close(struct raw_ring *r)
{
	munmap(r->base, r->len);
	close(r->fd);
}

static uint64_t raw_ring__head(const struct raw_ring *r)
{
	const struct perf_event_mmap_page *pg = r->base;

	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static unsigned int pow2_pages(double bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int pages = 1;

	while ((double)pages * page < bytes)
		pages <<= 1;
	return pages;
}

/*
 * Sized for 4 M records/s over the run so that it cannot fill: a full ring would measure the
 * kernel dropping records, which is cheaper than writing them.
 */
static int measure_ceiling(struct bench *b, bool wakeup_each, double *rate)
{
	int nr = perf_cpu_map__nr(b->online), i, err = 0;
	struct raw_ring *rings = calloc(nr, sizeof(*rings));
	unsigned int pages = pow2_pages(4e6 * b->rec_size * b->opts.seconds);
	struct bpf_getppid_load load = { .cpu = b->prod_cpu };
	uint64_t head = 0;

	if (!rings)
		return die_errno("ceiling", -ENOMEM);
	load.duration_ns = b->opts.seconds * 1e9;
	for (i = 0; i < nr && !err; i++) {
		int cpu = perf_cpu_map__cpu(b->online, i).cpu;
		size_t bytes = (cpu == b->prod_cpu ? pages : 8) * (size_t)sysconf(_SC_PAGESIZE);

		err = raw_ring__open(&rings[i], cpu, bytes, wakeup_each);
		if (err) {
			nr = i;
			die_errno("ceiling: perf_event_open + mmap of a bpf-output event", err);
			break;
		}
		err = bpf_getppid__set_output(&b->bpf, cpu, rings[i].fd);
		if (err)
			die_errno("ceiling: bpf_map_update_elem", err);
		if (cpu == b->prod_cpu)
			head = raw_ring__head(&rings[i]);
	}
	if (!err)
		err = bpf_getppid_load__run(&load);
	for (i = 0; i < nr && !err; i++) {
		if (perf_cpu_map__cpu(b->online, i).cpu != b->prod_cpu)
			continue;
		head = raw_ring__head(&rings[i]) - head;
		if (head + b->rec_size > (size_t)pages * sysconf(_SC_PAGESIZE))
			fprintf(stderr, NAME ": the ceiling ring filled up: shorten -d\n");
		if (head / b->rec_size + 1000 < load.calls)
			fprintf(stderr, NAME ": the ceiling ring holds %llu records for %llu "
				"calls\n", (unsigned long long)(head / b->rec_size),
				(unsigned long long)load.calls);
	}
	for (i = 0; i < nr; i++) {
		bpf_getppid__set_output(&b->bpf, perf_cpu_map__cpu(b->online, i).cpu, -1);
		raw_ring__close(&rings[i]);
	}
	free(rings);
	if (err)
		return err;
	*rate = load.calls / (load.elapsed_ns / 1e9);
	b->ceiling_pages = pages;
	return 0;
}

/* ---- libauxtrace: evlist of one bpf-output evsel per CPU --------------------------------- */

/* Counts the samples in the raw spans it is handed: the per-record work of any consumer. */
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

struct ours {
	struct consumer c;
	struct evlist *evlist;
	struct evsel *evsel;
	bool read_event;
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
	evlist__resume(o->evlist);
	return 0;
}

static int ours__drain_push(struct ours *o, struct perf_mmap *map)
{
	struct sample_counter sc = { .sink.push = sample_counter__push,
				     .samples = &o->c.samples };
	ssize_t n;

	while ((n = perf_mmap__push(map, &sc.sink)) > 0)
		;
	return n;
}

static int ours__drain_read_event(struct ours *o, struct perf_mmap *map)
{
	union perf_event *event;
	int err;

	while ((err = perf_mmap__read_init(map)) == 0) {
		while ((event = perf_mmap__read_event(map)) != NULL) {
			o->c.samples += event->header.type == PERF_RECORD_SAMPLE;
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
	return err == -EAGAIN ? 0 : err;
}

static int ours__drain(struct consumer *c)
{
	struct ours *o = bench_container_of(c, struct ours, c);
	int i, err;

	for (i = 0; i < evlist__nr_mmaps(o->evlist); i++) {
		struct perf_mmap *map = evlist__mmap_at(o->evlist, i);

		err = o->read_event ? ours__drain_read_event(o, map) : ours__drain_push(o, map);
		if (err < 0)
			return err;
	}
	return 0;
}

static int ours__poll(struct consumer *c)
{
	struct ours *o = bench_container_of(c, struct ours, c);
	int n = evlist__poll(o->evlist, -1);

	if (n == -ECANCELED)
		return 1;
	if (n < 0 && n != -EINTR)
		return n;
	return ours__drain(c);
}

static void ours__stop(void *c)
{
	evlist__stop(bench_container_of(c, struct ours, c)->evlist);
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

/*
 * As an embedder would set it up: wake up when half the ring is full (not per record), and
 * drain each ring to empty on every wakeup.
 */
static int ours__open(struct bench *b, struct ours *o)
{
	struct perf_event_attr attr;
	int err;

	bpf_getppid__output_attr(&attr);
	attr.watermark = 1;
	attr.wakeup_watermark = b->ring_bytes / 2;
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

/* The producer runs for the set time while c drains on the consumer CPU. */
static int run_throughput(struct bench *b, struct consumer *c)
{
	struct bpf_getppid_load load = { .cpu = b->prod_cpu };
	uint64_t lost0, samples0;
	double cpu0;
	int err;

	err = c->route(b, c);
	if (!err)
		err = c->drain(c);
	if (err)
		return die_errno(c->name, err);
	samples0 = c->samples;
	lost0 = c->lost(c);
	load.duration_ns = b->opts.seconds * 1e9;
	load.done = c->stop;
	load.ctx = c;
	cpu0 = thread_cpu_s();
	err = bpf_getppid_load__start(&load);
	if (err)
		return die_errno("starting the getppid thread", err);
	while ((err = c->poll(c)) == 0)
		;
	if (err > 0)
		err = c->drain(c);	/* what arrived below the wakeup mark */
	c->cpu = (thread_cpu_s() - cpu0) / (load.elapsed_ns / 1e9);
	bpf_getppid_load__join(&load);
	if (err)
		return die_errno(c->name, err);
	c->produced = load.calls;
	c->delivered = c->samples - samples0;
	c->lost_records = c->lost(c) - lost0;
	c->rate = c->delivered / (load.elapsed_ns / 1e9);
	return 0;
}

/* Fill the rings with the consumer idle, then time one drain of them. */
static int drain_prefilled(struct bench *b, struct consumer *c, double *ns)
{
	struct bpf_getppid_load load = { .cpu = b->prod_cpu, .calls_max = b->prefill };
	uint64_t samples0, t0;
	int err;

	err = c->route(b, c);
	if (!err)
		err = c->drain(c);
	if (!err)
		err = bpf_getppid_load__run(&load);
	if (err)
		return die_errno(c->name, err);
	samples0 = c->samples;
	t0 = bench__now_ns();
	err = c->drain(c);
	*ns = (double)(bench__now_ns() - t0);
	if (err)
		return die_errno(c->name, err);
	if (c->samples - samples0 < b->prefill)
		fprintf(stderr, NAME ": %s drained %llu of %llu pre-filled records\n", c->name,
			(unsigned long long)(c->samples - samples0),
			(unsigned long long)b->prefill);
	*ns /= c->samples - samples0 ? c->samples - samples0 : 1;
	return 0;
}

/* Interleaved so that each repetition finds every consumer in the same machine state. */
static int run_prefilled(struct bench *b, struct consumer **cs, int nr)
{
	double *ns = calloc((size_t)nr * b->opts.reps, sizeof(*ns));
	int r, i, err = 0;

	if (!ns)
		return die_errno("prefilled", -ENOMEM);
	for (r = 0; r < b->opts.reps && !err; r++)
		for (i = 0; i < nr && !err; i++)
			err = drain_prefilled(b, cs[i], &ns[i * b->opts.reps + r]);
	for (i = 0; i < nr && !err; i++) {
		qsort(&ns[i * b->opts.reps], b->opts.reps, sizeof(*ns), cmp_double);
		cs[i]->drain_ns = ns[i * b->opts.reps + b->opts.reps / 2];
	}
	free(ns);
	return err;
}

/* ---- report ------------------------------------------------------------------------------ */

static void print_table(const struct bench *b, struct consumer **cs, int nr)
{
	const struct consumer *ours = cs[0], *pb = cs[nr - 1];
	int i;

	printf("%-24s %12s %10s %8s %12s %16s\n", "consumer", "delivered/s", "x ceiling",
	       "lost", "consumer CPU", "prefilled ns/rec");
	printf("%-24s %10.3f M %10.2f %8s %12s %16s\n", "ceiling, no wakeups",
	       b->ceiling / 1e6, 1.0, "-", "-", "-");
	printf("%-24s %10.3f M %10.2f %8s %12s %16s\n", "ceiling, wakeup/record",
	       b->ceiling_wakeup / 1e6, b->ceiling_wakeup / b->ceiling, "-", "-", "-");
	for (i = 0; i < nr; i++)
		printf("%-24s %10.3f M %10.2f %8llu %11.1f%% %16.1f\n", cs[i]->name,
		       cs[i]->rate / 1e6, cs[i]->rate / b->ceiling,
		       (unsigned long long)cs[i]->lost_records, cs[i]->cpu * 100,
		       cs[i]->drain_ns);
	printf("\nrecord %zu B (payload %u B); rings %u pages/CPU (ceiling: %u pages on CPU %d); "
	       "%.1f s per row; producer CPU %d, consumer CPU %d;\n"
	       "wakeups: libauxtrace at %zu KiB (half the ring), perf_buffer every record; "
	       "pre-filled: %llu records, median of %d\n",
	       b->rec_size, b->opts.payload, b->opts.pages, b->ceiling_pages, b->prod_cpu,
	       b->opts.seconds, b->prod_cpu, b->cons_cpu, b->ring_bytes / 2 / 1024,
	       (unsigned long long)b->prefill, b->opts.reps);
	printf("targets (%s): delivered >= 0.95x ceiling %s (%.2f); zero loss %s (%llu); "
	       "CPU <= 0.1x perf_buffer's %s (%.3fx); pre-filled drain <= perf_buffer's %s "
	       "(%.2fx)\n", ours->name,
	       ours->rate >= 0.95 * b->ceiling ? "met" : "MISSED", ours->rate / b->ceiling,
	       ours->lost_records ? "MISSED" : "met", (unsigned long long)ours->lost_records,
	       ours->cpu <= 0.1 * pb->cpu ? "met" : "MISSED", pb->cpu ? ours->cpu / pb->cpu : 0,
	       ours->drain_ns <= pb->drain_ns ? "met" : "MISSED",
	       pb->drain_ns ? ours->drain_ns / pb->drain_ns : 0);
}

/* ---- setup ------------------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr, "usage: " NAME " [-d SECONDS] [-p PAGES] [-s PAYLOAD] [-r REPS]\n"
		"  -d  producer run per row (default 1)\n"
		"  -p  data pages per CPU ring, a power of two (default 128)\n"
		"  -s  raw payload bytes per record, a multiple of 8 (default 8)\n"
		"  -r  pre-filled drains per consumer; the median is shown (default 9)\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c;

	*o = (struct opts){ .seconds = 1, .pages = 128, .payload = 8, .reps = 9 };
	while ((c = getopt(argc, argv, "d:p:s:r:h")) != -1) {
		switch (c) {
		case 'd': o->seconds = atof(optarg); break;
		case 'p': o->pages = strtoul(optarg, NULL, 0); break;
		case 's': o->payload = strtoul(optarg, NULL, 0); break;
		case 'r': o->reps = atoi(optarg); break;
		default: usage(); return -1;
		}
	}
	if (o->seconds <= 0 || o->seconds > 60 || !o->pages || (o->pages & (o->pages - 1)) ||
	    o->reps < 1) {
		usage();
		return -1;
	}
	return 0;
}

static int setup(struct bench *b)
{
	char msg[9000];
	int err, nr;

	b->online = perf_cpu_map__new_online_cpus();
	if (!b->online)
		return die_errno("reading the online CPUs", errno);
	nr = perf_cpu_map__nr(b->online);
	b->prod_cpu = perf_cpu_map__min(b->online).cpu;
	b->cons_cpu = perf_cpu_map__max(b->online).cpu;
	if (nr < 2)
		fprintf(stderr, NAME ": one online CPU: producer and consumer share it\n");
	err = pin_self(b->cons_cpu);
	if (err)
		return die_errno("pinning the consumer", err);
	err = bpf_getppid__open(&b->bpf, b->opts.payload, msg, sizeof(msg));
	if (err && bpf_getppid__unavailable(err)) {
		printf("SKIP: " NAME ": %s\n", msg);
		return 1;
	}
	if (err) {
		fprintf(stderr, NAME ": %s\n", msg);
		return -1;
	}
	b->rec_size = bpf_getppid__record_size(&b->bpf);
	b->ring_bytes = (size_t)b->opts.pages * sysconf(_SC_PAGESIZE);
	b->prefill = b->ring_bytes / 4 * 3 / b->rec_size;
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	struct ours push = { .c = { .name = "libauxtrace push" } };
	struct ours rev = { .read_event = true, .c = { .name = "libauxtrace read_event" } };
	struct pb pb = { .c = { .name = "libbpf perf_buffer" } };
	struct consumer *cs[] = { &push.c, &rev.c, &pb.c };
	int i, err;

	if (parse_opts(argc, argv, &b.opts))
		return 2;
	if (geteuid() != 0) {
		printf("SKIP: " NAME ": needs root (BPF program load, system-wide bpf-output "
		       "events)\n");
		return 0;
	}
	libauxtrace_set_print(print_lib);
	libbpf_set_print(NULL);
	err = setup(&b);
	if (err)
		return err > 0 ? 0 : 1;

	for (i = 0; i < 2; i++) {
		struct ours *o = i ? &rev : &push;

		o->c.route = ours__route;
		o->c.poll = ours__poll;
		o->c.drain = ours__drain;
		o->c.stop = ours__stop;
		o->c.lost = ours__lost;
	}
	pb.c.route = pb__route;
	pb.c.poll = pb__poll;
	pb.c.drain = pb__drain;
	pb.c.stop = pb__stop;
	pb.c.lost = pb__lost;

	err = measure_ceiling(&b, false, &b.ceiling);
	if (!err)
		err = measure_ceiling(&b, true, &b.ceiling_wakeup);
	if (!err)
		err = ours__open(&b, &push);
	if (!err) {
		/* Both rows of ours read the same rings. */
		rev.evlist = push.evlist;
		rev.evsel = push.evsel;
		err = pb__open(&b, &pb);
	}
	for (i = 0; i < (int)(sizeof(cs) / sizeof(cs[0])) && !err; i++)
		err = run_throughput(&b, cs[i]);
	if (!err)
		err = run_prefilled(&b, cs, sizeof(cs) / sizeof(cs[0]));
	if (!err)
		print_table(&b, cs, sizeof(cs) / sizeof(cs[0]));

	if (pb.pb)
		perf_buffer__free(pb.pb);
	evlist__delete(push.evlist);
	bpf_getppid__close(&b.bpf);
	perf_cpu_map__put(b.online);
	return err ? 1 : 0;
}
