// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline over arbitrary bytes as a recording directory: the input up to the trace.dat
 * magic is the directory's perf.data, the rest its trace.dat (either may be missing), opened
 * with auxtrace_recording__open and the builtin AUX decoders, walked whole with any clock,
 * each record's bytes read, so that a bound the merge, the session or the cursor failed to
 * check shows up under the sanitizers. Errors are expected; crashes, hangs and out-of-bounds
 * reads are not.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/decode.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <tracefs/auxtrace-recording.h>
#include <tracefs/trace-dat-reader.h>
#include "fuzz.h"

FUZZ_LSAN_IGNORE_LIBTRACEEVENT()

static int fuzz_record(void *ctx, const struct timeline_record *rec)
{
	const struct trace_dat_record *t;

	(void)ctx;
	fuzz__sink += rec->time + (uint64_t)rec->cpu + (uint64_t)rec->pid + strlen(rec->source);
	switch (rec->kind) {
	case TIMELINE_PERF_SAMPLE:
	case TIMELINE_PERF_EVENT:
		fuzz__touch(rec->perf.event, rec->perf.event->header.size);
		fuzz__touch(rec->perf.sample->raw_data, rec->perf.sample->raw_size);
		break;
	case TIMELINE_PERF_USER:
		fuzz__touch(rec->perf.event, rec->perf.event->header.size);
		break;
	case TIMELINE_AUX_SAMPLE:
		fuzz__sink += rec->aux.sample->ip;
		break;
	case TIMELINE_AUX_ERROR:
		fuzz__touch_str(rec->aux_error.err->msg);
		break;
	case TIMELINE_STREAM:
		t = rec->stream.data;
		fuzz__touch(t->data, t->size);
		if (t->event)
			fuzz__touch_str(t->event->name);
		break;
	default:
		abort();	/* a kind the timeline does not hand out */
	}
	return 0;
}

/* path holds data[0, size), or is gone when size is 0. */
static int put(const char *path, const uint8_t *data, size_t size)
{
	int fd;
	bool ok;

	unlink(path);
	if (!size)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ok = write(fd, data, size) == (ssize_t)size;
	close(fd);
	return ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char magic[] = "\x17\x08\x44tracing";
	static char dir[64], perf[96], ftrace[96];
	AUXTRACE_OPTS(timeline_opts, tl_opts, .any_clock = true, .user_records = true);
	AUXTRACE_OPTS(perf_session_opts, s_opts, .decoders = auxtrace_decoders__builtin());
	AUXTRACE_OPTS(auxtrace_recording_opts, opts, .session = &s_opts, .timeline = &tl_opts);
	const uint8_t *split = memmem(data, size, magic, sizeof(magic) - 1);
	size_t perf_size = split ? (size_t)(split - data) : size;
	struct auxtrace_recording *rec;

	if (!dir[0]) {
		fuzz__log_quietly();
		snprintf(dir, sizeof(dir), "/tmp/fuzz-timeline-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(perf, sizeof(perf), "%s/perf.data", dir);
		snprintf(ftrace, sizeof(ftrace), "%s/trace.dat", dir);
	}
	if (put(perf, data, perf_size) || put(ftrace, data + perf_size, size - perf_size))
		return 0;
	rec = auxtrace_recording__open(dir, &opts);
	if (rec) {
		struct timeline *tl = auxtrace_recording__timeline(rec);
		const struct timeline_stats *st;
		uint64_t total = 0;

		timeline__process(tl, fuzz_record, NULL);
		st = timeline__stats(tl);
		for (int k = 0; k < TIMELINE_NR_KINDS; k++)
			total += st->nr[k];
		/* every record is counted once, by kind and by source */
		if (total != timeline__stream_records(tl, "perf") +
			     timeline__stream_records(tl, "ftrace"))
			abort();
		auxtrace_recording__close(rec);
	}
	return 0;
}
