/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A list of evsels sharing CPU and thread maps, opened together, with one data ring per mmap
 * idx (a CPU in per-CPU sessions, a thread in per-thread ones): the first fd at an idx owns
 * the ring, every other fd there is redirected to it with PERF_EVENT_IOC_SET_OUTPUT. Hooks
 * let a caller attach more to each ring (the AUX area: auxtrace/auxtrace-mmaps.h). The mmap
 * driver and the sample-ID lookup have headers of their own (evlist-mmap.h, evlist-ids.h),
 * included here.
 */
#ifndef AUXTRACE_EVLIST_H
#define AUXTRACE_EVLIST_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/evlist-ids.h>
#include <auxtrace/evlist-mmap.h>
#include <auxtrace/evsel.h>
#include <auxtrace/mmap.h>

#ifdef __cplusplus
extern "C" {
#endif

struct evlist;
struct ring_set;
struct ring_sink;

/*
 * evlist__new() returns an empty evlist, the caller's (evlist__delete); NULL + errno:
 * ENOMEM.
 */
AUXTRACE_API struct evlist *evlist__new(void);
/*
 * evlist__delete() unmaps and closes evlist, frees every evsel it owns (dropped ones too)
 * and drops its map references. NULL: nothing.
 */
AUXTRACE_API void evlist__delete(struct evlist *evlist);

/*
 * evlist__add() appends evsel. Returns 0: the evlist owns evsel from now on; or -errno
 * (ENOMEM, or the propagation's): it could not take it and it stays the caller's. Once the
 * maps are set it is propagated at once, and may be dropped at once (see evlist__set_maps):
 * still 0, as the evlist owns it all the same.
 */
AUXTRACE_API int evlist__add(struct evlist *evlist, struct evsel *evsel);
/*
 * evlist__remove() hands evsel (in the list, or dropped from it) back to the caller; an
 * evsel of another evlist is left alone.
 */
AUXTRACE_API void evlist__remove(struct evlist *evlist, struct evsel *evsel);
/*
 * evlist__move_to_front() moves evsel, one of evlist's, to the front (AUX backends: the AUX
 * event must own each ring).
 */
AUXTRACE_API void evlist__move_to_front(struct evlist *evlist, struct evsel *evsel);
/* evlist__nr_entries() returns how many evsels are in the list (dropped ones not counted). */
AUXTRACE_API int evlist__nr_entries(const struct evlist *evlist);
/* evlist__first() returns the first evsel (borrowed), or NULL for an empty list. */
AUXTRACE_API struct evsel *evlist__first(const struct evlist *evlist);
/* evlist__next() returns the evsel after evsel (borrowed), or NULL after the last. */
AUXTRACE_API struct evsel *evlist__next(const struct evlist *evlist, const struct evsel *evsel);

#define evlist__for_each_entry(evlist, evsel)				\
	for ((evsel) = evlist__first(evlist); (evsel);			\
	     (evsel) = evlist__next(evlist, evsel))

/*
 * evlist__set_maps() sets the user's CPUs (NULL or the any-CPU map: per-thread) and threads
 * (NULL: dummy); propagated to every evsel as libperf does (PMU cpumasks intersected,
 * system-wide evsels on all their CPUs with the dummy thread). Takes its own references.
 * Evsels added later are propagated when added. An evsel left with no CPU (its PMU counts on
 * none of the user's CPUs) is dropped, with a warning: as in libperf it leaves the list (the
 * others' positions close up, evsel__idx() says -1), but the evlist keeps owning it, so
 * pointers to it stay valid until evlist__delete frees it (or evlist__remove hands it back). A
 * later set_maps does not bring it back. Set an evsel's system-wide, PMU CPUs and requires-CPU
 * properties before adding it. Returns 0 or -errno (ENOMEM).
 */
AUXTRACE_API int evlist__set_maps(struct evlist *evlist, struct perf_cpu_map *cpus,
				  struct perf_thread_map *threads);
/* evlist__user_cpus() returns the CPU map evlist__set_maps() took, borrowed (NULL before). */
AUXTRACE_API struct perf_cpu_map *evlist__user_cpus(const struct evlist *evlist);
/* evlist__all_cpus() returns the union of every evsel's CPUs, borrowed (NULL before set_maps). */
AUXTRACE_API struct perf_cpu_map *evlist__all_cpus(const struct evlist *evlist);
/* evlist__threads() returns the thread map evlist__set_maps() took, borrowed. */
AUXTRACE_API struct perf_thread_map *evlist__threads(const struct evlist *evlist);

/*
 * evlist__open() opens every evsel on its own maps (evsel__open), in list order. Returns 0
 * or -errno: EINVAL before evlist__set_maps, else the first evsel__open error (then every
 * evsel is closed again).
 */
AUXTRACE_API int evlist__open(struct evlist *evlist);
/* evlist__close() unmaps the rings, then closes every evsel, members before leaders. */
AUXTRACE_API void evlist__close(struct evlist *evlist);
/*
 * evlist__enable() enables every evsel (evsel__enable). Returns 0 or the first -errno (the
 * evsels before it stay enabled).
 */
AUXTRACE_API int evlist__enable(struct evlist *evlist);
/* evlist__disable() disables every evsel; returns as evlist__enable. */
AUXTRACE_API int evlist__disable(struct evlist *evlist);

/*
 * evlist__add_to_ring_set() adds every forward data ring of the mapped evlist to set as a
 * source (auxtrace/ring-set.h) drained into sink (both borrowed: keep them while set
 * polls) when any fd feeding it is ready, and before every round ends. Backward rings are
 * left out: they are read after pausing them, not on wakeups. The fds of events on tasks
 * are watched as RING_WATCH_F_TASK: the set's nr_alive reaches 0 once every traced task
 * exited. The sources last until evlist__munmap. Returns 0 or -errno: EINVAL (a NULL
 * argument), ENOENT (nothing mapped), or ring_set__add's and ring_set__watch's.
 */
AUXTRACE_API int evlist__add_to_ring_set(struct evlist *evlist, struct ring_set *set,
					 struct ring_sink *sink);

#ifdef __cplusplus
}
#endif
#endif
