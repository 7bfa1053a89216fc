// SPDX-License-Identifier: LGPL-2.1
/* The buffer-consumer core: the one loop that moves bytes from a ring to a sink. */
#include <errno.h>
#include <string.h>

#include <internal/lib.h>
#include <internal/ring.h>

int ring__add_spans(struct ring_window *win, void *base, size_t size, uint64_t from,
		    size_t len)
{
	size_t off = from % size;	/* once per window: size need not be a power of two */
	size_t first = len < size - off ? len : size - off;

	if (!len)
		return 0;
	ring__add_iov(win, (char *)base + off, first);
	if (first == len)
		return 1;
	ring__add_iov(win, base, len - first);
	return 2;
}

/* Hand the window to the sink: all of it, or for a splice window what the sink took. */
static ssize_t ring__hand_out(struct ring_request *req, struct ring_sink *sink,
			      struct ring_window *win)
{
	ssize_t taken;

	if (win->splice_fd >= 0) {
		taken = sink->splice(sink, win->splice_fd, win->bytes);
		if (taken == -EINVAL)
			req->sink_splices = false;	/* the output refuses splices: iovecs */
		return taken;
	}
	taken = sink->push(sink, win->iov, win->iovcnt);
	if (taken >= 0 && (size_t)taken != win->bytes) {
		pr_err("a ring sink took %zd of %zu bytes: a push must take all of them or "
		       "return -errno; the bytes stay in the ring (fix the sink)\n",
		       taken, win->bytes);
		taken = -EIO;
	}
	return taken;
}

/*
 * One window: peek, hand out, commit. Bytes taken, 0 when the ring is empty, or -errno.
 * *cut: a splice the output cut short, whose failure is the next call's to report.
 */
static ssize_t ring__move_window(struct ring *ring, struct ring_request *req,
				 struct ring_sink *sink, bool *cut)
{
	struct ring_window win;
	ssize_t taken;
	int err;

	for (;;) {
		ring_window__reset(&win);
		err = ring->ops->peek(ring, req, &win);
		if (err <= 0)
			return err;
		taken = ring__hand_out(req, sink, &win);
		if (taken != -EINVAL || win.splice_fd < 0)
			break;
		/* nothing moved: the same bytes are offered again, as iovecs */
	}
	if (taken < 0) {
		ring->stats.sink_errors++;
		return taken;	/* the producer position stays: nothing is lost */
	}
	err = ring->ops->commit(ring, req, &win, taken);
	/* Published either way: count what moved, then report a commit error. */
	ring->stats.bytes += taken;
	ring->stats.chunks += win.chunks;
	ring->stats.records += win.records;
	ring->stats.overruns += win.overrun;
	req->reached_edge = win.edge;
	*cut = (size_t)taken < win.bytes;
	return err < 0 ? err : taken;
}

ssize_t ring__drain(struct ring *ring, struct ring_request *req, struct ring_sink *sink)
{
	unsigned int windows = 0;
	size_t moved = 0;

	req->reached_edge = req->limited = false;
	req->sink_splices = sink->splice != NULL;
	for (;;) {
		bool cut = false;
		ssize_t n = ring__move_window(ring, req, sink, &cut);

		if (n < 0) {
			if (moved)
				ring->stats.drains++;
			return libauxtrace__err((int)n);
		}
		if (n == 0)
			break;
		moved += n;
		windows++;
		req->limited = (req->max_bytes && moved >= req->max_bytes) ||
			       (req->max_windows && windows >= req->max_windows);
		if (cut || req->limited || (req->reached_edge && !req->flush))
			break;
	}
	if (moved)
		ring->stats.drains++;
	else
		ring->stats.empty++;
	return moved;
}

int ring_stats__copy_out(struct ring_stats *out, size_t sz, const struct ring_stats *in)
{
	size_t n = sz < sizeof(*in) ? sz : sizeof(*in);

	if (!out || sz < sizeof(out->sz))
		return libauxtrace__err(-EINVAL);
	memcpy(out, in, n);
	out->sz = n;
	return 0;
}

void ring_stats__add(struct ring_stats *sum, const struct ring_stats *s)
{
	sum->bytes += s->bytes;
	sum->chunks += s->chunks;
	sum->records += s->records;
	sum->drains += s->drains;
	sum->empty += s->empty;
	sum->sink_errors += s->sink_errors;
	sum->lost += s->lost;
	sum->lost_reports += s->lost_reports;
	sum->lost_unknown += s->lost_unknown;
	sum->overruns += s->overruns;
	sum->aux_truncated += s->aux_truncated;
	sum->aux_partial += s->aux_partial;
	sum->aux_collision += s->aux_collision;
}
