/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A trace-cmd network client: the ftrace data of one tracefs instance sent to a
 * `trace-cmd listen` server (trace-cmd 3.x), which writes a trace.dat of it, as
 * `trace-cmd record -N HOST:PORT -t` does. Protocol version 3: the control connection's
 * handshake, the description of the instance (a version 7 trace.dat without its data) in
 * framed messages, then one TCP data connection per CPU that takes the CPU's sub-buffers as
 * the ring hands them out; at the end each data connection is closed once the collector read
 * it all, and CLOSE tells the collector to write its file.
 *
 *	n = trace_dat_net__connect("collector:12345", inst, &opts);
 *	per CPU:  tracefs_cpu_drain(tcpu, trace_dat_net__cpu_sink(n, cpu));
 *	at the end: tracefs_cpu_flush_drain(tcpu, sink) for every CPU, then
 *	err = trace_dat_net__finish(n);
 *	trace_dat_net__delete(n);
 *
 * If the collector goes away while recording (it closes a connection, resets it, or takes
 * nothing for the timeout), the log callback says so, naming it, and the sinks write into
 * trace_dat_net_opts.fallback, a trace.dat writer of the caller's, from that sub-buffer on:
 * what the rings still hold is kept locally, and trace_dat_net__stats() counts what went
 * where. Without a fallback the sinks fail (-EPIPE) and the data stays in the rings.
 *
 * The description is sent when the connection is made, as trace-cmd does: the saved
 * cmdlines (pid -> comm) are those of that moment, so tasks started later show as <...> in
 * trace-cmd report of the collector's file. Each wait on the collector is bounded by the
 * timeout: nothing here blocks for ever on a peer. Errors are -errno, and the log callback
 * gets a message naming the collector, the cause and the fix.
 */
#ifndef AUXTRACE_TRACE_DAT_NET_H
#define AUXTRACE_TRACE_DAT_NET_H

#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tracefs_instance;
struct trace_dat_writer;
struct trace_dat_net;

struct trace_dat_net_opts {
	size_t sz;			/* sizeof(struct trace_dat_net_opts) */
	/* the events whose formats are sent, as trace_dat_writer_opts.events */
	const char *const *events;
	int nr_cpus;			/* CPUs (data connections); 0: every possible CPU */
	const char *version;		/* the VERSION option; NULL: "libauxtrace <version>" */
	/*
	 * 1..22: the description zstd-compressed at this level, and the file version 7 with
	 * zstd, whose CPU data the collector compresses (at its own level). 0: "none".
	 */
	int compression_level;
	int timeout_ms;			/* each wait on the collector; 0: 5000 */
	/*
	 * Borrowed (it must outlive the client): where the CPU data goes once the collector
	 * is gone. The caller finishes it when trace_dat_net_stats.kept_bytes says it holds
	 * something, and deletes it otherwise. NULL: none.
	 */
	struct trace_dat_writer *fallback;
};

/* What went where, since the connection was made. */
struct trace_dat_net_stats {
	uint64_t sent_bytes;		/* sub-buffers written to the data connections */
	uint64_t sent_events;		/* ... and the events in them */
	uint64_t kept_bytes;		/* sub-buffers the fallback took after the collector left */
	uint64_t kept_events;
	int lost_collector;		/* 0, or the -errno with which the collector went away */
};

/*
 * trace_dat_net__connect() connects to the trace-cmd listen server at where ("HOST:PORT",
 * "[IPv6]:PORT", or "PORT" on localhost), agrees on protocol version 3, sends the
 * description of inst's events (NULL: the top level; borrowed, it must outlive the client)
 * and opens the data connections. Returns the client, the caller's (trace_dat_net__delete),
 * or NULL with errno: EINVAL (where is no HOST:PORT, opts with unknown fields),
 * EHOSTUNREACH (the host does not resolve), ECONNREFUSED (nothing listens there),
 * ETIMEDOUT (no answer within the timeout), EPROTO (the server does not speak trace-cmd's
 * protocol), ENOENT (an unknown event), ENOMEM, or a socket error.
 */
AUXTRACE_API struct trace_dat_net *
trace_dat_net__connect(const char *where, struct tracefs_instance *inst,
		       const struct trace_dat_net_opts *opts);

/*
 * trace_dat_net__cpu_sink() returns where CPU cpu's sub-buffers go (borrowed; it lives as long
 * as the client): pass it to tracefs_cpu_drain(), tracefs_cpu_flush_drain() or
 * tracefs_cpu_add_to_ring_set() of that CPU. A push that is not a whole number of sub-buffers
 * fails with -EINVAL; once the collector is gone, pushes go to the fallback (or fail with
 * -EPIPE, the data staying in the ring). NULL with errno EINVAL for a CPU outside the count.
 */
AUXTRACE_API struct ring_sink *trace_dat_net__cpu_sink(struct trace_dat_net *n, int cpu);

/*
 * trace_dat_net__finish() ends the session after the last flush drain: it closes each data
 * connection once the collector has read it to the end, sends CLOSE and waits (up to the
 * timeout) for the collector to hang up, which it does when its trace.dat is written. The
 * sinks refuse data afterwards. Returns 0, or -errno: -EPIPE when the collector had gone
 * away (trace_dat_net__stats() says what was kept), -ETIMEDOUT when it did not answer. Once
 * only: a second call is -EINVAL.
 */
AUXTRACE_API int trace_dat_net__finish(struct trace_dat_net *n);

/* trace_dat_net__stats() returns what was sent and kept so far (borrowed, n's). */
AUXTRACE_API const struct trace_dat_net_stats *trace_dat_net__stats(const struct trace_dat_net *n);

/*
 * trace_dat_net__delete() closes the connections (a collector not told CLOSE writes no file)
 * and frees the client. NULL is a no-op.
 */
AUXTRACE_API void trace_dat_net__delete(struct trace_dat_net *n);

#ifdef __cplusplus
}
#endif
#endif
