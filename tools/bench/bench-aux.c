// SPDX-License-Identifier: LGPL-2.1
/*
 * The AUX layer's drain rate against the one-copy limit, side by side in one run.
 *
 * aux:        the test producer (tests/lib/aux-producer.c, the kernel's side of the AUX
 *             protocol) fills a 4 MiB AUX area as fast as it can from CPU 1, full-trace
 *             mode; CPU 0, woken at auxrec's watermark (a quarter of the area), drains it
 *             with auxtrace_mmap__read() into a file on /dev/shm through the fd sink:
 *             PERF_RECORD_AUXTRACE framing included, payload written from the mapping.
 * bare:       the same producer, and a consumer of a few lines in place of the library:
 *             load aux_head, write(2) the one or two new spans straight from the mapping,
 *             store aux_tail. The one-copy limit for bytes another CPU has just written,
 *             which must first travel from that CPU's cache.
 * write():    the same number of bytes written from the 4 MiB mapping with plain write(2)
 *             calls of 1 MiB, producer stopped: the one-copy limit for bytes already in
 *             this CPU's cache (the area fits its L2 here).
 * aux-inline: the library's read path with no second thread (see run_aux_inline()).
 *
 * Each rewinds the file every 64 MiB so none pays for new tmpfs pages.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include <auxtrace/mmap.h>

#include "util.h"
/* The AUX test producer, from the test-support library. */
#include "tests/lib/aux-producer.h"

#define AUX_PAGES 1024			/* 4 MiB */
#define RUN_BYTES (1024ull << 20)	/* per repetition and side */
#define REWIND (64u << 20)
#define WRITE_CHUNK (1u << 20)
#define REPS 7

static double now_s(void)
{
	return bench__now_ns() / 1e9;
}

/* Best effort: on one CPU both sides share it. */
static void pin(int cpu)
{
	bench__pin_self(cpu % sysconf(_SC_NPROCESSORS_ONLN));
}

/* The producer's payload: a store per byte, as hardware writing the area would. */
static void fill_stores(void *ctx, uint64_t pos, void *dst, size_t len)
{
	(void)ctx;
	memset(dst, (int)(pos >> 12), len);
}

static const struct aux_producer_run producer_run = { .fill = fill_stores, .chunk = 64 << 10 };

/* The producer thread on CPU 1: it takes the CPU mask of the thread that creates it. */
static int producer_start(struct aux_producer *p)
{
	int err;

	pin(1);
	err = aux_producer__start(p, &producer_run);
	pin(0);
	return err;
}

/*
 * Where a recorder would poll(): the kernel wakes it when aux_watermark bytes have come since
 * the last wakeup, and auxrec asks for a quarter of the area (auxtrace-backend.c). Waking on
 * any new byte instead would have the consumer chase the producer through spans of a few
 * hundred KiB, which no recorder sees.
 */
#define AUX_WATERMARK (AUX_PAGES / 4 * 4096ull)

static void wait_for_watermark(const struct perf_event_mmap_page *pc)
{
	while (__atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&pc->aux_tail, __ATOMIC_RELAXED) < AUX_WATERMARK)
		nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
}

struct result {
	double secs;
	uint64_t bytes;
	uint64_t records;
};

/* One AUX area on the producer, as the evlist path maps it (control page of a data ring). */
struct aux_area {
	struct aux_producer *p;
	struct perf_mmap *map;
	struct auxtrace_mmap *mm;
};

static int aux_area__setup(struct aux_area *a)
{
	struct aux_producer_config cfg = { .data_pages = 1 };
	struct auxtrace_mmap_params mp;

	a->p = aux_producer__new(&cfg);
	a->mm = auxtrace_mmap__new();
	if (!a->p || !a->mm)
		return -ENOMEM;
	a->map = perf_mmap__new(aux_producer__fd(a->p), (struct perf_cpu){ 0 }, 1, false);
	if (!a->map)
		return -errno;
	aux_producer__route_mmap(a->p, a->mm);
	auxtrace_mmap_params__init(&mp, perf_mmap__mmap_len(a->map), AUX_PAGES, false);
	mp.idx = 0;
	mp.mmap_needed = true;
	return auxtrace_mmap__mmap(a->mm, &mp, perf_mmap__userpg(a->map),
				   perf_mmap__fd(a->map));
}

