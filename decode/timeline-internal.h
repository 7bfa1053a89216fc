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
	int stop;			/* fn's negative return: stop everything */
	int err;			/* the first source's failure */
	uint64_t perf_records;
	struct timeline_stats stats;
};

#endif
