// SPDX-License-Identifier: LGPL-2.1
/*
 * tracefs_cpu: one CPU buffer of an instance, read through the consumer core by one of three
 * ring adapters (mapped, read(2), splice). Every public read is "take the next window into a
 * sink", waiting with poll() first only when the caller may block and the last call found the
 * ring drained (empty, or at the page the kernel is still writing). So a blocking reader
 * drains everything on each wakeup instead of waking once per sub-buffer.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

/* ---- the object ---- */

int tracefs_cpu__set_subbuf_size(struct tracefs_cpu *tcpu, unsigned int size)
{
	void *zeros, *buffer;

	if (tcpu->held || tcpu->buffered)
		return -EBUSY;		/* a sub-buffer of the old size is still to go out */
	if (posix_memalign(&buffer, sysconf(_SC_PAGESIZE), size))
		return -ENOMEM;
	/* Zero pages that cost no memory: the tail of every standalone sub-buffer. */
	zeros = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zeros == MAP_FAILED) {
		free(buffer);
		return -errno;
	}
	if (tcpu->zeros != MAP_FAILED)
		munmap((void *)tcpu->zeros, tcpu->layout.subbuf_size);
	free(tcpu->buffer);
	tcpu->buffer = tcpu->target = buffer;
	tcpu->zeros = zeros;
	tcpu->layout.subbuf_size = size;
	return 0;
}

/* "read events: N" of per_cpu/cpu<cpu>/stats: events read from the buffer since its reset. */
static int tcpu__kernel_read_events(struct tracefs_cpu *tcpu, uint64_t *n)
{
	static const char key[] = "read events:";
	char buf[512], *p;
	ssize_t len;

	if (tcpu->stats_fd < 0)
		return -ENOENT;
	len = pread(tcpu->stats_fd, buf, sizeof(buf) - 1, 0);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	p = strstr(buf, key);
	if (!p)
		return -EPROTO;
	*n = strtoull(p + sizeof(key) - 1, NULL, 10);
	return 0;
}

void tracefs_cpu__buffer_reset(struct tracefs_cpu *tcpu, uint64_t last)
{
	if (last > tcpu->read_base)
		tcpu->read_before += last - tcpu->read_base;
	tcpu->read_base = tcpu->read_seen = 0;
}

struct tracefs_cpu *tracefs_cpu_open(struct tracefs_instance *instance, int cpu, bool nonblock)
{
	struct tracefs_cpu *tcpu;
	char file[64], *path;
	int err;

	if (cpu < 0)
		return libauxtrace__ptr_err(-EINVAL);
	tcpu = calloc(1, sizeof(*tcpu));
	if (!tcpu)
		return libauxtrace__ptr_err(-ENOMEM);
	tcpu->fd = tcpu->stop_fd = tcpu->stats_fd = -1;
	tcpu->splice_pipe[0] = tcpu->splice_pipe[1] = -1;
	tcpu->zeros = MAP_FAILED;
	tcpu->cpu = cpu;
	tcpu->perm_nonblock = nonblock;
	tcpu->need_wait = true;		/* like libtracefs: a blocking reader first waits */
	ring__init(&tcpu->ring, &tracefs_read_ops);

	err = rb_layout__read(&tcpu->layout, instance);
	if (err)
		goto fail;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tracefs__path(instance, file);
	if (!path) {
		err = -errno;
		goto fail;
	}
	tcpu->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	err = -errno;
	if (tcpu->fd < 0 && err == -ENOENT)
		pr_err("%s does not exist: CPU %d is not possible on this machine\n", path, cpu);
	free(path);
	if (tcpu->fd < 0)
		goto fail;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	tcpu->stats_fd = tracefs_instance_file_open(instance, file, O_RDONLY);
	if (tcpu__kernel_read_events(tcpu, &tcpu->read_base) < 0)
		tcpu->read_base = 0;	/* no stats file: only a mapping moves the count */
	tcpu->read_seen = tcpu->read_base;

