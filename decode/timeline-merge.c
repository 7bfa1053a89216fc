// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline's walk. The session already delivers its records in time order (sorted
 * between FINISHED_ROUNDs, the AUX decoders' samples merged in); the streams are pulled one
 * record ahead each, and before a session record with time t goes out, every stream record
 * older than t goes first, the oldest of the streams' heads each time (a k-way merge over a
 * handful of streams: a scan, no heap). Ties go to the session, then to the stream added
 * first. What no source orders (records without a time) goes out where it is read.
 */
#include <stdlib.h>
#include <string.h>

#include <auxtrace/decode.h>
#include <auxtrace/auxtrace-index.h>
#include <internal/lib.h>
#include <internal/session.h>
#include "timeline-internal.h"

/* Count rec, then hand it to the caller's fn (on the caller's thread): its first stop. */
static int timeline__hand(struct timeline *tl, const struct timeline_record *rec)
{
	struct timeline_stats *st = &tl->stats;
	int err;

	st->nr[rec->kind]++;
	if (rec->time == TIMELINE_NO_TIME) {
		st->nr_no_time++;
	} else {
		if (rec->time < st->last_time)
			st->nr_unordered++;
		if (!st->first_time || rec->time < st->first_time)
			st->first_time = rec->time;
		if (rec->time > st->last_time)
			st->last_time = rec->time;
	}
	err = tl->fn(tl->ctx, rec);
	if (err < 0 && !tl->fn_stop)
		tl->fn_stop = err;
	return tl->fn_stop;
}

/*
 * The walker's delivery: to fn, at once or through the pipe to the caller's thread. fn's
 * negative return stops every source.
 */
static int timeline__deliver(struct timeline *tl, const struct timeline_record *rec)
{
	int stop = tl->pipe ? tl_pipe__put(tl->pipe, rec) : timeline__hand(tl, rec);

	if (stop && !tl->stop)
		tl->stop = stop;
	return tl->stop;
}

/* The first failure of a source, kept for timeline__process's return. */
static void timeline__source_failed(struct timeline *tl, int err)
{
	if (!tl->err)
		tl->err = err;
}

/*
 * Make s's next record its head; a record without a time goes out at once. A failed stream
 * is over (it logged why), the others go on.
 */
static int timeline__pull(struct timeline *tl, struct tl_stream *s)
{
	while (!s->done && !tl->stop) {
		struct timeline_record *rec = &s->head;
		int ret;

		*rec = (struct timeline_record){
			.kind = TIMELINE_STREAM, .time = TIMELINE_NO_TIME, .cpu = -1, .pid = -1,
			.tid = -1,
		};
		ret = s->ops.next(s->ops.ctx, rec);
		/* the stream fills what is its own: the rest is ours */
		rec->kind = TIMELINE_STREAM;
		rec->source = s->name;
		if (ret <= 0) {
			s->done = true;
			if (ret < 0)
				timeline__source_failed(tl, ret);
			break;
		}
		if (rec->time != TIMELINE_NO_TIME) {
			s->has_head = true;
			break;
		}
		s->records++;
		timeline__deliver(tl, rec);
	}
	return tl->stop;
}

/* The stream whose head is oldest (the first added on a tie), NULL when none has one. */
static struct tl_stream *timeline__oldest(struct timeline *tl)
{
	struct tl_stream *best = NULL;

	for (int i = 0; i < tl->nr_streams; i++) {
		struct tl_stream *s = &tl->streams[i];

		if (s->has_head && (!best || s->head.time < best->head.time))
			best = s;
	}
	return best;
}

/* Hand out the stream records older than time (all: TIMELINE_NO_TIME and all set). */
static int timeline__drain(struct timeline *tl, uint64_t time, bool all)
{
	struct tl_stream *s;

	while (!tl->stop && (s = timeline__oldest(tl)) && (all || s->head.time < time)) {
		s->has_head = false;
		s->records++;
		/* the head stays valid until the stream's next call: deliver, then pull */
		if (timeline__deliver(tl, &s->head) || timeline__pull(tl, s))
			break;
	}
	return tl->stop;
}

/* A session record: the older stream records first. */
static int timeline__session_record(struct timeline *tl, struct timeline_record *rec)
{
	rec->source = "perf";
	if (rec->time == 0)	/* the session's rule: a time of 0 is no time */
		rec->time = TIMELINE_NO_TIME;
	if (rec->time != TIMELINE_NO_TIME && timeline__drain(tl, rec->time, false))
		return tl->stop;
	tl->perf_records++;
	return timeline__deliver(tl, rec);
}

struct timeline_tool {
	struct perf_tool tool;
	struct timeline *tl;
};

static int timeline__perf_record(struct perf_tool *tool, enum timeline_kind kind,
				 union perf_event *event, struct perf_sample *sample,
				 struct evsel *evsel)
{
	struct timeline_record rec = {
		.kind = kind, .time = sample->time, .cpu = (int)sample->cpu,
		.pid = (int)sample->pid, .tid = (int)sample->tid,
		.perf = { .event = event, .sample = sample, .evsel = evsel },
	};

