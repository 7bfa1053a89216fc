// SPDX-License-Identifier: LGPL-2.1
/*
 * The unmapped paths of a tracefs_cpu: read(2) of trace_pipe_raw, and splice(2) through a
 * pipe of our own. Both hand out whole standalone sub-buffers that the kernel already gave
 * us: a sub-buffer no sink took stays "held" and is offered first next time, before anything
 * newer (also before the mapping's pages, so switching paths keeps the order).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

/* Read exactly n bytes from the splice pipe, where splice put whole sub-buffers. */
static int pipe__read(struct tracefs_cpu *tcpu, char *dst, size_t n)
{
	ssize_t got = libauxtrace__read_full(tcpu->splice_pipe[0], dst, n);

	if (got < 0)
		return (int)got;
	return (size_t)got < n ? -EIO : 0;
}

/* Bytes of the sub-buffer at the front of our pipe that a short splice already sent. */
static size_t pipe__sent(const struct tracefs_cpu *tcpu)
{
	size_t size = tcpu->layout.subbuf_size;

	return (size - tcpu->buffered % size) % size;
}

/* The whole pipe as one window, for a sink that splices. */
static int pipe__window(struct tracefs_cpu *tcpu, struct ring_window *win)
{
	win->splice_fd = tcpu->splice_pipe[0];
	win->bytes = tcpu->buffered;
	win->priv = &tcpu->buffered;
	return 1;
}

int tracefs_cpu__peek_held(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			   struct ring_window *win)
{
	size_t size = tcpu->layout.subbuf_size;

	if (!tcpu->held && tcpu->buffered) {
		int err;

		if (rd->req.sink_splices)
			return pipe__window(tcpu, win);
		if (pipe__sent(tcpu)) {
			/* its start is in an output already: only the same stream can take the rest */
			pr_err("tracefs cpu%d: the splice pipe holds the rest of a sub-buffer that a failed tracefs_cpu_write() began: call tracefs_cpu_write() again to finish it\n",
			       tcpu->cpu);
			return -EIO;
		}
		err = pipe__read(tcpu, rd->target, size);
		if (err)
			return err;
		tcpu->buffered -= size;
		tcpu->held = rd->target;
		tcpu->held_live = false;	/* splice refuses the page the writer is on */
	}
	if (!tcpu->held)
		return 0;
	ring__add_iov(win, tcpu->held, size);
	win->edge = tcpu->held_live;
	win->priv = &tcpu->held;
	return 1;
}

bool tracefs_cpu__is_read_window(const struct tracefs_cpu *tcpu, const struct ring_window *win)
{
	return win->priv == &tcpu->held || win->priv == &tcpu->buffered;
}

void tracefs_cpu__commit_read(struct tracefs_cpu *tcpu, struct ring_window *win, size_t taken)
{
	uint32_t commit;

	if (win->priv == &tcpu->buffered) {
		/* sub-buffers completed by this splice, the one a short splice began included */
		win->chunks = (pipe__sent(tcpu) + taken) / tcpu->layout.subbuf_size;
		tcpu->buffered -= taken;
		tracefs_cpu__account_kernel_lost(tcpu);	/* their marks went by unseen */
		return;
	}
	commit = rb_page__commit(tcpu->held, &tcpu->layout);
	if (commit & RB_MISSED_EVENTS) {
		ring__account_loss(&tcpu->ring, rb_page__lost(tcpu->held, &tcpu->layout, commit));
		tracefs_cpu__sync_kernel_lost(tcpu);
	}
	tcpu->held = NULL;
}

int tracefs_cpu__peek_read(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			   struct ring_window *win)
{
	size_t size = tcpu->layout.subbuf_size;
	ssize_t n;

	do {
		tcpu->sys.reads++;
		n = read(tcpu->fd, rd->target, size);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 0;
	/* the kernel fills whole sub-buffers; keep the contract if it ever does not */
	memset(rd->target + n, 0, size - n);
	tcpu->held = rd->target;
	tcpu->held_live = rb_page__maybe_live(tcpu->held, &tcpu->layout,
					      rb_page__commit(tcpu->held, &tcpu->layout));
	tcpu->sys.edge += tcpu->held_live;
	return tracefs_cpu__peek_held(tcpu, rd, win);
}

/*
 * As large as the system allows (fewer splices per wakeup), at least one sub-buffer, and a
 * whole number of them: splice moves whole sub-buffers. F_SETPIPE_SZ takes an int by value.
 * The pipe blocks: filling it never waits (SPLICE_F_NONBLOCK, and we never ask for more than
 * the room left), and a splice out of it must wait for room in a blocking output, which the
 * kernel would refuse if our end were O_NONBLOCK.
 */
static int pipe__open(struct tracefs_cpu *tcpu)
{
	int size = (int)tcpu->layout.subbuf_size;
	unsigned long long max = 0;
	int got;

	if (pipe2(tcpu->splice_pipe, O_CLOEXEC) < 0)
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

int tracefs_cpu__peek_splice(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			     struct ring_window *win)
{
	ssize_t n = pipe__fill(tcpu);

	if (n <= 0)
		return (int)n;
	return tracefs_cpu__peek_held(tcpu, rd, win);
}