static void aux_area__teardown(struct aux_area *a)
{
	auxtrace_mmap__delete(a->mm);
	perf_mmap__delete(a->map);
	aux_producer__delete(a->p);
}

static void rewind_if_due(int fd, uint64_t *since)
{
	if (*since >= REWIND) {
		lseek(fd, 0, SEEK_SET);
		*since = 0;
	}
}

static int run_aux(struct aux_area *a, int fd, struct result *r)
{
	uint64_t records = auxtrace_mmap__stats(a->mm)->chunks, since = 0;
	struct ring_sink_fd sink;
	ssize_t n = 0;
	double t0;
	int err;

	lseek(fd, 0, SEEK_SET);
	ring_sink_fd__init(&sink, fd);
	err = producer_start(a->p);
	if (err)
		return err;
	*r = (struct result){ 0 };
	t0 = now_s();
	while (r->bytes < RUN_BYTES) {
		wait_for_watermark(perf_mmap__userpg(a->map));
		n = auxtrace_mmap__read(a->mm, NULL, &sink.sink);
		if (n <= 0) {	/* nothing read past the watermark: the layer lost its place */
			n = n ? n : -EIO;
			break;
		}
		r->bytes += n;
		since += n;
		rewind_if_due(fd, &since);
	}
	r->secs = now_s() - t0;
	r->records = auxtrace_mmap__stats(a->mm)->chunks - records;
	aux_producer__stop(a->p);
	while (n > 0)	/* leave the area empty for the next write() run */
		n = auxtrace_mmap__read(a->mm, NULL, &sink.sink);
	return n < 0 ? (int)n : 0;
}

/*
 * The layer alone: this thread moves aux_head by WRITE_CHUNK before each read, so the bytes
 * and the piece sizes are write()'s; what differs is the framing, the iovecs and the
 * position bookkeeping.
 */
