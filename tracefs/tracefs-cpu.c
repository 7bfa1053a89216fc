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

static const struct ring_ops tcpu_ring_ops;

/* ---- the object ---- */

/* (Re)size the sub-buffer-sized scratch of tcpu. 0, or -EBUSY while one is still held. */
static int tcpu__set_subbuf_size(struct tracefs_cpu *tcpu, unsigned int size)
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
	tcpu->buffer = buffer;
	tcpu->zeros = zeros;
	tcpu->layout.subbuf_size = size;
	return 0;
}

/* "read events: N" of per_cpu/cpu<cpu>/stats: events read from the buffer since its reset. */
static int tcpu__kernel_read_events(struct tracefs_cpu *tcpu, uint64_t *n)
{
	uint64_t v[1];
	int err = tracefs_cpu__kernel_stats(tcpu, (const char *[]){ "read events:" }, v, 1);

	if (!err)
		*n = v[0];
	return err;
}

/* The buffer was reset when the kernel's count of events read stood at last: keep those. */
static void tcpu__buffer_reset(struct tracefs_cpu *tcpu, uint64_t last)
{
	if (last > tcpu->read_base)
		tcpu->read_before += last - tcpu->read_base;
	tcpu->read_base = tcpu->read_seen = 0;
}

/*
 * A tracefs_cpu reading fd in sub-buffers of layout l. fd becomes O_NONBLOCK (waiting is
 * poll's job) and stays the caller's on failure.
 */
static struct tracefs_cpu *tcpu__new(int fd, int cpu, const struct rb_layout *l, bool nonblock)
{
	struct tracefs_cpu *tcpu = calloc(1, sizeof(*tcpu));
	int flags, err;

	if (!tcpu)
		return libauxtrace__ptr_err(-ENOMEM);
	tcpu->fd = fd;
	tcpu->stop_fd = tcpu->stats_fd = -1;
	tcpu->splice_pipe[0] = tcpu->splice_pipe[1] = -1;
	tcpu->zeros = MAP_FAILED;
	tcpu->cpu = cpu;
	tcpu->perm_nonblock = nonblock;
	tcpu->need_wait = true;		/* like libtracefs: a blocking reader first waits */
	tcpu->layout = *l;
	ring__init(&tcpu->ring, &tcpu_ring_ops);

	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)) {
		err = -errno;
		goto fail;
	}
	err = -ENOMEM;
	tcpu->kbuf = kbuffer_alloc(l->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				   KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!tcpu->kbuf)
		goto fail;
	err = tcpu__set_subbuf_size(tcpu, l->subbuf_size);
	if (err)
		goto fail;
	tcpu->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (tcpu->stop_fd < 0) {
		err = -errno;
		goto fail;
	}
	return tcpu;
fail:
	tracefs_cpu_free_fd(tcpu);
	return libauxtrace__ptr_err(err);
}

/* per_cpu/cpu<cpu>/<raw> of instance, read in sub-buffers of the instance's own layout. */
static struct tracefs_cpu *tcpu__open(struct tracefs_instance *instance, const char *raw, int cpu,
				      bool nonblock, const char *enoent_hint)
{
	struct tracefs_cpu *tcpu;
	struct rb_layout l;
	char file[64], *path;
	ssize_t kb;
	int fd, err;

	if (cpu < 0)
		return libauxtrace__ptr_err(-EINVAL);
	err = rb_layout__read(&l, instance);
	if (err)
		return libauxtrace__ptr_err(err);
	snprintf(file, sizeof(file), "per_cpu/cpu%d/%s", cpu, raw);
	path = tracefs__path(instance, file);
	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	err = -errno;
	if (fd < 0 && err == -ENOENT)
		pr_err("%s does not exist: %s\n", path, enoent_hint);
	free(path);
	if (fd < 0)
		return libauxtrace__ptr_err(err);
	tcpu = tcpu__new(fd, cpu, &l, nonblock);
	if (!tcpu) {
		err = -errno;
		close(fd);
		return libauxtrace__ptr_err(err);
	}
	kb = tracefs_instance_get_buffer_size(instance, cpu);
	if (kb > 0)	/* and the reader's own sub-buffer */
		tcpu->batch_bytes = (size_t)kb * 1024 + l.subbuf_size;
	return tcpu;
}

