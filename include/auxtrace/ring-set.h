/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A ring set: one epoll set over every ring of a recording, drained only where the kernel
 * says data is ready, each ring into the sink chosen for it. As libbpf's ring_buffer__poll:
 * a wakeup costs the rings that are ready, not all of them.
 *
 * The set knows rings only as sources (struct ring_source): a drain function, the fds that
 * say it is ready, and a few flags. Each kind of ring joins through the same interface from
 * where it lives: evlist__add_to_ring_set (perf data rings), auxtrace_mmaps__add_to_ring_set
 * (AUX areas), tracefs_cpu_add_to_ring_set (tracefs CPU buffers), ring_set__add_source (any
 * other ring with a fd).
 *
 *	struct ring_set *set = ring_set__new(NULL);
 *
 *	evlist__add_to_ring_set(evlist, set, &data_sink);
 *	auxtrace_mmaps__add_to_ring_set(aux, set, &aux_sink);
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

/* Where a ring's bytes come from, for the per-source statistics. */
enum ring_source_kind {
	RING_SOURCE_PERF,	/* a perf data ring: samples and side-band */
	RING_SOURCE_AUX,	/* an AUX area: hardware trace */
	RING_SOURCE_FTRACE,	/* a tracefs CPU buffer */
	RING_SOURCE_OTHER,	/* anything else */
	RING_SOURCE__MAX,
};

/* How the set drains a source, and asks what it delivered. */
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
	 * writer puts PERF_RECORD_FINISHED_ROUND. Before it is called, every source flagged
	 * RING_SOURCE_F_ROUND (every perf data ring, and the AUX area that follows it) has
	 * been drained, the ready ones and the others, as perf record reads every ring in each
	 * round: perf sorts records one round behind, and a record left in a ring under its
	 * wakeup mark would come out after newer ones. Optional; without it only the ready
	 * rings are drained.
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
 * rings, the sources' ctx and sinks stay the caller's.
 */
AUXTRACE_API void ring_set__delete(struct ring_set *set);

enum ring_source_flags {
	/*
	 * Drained before every round ends, ready or not (see struct ring_set_opts pass_done):
	 * a perf data ring, whose records perf sorts one round behind.
	 */
	RING_SOURCE_F_ROUND	= 1 << 0,
};

/*
 * A ring as the set sees it. Sized as the option structs are (AUXTRACE_OPTS in
 * auxtrace/core.h): every field here is required, and what a later release adds at the end
 * is optional (0: its default).
 */
struct ring_source {
	size_t sz;			/* sizeof(struct ring_source) */
	enum ring_source_kind kind;	/* which stats it counts in */
	int cpu;			/* the CPU whose stats it counts in; -1: none */
	unsigned int flags;		/* enum ring_source_flags */
	const struct ring_source_ops *ops;
	void *ctx;			/* ops' argument */
	struct ring_sink *sink;		/* where drain moves its bytes */
};

/*
 * ring_set__add() adds a source (copied; its ops, ctx and sink are borrowed: they must
 * outlive the set) that no fd wakes yet: give it fds with ring_set__watch, or let it follow
 * another with ring_set__follow (a source with neither is drained only by drain_all, and at
 * rounds with RING_SOURCE_F_ROUND). Returns its id (>= 0, the sources numbered in the order
 * added), or -errno: EINVAL for a missing ops->drain or sink, an unknown kind or flag, or
 * by the option structs' rule (sz not set; a byte set past what this library knows); ENOMEM.
 */
AUXTRACE_API int ring_set__add(struct ring_set *set, const struct ring_source *src);

enum ring_watch_flags {
	/*
	 * The fd of an event on a task: it hangs up when the task exits (counted by
	 * ring_set__nr_alive). Any watched fd that hangs up is drained once more and leaves
	 * the set, so that the loop does not spin on it.
	 */
	RING_WATCH_F_TASK	= 1 << 0,
};

/*
 * ring_set__watch() drains source id whenever fd (borrowed: keep it open while the set
 * polls) is ready. A source may have several fds (events redirected into one perf ring with
 * PERF_EVENT_IOC_SET_OUTPUT each wake it); a fd wakes one source. Returns 0 or -errno:
 * EINVAL (no such source, fd < 0, an unknown flag), EEXIST (fd wakes another source: let
 * this one follow that one), ENOMEM, epoll_ctl's (ENOSPC, EPERM).
 */
AUXTRACE_API int ring_set__watch(struct ring_set *set, int id, int fd, unsigned int flags);

/*
 * ring_set__follow() drains source id right after source leader, each time that one is
 * drained (its wakeups, rounds, drain_all), and only then: for a ring the kernel signals
 * through another's fds, as the AUX area through the fds of the data ring at its idx, whose
 * PERF_RECORD_AUX records describe the AUX data. Followers are drained in the order they
 * were added. Returns 0 or -EINVAL (no such source, id == leader, id follows or leads
 * already, leader follows another: one level only).
 */
AUXTRACE_API int ring_set__follow(struct ring_set *set, int id, int leader);

/*
 * ring_set__find_source() returns the id of the first source added with ctx (a leader to
 * follow), or -ENOENT (-EINVAL: set NULL).
 */
AUXTRACE_API int ring_set__find_source(const struct ring_set *set, const void *ctx);

/*
 * ring_set__add_source() adds any ring with one fd: ring_set__add with no flags, then
 * ring_set__watch(fd); cpu -1: none. fd, ops, ctx and sink are borrowed: they must outlive
 * the set. Returns 0 or -errno (as ring_set__add and ring_set__watch; the source is not
 * added when its fd cannot be watched).
 */
AUXTRACE_API int ring_set__add_source(struct ring_set *set, int fd, int cpu,
				      enum ring_source_kind kind,
				      const struct ring_source_ops *ops, void *ctx,
				      struct ring_sink *sink);

/*
 * ring_set__set_sinks() gives every source of kind a new sink: sink_of(ctx, cpu) for the
 * source's cpu (-1: none). This is how a recording rotates its output: drain every ring
 * (ring_set__drain_all), finish the files, make the next ones, then move the sources to
 * their sinks before the next poll: what the rings hold then goes to the new files, nothing
 * twice and nothing lost. All or nothing: when sink_of returns NULL (errno set) for one
 * source, no source changes. The new sinks are borrowed, as ring_set__add's. Returns how
 * many sources changed (0: none of that kind), or -errno: EINVAL (set or sink_of NULL, an
 * unknown kind), ENOMEM, or sink_of's errno.
 */
AUXTRACE_API int ring_set__set_sinks(struct ring_set *set, enum ring_source_kind kind,
				     struct ring_sink *(*sink_of)(void *ctx, int cpu), void *ctx);

/*
 * ring_set__poll() waits up to timeout_ms (-1: for ever) and drains the rings that are ready,
 * each with its followers (and, when a round ends, the other RING_SOURCE_F_ROUND sources:
 * see struct ring_set_opts). Returns how many ready fds were served (0: timeout),
 * -ECANCELED once ring_set__stop() was called, or the first drain's -errno (the other ready
 * rings are drained all the same; what a sink refused stays in its ring).
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
 * ring_set__nr_alive() returns how many RING_WATCH_F_TASK fds (events bound to tasks) have
 * not hung up yet. A task's exit hangs its fds up: 0 once every traced task is gone and the
 * recording can end, as perf record ends. -1 when no such fd was ever added.
 */
AUXTRACE_API int ring_set__nr_alive(const struct ring_set *set);

/*
 * ring_set__nr_rings() returns how many sources the set drains (an AUX area counts apart
 * from its data ring).
 */
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
