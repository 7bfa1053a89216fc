// SPDX-License-Identifier: LGPL-2.1
/* The buffer-consumer core: the one loop that moves bytes from a ring to a sink. */
#include <errno.h>

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

ssize_t ring__drain_one(struct ring *ring, struct ring_sink *sink)
{
	struct ring_window win;
	ssize_t taken;
	int err;

	ring_window__reset(&win);
	err = ring->ops->peek(ring, &win);
	if (err <= 0)
		return err;
	taken = sink->push(sink, win.iov, win.iovcnt);
	if (taken >= 0 && (size_t)taken != win.bytes) {
		pr_err("a ring sink took %zd of %zu bytes: a push must take all of them or "
		       "return -errno; the bytes stay in the ring (fix the sink)\n",
		       taken, win.bytes);
		taken = -EIO;
	}
	if (taken < 0) {
		ring->stats.sink_errors++;
		return taken;	/* the producer position stays: nothing is lost */
	}
	err = ring->ops->commit(ring, &win);
	if (err < 0)
		return err;
	ring->stats.bytes += win.bytes;
	ring->stats.chunks++;
	ring->stats.records += win.records;
	return taken;
}

ssize_t ring__drain(struct ring *ring, struct ring_sink *sink, size_t max_bytes)
{
	size_t moved = 0;

	for (;;) {
		ssize_t n = ring__drain_one(ring, sink);

		if (n < 0) {
			if (moved)
				ring->stats.drains++;
			return libauxtrace__err((int)n);
		}
		if (n == 0)
			break;
		moved += n;
		if (max_bytes && moved >= max_bytes)
			break;
	}
	if (moved)
		ring->stats.drains++;
	else
		ring->stats.empty++;
	return moved;
}
