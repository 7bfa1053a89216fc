// SPDX-License-Identifier: LGPL-2.1
/*
 * The AUX layer's drain rate against the one-copy limit, side by side in one run.
 *
 * aux:        the test producer (tests/lib/aux-producer.c, the kernel's side of the AUX
 *             protocol) fills a 4 MiB AUX area as fast as it can from CPU 1, full-trace
 *             mode; CPU 0 drains it with auxtrace_mmap__read() into a file on /dev/shm
 *             through the fd sink: PERF_RECORD_AUXTRACE framing included, payload written
 *             from the mapping.
 * aux-inline: the same read path with no second thread (see run_aux_inline()).
 * write():    the same number of bytes written from the same 4 MiB mapping with plain
 *             write(2) calls of 1 MiB, producer stopped: what one copy into the file costs.
 *
 * Both rewind the file every 64 MiB so neither pays for new tmpfs pages.
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
#include <internal/auxtrace-mmap.h>

/* The test producer of the AUX suites (linked in by the Makefile's bench-aux rule). */
#include "tests/lib/aux-producer.h"

#define AUX_PAGES 1024			/* 4 MiB */
#define RUN_BYTES (1024ull << 20)	/* per repetition and side */
#define REWIND (64u << 20)
#define WRITE_CHUNK (1u << 20)
#define REPS 7

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The producer's payload: a store per byte, as hardware writing the area would. */
static void fill_stores(void *ctx, uint64_t pos, void *dst, size_t len)
{
	(void)ctx;
	memset(dst, (int)(pos >> 12), len);
}


struct result {
	double secs;
	uint64_t bytes;
	uint64_t reads;
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
	auxtrace_mmap__set_ops(a->mm, aux_producer__ops(a->p));
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
	struct aux_producer_run run = { .fill = fill_stores, .chunk = 64 << 10 };
	uint64_t records = auxtrace_mmap__stats(a->mm)->chunks, since = 0;
	struct ring_sink_fd sink;
	ssize_t n = 0;
	double t0;
	int err;

	lseek(fd, 0, SEEK_SET);
	ring_sink_fd__init(&sink, fd);
	/* The producer thread gets the CPU mask of the thread that creates it. */
	pin(1);
	err = aux_producer__start(a->p, &run);
	pin(0);
	if (err)
		return err;
	*r = (struct result){ 0 };
	t0 = now_s();
	while (r->bytes < RUN_BYTES) {
		n = auxtrace_mmap__read(a->mm, NULL, &sink.sink);
		if (n < 0)
			break;
		if (!n) {
			/* Where a recorder would poll() for the watermark wakeup. */
			nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
			continue;
		}
		r->reads++;
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
		r->reads++;
		r->bytes += n;
		since += n;
		rewind_if_due(fd, &since);
	}
	r->secs = now_s() - t0;
	return 0;
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
		ssize_t n = write(fd, buf + off, WRITE_CHUNK);

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		r->reads++;
		r->bytes += n;
		since += n;
		off = (off + n) % len;
		rewind_if_due(fd, &since);
	}
	r->secs = now_s() - t0;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double gbs(const struct result *r)
{
	return r->bytes / r->secs / 1e9;
}

static double median(double *v)
{
	qsort(v, REPS, sizeof(*v), cmp_double);
	return v[REPS / 2];
}

int main(void)
{
	char path[] = "/dev/shm/bench-aux-XXXXXX";
	double col[5][REPS];	/* write(), aux, ratio, aux inline, its ratio */
	struct aux_area area = { 0 };
	struct result w, a, l;
	int fd, i, err;

	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp /dev/shm");
		return 1;
	}
	unlink(path);
	pin(0);
	err = aux_area__setup(&area);
	if (err) {
		fprintf(stderr, "bench-aux: AUX area on the test producer: %s\n", strerror(-err));
		return 1;
	}
	printf("AUX area drained into a file on /dev/shm: 4 MiB area, %llu MiB per run, "
	       "consumer on CPU 0, producer on CPU 1\n"
	       "  write():    plain write(2) of 1 MiB pieces of the same mapping (one-copy limit)\n"
	       "  aux:        auxtrace_mmap__read() + fd sink, AUXTRACE framing included, while the\n"
	       "              test producer stores every byte as fast as it can\n"
	       "  aux-inline: the same without the producer thread: aux_head moved by 1 MiB\n"
	       "              before each read, so only the layer's own cost differs\n\n",
	       RUN_BYTES >> 20);
	printf("%-4s %12s %10s %10s %12s %15s %10s\n", "rep", "write() GB/s", "aux GB/s",
	       "ratio", "avg record", "aux-inline GB/s", "ratio");
	for (i = 0; i < REPS; i++) {
		err = run_write(&area, fd, &w);
		if (!err)
			err = run_aux(&area, fd, &a);
		if (!err)
			err = run_aux_inline(&area, fd, &l);
		if (err) {
			fprintf(stderr, "bench-aux: %s\n", strerror(-err));
			return 1;
		}
		col[0][i] = gbs(&w);
		col[1][i] = gbs(&a);
		col[2][i] = col[1][i] / col[0][i];
		col[3][i] = gbs(&l);
		col[4][i] = col[3][i] / col[0][i];
		printf("%-4d %12.2f %10.2f %10.2f %10.0f K %15.2f %10.2f\n", i + 1, col[0][i],
		       col[1][i], col[2][i], a.bytes / (double)a.records / 1024, col[3][i],
		       col[4][i]);
	}
	printf("%-4s %12.2f %10.2f %10.2f %12s %15.2f %10.2f   (target ratio >= 0.90)\n",
	       "med", median(col[0]), median(col[1]), median(col[2]), "", median(col[3]),
	       median(col[4]));
	aux_area__teardown(&area);
	close(fd);
	return 0;
}
