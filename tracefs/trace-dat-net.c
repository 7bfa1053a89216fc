// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace-cmd network client (protocol version 3, as trace-cmd listen 3.x serves it): the
 * session from the handshake to CLOSE, and the per-CPU sinks that stream sub-buffers to the
 * collector, or into a local fallback writer once the collector is gone.
 *
 * Session: the listener greets with "tracecmd"; we answer "-1V3\0", it says "V3\0"; we send
 * the 8-byte magic "766679\0\0", it says "OK". Then messages: TINIT (CPUs, page size, the
 * option "tcp": TCP data connections), RINIT back (one port per CPU), the description of the
 * instance as SEND_DATA pieces and FIN_DATA (a version 7 trace.dat up to its options, which
 * the listener completes with the data), one TCP connection per CPU carrying whole
 * sub-buffers, and CLOSE at the end. The listener drops a client silent for 5 s before the
 * description is complete, so it is built before we connect.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/opts.h>
#include <tracefs/tracefs.h>
#include <tracefs/trace-dat-net.h>
#include "trace-dat-internal.h"
#include "trace-net-internal.h"
#include "tracefs-internal.h"

#define TN_TIMEOUT_MS		5000
/* After CLOSE the listener waits 2 s for its readers, then writes the file. */
#define TN_CLOSE_GRACE_MS	2000

struct tn_cpu {
	struct ring_sink sink;
	struct trace_dat_net *net;
	int cpu;
	int fd;				/* the data connection, -1 once closed */
};

struct trace_dat_net {
	char *where;			/* HOST:PORT as given, for messages */
	int ctl;			/* the control connection */
	int timeout_ms;
	int nr_cpus;
	struct tn_cpu *cpus;
	struct rb_layout rb;		/* to count the events of a sub-buffer */
	char *scratch;			/* one sub-buffer gathered from pieces, to count it */
	struct trace_dat_writer *fallback;
	bool closed;			/* finish was called */
	struct trace_dat_net_stats stats;
};

