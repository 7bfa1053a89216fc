/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The perf AUX area: where Intel PT, Intel BTS, Arm SPE and CoreSight write hardware trace.
 * It is a second mapping of a data ring's fd, at aux_offset, and is mapped by the evlist
 * mmap driver in the same pass as the data rings (struct auxtrace_mmaps, in
 * auxtrace/auxtrace-mmaps.h).
 *
 * A session, in short:
 *
 *	aux = auxtrace_mmaps__new(evlist, itr, aux_pages, snapshot_mode);
 *	evlist__mmap_ex(evlist, data_pages, auxtrace_mmaps__hooks(aux));
 *	evlist__add_to_ring_set(evlist, set, &data_sink.sink);	   (auxtrace/ring-set.h)
 *	auxtrace_mmaps__add_to_ring_set(aux, set, &aux_sink.sink);
 *	while (ring_set__poll(set, -1) >= 0)	   (PERF_RECORD_AUXTRACE + payload into aux_sink)
 *		;
 *	evlist__munmap(evlist);
 *	auxtrace_mmaps__delete(aux);
 */
#ifndef AUXTRACE_AUXTRACE_H
#define AUXTRACE_AUXTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <auxtrace/core.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/event.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What to map for one mmap idx. __init fills the template once per evlist, __set_idx
 * completes it for each idx from the evlist's maps and the evsel that owns that idx.
 */
struct auxtrace_mmap_params {
	size_t mask;		/* len - 1 when len is a power of two, else 0 */
	off_t offset;		/* file offset of the AUX area: right after the data ring */
	size_t len;		/* bytes; 0: no AUX area anywhere */
	int prot;		/* PROT_READ, plus PROT_WRITE in full-trace mode */
	int idx;		/* mmap idx */
	pid_t tid;		/* a thread's ring: it; a CPU's ring with one thread: it
				   (-1 for the dummy thread); with several: 0 (records
				   never carry that 0: see auxtrace_mmap__mmap) */
	bool mmap_needed;	/* false: the owner of this idx is not an AUX event */
	struct perf_cpu cpu;	/* a CPU's ring (also a side-band one in a per-thread
				   session): that CPU; a thread's ring: -1 */
	pid_t first_tid;	/* the first thread of the evlist's map (-1: the dummy
				   thread, or unknown): what a CPU's ring with tid 0
				   records, as perf 6.1 does */
};

/*
 * auxtrace_mmap_params__init() fills the template: an AUX area of auxtrace_pages pages at
 * file offset auxtrace_offset (right after the data ring), read-only when
 * auxtrace_overwrite (the kernel's snapshot mode), no idx yet.
 */
AUXTRACE_API void auxtrace_mmap_params__init(struct auxtrace_mmap_params *mp,
					     off_t auxtrace_offset,
					     unsigned int auxtrace_pages,
					     bool auxtrace_overwrite);
/*
 * auxtrace_mmap_params__set_idx() completes mp for mmap idx of evlist, whose ring evsel
 * owns (NULL: no AUX area there): the idx's CPU and tid, whether an AUX area is needed.
 */
AUXTRACE_API void auxtrace_mmap_params__set_idx(struct auxtrace_mmap_params *mp,
						struct evlist *evlist, struct evsel *evsel,
						int idx);

struct auxtrace_mmap;
struct auxtrace_record;
struct perf_pmu;

/*
 * One AUX area (one mmap idx), read through the consumer core. Opaque; fields through the
 * accessors below. A full-trace read hands the sink one PERF_RECORD_AUXTRACE (48 bytes) then
 * the payload as it lies in the mapping (one or two pieces, never copied) then zero padding
 * to 8 bytes: at most RING_MAX_IOV iovecs per push.
 */
/* auxtrace_mmap__new() returns an unmapped AUX area (auxtrace_mmap__delete); NULL + ENOMEM. */
AUXTRACE_API struct auxtrace_mmap *auxtrace_mmap__new(void);
/* auxtrace_mmap__delete() unmaps mm if mapped and frees it (NULL: nothing). */
AUXTRACE_API void auxtrace_mmap__delete(struct auxtrace_mmap *mm);

