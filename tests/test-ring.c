// SPDX-License-Identifier: LGPL-2.1
/* The consumer core on a toy ring kind: spans, sinks, and the tail-after-sink rule. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/ring.h>
#include "lib/testlib.h"
#include "lib/log-capture.h"

/* A byte ring of 16 bytes whose producer position the test sets by hand. */
struct toy_ring {
	struct ring ring;
	char buf[16];
	__u64 head, tail;
	size_t chunk;		/* windows of at most this many bytes (0: all there is) */
	uint64_t edge_at;	/* a window ending here reaches the producer's live edge */
	int commit_err;		/* commit publishes, then says this */
};

static int toy__peek(struct ring *ring, const struct ring_request *req, struct ring_window *win)
{
	struct toy_ring *t = container_of(ring, struct toy_ring, ring);
	uint64_t head = ring__load_head(&t->head);

	(void)req;
	if (head == t->tail)
		return 0;
	if (t->chunk && head - t->tail > t->chunk)
		head = t->tail + t->chunk;
	ring__add_spans(win, t->buf, sizeof(t->buf), t->tail, head - t->tail);
	win->pos = head;
	win->edge = t->edge_at && head == t->edge_at;
	return 1;
}

static int toy__commit(struct ring *ring, const struct ring_request *req, struct ring_window *win,
		       size_t taken)
{
	struct toy_ring *t = container_of(ring, struct toy_ring, ring);

	(void)req;
	(void)taken;
	ring__store_tail(&t->tail, win->pos);
	return t->commit_err;
}

static const struct ring_ops toy_ops = { .peek = toy__peek, .commit = toy__commit };

static void toy__produce(struct toy_ring *t, const char *s)
{
	for (; *s; s++)
		t->buf[t->head++ % sizeof(t->buf)] = *s;
}

START_TEST(test_spans_contiguous_and_wrapped)
{
	struct ring_window win;
	char base[10];

	ring_window__reset(&win);
	ck_assert_int_eq(ring__add_spans(&win, base, 10, 23, 5), 1);
	ck_assert_ptr_eq(win.iov[0].iov_base, base + 3);
	ck_assert_uint_eq(win.iov[0].iov_len, 5);

	ring_window__reset(&win);
	ck_assert_int_eq(ring__add_spans(&win, base, 10, 27, 6), 2);
	ck_assert_ptr_eq(win.iov[0].iov_base, base + 7);
	ck_assert_uint_eq(win.iov[0].iov_len, 3);
	ck_assert_ptr_eq(win.iov[1].iov_base, base);
	ck_assert_uint_eq(win.iov[1].iov_len, 3);
	ck_assert_uint_eq(win.bytes, 6);

	ring_window__reset(&win);
	ck_assert_int_eq(ring__add_spans(&win, base, 10, 0, 0), 0);
	ck_assert_int_eq(win.iovcnt, 0);
}
END_TEST

START_TEST(test_drain_wrapped_into_memory_sink)
{
	struct toy_ring t = { 0 };
	struct ring_sink_memory mem;
	char out[64];

	ring__init(&t.ring, &toy_ops);
	ring_sink_memory__init(&mem, out, sizeof(out));
	toy__produce(&t, "0123456789abc");
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &mem.sink), 13);
	toy__produce(&t, "defghijk");	/* wraps the 16-byte ring */
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &mem.sink), 8);
	ck_assert_uint_eq(mem.used, 21);
	ck_assert(!memcmp(out, "0123456789abcdefghijk", 21));
	ck_assert_uint_eq(t.tail, 21);
	ck_assert_uint_eq(t.ring.stats.bytes, 21);
	ck_assert_uint_eq(t.ring.stats.drains, 2);
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &mem.sink), 0);
	ck_assert_uint_eq(t.ring.stats.empty, 1);
}
END_TEST

static int fail_next;

static ssize_t flaky_push(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct ring_sink_memory *mem = ctx;

	if (fail_next) {
		fail_next = 0;
		return -EIO;
	}
	return mem->sink.push(&mem->sink, iov, iovcnt);
}

START_TEST(test_failing_sink_keeps_tail)
{
	struct toy_ring t = { 0 };
	struct ring_sink_memory mem;
	struct ring_sink_callback cb;
	char out[64];

	ring__init(&t.ring, &toy_ops);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ring_sink_callback__init(&cb, flaky_push, &mem);
	toy__produce(&t, "payload");
	fail_next = 1;
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &cb.sink), -EIO);
	ck_assert_uint_eq(t.tail, 0);
	ck_assert_uint_eq(t.ring.stats.sink_errors, 1);
	ck_assert_uint_eq(t.ring.stats.bytes, 0);
	/* The next drain delivers the same bytes. */
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &cb.sink), 7);
	ck_assert(!memcmp(out, "payload", 7));
	ck_assert_uint_eq(t.tail, 7);
}
END_TEST

