// SPDX-License-Identifier: LGPL-2.1
/*
 * One AUX area as an adapter of the consumer core: peek frames what the producer wrote as a
 * PERF_RECORD_AUXTRACE (header, one or two pieces of the mapping, zero padding), commit
 * publishes aux_tail. Full-trace reads drain; a snapshot read is one window without a tail.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <internal/auxtrace-mmap.h>
#include <internal/auxtrace-mmap-params.h>
#include <internal/lib.h>
#include <internal/ring.h>

struct auxtrace_mmap {
	struct ring ring;
	void *base;
	struct perf_event_mmap_page *userpg;
	size_t mask;
	size_t len;
	uint64_t prev;
	int idx;
	pid_t tid;
	struct perf_cpu cpu;
	int fd;
	int prot;
	const struct auxtrace_mmap_ops *ops;
	struct perf_record_auxtrace ev;	/* the frame header of the window in hand */
};

/* A read of the area: the core's request, and what the AUX kind needs besides. */
struct auxtrace_mmap_request {
	struct ring_request req;
	struct auxtrace_record *itr;	/* the backend: snapshot rule, alignment, reference */
	bool snapshot;			/* a stopped overwrite buffer: no tail to publish */
};

static const struct auxtrace_mmap_request *
auxtrace_mmap__request(const struct ring_request *req)
{
	return container_of(req, const struct auxtrace_mmap_request, req);
}

static void *kernel__mmap(void *ctx, struct perf_event_mmap_page *userpg, size_t len,
			  int prot, int fd, off_t offset)
{
	(void)ctx;
	(void)userpg;
	return mmap(NULL, len, prot, MAP_SHARED, fd, offset);
}

static int kernel__munmap(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	return munmap(addr, len);
}

const struct auxtrace_mmap_ops auxtrace_mmap_ops__kernel = {
	.mmap = kernel__mmap,
	.munmap = kernel__munmap,
};

static const struct ring_ops auxtrace_mmap__ring_ops;

struct auxtrace_mmap *auxtrace_mmap__new(void)
{
	struct auxtrace_mmap *mm = calloc(1, sizeof(*mm));

	if (!mm)
		return libauxtrace__ptr_err(-ENOMEM);
	mm->ops = &auxtrace_mmap_ops__kernel;
	mm->idx = -1;
	mm->cpu.cpu = -1;
	mm->fd = -1;
	ring__init(&mm->ring, &auxtrace_mmap__ring_ops);
	return mm;
}

void auxtrace_mmap__delete(struct auxtrace_mmap *mm)
{
	if (!mm)
		return;
	auxtrace_mmap__munmap(mm);
	free(mm);
}

void auxtrace_mmap__set_ops(struct auxtrace_mmap *mm, const struct auxtrace_mmap_ops *ops)
{
	mm->ops = ops ? ops : &auxtrace_mmap_ops__kernel;
}

int auxtrace_mmap__mmap(struct auxtrace_mmap *mm, const struct auxtrace_mmap_params *mp,
			void *userpg, int fd)
{
	struct perf_event_mmap_page *pc = userpg;
	void *base;

	if (mm->base)
		return libauxtrace__err(-EBUSY);
	mm->userpg = pc;
	mm->mask = mp->mask;
	mm->len = mp->len;
	mm->prev = 0;
	mm->idx = mp->idx;
	mm->tid = auxtrace_mmap_params__record_tid(mp);
	mm->cpu = mp->cpu;
	mm->fd = fd;
	mm->prot = mp->prot;
	ring__init(&mm->ring, &auxtrace_mmap__ring_ops);
	if (!mp->len || !mp->mmap_needed)
		return 0;
	if (!pc)
		return libauxtrace__err(-EINVAL);
	/* Positions are reduced with mask: any other mask than len - 1 reads past the area. */
	if (mp->mask && mp->mask != mp->len - 1) {
		pr_err("idx %d: AUX area mask %#zx does not fit its length %zu (it must be len - 1 "
		       "or 0): fill the params with auxtrace_mmap_params__init()\n", mp->idx,
		       mp->mask, mp->len);
		return libauxtrace__err(-EINVAL);
	}
	/* The kernel takes the AUX geometry from the control page, not from mmap's arguments. */
	pc->aux_offset = mp->offset;
	pc->aux_size = mp->len;
	pr_debug("idx %d: mmapping AUX area of fd %d: %zu bytes at offset %lld%s\n", mp->idx,
		 fd, mp->len, (long long)mp->offset,
		 mp->prot & PROT_WRITE ? "" : ", overwrite mode");
	base = mm->ops->mmap(mm->ops->ctx, pc, mp->len, mp->prot, fd, mp->offset);
	if (base == MAP_FAILED) {
		int err = -errno;

		pr_debug("idx %d: failed to mmap the AUX area of fd %d: %s\n", mp->idx, fd,
			 strerror(-err));
		/* The control page must not describe an area that does not exist. */
		pc->aux_offset = 0;
		pc->aux_size = 0;
		return libauxtrace__err(err);
	}
	mm->base = base;
	return 0;
}

