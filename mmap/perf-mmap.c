// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf data ring: an adapter of the consumer core. Positions are data_head/data_tail in
 * the control page; records are size-prefixed and 8-byte aligned.
 *
 * Forward ring (writable mapping): the kernel writes up to data_tail and no further;
 * prev is how far we read, consumed how far the caller gave back, tail what data_tail says.
 * The tail is published in batches (see perf_mmap__consume).
 * Backward ring (read-only, attr.write_backward): the kernel writes downwards from
 * data_head and overwrites freely; a pass reads [head, prev) where prev is the head of the
 * previous pass, or as much of it as survived.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/mmap.h>
#include <internal/ring.h>

struct perf_mmap {
	struct ring ring;
	struct perf_event_mmap_page *userpg;
	unsigned char *data;
	size_t size;			/* data area, a power of two */
	size_t mmap_len;
	int fd;
	struct perf_cpu cpu;
	bool overwrite;
	bool overrun_warned;
	size_t flush;
	uint64_t start, end;		/* the read pass */
	uint64_t pass_head;		/* backward: the head the pass began at */
	uint64_t prev;
	uint64_t consumed;		/* forward: what consume gave back */
	uint64_t tail;			/* forward: the last value stored in data_tail */
	uint64_t publish_batch;		/* forward: consume publishes once this far ahead */
	struct ring_stats pending;	/* what peek counted, for commit to apply */
	void *copy;			/* read_event's scratch for wrapped records */
	size_t copy_size;
};

/* Bytes of a forward ring's window: a piece that fits in a core's L2 cache. */
#define PERF_MMAP_WINDOW (256u << 10)

/* consume() publishes the tail once the caller gave back this fraction of the ring. */
#define PERF_MMAP_PUBLISH_DIV 16

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* The control page's fields are __u64 (unsigned long long), the core's uint64_t. */
static uint64_t perf_mmap__head(const struct perf_mmap *map)
{
	return ring__load_head(&map->userpg->data_head);
}

/* Give the kernel back everything before pos. */
static void perf_mmap__publish(struct perf_mmap *map, uint64_t pos)
{
	map->consumed = pos;
	if (pos == map->tail)
		return;
	map->tail = pos;
	ring__store_tail(&map->userpg->data_tail, pos);
}

/* Copy len bytes at ring position pos out of the ring, across the wrap if need be. */
static void perf_mmap__copy_out(const struct perf_mmap *map, uint64_t pos, void *dst, size_t len)
{
	size_t off = pos & (map->size - 1);
	size_t first = len < map->size - off ? len : map->size - off;

	memcpy(dst, map->data + off, first);
	memcpy((char *)dst + first, map->data, len - first);
}

static uint64_t perf_mmap__u64_at(const struct perf_mmap *map, uint64_t pos)
{
	uint64_t v;

	perf_mmap__copy_out(map, pos, &v, sizeof(v));
	return v;
}