	err = -ENOMEM;
	tcpu->kbuf = kbuffer_alloc(tcpu->layout.long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				   KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!tcpu->kbuf)
		goto fail;
	err = tracefs_cpu__set_subbuf_size(tcpu, tcpu->layout.subbuf_size);
	if (err)
		goto fail;
	tcpu->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (tcpu->stop_fd < 0) {
		err = -errno;
		goto fail;
	}
	return tcpu;
fail:
	tracefs_cpu_close(tcpu);
	return libauxtrace__ptr_err(err);
}

struct tracefs_cpu *tracefs_cpu_open_mapped(struct tracefs_instance *instance, int cpu,
					    bool nonblock)
{
	struct tracefs_cpu *tcpu = tracefs_cpu_open(instance, cpu, nonblock);

	if (tcpu)
		tracefs_cpu_map(tcpu);	/* best effort: is_mapped() tells */
	return tcpu;
}

void tracefs_cpu_close(struct tracefs_cpu *tcpu)
{
	if (!tcpu)
		return;
	trace_map__delete(tcpu);
	if (tcpu->fd >= 0)
		close(tcpu->fd);
	if (tcpu->stop_fd >= 0)
		close(tcpu->stop_fd);
	if (tcpu->stats_fd >= 0)
		close(tcpu->stats_fd);
	if (tcpu->splice_pipe[0] >= 0) {
		close(tcpu->splice_pipe[0]);
		close(tcpu->splice_pipe[1]);
	}
	if (tcpu->zeros != MAP_FAILED)
		munmap((void *)tcpu->zeros, tcpu->layout.subbuf_size);
	if (tcpu->kbuf)
		kbuffer_free(tcpu->kbuf);
	free(tcpu->buffer);
	free(tcpu);
}

bool tracefs_cpu_is_mapped(struct tracefs_cpu *tcpu)
{
	return tcpu && tcpu->map;
}

int tracefs_cpu_map(struct tracefs_cpu *tcpu)
{
	if (!tcpu) {
		errno = EINVAL;
		return -1;
	}
	if (tcpu->map)
		return 0;
	return trace_map__new(tcpu) ? -1 : 0;
}

void tracefs_cpu_unmap(struct tracefs_cpu *tcpu)
{
	if (tcpu)
		trace_map__delete(tcpu);
}

/* Probe the top level's first CPU that exists; the mapping is gone again on return. */
bool tracefs_mapped_is_supported(void)
{
	int nr = (int)sysconf(_SC_NPROCESSORS_CONF);

	for (int cpu = 0; cpu < nr; cpu++) {
		struct tracefs_cpu *tcpu = tracefs_cpu_open(NULL, cpu, true);
		bool mapped;

		if (!tcpu)
			continue;
		mapped = tracefs_cpu_map(tcpu) == 0;
		tracefs_cpu_close(tcpu);
		return mapped;
	}
	return false;
}

int tracefs_cpu_read_size(struct tracefs_cpu *tcpu)
{
	return tcpu ? (int)tcpu->layout.subbuf_size : libauxtrace__err(-EINVAL);
}

int tracefs_cpu_fd(struct tracefs_cpu *tcpu)
{
	return tcpu ? tcpu->fd : libauxtrace__err(-EINVAL);
}

/*
 * A count that went down since the last look means a reset we did not see: the events read
 * before it stay counted (as many as we last saw). One that went back and passed that count
 * between two looks is not seen, unless the mapping noticed the reset itself.
 */
const struct ring_stats *tracefs_cpu_stats(struct tracefs_cpu *tcpu)
{
	uint64_t now;

	if (!tcpu)
		return libauxtrace__ptr_err(-EINVAL);
	if (tcpu->map)
		now = trace_map__events_read(tcpu);
	else if (tcpu__kernel_read_events(tcpu, &now) < 0)
		now = tcpu->read_seen;
	if (now < tcpu->read_seen)
		tracefs_cpu__buffer_reset(tcpu, tcpu->read_seen);
	tcpu->read_seen = now;
	tcpu->ring.stats.records = tcpu->read_before +
				   (now > tcpu->read_base ? now - tcpu->read_base : 0);
	return &tcpu->ring.stats;
}