struct tracefs_cpu *tracefs_cpu_open(struct tracefs_instance *instance, int cpu, bool nonblock)
{
	struct tracefs_cpu *tcpu = tcpu__open(instance, "trace_pipe_raw", cpu, nonblock,
					      "that CPU is not possible on this machine");
	char file[64];

	if (!tcpu)
		return NULL;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	tcpu->stats_fd = tracefs_instance_file_open(instance, file, O_RDONLY);
	if (tcpu__kernel_read_events(tcpu, &tcpu->read_base) < 0)
		tcpu->read_base = 0;	/* no stats file: only a mapping moves the count */
	tcpu->read_seen = tcpu->read_base;
	tracefs_cpu__sync_kernel_lost(tcpu);
	return tcpu;
}

/* The stats file counts the main buffer's events: a snapshot tcpu has no records count. */
struct tracefs_cpu *tracefs_cpu_snapshot_open(struct tracefs_instance *instance, int cpu,
					      bool nonblock)
{
	return tcpu__open(instance, "snapshot_raw", cpu, nonblock,
			  "the kernel has no snapshot buffer (CONFIG_TRACER_SNAPSHOT), or that CPU is not possible on this machine");
}

/* The sub-buffer header of this kernel, for an fd of an instance we do not know. */
static void tcpu__kernel_layout(struct rb_layout *l)
{
	if (libauxtrace__tracing_dir() && !rb_layout__read(l, NULL))
		return;
	/* no tracefs here (the data comes from elsewhere): the kernel's long is most likely ours */
	*l = (struct rb_layout){ .long_size = sizeof(long), .data_off = 8 + sizeof(long) };
}

struct tracefs_cpu *tracefs_cpu_alloc_fd(int fd, int subbuf_size, bool nonblock)
{
	struct rb_layout l;

	if (fd < 0)
		return libauxtrace__ptr_err(-EINVAL);
	tcpu__kernel_layout(&l);
	if (subbuf_size < 0 || rb_layout__set_subbuf_size(&l, (unsigned long)subbuf_size)) {
		pr_err("tracefs_cpu_alloc_fd: %d is no sub-buffer size: give tracefs_cpu_read_size() of a tracefs_cpu of that buffer (a power of two from %u to %u bytes)\n",
		       subbuf_size, RB_SUBBUF_MIN, RB_SUBBUF_MAX);
		return libauxtrace__ptr_err(-EINVAL);
	}
	return tcpu__new(fd, -1, &l, nonblock);
}

struct tracefs_cpu *tracefs_cpu_open_mapped(struct tracefs_instance *instance, int cpu,
					    bool nonblock)
{
	struct tracefs_cpu *tcpu = tracefs_cpu_open(instance, cpu, nonblock);

	if (tcpu)
		tracefs_cpu_map(tcpu);	/* best effort: is_mapped() tells */
	return tcpu;
}

