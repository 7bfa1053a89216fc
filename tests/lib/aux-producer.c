// SPDX-License-Identifier: LGPL-2.1
/* The kernel's side of the AUX protocol in shared memory: see aux-producer.h. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/event.h>
#include <internal/auxtrace-mmap.h>
#include "aux-producer.h"

struct aux_producer {
	struct aux_producer_config cfg;
	struct auxtrace_mmap_ops ops;
	int fd;				/* memfd: [control page][data ring] then the AUX area */
	size_t page;
	struct perf_event_mmap_page *pc;
	unsigned char *data;		/* simulated data ring, NULL in attach mode */
	size_t data_size;
	size_t data_len;		/* control page + data ring */
	uint64_t lost_pending;		/* records the data ring had no room for */
	unsigned char *aux;		/* the producer's writable view */
	size_t len;
	size_t mask;			/* len - 1 for a power of two, else 0 */
	uint64_t rem;			/* 2^64 % len: where a non-power-of-two head wraps */
	off_t aux_file_off;
	bool overwrite;
	int nr_maps;
	uint64_t head;			/* free-running */
	uint64_t stream;		/* bytes produced, gaps excluded */
	bool enabled;
	unsigned int nr_enables;
	pthread_t thread;
	bool running;
	bool stop;
	struct aux_producer_run run;
	uint32_t rng;
};

static uint64_t aux_producer__off(const struct aux_producer *p, uint64_t pos)
{
	return p->mask ? pos & p->mask : pos % p->len;
}

/* pos + n, wrapping at the largest multiple of len below 2^64 (2^64 itself for 2^k). */
static uint64_t aux_producer__advance(const struct aux_producer *p, uint64_t pos, uint64_t n)
{
	if (p->rem && pos >= (0 - p->rem) - n)
		return pos + n + p->rem;
	return pos + n;
}

static uint64_t aux_producer__dist(const struct aux_producer *p, uint64_t from, uint64_t to)
{
	return to - from - (to < from ? p->rem : 0);
}

static void aux_producer__publish(struct aux_producer *p)
{
	uint64_t pos = p->overwrite && p->cfg.head_as_offset ? aux_producer__off(p, p->head)
							     : p->head;

	__atomic_store_n(&p->pc->aux_head, pos, __ATOMIC_RELEASE);
}

static size_t aux_producer__room(const struct aux_producer *p)
{
	uint64_t tail;

	if (p->overwrite)
		return SIZE_MAX;
	tail = __atomic_load_n(&p->pc->aux_tail, __ATOMIC_ACQUIRE);
	return p->len - aux_producer__dist(p, tail, p->head);
}

typedef void (*aux_fill_fn)(void *ctx, uint64_t pos, void *dst, size_t len);

/* Write up to n stream bytes at the head without publishing it. Returns bytes written. */
static size_t aux_producer__put(struct aux_producer *p, aux_fill_fn fill, void *ctx, size_t n)
{
	size_t rec = p->cfg.record_size, done = 0;

	while (done < n) {
		uint64_t off = aux_producer__off(p, p->head);
		size_t contig = p->len - off, room = aux_producer__room(p), piece = n - done;

		if (rec && contig < rec) {
			/* A record never straddles the end: the driver moves on to offset 0. */
			if (room < contig)
				break;
			p->head = aux_producer__advance(p, p->head, contig);
			continue;
		}
		piece = piece < contig ? piece : contig;
		piece = piece < room ? piece : room;
		if (rec)
			piece -= piece % rec;
		if (!piece)
			break;
		fill(ctx, p->stream, p->aux + off, piece);
		p->stream += piece;
		p->head = aux_producer__advance(p, p->head, piece);
		done += piece;
	}
	return done;
}

static int aux_producer__data_put(struct aux_producer *p, const void *rec, size_t size)
{
	uint64_t head = p->pc->data_head;
	uint64_t tail = __atomic_load_n(&p->pc->data_tail, __ATOMIC_ACQUIRE);
	size_t off = head & (p->data_size - 1), first = p->data_size - off;

	if (size > p->data_size - (head - tail))
		return -ENOSPC;
	first = first < size ? first : size;
	memcpy(p->data + off, rec, first);
	memcpy(p->data, (const char *)rec + first, size - first);
	__atomic_store_n(&p->pc->data_head, head + size, __ATOMIC_RELEASE);
	return 0;
}

/* A record into the simulated data ring; -ENOSPC counts it for a later PERF_RECORD_LOST. */
static int aux_producer__record(struct aux_producer *p, const struct perf_event_header *rec)
{
	if (!p->data)
		return -ENODEV;
	if (p->lost_pending) {
		struct perf_record_lost lost = {
			.header = { .type = PERF_RECORD_LOST, .size = sizeof(lost) },
			.lost = p->lost_pending,
		};

		if (aux_producer__data_put(p, &lost, sizeof(lost)))
			goto drop;
		p->lost_pending = 0;
	}
	if (!aux_producer__data_put(p, rec, rec->size))
		return 0;
drop:
	p->lost_pending++;
	return -ENOSPC;
}