static int run_aux_inline(struct aux_area *a, int fd, struct result *r)
{
	struct ring_sink_fd sink;
	uint64_t since = 0;
	double t0;

	lseek(fd, 0, SEEK_SET);
	ring_sink_fd__init(&sink, fd);
	*r = (struct result){ 0 };
	t0 = now_s();
	while (r->bytes < RUN_BYTES) {
		ssize_t n;

		aux_producer__set_head(a->p, aux_producer__head(a->p) + WRITE_CHUNK);
		n = auxtrace_mmap__read(a->mm, NULL, &sink.sink);
		if (n < 0)
			return (int)n;
		r->bytes += n;
		since += n;
		rewind_if_due(fd, &since);
	}
	r->secs = now_s() - t0;
	return 0;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * The bare consumer on an area of its own (the library's keeps its own position), with the
 * same producer: what is left of aux - bare is the library's cost.
 */
static int run_bare(struct aux_area *a, int fd, struct result *r)
{
	struct perf_event_mmap_page *pc = perf_mmap__userpg(a->map);
	const unsigned char *base = auxtrace_mmap__base(a->mm);
	size_t len = auxtrace_mmap__len(a->mm);
	uint64_t tail = pc->aux_tail, since = 0;
	double t0;
	int err;

	lseek(fd, 0, SEEK_SET);
	err = producer_start(a->p);
	if (err)
		return err;
	*r = (struct result){ 0 };
	t0 = now_s();
	while (!err && r->bytes < RUN_BYTES) {
		uint64_t head;
		size_t n, off, first;

		wait_for_watermark(pc);
		head = __atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE);
		n = head - tail;
		off = tail % len;
		first = len - off < n ? len - off : n;
		err = write_all(fd, base + off, first);
		if (!err && n > first)
			err = write_all(fd, base, n - first);
		/* Release: the bytes above are read before the producer may reuse them. */
		__atomic_store_n(&pc->aux_tail, head, __ATOMIC_RELEASE);
		tail = head;
		r->bytes += n;
		since += n;
		rewind_if_due(fd, &since);
	}
	r->secs = now_s() - t0;
	aux_producer__stop(a->p);
	return err;
}

/* write(2) of as many bytes from the same mapping, no producer: the one-copy limit. */
static int run_write(struct aux_area *a, int fd, struct result *r)
{
	const unsigned char *buf = auxtrace_mmap__base(a->mm);
	size_t len = auxtrace_mmap__len(a->mm);
	uint64_t since = 0, off = 0;
	double t0;

	lseek(fd, 0, SEEK_SET);
	*r = (struct result){ 0 };
	t0 = now_s();
	while (r->bytes < RUN_BYTES) {
		int err = write_all(fd, buf + off, WRITE_CHUNK);

		if (err)
			return err;
		r->bytes += WRITE_CHUNK;
		since += WRITE_CHUNK;
		off = (off + WRITE_CHUNK) % len;
		rewind_if_due(fd, &since);
	}
	r->secs = now_s() - t0;
	return 0;
}

static double gbs(const struct result *r)
{
	return r->bytes / r->secs / 1e9;
}

int main(void)
{
	enum { WRITE, BARE, AUX, AUX_BARE, AUX_WRITE, INLINE, INLINE_WRITE, NR_COLS };
	char path[] = "/dev/shm/bench-aux-XXXXXX";
	double col[NR_COLS][REPS];
	struct aux_area area = { 0 }, bare = { 0 };
	struct result w, b, a, l;
	int fd, i, err;

	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp /dev/shm");
		return 1;
	}
	unlink(path);
	pin(0);
	err = aux_area__setup(&area);
	if (!err)
		err = aux_area__setup(&bare);
	if (err) {
		fprintf(stderr, "bench-aux: AUX area on the test producer: %s\n", strerror(-err));
		return 1;
	}
	printf("AUX area drained into a file on /dev/shm: 4 MiB area, %llu MiB per run, "
	       "consumer on CPU 0, producer on CPU 1\n"
	       "  write():    plain write(2) of 1 MiB pieces of the mapping, producer stopped\n"
	       "              (one-copy limit, bytes already in this CPU's cache)\n"
	       "  bare:       plain write(2) of each new span while the producer stores every\n"
	       "              byte as fast as it can (one-copy limit for freshly produced bytes);\n"
	       "              bare and aux wake when a quarter of the area is new, as auxrec asks\n"
	       "  aux:        auxtrace_mmap__read() + fd sink, AUXTRACE framing included, with\n"
	       "              the same producer\n"
	       "  aux-inline: the library without the producer thread: aux_head moved by 1 MiB\n"
	       "              before each read, so only the layer's own cost differs from write()\n\n",
	       RUN_BYTES >> 20);
	printf("%-4s %8s %8s %8s %9s %9s %10s %10s %9s\n", "rep", "write()", "bare", "aux",
	       "aux/bare", "aux/wr()", "avg record", "aux-inline", "inl/wr()");
	printf("%-4s %8s %8s %8s %9s %9s %10s %10s %9s\n", "", "GB/s", "GB/s", "GB/s", "", "",
	       "", "GB/s", "");
	for (i = 0; i < REPS; i++) {
		err = run_write(&area, fd, &w);
		if (!err)
			err = run_bare(&bare, fd, &b);
		if (!err)
			err = run_aux(&area, fd, &a);
		if (!err)
			err = run_aux_inline(&area, fd, &l);
		if (err) {
			fprintf(stderr, "bench-aux: %s\n", strerror(-err));
			return 1;
		}
		col[WRITE][i] = gbs(&w);
		col[BARE][i] = gbs(&b);
		col[AUX][i] = gbs(&a);
		col[AUX_BARE][i] = col[AUX][i] / col[BARE][i];
		col[AUX_WRITE][i] = col[AUX][i] / col[WRITE][i];
		col[INLINE][i] = gbs(&l);
		col[INLINE_WRITE][i] = col[INLINE][i] / col[WRITE][i];
		printf("%-4d %8.2f %8.2f %8.2f %9.2f %9.2f %8.0f K %10.2f %9.2f\n", i + 1,
		       col[WRITE][i], col[BARE][i], col[AUX][i], col[AUX_BARE][i],
		       col[AUX_WRITE][i], a.bytes / (double)a.records / 1024, col[INLINE][i],
		       col[INLINE_WRITE][i]);
	}
	printf("%-4s", "med");
	for (i = 0; i < NR_COLS; i++) {
		printf(i < AUX_BARE ? " %8.2f" : i == INLINE ? " %21.2f" : " %9.2f",
		       bench__median(col[i], REPS));
	}
	printf("   (target: aux >= 0.90 x the one-copy limit)\n");
	aux_area__teardown(&area);
	aux_area__teardown(&bare);
	close(fd);
	return 0;
}
