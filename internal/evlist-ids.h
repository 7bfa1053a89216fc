/* SPDX-License-Identifier: LGPL-2.1 */
/* The evlist's sample-ID hash (evsel/evlist-ids.c), as the mmap driver and the list use it. */
#ifndef AUXTRACE_INTERNAL_EVLIST_IDS_H
#define AUXTRACE_INTERNAL_EVLIST_IDS_H

struct evlist;
struct evsel;
struct evsel_sid;

void evlist__id_hash_add(struct evlist *evlist, struct evsel_sid *sid);
void evlist__id_hash_clear(struct evlist *evlist);
void evlist__id_hash_remove_evsel(struct evlist *evlist, const struct evsel *evsel);

#endif
