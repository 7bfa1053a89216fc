/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * CPU and thread maps with libperf's names and semantics. Maps are immutable and
 * refcounted: every constructor returns a map with one reference, __get adds one, __put
 * drops one. A NULL map is a legal empty map wherever libperf allows it.
 */
#ifndef AUXTRACE_CPUMAP_H
#define AUXTRACE_CPUMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CPU number; -1 means "any CPU" (a per-thread event). */
struct perf_cpu {
	int cpu;
};

struct perf_cpu_map;
struct perf_thread_map;

/*
 * NULL: the online CPUs (sysfs devices/system/cpu/online). "": the any-CPU map {-1}.
 * Otherwise a list such as "0-3,7" (decimal, or 0x/0 prefixed as strtoul base 0; a
 * trailing newline is accepted). The result is sorted. A duplicate CPU, a reversed range,
 * junk, or a number >= 32767 gives NULL with errno EINVAL: never a silent guess.
 */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new(const char *cpu_list);
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new_online_cpus(void);
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new_any_cpu(void);
/* A map of exactly the given CPUs (sorted and checked like __new). */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new_array(int nr, const int *cpus);
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__get(struct perf_cpu_map *map);
AUXTRACE_API void perf_cpu_map__put(struct perf_cpu_map *map);

/* nr(NULL) == 1, like libperf: a NULL map stands for "any CPU" when opening. */
AUXTRACE_API int perf_cpu_map__nr(const struct perf_cpu_map *map);
/* The CPU at idx; {-1} when map is NULL or idx is out of range. */
AUXTRACE_API struct perf_cpu perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx);
/* Index of cpu in map, or -1. */
AUXTRACE_API int perf_cpu_map__idx(const struct perf_cpu_map *map, struct perf_cpu cpu);
AUXTRACE_API bool perf_cpu_map__has(const struct perf_cpu_map *map, struct perf_cpu cpu);
AUXTRACE_API bool perf_cpu_map__equal(const struct perf_cpu_map *a, const struct perf_cpu_map *b);
/* Is b a subset of a? A NULL b is a subset of anything. */
AUXTRACE_API bool perf_cpu_map__is_subset(const struct perf_cpu_map *a,
					  const struct perf_cpu_map *b);
AUXTRACE_API bool perf_cpu_map__has_any_cpu(const struct perf_cpu_map *map);
AUXTRACE_API bool perf_cpu_map__is_any_cpu_or_is_empty(const struct perf_cpu_map *map);
AUXTRACE_API bool perf_cpu_map__is_empty(const struct perf_cpu_map *map);
/* Lowest real CPU (skipping -1) and highest entry; {-1} for an empty map. */
AUXTRACE_API struct perf_cpu perf_cpu_map__min(const struct perf_cpu_map *map);
AUXTRACE_API struct perf_cpu perf_cpu_map__max(const struct perf_cpu_map *map);

/*
 * *orig becomes the sorted union of *orig and other (other's reference is not taken over).
 * Returns 0 or -ENOMEM (then *orig is unchanged).
 */
AUXTRACE_API int perf_cpu_map__merge(struct perf_cpu_map **orig, struct perf_cpu_map *other);
/* Sorted intersection with a new reference; NULL for an empty result. */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__intersect(struct perf_cpu_map *a,
							  struct perf_cpu_map *b);

/*
 * The shortest list string ("1-2,4-5,7"; "-1" for the any-CPU map; "" for NULL), as
 * snprintf: returns the length it needs, writes at most size bytes.
 */
AUXTRACE_API size_t perf_cpu_map__snprint(const struct perf_cpu_map *map, char *buf,
					  size_t size);

#define perf_cpu_map__for_each_cpu(cpu, idx, cpus)				\
	for ((idx) = 0, (cpu) = perf_cpu_map__cpu(cpus, idx);			\
	     (idx) < perf_cpu_map__nr(cpus);					\
	     (idx)++, (cpu) = perf_cpu_map__cpu(cpus, idx))

/* Threads: pid -1 (the dummy map) means "any thread" (a per-CPU event). */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_dummy(void);
/* One thread (or process leader): {tid}. */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_tid(pid_t tid);
/* Every thread of a running process, from /proc/PID/task, sorted. NULL + errno (ESRCH). */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_pid(pid_t pid);
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_array(int nr, const pid_t *tids);
AUXTRACE_API struct perf_thread_map *perf_thread_map__get(struct perf_thread_map *map);
AUXTRACE_API void perf_thread_map__put(struct perf_thread_map *map);
/* nr(NULL) == 1 (the dummy thread). */
AUXTRACE_API int perf_thread_map__nr(const struct perf_thread_map *map);
/* The pid at idx; -1 for NULL or out of range. */
AUXTRACE_API pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx);
AUXTRACE_API int perf_thread_map__idx(const struct perf_thread_map *map, pid_t pid);

#ifdef __cplusplus
}
#endif
#endif
