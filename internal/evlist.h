/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * struct evlist, shared by its files: the list and maps, the mmap driver, the sample-ID
 * hash, and the ring set sources.
 */
#ifndef AUXTRACE_INTERNAL_EVLIST_H
#define AUXTRACE_INTERNAL_EVLIST_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/evlist.h>
#include <internal/evsel.h>

#define EVLIST_ID_HASH_BITS 8

/* An event fd and the ring it feeds, its own or the one it was redirected into. */
struct evlist_ring_fd {
	int fd;
	struct perf_mmap *map;
	bool task_bound;	/* an event on a task: its fd hangs up when the task exits */
};

struct evlist {
	struct evsel **entries;
	int nr_entries;
	int alloc_entries;
	/*
	 * Evsels set_maps took out of the list (no CPU left) but still owns: callers may hold
	 * pointers to them, and group members to their leaders. Freed with the evlist.
	 */
	struct evsel *dropped;
	bool maps_set;
	struct perf_cpu_map *user_cpus;
	struct perf_cpu_map *all_cpus;
	struct perf_thread_map *threads;

	/* The mmap driver: forward and backward ring per idx, and whether hooks->mmap ran. */
	struct perf_mmap **mmap;
	struct perf_mmap **mmap_ovw;
	bool *hooked;
	int nr_mmaps;
	size_t mmap_len;
	struct evlist_mmap_hooks hooks;
	/* Every mapped fd, in mmap order: what a ring set watches (evlist-ring-set.c). */
	struct evlist_ring_fd *ring_fds;
	int nr_ring_fds;
	struct evsel_sid *id_hash[1 << EVLIST_ID_HASH_BITS];
};

/* The sample-ID hash (evlist-ids.c). */
void evlist__id_hash_add(struct evlist *evlist, struct evsel_sid *sid);
void evlist__id_hash_clear(struct evlist *evlist);
void evlist__id_hash_remove_evsel(struct evlist *evlist, const struct evsel *evsel);

#endif
