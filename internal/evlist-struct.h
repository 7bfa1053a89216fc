/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * struct evlist, the object every file of the evlist reads: the list and maps (evlist.c),
 * the mmap driver (evlist-mmap.c), the sample-ID hash (evlist-ids.c) and the ring set
 * sources (evlist-ring-set.c). Named after none of them on purpose: the layout belongs to
 * all, and the list, which calls down into the others, must not be what they include.
 */
#ifndef AUXTRACE_INTERNAL_EVLIST_STRUCT_H
#define AUXTRACE_INTERNAL_EVLIST_STRUCT_H

#include <stdbool.h>
#include <stdint.h>
#include <internal/evsel.h>

struct evlist_mmap_hooks;

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
	struct evlist_mmap_hooks *hooks;	/* evlist__mmap_ex's, copied; NULL: none */
	/* Every mapped fd, in mmap order: what a ring set watches (evlist-ring-set.c). */
	struct evlist_ring_fd *ring_fds;
	int nr_ring_fds;
	struct evsel_sid *id_hash[1 << EVLIST_ID_HASH_BITS];
};

#endif