	return timeline__session_record(container_of(tool, struct timeline_tool, tool)->tl, &rec);
}

static int timeline__perf_sample(struct perf_tool *tool, struct perf_session *session,
				 union perf_event *event, struct perf_sample *sample,
				 struct evsel *evsel)
{
	(void)session;
	return timeline__perf_record(tool, TIMELINE_PERF_SAMPLE, event, sample, evsel);
}

static int timeline__perf_event(struct perf_tool *tool, struct perf_session *session,
				union perf_event *event, struct perf_sample *sample,
				struct evsel *evsel)
{
	(void)session;
	return timeline__perf_record(tool, TIMELINE_PERF_EVENT, event, sample, evsel);
}

static int timeline__aux_sample(struct perf_tool *tool, struct perf_session *session,
				const struct auxtrace_sample *sample, struct evsel *evsel)
{
	struct timeline_record rec = {
		.kind = TIMELINE_AUX_SAMPLE, .time = sample->time, .cpu = sample->cpu,
		.pid = sample->pid, .tid = sample->tid,
		.aux = { .sample = sample, .evsel = evsel },
	};

	(void)session;
	return timeline__session_record(container_of(tool, struct timeline_tool, tool)->tl, &rec);
}

static int timeline__aux_error(struct perf_tool *tool, struct perf_session *session,
			       const struct auxtrace_decode_error *err, struct evsel *evsel)
{
	struct timeline_record rec = {
		.kind = TIMELINE_AUX_ERROR, .time = err->time, .cpu = err->cpu,
		.pid = err->pid, .tid = err->tid,
		.aux_error = { .err = err, .evsel = evsel },
	};

	(void)session;
	return timeline__session_record(container_of(tool, struct timeline_tool, tool)->tl, &rec);
}

/* A user record: no time, so it goes out where it was read. */
static int timeline__perf_user(struct perf_tool *tool, struct perf_session *session,
			       union perf_event *event, uint64_t file_offset)
{
	struct timeline_record rec = {
		.kind = TIMELINE_PERF_USER, .time = TIMELINE_NO_TIME, .cpu = -1, .pid = -1,
		.tid = -1, .perf = { .event = event },
	};

	(void)session;
	(void)file_offset;
	return timeline__session_record(container_of(tool, struct timeline_tool, tool)->tl, &rec);
}

/* An AUXTRACE goes to tool->auxtrace instead of user_event: the same for the timeline. */
static int timeline__perf_auxtrace(struct perf_tool *tool, struct perf_session *session,
				   union perf_event *event, uint64_t data_offset, const void *data)
{
	(void)data;
	return timeline__perf_user(tool, session, event, data_offset);
}

static int timeline__process_session(struct timeline *tl)
{
	struct timeline_tool tt = {
		.tool = {
			.sz = sizeof(struct perf_tool),
			.ordered_events = true,
			.sample = timeline__perf_sample,
			.event = timeline__perf_event,
			.auxtrace_sample = timeline__aux_sample,
			.auxtrace_error = timeline__aux_error,
		},
		.tl = tl,
	};
	int err;

	if (tl->opts.user_records) {
		tt.tool.user_event = timeline__perf_user;
		tt.tool.auxtrace = timeline__perf_auxtrace;
	}
	err = perf_session__process_events(tl->session, &tt.tool);

	/* a damaged perf.data ends the session's part: the streams still go to their end */
	if (err && !tl->stop)
		timeline__source_failed(tl, err);
	return tl->stop;
}

/* Pull the streams, process the session, drain what the streams have left. */
static void timeline__walk(struct timeline *tl)
{
	for (int i = 0; i < tl->nr_streams && !tl->stop; i++)
		timeline__pull(tl, &tl->streams[i]);
	if (!tl->stop && tl->session)
		timeline__process_session(tl);
	if (!tl->stop)
		timeline__drain(tl, TIMELINE_NO_TIME, true);
}

/*
 * A second thread pays only where there is AUX data to decode (an AUXTRACE index and
 * decoders): every other record is handed over and waited for, which costs more than it
 * overlaps. A thread that cannot be made leaves the walk to this one: the records are the
 * same.
 */
static bool timeline__threaded(const struct timeline *tl)
{
	const struct perf_session *s = tl->session;

	return tl->opts.nr_threads >= 2 && s && s->opts.decoders && s->auxtrace_index &&
	       auxtrace_index__nr(s->auxtrace_index);
}

int timeline__process(struct timeline *tl, timeline_fn fn, void *ctx)
{
	if (tl->processed) {
		pr_err("timeline__process: the timeline was walked already: make another\n");
		return libauxtrace__err(-EBUSY);
	}
	tl->processed = true;
	tl->fn = fn;
	tl->ctx = ctx;
	if (!timeline__threaded(tl) || tl_pipe__run(tl, timeline__walk, timeline__hand) < 0)
		timeline__walk(tl);
	if (tl->fn_stop)
		return libauxtrace__err(tl->fn_stop);
	return libauxtrace__err(tl->stop ? tl->stop : tl->err);
}