/* Write n bytes as one AUX transaction and end it with PERF_RECORD_AUX. */
static size_t aux_producer__transact(struct aux_producer *p, aux_fill_fn fill, void *ctx,
				     size_t n, uint64_t flags)
{
	uint64_t start = p->overwrite && p->cfg.head_as_offset ? aux_producer__off(p, p->head)
							       : p->head;
	struct perf_record_aux rec = {
		.header = { .type = PERF_RECORD_AUX, .size = sizeof(rec) },
		.aux_offset = start,
	};
	size_t done;

	if (!aux_producer__enabled(p))
		return 0;
	done = aux_producer__put(p, fill, ctx, n);
	aux_producer__publish(p);
	if (done < n) {
		flags |= PERF_AUX_FLAG_TRUNCATED;
		/* The kernel stops an event that found no room; read_finish restarts it. */
		if (!p->overwrite)
			__atomic_store_n(&p->enabled, false, __ATOMIC_RELEASE);
	}
	rec.aux_size = done;
	rec.flags = flags;
	if (p->data)
		aux_producer__record(p, &rec.header);
	return done;
}

struct aux_copy {
	const unsigned char *buf;
	uint64_t start;
};

static void aux_copy__fill(void *ctx, uint64_t pos, void *dst, size_t len)
{
	struct aux_copy *c = ctx;

	memcpy(dst, c->buf + (pos - c->start), len);
}

size_t aux_producer__write(struct aux_producer *p, const void *buf, size_t len)
{
	struct aux_copy c = { buf, p->stream };
	size_t done = aux_producer__put(p, aux_copy__fill, &c, len);

	aux_producer__publish(p);
	return done;
}

size_t aux_producer__transaction(struct aux_producer *p, const void *buf, size_t len,
				 uint64_t flags)
{
	struct aux_copy c = { buf, p->stream };

	return aux_producer__transact(p, aux_copy__fill, &c, len, flags);
}

void aux_producer__set_head(struct aux_producer *p, uint64_t pos)
{
	p->head = pos;
	aux_producer__publish(p);
}

uint64_t aux_producer__head(const struct aux_producer *p)
{
	return p->head;
}

void aux_producer__enable(struct aux_producer *p)
{
	__atomic_add_fetch(&p->nr_enables, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&p->enabled, true, __ATOMIC_RELEASE);
}

bool aux_producer__enabled(const struct aux_producer *p)
{
	return __atomic_load_n(&p->enabled, __ATOMIC_ACQUIRE);
}

unsigned int aux_producer__nr_enables(const struct aux_producer *p)
{
	return __atomic_load_n(&p->nr_enables, __ATOMIC_RELAXED);
}

static bool aux_producer__pow2_pages(const struct aux_producer *p, size_t len)
{
	size_t pages = len / p->page;

	return len % p->page == 0 && pages && !(pages & (pages - 1));
}

/* The kernel's checks on an AUX mmap, then a mapping of the producer's pages. */
static void *aux_producer__mmap(void *ctx, struct perf_event_mmap_page *userpg, size_t len,
				int prot, int fd, off_t offset)
{
	struct aux_producer *p = ctx;
	int err = EINVAL;
	void *addr;

	if (p->cfg.mmap_errno) {
		err = p->cfg.mmap_errno;
		goto fail;
	}
	if (!p->data)
		p->pc = userpg;		/* attach mode: the consumer's real control page */
	else if (fd != p->fd)
		goto fail;
	if (!p->pc || (uint64_t)offset != p->pc->aux_offset || len != p->pc->aux_size ||
	    offset % p->page || (size_t)offset < p->data_len)
		goto fail;
	if (!p->cfg.allow_non_pow2 && !aux_producer__pow2_pages(p, len))
		goto fail;
	if (p->aux && len != p->len)
		goto fail;		/* a second mapping must match the first */
	if (!p->aux) {
		p->aux_file_off = p->data ? offset : 0;
		if (ftruncate(p->fd, p->aux_file_off + len)) {
			err = errno;
			goto fail;
		}
		addr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, p->aux_file_off);
		if (addr == MAP_FAILED) {
			err = errno;
			goto fail;
		}
		p->aux = addr;
		p->len = len;
		p->mask = len & (len - 1) ? 0 : len - 1;
		p->rem = p->mask ? 0 : (0 - (uint64_t)len) % len;
		/* A writable AUX mapping is what selects full-trace mode. */
		p->overwrite = !(prot & PROT_WRITE);
		p->head = 0;
		p->pc->aux_head = 0;
		p->pc->aux_tail = 0;
	}
	addr = mmap(NULL, len, prot, MAP_SHARED, p->fd, p->aux_file_off);
	if (addr == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	p->nr_maps++;
	return addr;
fail:
	errno = err;
	return MAP_FAILED;
}

