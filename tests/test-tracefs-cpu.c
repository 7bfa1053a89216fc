// SPDX-License-Identifier: LGPL-2.1
/*
 * tracefs_cpu on the real kernel: every read path (mapped, read(2), splice), waiting, stop,
 * lost events, resets, and the libtracefs bugs we must not have. Each test works in a tracefs
 * instance of its own, pinned to CPU 0, with trace_marker writes as events.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/trace_mmap.h>
#include <tracefs/tracefs-internal.h>
#include <tracefs.h>
#include "lib/testlib.h"

#define CPU 0

struct fixture {
	char name[128];
	struct tracefs_instance *inst;
	int marker;			/* <instance>/trace_marker */
	unsigned int text_off;		/* where ftrace:print keeps the marker text */
};

static struct fixture fx;

/* Instance, optional buffer and sub-buffer size (KiB, 0: default), pinned to CPU. */
static bool fixture_setup(int buffer_kb, int subbuf_kb)
{
	char *format, *buf;
	int err;

	if (!testlib_is_root() || !testlib_tracefs())
		return false;
	memset(&fx, 0, sizeof(fx));
	ck_assert_int_eq(testlib_pin_cpu(CPU), 0);
	testlib_instance_name(fx.name, sizeof(fx.name));
	fx.inst = tracefs_instance_create(fx.name);
	ck_assert_ptr_nonnull(fx.inst);
	ck_assert(tracefs_instance_is_new(fx.inst));
	if (subbuf_kb)
		ck_assert_int_eq(tracefs_instance_set_subbuf_size(fx.inst, subbuf_kb), 0);
	if (buffer_kb)
		ck_assert_int_eq(tracefs_instance_set_buffer_size(fx.inst, buffer_kb, -1), 0);
	err = tracefs_instance_file_open(fx.inst, "trace_marker", O_WRONLY);
	ck_assert_int_ge(err, 0);
	fx.marker = err;
	format = tracefs_instance_file_read(fx.inst, "events/ftrace/print/format", NULL);
	ck_assert_ptr_nonnull(format);
	buf = strstr(format, "buf[];");
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(sscanf(buf, "buf[];\toffset:%u;", &fx.text_off), 1);
	free(format);
	return true;
}

#define SETUP(buffer_kb, subbuf_kb)					\
	do {								\
		if (!fixture_setup(buffer_kb, subbuf_kb))		\
			TEST_SKIP("needs root and a mounted tracefs");	\
	} while (0)

static void fixture_teardown(void)
{
	close(fx.marker);
	ck_assert_int_eq(tracefs_instance_destroy(fx.inst), 0);
	tracefs_instance_free(fx.inst);
}

/* Marker "ev <i>" padded to len bytes (len 0: just the number). */
static void mark(int i, size_t len)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "ev %d ", i);

	if (len > (size_t)n) {
		memset(buf + n, 'x', len - n);
		n = (int)len;
	}
	ck_assert_int_eq(write(fx.marker, buf, n), n);
}

static void mark_range(int from, int to, size_t len)
{
	for (int i = from; i < to; i++)
		mark(i, len);
}

/* What came out of a tcpu: the marker numbers in order, and the lost-events reports. */
struct seen {
	int next;		/* the number expected next */
	int events;
	int subbufs;
	int64_t lost;		/* counted losses */
	int unknown;		/* losses without a count */
	bool disorder;		/* a number twice, or out of order */
};

/* Walk a loaded kbuffer. With allow_gaps, numbers may jump forward (overwritten events). */
static void seen_kbuf(struct seen *s, struct kbuffer *kb, bool allow_gaps)
{
	unsigned long long ts;
	int missed = kbuffer_missed_events(kb);

	s->subbufs++;
	if (missed > 0)
		s->lost += missed;
	else if (missed < 0)
		s->unknown++;
	for (void *rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts)) {
		int i;

		ck_assert_int_eq(sscanf((char *)rec + fx.text_off, "ev %d", &i), 1);
		if (i != s->next && !(allow_gaps && i > s->next))
			s->disorder = true;
		s->next = i + 1;
		s->events++;
	}
}

static struct kbuffer *kbuf_new(struct tracefs_cpu *tcpu)
{
	struct kbuffer *kb = kbuffer_alloc(tcpu->layout.long_size == 8 ? KBUFFER_LSIZE_8
									: KBUFFER_LSIZE_4,
					   KBUFFER_ENDIAN_SAME_AS_HOST);

	ck_assert_ptr_nonnull(kb);
	return kb;
}

/* Parse a stream of standalone sub-buffers (a file, a memory sink's buffer). */
static void seen_stream(struct seen *s, struct tracefs_cpu *tcpu, char *buf, size_t len)
{
	size_t size = tracefs_cpu_read_size(tcpu);
	struct kbuffer *kb = kbuf_new(tcpu);

	ck_assert_uint_eq(len % size, 0);
	for (size_t off = 0; off < len; off += size) {
		kbuffer_load_subbuffer(kb, buf + off);
		seen_kbuf(s, kb, false);
	}
	kbuffer_free(kb);
}

enum read_how { HOW_READ, HOW_READ_BUF, HOW_BUFFERED, HOW_BUFFERED_BUF, HOW_FLUSH, HOW_FLUSH_BUF };

/* One call of the chosen kind, parsed into s. false when it said "no data" (EAGAIN). */
static bool read_one(struct tracefs_cpu *tcpu, enum read_how how, struct seen *s)
{
	char *buf = malloc(tracefs_cpu_read_size(tcpu));
	struct kbuffer *kb = NULL;
	bool got;
	int n = 0;

	ck_assert_ptr_nonnull(buf);
	errno = 0;
	switch (how) {
	case HOW_READ:
		n = tracefs_cpu_read(tcpu, buf, true);
		break;
	case HOW_BUFFERED:
		n = tracefs_cpu_buffered_read(tcpu, buf, true);
		break;
	case HOW_FLUSH:
		n = tracefs_cpu_flush(tcpu, buf);
		break;
	case HOW_READ_BUF:
		kb = tracefs_cpu_read_buf(tcpu, true);
		break;
	case HOW_BUFFERED_BUF:
		kb = tracefs_cpu_buffered_read_buf(tcpu, true);
		break;
	case HOW_FLUSH_BUF:
		kb = tracefs_cpu_flush_buf(tcpu);
		break;
	}
	if (how == HOW_READ || how == HOW_BUFFERED || how == HOW_FLUSH) {
		ck_assert_int_ge(n, 0);
		got = n > 0;
		if (!got)
			ck_assert_int_eq(errno, EAGAIN);
		else
			ck_assert_int_eq(n, tracefs_cpu_read_size(tcpu));
		if (got)
			seen_stream(s, tcpu, buf, n);
		free(buf);
		return got;
	}
	free(buf);
	if (!kb) {
		ck_assert_int_eq(errno, EAGAIN);
		return false;
	}
	seen_kbuf(s, kb, false);
	return true;
}

/* Call until "no data"; bounded so that a reader that never ends fails instead of hanging. */
static void read_all(struct tracefs_cpu *tcpu, enum read_how how, struct seen *s)
{
	for (int calls = 0; read_one(tcpu, how, s); calls++)
		ck_assert_int_lt(calls, 100000);
}

/* The kernel's meta page of tcpu's CPU buffer, mapped by the test itself. */
static struct trace_buffer_meta meta_of(struct tracefs_cpu *tcpu)
{
	struct trace_buffer_meta m;
	void *p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, tracefs_cpu_fd(tcpu), 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	memcpy(&m, p, sizeof(m));
	munmap(p, getpagesize());
	return m;
}

static struct tracefs_cpu *open_cpu(bool mapped)
{
	struct tracefs_cpu *tcpu = mapped ? tracefs_cpu_open_mapped(fx.inst, CPU, false)
					  : tracefs_cpu_open(fx.inst, CPU, false);

	ck_assert_ptr_nonnull(tcpu);
	ck_assert(tracefs_cpu_is_mapped(tcpu) == mapped);
	return tcpu;
}

/* ---------------------------------------------------------------------------------------- */
/* every path: N events in order, then "no data" */

