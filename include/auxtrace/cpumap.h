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
 * perf_cpu_map__new() parses a CPU list. NULL: the online CPUs (sysfs
 * devices/system/cpu/online). "": the any-CPU map {-1}. Otherwise a list such as "0-3,7"
 * (decimal, or 0x/0 prefixed as strtoul base 0; a trailing newline is accepted). Returns
 * the sorted map (the caller's reference: perf_cpu_map__put), or NULL + errno: EINVAL for a
 * duplicate CPU, a reversed range, junk, or a number >= 32767 (never a silent guess),
 * ENOMEM.
 */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new(const char *cpu_list);
/*
 * perf_cpu_map__new_online_cpus() returns the online CPUs (sysfs devices/system/cpu/online;
 * sysconf's count when that file does not exist), or NULL + errno (the read's, EINVAL for
 * an unparsable file, ENOMEM).
 */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new_online_cpus(void);
/* perf_cpu_map__new_any_cpu() returns the map {-1}, or NULL + ENOMEM. */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new_any_cpu(void);
/*
 * perf_cpu_map__new_array() returns a map of exactly the nr CPUs in cpus (copied), sorted
 * and checked like __new; or NULL + errno EINVAL (nr <= 0, a CPU below -1 or >= 32767, a
 * duplicate) or ENOMEM.
 */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__new_array(int nr, const int *cpus);
/* perf_cpu_map__get() adds a reference to map (may be NULL). Returns map. */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__get(struct perf_cpu_map *map);
/* perf_cpu_map__put() drops a reference to map (may be NULL), freeing it with the last. */
AUXTRACE_API void perf_cpu_map__put(struct perf_cpu_map *map);

/*
 * perf_cpu_map__nr() returns the number of entries; nr(NULL) == 1, like libperf: a NULL
 * map stands for "any CPU" when opening.
 */
AUXTRACE_API int perf_cpu_map__nr(const struct perf_cpu_map *map);
/* perf_cpu_map__cpu() returns the CPU at idx; {-1} when map is NULL or idx is out of range. */
AUXTRACE_API struct perf_cpu perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx);
/* perf_cpu_map__idx() returns the index of cpu in map, or -1 (also for a NULL map). */
AUXTRACE_API int perf_cpu_map__idx(const struct perf_cpu_map *map, struct perf_cpu cpu);
/* perf_cpu_map__has() returns whether cpu is in map (false for a NULL map). */
AUXTRACE_API bool perf_cpu_map__has(const struct perf_cpu_map *map, struct perf_cpu cpu);
/* perf_cpu_map__equal() returns whether a and b hold the same CPUs (two NULLs are equal). */
AUXTRACE_API bool perf_cpu_map__equal(const struct perf_cpu_map *a, const struct perf_cpu_map *b);
/* perf_cpu_map__is_subset() returns whether b is a subset of a (a NULL b is of anything). */
AUXTRACE_API bool perf_cpu_map__is_subset(const struct perf_cpu_map *a,
					  const struct perf_cpu_map *b);
/* perf_cpu_map__has_any_cpu() returns whether map holds -1 ("any CPU") among its CPUs. */
AUXTRACE_API bool perf_cpu_map__has_any_cpu(const struct perf_cpu_map *map);
/* perf_cpu_map__is_any_cpu_or_is_empty() returns whether map is NULL or exactly {-1}. */
AUXTRACE_API bool perf_cpu_map__is_any_cpu_or_is_empty(const struct perf_cpu_map *map);
/* perf_cpu_map__is_empty() returns whether map is NULL (the only empty map). */
AUXTRACE_API bool perf_cpu_map__is_empty(const struct perf_cpu_map *map);
/* perf_cpu_map__min() returns the lowest real CPU (skipping -1); {-1} for an empty map. */
AUXTRACE_API struct perf_cpu perf_cpu_map__min(const struct perf_cpu_map *map);
/* perf_cpu_map__max() returns the highest entry; {-1} for an empty map. */
AUXTRACE_API struct perf_cpu perf_cpu_map__max(const struct perf_cpu_map *map);

/*
 * perf_cpu_map__merge() makes *orig the sorted union of *orig and other: the reference
 * *orig held is dropped and *orig holds one to the result (which may be other itself);
 * other's reference stays the caller's. Returns 0 or -ENOMEM (then *orig is unchanged).
 */
AUXTRACE_API int perf_cpu_map__merge(struct perf_cpu_map **orig, struct perf_cpu_map *other);
/*
 * perf_cpu_map__intersect() returns the sorted intersection of a and b with a new
 * reference (the caller's: perf_cpu_map__put), which may be a or b itself; NULL with errno
 * 0 for an empty result, NULL + ENOMEM on failure.
 */
AUXTRACE_API struct perf_cpu_map *perf_cpu_map__intersect(struct perf_cpu_map *a,
							  struct perf_cpu_map *b);

/*
 * perf_cpu_map__snprint() writes the shortest list string ("1-2,4-5,7"; "-1" for the any-CPU
 * map; "" for NULL), as snprintf: returns the length it needs, writes at most size bytes.
 */
AUXTRACE_API size_t perf_cpu_map__snprint(const struct perf_cpu_map *map, char *buf,
					  size_t size);

#define perf_cpu_map__for_each_cpu(cpu, idx, cpus)				\
	for ((idx) = 0, (cpu) = perf_cpu_map__cpu(cpus, idx);			\
	     (idx) < perf_cpu_map__nr(cpus);					\
	     (idx)++, (cpu) = perf_cpu_map__cpu(cpus, idx))

/*
 * Threads: pid -1 (the dummy map) means "any thread" (a per-CPU event). The constructors
 * return a map with one reference (the caller's: perf_thread_map__put).
 */
/* perf_thread_map__new_dummy() returns the map {-1}, or NULL + ENOMEM. */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_dummy(void);
/*
 * perf_thread_map__new_tid() returns the map of one thread (or process leader), {tid}; NULL
 * + errno EINVAL (tid < -1) or ENOMEM.
 */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_tid(pid_t tid);
/*
 * perf_thread_map__new_pid() returns every thread of a running process, from
 * /proc/PID/task, sorted; NULL + errno ESRCH (no such process), EINVAL (pid <= 0), ENOMEM.
 */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_pid(pid_t pid);
/*
 * perf_thread_map__new_array() returns a map of the nr tids (copied, in their order); NULL
 * + errno EINVAL (nr <= 0, a tid below -1) or ENOMEM.
 */
AUXTRACE_API struct perf_thread_map *perf_thread_map__new_array(int nr, const pid_t *tids);
/* perf_thread_map__get() adds a reference to map (may be NULL). Returns map. */
AUXTRACE_API struct perf_thread_map *perf_thread_map__get(struct perf_thread_map *map);
/* perf_thread_map__put() drops a reference to map (may be NULL), freeing it with the last. */
AUXTRACE_API void perf_thread_map__put(struct perf_thread_map *map);
/* perf_thread_map__nr() returns the number of threads; nr(NULL) == 1 (the dummy thread). */
AUXTRACE_API int perf_thread_map__nr(const struct perf_thread_map *map);
/* perf_thread_map__pid() returns the pid at idx; -1 for NULL or out of range. */
AUXTRACE_API pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx);
/* perf_thread_map__idx() returns the index of pid in map, or -1 (also for a NULL map). */
AUXTRACE_API int perf_thread_map__idx(const struct perf_thread_map *map, pid_t pid);

#ifdef __cplusplus
}
#endif
#endif
