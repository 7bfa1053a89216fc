// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline object: a session, the streams registered beside it, and the one clock they
 * must share for their times to be comparable. The walk is in timeline-merge.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include <internal/session.h>
#include "timeline-internal.h"

const char *perf_clockid__trace_clock(int clockid)
{
	switch (clockid) {
	case -1:
		return "perf";		/* perf_clock(), which trace clock "perf" reads too */
	case CLOCK_MONOTONIC:
		return "mono";
	case CLOCK_MONOTONIC_RAW:
		return "mono_raw";
	case CLOCK_BOOTTIME:
		return "boot";
	case CLOCK_TAI:
		return "tai";
	default:
		return NULL;
	}
}

/* The timeline's clock, copied: a stream's name for it is the stream's. */
static void timeline__set_clock(struct timeline *tl, const char *clock)
{
	tl->has_clock = true;
	tl->clock = NULL;
	if (clock && strlen(clock) < sizeof(tl->clock_name))
		tl->clock = strcpy(tl->clock_name, clock);
}

/* The session's clock: the first attr with use_clockid names it (perf record -k sets all). */
static void timeline__session_clock(struct timeline *tl)
{
	struct evlist *evlist = perf_session__evlist(tl->session);
	struct evsel *evsel;
	int clockid = -1;

	evlist__for_each_entry(evlist, evsel) {
		const struct perf_event_attr *attr = evsel__attr(evsel);

		if (attr->use_clockid) {
			clockid = attr->clockid;
			break;
		}
	}
	timeline__set_clock(tl, perf_clockid__trace_clock(clockid));
	if (tl->clock)
		snprintf(tl->clock_who, sizeof(tl->clock_who), "%s", tl->session->path);
	else	/* no trace clock reads it: compared with nothing */
		snprintf(tl->clock_who, sizeof(tl->clock_who), "%s (clockid %d)",
			 tl->session->path, clockid);
}

struct timeline *timeline__new(struct perf_session *session, const struct timeline_opts *opts)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return libauxtrace__ptr_err(ENOMEM);
	if (opts__copy(timeline_opts, &tl->opts, opts)) {
		free(tl);
		return libauxtrace__ptr_err(EINVAL);
	}
	tl->session = session;
	if (session)
		timeline__session_clock(tl);
	return tl;
}

void timeline__delete(struct timeline *tl)
{
	if (!tl)
		return;
	for (int i = 0; i < tl->nr_streams; i++) {
		struct tl_stream *s = &tl->streams[i];

		if (s->ops.free)
			s->ops.free(s->ops.ctx);
		free(s->name);
	}
	free(tl->streams);
	free(tl);
}

static bool timeline__same_clock(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* A stream on another clock than the timeline's: refused unless any_clock. */
static int timeline__check_clock(struct timeline *tl, const struct timeline_stream *st)
{
	if (!tl->has_clock) {
		timeline__set_clock(tl, st->clock);
		snprintf(tl->clock_who, sizeof(tl->clock_who), "the %s stream", st->name);
		return 0;
	}
	if (tl->opts.any_clock || timeline__same_clock(tl->clock, st->clock))
		return 0;
	pr_err("timeline: the %s stream's times are on trace clock %s%s%s and %s's on %s%s%s, and "
	       "nothing recorded converts one into the other: not interleaving them. Each can be "
	       "read alone (a timeline of one source), or set timeline_opts.any_clock to "
	       "interleave by raw times anyway\n", st->name,
	       st->clock ? "\"" : "", st->clock ? st->clock : "unknown", st->clock ? "\"" : "",
	       tl->clock_who, tl->clock ? "\"" : "", tl->clock ? tl->clock : "unknown",
	       tl->clock ? "\"" : "");
	return libauxtrace__err(-EXDEV);
}

int timeline__add_stream(struct timeline *tl, const struct timeline_stream *stream)
{
	struct timeline_stream st;
	struct tl_stream *streams, *s;
	int err;

	if (tl->processed) {
		pr_err("timeline__add_stream: the timeline was walked already\n");
		return libauxtrace__err(-EBUSY);
	}
	if (opts__copy(timeline_stream, &st, stream))
		return libauxtrace__err(-EINVAL);
	if (!st.name || !st.next) {
		pr_err("timeline__add_stream: a stream needs a name and a next()\n");
		return libauxtrace__err(-EINVAL);
	}
	err = timeline__check_clock(tl, &st);
	if (err)
		return err;
	streams = realloc(tl->streams, (size_t)(tl->nr_streams + 1) * sizeof(*streams));
	if (!streams)
		return libauxtrace__err(-ENOMEM);
	tl->streams = streams;
	s = &streams[tl->nr_streams];
	*s = (struct tl_stream){ .ops = st, .name = strdup(st.name) };
	if (!s->name)
		return libauxtrace__err(-ENOMEM);
	s->ops.name = s->name;
	s->ops.clock = NULL;	/* the caller's string: no longer needed */
	tl->nr_streams++;
	return 0;
}

const char *timeline__clock(const struct timeline *tl)
{
	return tl->clock;
}

const struct timeline_stats *timeline__stats(const struct timeline *tl)
{
	return &tl->stats;
}

uint64_t timeline__stream_records(const struct timeline *tl, const char *name)
{
	if (tl->session && !strcmp(name, "perf"))
		return tl->perf_records;
	for (int i = 0; i < tl->nr_streams; i++)
		if (!strcmp(tl->streams[i].name, name))
			return tl->streams[i].records;
	return 0;
}
