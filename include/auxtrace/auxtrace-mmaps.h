/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The AUX areas of an evlist, one per mmap idx (auxtrace/auxtrace-mmaps.c), on top of the
 * single AUX area of auxtrace/auxtrace.h. A header of their own: they stand on the rest of
 * the AUX family, so what only they define is declared here and not in auxtrace.h, which
 * every file of the family includes.
 */
#ifndef AUXTRACE_AUXTRACE_MMAPS_H
#define AUXTRACE_AUXTRACE_MMAPS_H

#include <stdbool.h>
#include <sys/types.h>
#include <auxtrace/auxtrace.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The AUX areas of one evlist, one per mmap idx, mapped and unmapped by the evlist mmap
 * driver through hooks: for each idx the owner evsel decides (auxtrace_mmap_params__set_idx)
 * whether an AUX area of auxtrace_pages pages is mapped right after its data ring,
 * read-only when overwrite (snapshot or sample mode). A failed AUX mapping fails the whole
 * evlist mmap with a message naming the cause and the fix (EOPNOTSUPP: the PMU cannot
 * produce AUX data; EPERM: the locked-memory budget, with the numbers).
 * itr may be NULL (no reference, alignment or read_finish). Delete after evlist__munmap.
 */
struct auxtrace_mmaps;

/*
 * auxtrace_mmaps__new() returns the AUX areas of evlist (borrowed: it must outlive them;
 * itr too), none mapped yet; the caller's (auxtrace_mmaps__delete). NULL + errno EINVAL
 * (no evlist) or ENOMEM.
 */
AUXTRACE_API struct auxtrace_mmaps *auxtrace_mmaps__new(struct evlist *evlist,
							struct auxtrace_record *itr,
							unsigned int auxtrace_pages,
							bool overwrite);
/* auxtrace_mmaps__delete() unmaps and frees every AUX area and aux (NULL: nothing). */
AUXTRACE_API void auxtrace_mmaps__delete(struct auxtrace_mmaps *aux);
/*
 * auxtrace_mmaps__hooks() returns the hooks to pass to evlist__mmap_ex(evlist, pages,
 * hooks); borrowed, valid while aux lives.
 */
AUXTRACE_API const struct evlist_mmap_hooks *auxtrace_mmaps__hooks(struct auxtrace_mmaps *aux);
/* auxtrace_mmaps__nr() returns the highest idx the driver announced, plus one. */
AUXTRACE_API int auxtrace_mmaps__nr(const struct auxtrace_mmaps *aux);
/*
 * auxtrace_mmaps__at() returns the AUX area of idx (borrowed), NULL when that idx has none
 * (not an AUX owner, or len 0).
 */
AUXTRACE_API struct auxtrace_mmap *auxtrace_mmaps__at(const struct auxtrace_mmaps *aux, int idx);
/*
 * auxtrace_mmaps__read_idx() is auxtrace_mmap__read() of the AUX area at idx. Returns
 * bytes, 0 when idx has none or the areas are in overwrite (snapshot) mode, or -errno.
 */
AUXTRACE_API ssize_t auxtrace_mmaps__read_idx(struct auxtrace_mmaps *aux, int idx,
					      struct ring_sink *sink);
/*
 * auxtrace_mmaps__read() is auxtrace_mmap__read() of every mapped AUX area into one sink.
 * Returns bytes or the first -errno.
 */
AUXTRACE_API ssize_t auxtrace_mmaps__read(struct auxtrace_mmaps *aux, struct ring_sink *sink);
/*
 * auxtrace_mmaps__read_snapshot() is auxtrace_mmap__read_snapshot() of every mapped AUX
 * area. Returns bytes or the first -errno.
 */
AUXTRACE_API ssize_t auxtrace_mmaps__read_snapshot(struct auxtrace_mmaps *aux,
						   struct ring_sink *sink, size_t snapshot_size);
/*
 * auxtrace_mmaps__stats_sz() copies what idx delivered and lost into *out (at most sz
 * bytes; use auxtrace_mmaps__stats): the AUX area's counters plus the PERF_RECORD_AUX flags
 * (aux_truncated/partial/collision) that idx's data ring counted. Returns 0, -ENOENT (no
 * ring at idx) or -EINVAL (out NULL, sz too small).
 */
AUXTRACE_API int auxtrace_mmaps__stats_sz(const struct auxtrace_mmaps *aux, int idx,
					  struct ring_stats *out, size_t sz);
#define auxtrace_mmaps__stats(aux, idx, out) \
	auxtrace_mmaps__stats_sz((aux), (idx), (out), sizeof(*(out)))

struct ring_set;
/*
 * auxtrace_mmaps__add_to_ring_set() adds every mapped AUX area to set as a source
 * (auxtrace/ring-set.h) of kind RING_SOURCE_AUX, with auxtrace_mmaps__stats for its stats,
 * following the data ring of its idx: the kernel signals both through that ring's fds, and
 * the PERF_RECORD_AUX records describing the AUX data must reach their sink first. So add
 * the evlist first (evlist__add_to_ring_set). One wakeup then drains the data ring and its
 * AUX area, this one into sink with auxtrace_mmaps__read_idx (areas in overwrite mode give
 * nothing: auxtrace_mmaps__read_snapshot copies them). aux, set and sink are borrowed; the
 * sources last until evlist__munmap. Returns 0 or -errno: EINVAL (a NULL argument), ENOENT
 * (an area's data ring is not in the set), or ring_set__add's.
 */
AUXTRACE_API int auxtrace_mmaps__add_to_ring_set(struct auxtrace_mmaps *aux,
						 struct ring_set *set, struct ring_sink *sink);

#ifdef __cplusplus
}
#endif
#endif