static ssize_t short_push(void *ctx, const struct iovec *iov, int iovcnt)
{
	(void)ctx;
	(void)iov;
	(void)iovcnt;
	return 3;
}

/* A sink that takes less than it was offered broke the contract: the bytes stay. */
START_TEST(test_short_sink_keeps_tail)
{
	struct toy_ring t = { 0 };
	struct ring_sink_callback cb;

	ring__init(&t.ring, &toy_ops);
	ring_sink_callback__init(&cb, short_push, NULL);
	toy__produce(&t, "payload");
	log_capture_start();
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &cb.sink), -EIO);
	ck_assert_msg(log_captured("took 3 of 7 bytes"), "log: %s", log_text);
	ck_assert_uint_eq(t.tail, 0);
	ck_assert_uint_eq(t.ring.stats.sink_errors, 1);
}
END_TEST

START_TEST(test_memory_sink_all_or_nothing)
{
	struct toy_ring t = { 0 };
	struct ring_sink_memory mem;
	char out[4];

	ring__init(&t.ring, &toy_ops);
	ring_sink_memory__init(&mem, out, sizeof(out));
	toy__produce(&t, "too long");
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &mem.sink), -ENOSPC);
	ck_assert_uint_eq(mem.used, 0);
	ck_assert_uint_eq(t.tail, 0);
}
END_TEST

START_TEST(test_fd_sink_short_writes)
{
	/*
	 * A pipe of one page with a reader that empties it: writev returns short counts that
	 * end inside an iovec. More iovecs than the core ever passes: a sink wrapping this one
	 * may add its own.
	 */
	struct toy_ring t = { 0 };
	struct ring_sink_fd fd_sink;
	static char big[24][3000];
	struct iovec iov[24];
	int p[2], i;
	pid_t child;

	ck_assert_int_eq(pipe(p), 0);
	fcntl(p[1], F_SETPIPE_SZ, 4096);
	for (i = 0; i < 24; i++) {
		memset(big[i], 'a' + i, sizeof(big[i]));
		iov[i].iov_base = big[i];
		iov[i].iov_len = sizeof(big[i]);
	}
	child = fork();
	if (child == 0) {
		char buf[1000];
		size_t got = 0, bad = 0;
		ssize_t n;

		close(p[1]);
		while ((n = read(p[0], buf, sizeof(buf))) > 0) {
			for (ssize_t k = 0; k < n; k++)
				bad += buf[k] != 'a' + (int)((got + k) / sizeof(big[0]));
			got += n;
		}
		_exit(got == sizeof(big) && !bad ? 0 : 1);
	}
	close(p[0]);
	ring__init(&t.ring, &toy_ops);
	ring_sink_fd__init(&fd_sink, p[1]);
	ck_assert_int_eq(fd_sink.sink.push(&fd_sink.sink, iov, 24), (ssize_t)sizeof(big));
	close(p[1]);
	int status;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

START_TEST(test_fd_sink_error)
{
	struct ring_sink_fd s;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	ring_sink_fd__init(&s, p[1]);
	ck_assert_int_eq(s.sink.push(&s.sink, &iov, 1), -EPIPE);
	close(p[1]);
}
END_TEST

START_TEST(test_fd_sink_nonblocking_full)
{
	/* A non-blocking pipe: full before the push gives -EAGAIN and writes nothing; a push
	 * larger than the pipe that starts to go out is finished whole while a reader drains. */
	static char big[3 * 65536];
	struct iovec iov = { .iov_base = big, .iov_len = sizeof(big) };
	struct ring_sink_fd s;
	char fill[4096];
	int p[2], status, sz;
	pid_t child;

	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	sz = fcntl(p[1], F_GETPIPE_SZ);
	memset(fill, 'f', sizeof(fill));
	for (int filled = 0; filled < sz; filled += sizeof(fill))
		ck_assert_int_eq(write(p[1], fill, sizeof(fill)), (ssize_t)sizeof(fill));
	ring_sink_fd__init(&s, p[1]);
	ck_assert_int_eq(s.sink.push(&s.sink, &iov, 1), -EAGAIN);

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 23);
	child = fork();
	if (child == 0) {
		static char got[sizeof(big)];
		size_t n = 0, skip = sz;
		ssize_t r;
		char c;

		close(p[1]);
		fcntl(p[0], F_SETFL, 0);
		while (skip && (r = read(p[0], &c, 1)) == 1)
			skip--;
		while (n < sizeof(got) && (r = read(p[0], got + n, sizeof(got) - n)) > 0) {
			n += r;
			usleep(100);	/* slower than the writer: short writes and EAGAIN */
		}
		_exit(n == sizeof(got) && !memcmp(got, big, sizeof(big)) &&
		      read(p[0], &c, 1) == 0 ? 0 : 1);
	}
	close(p[0]);
	/* The pipe is still full: the first writev fails, so wait until the child made room. */
	for (;;) {
		ssize_t n = s.sink.push(&s.sink, &iov, 1);

		if (n == -EAGAIN) {
			usleep(1000);
			continue;
		}
		ck_assert_int_eq(n, (ssize_t)sizeof(big));
		break;
	}
	close(p[1]);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/* The request bounds a drain: bytes, windows, or the producer's live edge unless flushing. */
START_TEST(test_request_limits)
{
	struct toy_ring t = { .chunk = 3 };
	struct ring_sink_memory mem;
	struct ring_request req = { .max_windows = 2 };
	char out[64];

	ring__init(&t.ring, &toy_ops);
	ring_sink_memory__init(&mem, out, sizeof(out));
	toy__produce(&t, "0123456789ab");
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 6);
	ck_assert_uint_eq(t.ring.stats.chunks, 2);
	req = (struct ring_request){ .max_bytes = 4 };
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 6);	/* whole windows */
	ck_assert_uint_eq(t.tail, 12);
	/* a limit reached exactly stops there too: the byte limit is inclusive */
	toy__produce(&t, "cdefgh");
	req = (struct ring_request){ .max_bytes = 3 };
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 3);
	ck_assert(req.limited);
	ck_assert_uint_eq(t.tail, 15);
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 3);

	/* A window ending at the live edge ends the drain, unless it flushes. */
	t = (struct toy_ring){ .chunk = 3, .edge_at = 6 };
	ring__init(&t.ring, &toy_ops);
	toy__produce(&t, "012345678");
	req = (struct ring_request){ 0 };
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 6);
	ck_assert(req.reached_edge);
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 3);
	ck_assert(!req.reached_edge);
	t.tail = 0;
	req = (struct ring_request){ .flush = true };
	ck_assert_int_eq(ring__drain(&t.ring, &req, &mem.sink), 9);
}
END_TEST

