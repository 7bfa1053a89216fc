// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace-cmd network client against a fake collector that checks the protocol byte by
 * byte, as trace-cmd listen 3.1.6 reads it: the handshake strings with their NULs, every
 * message's big-endian header and size (8192 bytes at most), TINIT with the "tcp" option,
 * the description ending in FIN_DATA and starting as a version 7 trace.dat, each CPU's data
 * connection carrying exactly the sub-buffers pushed, each one ended before CLOSE. A collector
 * that hangs up mid-session sends the rest to the fallback writer, counted; one that does
 * not speak the protocol fails the connect. (test-auxrec-net.sh runs the real trace-cmd
 * listen.) Each test uses a tracefs instance of its own, for its sub-buffer layout.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <trace-dat.h>
#include <trace-dat-net.h>
#include <tracefs.h>
#include "lib/log-capture.h"
#include "lib/testlib.h"

#define NR_CPUS		2
#define PAGE		4096
#define EVENTS		100	/* 12-byte events per synthetic sub-buffer */

enum fake_mode { FAKE_GOOD, FAKE_HANGS_UP, FAKE_NOT_TRACECMD };

struct fake {
	enum fake_mode mode;
	int ctl, data[NR_CPUS];		/* listening sockets */
	unsigned short port, data_port[NR_CPUS];
	/* what it saw */
	bool handshake_ok, tinit_ok, closed;
	size_t max_msg, meta_len, data_len[NR_CPUS];
	char meta[10];			/* the description's first bytes: magic, "tracing" */
};

static int listen_any(unsigned short *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(fd, 4), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static bool read_all(int fd, void *buf, size_t len)
{
	for (size_t done = 0; done < len; ) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0)
			return false;
		done += n;
	}
	return true;
}

/* One message: false at end of file or for a header trace-cmd listen would refuse. */
static bool fake_msg(struct fake *f, int fd, uint32_t *cmd, char *body, uint32_t *len)
{
	uint32_t hdr[3], size;

	if (!read_all(fd, hdr, sizeof(hdr)))
		return false;
	size = ntohl(hdr[0]);
	*cmd = ntohl(hdr[1]);
	if (size < 12 || size > 8192 || ntohl(hdr[2]) > size - 12)
		return false;
	if (size > f->max_msg)
		f->max_msg = size;
	*len = size - 12;
	return read_all(fd, body, *len);
}

static void *fake_run(void *arg)
{
	struct fake *f = arg;
	char buf[8192], rinit[64];
	uint32_t cmd, len, fixed[3];
	int c = accept(f->ctl, NULL, NULL), d[NR_CPUS], n = 4;

	if (f->mode == FAKE_NOT_TRACECMD) {
		write(c, "HTTP/1.1", 8);
		read(c, buf, 1);
		close(c);
		return NULL;
	}
	write(c, "tracecmd", 8);
	f->handshake_ok = read_all(c, buf, 5) && !memcmp(buf, "-1V3", 5);
	write(c, "V3", 3);
	f->handshake_ok &= read_all(c, buf, 8) && !memcmp(buf, "766679\0", 8);
	write(c, "OK", 2);
	/* TINIT: cpus, page size, one option, "tcp" */
	if (!fake_msg(f, c, &cmd, buf, &len))
		goto out;
	memcpy(fixed, buf, sizeof(fixed));
	f->tinit_ok = cmd == 1 && len == 16 && ntohl(fixed[0]) == NR_CPUS &&
		      ntohl(fixed[1]) == PAGE && ntohl(fixed[2]) == 1 && !memcmp(buf + 12, "tcp", 4);
	/* RINIT: the ports as decimal strings */
	fixed[0] = htonl(NR_CPUS);
	memcpy(rinit + 12, fixed, 4);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += sprintf(rinit + 12 + n, "%u", f->data_port[cpu]) + 1;
	((uint32_t *)rinit)[0] = htonl(12 + n);
	((uint32_t *)rinit)[1] = htonl(2);
	((uint32_t *)rinit)[2] = htonl(4);
	write(c, rinit, 12 + n);
	while (fake_msg(f, c, &cmd, buf, &len) && cmd == 3) {
		if (!f->meta_len)
			memcpy(f->meta, buf, sizeof(f->meta));
		f->meta_len += len;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		d[cpu] = accept(f->data[cpu], NULL, NULL);
	if (f->mode == FAKE_HANGS_UP) {
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			close(d[cpu]);
		goto out;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		ssize_t got;

		while ((got = read(d[cpu], buf, sizeof(buf))) > 0)
			f->data_len[cpu] += got;
		close(d[cpu]);		/* the reader's exit, which the client waits for */
	}
	f->closed = fake_msg(f, c, &cmd, buf, &len) && cmd == 0 && len == 0;
out:
	close(c);
	return NULL;
}

static void fake_start(struct fake *f, pthread_t *t)
{
	f->ctl = listen_any(&f->port);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		f->data[cpu] = listen_any(&f->data_port[cpu]);
	ck_assert_int_eq(pthread_create(t, NULL, fake_run, f), 0);
}

static void fake_stop(struct fake *f, pthread_t t)
{
	pthread_join(t, NULL);
	close(f->ctl);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		close(f->data[cpu]);
}

/* A sub-buffer of EVENTS 12-byte events (type_len 2), as the kernel lays one out. */
static void make_page(char *page)
{
	uint64_t commit = EVENTS * 12;

	memset(page, 0, PAGE);
	memcpy(page + 8, &commit, sizeof(commit));
	for (int i = 0; i < EVENTS; i++) {
		uint32_t word = 2 | (1u << 5);	/* type_len 2, delta 1 */

		memcpy(page + 16 + i * 12, &word, 4);
	}
}

static struct tracefs_instance *instance(void)
{
	char name[64];
	struct tracefs_instance *inst;

	testlib_instance_name(name, sizeof(name));
	inst = tracefs_instance_create(name);
	ck_assert_ptr_nonnull(inst);
	return inst;
}

static void instance_done(struct tracefs_instance *inst)
{
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
}

static struct trace_dat_net *connect_fake(struct fake *f, struct tracefs_instance *inst,
					  struct trace_dat_writer *fallback)
{
	AUXTRACE_OPTS(trace_dat_net_opts, o, .nr_cpus = NR_CPUS, .timeout_ms = 2000,
		      .fallback = fallback);
	char where[32];

	snprintf(where, sizeof(where), "127.0.0.1:%u", f->port);
	return trace_dat_net__connect(where, inst, &o);
}

START_TEST(test_session_as_trace_cmd_listen_reads_it)
{
	static char page[2 * PAGE];
	struct fake f = { .mode = FAKE_GOOD };
	struct tracefs_instance *inst;
	struct trace_dat_net *n;
	struct iovec iov = { page, sizeof(page) };
	pthread_t t;

	TEST_REQUIRE_ROOT();
	inst = instance();
	if (getpagesize() != PAGE)
		TEST_SKIP("the synthetic sub-buffers are 4 KiB, the default on 4 KiB pages");
	make_page(page);
	make_page(page + PAGE);
	fake_start(&f, &t);
	n = connect_fake(&f, inst, NULL);
	ck_assert_ptr_nonnull(n);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct ring_sink *s = trace_dat_net__cpu_sink(n, cpu);

		ck_assert_int_eq(s->push(s, &iov, 1), (ssize_t)sizeof(page));
	}
	ck_assert_int_eq(trace_dat_net__finish(n), 0);
	ck_assert_int_eq(trace_dat_net__stats(n)->sent_events, 2 * NR_CPUS * EVENTS);
	ck_assert_int_eq(trace_dat_net__stats(n)->sent_bytes, NR_CPUS * sizeof(page));
	fake_stop(&f, t);
	ck_assert(f.handshake_ok);
	ck_assert(f.tinit_ok);
	ck_assert_uint_le(f.max_msg, 8192);
	ck_assert_uint_gt(f.meta_len, 8192);	/* it took pieces, kallsyms alone is larger */
	ck_assert_mem_eq(f.meta, "\x17\x08\x44tracing", 10);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		ck_assert_uint_eq(f.data_len[cpu], sizeof(page));
	ck_assert(f.closed);
	trace_dat_net__delete(n);
	instance_done(inst);
}
END_TEST

