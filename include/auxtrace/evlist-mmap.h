/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The evlist mmap driver (evsel/evlist-mmap.c): one data ring per mmap idx, with hooks that
 * map more of the same fd at each idx (the AUX area). Included by auxtrace/evlist.h.
 */
#ifndef AUXTRACE_EVLIST_MMAP_H
#define AUXTRACE_EVLIST_MMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <auxtrace/core.h>
#include <auxtrace/mmap.h>

#ifdef __cplusplus
extern "C" {
#endif

struct evlist;
struct evsel;

/* evlist__per_thread() returns whether no real CPU is in the maps: one ring per thread. */
AUXTRACE_API bool evlist__per_thread(const struct evlist *evlist);

/*
 * Hooks run by the mmap driver for each idx, on the evsel whose fd owns that idx's ring.
 * idx():    before the data ring is mapped (perf's auxtrace_mmap_params__set_idx point);
 * mmap():   after it was mapped: map more of the same fd (the AUX area). An error undoes
 *           the whole evlist mmap;
 * munmap(): before the data ring of idx is unmapped.
 */
struct evlist_mmap_hooks {
	size_t sz;	/* sizeof(struct evlist_mmap_hooks): hooks may be added at the end */
	int (*idx)(struct evlist *evlist, struct evsel *evsel, int idx, void *ctx);
	int (*mmap)(struct evlist *evlist, struct evsel *evsel, struct perf_mmap *map, int idx,
		    void *ctx);
	void (*munmap)(struct evlist *evlist, struct perf_mmap *map, int idx, void *ctx);
	void *ctx;
};

/*
 * evlist__mmap() maps one data ring of `pages` pages (a power of two; 0: perf's default
 * from perf_event_mlock_kb) per idx of the opened evlist and redirects the other fds into
 * it. Returns 0 or -errno (then nothing stays mapped; the error is logged with its fix):
 * EBUSY when mapped already, EINVAL (no evsels, no maps, pages not a power of two), ENOMEM,
 * EPERM (over perf_event_mlock_kb), mmap's or the ioctl's.
 */
AUXTRACE_API int evlist__mmap(struct evlist *evlist, unsigned int pages);
/*
 * evlist__mmap_ex() is evlist__mmap with hooks (copied; NULL: none). Returns as
 * evlist__mmap, and also -EINVAL when hooks->sz is not set, or a hook's -errno (the
 * mapping is undone).
 */
AUXTRACE_API int evlist__mmap_ex(struct evlist *evlist, unsigned int pages,
				 const struct evlist_mmap_hooks *hooks);
/*
 * evlist__munmap() runs the munmap hooks, unmaps every ring and forgets the sample IDs
 * (nothing when not mapped).
 */
AUXTRACE_API void evlist__munmap(struct evlist *evlist);
/*
 * evlist__mmap_len() returns the bytes of each data ring mapping, control page included:
 * where an AUX area may start. 0 when not mapped.
 */
AUXTRACE_API size_t evlist__mmap_len(const struct evlist *evlist);
/* evlist__nr_mmaps() returns how many mmap idxs there are (0 when not mapped). */
AUXTRACE_API int evlist__nr_mmaps(const struct evlist *evlist);
/* evlist__mmap_at() returns the forward ring at idx (borrowed), or NULL if none. */
AUXTRACE_API struct perf_mmap *evlist__mmap_at(const struct evlist *evlist, int idx);
/*
 * evlist__mmap_ovw_at() returns the backward (write_backward) ring at idx (borrowed), or
 * NULL if none.
 */
AUXTRACE_API struct perf_mmap *evlist__mmap_ovw_at(const struct evlist *evlist, int idx);

#ifdef __cplusplus
}
#endif
#endif
