// SPDX-License-Identifier: LGPL-2.1
/* The sinks every ring kind can drain into: a file descriptor, a memory buffer, a callback. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/ring.h>

/*
 * After a short write the rest of a half-written iovec goes out with write(2) on its own,
 * so the caller's array is used as it is: no copy, no limit on iovcnt.
 */
static ssize_t ring_sink_fd__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	struct ring_sink_fd *s = container_of(sink, struct ring_sink_fd, sink);
	size_t total = 0, done = 0, off = 0;	/* off: bytes of iov[i] written already */
	int i;

	for (i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	i = 0;
	while (i < iovcnt) {
		ssize_t n = off ? write(s->fd, (char *)iov[i].iov_base + off, iov[i].iov_len - off) :
				  writev(s->fd, iov + i, iovcnt - i < IOV_MAX ? iovcnt - i : IOV_MAX);

		if (n < 0 && errno == EINTR)
			continue;
		/*
		 * A full non-blocking fd: before the first byte, nothing was taken and the
		 * ring keeps the window (-EAGAIN). After it, the window must go out whole or
		 * the next drain would send its start twice: wait for room.
		 */
		if (n < 0 && errno == EAGAIN && done) {
			struct pollfd pfd = { .fd = s->fd, .events = POLLOUT };

			if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
				return -errno;
			continue;
		}
		if (n < 0)
			return -errno;
		done += n;
		if (n == 0 && iov[i].iov_len)
			return -EIO;
		off += n;
		while (i < iovcnt && off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			i++;
		}
	}
	return total;
}

/*
 * splice(2) from the ring's pipe to the fd, whole pages moved by the kernel. A full
 * non-blocking fd before the first byte: -EAGAIN (the ring keeps the window); after it, the
 * bytes moved, and the rest stays in the pipe for the next call.
 */
static ssize_t ring_sink_fd__splice(struct ring_sink *sink, int pipe_fd, size_t len)
{
	struct ring_sink_fd *s = container_of(sink, struct ring_sink_fd, sink);
	size_t done = 0;

	while (done < len) {
		ssize_t n = splice(pipe_fd, NULL, s->fd, NULL, len - done, SPLICE_F_MOVE);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (done)
				break;
			return n < 0 ? -errno : -EIO;	/* 0: the ring's pipe held less */
		}
		done += n;
	}
	return done;
}

void ring_sink_fd__init(struct ring_sink_fd *s, int fd)
{
	s->sink.push = ring_sink_fd__push;
	s->sink.splice = ring_sink_fd__splice;
	s->fd = fd;
}

static ssize_t ring_sink_memory__push(struct ring_sink *sink, const struct iovec *iov,
				      int iovcnt)
{
	struct ring_sink_memory *s = container_of(sink, struct ring_sink_memory, sink);
	size_t total = 0;
	int i;

	for (i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	if (total > s->size - s->used)
		return -ENOSPC;
	for (i = 0; i < iovcnt; i++) {
		memcpy((char *)s->buf + s->used, iov[i].iov_base, iov[i].iov_len);
		s->used += iov[i].iov_len;
	}
	return total;
}

void ring_sink_memory__init(struct ring_sink_memory *s, void *buf, size_t size)
{
	s->sink.push = ring_sink_memory__push;
	s->sink.splice = NULL;
	s->buf = buf;
	s->size = size;
	s->used = 0;
}

static ssize_t ring_sink_callback__push(struct ring_sink *sink, const struct iovec *iov,
					int iovcnt)
{
	struct ring_sink_callback *s = container_of(sink, struct ring_sink_callback, sink);

	return s->fn(s->ctx, iov, iovcnt);
}

void ring_sink_callback__init(struct ring_sink_callback *s,
			      ssize_t (*fn)(void *ctx, const struct iovec *iov, int iovcnt),
			      void *ctx)
{
	s->sink.push = ring_sink_callback__push;
	s->sink.splice = NULL;
	s->fn = fn;
	s->ctx = ctx;
}