/* The description of the instance: a version 7 trace.dat up to its options, in a memfd. */
static int tn__prefix(struct tracefs_instance *inst, const struct trace_dat_net_opts *o,
		      int nr_cpus, unsigned int *page_size, uint64_t *len)
{
	struct td_events events = { 0 };
	struct td_layout layout;
	struct td_out *out = malloc(sizeof(*out));
	char *clock = NULL, *version = NULL;
	int fd = memfd_create("trace.dat prefix", MFD_CLOEXEC), err;

	err = fd < 0 ? -errno : !out ? -ENOMEM : td_layout__read(&layout, inst);
	if (!err)
		err = td_events__add_list(&events, inst, o->events);
	if (!err && !(clock = td_meta__read_clock(inst)))
		err = -errno;
	if (!err && o->version)
		version = strdup(o->version);
	else if (!err && asprintf(&version, "libauxtrace %s", libauxtrace_version()) < 0)
		version = NULL;
	if (!err && !version)
		err = -ENOMEM;
	if (!err) {
		struct td_v7_params p = {
			.inst = inst, .layout = &layout, .events = &events, .clock = clock,
			.version = version, .nr_cpus = nr_cpus, .level = o->compression_level,
		};

		td_out__init(out, fd);
		*len = td_v7__write(out, &p);
		err = td_out__flush(out);
		*page_size = layout.page_size;
	}
	td_events__exit(&events);
	free(version);
	free(clock);
	free(out);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

/* bytes as text a person can read in a message: printable ASCII, the rest as '.'. */
static void tn__show(const char *bytes, size_t len, char *text)
{
	for (size_t i = 0; i < len; i++)
		text[i] = bytes[i] >= 0x20 && bytes[i] < 0x7f ? bytes[i] : '.';
	text[len] = '\0';
}

/* A handshake reply of len bytes that must be want. 0, or -EPROTO/-errno, said. */
static int tn__expect(struct trace_dat_net *n, const char *want, size_t len, const char *step)
{
	char got[16], text[17];
	int err = tn_read(n->ctl, got, len, n->timeout_ms);

	if (err == -ETIMEDOUT)
		pr_err("trace-cmd collector %s did not answer %s within %d ms: is it a trace-cmd listen server?\n",
		       n->where, step, n->timeout_ms);
	else if (err == -EPIPE || err == -ECONNRESET)
		pr_err("trace-cmd collector %s hung up at %s: is it a trace-cmd listen server (3.x)?\n",
		       n->where, step);
	else if (err)
		pr_err("trace-cmd collector %s: %s: %s\n", n->where, step, strerror(-err));
	if (err)
		return err;
	if (!memcmp(got, want, len))
		return 0;
	tn__show(got, len, text);
	if (!strcmp(step, "the protocol version") && !got[0])
		pr_err("trace-cmd collector %s speaks only trace-cmd's old protocol (version 1): run trace-cmd listen 2.9 or later there\n",
		       n->where);
	else
		pr_err("trace-cmd collector %s is not a trace-cmd listen server: for %s it sent '%s' where trace-cmd sends '%s'\n",
		       n->where, step, text, want);
	return -EPROTO;
}

/* Greeting, protocol version 3, the magic. 0 or -errno, said. */
static int tn__handshake(struct trace_dat_net *n)
{
	static const char v3[] = "-1V3", magic[8] = "766679";	/* both with their NULs */
	struct iovec iov = { (void *)v3, sizeof(v3) };
	int err = tn__expect(n, "tracecmd", 8, "the greeting");

	if (!err && (err = tn_writev(n->ctl, &iov, 1)) == 0)
		err = tn__expect(n, "V3", 3, "the protocol version");
	iov = (struct iovec){ (void *)magic, sizeof(magic) };
	if (!err && (err = tn_writev(n->ctl, &iov, 1)) == 0)
		err = tn__expect(n, "OK", 2, "the magic");
	return err;
}

/* TINIT out, RINIT back: the ports of the CPUs' data connections into ports. */
static int tn__init(struct trace_dat_net *n, unsigned int page_size, unsigned int *ports)
{
	uint32_t tinit[3] = { htonl(n->nr_cpus), htonl(page_size), htonl(1) };
	struct tn_msg *m = malloc(sizeof(*m));
	int err = m ? tn_msg__send(n->ctl, TN_MSG_TINIT, tinit, sizeof(tinit), "tcp", 4) : -ENOMEM;

	if (!err)
		err = tn_msg__recv(n->ctl, m, n->timeout_ms, n->where);
	if (!err)
		err = tn_msg__ports(m, n->nr_cpus, ports, n->where);
	if (err == -ETIMEDOUT || err == -EPIPE || err == -ECONNRESET)
		pr_err("trace-cmd collector %s %s instead of giving the data ports\n", n->where,
		       err == -ETIMEDOUT ? "went silent" : "hung up");
	free(m);
	return err;
}

/*
 * One TCP connection per CPU. The listener's reader of a port calls listen() after it sends
 * the ports, so a refusal is retried until the timeout.
 */
static int tn__connect_cpus(struct trace_dat_net *n, const struct sockaddr_storage *addr,
			    socklen_t addr_len, const unsigned int *ports)
{
	for (int cpu = 0; cpu < n->nr_cpus; cpu++) {
		int fd = -ECONNREFUSED;

		for (int waited = 0; fd == -ECONNREFUSED && waited <= n->timeout_ms; waited += 10) {
			fd = tn_connect_port(addr, addr_len, ports[cpu], n->timeout_ms);
			if (fd == -ECONNREFUSED)
				nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
		}
		if (fd < 0) {
			pr_err("trace-cmd collector %s: cannot open the data connection of CPU %d (port %u): %s\n",
			       n->where, cpu, ports[cpu], strerror(-fd));
			return fd;
		}
		tn_send_timeout(fd, n->timeout_ms);
		n->cpus[cpu].fd = fd;
	}
	return 0;
}

/* Whether the collector is still there: it sends nothing while we record, so any input,
 * end of file or error on the control or the CPU's connection says it left. */
static bool tn__alive(struct trace_dat_net *n, struct tn_cpu *c)
{
	struct pollfd pfd[2] = {
		{ .fd = n->ctl, .events = POLLIN | POLLRDHUP },
		{ .fd = c->fd, .events = POLLIN | POLLRDHUP },
	};

	return poll(pfd, 2, 0) == 0;
}

/* The collector is gone: say so once, close every connection, keep the rest locally. */
static void tn__lose(struct trace_dat_net *n, int err)
{
	if (n->stats.lost_collector)
		return;
	n->stats.lost_collector = err;
	pr_err("trace-cmd collector %s went away while recording (%s), after %llu events (%.1f KiB) were sent to it; %s\n",
	       n->where, err == -ETIMEDOUT ? "it took nothing for the timeout" :
	       err == -ECONNRESET || err == -EPIPE ? "it closed the connection" : strerror(-err),
	       (unsigned long long)n->stats.sent_events, n->stats.sent_bytes / 1024.0,
	       n->fallback ? "the events recorded from now on are kept locally" :
	       "the events recorded from now on stay in the rings (no local fallback)");
	for (int cpu = 0; cpu < n->nr_cpus; cpu++) {
		if (n->cpus[cpu].fd >= 0)
			close(n->cpus[cpu].fd);
		n->cpus[cpu].fd = -1;
	}
	close(n->ctl);
	n->ctl = -1;
}

/* The events of a push of whole sub-buffers; one split across pieces is gathered first. */
static uint64_t tn__count(struct trace_dat_net *n, const struct iovec *iov, int iovcnt,
			  size_t total)
{
	size_t page = n->rb.subbuf_size, off = 0;
	uint64_t nr = 0;

	for (size_t at = 0; at < total; at += page) {
		while (iovcnt && off >= iov->iov_len) {
			off -= iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iov->iov_len - off >= page) {
			nr += rb_page__nr_events((const char *)iov->iov_base + off, &n->rb);
			off += page;
			continue;
		}
		for (size_t got = 0; got < page; ) {
			size_t take = iov->iov_len - off < page - got ? iov->iov_len - off : page - got;

			memcpy(n->scratch + got, (const char *)iov->iov_base + off, take);
			got += take;
			off += take;
			if (off == iov->iov_len && iovcnt > 1) {
				iov++;
				iovcnt--;
				off = 0;
			}
		}
		nr += rb_page__nr_events(n->scratch, &n->rb);
	}
	return nr;
}

static ssize_t tn_cpu__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	struct tn_cpu *c = container_of(sink, struct tn_cpu, sink);
	struct trace_dat_net *n = c->net;
	struct ring_sink *keep;
	size_t total = 0;
	uint64_t events;
	ssize_t taken;
	int err;

	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	if (n->closed || total % n->rb.subbuf_size) {
		pr_err("trace-cmd collector %s, CPU %d: %s\n", n->where, c->cpu, n->closed ?
		       "the session is finished: no more data" :
		       "a push that is not whole sub-buffers: feed the sink from a tracefs_cpu of the instance");
		return -EINVAL;
	}
	events = tn__count(n, iov, iovcnt, total);
	if (!n->stats.lost_collector) {
		err = tn__alive(n, c) ? tn_writev(c->fd, iov, iovcnt) : -ECONNRESET;
		if (!err) {
			n->stats.sent_bytes += total;
			n->stats.sent_events += events;
			return total;
		}
		tn__lose(n, err);
	}
	if (!n->fallback)
		return -EPIPE;
	keep = trace_dat_writer__cpu_sink(n->fallback, c->cpu);
	taken = keep ? keep->push(keep, iov, iovcnt) : -errno;
	if (taken > 0) {
		n->stats.kept_bytes += taken;
		n->stats.kept_events += events;
	}
	return taken;
}

