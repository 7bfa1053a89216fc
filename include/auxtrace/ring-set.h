/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A ring set: one epoll set over every ring of a recording (the perf data rings of an evlist,
 * the AUX area at each of their idx, tracefs CPU buffers, and any other source), drained
 * only where the kernel says data is ready, each ring into the sink chosen for it. As
 * libbpf's ring_buffer__poll: a wakeup costs the rings that are ready, not all of them.
 *
 *	struct ring_set *set = ring_set__new(NULL);
 *
 *	ring_set__add_evlist(set, evlist, aux, &data_sink, &aux_sink);
 *	while (ring_set__poll(set, 1000) != -ECANCELED)	// ring_set__stop() from a handler
 *		;
 *	ring_set__drain_all(set, true);			// what is left, at the end
 */
#ifndef AUXTRACE_RING_SET_H
#define AUXTRACE_RING_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <auxtrace/core.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ring_set;
struct evlist;
struct auxtrace_mmaps;

/* Where a ring's bytes come from, for the per-source statistics. */
enum ring_source_kind {
	RING_SOURCE_PERF,	/* a perf data ring: samples and side-band */
	RING_SOURCE_AUX,	/* an AUX area: hardware trace */
	RING_SOURCE_FTRACE,	/* a tracefs CPU buffer */
	RING_SOURCE_OTHER,	/* anything else added with ring_set__add_source */
	RING_SOURCE__MAX,
};

/* How the set drains a ring it does not know itself (tracefs CPUs, the caller's own). */
struct ring_source_ops {
	/*
	 * Move what is ready into sink; final: also what the producer is still writing (the
	 * end of a recording). Returns bytes moved, 0 when none, or -errno (the bytes stay in
	 * the source: nothing may be lost).
	 */
	ssize_t (*drain)(void *ctx, struct ring_sink *sink, bool final);
	/* What the source delivered and lost so far, or NULL when it keeps no count. */
	const struct ring_stats *(*stats)(void *ctx);
};

struct ring_set_opts {
	size_t sz;		/* sizeof(struct ring_set_opts): fields may be added at the end */
	/*
	 * Called when a round ends, with the bytes moved since the last one: where a perf.data
	 * writer puts PERF_RECORD_FINISHED_ROUND. Before it is called, every perf data ring
	 * (and the AUX area beside it) has been drained, the ready ones and the others, as
	 * perf record reads every ring in each round: perf sorts records one round behind, and
	 * a record left in a ring under its wakeup mark would come out after newer ones.
	 * Optional; without it only the ready rings are drained.
	 */
	void (*pass_done)(void *ctx, size_t bytes);
	void *ctx;
	/*
	 * The least time between two rounds, in ms. 0: every poll that moved data ends a
	 * round, which costs a look at every perf data ring per wakeup (256 CPUs: 256 per
	 * wakeup for one ready ring). Otherwise a poll drains only the ready rings and ends a
	 * round once round_ms have passed since the last (a wait for rings is cut short for
	 * a round that is due), so the cost of a wakeup does not grow with the number of
	 * rings; perf only keeps more records in memory to sort.
	 */
	unsigned int round_ms;
};

/*
 * ring_set__new() returns an empty set, the caller's (ring_set__delete); opts may be NULL
 * (it is copied). NULL + errno: ENOMEM, EINVAL for opts the rule of option structs refuses
 * (auxtrace/core.h), or epoll_create1's or eventfd's (EMFILE).
 */
AUXTRACE_API struct ring_set *ring_set__new(const struct ring_set_opts *opts);
/*
 * ring_set__delete() frees set (NULL: nothing). It frees nothing it did not create: the
 * evlist, AUX areas, sources and sinks stay the caller's.
 */
AUXTRACE_API void ring_set__delete(struct ring_set *set);

