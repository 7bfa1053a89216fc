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

/*
 * evsel__new() returns a closed event of a copy of attr (attr->size may be 0: the library
 * sets it), its own leader, named after the generic event or "type<T>/config=<C>/"; the
 * caller's until an evlist takes it (evsel__delete). NULL + ENOMEM.
 */
AUXTRACE_API struct evsel *evsel__new(const struct perf_event_attr *attr);
/*
 * evsel__delete() closes evsel if open and frees it (NULL: nothing). An evsel in an evlist
 * belongs to it: evlist__delete frees it.
 */
AUXTRACE_API void evsel__delete(struct evsel *evsel);

/* evsel__attr() returns the attr it opens with, borrowed: change it only while closed. */
AUXTRACE_API struct perf_event_attr *evsel__attr(struct evsel *evsel);
/* evsel__name() returns its name, borrowed until the next evsel__set_name or delete. */
AUXTRACE_API const char *evsel__name(const struct evsel *evsel);
/* evsel__set_name() names it with a copy of name. Returns 0 or -ENOMEM (name unchanged). */
AUXTRACE_API int evsel__set_name(struct evsel *evsel, const char *name);
/*
 * evsel__idx() returns its position in its evlist (0-based), -1 when in none or dropped by
 * evlist__set_maps().
 */
AUXTRACE_API int evsel__idx(const struct evsel *evsel);

/*
 * evsel__set_leader() puts evsel in leader's group (leader borrowed: it must outlive the
 * group's opening); leader == evsel (or NULL) makes it its own leader. Set it while closed.
 */
AUXTRACE_API void evsel__set_leader(struct evsel *evsel, struct evsel *leader);
/* evsel__leader() returns its group leader (evsel itself when it leads), borrowed. */
AUXTRACE_API struct evsel *evsel__leader(struct evsel *evsel);

/*
 * evsel__set_system_wide() marks a system-wide evsel (a side-band dummy on every CPU): it
 * opens per CPU only, with the dummy thread, whatever the evlist's threads are. Set it
 * before evlist__add.
 */
AUXTRACE_API void evsel__set_system_wide(struct evsel *evsel, bool system_wide);
/* evsel__system_wide() returns what evsel__set_system_wide() set (false by default). */
AUXTRACE_API bool evsel__system_wide(const struct evsel *evsel);

/*
 * evsel__set_needs_auxtrace_mmap() is for AUX backends: this event's ring owner also maps
 * an AUX area.
 */
AUXTRACE_API void evsel__set_needs_auxtrace_mmap(struct evsel *evsel, bool needs);
/* evsel__needs_auxtrace_mmap() returns what evsel__set_needs_auxtrace_mmap() set. */
AUXTRACE_API bool evsel__needs_auxtrace_mmap(const struct evsel *evsel);

/*
 * evsel__set_pmu_cpus() sets the CPUs the event's PMU can count on (its sysfs cpumask);
 * NULL: any. Takes its own reference (and drops the one to the previous map).
 */
AUXTRACE_API void evsel__set_pmu_cpus(struct evsel *evsel, struct perf_cpu_map *cpus);
/* evsel__pmu_cpus() returns the map evsel__set_pmu_cpus() set, borrowed; NULL when never set. */
AUXTRACE_API struct perf_cpu_map *evsel__pmu_cpus(const struct evsel *evsel);
/*
 * evsel__set_requires_cpu() says the PMU cannot count per task on "any CPU" (uncore PMUs, those
 * with a sysfs cpumask file): evlist__set_maps gives it its PMU's CPUs even when the user asked
 * for any CPU.
 */
AUXTRACE_API void evsel__set_requires_cpu(struct evsel *evsel, bool requires_cpu);

/* The maps it is (or will be) opened on. */
/* evsel__cpus() returns its CPU map, borrowed; NULL before evlist__set_maps or open. */
AUXTRACE_API struct perf_cpu_map *evsel__cpus(const struct evsel *evsel);
/* evsel__threads() returns its thread map, borrowed; NULL before set_maps or open. */
AUXTRACE_API struct perf_thread_map *evsel__threads(const struct evsel *evsel);

/*
 * evsel__open() calls perf_event_open on every (cpu, thread); group members pass their
 * leader's fd at the same position. NULL cpus: any CPU; NULL threads: the dummy thread
 * (evsel takes its own references to the maps). Returns 0 or -errno (then nothing stays open): the
 * kernel's (EACCES/EPERM: perf_event_paranoid, ENOENT/EINVAL: the attr, EBUSY), EBUSY when
 * already open; the error is logged with the event name, CPU and thread.
 */
AUXTRACE_API int evsel__open(struct evsel *evsel, struct perf_cpu_map *cpus,
			     struct perf_thread_map *threads);
/* evsel__close() closes every fd it opened (nothing when closed). */
AUXTRACE_API void evsel__close(struct evsel *evsel);
/* evsel__is_open() returns whether it holds fds (evsel__open succeeded, no close since). */
AUXTRACE_API bool evsel__is_open(const struct evsel *evsel);

/*
 * evsel__enable() issues PERF_EVENT_IOC_ENABLE on every fd. Returns 0 or -errno: EBADF when
 * not open, the first failing ioctl's.
 */
AUXTRACE_API int evsel__enable(struct evsel *evsel);
/* evsel__disable() issues PERF_EVENT_IOC_DISABLE on every fd; returns as evsel__enable. */
AUXTRACE_API int evsel__disable(struct evsel *evsel);
/*
 * evsel__enable_cpu() enables all threads on one CPU of the map (its index). Returns 0 or
 * -errno: EBADF when not open, EINVAL for an index out of range, the ioctl's.
 */
AUXTRACE_API int evsel__enable_cpu(struct evsel *evsel, int cpu_map_idx);
/* evsel__disable_cpu() disables all threads on one CPU of the map; returns as _enable_cpu. */
AUXTRACE_API int evsel__disable_cpu(struct evsel *evsel, int cpu_map_idx);
/* evsel__enable_thread() enables all CPUs of one thread (its index); returns as _enable_cpu. */
AUXTRACE_API int evsel__enable_thread(struct evsel *evsel, int thread);
/*
 * evsel__apply_filter() issues PERF_EVENT_IOC_SET_FILTER with filter on every fd
 * (tracepoint filters, AUX address filters). Returns 0 or -errno: EBADF when not open,
 * EINVAL/EOPNOTSUPP when the kernel rejects the filter, EEXIST when one is set already
 * (each logged with its cause).
 */
AUXTRACE_API int evsel__apply_filter(struct evsel *evsel, const char *filter);

/* evsel__fd() returns the fd at (cpu_map_idx, thread), still evsel's; -1 if none there. */
AUXTRACE_API int evsel__fd(const struct evsel *evsel, int cpu_map_idx, int thread);
/*
 * evsel__read() reads the counter at (cpu_map_idx, thread) into *count per read_format
 * (GROUP: the leader's values). Returns 0 or -errno: EBADF (no fd there), ENOMEM, read's.
 */
AUXTRACE_API int evsel__read(struct evsel *evsel, int cpu_map_idx, int thread,
			     struct perf_counts_values *count);
/*
 * evsel__id() stores the kernel's sample ID of the fd at (cpu_map_idx, thread) in *id
 * (PERF_EVENT_IOC_ID). Returns 0 or -errno: EBADF (no fd there), the ioctl's.
 */
AUXTRACE_API int evsel__id(const struct evsel *evsel, int cpu_map_idx, int thread,
			   uint64_t *id);

#ifdef __cplusplus
}
#endif
#endif