/*
 * auxtrace_mmap__mmap() takes idx/tid/cpu/len/mask from mp; unless len is 0 or !mp->mmap_needed
 * (then nothing is mapped and this succeeds), write aux_offset and aux_size into userpg (the
 * data ring's control page, mapped writable) and map len bytes of fd at mp->offset with
 * mp->prot. Resets the position and the statistics. userpg and fd stay the caller's, mapped and
 * open while mm is mapped. Returns 0 or -errno (EBUSY: already mapped; EINVAL: a mask that is
 * neither 0 nor len - 1); a failed mapping leaves aux_offset/aux_size 0. idx, tid and cpu go
 * into every PERF_RECORD_AUXTRACE, taken from mp alone whoever maps: tid is mp->tid, except on
 * a CPU's ring shared by several threads (mp->tid 0, which would name the idle task), which
 * records mp->first_tid, the first thread of the map, as perf 6.1 writes on every CPU's ring
 * (-1 when the params do not know it).
 */
AUXTRACE_API int auxtrace_mmap__mmap(struct auxtrace_mmap *mm,
				     const struct auxtrace_mmap_params *mp, void *userpg, int fd);
/* auxtrace_mmap__munmap() unmaps the AUX area (nothing when not mapped); counters stay. */
AUXTRACE_API void auxtrace_mmap__munmap(struct auxtrace_mmap *mm);

/*
 * auxtrace_mmap__read() reads in full-trace mode (mapped with PROT_WRITE): it pushes what the
 * producer wrote since the last read as PERF_RECORD_AUXTRACE records (offset = stream position
 * of the first byte, reference = itr->reference(), padding to 8, BTS-like itr->alignment trims
 * a partial record at the end of the buffer); publish aux_tail (full barrier) only after the
 * sink took a record, then call itr->read_finish(itr, idx) (re-enable an event the driver
 * stopped). itr may be NULL. A head more than a whole buffer ahead of the tail is data loss:
 * the newest buffer-full is delivered, the skipped bytes go to stats->overruns and a warning is
 * logged. Returns bytes pushed (framing included), 0 when there was nothing or the area is not
 * mapped, or -errno (sink error: the tail stays, the next read offers the same bytes).
 */
AUXTRACE_API ssize_t auxtrace_mmap__read(struct auxtrace_mmap *mm, struct auxtrace_record *itr,
					 struct ring_sink *sink);
/*
 * auxtrace_mmap__read_snapshot() reads in overwrite (snapshot) mode, the producer stopped: it
 * pushes one record of the newest snapshot_size bytes (0: the whole valid area) before
 * aux_head, the positions first normalised by itr->find_snapshot (the backend's wrap rule;
 * without one, head and the previous head are taken as they are). No tail is written. Returns
 * bytes pushed, 0 (nothing, or not mapped), or -errno (find_snapshot's, the sink's).
 */
AUXTRACE_API ssize_t auxtrace_mmap__read_snapshot(struct auxtrace_mmap *mm,
						  struct auxtrace_record *itr,
						  struct ring_sink *sink, size_t snapshot_size);

