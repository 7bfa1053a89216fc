// SPDX-License-Identifier: LGPL-2.1
/*
 * The unmapped ring adapters of a tracefs_cpu: read(2) of trace_pipe_raw, and splice(2)
 * through a pipe of our own. Both hand out whole standalone sub-buffers that the kernel
 * already gave us: a sub-buffer no sink took stays "held" and is offered first next time,
 * before anything newer (also by the mapped adapter, so switching paths keeps the order).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

static struct tracefs_cpu *ring__tcpu(struct ring *ring)
{
	return container_of(ring, struct tracefs_cpu, ring);
}

/* Read exactly n bytes from the splice pipe, where splice put whole sub-buffers. */
static int pipe__read(struct tracefs_cpu *tcpu, char *dst, size_t n)
{
	ssize_t got = libauxtrace__read_full(tcpu->splice_pipe[0], dst, n);

	if (got < 0)
		return (int)got;
	return (size_t)got < n ? -EIO : 0;
}

/* Bytes of the sub-buffer at the front of our pipe that a short write already sent. */
static size_t pipe__sent(const struct tracefs_cpu *tcpu)
{
	size_t size = tcpu->layout.subbuf_size;

	return (size - tcpu->buffered % size) % size;
}

int tracefs_cpu__peek_held(struct tracefs_cpu *tcpu, struct ring_window *win)
{
	size_t size = tcpu->layout.subbuf_size;

	if (!tcpu->held && tcpu->buffered) {
		int err;

		if (pipe__sent(tcpu)) {
			/* its start is in wfd already: only the same stream can take the rest */
			pr_err("tracefs cpu%d: the splice pipe holds the rest of a sub-buffer that a failed tracefs_cpu_write() began: call tracefs_cpu_write() again to finish it\n",
			       tcpu->cpu);
			return -EIO;
		}
		err = pipe__read(tcpu, tcpu->target, size);
		if (err)
			return err;
		tcpu->buffered -= size;
		tcpu->held = tcpu->target;
		tcpu->held_live = false;	/* splice refuses the page the writer is on */
	}
	if (!tcpu->held)
		return 0;
	ring__add_iov(win, tcpu->held, size);
	win->priv = &tcpu->held;
	return 1;
}

int tracefs_cpu__commit_held(struct tracefs_cpu *tcpu)
{
	uint32_t commit = rb_page__commit(tcpu->held, &tcpu->layout);

	if (commit & RB_MISSED_EVENTS)
		ring__account_loss(&tcpu->ring, rb_page__lost(tcpu->held, &tcpu->layout, commit));
	tcpu->at_edge = tcpu->held_live;
	tcpu->held = NULL;
	return 0;
}

