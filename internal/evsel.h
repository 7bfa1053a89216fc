/* SPDX-License-Identifier: LGPL-2.1 */
/* struct evsel as the evlist sees it: the fd table and the sample-ID slots beside it. */
#ifndef AUXTRACE_INTERNAL_EVSEL_H
#define AUXTRACE_INTERNAL_EVSEL_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/evsel.h>

/* One fd's sample ID, chained in its evlist's ID hash while the rings are mapped. */
struct evsel_sid {
	uint64_t id;
	struct evlist_sample_id where;
	struct evsel_sid *next;
};

struct evsel {
	struct perf_event_attr attr;
	char *name;
	struct evlist *evlist;		/* owner, NULL when free-standing */
	int idx;			/* position in evlist, -1 when in none or dropped */
	struct evsel *next_dropped;	/* the evlist's dropped evsels, while it owns them */
	struct evsel *leader;		/* itself when it leads */
	int nr_members;			/* as leader: itself plus the members naming it */
	bool system_wide;
	bool requires_cpu;
	bool needs_auxtrace_mmap;
	/*
	 * Bits of config..config3 its event string set (parse_events), which the AUX
	 * backends' session defaults leave alone; 0 for an evsel built from an attr.
	 */
	uint64_t user_config[4];
	/* Made by parse_events: the bits its string did not set may take the PMU's defaults. */
	bool parsed;
	struct perf_cpu_map *pmu_cpus;	/* NULL: the PMU counts on any CPU */
	struct perf_cpu_map *cpus;	/* what it opens on */
	struct perf_thread_map *threads;
	/* The fd table [cpu_map_idx][thread], -1 when closed; sized when opened. */
	int *fd;
	int fd_cpus, fd_threads;
	struct evsel_sid *sid;		/* same shape as fd, allocated by the mmap driver */
};

static inline int *evsel__fd_slot(const struct evsel *evsel, int cpu_map_idx, int thread)
{
	return &evsel->fd[cpu_map_idx * evsel->fd_threads + thread];
}

/*
 * Point *cpus and *threads at new maps with references of their own (either may be NULL),
 * dropping the old ones: get before put, as a new map may be the old one.
 */
void perf_maps__assign(struct perf_cpu_map **cpus, struct perf_thread_map **threads,
		       struct perf_cpu_map *new_cpus, struct perf_thread_map *new_threads);

/* Replace the maps it will open on. */
static inline void evsel__set_maps(struct evsel *evsel, struct perf_cpu_map *cpus,
				   struct perf_thread_map *threads)
{
	perf_maps__assign(&evsel->cpus, &evsel->threads, cpus, threads);
}

/* Does the kernel put a sample ID into this event's records? */
static inline bool evsel__has_ids(const struct evsel *evsel)
{
	return (evsel->attr.read_format & PERF_FORMAT_ID) ||
	       (evsel->attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER));
}

#endif