/* The accessors: mm's state as auxtrace_mmap__mmap set it. */
/* auxtrace_mmap__base() returns the mapping (borrowed), NULL when not mapped. */
AUXTRACE_API void *auxtrace_mmap__base(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__len() returns the bytes of the AUX area. */
AUXTRACE_API size_t auxtrace_mmap__len(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__mask() returns len - 1 for a power-of-two len, else 0. */
AUXTRACE_API size_t auxtrace_mmap__mask(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__prev() returns the aux_head of the last read ("old" in find_snapshot). */
AUXTRACE_API uint64_t auxtrace_mmap__prev(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__idx() returns its mmap idx (-1 before the first mapping). */
AUXTRACE_API int auxtrace_mmap__idx(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__tid() returns the tid the records carry (see auxtrace_mmap__mmap). */
AUXTRACE_API pid_t auxtrace_mmap__tid(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__cpu() returns the CPU the records carry (-1: a thread's ring). */
AUXTRACE_API struct perf_cpu auxtrace_mmap__cpu(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__fd() returns the perf event fd it maps (the caller's), -1 before mapping. */
AUXTRACE_API int auxtrace_mmap__fd(const struct auxtrace_mmap *mm);
/* auxtrace_mmap__userpg() returns the data ring's control page it was given, borrowed. */
AUXTRACE_API struct perf_event_mmap_page *auxtrace_mmap__userpg(const struct auxtrace_mmap *mm);
/*
 * auxtrace_mmap__stats() returns bytes/chunks (records)/drains/empty/sink_errors/overruns
 * of this AUX area, borrowed: valid while mm lives.
 */
AUXTRACE_API const struct ring_stats *auxtrace_mmap__stats(const struct auxtrace_mmap *mm);

/* Options a recording session gives its AUX backend (perf's record_opts, AUX part). */
struct auxtrace_opts {
	/*
	 * sizeof(struct auxtrace_opts) as the caller was compiled: auxtrace_opts__init() sets
	 * it, so a newer library never reads or writes fields an older caller has no room for.
	 */
	size_t sz;
	unsigned int mmap_pages;	/* data ring pages; 0: not set by the user */
	unsigned int auxtrace_mmap_pages;	/* AUX pages; 0: not set (backend default) */
	bool full_auxtrace;		/* an AUX event is present (set by the backend) */
	bool auxtrace_snapshot_mode;	/* -S: overwrite AUX, copied on a trigger */
	bool auxtrace_snapshot_on_exit;	/* -Se: also snapshot when recording ends */
	size_t auxtrace_snapshot_size;	/* bytes per snapshot; 0: backend default */
	bool auxtrace_sample_mode;	/* --aux-sample: AUX copied into samples only */
	size_t auxtrace_sample_size;
	bool per_thread;		/* the evlist has no real CPU */
	bool privileged;		/* root or perf_event_paranoid allows kernel tracing sizes */
};

/*
 * A recording backend (one per session): Intel PT, Intel BTS, Arm SPE, CoreSight.
 * Every hook may be NULL where the backend has nothing to do.
 */
struct auxtrace_record {
	/* Validate and complete opts and the evlist: find the AUX evsel, default sizes,
	 * aux_watermark, tracking events, move the AUX evsel to the front. */
	int (*recording_options)(struct auxtrace_record *itr, struct evlist *evlist,
				 struct auxtrace_opts *opts);
	/* Bytes of priv[] in PERF_RECORD_AUXTRACE_INFO. */
	size_t (*info_priv_size)(struct auxtrace_record *itr, struct evlist *evlist);
	/* Fill type and priv (priv_size bytes; a mismatch is -EINVAL). */
	int (*info_fill)(struct auxtrace_record *itr, struct evlist *evlist,
			 struct perf_record_auxtrace_info *info, size_t priv_size);
	void (*free)(struct auxtrace_record *itr);
	/* Snapshot trigger: stop the producer (async-signal-safe: ioctls only) ... */
	int (*snapshot_start)(struct auxtrace_record *itr);
	/* ... and restart it after the copy. */
	int (*snapshot_finish)(struct auxtrace_record *itr);
	/* Normalise overwrite-mode positions so that old <= head and head - old is the valid
	 * data (at most the buffer size), with this backend's wrap rule. */
	int (*find_snapshot)(struct auxtrace_record *itr, int idx, struct auxtrace_mmap *mm,
			     unsigned char *data, uint64_t *head, uint64_t *old);
	int (*parse_snapshot_options)(struct auxtrace_record *itr, struct auxtrace_opts *opts,
				      const char *str);
	/* The 64-bit cookie stored in each PERF_RECORD_AUXTRACE (TSC for PT/BTS). */
	uint64_t (*reference)(struct auxtrace_record *itr);
	/* After a full-trace read of idx: re-enable the event the driver may have stopped. */
	int (*read_finish)(struct auxtrace_record *itr, int idx);
	unsigned int alignment;		/* record granularity (BTS: 24); 0: none */
	unsigned int default_aux_sample_size;
	struct perf_pmu *pmu;
	struct evlist *evlist;
};

#ifdef __cplusplus
}
#endif
#endif