const struct tracefs_cpu_syscalls *tracefs_cpu_syscall_stats(struct tracefs_cpu *tcpu)
{
	return tcpu ? &tcpu->sys : libauxtrace__ptr_err(-EINVAL);
}

int tracefs_cpu_stop(struct tracefs_cpu *tcpu)
{
	uint64_t one = 1;

	if (!tcpu)
		return libauxtrace__err(-EINVAL);

	__atomic_store_n(&tcpu->stopped, 1, __ATOMIC_RELEASE);
	/* the eventfd stays readable: every later poll returns at once */
	if (write(tcpu->stop_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		return libauxtrace__err(-errno);
	return 0;
}

/* ---- waiting ---- */

static bool tcpu__may_block(struct tracefs_cpu *tcpu, bool nonblock)
{
	return !nonblock && !tcpu->perm_nonblock &&
	       !__atomic_load_n(&tcpu->stopped, __ATOMIC_ACQUIRE);
}

/* Sleep until the kernel's buffer_percent watermark or tracefs_cpu_stop(). 0 or -errno. */
static int tcpu__wait(struct tracefs_cpu *tcpu)
{
	struct pollfd pfd[2] = {
		{ .fd = tcpu->fd, .events = POLLIN },
		{ .fd = tcpu->stop_fd, .events = POLLIN },
	};

	tcpu->sys.waits++;
	if (poll(pfd, 2, -1) < 0)
		return -errno;		/* EINTR: a signal is the caller's business */
	if (pfd[0].revents & POLLIN)
		tcpu->sys.wakeups++;
	return 0;
}

/* ---- sinks that put a window where a libtracefs call wants it ---- */

/* Gather a window into dst; a piece already in place (read(2) into dst) is not copied. */
static size_t gather(void *dst, const struct iovec *iov, int iovcnt)
{
	size_t pos = 0;

	for (int i = 0; i < iovcnt; i++) {
		if (iov[i].iov_base != (char *)dst + pos)
			memcpy((char *)dst + pos, iov[i].iov_base, iov[i].iov_len);
		pos += iov[i].iov_len;
	}
	return pos;
}

struct buffer_sink {
	struct ring_sink sink;
	void *dst;		/* read_size bytes: every window is exactly that long */
};

static ssize_t buffer_sink__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	return gather(container_of(sink, struct buffer_sink, sink)->dst, iov, iovcnt);
}

struct kbuf_sink {
	struct ring_sink sink;
	struct tracefs_cpu *tcpu;
};

/* Load tcpu->kbuf on the window: in the mapping itself when the window is a whole page. */
static ssize_t kbuf_sink__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	struct tracefs_cpu *tcpu = container_of(sink, struct kbuf_sink, sink)->tcpu;
	const char *page = tracefs_cpu__mapped_page(tcpu, iov, iovcnt);
	size_t size = tcpu->layout.subbuf_size;

	if (page) {
		kbuffer_load_subbuffer(tcpu->kbuf, (void *)page);
		/* kbuffer reads the live commit: if the writer appended since, copy instead */
		if ((size_t)kbuffer_subbuffer_size(tcpu->kbuf) == iov[1].iov_len)
			return size;
	}
	if (iovcnt == 1) {
		kbuffer_load_subbuffer(tcpu->kbuf, iov[0].iov_base);
		return size;
	}
	gather(tcpu->buffer, iov, iovcnt);
	kbuffer_load_subbuffer(tcpu->kbuf, tcpu->buffer);
	return size;
}

/* ---- the one read loop ---- */

