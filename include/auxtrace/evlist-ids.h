/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Where a kernel sample ID comes from (evsel/evlist-ids.c): the evsel, ring, CPU and thread
 * the mmap driver recorded for it. Included by auxtrace/evlist.h.
 */
#ifndef AUXTRACE_EVLIST_IDS_H
#define AUXTRACE_EVLIST_IDS_H

#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/evsel.h>

#ifdef __cplusplus
extern "C" {
#endif

struct evlist;
struct evsel;

/*
 * evlist__id_lookup() fills *out (struct evlist_sample_id, in evsel.h) with where sample ID
 * id comes from (IDs are known while the evlist is mapped). Returns 0 or -ENOENT.
 */
AUXTRACE_API int evlist__id_lookup(const struct evlist *evlist, uint64_t id,
				   struct evlist_sample_id *out);

#ifdef __cplusplus
}
#endif
#endif
