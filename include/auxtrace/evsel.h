/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * An event selector: one perf_event_attr opened on every (CPU, thread) pair of its maps,
 * with an fd table [cpu_map_idx][thread]. Build one from an attr, or from an event string
 * with parse_events() (auxtrace/parse-events.h).
 */
#ifndef AUXTRACE_EVSEL_H
#define AUXTRACE_EVSEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <auxtrace/core.h>
#include <auxtrace/cpumap.h>

#ifdef __cplusplus
extern "C" {
#endif

struct evsel;

/*
 * Which evsel, ring and (cpu, tid) produced a sample with this kernel ID: what
 * evlist__id_lookup answers (evlist.h).
 */
struct evlist_sample_id {
	struct evsel *evsel;
	int idx;		/* mmap idx */
	struct perf_cpu cpu;
	pid_t tid;
};

struct perf_counts_values {
	union {
		struct {
			uint64_t val;
			uint64_t ena;
			uint64_t run;
			uint64_t id;
			uint64_t lost;
		};
		uint64_t values[5];
	};
};

/* A copy of attr (attr->size may be 0: the library sets it). */
AUXTRACE_API struct evsel *evsel__new(const struct perf_event_attr *attr);
/* Closes it if open. An evsel in an evlist belongs to it: evlist__delete frees it. */
AUXTRACE_API void evsel__delete(struct evsel *evsel);

/* The attr it opens with; change it only while closed. */
AUXTRACE_API struct perf_event_attr *evsel__attr(struct evsel *evsel);
AUXTRACE_API const char *evsel__name(const struct evsel *evsel);
AUXTRACE_API int evsel__set_name(struct evsel *evsel, const char *name);
/* Position in its evlist (0-based), -1 when in none or dropped by evlist__set_maps(). */
AUXTRACE_API int evsel__idx(const struct evsel *evsel);

/* Group: leader == evsel (or NULL) makes it its own leader. */
AUXTRACE_API void evsel__set_leader(struct evsel *evsel, struct evsel *leader);
AUXTRACE_API struct evsel *evsel__leader(struct evsel *evsel);

/*
 * A system-wide evsel (a side-band dummy on every CPU) opens per CPU only, with the dummy
 * thread, whatever the evlist's threads are.
 */
AUXTRACE_API void evsel__set_system_wide(struct evsel *evsel, bool system_wide);
AUXTRACE_API bool evsel__system_wide(const struct evsel *evsel);

/* Set by AUX backends: this event's ring owner also maps an AUX area. */
AUXTRACE_API void evsel__set_needs_auxtrace_mmap(struct evsel *evsel, bool needs);
AUXTRACE_API bool evsel__needs_auxtrace_mmap(const struct evsel *evsel);

/* CPUs the event's PMU can count on (its sysfs cpumask); NULL: any. Takes a reference. */
AUXTRACE_API void evsel__set_pmu_cpus(struct evsel *evsel, struct perf_cpu_map *cpus);
/* Borrowed; NULL when never set. */
AUXTRACE_API struct perf_cpu_map *evsel__pmu_cpus(const struct evsel *evsel);
/*
 * The PMU cannot count per task on "any CPU" (uncore PMUs, those with a sysfs cpumask
 * file): evlist__set_maps gives it its PMU's CPUs even when the user asked for any CPU.
 */
AUXTRACE_API void evsel__set_requires_cpu(struct evsel *evsel, bool requires_cpu);

/* The maps it is (or will be) opened on. Borrowed references. */
AUXTRACE_API struct perf_cpu_map *evsel__cpus(const struct evsel *evsel);
AUXTRACE_API struct perf_thread_map *evsel__threads(const struct evsel *evsel);

/*
 * perf_event_open on every (cpu, thread); group members pass their leader's fd at the same
 * position. NULL cpus: any CPU; NULL threads: the dummy thread. 0 or -errno (then nothing
 * stays open); the error is logged with the event name, CPU and thread.
 */
AUXTRACE_API int evsel__open(struct evsel *evsel, struct perf_cpu_map *cpus,
			     struct perf_thread_map *threads);
AUXTRACE_API void evsel__close(struct evsel *evsel);
AUXTRACE_API bool evsel__is_open(const struct evsel *evsel);

AUXTRACE_API int evsel__enable(struct evsel *evsel);
AUXTRACE_API int evsel__disable(struct evsel *evsel);
/* All threads on one CPU of the map / all CPUs of one thread. */
AUXTRACE_API int evsel__enable_cpu(struct evsel *evsel, int cpu_map_idx);
AUXTRACE_API int evsel__disable_cpu(struct evsel *evsel, int cpu_map_idx);
AUXTRACE_API int evsel__enable_thread(struct evsel *evsel, int thread);
/* PERF_EVENT_IOC_SET_FILTER on every fd (tracepoint filters, AUX address filters). */
AUXTRACE_API int evsel__apply_filter(struct evsel *evsel, const char *filter);

/* fd at (cpu_map_idx, thread), or -1. */
AUXTRACE_API int evsel__fd(const struct evsel *evsel, int cpu_map_idx, int thread);
/* Counter value per read_format (GROUP: the leader's values). 0 or -errno. */
AUXTRACE_API int evsel__read(struct evsel *evsel, int cpu_map_idx, int thread,
			     struct perf_counts_values *count);
/* The kernel's sample ID of the fd at (cpu_map_idx, thread) (PERF_EVENT_IOC_ID). 0 or -errno. */
AUXTRACE_API int evsel__id(const struct evsel *evsel, int cpu_map_idx, int thread,
			   uint64_t *id);

#ifdef __cplusplus
}
#endif
#endif