/* A commit that fails after publishing: the bytes count, the drain reports the error. */
START_TEST(test_commit_error_after_publish)
{
	struct toy_ring t = { .commit_err = -EBADF };
	struct ring_sink_memory mem;
	char out[64];

	ring__init(&t.ring, &toy_ops);
	ring_sink_memory__init(&mem, out, sizeof(out));
	toy__produce(&t, "abc");
	ck_assert_int_eq(ring__drain(&t.ring, &(struct ring_request){ 0 }, &mem.sink), -EBADF);
	ck_assert_uint_eq(t.tail, 3);
	ck_assert_uint_eq(t.ring.stats.bytes, 3);
	ck_assert_uint_eq(t.ring.stats.sink_errors, 0);
}
END_TEST

/*
 * A ring whose bytes wait in a pipe: a sink that splices takes them as they are, any other
 * sink gets them through a buffer, 5 bytes at a time.
 */
struct pipe_ring {
	struct ring ring;
	int p[2];
	size_t buffered;
	char buf[5];
	size_t held;
};

static int pipe_ring__peek(struct ring *ring, const struct ring_request *req,
			   struct ring_window *win)
{
	struct pipe_ring *r = container_of(ring, struct pipe_ring, ring);

	if (!r->held && r->buffered && req->sink_splices) {
		win->splice_fd = r->p[0];
		win->bytes = r->buffered;
		return 1;
	}
	if (!r->held && r->buffered) {
		r->held = r->buffered < sizeof(r->buf) ? r->buffered : sizeof(r->buf);
		ck_assert_int_eq(read(r->p[0], r->buf, r->held), (ssize_t)r->held);
		r->buffered -= r->held;
	}
	if (!r->held)
		return 0;
	ring__add_iov(win, r->buf, r->held);
	return 1;
}

static int pipe_ring__commit(struct ring *ring, const struct ring_request *req,
			     struct ring_window *win, size_t taken)
{
	struct pipe_ring *r = container_of(ring, struct pipe_ring, ring);

	(void)req;
	if (win->splice_fd >= 0)
		r->buffered -= taken;
	else
		r->held = 0;
	return 0;
}

