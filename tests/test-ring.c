// SPDX-License-Identifier: LGPL-2.1
/* The consumer core on a toy ring kind: spans, sinks, and the tail-after-sink rule. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
};

static int toy__peek(struct ring *ring, struct ring_window *win)
{
	struct toy_ring *t = container_of(ring, struct toy_ring, ring);
	uint64_t head = ring__load_head(&t->head);

	if (head == t->tail)
		return 0;
	ring__add_spans(win, t->buf, sizeof(t->buf), t->tail, head - t->tail);
	win->pos = head;
	return 1;
}

static int toy__commit(struct ring *ring, const struct ring_window *win)
{
	struct toy_ring *t = container_of(ring, struct toy_ring, ring);

	ring__store_tail(&t->tail, win->pos);
	return 0;
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
	ck_assert_int_eq(ring__drain(&t.ring, &mem.sink, 0), 13);
	toy__produce(&t, "defghijk");	/* wraps the 16-byte ring */
	ck_assert_int_eq(ring__drain(&t.ring, &mem.sink, 0), 8);
	ck_assert_uint_eq(mem.used, 21);
	ck_assert(!memcmp(out, "0123456789abcdefghijk", 21));
	ck_assert_uint_eq(t.tail, 21);
	ck_assert_uint_eq(t.ring.stats.bytes, 21);
	ck_assert_uint_eq(t.ring.stats.drains, 2);
	ck_assert_int_eq(ring__drain(&t.ring, &mem.sink, 0), 0);
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
	ck_assert_int_eq(ring__drain(&t.ring, &cb.sink, 0), -EIO);
	ck_assert_uint_eq(t.tail, 0);
	ck_assert_uint_eq(t.ring.stats.sink_errors, 1);
	ck_assert_uint_eq(t.ring.stats.bytes, 0);
	/* The next drain delivers the same bytes. */
	ck_assert_int_eq(ring__drain(&t.ring, &cb.sink, 0), 7);
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
	ck_assert_int_eq(ring__drain(&t.ring, &cb.sink, 0), -EIO);
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
	ck_assert_int_eq(ring__drain(&t.ring, &mem.sink, 0), -ENOSPC);
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
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
