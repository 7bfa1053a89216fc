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
struct auxtrace_record;

#ifdef __cplusplus
}
#endif
#endif