static const struct ring_ops pipe_ring_ops = { .peek = pipe_ring__peek,
					       .commit = pipe_ring__commit };

static void pipe_ring__init(struct pipe_ring *r, const char *data)
{
	memset(r, 0, sizeof(*r));
	ring__init(&r->ring, &pipe_ring_ops);
	ck_assert_int_eq(pipe(r->p), 0);
	r->buffered = strlen(data);
	ck_assert_int_eq(write(r->p[1], data, r->buffered), (ssize_t)r->buffered);
}

static void pipe_ring__exit(struct pipe_ring *r)
{
	close(r->p[0]);
	close(r->p[1]);
}

/* _i: 0 a plain file (splice), 1 O_APPEND (splice refused: iovecs), 2 a memory sink. */
START_TEST(test_splice_window)
{
	static const char data[] = "spliced through the core";
	char path[] = "/tmp/auxtrace-ring-XXXXXX", got[64] = { 0 };
	struct ring_sink_memory mem;
	struct ring_sink_fd fd_sink;
	struct ring_sink *sink;
	struct pipe_ring r;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	unlink(path);
	if (_i == 1)
		ck_assert_int_eq(fcntl(fd, F_SETFL, O_APPEND), 0);
	ring_sink_fd__init(&fd_sink, fd);
	ring_sink_memory__init(&mem, got, sizeof(got));
	sink = _i == 2 ? &mem.sink : &fd_sink.sink;
	pipe_ring__init(&r, data);
	ck_assert_int_eq(ring__drain(&r.ring, &(struct ring_request){ 0 }, sink),
			 (ssize_t)strlen(data));
	/* one splice window, or 5-byte windows through the buffer */
	ck_assert_uint_eq(r.ring.stats.chunks, _i == 0 ? 1 : (strlen(data) + 4) / 5);
	ck_assert_uint_eq(r.ring.stats.bytes, strlen(data));
	ck_assert_uint_eq(r.ring.stats.sink_errors, 0);
	if (_i < 2)
		ck_assert_int_eq(pread(fd, got, sizeof(got), 0), (ssize_t)strlen(data));
	ck_assert_str_eq(got, data);
	pipe_ring__exit(&r);
	close(fd);
}
END_TEST

/* A splice the output cuts short: the drain stops, the rest stays in the ring for later. */
START_TEST(test_splice_cut_short)
{
	static char big[512 << 10];
	struct ring_sink_fd out;
	struct pipe_ring r = { 0 };
	int sk[2], sndbuf = 4096;
	ssize_t n;

	memset(big, 'x', sizeof(big) - 1);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sk), 0);
	ck_assert_int_eq(setsockopt(sk[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)), 0);
	ck_assert_int_eq(fcntl(sk[0], F_SETFL, O_NONBLOCK), 0);
	pipe_ring__init(&r, "");
	ck_assert_int_ge(fcntl(r.p[1], F_SETPIPE_SZ, (int)sizeof(big)), (int)sizeof(big));
	r.buffered = strlen(big);
	ck_assert_int_eq(write(r.p[1], big, r.buffered), (ssize_t)r.buffered);
	ring_sink_fd__init(&out, sk[0]);
	n = ring__drain(&r.ring, &(struct ring_request){ 0 }, &out.sink);
	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(n, (ssize_t)strlen(big));
	ck_assert_uint_eq(r.buffered, strlen(big) - n);
	ck_assert_uint_eq(r.ring.stats.bytes, (uint64_t)n);
	/* full: not a byte moves now, and nothing is lost */
	ck_assert_int_eq(ring__drain(&r.ring, &(struct ring_request){ 0 }, &out.sink), -EAGAIN);
	ck_assert_uint_eq(r.buffered, strlen(big) - n);
	pipe_ring__exit(&r);
	close(sk[0]);
	close(sk[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_spans_contiguous_and_wrapped);
	tcase_add_test(tc, test_drain_wrapped_into_memory_sink);
	tcase_add_test(tc, test_failing_sink_keeps_tail);
	tcase_add_test(tc, test_short_sink_keeps_tail);
	tcase_add_test(tc, test_memory_sink_all_or_nothing);
	tcase_add_test(tc, test_fd_sink_short_writes);
	tcase_add_test(tc, test_fd_sink_error);
	tcase_add_test(tc, test_fd_sink_nonblocking_full);
	tcase_add_test(tc, test_request_limits);
	tcase_add_test(tc, test_commit_error_after_publish);
	tcase_add_loop_test(tc, test_splice_window, 0, 3);
	tcase_add_test(tc, test_splice_cut_short);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