/* How to read, and how to read the rest (buffered reads leave the partial page to a flush). */
static const struct {
	bool mapped;
	enum read_how how, rest;
} n_events_cases[] = {
	{ false, HOW_READ, HOW_READ },
	{ false, HOW_READ_BUF, HOW_READ_BUF },
	{ false, HOW_BUFFERED, HOW_FLUSH },
	{ false, HOW_BUFFERED_BUF, HOW_FLUSH_BUF },
	{ true, HOW_READ_BUF, HOW_READ_BUF },
	{ true, HOW_READ, HOW_READ },
	{ true, HOW_BUFFERED, HOW_BUFFERED },	/* mapped: no whole-pages-only rule */
	{ true, HOW_BUFFERED_BUF, HOW_BUFFERED_BUF },
};

/*
 * The system calls the first reads went through: the mapping alone when mapped (no read(2),
 * no splice), else read(2) for the plain reads and splice for the buffered ones.
 */
static void assert_path(struct tracefs_cpu *tcpu, bool mapped, enum read_how how)
{
	const struct tracefs_cpu_syscalls *sys = tracefs_cpu_syscall_stats(tcpu);
	bool buffered = how == HOW_BUFFERED || how == HOW_BUFFERED_BUF;

	if (mapped) {
		ck_assert_uint_gt(sys->get_reader, 0);
		ck_assert_uint_eq(sys->reads + sys->splices, 0);
	} else {
		ck_assert_uint_eq(sys->get_reader, 0);
		ck_assert_uint_gt(buffered ? sys->splices : sys->reads, 0);
		ck_assert_uint_eq(buffered ? sys->reads : sys->splices, 0);
	}
}

START_TEST(test_n_events)
{
	const bool mapped = n_events_cases[_i].mapped;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	const int n = 400;		/* ~3 sub-buffers of 4 KiB */

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	mark_range(0, n, 40);
	read_all(tcpu, n_events_cases[_i].how, &s);
	assert_path(tcpu, mapped, n_events_cases[_i].how);
	read_all(tcpu, n_events_cases[_i].rest, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, n);
	ck_assert_int_ge(s.subbufs, 3);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->records, n);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->chunks, s.subbufs);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* Splice hands out whole sub-buffers only: the page the writer is on needs a flush. */
START_TEST(test_buffered_read_leaves_partial_page_to_flush)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(false);
	mark_range(0, 10, 0);
	ck_assert(!read_one(tcpu, HOW_BUFFERED, &s));
	ck_assert(read_one(tcpu, HOW_FLUSH, &s));
	ck_assert_int_eq(s.events, 10);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* libtracefs says EAGAIN on one path and errno 0 on another: every one of ours says EAGAIN. */
START_TEST(test_no_data_is_eagain)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct ring_sink_fd out;
	char buf[4096];
	struct tracefs_cpu *tcpu;
	int p[2];

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	ck_assert_int_eq(pipe(p), 0);
#define EMPTY_INT(call)                                  \
	do {                                             \
		errno = 0;                               \
		ck_assert_int_eq(call, 0);               \
		ck_assert_int_eq(errno, EAGAIN);         \
	} while (0)
#define EMPTY_PTR(call)                                  \
	do {                                             \
		errno = 0;                               \
		ck_assert_ptr_null(call);                \
		ck_assert_int_eq(errno, EAGAIN);         \
	} while (0)
	EMPTY_INT(tracefs_cpu_read(tcpu, buf, true));
	EMPTY_INT(tracefs_cpu_buffered_read(tcpu, buf, true));
	EMPTY_INT(tracefs_cpu_flush(tcpu, buf));
	EMPTY_INT(tracefs_cpu_write(tcpu, p[1], true));
	EMPTY_INT(tracefs_cpu_pipe(tcpu, p[1], true));
	EMPTY_INT(tracefs_cpu_flush_write(tcpu, p[1]));
	ring_sink_fd__init(&out, p[1]);
	EMPTY_INT(tracefs_cpu_drain(tcpu, &out.sink));
	EMPTY_INT(tracefs_cpu_buffered_drain(tcpu, &out.sink));
	EMPTY_INT(tracefs_cpu_flush_drain(tcpu, &out.sink));
	EMPTY_PTR(tracefs_cpu_read_buf(tcpu, true));
	EMPTY_PTR(tracefs_cpu_buffered_read_buf(tcpu, true));
	EMPTY_PTR(tracefs_cpu_flush_buf(tcpu));
#undef EMPTY_INT
#undef EMPTY_PTR
	close(p[0]);
	close(p[1]);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* libtracefs passed a pointer to F_SETPIPE_SZ: our pipe has the size we asked for. */
START_TEST(test_splice_pipe_is_sized)
{
	unsigned long long max = 0;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	int expect;

	SETUP(0, 0);
	tcpu = open_cpu(false);
	mark_range(0, 200, 40);
	read_all(tcpu, HOW_BUFFERED, &s);
	ck_assert_int_ge(tcpu->splice_pipe[1], 0);
	ck_assert_int_eq(libauxtrace__read_u64("/proc/sys/fs/pipe-max-size", &max), 0);
	expect = max > (1 << 30) ? tracefs_cpu_read_size(tcpu) : (int)max;
	ck_assert_int_eq(fcntl(tcpu->splice_pipe[1], F_GETPIPE_SZ), expect);
	ck_assert_int_gt(tcpu->pipe_size, 16 * 4096);	/* more than the default 64 KiB */
	ck_assert_int_eq(tcpu->pipe_size % tracefs_cpu_read_size(tcpu), 0);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* ---------------------------------------------------------------------------------------- */
/* write, pipe, drain into sinks */

START_TEST(test_write_to_file)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	char path[] = "/tmp/auxtrace-tracefs-XXXXXX";
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	char *data;
	off_t len;
	int fd, n;

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	mark_range(0, 500, 60);
	n = tracefs_cpu_write(tcpu, fd, true);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(n % tracefs_cpu_read_size(tcpu), 0);
	assert_path(tcpu, mapped, HOW_BUFFERED);	/* mapped: copied from the mapping */
	/* splice leaves the page the writer is on to the flush; the mapping already took it */
	n = tracefs_cpu_flush_write(tcpu, fd);
	ck_assert(mapped ? n == 0 : n > 0);
	errno = 0;
	ck_assert_int_eq(tracefs_cpu_flush_write(tcpu, fd), 0);
	ck_assert_int_eq(errno, EAGAIN);
	len = lseek(fd, 0, SEEK_END);
	data = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(data, MAP_FAILED);
	seen_stream(&s, tcpu, data, len);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 500);
	munmap(data, len);
	close(fd);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* What a write or pipe call put in pipe p (n bytes), then a flush: events, each once, in order. */
static void expect_via_pipe(struct tracefs_cpu *tcpu, int p[2], int n, int events)
{
	_Alignas(8) char buf[65536];
	struct seen s = { 0 };

	ck_assert_int_le(n, (int)sizeof(buf));
	ck_assert_int_eq(read(p[0], buf, sizeof(buf)), n);
	seen_stream(&s, tcpu, buf, n);
	read_all(tcpu, HOW_FLUSH, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, events);
	close(p[0]);
	close(p[1]);
}

START_TEST(test_pipe)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct tracefs_cpu *tcpu;
	int p[2], n;

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	mark_range(0, 300, 60);
	n = tracefs_cpu_pipe(tcpu, p[1], true);
	ck_assert_int_gt(n, 0);
	assert_path(tcpu, mapped, HOW_BUFFERED);
	expect_via_pipe(tcpu, p, n, 300);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * A write into a socket that takes less than the splice pipe holds, part of a sub-buffer even:
 * what it did not take stays, accounted, and the next write sends it. The rest of a torn
 * sub-buffer can only go to the same stream, so a read in between refuses instead of handing
 * it out as if it were whole.
 */