static const struct ring_ops *tcpu__ops(struct tracefs_cpu *tcpu, bool buffered)
{
	if (tcpu->map)
		return &tracefs_map_ops;
	return buffered ? &tracefs_splice_ops : &tracefs_read_ops;
}

/*
 * Run step until it moves something: at once when the caller may not block or the last call
 * did not find the ring drained, else after poll() said there is data. step returns the bytes
 * moved, 0 for none, or -errno, and sets need_wait for the call after it. Returns its bytes;
 * 0 with errno EAGAIN when there were none and we may not wait; -errno on failure (an output
 * that would block is -EAGAIN, not "no data").
 */
static ssize_t tcpu__run(struct tracefs_cpu *tcpu, bool nonblock, bool flush,
			 ssize_t (*step)(struct tracefs_cpu *tcpu, void *arg), void *arg)
{
	for (;;) {
		/* again each time: tracefs_cpu_stop() may have woken the poll */
		bool block = !flush && tcpu__may_block(tcpu, nonblock);
		ssize_t n;

		if (!block || !tcpu->need_wait) {
			n = step(tcpu, arg);
			if (n != 0)
				return n < 0 ? libauxtrace__err((int)n) : n;
			tcpu->need_wait = true;
		}
		if (!block) {
			errno = EAGAIN;
			return 0;
		}
		n = tcpu__wait(tcpu);
		if (n < 0)
			return libauxtrace__err((int)n);
		tcpu->need_wait = false;
	}
}

struct move {
	const struct ring_ops *ops;
	struct ring_sink *sink;
	bool batch;		/* everything up to the page the kernel is still writing */
	bool flush;		/* ... and that page too */
};

/* One window, or a batch, from the ring into the sink. */
static ssize_t move__step(struct tracefs_cpu *tcpu, void *arg)
{
	const struct move *mv = arg;
	ssize_t n;

	tcpu->ring.ops = mv->ops;
	tcpu->at_edge = false;
	tcpu->stop_at_edge = !mv->flush;
	n = mv->batch ? ring__drain(&tcpu->ring, mv->sink, 0) : ring__drain_one(&tcpu->ring, mv->sink);
	tcpu->stop_at_edge = false;
	tcpu->need_wait = mv->batch || tcpu->at_edge;
	return n;
}

/* Move data from the ring into sink (see struct move), waiting per tcpu__run(). */
static ssize_t tcpu__move(struct tracefs_cpu *tcpu, const struct ring_ops *ops,
			  struct ring_sink *sink, void *target, bool nonblock, bool batch,
			  bool flush)
{
	struct move mv = { .ops = ops, .sink = sink, .batch = batch, .flush = flush };
	ssize_t n;

	/*
	 * read(2) may land in the caller's buffer: only with a sink that cannot refuse it (the
	 * buffer sink), so nothing is ever held in the caller's memory after we return.
	 */
	tcpu->target = target ? target : tcpu->buffer;
	n = tcpu__run(tcpu, nonblock, flush, move__step, &mv);
	tcpu->target = tcpu->buffer;
	return n;
}

static int tcpu__read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock, bool buffered,
		      bool flush)
{
	struct buffer_sink s = { .sink.push = buffer_sink__push, .dst = buffer };

	if (!tcpu || !buffer)
		return libauxtrace__err(-EINVAL);
	return (int)tcpu__move(tcpu, tcpu__ops(tcpu, buffered), &s.sink, buffer, nonblock,
			       false, flush);
}

static struct kbuffer *tcpu__read_buf(struct tracefs_cpu *tcpu, bool nonblock, bool buffered,
				      bool flush)
{
	struct kbuf_sink s = { .sink.push = kbuf_sink__push, .tcpu = tcpu };

	if (!tcpu)
		return libauxtrace__ptr_err(-EINVAL);
	if (tcpu__move(tcpu, tcpu__ops(tcpu, buffered), &s.sink, NULL, nonblock, false, flush) <= 0)
		return NULL;
	return tcpu->kbuf;
}