void auxtrace_mmap__munmap(struct auxtrace_mmap *mm)
{
	if (!mm || !mm->base)
		return;
	mm->ops->munmap(mm->ops->ctx, mm->base, mm->len);
	mm->base = NULL;
}

static uint64_t auxtrace_mmap__off(const struct auxtrace_mmap *mm, uint64_t pos)
{
	return mm->mask ? pos & mm->mask : pos % mm->len;
}

/*
 * A producer whose buffer is not a power of two wraps its head at the largest multiple of
 * len below 2^64, so that head % len stays continuous; positions then skip the remainder
 * 2^64 % len when they cross zero. Powers of two have none.
 */
static uint64_t auxtrace_mmap__wrap_rem(const struct auxtrace_mmap *mm)
{
	return mm->mask ? 0 : (0 - (uint64_t)mm->len) % mm->len;
}

/* Bytes between old and head as buffer offsets: equal offsets mean a full buffer. */
static uint64_t auxtrace_mmap__span(const struct auxtrace_mmap *mm, uint64_t old,
				    uint64_t head)
{
	uint64_t head_off = auxtrace_mmap__off(mm, head);
	uint64_t old_off = auxtrace_mmap__off(mm, old);

	return head_off > old_off ? head_off - old_off : mm->len - (old_off - head_off);
}

/*
 * Offsets alone cannot tell a head one byte ahead from one a buffer and a byte ahead; the
 * distance can. A full-trace producer must stay within a buffer of the tail, so more is
 * loss: deliver the newest buffer-full and skip the rest. Returns the bytes skipped.
 */
static uint64_t auxtrace_mmap__overrun(const struct auxtrace_mmap *mm, uint64_t old,
				       uint64_t head)
{
	uint64_t dist = head - old - (head < old ? auxtrace_mmap__wrap_rem(mm) : 0);

	return dist > mm->len ? dist - mm->len : 0;
}

static int auxtrace_mmap__peek(struct ring *ring, const struct ring_request *req,
			       struct ring_window *win)
{
	static const uint64_t zero_pad;	/* padding is at most 7 bytes */
	struct auxtrace_mmap *mm = container_of(ring, struct auxtrace_mmap, ring);
	const struct auxtrace_mmap_request *rd = auxtrace_mmap__request(req);
	struct auxtrace_record *itr = rd->itr;
	uint64_t head, old = mm->prev, size, offset, head_off, len1, len2;
	const char *chunk1;
	unsigned int padding;
	int err;

	head = ring__load_head(&mm->userpg->aux_head);
	if (rd->snapshot && itr && itr->find_snapshot) {
		err = itr->find_snapshot(itr, mm->idx, mm, mm->base, &head, &old);
		if (err)
			return err < 0 ? err : -EINVAL;
	}
	if (head == old)
		return 0;
	size = auxtrace_mmap__span(mm, old, head);
	win->overrun = rd->snapshot ? 0 : auxtrace_mmap__overrun(mm, old, head);
	if (win->overrun)
		size = mm->len;
	else if (rd->snapshot && req->snapshot_size && size > req->snapshot_size)
		size = req->snapshot_size;	/* the newest bytes: pieces end at head */

	offset = head - size;
	if (size > head)
		offset -= auxtrace_mmap__wrap_rem(mm);

	head_off = auxtrace_mmap__off(mm, head);
	if (size > head_off) {		/* wrapped: [len - len1, len) then [0, head_off) */
		len1 = size - head_off;
		len2 = head_off;
		chunk1 = (const char *)mm->base + mm->len - len1;
	} else {
		len1 = size;
		len2 = 0;
		chunk1 = (const char *)mm->base + head_off - size;
	}

	/* BTS-like producers leave the buffer's end unwritten when a record does not fit. */
	if (itr && itr->alignment) {
		unsigned int unwanted = len1 % itr->alignment;

		len1 -= unwanted;
		size -= unwanted;
	}
	padding = (8 - size % 8) % 8;

