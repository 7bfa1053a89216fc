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
 * perf_mmap__new() maps 1 + pages pages of fd (pages a power of two, or 0 for the control
 * page only); fd stays the caller's, open while the map lives. overwrite: a read-only
 * backward ring (attr.write_backward), read from the head after pausing output. Returns
 * the map, the caller's (perf_mmap__delete), or NULL + errno (logged with fd, size and the
 * fix): EINVAL (pages), EPERM (over perf_event_mlock_kb), ENOMEM, mmap's.
 */
AUXTRACE_API struct perf_mmap *perf_mmap__new(int fd, struct perf_cpu cpu, unsigned int pages,
					      bool overwrite);
/* perf_mmap__delete() unmaps and frees map (NULL: nothing); its fd stays open. */
AUXTRACE_API void perf_mmap__delete(struct perf_mmap *map);

/* perf_mmap__fd() returns the perf event fd the ring maps (the caller's, as given to _new). */
AUXTRACE_API int perf_mmap__fd(const struct perf_mmap *map);
/* perf_mmap__cpu() returns the CPU given to perf_mmap__new (-1: a per-thread ring). */
AUXTRACE_API struct perf_cpu perf_mmap__cpu(const struct perf_mmap *map);
/* perf_mmap__overwrite() returns whether it is a backward (overwrite) ring. */
AUXTRACE_API bool perf_mmap__overwrite(const struct perf_mmap *map);
/*
 * perf_mmap__userpg() returns the control page (struct perf_event_mmap_page), e.g. for time
 * conversion fields; borrowed, mapped while map lives.
 */
AUXTRACE_API struct perf_event_mmap_page *perf_mmap__userpg(const struct perf_mmap *map);
/* perf_mmap__data_size() returns the bytes of the data area (a power of two; 0: none). */
AUXTRACE_API size_t perf_mmap__data_size(const struct perf_mmap *map);
/* perf_mmap__mmap_len() returns the bytes of the whole mapping: data area plus control page. */
AUXTRACE_API size_t perf_mmap__mmap_len(const struct perf_mmap *map);
/*
 * perf_mmap__set_flush() sets the minimum bytes before read_init/push bother (perf's
 * --mmap-flush); default and 0: 1.
 */
AUXTRACE_API void perf_mmap__set_flush(struct perf_mmap *map, size_t bytes);

/*
 * perf_mmap__read_init() starts a read pass. Returns 0, or -EAGAIN when nothing (or less
 * than flush) is there.
 */
AUXTRACE_API int perf_mmap__read_init(struct perf_mmap *map);
/*
 * perf_mmap__read_event() returns the next whole record of the pass, borrowed until consume
 * (a copy only if it wraps, valid until the next call); or NULL: errno 0 at the end of the pass,
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
/*
 * perf_mmap__read_record() fills *rec with the next record of the pass, never copied. Returns
 * 1 (rec filled), 0 at the end of the pass, or -EINVAL on a corrupt ring.
 */
AUXTRACE_API int perf_mmap__read_record(struct perf_mmap *map, struct perf_mmap_record *rec);
/*
 * perf_mmap__consume() gives back everything read so far: the kernel may overwrite it. Cheap
 * enough to call per record: the tail reaches the kernel once a sixteenth of the ring was given
 * back, and at read_done (or the next read_init/push) for the rest, so data_tail may lag behind
 * within a pass.
 */
AUXTRACE_API void perf_mmap__consume(struct perf_mmap *map);
/*
 * perf_mmap__read_done() ends a pass: publishes what consume gave back (forward),
 * remembers the pass (backward).
 */
AUXTRACE_API void perf_mmap__read_done(struct perf_mmap *map);

/*
 * perf_mmap__push() hands everything readable to sink as raw bytes (at most two spans), then
 * publish the tail. What the kernel writes while it runs is left for the next call. Counts PERF_RECORD_LOST/LOST_SAMPLES and PERF_RECORD_AUX flags into the
 * stats on the way. Returns bytes pushed (0: empty) or -errno (sink error: the tail did not
 * move).
 */
AUXTRACE_API ssize_t perf_mmap__push(struct perf_mmap *map, struct ring_sink *sink);

/*
 * perf_mmap__pause() stops (true) or resumes the kernel writing this ring
 * (PERF_EVENT_IOC_PAUSE_OUTPUT). Returns 0 or the ioctl's -errno (logged: Linux 4.7+, the
 * fd that owns the ring).
 */
AUXTRACE_API int perf_mmap__pause(struct perf_mmap *map, bool pause);

/* perf_mmap__stats() returns the ring's counters, borrowed: valid while map lives. */
AUXTRACE_API const struct ring_stats *perf_mmap__stats(const struct perf_mmap *map);

#ifdef __cplusplus
}
#endif
#endif