START_TEST(test_write_into_short_socket)
{
	const size_t cap = 2 << 20;
	char *out = malloc(cap), page[8192];
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	size_t used = 0, size;
	int sk[2], n, calls = 0, torn = 0, sndbuf = 4096;

	SETUP(0, _i ? 8 : 0);		/* 4 or 8 KiB sub-buffers */
	tcpu = open_cpu(false);
	size = tracefs_cpu_read_size(tcpu);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sk), 0);
	ck_assert_int_eq(setsockopt(sk[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)), 0);
	ck_assert_int_eq(fcntl(sk[0], F_SETFL, O_NONBLOCK), 0);
	ck_assert_int_eq(fcntl(sk[1], F_SETFL, O_NONBLOCK), 0);
	mark_range(0, 1200, 40);
	for (;; calls++) {
		ssize_t got;

		ck_assert_int_lt(calls, 10000);
		errno = 0;
		n = tracefs_cpu_write(tcpu, sk[0], true);
		ck_assert_int_ge(n, 0);
		if (n == 0) {
			ck_assert_int_eq(errno, EAGAIN);
			break;
		}
		if ((used + n) % size) {
			torn++;
			errno = 0;
			ck_assert_int_eq(tracefs_cpu_read(tcpu, page, true), -EIO);
			ck_assert_ptr_null(tracefs_cpu_read_buf(tcpu, true));
			ck_assert_int_eq(errno, EIO);
		}
		while ((got = read(sk[1], out + used, cap - used)) > 0)
			used += got;
	}
	ck_assert_int_gt(calls, 1);		/* the socket took less than there was */
	if (size > 4096)
		ck_assert_int_gt(torn, 0);	/* ... and tore sub-buffers of two pages */
	ck_assert_uint_eq(used % size, 0);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->bytes, used);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->chunks, used / size);
	while ((n = tracefs_cpu_flush(tcpu, out + used)) > 0)
		used += n;
	seen_stream(&s, tcpu, out, used);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 1200);
	close(sk[0]);
	close(sk[1]);
	free(out);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * An output that is full is not "no data": write and pipe say -EAGAIN, keep everything, and
 * deliver it once the output drains. _i: 0 write, 1 pipe, unmapped; 2, 3 the same mapped.
 */
START_TEST(test_write_into_full_pipe)
{
	const bool mapped = _i >= 2, to_pipe = _i & 1;
	char buf[65536] = { 0 };
	struct tracefs_cpu *tcpu;
	int p[2], n;

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	while (write(p[1], buf, sizeof(buf)) > 0)
		;
	mark_range(0, 300, 60);
	errno = 0;
	n = to_pipe ? tracefs_cpu_pipe(tcpu, p[1], true) : tracefs_cpu_write(tcpu, p[1], true);
	ck_assert_int_eq(n, -EAGAIN);
	ck_assert_int_eq(errno, EAGAIN);
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	n = to_pipe ? tracefs_cpu_pipe(tcpu, p[1], true) : tracefs_cpu_write(tcpu, p[1], true);
	ck_assert_int_gt(n, 0);
	expect_via_pipe(tcpu, p, n, 300);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

struct piper {
	struct tracefs_cpu *tcpu;
	int wfd, n;
};

static void *pipe_into(void *arg)
{
	struct piper *pp = arg;

	pp->n = tracefs_cpu_pipe(pp->tcpu, pp->wfd, true);
	return NULL;
}

/*
 * A blocking pipe that is full makes tracefs_cpu_pipe wait for room, as a blocking write
 * would (libtracefs too), rather than fail: nonblock is about waiting for events.
 */
START_TEST(test_pipe_waits_for_room)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	char junk[65536] = { 0 };
	struct piper pp = { 0 };
	pthread_t thread;
	size_t full = 0;
	int p[2];
	ssize_t w;

	SETUP(0, 0);
	pp.tcpu = open_cpu(mapped);
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	while ((w = write(p[1], junk, sizeof(junk))) > 0)
		full += w;
	ck_assert_int_eq(fcntl(p[1], F_SETFL, 0), 0);		/* blocking from now on */
	mark_range(0, 300, 60);
	pp.wfd = p[1];
	ck_assert_int_eq(pthread_create(&thread, NULL, pipe_into, &pp), 0);
	/* until it is about to move data: not a timing assertion, the result is the same */
	while (!__atomic_load_n(mapped ? &pp.tcpu->sys.get_reader : &pp.tcpu->sys.splices,
				__ATOMIC_RELAXED))
		usleep(1000);
	usleep(10000);
	for (size_t got = 0; got < full; got += w) {
		w = read(p[0], junk, full - got < sizeof(junk) ? full - got : sizeof(junk));
		ck_assert_int_gt(w, 0);
	}
	ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_int_gt(pp.n, 0);
	ck_assert_int_eq(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	expect_via_pipe(pp.tcpu, p, pp.n, 300);
	tracefs_cpu_close(pp.tcpu);
	fixture_teardown();
}
END_TEST

/* A sink that refuses the first push: nothing may be lost, the same sub-buffer comes again. */
struct picky_sink {
	struct ring_sink_memory mem;
	int refuse;
};

static ssize_t picky_push(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct picky_sink *p = ctx;

	if (p->refuse > 0) {
		p->refuse--;
		return -EIO;
	}
	return p->mem.sink.push(&p->mem.sink, iov, iovcnt);
}

/* _i: 0 read(2), 1 splice, 2 mapped */
START_TEST(test_drain_sink_error_keeps_data)
{
	const bool mapped = _i == 2, buffered = _i == 1;
	size_t size = 64 * 4096;
	char *buf = malloc(size);
	struct ring_sink_callback cb;
	struct picky_sink picky = { .refuse = 1 };
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	ssize_t n;

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	ring_sink_memory__init(&picky.mem, buf, size);
	ring_sink_callback__init(&cb, picky_push, &picky);
	mark_range(0, 400, 40);
	errno = 0;
	n = buffered ? tracefs_cpu_buffered_drain(tcpu, &cb.sink) : tracefs_cpu_drain(tcpu, &cb.sink);
	ck_assert_int_eq(n, -EIO);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->sink_errors, 1);
	n = buffered ? tracefs_cpu_buffered_drain(tcpu, &cb.sink) : tracefs_cpu_drain(tcpu, &cb.sink);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(tracefs_cpu_flush_drain(tcpu, &cb.sink) >= 0, 1);
	ck_assert_uint_eq(picky.mem.used % tracefs_cpu_read_size(tcpu), 0);
	seen_stream(&s, tcpu, buf, picky.mem.used);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 400);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->bytes, picky.mem.used);
	tracefs_cpu_close(tcpu);
	free(buf);
	fixture_teardown();
}
END_TEST

/* A sink that makes the producer write two pages of markers for every page it takes. */
struct feeding_sink {
	struct ring_sink_callback cb;
	size_t taken, fed;
};

#define FEED_LIMIT (4 << 20)	/* the producer gives up here: a drain without a bound ends */

static ssize_t feeding_push(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct feeding_sink *f = ctx;
	size_t n = 0;

	for (int i = 0; i < iovcnt; i++)
		n += iov[i].iov_len;
	f->taken += n;
	for (int i = 0; f->fed < FEED_LIMIT && i < 8; i++, f->fed += 1000)
		mark(i, 1000);
	return n;
}

/*
 * A batch moves at most the CPU buffer's size in one call, what could be ready when it
 * started: a producer faster than the sink cannot keep one drain (and the ring set's poll
 * that called it, and a ^C behind that) going for ever. The next call takes more at once.
 * _i: 0 read(2), 1 splice, 2 mapped.
 */
START_TEST(test_batch_is_bounded_by_the_buffer)
{
	const bool mapped = _i == 2, buffered = _i == 1;
	struct feeding_sink f = { 0 };
	struct tracefs_cpu *tcpu;
	size_t bound;
	ssize_t n;

	SETUP(64, 0);
	tcpu = open_cpu(mapped);
	ring_sink_callback__init(&f.cb, feeding_push, &f);
	bound = 64 * 1024 + 2 * (size_t)tracefs_cpu_read_size(tcpu);	/* + reader page, window */
	mark_range(0, 60, 1000);
	n = buffered ? tracefs_cpu_buffered_drain(tcpu, &f.cb.sink) :
		       tracefs_cpu_drain(tcpu, &f.cb.sink);
	ck_assert_msg(n > 0 && (size_t)n <= bound, "one drain moved %zd bytes of a 64 KiB buffer "
		      "while the producer wrote %zu", n, f.fed);
	ck_assert_uint_lt(f.fed, FEED_LIMIT);
	n = buffered ? tracefs_cpu_buffered_drain(tcpu, &f.cb.sink) :
		       tracefs_cpu_drain(tcpu, &f.cb.sink);
	ck_assert_int_gt(n, 0);		/* more was there: no wait, no EAGAIN */
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * A drain stops after the sub-buffer the kernel is still writing instead of asking again:
 * the next drain (after a poll) picks up what the writer appended, and nothing twice.
 */
START_TEST(test_drain_stops_at_live_page)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	char buf[8 * 4096];
	struct ring_sink_memory mem;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	uint64_t calls;

	SETUP(0, 0);
	tcpu = open_cpu(mapped);
	mark_range(0, 5, 0);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(tracefs_cpu_drain(tcpu, &mem.sink), tracefs_cpu_read_size(tcpu));
	/*
	 * The page came out with room left, so it may be live: no second read. (Mapped, its
	 * commit says so: a page the writer left is closed by padding.)
	 */
	calls = tcpu->sys.get_reader + tcpu->sys.reads;
	ck_assert_uint_eq(calls, 1);
	ck_assert_uint_eq(tcpu->sys.edge, 1);
	mark_range(5, 8, 0);
	ck_assert_int_eq(tracefs_cpu_drain(tcpu, &mem.sink), tracefs_cpu_read_size(tcpu));
	/* now the page grew under the reader (mapped) or has room left (read): one call */
	ck_assert_uint_eq(tcpu->sys.get_reader + tcpu->sys.reads - calls, 1);
	seen_stream(&s, tcpu, buf, mem.used);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 8);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* Parse the sub-buffers of fd from offset off to its end. */
