/* SPDX-License-Identifier: LGPL-2.1 */
/* struct evlist, shared by its three files: the list and maps, the mmap driver, polling. */
#ifndef AUXTRACE_INTERNAL_EVLIST_H
#define AUXTRACE_INTERNAL_EVLIST_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/evlist.h>
#include <internal/evsel.h>

#define EVLIST_ID_HASH_BITS 8

/* An fd in the epoll set; data.u64 of its epoll_event is its slot number. */
struct evlist_pollfd {
	int fd;			/* -1: a free slot */
	struct perf_mmap *map;	/* the ring it feeds; NULL for a caller's fd */
	bool alive;		/* still in the epoll set (not hung up) */
	bool counted;		/* an event ring fd whose hang-up means its task is gone */
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
	struct evsel_sid *id_hash[1 << EVLIST_ID_HASH_BITS];

	/* Polling: every ring fd and caller fd in one epoll set, plus the stop eventfd. */
	int epoll_fd;
	int stop_fd;
	int stopped;		/* set by evlist__stop, atomically: it may run in a handler */
	struct evlist_pollfd *pollfd;
	int nr_pollfd;
};

/* Add a ring's fd to the poll set (evlist-poll.c). 0 or -errno. */
int evlist__add_ring_pollfd(struct evlist *evlist, int fd, struct perf_mmap *map,
			    bool overwrite, bool counted);
/* Take every ring fd out of the poll set; the caller's fds stay. */
void evlist__drop_ring_pollfds(struct evlist *evlist);
/* Create the epoll set and the stop fd (evlist__new). 0 or -errno. */
int evlist__poll_init(struct evlist *evlist);
void evlist__poll_exit(struct evlist *evlist);

/* The sample-ID hash (evlist-ids.c). */
void evlist__id_hash_add(struct evlist *evlist, struct evsel_sid *sid);
void evlist__id_hash_clear(struct evlist *evlist);
void evlist__id_hash_remove_evsel(struct evlist *evlist, const struct evsel *evsel);

#endif
