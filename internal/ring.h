/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The consumer core as the ring adapters see it. A ring kind embeds struct ring and
 * implements two operations:
 *
 *   peek()   fill a window with what can be read now (pointers into the mapping, or bytes
 *            waiting in a pipe for a sink that splices), and the producer position that
 *            taking it would publish;
 *   commit() publish that position to the producer (the tail, aux_tail, or the sub-buffer
 *            swap), after the sink took the window.
 *
 * ring__drain() is the only loop that moves data: peek, push (or splice), commit, as the
 * caller's request says. Nothing in it copies; a failed push leaves the producer position
 * where it was. Per-call parameters travel in the request, never in the ring object, and an
 * adapter that needs more of them embeds struct ring_request in a request of its own.
 */
#ifndef AUXTRACE_INTERNAL_RING_H
#define AUXTRACE_INTERNAL_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/types.h>
#include <auxtrace/ring.h>

struct ring;

/* What one drain call asks for. Zero-initialized: everything there is, one pass. */
struct ring_request {
	size_t max_bytes;		/* stop once this many bytes moved (0: no limit) */
	unsigned int max_windows;	/* stop after this many windows (0: no limit) */
	/*
	 * Also take what the producer is still writing: do not stop after a window that
	 * reached its live edge (the page a tracefs writer is on).
	 */
	bool flush;
	size_t snapshot_size;		/* AUX overwrite mode: at most the newest N bytes */

	/* Set by ring__drain, for the caller. */
	bool reached_edge;		/* the drain ended at the producer's live edge */
	bool limited;			/* ... at max_bytes or max_windows: more may be there */
	/* Set by ring__drain, for peek: the sink can take splice windows. */
	bool sink_splices;
};

struct ring_window {
	struct iovec iov[RING_MAX_IOV];
	int iovcnt;
	/*
	 * -1, or a pipe whose first `bytes` bytes are the window: for a sink with splice(),
	 * which may take them in part. iov is unused then.
	 */
	int splice_fd;
	size_t bytes;		/* sum of iov lengths, or the bytes waiting in splice_fd */
	uint64_t pos;		/* adapter's position to publish once the sink took the window */
	uint64_t records;	/* records in the window, when the adapter counts them */
	uint64_t chunks;	/* units handed out (1; commit may say more or fewer) */
	uint64_t overrun;	/* bytes the producer overwrote before this window */
	bool edge;		/* the window reaches the producer's live edge */
	void *priv;		/* adapter state carried from peek to commit */
};

struct ring_ops {
	/* 1: window filled; 0: nothing to read; -errno: the ring cannot be read. */
	int (*peek)(struct ring *ring, const struct ring_request *req, struct ring_window *win);
	/*
	 * The sink took `taken` bytes of the window: all of them, or fewer only for a splice
	 * window. Publish what they cover. 0, or -errno: published all the same, but the drain
	 * must end with that error.
	 */
	int (*commit)(struct ring *ring, const struct ring_request *req, struct ring_window *win,
		      size_t taken);
};

struct ring {
	const struct ring_ops *ops;
	struct ring_stats stats;
};

static inline void ring__init(struct ring *ring, const struct ring_ops *ops)
{
	ring->ops = ops;
	ring->stats = (struct ring_stats){ .sz = sizeof(ring->stats) };
}

/*
 * ring__drain() moves windows from ring to sink as req asks, until the ring is empty or a limit
 * is met; req's out fields say why it stopped. Returns the bytes the sink took, or -errno from
 * the ring or the sink (then the stats still count what moved before the error).
 */
AUXTRACE_PRIVATE ssize_t ring__drain(struct ring *ring, struct ring_request *req,
				     struct ring_sink *sink);

/*
 * Producer/consumer positions, as the kernel's perf_event_mmap_page declares them (__u64).
 * The producer writes data, then its head with release semantics: load the head with
 * acquire so the data before it is visible. Our reads of the data must complete before the
 * producer may reuse it, and a store-release orders every earlier load and store before
 * the tail store: that is all the kernel's "full barrier before the tail" asks for (the
 * kernel pairs it with a control dependency on its side, not with a load of ours). A
 * separate fence would add an mfence per publish on x86 and buy nothing.
 */
static inline uint64_t ring__load_head(const volatile __u64 *head)
{
	return __atomic_load_n(head, __ATOMIC_ACQUIRE);
}

static inline void ring__store_tail(volatile __u64 *tail, uint64_t pos)
{
	__atomic_store_n(tail, pos, __ATOMIC_RELEASE);
}

/*
 * The AUX tail, published once per chunk of up to a whole AUX area: with the full barrier
 * the AUX protocol is documented with (perf's aux_tail store, smp_mb). Release alone would
 * order it as well; the fence costs nothing at this rate and keeps the documented pairing
 * for PMU drivers that read aux_tail outside the generic ring code.
 */
static inline void ring__store_tail_full(volatile __u64 *tail, uint64_t pos)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(tail, pos, __ATOMIC_RELEASE);
}

/*
 * The bytes [from, from + len) of a circular buffer of `size` bytes at `base` (positions are
 * free-running counters reduced modulo size; size need not be a power of two) as one span,
 * or two when they wrap. Appends to win (at most two iovecs). Returns the iovecs added.
 */
int ring__add_spans(struct ring_window *win, void *base, size_t size, uint64_t from,
		    size_t len);

/* Append one iovec (a frame header or padding that lives outside the mapping). */
static inline void ring__add_iov(struct ring_window *win, const void *p, size_t len)
{
	if (!len)
		return;
	win->iov[win->iovcnt].iov_base = (void *)p;
	win->iov[win->iovcnt].iov_len = len;
	win->iovcnt++;
	win->bytes += len;
}

static inline void ring_window__reset(struct ring_window *win)
{
	*win = (struct ring_window){ .splice_fd = -1, .chunks = 1 };
}

/*
 * Copy stats into a caller's struct of sz bytes: as much as both know, with out->sz saying
 * how much that was. 0, or -EINVAL when sz cannot hold even the size field.
 */
int ring_stats__copy_out(struct ring_stats *out, size_t sz, const struct ring_stats *in);

/* Add every counter of s to sum. */
void ring_stats__add(struct ring_stats *sum, const struct ring_stats *s);

/* Loss bookkeeping shared by every ring kind. count < 0: a loss of unknown size. */
static inline void ring__account_loss(struct ring *ring, int64_t count)
{
	ring->stats.lost_reports++;
	if (count < 0)
		ring->stats.lost_unknown++;
	else
		ring->stats.lost += (uint64_t)count;
}

#endif
