// SPDX-License-Identifier: LGPL-2.1
/*
 * The evlist's sample-ID hash: which evsel, ring, CPU and thread a kernel sample ID belongs
 * to. Filled by the mmap driver, emptied when an evsel leaves the list, read by anyone.
 */
#include <errno.h>
#include <string.h>

#include <auxtrace/evlist-ids.h>
#include <internal/evlist-ids.h>
#include <internal/evlist-struct.h>
#include <internal/lib.h>

/* Multiplicative hashing: kernel IDs are small sequential numbers, spread them out. */
static unsigned int evlist__id_bucket(uint64_t id)
{
	return (unsigned int)((id * 0x61C8864680B583EBull) >> (64 - EVLIST_ID_HASH_BITS));
}

void evlist__id_hash_add(struct evlist *evlist, struct evsel_sid *sid)
{
	struct evsel_sid **head = &evlist->id_hash[evlist__id_bucket(sid->id)];

	sid->next = *head;
	*head = sid;
}

void evlist__id_hash_clear(struct evlist *evlist)
{
	memset(evlist->id_hash, 0, sizeof(evlist->id_hash));
}

int evlist__id_lookup(const struct evlist *evlist, uint64_t id, struct evlist_sample_id *out)
{
	const struct evsel_sid *sid;

	for (sid = evlist->id_hash[evlist__id_bucket(id)]; sid; sid = sid->next) {
		if (sid->id == id) {
			*out = sid->where;
			return 0;
		}
	}
	return libauxtrace__err(-ENOENT);
}

void evlist__id_hash_remove_evsel(struct evlist *evlist, const struct evsel *evsel)
{
	size_t b;

	for (b = 0; b < ARRAY_SIZE(evlist->id_hash); b++) {
		struct evsel_sid **p = &evlist->id_hash[b];

		while (*p) {
			if ((*p)->where.evsel == evsel)
				*p = (*p)->next;
			else
				p = &(*p)->next;
		}
	}
}

