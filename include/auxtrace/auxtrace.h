/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The perf AUX area: where Intel PT, Intel BTS, Arm SPE and CoreSight write hardware trace.
 * It is a second mapping of a data ring's fd, at aux_offset, and is mapped by the evlist
 * mmap driver in the same pass as the data rings (see auxtrace_mmap__evlist_hooks()).
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
	pid_t tid;		/* per-thread: that thread; per-CPU with one thread: it; else 0 */
	bool mmap_needed;	/* false: the owner of this idx is not an AUX event */
	struct perf_cpu cpu;	/* per-CPU: that CPU; per-thread: -1 */
};

AUXTRACE_API void auxtrace_mmap_params__init(struct auxtrace_mmap_params *mp,
					     off_t auxtrace_offset,
					     unsigned int auxtrace_pages,
					     bool auxtrace_overwrite);
AUXTRACE_API void auxtrace_mmap_params__set_idx(struct auxtrace_mmap_params *mp,
						struct evlist *evlist, struct evsel *evsel,
						int idx);

struct auxtrace_mmap;
struct perf_pmu;

/* Options a recording session gives its AUX backend (perf's record_opts, AUX part). */
struct auxtrace_opts {
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