	mm->ev = (struct perf_record_auxtrace){
		.header = { .type = PERF_RECORD_AUXTRACE, .size = sizeof(mm->ev) },
		.size = size + padding,
		.offset = offset,
		.reference = itr && itr->reference ? itr->reference(itr) : 0,
		.idx = mm->idx,
		.tid = mm->tid,
		.cpu = mm->cpu.cpu,
	};
	ring__add_iov(win, &mm->ev, sizeof(mm->ev));
	ring__add_iov(win, chunk1, len1);
	ring__add_iov(win, mm->base, len2);
	ring__add_iov(win, &zero_pad, padding);
	win->pos = head;
	win->records = 1;
	return 1;
}

static int auxtrace_mmap__commit(struct ring *ring, const struct ring_request *req,
				 struct ring_window *win, size_t taken)
{
	struct auxtrace_mmap *mm = container_of(ring, struct auxtrace_mmap, ring);
	const struct auxtrace_mmap_request *rd = auxtrace_mmap__request(req);

	(void)taken;	/* iovec windows are taken whole */
	mm->prev = win->pos;
	if (rd->snapshot)
		return 0;
	ring__store_tail_full(&mm->userpg->aux_tail, win->pos);
	/* Only now: a window the sink refused is offered again and must not count twice. */
	if (win->overrun)
		pr_warn("idx %d: AUX data lost: %" PRIu64 " bytes were overwritten before they "
			"were read (aux_head ran more than the %zu-byte buffer ahead of the last "
			"read; the producer did not wait for aux_tail). Read more often or map a "
			"larger AUX area.\n", mm->idx, win->overrun, mm->len);
	/*
	 * The bytes are delivered and the tail is out; the core counts them either way and
	 * ends the read with a failing re-enable's error.
	 */
	return rd->itr && rd->itr->read_finish ? rd->itr->read_finish(rd->itr, mm->idx) : 0;
}

static const struct ring_ops auxtrace_mmap__ring_ops = {
	.peek = auxtrace_mmap__peek,
	.commit = auxtrace_mmap__commit,
};

static ssize_t auxtrace_mmap__drain(struct auxtrace_mmap *mm, struct auxtrace_mmap_request *rd,
				    struct ring_sink *sink)
{
	if (!mm->base)
		return 0;
	return ring__drain(&mm->ring, &rd->req, sink);
}

ssize_t auxtrace_mmap__read(struct auxtrace_mmap *mm, struct auxtrace_record *itr,
			    struct ring_sink *sink)
{
	if (mm->base && !(mm->prot & PROT_WRITE)) {
		pr_err("idx %d: the AUX area is mapped read-only (overwrite mode): read it with "
		       "auxtrace_mmap__read_snapshot() after stopping the event\n", mm->idx);
		return libauxtrace__err(-EINVAL);
	}
	/*
	 * Until empty, but at most about one buffer per call, so that a producer as fast as
	 * we are cannot keep us here.
	 */
	struct auxtrace_mmap_request rd = { .req.max_bytes = mm->len, .itr = itr };

	return auxtrace_mmap__drain(mm, &rd, sink);
}

ssize_t auxtrace_mmap__read_snapshot(struct auxtrace_mmap *mm, struct auxtrace_record *itr,
				     struct ring_sink *sink, size_t snapshot_size)
{
	/* One record: find_snapshot describes one stopped buffer. */
	struct auxtrace_mmap_request rd = {
		.req = { .max_windows = 1, .snapshot_size = snapshot_size },
		.itr = itr,
		.snapshot = true,
	};

	return auxtrace_mmap__drain(mm, &rd, sink);
}

void *auxtrace_mmap__base(const struct auxtrace_mmap *mm)
{
	return mm->base;
}

size_t auxtrace_mmap__len(const struct auxtrace_mmap *mm)
{
	return mm->len;
}

size_t auxtrace_mmap__mask(const struct auxtrace_mmap *mm)
{
	return mm->mask;
}

uint64_t auxtrace_mmap__prev(const struct auxtrace_mmap *mm)
{
	return mm->prev;
}

int auxtrace_mmap__idx(const struct auxtrace_mmap *mm)
{
	return mm->idx;
}

pid_t auxtrace_mmap__tid(const struct auxtrace_mmap *mm)
{
	return mm->tid;
}

struct perf_cpu auxtrace_mmap__cpu(const struct auxtrace_mmap *mm)
{
	return mm->cpu;
}

int auxtrace_mmap__fd(const struct auxtrace_mmap *mm)
{
	return mm->fd;
}

struct perf_event_mmap_page *auxtrace_mmap__userpg(const struct auxtrace_mmap *mm)
{
	return mm->userpg;
}

const struct ring_stats *auxtrace_mmap__stats(const struct auxtrace_mmap *mm)
{
	return &mm->ring.stats;
}