static int tn__open(struct trace_dat_net *n, const char *where, struct tracefs_instance *inst,
		    const struct trace_dat_net_opts *o)
{
	struct sockaddr_storage addr;
	socklen_t addr_len;
	unsigned int page_size = 0, *ports = NULL;
	uint64_t len = 0;
	int prefix, err;

	n->where = strdup(where);
	n->nr_cpus = o->nr_cpus ?: (int)sysconf(_SC_NPROCESSORS_CONF);
	n->timeout_ms = o->timeout_ms ?: TN_TIMEOUT_MS;
	n->fallback = o->fallback;
	if (!n->where)
		return -ENOMEM;
	if (n->nr_cpus <= 0 || n->nr_cpus > 65536 || n->timeout_ms < 0 ||
	    o->compression_level < 0 || o->compression_level > 22) {
		pr_err("trace_dat_net_opts: nr_cpus %d (1..65536), timeout_ms %d (>= 0) or compression_level %d (0..22) out of range\n",
		       n->nr_cpus, n->timeout_ms, o->compression_level);
		return -EINVAL;
	}
	err = rb_layout__read(&n->rb, inst);
	if (err)
		return err;
	n->scratch = malloc(n->rb.subbuf_size);
	n->cpus = calloc(n->nr_cpus, sizeof(*n->cpus));
	ports = calloc(n->nr_cpus, sizeof(*ports));
	if (!n->scratch || !n->cpus || !ports) {
		free(ports);
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < n->nr_cpus; cpu++)
		n->cpus[cpu] = (struct tn_cpu){ .sink.push = tn_cpu__push, .net = n, .cpu = cpu,
						.fd = -1 };
	prefix = tn__prefix(inst, o, n->nr_cpus, &page_size, &len);
	if (prefix < 0) {
		free(ports);
		return prefix;
	}
	n->ctl = tn_connect(where, n->timeout_ms, &addr, &addr_len);
	err = n->ctl < 0 ? n->ctl : tn__handshake(n);
	if (!err)
		tn_send_timeout(n->ctl, n->timeout_ms);
	if (!err)
		err = tn__init(n, page_size, ports);
	if (!err && (err = tn_msg__send_file(n->ctl, prefix, len)) != 0)
		pr_err("trace-cmd collector %s: sending the description of the events: %s\n",
		       where, strerror(-err));
	if (!err)
		err = tn__connect_cpus(n, &addr, addr_len, ports);
	close(prefix);
	free(ports);
	return err;
}