static int read__peek(struct ring *ring, struct ring_window *win)
{
	struct tracefs_cpu *tcpu = ring__tcpu(ring);
	size_t size = tcpu->layout.subbuf_size;
	ssize_t n;
	int ret = tracefs_cpu__peek_held(tcpu, win);

	if (ret)
		return ret;
	if (tcpu->stop_at_edge && tcpu->at_edge)
		return 0;
	do {
		tcpu->sys.reads++;
		n = read(tcpu->fd, tcpu->target, size);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 0;
	/* the kernel fills whole sub-buffers; keep the contract if it ever does not */
	memset(tcpu->target + n, 0, size - n);
	tcpu->held = tcpu->target;
	tcpu->held_live = rb_page__maybe_live(tcpu->held, &tcpu->layout,
					      rb_page__commit(tcpu->held, &tcpu->layout));
	return tracefs_cpu__peek_held(tcpu, win);
}

static int held__commit(struct ring *ring, const struct ring_window *win)
{
	(void)win;
	return tracefs_cpu__commit_held(ring__tcpu(ring));
}

const struct ring_ops tracefs_read_ops = { .peek = read__peek, .commit = held__commit };

/*
 * As large as the system allows (fewer splices per wakeup), at least one sub-buffer, and a
 * whole number of them: splice moves whole sub-buffers. F_SETPIPE_SZ takes an int by value.
 */
static int pipe__open(struct tracefs_cpu *tcpu)
{
	int size = (int)tcpu->layout.subbuf_size;
	unsigned long long max = 0;
	int got;

	if (pipe2(tcpu->splice_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return libauxtrace__err(-errno);
	if (libauxtrace__read_u64("/proc/sys/fs/pipe-max-size", &max) == 0 &&
	    max > (unsigned long long)size && max <= 1ULL << 30)
		size = (int)max;
	if (fcntl(tcpu->splice_pipe[1], F_SETPIPE_SZ, size) < 0)
		fcntl(tcpu->splice_pipe[1], F_SETPIPE_SZ, (int)tcpu->layout.subbuf_size);
	got = fcntl(tcpu->splice_pipe[1], F_GETPIPE_SZ);
	if (got < (int)tcpu->layout.subbuf_size) {
		pr_err("splice pipe holds %d bytes, less than one %u-byte sub-buffer: raise /proc/sys/fs/pipe-max-size or use read/mapped reads\n",
		       got, tcpu->layout.subbuf_size);
		close(tcpu->splice_pipe[0]);
		close(tcpu->splice_pipe[1]);
		tcpu->splice_pipe[0] = tcpu->splice_pipe[1] = -1;
		return libauxtrace__err(-ENOSPC);
	}
	tcpu->pipe_size = got - got % (int)tcpu->layout.subbuf_size;
	return 0;
}

/* Move whole sub-buffers from the kernel into our pipe. Bytes moved, 0 when none, -errno. */
static ssize_t pipe__fill(struct tracefs_cpu *tcpu)
{
	ssize_t n;

	if (tcpu->splice_pipe[0] < 0) {
		int err = pipe__open(tcpu);

		if (err)
			return err;
	}
	if (tcpu->buffered >= (size_t)tcpu->pipe_size)
		return 0;
	do {
		tcpu->sys.splices++;
		n = splice(tcpu->fd, NULL, tcpu->splice_pipe[1], NULL,
			   tcpu->pipe_size - tcpu->buffered, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	tcpu->buffered += n;
	return n;
}

static int splice__peek(struct ring *ring, struct ring_window *win)
{
	struct tracefs_cpu *tcpu = ring__tcpu(ring);
	ssize_t n;
	int ret = tracefs_cpu__peek_held(tcpu, win);

	if (ret)
		return ret;
	n = pipe__fill(tcpu);
	if (n <= 0)
		return (int)n;
	return tracefs_cpu__peek_held(tcpu, win);
}

const struct ring_ops tracefs_splice_ops = { .peek = splice__peek, .commit = held__commit };

/*
 * splice(2) up to n bytes from in to out: the bytes moved, short only when out failed after
 * taking some; -errno when it took none (-EINVAL: out cannot take a splice).
 */
static ssize_t splice__all(struct tracefs_cpu *tcpu, int in, int out, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = splice(in, NULL, out, NULL, n - done, SPLICE_F_MOVE);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (done)
				break;
			return r < 0 ? -errno : -EIO;
		}
		tcpu->sys.splices++;
		done += r;
	}
	return done;
}

/*
 * Empty our pipe into wfd: by splice, or through the buffer when wfd refuses splices (then
 * the core counts what moved; a splice we count here). A short splice leaves the rest in
 * the pipe, accounted, for the next write to finish.
 */
static ssize_t pipe__drain_to(struct tracefs_cpu *tcpu, int wfd)
{
	size_t sent = pipe__sent(tcpu);
	ssize_t n = splice__all(tcpu, tcpu->splice_pipe[0], wfd, tcpu->buffered);
	struct ring_sink_fd out;

	if (n != -EINVAL) {
		if (n > 0) {
			tcpu->buffered -= n;
			tcpu->ring.stats.bytes += n;
			tcpu->ring.stats.chunks += (sent + n) / tcpu->layout.subbuf_size;
		}
		return n;
	}
	ring_sink_fd__init(&out, wfd);
	tcpu->ring.ops = &tracefs_read_ops;	/* held first, then the pipe's sub-buffers */
	n = 0;
	while (tcpu->buffered) {
		ssize_t one = ring__drain_one(&tcpu->ring, &out.sink);

		if (one <= 0)
			return one < 0 ? one : n;
		n += one;
	}
	return n;
}

/* Unmapped tracefs_cpu_write: whole sub-buffers kernel -> pipe -> wfd, never through user memory. */
ssize_t tracefs_cpu__splice_to(struct tracefs_cpu *tcpu, int wfd)
{
	ssize_t total = 0, n;

	if (tcpu->held) {
		struct ring_sink_fd out;

		ring_sink_fd__init(&out, wfd);
		tcpu->ring.ops = &tracefs_read_ops;
		n = ring__drain_one(&tcpu->ring, &out.sink);
		if (n < 0)
			return n;
		total += n;
	}
	for (;;) {
		n = pipe__fill(tcpu);
		if (n < 0)
			return total ? total : n;
		if (!tcpu->buffered)
			break;
		n = pipe__drain_to(tcpu, wfd);
		if (n < 0)
			return total ? total : n;
		total += n;
		if (tcpu->buffered)
			break;		/* wfd took less: it failed, say so next time */
	}
	return total;
}

/* Unmapped tracefs_cpu_pipe: straight from the kernel into the caller's pipe. */
ssize_t tracefs_cpu__splice_pipe(struct tracefs_cpu *tcpu, int wfd)
{
	size_t size = tcpu->layout.subbuf_size;
	int room = fcntl(wfd, F_GETPIPE_SZ), queued;
	ssize_t n;

	if (room < 0)
		return libauxtrace__err(-errno);	/* EBADF, or wfd is no pipe */
	if (tcpu->held || tcpu->buffered)
		return tracefs_cpu__splice_to(tcpu, wfd);	/* older data goes first */
	if ((size_t)room < size)
		return libauxtrace__err(-ENOSPC);
	do {
		tcpu->sys.splices++;
		/* no SPLICE_F_NONBLOCK: whether a full pipe waits is for wfd's O_NONBLOCK to say */
		n = splice(tcpu->fd, NULL, wfd, NULL, room - room % size, SPLICE_F_MOVE);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN) {
		/* the same EAGAIN for a full pipe as for an empty buffer: a full pipe is no "no data" */
		if (ioctl(wfd, FIONREAD, &queued) == 0 && room - queued < (int)size)
			return -EAGAIN;
		return 0;
	}
	if (n < 0)
		return libauxtrace__err(-errno);
	tcpu->ring.stats.bytes += n;
	tcpu->ring.stats.chunks += n / size;
	return n;
}
