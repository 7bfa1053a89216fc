/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The perf data ring: a control page plus 2^n data pages of one perf event fd, read
 * through the consumer core (auxtrace/ring.h).
 *
 * Reading records (libperf's loop):
 *
 *	if (perf_mmap__read_init(map) == 0) {
 *		while ((event = perf_mmap__read_event(map)) != NULL) {
 *			use(event);
 *			perf_mmap__consume(map);
 *		}
 *		perf_mmap__read_done(map);
 *	}
 *
 * A record points into the ring until consume. A record that wraps the end of the ring is
 * copied into a per-map scratch buffer by read_event (the only copy, and only when asked for
 * a contiguous record); perf_mmap__read_record hands it out as two pieces instead.
 * Pushing raw bytes to a sink (perf_mmap__push) never copies.
 */
#ifndef AUXTRACE_MMAP_H
#define AUXTRACE_MMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/event.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_mmap;

/*
 * Map 1 + pages pages of fd (pages a power of two, or 0 for the control page only).
 * overwrite: a read-only backward ring (attr.write_backward), read from the head after
 * pausing output. NULL + errno on failure (logged with fd, size and the fix).
 */
AUXTRACE_API struct perf_mmap *perf_mmap__new(int fd, struct perf_cpu cpu, unsigned int pages,
					      bool overwrite);
AUXTRACE_API void perf_mmap__delete(struct perf_mmap *map);

AUXTRACE_API int perf_mmap__fd(const struct perf_mmap *map);
AUXTRACE_API struct perf_cpu perf_mmap__cpu(const struct perf_mmap *map);
AUXTRACE_API bool perf_mmap__overwrite(const struct perf_mmap *map);
/* The control page (struct perf_event_mmap_page), e.g. for time conversion fields. */
AUXTRACE_API struct perf_event_mmap_page *perf_mmap__userpg(const struct perf_mmap *map);
/* Bytes of the data area (a power of two). */
AUXTRACE_API size_t perf_mmap__data_size(const struct perf_mmap *map);
/* Bytes of the whole mapping: data area plus the control page. */
AUXTRACE_API size_t perf_mmap__mmap_len(const struct perf_mmap *map);
/* Minimum bytes before read_init/push bother (perf's --mmap-flush); default 1. */
AUXTRACE_API void perf_mmap__set_flush(struct perf_mmap *map, size_t bytes);

/* Start a read pass: 0, -EAGAIN when nothing (or less than flush) is there, -errno. */
AUXTRACE_API int perf_mmap__read_init(struct perf_mmap *map);
/*
 * The next whole record (a copy only if it wraps), or NULL: errno 0 at the end of the pass,
 * EINVAL on a corrupt ring, ENOMEM when a wrapped record could not be copied (it stays
 * unread: the next call offers it again).
 */
AUXTRACE_API union perf_event *perf_mmap__read_event(struct perf_mmap *map);

/* A record as it lies in the ring: one piece, or two when it wraps. Never copied. */
struct perf_mmap_record {
	/*
	 * Its first bytes, always whole in piece 0: records are 8-byte multiples at 8-byte
	 * positions of a ring of whole pages, so a header never wraps.
	 */
	const struct perf_event_header *header;
	const void *piece[2];
	size_t len[2];				/* len[1] == 0 when contiguous */
};
/* 1: rec filled; 0: end of the pass; -errno on a corrupt ring. */
AUXTRACE_API int perf_mmap__read_record(struct perf_mmap *map, struct perf_mmap_record *rec);
/*
 * Give back everything read so far: the kernel may overwrite it. Cheap enough to call per
 * record: the tail reaches the kernel once a sixteenth of the ring was given back, and at
 * read_done (or the next read_init/push) for the rest, so data_tail may lag behind within
 * a pass.
 */
AUXTRACE_API void perf_mmap__consume(struct perf_mmap *map);
/* End a pass: publishes what consume gave back (forward), remembers the pass (backward). */
AUXTRACE_API void perf_mmap__read_done(struct perf_mmap *map);

/*
 * Hand everything readable to sink as raw bytes (at most two spans), then publish the tail.
 * Counts PERF_RECORD_LOST/LOST_SAMPLES and PERF_RECORD_AUX flags into the stats on the way.
 * Returns bytes pushed (0: empty) or -errno (sink error: the tail did not move).
 */
AUXTRACE_API ssize_t perf_mmap__push(struct perf_mmap *map, struct ring_sink *sink);

/* PERF_EVENT_IOC_PAUSE_OUTPUT: stop (true) or resume the kernel writing this ring. */
AUXTRACE_API int perf_mmap__pause(struct perf_mmap *map, bool pause);

AUXTRACE_API const struct ring_stats *perf_mmap__stats(const struct perf_mmap *map);

#ifdef __cplusplus
}
#endif
#endif