void tracefs_cpu_free_fd(struct tracefs_cpu *tcpu)
{
	if (!tcpu)
		return;
	trace_map__delete(tcpu->map, &tcpu->layout, tcpu->zeros, NULL);
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

void tracefs_cpu_close(struct tracefs_cpu *tcpu)
{
	if (!tcpu)
		return;
	close(tcpu->fd);
	tracefs_cpu_free_fd(tcpu);
}

bool tracefs_cpu_is_mapped(struct tracefs_cpu *tcpu)
{
	return tcpu && tcpu->map;
}

int tracefs_cpu_map(struct tracefs_cpu *tcpu)
{
	struct trace_map *m;
	unsigned int size;
	int err;

	if (!tcpu) {
		errno = EINVAL;
		return -1;
	}
	if (tcpu->map)
		return 0;
	if (trace_map__new(tcpu, &m))
		return -1;
	size = trace_map__subbuf_size(m);
	err = size == tcpu->layout.subbuf_size ? 0 : tcpu__set_subbuf_size(tcpu, size);
	if (err) {
		pr_info("tracefs cpu%d: cannot map the ring buffer (its sub-buffers are now %u bytes: %s; buffer_subbuf_size_kb changed while data was pending; reopen the CPU); reading with read(2)/splice instead\n",
			tcpu->cpu, size, strerror(-err));
		trace_map__delete(m, &tcpu->layout, tcpu->zeros, NULL);
		errno = -err;
		return -1;
	}
	tcpu->map = m;
	return 0;
}

/* Bytes the kernel already counted as read but no sink took stay held: nothing is lost. */
static void tcpu__unmap(struct tracefs_cpu *tcpu)
{
	char *keep = tcpu->held ? NULL : tcpu->buffer;

	if (trace_map__delete(tcpu->map, &tcpu->layout, tcpu->zeros, keep)) {
		tcpu->held = keep;
		tcpu->held_live = false;
	}
	tcpu->map = NULL;
}

void tracefs_cpu_unmap(struct tracefs_cpu *tcpu)
{
	if (tcpu && tcpu->map)
		tcpu__unmap(tcpu);
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
	uint64_t now = 0;

	if (!tcpu)
		return libauxtrace__ptr_err(-EINVAL);
	if (tcpu->map)
		now = trace_map__events_read(tcpu->map);
	else if (tcpu__kernel_read_events(tcpu, &now) < 0)
		now = tcpu->read_seen;
	if (now < tcpu->read_seen)
		tcpu__buffer_reset(tcpu, tcpu->read_seen);
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

/*
 * Sleep until the kernel's buffer_percent watermark or tracefs_cpu_stop(); with the writer's
 * page left to the next look, until a round has passed instead (the kernel counts that page
 * as read: its watermark might not come for a long time, or, at buffer_percent 0, come with
 * every event). 0 or -errno.
 */
static int tcpu__wait(struct tracefs_cpu *tcpu)
{
	struct pollfd pfd[2] = {
		{ .fd = tcpu->stop_fd, .events = POLLIN },
		{ .fd = tcpu->fd, .events = POLLIN },
	};
	bool left = trace_map__left_open(tcpu->map);

	tcpu->sys.waits++;
	if (poll(pfd, left ? 1 : 2, left ? TCPU_ROUND_MS : -1) < 0)
		return -errno;		/* EINTR: a signal is the caller's business */
	if (pfd[1].revents & POLLIN)
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
	const char *page = trace_map__whole_page(tcpu->map, iov, iovcnt);
	size_t size = tcpu->layout.subbuf_size;

	if (page) {
		uint32_t commit = rb_page__commit(page, &tcpu->layout);

		/* peek checked the records of the piece; kbuffer also reads the page's own commit */
		if (rb_commit__size(commit) == iov[1].iov_len &&
		    !rb_commit__check(commit, &tcpu->layout)) {
			kbuffer_load_subbuffer(tcpu->kbuf, (void *)page);
			/* kbuffer reads the live commit: if the writer appended since, copy instead */
			if ((size_t)kbuffer_subbuffer_size(tcpu->kbuf) == iov[1].iov_len)
				return size;
		}
	}
	if (iovcnt == 1) {
		kbuffer_load_subbuffer(tcpu->kbuf, iov[0].iov_base);
		return size;
	}
	gather(tcpu->buffer, iov, iovcnt);
	kbuffer_load_subbuffer(tcpu->kbuf, tcpu->buffer);
	return size;
}

/* ---- the ring adapter: held first, then the mapping, read(2) or splice ---- */

static int tcpu__next_window(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			     struct ring_window *win)
{
	struct trace_map_reset reset = { 0 };
	int ret = tracefs_cpu__peek_held(tcpu, rd, win);

	if (ret)
		return ret;
	if (!tcpu->map)
		return rd->splice ? tracefs_cpu__peek_splice(tcpu, rd, win)
				  : tracefs_cpu__peek_read(tcpu, rd, win);
	ret = trace_map__peek(tcpu, rd->leave_open, win, &reset);
	if (reset.resets)
		tcpu__buffer_reset(tcpu, reset.events);
	return ret;
}

/*
 * Whether kbuffer can parse the sub-buffer of win. A pipe window goes only to a sink that
 * splices (never one that parses), and its bytes are not in our memory to look at.
 */
static bool tcpu__window_is_sound(struct tracefs_cpu *tcpu, const struct ring_window *win)
{
	if (win->priv == &tcpu->held)
		return !rb_page__check(tcpu->held, &tcpu->layout,
				       rb_page__commit(tcpu->held, &tcpu->layout));
	if (win->priv == &tcpu->buffered)
		return true;
	return !trace_map__check(tcpu->map, &tcpu->layout);
}

static int tcpu__commit(struct ring *ring, const struct ring_request *req, struct ring_window *win,
			size_t taken)
{
	struct tracefs_cpu *tcpu = container_of(ring, struct tracefs_cpu, ring);

	(void)req;
	if (tracefs_cpu__is_read_window(tcpu, win))
		tracefs_cpu__commit_read(tcpu, win, taken);
	else
		trace_map__commit(tcpu->map, ring, &tcpu->layout);
	return 0;
}

static int tcpu__peek(struct ring *ring, const struct ring_request *req, struct ring_window *win)
{
	struct tracefs_cpu *tcpu = container_of(ring, struct tracefs_cpu, ring);
	const struct tracefs_cpu_request *rd = tracefs_cpu_request(req);
	int ret = tcpu__next_window(tcpu, rd, win);

	if (ret <= 0 || !rd->check || tcpu__window_is_sound(tcpu, win))
		return ret;
	/* Its lost-events mark still counts; what it held is lost, by an unknown count. */
	pr_warn("tracefs cpu%d: dropped a malformed sub-buffer (its records run past its %u data bytes, or those do not fit a %u-byte sub-buffer) and counted it as a loss of unknown size: trace_pipe_raw never hands out such pages, so check what feeds this fd\n",
		tcpu->cpu, rb_commit__size(rb_page__commit(win->iov[0].iov_base, &tcpu->layout)),
		tcpu->layout.subbuf_size);
	tcpu__commit(ring, req, win, win->bytes);
	ring__account_loss(ring, -1);
	return -EBADMSG;
}

static const struct ring_ops tcpu_ring_ops = { .peek = tcpu__peek, .commit = tcpu__commit };

/* ---- the one read loop ---- */

/* How a public call reads: which path, how much, and whether it may wait first. */
struct move {
	bool buffered;		/* unmapped: splice (unless flushing) rather than read(2) */
	bool check;		/* only sub-buffers kbuffer can parse: for callers that parse */
	bool batch;		/* everything up to the page the kernel is still writing */
	bool flush;		/* ... and that page too */
	bool nonblock;
	void *target;		/* read(2) may land here: only for a sink that cannot refuse it */
};

/*
 * One window, or a batch, from the ring into the sink. Bytes, 0 for none, or -errno. A call
 * that may sleep leaves the writer's page (mapped) to its next look, a round later.
 */
static ssize_t tcpu__step(struct tracefs_cpu *tcpu, const struct move *mv, bool block,
			  struct ring_sink *sink)
{
	struct tracefs_cpu_request rd = {
		.req = { .max_windows = mv->batch ? 0 : 1,
			 .max_bytes = mv->batch ? tcpu->batch_bytes : 0, .flush = mv->flush },
		/* splice never hands out the page the writer is on: a flush reads */
		.splice = mv->buffered && !mv->flush,
		.check = mv->check,
		.leave_open = block,
		.target = mv->target ? mv->target : tcpu->buffer,
	};
	ssize_t n = ring__drain(&tcpu->ring, &rd.req, sink);

	/* a batch cut short at batch_bytes left more to take without waiting */
	tcpu->need_wait = (mv->batch && !rd.req.limited) || rd.req.reached_edge;
	return n;
}

/*
 * Step until something moves: at once when the caller may not block or the last call did
 * not find the ring drained, else after poll() said there is data. Returns the bytes moved;
 * 0 with errno EAGAIN when there were none and we may not wait; -errno on failure (an output
 * that would block is -EAGAIN, not "no data").
 */
static ssize_t tcpu__move(struct tracefs_cpu *tcpu, const struct move *mv, struct ring_sink *sink)
{
	for (;;) {
		/* again each time: tracefs_cpu_stop() may have woken the poll */
		bool block = !mv->flush && tcpu__may_block(tcpu, mv->nonblock);
		ssize_t n;

		if (!block || !tcpu->need_wait) {
			n = tcpu__step(tcpu, mv, block, sink);
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

static int tcpu__read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock, bool buffered,
		      bool flush)
{
	struct buffer_sink s = { .sink.push = buffer_sink__push, .dst = buffer };
	struct move mv = { .buffered = buffered, .check = true, .flush = flush,
			   .nonblock = nonblock, .target = buffer };

	if (!tcpu || !buffer)
		return libauxtrace__err(-EINVAL);
	return (int)tcpu__move(tcpu, &mv, &s.sink);
}

static struct kbuffer *tcpu__read_buf(struct tracefs_cpu *tcpu, bool nonblock, bool buffered,
				      bool flush)
{
	struct kbuf_sink s = { .sink.push = kbuf_sink__push, .tcpu = tcpu };
	struct move mv = { .buffered = buffered, .check = true, .flush = flush,
			   .nonblock = nonblock };

	if (!tcpu)
		return libauxtrace__ptr_err(-EINVAL);
	if (tcpu__move(tcpu, &mv, &s.sink) <= 0)
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
	struct move mv = { .buffered = buffered, .batch = true, .flush = flush, .nonblock = true };

	if (!tcpu || !sink)
		return libauxtrace__err(-EINVAL);
	return tcpu__move(tcpu, &mv, sink);
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

/*
 * write/pipe: a batch into a file or pipe, by splice where we read unmapped (the kernel's
 * pages move through our pipe into wfd, never through user memory), by writev straight from
 * the mapping where we read mapped.
 */
static int tcpu__write(struct tracefs_cpu *tcpu, int wfd, bool nonblock)
{
	struct move mv = { .buffered = true, .batch = true, .nonblock = nonblock };
	struct ring_sink_fd out;

	if (!tcpu || wfd < 0)
		return libauxtrace__err(-EINVAL);
	ring_sink_fd__init(&out, wfd);
	return (int)tcpu__move(tcpu, &mv, &out.sink);
}

int tracefs_cpu_write(struct tracefs_cpu *tcpu, int wfd, bool nonblock)
{
	return tcpu__write(tcpu, wfd, nonblock);
}

int tracefs_cpu_pipe(struct tracefs_cpu *tcpu, int wfd, bool nonblock)
{
	int room;

	if (!tcpu || wfd < 0)
		return libauxtrace__err(-EINVAL);
	room = fcntl(wfd, F_GETPIPE_SZ);
	if (room < 0)
		return libauxtrace__err(-errno);	/* EBADF, or wfd is no pipe */
	/* Splice moves whole sub-buffers: one must fit (older data goes out first regardless). */
	if (!tcpu->map && !tcpu->held && !tcpu->buffered && (size_t)room < tcpu->layout.subbuf_size)
		return libauxtrace__err(-ENOSPC);
	return tcpu__write(tcpu, wfd, nonblock);
}