static void seen_file(struct seen *s, struct tracefs_cpu *tcpu, int fd, off_t off)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *data;

	ck_assert_int_gt(len, off);
	data = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(data, MAP_FAILED);
	seen_stream(s, tcpu, data + off, len - off);
	munmap(data, len);
}

static int tmpfile_fd(int flags)
{
	char path[] = "/tmp/auxtrace-tracefs-XXXXXX";
	int fd = mkostemp(path, flags);

	ck_assert_int_ge(fd, 0);
	unlink(path);
	return fd;
}

/* splice(2) refuses an O_APPEND output: the same sub-buffers go out as iovecs, after what was there. */
START_TEST(test_write_to_append_file)
{
	static const char head[] = "what the file held before";
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	int fd, n;

	SETUP(0, 0);
	tcpu = open_cpu(false);
	fd = tmpfile_fd(O_APPEND);
	ck_assert_int_eq(write(fd, head, sizeof(head)), sizeof(head));
	mark_range(0, 500, 60);
	n = tracefs_cpu_write(tcpu, fd, true);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(n % tracefs_cpu_read_size(tcpu), 0);
	ck_assert_uint_gt(tcpu->sys.splices, 0);	/* out of the kernel by splice all the same */
	ck_assert_int_gt(tracefs_cpu_flush_write(tcpu, fd), 0);
	seen_file(&s, tcpu, fd, sizeof(head));
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 500);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->bytes, lseek(fd, 0, SEEK_END) - sizeof(head));
	close(fd);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * A sub-buffer that a read took but no sink accepted goes out before anything spliced:
 * tracefs_cpu_write sends the held page first, then splices the rest. _i 0: read(2) took
 * it; 1: a buffered drain took it out of the splice pipe, which still holds later pages.
 */
START_TEST(test_write_sends_held_page_first)
{
	struct picky_sink picky = { .refuse = 1 };
	struct ring_sink_callback cb;
	char buf[4096];
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	int fd;

	SETUP(0, 0);
	tcpu = open_cpu(false);
	ring_sink_memory__init(&picky.mem, buf, sizeof(buf));
	ring_sink_callback__init(&cb, picky_push, &picky);
	mark_range(0, 400, 40);
	ck_assert_int_eq(_i ? tracefs_cpu_buffered_drain(tcpu, &cb.sink) :
			      tracefs_cpu_drain(tcpu, &cb.sink), -EIO);	/* taken, refused */
	ck_assert_ptr_nonnull(tcpu->held);
	ck_assert(_i ? tcpu->buffered > 0 : !tcpu->buffered);
	fd = tmpfile_fd(0);
	ck_assert_int_gt(tracefs_cpu_write(tcpu, fd, true), 0);
	ck_assert_uint_gt(tcpu->sys.splices, 0);
	ck_assert_int_gt(tracefs_cpu_flush_write(tcpu, fd), 0);
	seen_file(&s, tcpu, fd, 0);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 400);
	close(fd);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * Install a seccomp filter on this process (a test runs in a process of its own). 0, or
 * -ENOSYS where seccomp filters are missing (valgrind has none).
 */
static int seccomp_install(struct sock_filter *filter, unsigned short len)
{
	struct sock_fprog prog = { .len = len, .filter = filter };

	ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	if (!syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return 0;
	ck_assert_int_eq(errno, ENOSYS);	/* any other refusal fails the test */
	return -ENOSYS;
}

/* fcntl(F_SETPIPE_SZ) fails with EPERM for sizes above max (0: for every size). */
static int refuse_pipe_sizes_above(unsigned int max)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fcntl, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETPIPE_SZ, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, max, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return seccomp_install(filter, ARRAY_SIZE(filter));
}

/* ioctl(TRACE_MMAP_IOCTL_GET_READER) returns 0 without reaching a driver. */
static int answer_get_reader(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TRACE_MMAP_IOCTL_GET_READER, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return seccomp_install(filter, ARRAY_SIZE(filter));
}

/* n small events (two payload words, delta 1) at data offset off of a sub-buffer. */
static uint32_t put_events(char *subbuf, uint32_t off, int n)
{
	for (int i = 0; i < n; i++, off += 12)
		memcpy(subbuf + 16 + off, (uint32_t[]){ 2 | 1 << 5, 0xaaaa, 0xbbbb }, 12);
	return off;
}

/* A marked sub-buffer: commit with both missed flags, the count after the data. */
static void put_mark(char *subbuf, uint32_t size, uint64_t lost)
{
	memcpy(subbuf + 8, &(uint64_t){ size | RB_MISSED_FLAGS }, 8);
	memcpy(subbuf + 16 + size, &lost, 8);
}

/*
 * A lost-events mark belongs to its sub-buffer once: when the writer appends to a marked
 * reader page and it is handed out in two pieces, the loss counts with the first only. The
 * kernel marks only a page the writer has left, so a memfd plays the kernel here: a meta
 * page and two sub-buffers, GET_READER answered by seccomp, the meta moved by hand.
 */
START_TEST(test_mapped_mark_counts_once_per_page)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = page + 2 * 4096;
	int fd = memfd_create("trace_pipe_raw", MFD_CLOEXEC), events = 0;
	const struct ring_stats *st;
	struct trace_buffer_meta *meta;
	struct tracefs_cpu *tcpu;
	struct kbuffer *kb;
	char *subbuf;
	uint32_t size;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, len), 0);
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert(meta != MAP_FAILED);
	*meta = (struct trace_buffer_meta){ .meta_page_size = page, .subbuf_size = 4096,
					    .meta_struct_len = sizeof(*meta), .nr_subbufs = 2 };
	subbuf = (char *)meta + page;
	tcpu = tracefs_cpu_alloc_fd(fd, 4096, true);
	ck_assert_ptr_nonnull(tcpu);
	ck_assert_int_eq(tracefs_cpu_map(tcpu), 0);
	if (answer_get_reader()) {
		tracefs_cpu_close(tcpu);
		TEST_SKIP("no seccomp filters here (valgrind?)");
	}
	/* 7 events overwritten before this page; 3 on it, then the writer adds 2 more */
	size = put_events(subbuf, 0, 3);
	put_mark(subbuf, size, 7);
	meta->reader.read = size;
	meta->entries = meta->read = 3;
	meta->overrun = 7;
	for (int round = 0; round < 2; round++) {
		while ((kb = tracefs_cpu_read_buf(tcpu, true)))
			for (void *rec = kbuffer_read_event(kb, NULL); rec;
			     rec = kbuffer_next_event(kb, NULL))
				events++;
		ck_assert_int_eq(errno, EAGAIN);
		size = put_events(subbuf, size, 2);
		put_mark(subbuf, size, 7);
		meta->reader.read = size;
		meta->entries = meta->read = 5;
	}
	st = tracefs_cpu_stats(tcpu);
	ck_assert_int_eq(events, 5);
	ck_assert_msg(st->lost == 7 && st->lost_reports == 1, "the mark of one page was counted "
		      "%llu times, %llu events", (unsigned long long)st->lost_reports,
		      (unsigned long long)st->lost);
	tracefs_cpu_close(tcpu);
	munmap(meta, len);
}
END_TEST

/*
 * 128 KiB sub-buffers, more than a default pipe holds. _i 0: the system refuses the large
 * pipe, so it holds one sub-buffer and splicing works; _i 1: it refuses any resize, so
 * splicing says ENOSPC (nothing is lost: read(2) still gets everything).
 */