struct trace_dat_net *trace_dat_net__connect(const char *where, struct tracefs_instance *inst,
					     const struct trace_dat_net_opts *opts)
{
	struct trace_dat_net_opts o;
	struct trace_dat_net *n;
	int err;

	if (!where)
		return libauxtrace__ptr_err(-EINVAL);
	err = opts__copy(trace_dat_net_opts, &o, opts);
	if (err)
		return libauxtrace__ptr_err(err);
	n = calloc(1, sizeof(*n));
	if (!n)
		return libauxtrace__ptr_err(-ENOMEM);
	n->ctl = -1;
	err = tn__open(n, where, inst, &o);
	if (err) {
		trace_dat_net__delete(n);
		return libauxtrace__ptr_err(err);
	}
	return n;
}

struct ring_sink *trace_dat_net__cpu_sink(struct trace_dat_net *n, int cpu)
{
	if (!n || cpu < 0 || cpu >= n->nr_cpus) {
		if (n)
			pr_err("CPU %d is outside the %d CPUs sent to trace-cmd collector %s\n", cpu,
			       n->nr_cpus, n->where);
		return libauxtrace__ptr_err(-EINVAL);
	}
	return &n->cpus[cpu].sink;
}

/*
 * Wait until the peer of fd hangs up, at most timeout_ms. 0, or -ETIMEDOUT, -ECONNRESET (a
 * reset: the peer died with data of ours unread), -errno.
 */
static int tn__wait_hangup(int fd, int timeout_ms)
{
	char byte;
	int err;

	do
		err = tn_read(fd, &byte, 1, timeout_ms);
	while (!err);		/* nothing is expected: read past whatever comes */
	return err == -EPIPE ? 0 : err;
}

int trace_dat_net__finish(struct trace_dat_net *n)
{
	int err = 0;

	if (!n || n->closed) {
		if (n)
			pr_err("trace-cmd collector %s: trace_dat_net__finish() called twice\n",
			       n->where);
		return libauxtrace__err(-EINVAL);
	}
	n->closed = true;
	/*
	 * Each reader of the listener writes what it read until our end of file, then exits,
	 * which hangs up its connection: after that hangup nothing of ours is in flight, and
	 * CLOSE, which makes the listener stop its readers a second later, loses nothing.
	 */
	for (int cpu = 0; cpu < n->nr_cpus && !n->stats.lost_collector; cpu++) {
		struct tn_cpu *c = &n->cpus[cpu];

		/* a collector that hung up before we did died: its hangup says nothing */
		err = !tn__alive(n, c) ? -ECONNRESET : shutdown(c->fd, SHUT_WR) < 0 ? -errno :
		      tn__wait_hangup(c->fd, n->timeout_ms);
		if (err == -ETIMEDOUT) {
			pr_err("trace-cmd collector %s did not finish reading CPU %d's data within %d ms\n",
			       n->where, cpu, n->timeout_ms);
			return libauxtrace__err(err);
		}
		if (err)
			tn__lose(n, err);
	}
	if (!n->stats.lost_collector) {
		err = tn_msg__send(n->ctl, TN_MSG_CLOSE, NULL, 0, NULL, 0);
		if (err)
			tn__lose(n, err);
	}
	/* the listener hangs up once its trace.dat is written */
	if (!n->stats.lost_collector &&
	    tn__wait_hangup(n->ctl, TN_CLOSE_GRACE_MS + n->timeout_ms) == -ETIMEDOUT)
		pr_warn("trace-cmd collector %s has not hung up within %d ms of CLOSE: it may still be writing its trace.dat\n",
			n->where, TN_CLOSE_GRACE_MS + n->timeout_ms);
	return libauxtrace__err(n->stats.lost_collector ? -EPIPE : 0);
}

const struct trace_dat_net_stats *trace_dat_net__stats(const struct trace_dat_net *n)
{
	return n ? &n->stats : NULL;
}

void trace_dat_net__delete(struct trace_dat_net *n)
{
	if (!n)
		return;
	for (int cpu = 0; n->cpus && cpu < n->nr_cpus; cpu++)
		if (n->cpus[cpu].fd >= 0)
			close(n->cpus[cpu].fd);
	if (n->ctl >= 0)
		close(n->ctl);
	free(n->cpus);
	free(n->scratch);
	free(n->where);
	free(n);
}