/*
 * ring_set__add_evlist() adds every forward data ring of a mapped evlist into data_sink, and,
 * when aux is given, the AUX area at the same idx into aux_sink in the same wakeup
 * (snapshot-mode areas are left to auxtrace_mmaps__read_snapshot). Every fd of the evlist is
 * watched: a task's exit hangs its fds up (see ring_set__nr_alive). Call after evlist__mmap_ex.
 * evlist, aux and the sinks are borrowed: they must outlive the set. Returns 0 or -errno
 * (EINVAL, ENOMEM, epoll_ctl's).
 */
AUXTRACE_API int ring_set__add_evlist(struct ring_set *set, struct evlist *evlist,
				      struct auxtrace_mmaps *aux, struct ring_sink *data_sink,
				      struct ring_sink *aux_sink);

/*
 * ring_set__add_source() adds any other ring, polled on fd, drained through ops (with ctx)
 * into sink; cpu -1: none. fd, ops, ctx and sink are borrowed: they must outlive the set.
 * Returns 0 or -errno (EINVAL for a missing argument or kind, ENOMEM, epoll_ctl's).
 */
AUXTRACE_API int ring_set__add_source(struct ring_set *set, int fd, int cpu,
				      enum ring_source_kind kind,
				      const struct ring_source_ops *ops, void *ctx,
				      struct ring_sink *sink);

/*
 * ring_set__poll() waits up to timeout_ms (-1: for ever) and drains the rings that are ready
 * (and, when a round ends, the other perf data rings: see struct ring_set_opts). Returns how
 * many ready rings were drained (0: timeout), -ECANCELED once ring_set__stop() was called, or
 * the first drain's -errno (the other ready rings are drained all the same; what a sink refused
 * stays in its ring).
 */
AUXTRACE_API int ring_set__poll(struct ring_set *set, int timeout_ms);
/*
 * ring_set__drain_all() drains every ring whether ready or not; final also takes what producers
 * are still writing (after disabling them, at the end of a recording). Returns bytes moved, or
 * the first -errno; -ECANCELED when ring_set__stop() was called before or during it (it stops
 * after the ring it is in; call ring_set__resume() first to drain after a stop that ended a
 * poll loop).
 */
AUXTRACE_API ssize_t ring_set__drain_all(struct ring_set *set, bool final);

/*
 * ring_set__stop() ends the current or next poll with -ECANCELED. Async-signal-safe, and
 * callable from any thread.
 */
AUXTRACE_API void ring_set__stop(struct ring_set *set);
/* ring_set__resume() forgets a stop: the next poll waits again. */
AUXTRACE_API void ring_set__resume(struct ring_set *set);
/*
 * ring_set__fd() returns the epoll fd (the set's), to nest the whole set into a caller's
 * own loop; -EINVAL for a NULL set.
 */
AUXTRACE_API int ring_set__fd(const struct ring_set *set);

/*
 * ring_set__nr_alive() returns how many fds of events bound to tasks (not CPU-wide) have not
 * hung up yet. A task's exit hangs its fds up: 0 once every traced task is gone and the
 * recording can end, as perf record ends. -1 when no such fd was ever added.
 */
AUXTRACE_API int ring_set__nr_alive(const struct ring_set *set);

/* ring_set__nr_rings() returns how many rings the set drains. */
AUXTRACE_API int ring_set__nr_rings(const struct ring_set *set);
/*
 * ring_set__stats_sz() copies into *out (at most sz bytes; use ring_set__stats) the sum of
 * the stats of every ring of this kind on cpu (-1: every CPU, and the rings that have none:
 * per-thread ones). Returns 0, -ENOENT when the set has no such ring, or -EINVAL (out NULL,
 * sz too small).
 */
AUXTRACE_API int ring_set__stats_sz(const struct ring_set *set, enum ring_source_kind kind,
				    int cpu, struct ring_stats *out, size_t sz);
#define ring_set__stats(set, kind, cpu, out) \
	ring_set__stats_sz((set), (kind), (cpu), (out), sizeof(*(out)))

#ifdef __cplusplus
}
#endif
#endif