START_TEST(test_collector_gone_fallback_keeps_the_rest)
{
	static char page[PAGE];
	char dir[] = "/tmp/test-tdn-XXXXXX", path[64];
	struct fake f = { .mode = FAKE_HANGS_UP };
	struct tracefs_instance *inst;
	struct trace_dat_writer *w;
	struct trace_dat_net *n;
	struct iovec iov = { page, sizeof(page) };
	struct ring_sink *s;
	pthread_t t;

	TEST_REQUIRE_ROOT();
	if (getpagesize() != PAGE)
		TEST_SKIP("the synthetic sub-buffers are 4 KiB, the default on 4 KiB pages");
	inst = instance();
	make_page(page);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	w = trace_dat_writer__new(path, inst, &(struct trace_dat_writer_opts){
		.sz = sizeof(struct trace_dat_writer_opts), .nr_cpus = NR_CPUS });
	ck_assert_ptr_nonnull(w);
	fake_start(&f, &t);
	n = connect_fake(&f, inst, w);
	ck_assert_ptr_nonnull(n);
	fake_stop(&f, t);		/* it hung up every connection */
	s = trace_dat_net__cpu_sink(n, 1);
	log_capture_start();
	ck_assert_int_eq(s->push(s, &iov, 1), PAGE);
	log_capture_stop();
	ck_assert_msg(log_captured("went away while recording") && log_captured("kept locally"),
		      "%s", log_text);
	ck_assert_int_eq(trace_dat_net__stats(n)->kept_events, EVENTS);
	ck_assert_int_eq(trace_dat_net__stats(n)->sent_events, 0);
	ck_assert_int_eq(trace_dat_net__finish(n), -EPIPE);
	ck_assert_int_eq(trace_dat_writer__finish(w), 0);
	ck_assert_int_eq(access(path, R_OK), 0);
	trace_dat_net__delete(n);
	trace_dat_writer__delete(w);
	unlink(path);
	rmdir(dir);
	instance_done(inst);
}
END_TEST

START_TEST(test_not_trace_cmd_refused)
{
	struct fake f = { .mode = FAKE_NOT_TRACECMD };
	struct tracefs_instance *inst;
	pthread_t t;

	TEST_REQUIRE_ROOT();
	inst = instance();
	fake_start(&f, &t);
	log_capture_start();
	assert_null_errno(connect_fake(&f, inst, NULL), EPROTO);
	log_capture_stop();
	ck_assert_msg(log_captured("is not a trace-cmd listen server") &&
		      log_captured("'HTTP/1.1'"), "%s", log_text);
	fake_stop(&f, t);
	instance_done(inst);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace-dat-net");
	TCase *tc = tcase_create("net");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_session_as_trace_cmd_listen_reads_it);
	tcase_add_test(tc, test_collector_gone_fallback_keeps_the_rest);
	tcase_add_test(tc, test_not_trace_cmd_refused);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