START_TEST(test_splice_pipe_sizing_fails)
{
	const unsigned int subbuf = 128 * 1024;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	char *buf;
	int n;

	SETUP(1024, 128);
	tcpu = open_cpu(false);
	ck_assert_int_eq(tracefs_cpu_read_size(tcpu), subbuf);
	buf = malloc(subbuf);
	ck_assert_ptr_nonnull(buf);
	mark_range(0, 2000, 100);			/* more than one sub-buffer */
	if (refuse_pipe_sizes_above(_i ? 0 : subbuf)) {
		free(buf);
		tracefs_cpu_close(tcpu);
		fixture_teardown();
		TEST_SKIP("no seccomp filters here (valgrind has none) to make F_SETPIPE_SZ fail");
	}
	errno = 0;
	n = tracefs_cpu_buffered_read(tcpu, buf, true);
	if (_i) {
		ck_assert_int_eq(n, -ENOSPC);
		ck_assert_int_eq(errno, ENOSPC);
		ck_assert_int_lt(tcpu->splice_pipe[0], 0);
		read_all(tcpu, HOW_READ, &s);
	} else {
		ck_assert_int_eq(n, subbuf);
		ck_assert_int_eq(tcpu->pipe_size, subbuf);
		seen_stream(&s, tcpu, buf, n);
		read_all(tcpu, HOW_BUFFERED, &s);
		read_all(tcpu, HOW_FLUSH, &s);
	}
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 2000);
	free(buf);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* ---------------------------------------------------------------------------------------- */
/* the mapping */

START_TEST(test_map_unmap_remap)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(false);
	ck_assert_int_eq(tracefs_cpu_map(tcpu), 0);
	ck_assert(tracefs_cpu_is_mapped(tcpu));
	struct trace_map *first = tcpu->map;

	ck_assert_int_eq(tracefs_cpu_map(tcpu), 0);		/* mapped already: a no-op */
	ck_assert_ptr_eq(tcpu->map, first);
	mark_range(0, 5, 0);
	ck_assert(read_one(tcpu, HOW_READ_BUF, &s));
	tracefs_cpu_unmap(tcpu);
	ck_assert(!tracefs_cpu_is_mapped(tcpu));
	ck_assert_ptr_null(tcpu->map);
	tracefs_cpu_unmap(tcpu);				/* unmapped already: a no-op */
	ck_assert(!tracefs_cpu_is_mapped(tcpu));
	mark_range(5, 10, 0);
	ck_assert_int_eq(tracefs_cpu_map(tcpu), 0);
	ck_assert(tracefs_cpu_is_mapped(tcpu));
	read_all(tcpu, HOW_READ_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 10);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* libtracefs left the tcpu pointing at the freed mapping: unmap then close must be clean. */
START_TEST(test_unmap_then_read_and_close)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(true);
	mark_range(0, 50, 40);
	ck_assert(read_one(tcpu, HOW_READ_BUF, &s));
	tracefs_cpu_unmap(tcpu);
	ck_assert(!tracefs_cpu_is_mapped(tcpu));
	mark_range(50, 60, 40);
	read_all(tcpu, HOW_READ, &s);		/* read(2) now, continuing where the map stopped */
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 60);
	tracefs_cpu_close(tcpu);
	/* the instance goes away: no fd and no mapping left behind */
	fixture_teardown();
}
END_TEST