int tracefs_cpu_read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock)
{
	return tcpu__read(tcpu, buffer, nonblock, false, false);
}

struct kbuffer *tracefs_cpu_read_buf(struct tracefs_cpu *tcpu, bool nonblock)
{
	return tcpu__read_buf(tcpu, nonblock, false, false);
}

int tracefs_cpu_buffered_read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock)
{
	return tcpu__read(tcpu, buffer, nonblock, true, false);
}

struct kbuffer *tracefs_cpu_buffered_read_buf(struct tracefs_cpu *tcpu, bool nonblock)
{
	return tcpu__read_buf(tcpu, nonblock, true, false);
}

/* Flushing reads with read(2): splice never hands out the page the writer is on. */
int tracefs_cpu_flush(struct tracefs_cpu *tcpu, void *buffer)
{
	return tcpu__read(tcpu, buffer, true, false, true);
}

struct kbuffer *tracefs_cpu_flush_buf(struct tracefs_cpu *tcpu)
{
	return tcpu__read_buf(tcpu, true, false, true);
}

static ssize_t tcpu__drain(struct tracefs_cpu *tcpu, struct ring_sink *sink, bool buffered,
			   bool flush)
{
	if (!tcpu || !sink)
		return libauxtrace__err(-EINVAL);
	return tcpu__move(tcpu, tcpu__ops(tcpu, buffered), sink, NULL, true, true, flush);
}

ssize_t tracefs_cpu_drain(struct tracefs_cpu *tcpu, struct ring_sink *sink)
{
	return tcpu__drain(tcpu, sink, false, false);
}

ssize_t tracefs_cpu_buffered_drain(struct tracefs_cpu *tcpu, struct ring_sink *sink)
{
	return tcpu__drain(tcpu, sink, true, false);
}

ssize_t tracefs_cpu_flush_drain(struct tracefs_cpu *tcpu, struct ring_sink *sink)
{
	return tcpu__drain(tcpu, sink, false, true);
}

int tracefs_cpu_flush_write(struct tracefs_cpu *tcpu, int wfd)
{
	struct ring_sink_fd out;

	ring_sink_fd__init(&out, wfd);
	return (int)tcpu__drain(tcpu, &out.sink, false, true);
}

/* ---- write/pipe: a batch into a file or pipe ---- */

struct splice_to {
	int wfd;
	bool to_pipe;
};

/* Unmapped write/pipe: splice does the moving, and drains to empty every time. */
static ssize_t splice__step(struct tracefs_cpu *tcpu, void *arg)
{
	const struct splice_to *to = arg;
	ssize_t n = to->to_pipe ? tracefs_cpu__splice_pipe(tcpu, to->wfd)
				: tracefs_cpu__splice_to(tcpu, to->wfd);

	if (n > 0)
		tcpu->ring.stats.drains++;
	tcpu->need_wait = true;
	return n;
}

static int tcpu__write(struct tracefs_cpu *tcpu, int wfd, bool nonblock, bool to_pipe)
{
	struct ring_sink_fd out;

	if (!tcpu || wfd < 0)
		return libauxtrace__err(-EINVAL);
	if (!tcpu->map)
		return (int)tcpu__run(tcpu, nonblock, false, splice__step,
				      &(struct splice_to){ .wfd = wfd, .to_pipe = to_pipe });
	/* mapped: writev straight from the mapping, no bounce buffer */
	ring_sink_fd__init(&out, wfd);
	return (int)tcpu__move(tcpu, &tracefs_map_ops, &out.sink, NULL, nonblock, true, false);
}

int tracefs_cpu_write(struct tracefs_cpu *tcpu, int wfd, bool nonblock)
{
	return tcpu__write(tcpu, wfd, nonblock, false);
}

int tracefs_cpu_pipe(struct tracefs_cpu *tcpu, int wfd, bool nonblock)
{
	return tcpu__write(tcpu, wfd, nonblock, true);
}
