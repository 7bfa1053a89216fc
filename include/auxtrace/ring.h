/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The buffer-consumer core: one contract for the perf data ring, the AUX area and the
 * tracefs ring buffer. A ring hands out what the producer wrote as at most RING_MAX_IOV
 * pieces that point into the mapping (never a copy); a sink takes them; only then does the
 * ring tell the producer how far we read.
 */
#ifndef AUXTRACE_RING_H
#define AUXTRACE_RING_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A frame header, two spans of the mapping (wrap-around) and padding. */
#define RING_MAX_IOV 4

/*
 * Where drained bytes go. push() must take all bytes of iov[0..iovcnt) and return their
 * total, or return -errno and take nothing that the ring must forget: on an error the ring
 * publishes nothing, so the same bytes are offered again by the next drain. The iovecs point
 * into the live mapping and are valid only during the call.
 */
struct ring_sink {
	ssize_t (*push)(struct ring_sink *sink, const struct iovec *iov, int iovcnt);
	/*
	 * Optional (NULL: the ring offers only iovecs). Move the first len bytes of pipe_fd
	 * into the sink with splice(2), never through user memory. Returns the bytes moved,
	 * fewer than len only when the output failed after taking some (the rest stays in the
	 * pipe and goes first next time), or -errno when it took none: -EINVAL says the output
	 * cannot take a splice, and the ring then offers the same bytes as iovecs.
	 */
	ssize_t (*splice)(struct ring_sink *sink, int pipe_fd, size_t len);
};

/*
 * writev() to a file, pipe or socket, retrying short writes and EINTR. A full non-blocking
 * fd: -EAGAIN when not a byte went out (the ring keeps the window), else it waits for room
 * and finishes, so no window is ever written in part. Splices where the fd takes them.
 */
struct ring_sink_fd {
	struct ring_sink sink;
	int fd;
};
/* ring_sink_fd__init() makes *s a sink writing to fd, which stays the caller's to close. */
AUXTRACE_API void ring_sink_fd__init(struct ring_sink_fd *s, int fd);

/* Appends into a caller's buffer; a push that does not fit whole fails with -ENOSPC. */
struct ring_sink_memory {
	struct ring_sink sink;
	void *buf;
	size_t size;
	size_t used;
};
/*
 * ring_sink_memory__init() makes *s a sink appending to buf (size bytes, borrowed: it must
 * outlive the sink); s->used counts what was appended, from 0.
 */
AUXTRACE_API void ring_sink_memory__init(struct ring_sink_memory *s, void *buf, size_t size);

/* Calls fn(ctx, iov, iovcnt), which follows the push() contract above. */
struct ring_sink_callback {
	struct ring_sink sink;
	ssize_t (*fn)(void *ctx, const struct iovec *iov, int iovcnt);
	void *ctx;
};
/* ring_sink_callback__init() makes *s a sink calling fn(ctx, ...) (ctx borrowed) per push. */
AUXTRACE_API void ring_sink_callback__init(struct ring_sink_callback *s,
					   ssize_t (*fn)(void *ctx, const struct iovec *iov,
							 int iovcnt),
					   void *ctx);

/*
 * What one ring delivered and lost since it was set up. Every ring kind fills the fields
 * that apply to it and leaves the others 0.
 */
struct ring_stats {
	/*
	 * The bytes of this struct the library filled: sizeof(struct ring_stats) as the
	 * library knows it, or the caller's size, whichever is smaller. Functions that fill
	 * a caller's ring_stats take the caller's sizeof through a macro, so counters a newer
	 * library adds never write past an older caller's struct.
	 */
	size_t sz;
	uint64_t bytes;		/* bytes taken by sinks (AUX: framing and padding included) */
	uint64_t chunks;	/* windows handed out: spans, AUX records, sub-buffers */
	uint64_t records;	/* perf records or ftrace events seen, where counted */
	uint64_t drains;	/* drain calls that moved data */
	uint64_t empty;		/* drain calls that found nothing */
	uint64_t sink_errors;	/* pushes a sink refused (the data stayed in the ring) */
	uint64_t lost;		/* records/events the producer dropped (PERF_RECORD_LOST,
				   PERF_RECORD_LOST_SAMPLES, tracefs missed events) */
	uint64_t lost_reports;	/* how many loss reports those came in */
	uint64_t lost_unknown;	/* loss reports without a count (tracefs MISSED without STORED) */
	uint64_t overruns;	/* the consumer fell a whole buffer behind: bytes skipped */
	uint64_t aux_truncated;	/* PERF_RECORD_AUX flags, counted per ring */
	uint64_t aux_partial;
	uint64_t aux_collision;
};

#ifdef __cplusplus
}
#endif
#endif