/* A drain whose sink failed leaves a piece the kernel already counted: unmap keeps it. */
START_TEST(test_unmap_keeps_untaken_piece)
{
	struct picky_sink picky = { .refuse = 1 };
	struct ring_sink_callback cb;
	char buf[4 * 4096];
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(true);
	ring_sink_memory__init(&picky.mem, buf, sizeof(buf));
	ring_sink_callback__init(&cb, picky_push, &picky);
	mark_range(0, 7, 0);
	ck_assert_int_eq(tracefs_cpu_drain(tcpu, &cb.sink), -EIO);
	tracefs_cpu_unmap(tcpu);
	ck_assert_int_gt(tracefs_cpu_drain(tcpu, &cb.sink), 0);
	seen_stream(&s, tcpu, buf, picky.mem.used);
	ck_assert_int_eq(s.events, 7);
	ck_assert(!s.disorder);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

START_TEST(test_meta_page_sanity)
{
	struct trace_buffer_meta m;
	struct tracefs_cpu *tcpu;

	SETUP(16, 0);
	tcpu = open_cpu(true);
	m = meta_of(tcpu);
	ck_assert_uint_eq(m.meta_struct_len, 80);
	ck_assert_uint_eq(m.subbuf_size, 4096);
	ck_assert_uint_eq(m.subbuf_size, tracefs_cpu_read_size(tcpu));
	ck_assert_uint_ge(m.meta_page_size, getpagesize());
	ck_assert_uint_eq(m.nr_subbufs, 16 * 1024 / 4096 + 2);	/* 16 KiB: 5 pages + reader */
	ck_assert_uint_lt(m.reader.id, m.nr_subbufs);
	ck_assert_uint_eq(m.entries, 0);
	mark_range(0, 5, 0);
	read_all(tcpu, HOW_READ_BUF, &(struct seen){ 0 });
	m = meta_of(tcpu);
	ck_assert_uint_eq(m.entries, 5);
	ck_assert_uint_eq(m.read, 5);
	ck_assert_uint_gt(m.reader.read, 0);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * libtracefs' mapped read_buf returned the same sub-buffer until the caller walked all of it:
 * a caller that does not walk must still see each sub-buffer once and come to an end.
 */
START_TEST(test_read_buf_hands_each_subbuf_once)
{
	struct tracefs_cpu *tcpu;
	const void *last = NULL;
	int calls = 0;

	SETUP(0, 0);
	tcpu = open_cpu(true);
	mark_range(0, 400, 40);
	for (struct kbuffer *kb; (kb = tracefs_cpu_read_buf(tcpu, true)); calls++) {
		unsigned long long ts;
		const void *first = kbuffer_read_event(kb, &ts);

		ck_assert_int_lt(calls, 100);
		ck_assert_ptr_ne(first, last);	/* a new sub-buffer every time, not walked */
		last = first;
	}
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_ge(calls, 3);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->chunks, calls);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->records, 400);
	ck_assert_uint_le(tcpu->sys.get_reader, calls + 1);	/* one ioctl per sub-buffer */
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* Full sub-buffers come out of the mapping itself, not a copy. */
START_TEST(test_mapped_read_buf_is_zero_copy)
{
	struct tracefs_cpu *tcpu;
	struct kbuffer *kb;

	SETUP(0, 0);
	tcpu = open_cpu(true);
	mark_range(0, 400, 40);
	kb = tracefs_cpu_read_buf(tcpu, true);
	ck_assert_ptr_nonnull(kb);
	unsigned long long ts;
	char *rec = kbuffer_read_event(kb, &ts);

	ck_assert_ptr_nonnull(rec);
	ck_assert(rec < tcpu->buffer || rec >= tcpu->buffer + tracefs_cpu_read_size(tcpu));
	ck_assert(rec < (char *)tcpu->zeros || rec >= (char *)tcpu->zeros + 4096);
	ck_assert_int_gt(kbuffer_subbuffer_size(kb), 4096 - 16 - 200);	/* a full page */
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* The writer still on the reader page: what it appends comes out next, nothing twice. */
/* _i: 0 in place (read_buf), 1 copied (read) */
START_TEST(test_writer_on_reader_page)
{
	const enum read_how how = _i ? HOW_READ : HOW_READ_BUF;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(true);
	mark_range(0, 5, 0);
	read_all(tcpu, how, &s);
	ck_assert_int_eq(s.events, 5);
	mark_range(5, 8, 0);
	read_all(tcpu, how, &s);
	ck_assert_int_eq(s.events, 8);
	mark_range(8, 10, 0);
	read_all(tcpu, how, &s);
	ck_assert_int_eq(s.events, 10);
	ck_assert(!s.disorder);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->records, 10);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* per_cpu/cpuN/stats "overrun: <n>" */
static long long stats_overrun(void)
{
	char file[64], *text, *p;
	long long n = -1;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", CPU);
	text = tracefs_instance_file_read(fx.inst, file, NULL);
	ck_assert_ptr_nonnull(text);
	p = strstr(text, "overrun:");
	ck_assert_ptr_nonnull(p);
	sscanf(p, "overrun: %lld", &n);
	free(text);
	return n;
}

/*
 * Overwrite a small buffer: the lost events reported (the marks on the sub-buffers, and the
 * stats) add up to the kernel's overrun count, on every path, also in copied sub-buffers.
 */
/*
 * 200-byte markers leave room on each page for the kernel to store the lost count after the
 * data; 26-byte ones fill pages exactly (48-byte records), so the kernel marks them MISSED
 * without a count.
 */
static const struct {
	bool mapped;
	enum read_how how;
	size_t marker;
} overrun_cases[] = {
	{ false, HOW_READ, 200 },
	{ true, HOW_READ_BUF, 200 },
	{ true, HOW_READ, 200 },		/* copies keep the mark and the count */
	{ false, HOW_READ, 26 },
	{ true, HOW_READ_BUF, 26 },
};

/*
 * Overwrite a small buffer: the lost events reported add up to the kernel's overrun count.
 * In the sub-buffers when the kernel could store the count; in the stats always when mapped
 * (the meta's overrun counter gives the count the page had no room for).
 */
START_TEST(test_overrun_reports_missed)
{
	const bool mapped = overrun_cases[_i].mapped, stored = overrun_cases[_i].marker == 200;
	const struct ring_stats *stats;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	long long overrun;

	SETUP(8, 0);
	tcpu = open_cpu(mapped);
	mark_range(0, 2000, overrun_cases[_i].marker);
	for (int calls = 0; ; calls++) {
		struct kbuffer *kb = NULL;
		_Alignas(8) char buf[4096];

		ck_assert_int_lt(calls, 10000);
		if (overrun_cases[_i].how == HOW_READ_BUF) {
			kb = tracefs_cpu_read_buf(tcpu, true);
		} else if (tracefs_cpu_read(tcpu, buf, true) > 0) {
			kb = kbuf_new(tcpu);
			kbuffer_load_subbuffer(kb, buf);
		}
		if (!kb)
			break;
		seen_kbuf(&s, kb, true);
		if (overrun_cases[_i].how != HOW_READ_BUF)
			kbuffer_free(kb);
	}
	overrun = stats_overrun();
	stats = tracefs_cpu_stats(tcpu);
	ck_assert_int_gt(overrun, 0);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events + overrun, 2000);
	ck_assert_uint_ge(stats->lost_reports, 1);
	if (mapped)
		ck_assert_int_eq(meta_of(tcpu).overrun, overrun);
	if (stored) {
		ck_assert_int_eq(s.unknown, 0);
		ck_assert_int_eq(s.lost, overrun);
	} else {
		ck_assert_int_ge(s.unknown, 1);
	}
	if (stored || mapped) {
		ck_assert_uint_eq(stats->lost, overrun);
		ck_assert_uint_eq(stats->lost_unknown, 0);
	} else {
		ck_assert_uint_ge(stats->lost_unknown, 1);
	}
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* Read everything there is now, numbers allowed to jump (overwritten events). */
static void read_all_gaps(struct tracefs_cpu *tcpu, enum read_how how, struct seen *s)
{
	for (int calls = 0;; calls++) {
		_Alignas(8) char buf[4096];
		struct kbuffer *kb = NULL;

		ck_assert_int_lt(calls, 10000);
		if (how == HOW_READ_BUF) {
			kb = tracefs_cpu_read_buf(tcpu, true);
		} else if (tracefs_cpu_read(tcpu, buf, true) > 0) {
			kb = kbuf_new(tcpu);
			kbuffer_load_subbuffer(kb, buf);
		}
		if (!kb)
			break;
		seen_kbuf(s, kb, true);
		if (how != HOW_READ_BUF)
			kbuffer_free(kb);
	}
}

/*
 * Two overruns, each read to the end: the losses reported add up to the kernel's overrun
 * count over both, not more (a mapped count kept after its mark once reported the first
 * episode again with the second: 5,865 where the kernel said 3,910).
 */
START_TEST(test_overrun_twice)
{
	const bool mapped = overrun_cases[_i].mapped, stored = overrun_cases[_i].marker == 200;
	const struct ring_stats *stats;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	long long first, overrun;

	SETUP(8, 0);
	tcpu = open_cpu(mapped);
	mark_range(0, 2000, overrun_cases[_i].marker);
	read_all_gaps(tcpu, overrun_cases[_i].how, &s);
	first = stats_overrun();
	mark_range(2000, 4000, overrun_cases[_i].marker);
	read_all_gaps(tcpu, overrun_cases[_i].how, &s);
	overrun = stats_overrun();
	stats = tracefs_cpu_stats(tcpu);
	ck_assert_int_gt(first, 0);
	ck_assert_int_gt(overrun, first);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events + overrun, 4000);
	ck_assert_uint_ge(stats->lost_reports, 2);
	if (stored)
		ck_assert_int_eq(s.lost, overrun);
	if (stored || mapped)
		ck_assert_uint_eq(stats->lost, overrun);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

START_TEST(test_resize_while_mapped_is_ebusy)
{
	struct tracefs_cpu *tcpu;

	SETUP(0, 0);
	tcpu = open_cpu(true);
	ck_assert_int_eq(tracefs_instance_set_buffer_size(fx.inst, 64, -1), -EBUSY);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(tracefs_instance_set_subbuf_size(fx.inst, 8), -EBUSY);
	tracefs_cpu_unmap(tcpu);
	ck_assert_int_eq(tracefs_instance_set_buffer_size(fx.inst, 64, -1), 0);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* 8 KiB sub-buffers: sizes come from the instance and the meta, not the top level or 4096. */
START_TEST(test_8k_subbuffers)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 8);
	tcpu = open_cpu(mapped);
	ck_assert_int_eq(tracefs_cpu_read_size(tcpu), 8192);
	if (mapped) {
		ck_assert_uint_eq(meta_of(tcpu).subbuf_size, 8192);
		ck_assert_uint_eq(meta_of(tcpu).meta_page_size, 8192);
	}
	mark_range(0, 600, 40);
	read_all(tcpu, HOW_READ, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 600);
	ck_assert_int_ge(s.subbufs, 3);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* The sub-buffer size changed after the open: mapped, the meta page's size wins. */
START_TEST(test_map_takes_subbuf_size_from_meta)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(false);
	ck_assert_int_eq(tracefs_cpu_read_size(tcpu), 4096);
	ck_assert_int_eq(tracefs_instance_set_subbuf_size(fx.inst, 8), 0);
	ck_assert_int_eq(tracefs_cpu_map(tcpu), 0);
	ck_assert_int_eq(tracefs_cpu_read_size(tcpu), 8192);
	mark_range(0, 600, 40);
	read_all(tcpu, HOW_READ, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 600);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* Clearing the buffer under the mapping: no stale events, no crash, new events come. */
START_TEST(test_reset_while_mapped)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	tcpu = open_cpu(true);
	mark_range(0, 5, 0);
	read_all(tcpu, HOW_READ_BUF, &s);
	ck_assert_int_eq(s.events, 5);
	mark_range(100, 103, 0);		/* on the reader page, not yet asked for */
	ck_assert_int_eq(tracefs_instance_clear(fx.inst), 0);
	s.next = 200;
	mark_range(200, 203, 0);
	read_all(tcpu, HOW_READ_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 8);
	/* twice, with the reader mid-page */
	ck_assert_int_eq(tracefs_instance_clear(fx.inst), 0);
	s.next = 300;
	mark_range(300, 310, 0);
	read_all(tcpu, HOW_READ_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 18);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->records, 18);	/* the resets kept the count */
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* ---------------------------------------------------------------------------------------- */
/* waiting */

static short poll_now(struct tracefs_cpu *tcpu)
{
	struct pollfd pfd = { .fd = tracefs_cpu_fd(tcpu), .events = POLLIN };

	ck_assert_int_ge(poll(&pfd, 1, 0), 0);
	return pfd.revents & POLLIN;
}

START_TEST(test_buffer_percent_poll)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct tracefs_cpu *tcpu;

	SETUP(32, 0);			/* 8 pages */
	tcpu = open_cpu(mapped);
	ck_assert_int_eq(tracefs_instance_get_buffer_percent(fx.inst), 50);
	ck_assert_int_eq(tracefs_instance_set_buffer_percent(fx.inst, 0), 0);
	ck_assert(!poll_now(tcpu));
	mark(0, 0);
	ck_assert(poll_now(tcpu));		/* 0 %: any event */
	read_all(tcpu, HOW_READ_BUF, &(struct seen){ 0 });
	ck_assert_int_eq(tracefs_instance_set_buffer_percent(fx.inst, 50), 0);
	mark_range(1, 6, 0);
	ck_assert(!poll_now(tcpu));		/* 50 %: a few events are not enough */
	mark_range(6, 1000, 100);		/* well past half of 8 pages */
	ck_assert(poll_now(tcpu));
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

struct blocked_reader {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kb;
	int err;
};

static void *blocked_read(void *arg)
{
	struct blocked_reader *r = arg;

	errno = 0;
	r->kb = tracefs_cpu_read_buf(r->tcpu, false);
	r->err = errno;
	return NULL;
}

START_TEST(test_stop_wakes_blocked_reader)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct blocked_reader r = { 0 };
	pthread_t thread;

	SETUP(0, 0);
	r.tcpu = open_cpu(mapped);
	ck_assert_int_eq(pthread_create(&thread, NULL, blocked_read, &r), 0);
	/* until it waits in poll: not a timing assertion, the stop works either way */
	while (!__atomic_load_n(&r.tcpu->sys.waits, __ATOMIC_RELAXED))
		usleep(1000);
	ck_assert_int_eq(tracefs_cpu_stop(r.tcpu), 0);
	ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_ptr_null(r.kb);
	ck_assert_int_eq(r.err, EAGAIN);
	ck_assert_uint_eq(r.tcpu->sys.waits, 1);
	/* stopped: even a blocking read returns at once, and the data can be flushed */
	mark_range(0, 3, 0);
	struct seen s = { 0 };
	struct kbuffer *kb = tracefs_cpu_read_buf(r.tcpu, false);

	ck_assert_ptr_nonnull(kb);
	seen_kbuf(&s, kb, false);
	ck_assert_ptr_null(tracefs_cpu_read_buf(r.tcpu, false));
	ck_assert_int_eq(errno, EAGAIN);
	mark_range(3, 5, 0);
	read_all(r.tcpu, HOW_FLUSH_BUF, &s);
	/* the flush brings what came after the read, and nothing the read gave already */
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 5);
	tracefs_cpu_close(r.tcpu);
	fixture_teardown();
}
END_TEST

