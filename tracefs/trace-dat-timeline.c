// SPDX-License-Identifier: LGPL-2.1
/*
 * A trace.dat as a stream of a timeline (auxtrace/timeline.h): its cursor over every CPU,
 * merged by time, pulled one record at a time, on the file's trace clock.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <auxtrace/timeline.h>
#include <internal/lib.h>
#include "trace-dat-reader-internal.h"

struct td_stream {
	struct trace_dat_cursor *cursor;
	/* common_pid in every payload (the formats share their common fields); size 0: none */
	unsigned int pid_offset, pid_size;
	bool pid_known;
};

/* The task the event ran in: common_pid, the thread ID (ftrace knows no process ID). */
static int td_stream__pid(struct td_stream *ts, const struct trace_dat_record *rec)
{
	int32_t pid;

	if (!ts->pid_known && rec->event) {
		struct tep_format_field *f = tep_find_common_field(rec->event, "common_pid");

		ts->pid_known = true;
		if (f && f->size == sizeof(pid)) {
			ts->pid_offset = (unsigned int)f->offset;
			ts->pid_size = (unsigned int)f->size;
		}
	}
	if (!ts->pid_size || rec->size < ts->pid_offset + ts->pid_size)
		return -1;
	memcpy(&pid, (const char *)rec->data + ts->pid_offset, sizeof(pid));
	return pid;
}

static int td_stream__next(void *ctx, struct timeline_record *out)
{
	struct td_stream *ts = ctx;
	const struct trace_dat_record *rec = trace_dat_cursor__next(ts->cursor);

	if (!rec)
		return errno ? -errno : 0;	/* a damaged sub-buffer: the cursor logged where */
	out->time = rec->ts;
	out->cpu = rec->cpu;
	out->stream.data = rec;
	out->stream.type = rec->kind;
	if (rec->kind == TRACE_DAT_EVENT)
		out->pid = out->tid = td_stream__pid(ts, rec);
	return 1;
}

static void td_stream__free(void *ctx)
{
	struct td_stream *ts = ctx;

	trace_dat_cursor__delete(ts->cursor);
	free(ts);
}

int trace_dat_reader__add_to_timeline(struct trace_dat_reader *r, struct timeline *tl)
{
	struct td_stream *ts = calloc(1, sizeof(*ts));
	int err;

	if (!ts)
		return libauxtrace__err(-ENOMEM);
	ts->cursor = trace_dat_cursor__new(r, -1);
	if (!ts->cursor) {
		err = -errno;
		free(ts);
		return libauxtrace__err(err);
	}
	AUXTRACE_OPTS(timeline_stream, st, .name = "ftrace", .clock = trace_dat_reader__clock(r),
		      .next = td_stream__next, .free = td_stream__free, .ctx = ts);
	err = timeline__add_stream(tl, &st);
	if (err)
		td_stream__free(ts);
	return err;
}