/* Count one record at pos into t: losses and AUX flags are read in place. */
static void perf_mmap__tally(const struct perf_mmap *map, uint64_t pos,
			     const struct perf_event_header *hdr, struct ring_stats *t)
{
	uint64_t flags;

	t->records++;
	switch (hdr->type) {
	case PERF_RECORD_LOST:
		if (hdr->size >= sizeof(struct perf_record_lost)) {
			t->lost += perf_mmap__u64_at(map, pos + offsetof(struct perf_record_lost,
									   lost));
			t->lost_reports++;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (hdr->size >= sizeof(struct perf_record_lost_samples)) {
			t->lost += perf_mmap__u64_at(map, pos +
						     offsetof(struct perf_record_lost_samples, lost));
			t->lost_reports++;
		}
		break;
	case PERF_RECORD_AUX:
		if (hdr->size < sizeof(struct perf_record_aux))
			break;
		flags = perf_mmap__u64_at(map, pos + offsetof(struct perf_record_aux, flags));
		t->aux_truncated += !!(flags & PERF_AUX_FLAG_TRUNCATED);
		t->aux_partial += !!(flags & PERF_AUX_FLAG_PARTIAL);
		t->aux_collision += !!(flags & PERF_AUX_FLAG_COLLISION);
		break;
	default:
		break;
	}
}

/* The loss counts of a window the sink took; its records are the core's to count. */
static void perf_mmap__apply(struct perf_mmap *map, const struct ring_stats *t)
{
	struct ring_stats *s = &map->ring.stats;

	s->lost += t->lost;
	s->lost_reports += t->lost_reports;
	s->aux_truncated += t->aux_truncated;
	s->aux_partial += t->aux_partial;
	s->aux_collision += t->aux_collision;
}

/*
 * The header of the record at pos, in place: the kernel writes records of 8-byte multiples
 * at 8-byte positions of a ring of whole pages, so a header never wraps. 1 when the record
 * lies whole within the `avail` bytes left; 0 when it does not, or the header is zero (a
 * backward ring's stale or never-written end); -EINVAL when no kernel wrote it.
 */
static int perf_mmap__header(const struct perf_mmap *map, uint64_t pos, uint64_t avail,
			     const struct perf_event_header **hdr)
{
	const struct perf_event_header *h;

	if (pos % sizeof(*h))
		return -EINVAL;
	if (avail < sizeof(*h))
		return 0;
	*hdr = h = (const void *)(map->data + (pos & (map->size - 1)));
	if (h->size == 0)
		return 0;
	if (h->size < sizeof(*h) || h->size % sizeof(*h))
		return -EINVAL;
	return h->size <= avail;
}

static void perf_mmap__log_corrupt(const struct perf_mmap *map, uint64_t pos, uint64_t avail)
{
	pr_err("data ring of fd %d: no whole record at position %#llx (%llu bytes before the "
	       "head); the ring is corrupt (was the mapping written by another program?)\n",
	       map->fd, (unsigned long long)pos, (unsigned long long)avail);
}

/*
 * A backward ring that was overwritten all round: from the head, keep the records that lie
 * wholly within one ring size, stop at a never-written (zero) header. Returns the end.
 */
static uint64_t perf_mmap__backward_end(const struct perf_mmap *map, uint64_t head)
{
	const struct perf_event_header *hdr;
	uint64_t pos = head;

	while (perf_mmap__header(map, pos, head + map->size - pos, &hdr) == 1)
		pos += hdr->size;
	return pos;
}

/*
 * [start, end) of what can be read now. A forward ring more than a ring size behind was
 * overrun (only possible if someone moved the tail or head behind our back): skip it.
 */
static void perf_mmap__range(struct perf_mmap *map, uint64_t *start, uint64_t *end)
{
	uint64_t head = perf_mmap__head(map);

	if (map->overwrite) {
		*start = head;
		*end = map->prev;
		if (*end - *start > map->size)
			*end = perf_mmap__backward_end(map, head);
		return;
	}
	/* What a pass left consumed but unpublished (no read_done) goes out now. */
	perf_mmap__publish(map, map->consumed);
	*start = map->prev;
	*end = head;
	if (head - map->prev > map->size) {
		if (!map->overrun_warned)
			pr_warn("data ring of fd %d: failed to keep up, %llu bytes overwritten; "
				"read more often or map more pages\n",
				map->fd, (unsigned long long)(head - map->prev));
		map->overrun_warned = true;
		map->ring.stats.overruns += head - map->prev;
		map->prev = head;
		perf_mmap__publish(map, head);
		*start = *end = head;
	}
}

static int perf_mmap__ring_peek(struct ring *ring, const struct ring_request *req,
				struct ring_window *win)
{
	struct perf_mmap *map = container_of(ring, struct perf_mmap, ring);
	const struct perf_event_header *hdr;
	uint64_t start, end, head, pos;

	(void)req;
	perf_mmap__range(map, &start, &end);
	if (end == start || end - start < map->flush)
		return 0;
	head = end;
	/*
	 * Count in place what the window carries; the stats take it only if the sink does.
	 * A forward ring's window ends after PERF_MMAP_WINDOW bytes, so that the bytes this walk
	 * brought into the cache are still there when the sink writes (and reads) them.
	 */
	map->pending = (struct ring_stats){ 0 };
	for (pos = start; pos < end; pos += hdr->size) {
		if (!map->overwrite && pos - start >= PERF_MMAP_WINDOW) {
			end = pos;
			break;
		}
		if (perf_mmap__header(map, pos, end - pos, &hdr) != 1) {
			perf_mmap__log_corrupt(map, pos, end - pos);
			return -EINVAL;
		}
		perf_mmap__tally(map, pos, hdr, &map->pending);
	}
	ring__add_spans(win, map->data, map->size, start, end - start);
	/*
	 * A window that reaches the head as loaded above ends the drain, and what the
	 * kernel writes meanwhile waits for the next one (the wakeup mark or the next round).
	 * Going back for it would chase a live producer a few records per write(2): with a
	 * tracepoint on a busy loop, 80 records a call instead of a window's 3000.
	 */
	win->edge = end == head;
	win->records = map->pending.records;
	win->pos = map->overwrite ? start : end;
	return 1;
}

static int perf_mmap__ring_commit(struct ring *ring, const struct ring_request *req,
				  struct ring_window *win, size_t taken)
{
	struct perf_mmap *map = container_of(ring, struct perf_mmap, ring);

	(void)req;
	(void)taken;	/* iovec windows are taken whole */

	map->prev = win->pos;
	if (!map->overwrite)
		perf_mmap__publish(map, win->pos);
	perf_mmap__apply(map, &map->pending);
	return 0;
}

static const struct ring_ops perf_mmap_ring_ops = {
	.peek = perf_mmap__ring_peek,
	.commit = perf_mmap__ring_commit,
};

struct perf_mmap *perf_mmap__map(int fd, struct perf_cpu cpu, unsigned int pages, bool overwrite)
{
	struct perf_mmap *map;
	size_t psize = page_size();
	void *base;

	if (!perf_mmap__pages_ok(pages))
		return libauxtrace__ptr_err(-EINVAL);
	map = calloc(1, sizeof(*map));
	if (!map)
		return libauxtrace__ptr_err(-ENOMEM);
	map->mmap_len = ((size_t)pages + 1) * psize;
	base = mmap(NULL, map->mmap_len, overwrite ? PROT_READ : PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int err = -errno;

		free(map);
		return libauxtrace__ptr_err(err);
	}
	ring__init(&map->ring, &perf_mmap_ring_ops);
	map->userpg = base;
	map->data = (unsigned char *)base + psize;
	map->size = (size_t)pages * psize;
	map->fd = fd;
	map->cpu = cpu;
	map->overwrite = overwrite;
	map->flush = 1;
	map->publish_batch = map->size / PERF_MMAP_PUBLISH_DIV;
	return map;
}

void perf_mmap__log_map_error(int err, int fd, unsigned int pages, int nr_rings)
{
	size_t kib = ((size_t)pages + 1) * page_size() / 1024;
	char limit[32];

	switch (err) {
	case EINVAL:
		if (!perf_mmap__pages_ok(pages)) {
			unsigned long long below = 1ull << (31 - __builtin_clz(pages));

			pr_err("data ring: %u pages is not a power of two; use %llu or %llu\n",
			       pages, below, below * 2);
			return;
		}
		pr_err("data ring of fd %d: mmap of %zu KiB refused (EINVAL): an inherited "
		       "per-thread event (attr.inherit on any CPU) cannot be mapped, and events "
		       "sharing a ring must agree on CPU, clock and write_backward\n", fd, kib);
		return;
	case EPERM:
		libauxtrace__memlock_rlimit(limit, sizeof(limit));
		pr_err("Permission error mapping %d data ring(s) of %u+1 pages (%zu KiB each, "
		       "%zu KiB in all): the locked-memory budget is "
		       "/proc/sys/kernel/perf_event_mlock_kb (%llu KiB per CPU) plus RLIMIT_MEMLOCK "
		       "(%s); raise one of them (sysctl kernel.perf_event_mlock_kb=N, ulimit -l) or "
		       "map fewer pages\n",
		       nr_rings, pages, kib, kib * nr_rings, libauxtrace__perf_mlock_kb(0), limit);
		return;
	case EBADF:
	case ENODEV:
	case EACCES:
		pr_err("data ring of fd %d: mmap failed (%s): the fd is not an open perf event; "
		       "pass the fd that evsel__fd() returns\n", fd, strerror(err));
		return;
	default:
		pr_err("data ring of fd %d: mmap of %zu KiB failed: %s; map fewer pages\n", fd,
		       kib, strerror(err));
	}
}

struct perf_mmap *perf_mmap__new(int fd, struct perf_cpu cpu, unsigned int pages, bool overwrite)
{
	struct perf_mmap *map = perf_mmap__map(fd, cpu, pages, overwrite);

	if (!map)
		perf_mmap__log_map_error(errno, fd, pages, 1);
	return map;
}

void perf_mmap__delete(struct perf_mmap *map)
{
	if (!map)
		return;
	munmap(map->userpg, map->mmap_len);
	free(map->copy);
	free(map);
}

int perf_mmap__fd(const struct perf_mmap *map)
{
	return map->fd;
}

struct perf_cpu perf_mmap__cpu(const struct perf_mmap *map)
{
	return map->cpu;
}

bool perf_mmap__overwrite(const struct perf_mmap *map)
{
	return map->overwrite;
}

struct perf_event_mmap_page *perf_mmap__userpg(const struct perf_mmap *map)
{
	return map->userpg;
}

size_t perf_mmap__data_size(const struct perf_mmap *map)
{
	return map->size;
}

size_t perf_mmap__mmap_len(const struct perf_mmap *map)
{
	return map->mmap_len;
}

void perf_mmap__set_flush(struct perf_mmap *map, size_t bytes)
{
	map->flush = bytes ? bytes : 1;
}

const struct ring_stats *perf_mmap__stats(const struct perf_mmap *map)
{
	return &map->ring.stats;
}

int perf_mmap__read_init(struct perf_mmap *map)
{
	perf_mmap__range(map, &map->start, &map->end);
	map->pass_head = map->start;
	if (map->end == map->start || map->end - map->start < map->flush)
		return libauxtrace__err(-EAGAIN);
	return 0;
}

/*
 * The record at the read position, in place, not taken yet: 1, 0 at the end of the pass,
 * -EINVAL on a corrupt ring. A forward ring is live: records the kernel added since
 * read_init belong to this pass, so when the pass runs out the head is read again. Only
 * then: the head shares its cache line with the kernel's writes, and reading it per record
 * costs a cache miss per record while the producer runs.
 */
static int perf_mmap__peek_record(struct perf_mmap *map, struct perf_mmap_record *rec)
{
	const struct perf_event_header *hdr;
	uint64_t pos = map->start, avail;
	size_t room;
	int ok;

	if (!map->overwrite && pos == map->end)
		map->end = perf_mmap__head(map);
	avail = map->end - pos;
	ok = perf_mmap__header(map, pos, avail, &hdr);
	/* The kernel publishes whole records only: a forward ring has no partial one. */
	if (ok < 0 || (ok == 0 && avail && !map->overwrite)) {
		perf_mmap__log_corrupt(map, pos, avail);
		return -EINVAL;
	}
	if (ok == 0)
		return 0;
	room = map->size - (pos & (map->size - 1));
	rec->header = hdr;
	rec->piece[0] = hdr;
	rec->len[0] = hdr->size < room ? hdr->size : room;
	rec->len[1] = hdr->size - rec->len[0];
	rec->piece[1] = rec->len[1] ? map->data : NULL;
	return 1;
}

/* Count the record peek_record found and move past it. */
static void perf_mmap__take(struct perf_mmap *map, const struct perf_mmap_record *rec)
{
	perf_mmap__tally(map, map->start, rec->header, &map->ring.stats);
	map->start += rec->header->size;
	if (!map->overwrite)
		map->prev = map->start;
}

int perf_mmap__read_record(struct perf_mmap *map, struct perf_mmap_record *rec)
{
	int ok = perf_mmap__peek_record(map, rec);

	if (ok < 0)
		return libauxtrace__err(ok);
	if (ok)
		perf_mmap__take(map, rec);
	return ok;
}

/* The scratch copy of a record that wraps; NULL (errno ENOMEM) leaves the record unread. */
static union perf_event *perf_mmap__copy_record(struct perf_mmap *map,
						const struct perf_mmap_record *rec)
{
	size_t size = rec->len[0] + rec->len[1];

	if (size > map->copy_size) {
		void *copy = realloc(map->copy, size);

		if (!copy) {
			pr_err("data ring of fd %d: no memory for a copy of a %zu-byte record that "
			       "wraps the ring end; it stays unread (free memory and read again, or "
			       "use perf_mmap__read_record, which never copies)\n", map->fd, size);
			errno = ENOMEM;
			return NULL;
		}
		map->copy = copy;
		map->copy_size = size;
	}
	memcpy(map->copy, rec->piece[0], rec->len[0]);
	memcpy((char *)map->copy + rec->len[0], rec->piece[1], rec->len[1]);
	return map->copy;
}

union perf_event *perf_mmap__read_event(struct perf_mmap *map)
{
	struct perf_mmap_record rec;
	union perf_event *event;
	int ok = perf_mmap__peek_record(map, &rec);

	if (ok <= 0) {
		errno = ok < 0 ? -ok : 0;
		return NULL;
	}
	/* The one copy: a caller asked for a contiguous record and this one wraps. */
	event = rec.len[1] ? perf_mmap__copy_record(map, &rec) : (union perf_event *)rec.piece[0];
	if (event)
		perf_mmap__take(map, &rec);
	return event;
}

/*
 * Called per record, a tail store per call would write the control page's cache line, which
 * the kernel writes its head to, once per record: the line would bounce between the CPUs.
 * So the tail goes out once the caller gave back a batch (1/PERF_MMAP_PUBLISH_DIV of the
 * ring: the most room ever withheld from the producer), and at read_done or the next
 * read_init/push. Nothing captured is lost by waiting: the kernel keeps the bytes until it
 * sees the tail.
 */
void perf_mmap__consume(struct perf_mmap *map)
{
	if (map->overwrite)
		return;
	map->consumed = map->prev;
	if (map->consumed - map->tail >= map->publish_batch)
		perf_mmap__publish(map, map->consumed);
}

void perf_mmap__read_done(struct perf_mmap *map)
{
	/* A backward ring's next pass ends where this one began. */
	if (map->overwrite)
		map->prev = map->pass_head;
	else
		perf_mmap__publish(map, map->consumed);
}

ssize_t perf_mmap__drain(struct perf_mmap *map, struct ring_sink *sink, bool flush)
{
	/* At most one ring's worth, so that a busy producer cannot keep the caller here. */
	struct ring_request req = { .max_bytes = map->size, .flush = flush };

	return ring__drain(&map->ring, &req, sink);
}

ssize_t perf_mmap__push(struct perf_mmap *map, struct ring_sink *sink)
{
	return perf_mmap__drain(map, sink, false);
}

int perf_mmap__pause(struct perf_mmap *map, bool pause)
{
	if (ioctl(map->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0) < 0) {
		int err = -errno;

		pr_err("data ring of fd %d: PERF_EVENT_IOC_PAUSE_OUTPUT failed: %s; it needs Linux "
		       "4.7 or later and the fd that owns the mapped ring\n", map->fd,
		       strerror(-err));
		return libauxtrace__err(err);
	}
	return 0;
}