/*
 * A blocking reader drains everything on each wakeup: with the buffer already more than
 * buffer_percent full it waits once, then takes every sub-buffer with one GET_READER each.
 * (libtracefs waited before every sub-buffer, and slept again once below the watermark.)
 */
START_TEST(test_blocking_drains_on_wakeup)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	const int n = 800;

	SETUP(64, 0);				/* 16 pages */
	tcpu = open_cpu(mapped);
	mark_range(0, n, 100);			/* ~24 pages: the ring is full */
	while (s.events < n - (int)meta_of(tcpu).overrun && !s.disorder) {
		struct kbuffer *kb = tracefs_cpu_read_buf(tcpu, false);

		ck_assert_ptr_nonnull(kb);
		seen_kbuf(&s, kb, true);
	}
	ck_assert(!s.disorder);
	/* the watermark's; mapped, one more: the writer's page is left a round (no poll) */
	ck_assert_uint_eq(tcpu->sys.waits, mapped ? 2 : 1);
	ck_assert_uint_eq(tcpu->sys.wakeups, 1);
	ck_assert_int_ge(s.subbufs, 10);
	if (mapped)
		ck_assert_uint_le(tcpu->sys.get_reader, s.subbufs + 1);
	else
		ck_assert_uint_le(tcpu->sys.reads, s.subbufs + 1);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/*
 * A blocking mapped reader does not chase the writer: the first look finds only the page the
 * writer is on and leaves it; after a round (a sleep that no event cuts short, even at
 * buffer_percent 0) it takes the page, all of it in one piece. A flush takes the rest at once.
 * Every event comes out once.
 */
START_TEST(test_blocking_leaves_writer_page)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	struct kbuffer *kb;

	SETUP(0, 0);
	ck_assert_int_eq(tracefs_instance_set_buffer_percent(fx.inst, 0), 0);
	tcpu = open_cpu(true);
	mark_range(0, 5, 0);
	kb = tracefs_cpu_read_buf(tcpu, false);
	ck_assert_ptr_nonnull(kb);
	seen_kbuf(&s, kb, false);
	ck_assert_int_eq(s.events, 5);
	/* one GET_READER: the second look found the page as the first left it */
	ck_assert_uint_eq(tcpu->sys.get_reader, 1);
	ck_assert_uint_eq(tcpu->sys.edge, 1);
	/* the first wait until data came, the second the round */
	ck_assert_uint_eq(tcpu->sys.waits, 2);
	ck_assert_uint_eq(tcpu->sys.wakeups, 1);
	mark_range(5, 9, 0);
	read_all(tcpu, HOW_FLUSH_BUF, &s);
	ck_assert_uint_eq(tcpu->sys.waits, 2);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 9);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->records, 9);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

struct producer {
	struct tracefs_cpu *tcpu;
	int events;
};

/* Write on CPU 0, then stop the reader: its blocking loop ends with what is left. */
static void *produce(void *arg)
{
	struct producer *p = arg;

	testlib_pin_cpu(CPU);
	mark_range(0, p->events, 100);
	tracefs_cpu_stop(p->tcpu);
	return NULL;
}

/*
 * Live: a producer on CPU 0, a blocking reader on CPU 1. Each wakeup must bring many
 * sub-buffers (buffer_percent 50 of 256 pages: about 128), never one per wakeup.
 */
START_TEST(test_live_wakeups_are_batched)
{
	const bool mapped = _i;	/* 0: read(2)/splice, 1: mapped */
	struct producer p = { .events = 20000 };
	struct seen s = { 0 };
	pthread_t thread;
	struct kbuffer *kb;

	SETUP(1024, 0);
	if (testlib_nr_online_cpus() < 2) {
		fixture_teardown();
		TEST_SKIP("needs a second CPU for the reader");
	}
	p.tcpu = open_cpu(mapped);
	ck_assert_int_eq(testlib_pin_cpu(1), 0);
	ck_assert_int_eq(pthread_create(&thread, NULL, produce, &p), 0);
	while ((kb = tracefs_cpu_read_buf(p.tcpu, false)))
		seen_kbuf(&s, kb, true);
	ck_assert_int_eq(errno, EAGAIN);
	pthread_join(thread, NULL);
	read_all(p.tcpu, HOW_FLUSH_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events + s.lost, p.events);
	ck_assert_int_gt(s.subbufs, 100);
	ck_assert_uint_ge(p.tcpu->sys.waits, 1);
	ck_assert_uint_le(p.tcpu->sys.waits * 4, s.subbufs);
	tracefs_cpu_close(p.tcpu);
	fixture_teardown();
}
END_TEST

/* ---------------------------------------------------------------------------------------- */
/* when mapping is refused */

/* Make every shared mmap fail with ENODEV, as the kernel does for instances it cannot map. */
static int refuse_shared_mmap(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 3),
		/* flags: the low half of args[3] on this little-endian machine */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_SHARED, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENODEV),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return seccomp_install(filter, ARRAY_SIZE(filter));
}