static int aux_producer__munmap(void *ctx, void *addr, size_t len)
{
	struct aux_producer *p = ctx;

	p->nr_maps--;
	return munmap(addr, len);
}

struct aux_producer *aux_producer__new(const struct aux_producer_config *cfg)
{
	struct aux_producer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cfg = *cfg;
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	p->enabled = true;
	p->rng = 2463534242u;
	p->ops = (struct auxtrace_mmap_ops){
		.mmap = aux_producer__mmap,
		.munmap = aux_producer__munmap,
		.ctx = p,
	};
	p->fd = memfd_create("aux-producer", MFD_CLOEXEC);
	if (p->fd < 0)
		goto fail;
	if (cfg->data_pages) {
		p->data_size = (size_t)cfg->data_pages * p->page;
		p->data_len = p->data_size + p->page;
		if (ftruncate(p->fd, p->data_len))
			goto fail;
		p->pc = mmap(NULL, p->data_len, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, 0);
		if (p->pc == MAP_FAILED) {
			p->pc = NULL;
			goto fail;
		}
		p->data = (unsigned char *)p->pc + p->page;
		p->pc->data_offset = p->page;
		p->pc->data_size = p->data_size;
	}
	return p;
fail:
	aux_producer__delete(p);
	return NULL;
}

void aux_producer__delete(struct aux_producer *p)
{
	if (!p)
		return;
	aux_producer__stop(p);
	if (p->aux)
		munmap(p->aux, p->len);
	if (p->data)
		munmap(p->pc, p->data_len);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

void aux_producer__route_mmap(struct aux_producer *p, struct auxtrace_mmap *mm)
{
	auxtrace_mmap__set_ops(mm, &p->ops);
}

void aux_producer__route_mmaps(struct aux_producer *p, struct auxtrace_mmaps *aux)
{
	auxtrace_mmaps__set_ops(aux, &p->ops);
}

int aux_producer__fd(const struct aux_producer *p)
{
	return p->fd;
}

struct perf_event_mmap_page *aux_producer__userpg(const struct aux_producer *p)
{
	return p->pc;
}

size_t aux_producer__len(const struct aux_producer *p)
{
	return p->len;
}

bool aux_producer__overwrite(const struct aux_producer *p)
{
	return p->overwrite;
}

int aux_producer__nr_maps(const struct aux_producer *p)
{
	return p->nr_maps;
}

static bool aux_producer__stopping(struct aux_producer *p)
{
	return __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
}

/*
 * Nothing to do until the reader moves: yield a few times, then sleep briefly, so that a
 * waiting producer does not take the CPU (or its SMT sibling) from the reader.
 */
static void aux_producer__backoff(unsigned int *idle)
{
	if ((*idle)++ < 16)
		sched_yield();
	else
		nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
}

static size_t aux_producer__next_chunk(struct aux_producer *p)
{
	const struct aux_producer_run *run = &p->run;
	size_t rec = p->cfg.record_size ? p->cfg.record_size : 1;
	size_t n = run->chunk;

	if (run->vary) {
		p->rng ^= p->rng << 13;	/* xorshift32: cheap and reproducible */
		p->rng ^= p->rng >> 17;
		p->rng ^= p->rng << 5;
		n = 1 + p->rng % run->chunk;
	}
	if (run->limit && n > run->limit - p->stream)
		n = run->limit - p->stream;
	n -= n % rec;
	return n ? n : rec;
}

static void *aux_producer__thread(void *arg)
{
	struct aux_producer *p = arg;
	const struct aux_producer_run *run = &p->run;
	unsigned int idle = 0;

	while (!aux_producer__stopping(p) && (!run->limit || p->stream < run->limit)) {
		size_t n = aux_producer__next_chunk(p), done = 0;

		while (done < n && !aux_producer__stopping(p)) {
			size_t w = aux_producer__put(p, run->fill, run->ctx, n - done);

			if (!w) {
				aux_producer__backoff(&idle);	/* full: wait for aux_tail */
				continue;
			}
			idle = 0;
			aux_producer__publish(p);
			done += w;
		}
	}
	return NULL;
}

int aux_producer__start(struct aux_producer *p, const struct aux_producer_run *run)
{
	int err;

	if (p->running || !p->aux || !run->chunk)
		return -EINVAL;
	p->run = *run;
	p->stop = false;
	err = pthread_create(&p->thread, NULL, aux_producer__thread, p);
	if (err)
		return -err;
	p->running = true;
	return 0;
}

uint64_t aux_producer__stop(struct aux_producer *p)
{
	if (p->running) {
		__atomic_store_n(&p->stop, true, __ATOMIC_RELEASE);
		pthread_join(p->thread, NULL);
		p->running = false;
	}
	return p->stream;
}
