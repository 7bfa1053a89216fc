/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Private to the timeline (timeline.c: the object, its streams and clocks; timeline-merge.c:
 * the walk that merges them with the session).
 */
#ifndef AUXTRACE_DECODE_TIMELINE_INTERNAL_H
#define AUXTRACE_DECODE_TIMELINE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>

struct tl_pipe;

struct tl_stream {
	struct timeline_stream ops;	/* the caller's, copied; ops.name is name */
	char *name;
	struct timeline_record head;	/* pulled, not yet delivered */
	bool has_head;
	bool done;			/* at its end, or failed */
	uint64_t records;		/* delivered */
};

struct timeline {
	struct timeline_opts opts;
	struct perf_session *session;	/* borrowed, NULL: streams only */
	struct tl_stream *streams;
	int nr_streams;
	/* The clock every source must share: the session's, else the first stream's. */
	bool has_clock;
	const char *clock;		/* clock_name, or NULL: unknown */
	char clock_name[32];
	char clock_who[64];		/* whose clock it is, for messages */
	bool processed;
	/* during timeline__process */
	timeline_fn fn;
	void *ctx;
	int stop;			/* fn's negative return: stop everything (the walker's) */
	int fn_stop;			/* fn's first negative return (the caller's thread) */
	struct tl_pipe *pipe;		/* nr_threads >= 2: the walker's thread hands over */
	int err;			/* the first source's failure */
	uint64_t perf_records;
	struct timeline_stats stats;
};

/*
 * timeline-pipe.c: walk(tl) on a thread of its own, hand(tl, rec) (the callback, fn's first
 * negative return or 0) on this one, for every record walk delivers through tl_pipe__put.
 * 0 when the walk ran (its result is in tl), -errno when it could not start (nothing
 * delivered). The pipe calls back into timeline-merge.c only through these two.
 */
int tl_pipe__run(struct timeline *tl, void (*walk)(struct timeline *tl),
		 int (*hand)(struct timeline *tl, const struct timeline_record *rec));
/* The walker's delivery of rec through tl->pipe: the callback's stop, or 0. */
int tl_pipe__put(struct tl_pipe *p, const struct timeline_record *rec);

#endif