START_TEST(test_fallback_when_mapping_refused)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };

	SETUP(0, 0);
	ck_assert(tracefs_mapped_is_supported());
	if (refuse_shared_mmap())	/* this test runs in a process of its own */
		TEST_SKIP("no seccomp filters here (valgrind has none) to make mmap fail");
	ck_assert(!tracefs_mapped_is_supported());
	tcpu = tracefs_cpu_open_mapped(fx.inst, CPU, false);
	ck_assert_ptr_nonnull(tcpu);
	ck_assert(!tracefs_cpu_is_mapped(tcpu));
	errno = 0;
	ck_assert_int_eq(tracefs_cpu_map(tcpu), -1);
	ck_assert_int_eq(errno, ENODEV);
	ck_assert(!tracefs_cpu_is_mapped(tcpu));
	mark_range(0, 300, 40);
	read_all(tcpu, HOW_READ_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 300);
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* libtracefs 1.8: a tcpu on a trace_pipe_raw fd of the caller's; free_fd leaves the fd open. */
START_TEST(test_alloc_fd)
{
	const bool mapped = _i;
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	char file[64];
	int fd, size;

	SETUP(0, 0);
	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", CPU);
	fd = tracefs_instance_file_open(fx.inst, file, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	tcpu = open_cpu(false);
	size = tracefs_cpu_read_size(tcpu);
	tracefs_cpu_close(tcpu);

	assert_null_errno(tracefs_cpu_alloc_fd(fd, 1000, true), EINVAL);
	assert_null_errno(tracefs_cpu_alloc_fd(-1, size, true), EINVAL);
	tcpu = tracefs_cpu_alloc_fd(fd, size, false);
	ck_assert_ptr_nonnull(tcpu);
	ck_assert(fcntl(fd, F_GETFL) & O_NONBLOCK);
	ck_assert_int_eq(tracefs_cpu_fd(tcpu), fd);
	ck_assert_int_eq(tracefs_cpu_read_size(tcpu), size);
	if (mapped)
		ck_assert_int_eq(tracefs_cpu_map(tcpu), 0);
	mark_range(0, 300, 40);
	read_all(tcpu, HOW_READ_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 300);
	ck_assert_int_eq(tracefs_cpu_stop(tcpu), 0);
	tracefs_cpu_free_fd(tcpu);
	ck_assert_int_ge(fcntl(fd, F_GETFD), 0);	/* still the caller's */
	close(fd);
	tracefs_cpu_free_fd(NULL);
	fixture_teardown();
}
END_TEST

/* The snapshot buffer: read like the main one, where the kernel has one. */
START_TEST(test_snapshot_open)
{
	struct tracefs_cpu *tcpu;
	struct seen s = { 0 };
	char *path;
	bool have;

	SETUP(0, 0);
	path = tracefs_instance_get_file(fx.inst, "snapshot");
	have = !access(path, F_OK);
	tracefs_put_tracing_file(path);
	if (!have) {
		assert_null_errno(tracefs_cpu_snapshot_open(fx.inst, CPU, true), ENOENT);
		fixture_teardown();
		TEST_SKIP("no snapshot buffer in this kernel (CONFIG_TRACER_SNAPSHOT): only its ENOENT checked");
	}
	mark_range(0, 50, 40);
	ck_assert_int_gt(tracefs_instance_file_write(fx.inst, "snapshot", "1"), 0);
	tcpu = tracefs_cpu_snapshot_open(fx.inst, CPU, true);
	ck_assert_ptr_nonnull(tcpu);
	read_all(tcpu, HOW_READ_BUF, &s);
	read_all(tcpu, HOW_FLUSH_BUF, &s);
	ck_assert(!s.disorder);
	ck_assert_int_eq(s.events, 50);
	tracefs_cpu_close(tcpu);
	ck_assert_int_ge(tracefs_instance_file_write(fx.inst, "snapshot", "0"), 0);
	fixture_teardown();
}
END_TEST

/* libtracefs' 0: every waiter is woken for sure; also for a tcpu that never blocks. */
START_TEST(test_stop_returns_zero)
{
	struct tracefs_cpu *tcpu;

	SETUP(0, 0);
	tcpu = tracefs_cpu_open(fx.inst, CPU, true);
	ck_assert_ptr_nonnull(tcpu);
	ck_assert_int_eq(tracefs_cpu_stop(tcpu), 0);
	ck_assert_int_eq(tracefs_cpu_stop(tcpu), 0);	/* twice: still 0 */
	tracefs_cpu_close(tcpu);
	fixture_teardown();
}
END_TEST

/* A NULL tcpu is bad input, not a crash: every call says EINVAL or does nothing. */
START_TEST(test_null_tcpu)
{
	char buf[64];

	errno = 0;
	ck_assert_int_eq(tracefs_cpu_read(NULL, buf, true), -EINVAL);
	ck_assert_ptr_null(tracefs_cpu_read_buf(NULL, true));
	ck_assert_ptr_null(tracefs_cpu_flush_buf(NULL));
	ck_assert_int_eq(tracefs_cpu_write(NULL, 1, true), -EINVAL);
	ck_assert_int_eq(tracefs_cpu_read_size(NULL), -EINVAL);
	ck_assert_int_eq(tracefs_cpu_fd(NULL), -EINVAL);
	ck_assert_int_eq(tracefs_cpu_stop(NULL), -EINVAL);
	ck_assert_int_eq(tracefs_cpu_map(NULL), -1);
	ck_assert(!tracefs_cpu_is_mapped(NULL));
	assert_null_errno(tracefs_cpu_stats(NULL), EINVAL);
	ck_assert_ptr_null(tracefs_cpu_syscall_stats(NULL));
	tracefs_cpu_unmap(NULL);
	tracefs_cpu_close(NULL);
}
END_TEST

START_TEST(test_open_bad_cpu)
{
	SETUP(0, 0);
	assert_null_errno(tracefs_cpu_open(fx.inst, 4096, true), ENOENT);
	fixture_teardown();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tracefs-cpu");
	TCase *paths = tcase_create("paths");
	TCase *sinks = tcase_create("sinks");
	TCase *map = tcase_create("mapped");
	TCase *wait = tcase_create("waiting");

	tcase_add_loop_test(paths, test_n_events, 0, ARRAY_SIZE(n_events_cases));
	tcase_add_test(paths, test_buffered_read_leaves_partial_page_to_flush);
	tcase_add_loop_test(paths, test_no_data_is_eagain, 0, 2);
	tcase_add_test(paths, test_splice_pipe_is_sized);
	tcase_add_loop_test(paths, test_8k_subbuffers, 0, 2);
	tcase_add_test(paths, test_fallback_when_mapping_refused);
	tcase_add_test(paths, test_open_bad_cpu);
	tcase_add_test(paths, test_null_tcpu);
	tcase_add_loop_test(paths, test_alloc_fd, 0, 2);
	tcase_add_test(paths, test_snapshot_open);
	tcase_add_test(wait, test_stop_returns_zero);
	suite_add_tcase(s, paths);

	tcase_add_loop_test(sinks, test_write_to_file, 0, 2);
	tcase_add_loop_test(sinks, test_pipe, 0, 2);
	tcase_add_loop_test(sinks, test_write_into_short_socket, 0, 2);
	tcase_add_loop_test(sinks, test_write_into_full_pipe, 0, 4);
	tcase_add_loop_test(sinks, test_pipe_waits_for_room, 0, 2);
	tcase_add_loop_test(sinks, test_drain_sink_error_keeps_data, 0, 3);
	tcase_add_loop_test(sinks, test_drain_stops_at_live_page, 0, 2);
	tcase_add_loop_test(sinks, test_batch_is_bounded_by_the_buffer, 0, 3);
	tcase_add_test(sinks, test_write_to_append_file);
	tcase_add_loop_test(sinks, test_write_sends_held_page_first, 0, 2);
	tcase_add_loop_test(sinks, test_splice_pipe_sizing_fails, 0, 2);
	suite_add_tcase(s, sinks);

	tcase_add_test(map, test_map_unmap_remap);
	tcase_add_test(map, test_unmap_then_read_and_close);
	tcase_add_test(map, test_unmap_keeps_untaken_piece);
	tcase_add_test(map, test_meta_page_sanity);
	tcase_add_test(map, test_read_buf_hands_each_subbuf_once);
	tcase_add_test(map, test_mapped_read_buf_is_zero_copy);
	tcase_add_loop_test(map, test_writer_on_reader_page, 0, 2);
	tcase_add_loop_test(map, test_overrun_reports_missed, 0, ARRAY_SIZE(overrun_cases));
	tcase_add_loop_test(map, test_overrun_twice, 0, ARRAY_SIZE(overrun_cases));
	tcase_add_test(map, test_resize_while_mapped_is_ebusy);
	tcase_add_test(map, test_map_takes_subbuf_size_from_meta);
	tcase_add_test(map, test_reset_while_mapped);
	tcase_add_test(map, test_mapped_mark_counts_once_per_page);
	suite_add_tcase(s, map);

	tcase_add_loop_test(wait, test_buffer_percent_poll, 0, 2);
	tcase_add_loop_test(wait, test_stop_wakes_blocked_reader, 0, 2);
	tcase_add_loop_test(wait, test_blocking_drains_on_wakeup, 0, 2);
	tcase_add_test(wait, test_blocking_leaves_writer_page);
	tcase_add_loop_test(wait, test_live_wakeups_are_batched, 0, 2);
	suite_add_tcase(s, wait);
	return testlib_run(s);
}
