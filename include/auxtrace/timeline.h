/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One walk over a recording in time order: the records of a perf.data session (kernel
 * records, samples, and what the AUX decoders synthesize from its AUX data) and those of any
 * number of pull streams (a trace.dat's ftrace events: trace_dat_reader__add_to_timeline in
 * libauxtrace-tracefs), merged by time as they are read.
 *
 *	AUXTRACE_OPTS(timeline_opts, opts);
 *	struct timeline *tl = timeline__new(session, &opts);	// session may be NULL
 *	trace_dat_reader__add_to_timeline(reader, tl);		// or timeline__add_stream()
 *	err = timeline__process(tl, print_record, NULL);	// one call per record
 *	timeline__delete(tl);
 *
 * Streaming: the session sorts what lies between two FINISHED_ROUNDs (perf's rule), each
 * stream is pulled one record at a time, so the memory held is one round of perf.data and
 * one record per stream, whatever the files' sizes. Records are handed out in place
 * (pointing into the files' mappings) and valid during the callback only.
 */
#ifndef AUXTRACE_TIMELINE_H
#define AUXTRACE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct timeline;
struct perf_session;
struct perf_sample;
struct evsel;
struct auxtrace_sample;
struct auxtrace_decode_error;
union perf_event;

/* A record's time when it has none: it went out where it was read, not by time. */
#define TIMELINE_NO_TIME ((uint64_t)-1)

enum timeline_kind {
	TIMELINE_PERF_SAMPLE,		/* a PERF_RECORD_SAMPLE of perf.data */
	TIMELINE_PERF_EVENT,		/* another kernel record (MMAP, COMM, SWITCH, LOST, ...) */
	TIMELINE_AUX_SAMPLE,		/* a sample an AUX decoder synthesized (--itrace b, i) */
	TIMELINE_AUX_ERROR,		/* an AUX decode error (--itrace e) */
	TIMELINE_STREAM,		/* a record of a stream (timeline__add_stream) */
	/*
	 * A user record of perf.data (type >= 64: AUXTRACE_INFO, AUXTRACE, ID_INDEX, ...), only
	 * with timeline_opts.user_records: no time, where it was read (an AUXTRACE before the
	 * samples decoded from its buffer).
	 */
	TIMELINE_PERF_USER,
	TIMELINE_NR_KINDS
};

/*
 * One record of the walk. Everything it points to is borrowed and valid during the callback
 * only (or, for a stream's next(), until its next call): copy what you keep.
 */
struct timeline_record {
	enum timeline_kind kind;
	uint64_t time;			/* ns on the timeline's clock; TIMELINE_NO_TIME: none */
	int cpu;			/* -1 when the record does not say */
	int pid, tid;			/* -1 when unknown */
	const char *source;		/* "perf", or the stream's name ("ftrace") */
	union {
		struct {		/* TIMELINE_PERF_SAMPLE, TIMELINE_PERF_EVENT, _USER */
			union perf_event *event;
			/* its sample fields (sample_id_all); NULL for a user record */
			struct perf_sample *sample;
			struct evsel *evsel;
		} perf;
		struct {		/* TIMELINE_AUX_SAMPLE */
			const struct auxtrace_sample *sample;
			struct evsel *evsel;	/* the event synthesized (branches, instructions) */
		} aux;
		struct {		/* TIMELINE_AUX_ERROR */
			const struct auxtrace_decode_error *err;
			struct evsel *evsel;	/* the AUX event it came from */
		} aux_error;
		struct {		/* TIMELINE_STREAM: what the stream defines */
			const void *data;	/* e.g. the const struct trace_dat_record * */
			int type;		/* e.g. enum trace_dat_record_kind */
		} stream;
	};
};

/*
 * A source of records other than the session, pulled one record at a time. Declare it with
 * AUXTRACE_OPTS (auxtrace/core.h); timeline__add_stream copies it.
 */
struct timeline_stream {
	size_t sz;			/* sizeof(struct timeline_stream) */
	const char *name;		/* e.g. "ftrace": the records' source (copied) */
	/*
	 * The trace clock its times are on, as tracefs names it ("perf", "mono", "mono_raw",
	 * "boot", "tai", "local", "global", ...); NULL: unknown (never interleaved with a
	 * source on a known clock unless timeline_opts.any_clock).
	 */
	const char *clock;
	/*
	 * Fill rec's time, cpu, pid, tid and stream (the rest is the timeline's) with the next
	 * record, times non-decreasing (TIMELINE_NO_TIME: goes out as soon as it is pulled).
	 * What rec points to must stay valid until the next call. Returns 1 with a record, 0 at
	 * the end, or -errno (the stream is then over; say why through the library's log).
	 */
	int (*next)(void *ctx, struct timeline_record *rec);
	/* Called once by timeline__delete (NULL: nothing to free): the timeline owns ctx. */
	void (*free)(void *ctx);
	void *ctx;
};

/* How a timeline merges. Declare it with AUXTRACE_OPTS (auxtrace/core.h). */
struct timeline_opts {
	size_t sz;			/* sizeof(struct timeline_opts) */
	/*
	 * Interleave sources whose clocks differ or are unknown, by their raw times: the order
	 * between them is then meaningless (each source's own order still holds). Without it,
	 * such a stream is refused with EXDEV.
	 */
	bool any_clock;
	/*
	 * Deliver perf.data's user records too (TIMELINE_PERF_USER): what a reader needs from
	 * AUXTRACE_INFO (which AUX data) or from each AUXTRACE (where an AUX buffer starts).
	 */
	bool user_records;
	/*
	 * 2 or more: a library thread reads the session and decodes its AUX data while fn runs
	 * on the caller's thread, so that the two overlap (2 is all that is used today). fn
	 * gets the same records in the same order, always on the caller's thread; a stream's
	 * next() is then called on the library's thread, and timeline__stream_records() is
	 * for after the walk. 0 or 1: everything on the caller's thread.
	 */
	unsigned int nr_threads;
};

/* What a walk delivered. Library-owned: fields may be added at the end. */
struct timeline_stats {
	uint64_t nr[TIMELINE_NR_KINDS];	/* records per kind */
	uint64_t nr_no_time;		/* records without a time, delivered in place */
	/*
	 * Records with a time older than one delivered before them: the session's unordered
	 * ones (a ring read late: perf_session_stats.nr_unordered_events), or a stream that
	 * went back in time.
	 */
	uint64_t nr_unordered;
	uint64_t first_time, last_time;	/* of the records with a time; 0 before any */
};

/* Called for each record in time order; a negative return stops the walk and is returned. */
typedef int (*timeline_fn)(void *ctx, const struct timeline_record *rec);

/*
 * timeline__new() returns a timeline over session (borrowed, NULL: none; it must outlive the
 * timeline and not be processed yet), on the session's clock: its attrs' clockid
 * (use_clockid), else perf's own clock, trace clock "perf". opts may be NULL. Returns the
 * timeline, the caller's (timeline__delete), or NULL + errno: EINVAL for opts the rule of
 * option structs refuses, ENOMEM.
 */
AUXTRACE_API struct timeline *timeline__new(struct perf_session *session,
					    const struct timeline_opts *opts);
/*
 * timeline__delete() frees tl and its streams' contexts (their free()); the session is the
 * caller's. NULL: nothing.
 */
AUXTRACE_API void timeline__delete(struct timeline *tl);

/*
 * timeline__add_stream() adds a stream (copied; the timeline takes over stream->ctx on
 * success, the caller keeps it on failure). Ties between sources go to the session first,
 * then to the streams in the order they were added. Returns 0 or -errno: EXDEV when its
 * clock is not the timeline's (the session's, or the first stream's without a session) and
 * opts.any_clock is not set: logged, naming both clocks; EINVAL for a stream without name or
 * next, or one the rule of option structs refuses; EBUSY after timeline__process; ENOMEM.
 */
AUXTRACE_API int timeline__add_stream(struct timeline *tl, const struct timeline_stream *stream);

/*
 * timeline__clock() returns the trace clock name of the timeline's times ("perf", "mono",
 * ...; borrowed: valid while tl lives), or NULL while it has neither a session nor a stream with a clock.
 */
AUXTRACE_API const char *timeline__clock(const struct timeline *tl);

/*
 * timeline__process() walks the recording once and calls fn(ctx, rec) for every record in
 * time order: the session's (perf_session__process_events, ordered) and before each of them
 * with a time, the streams' records older than it; the streams' rest at the end. Records
 * without a time go out where they were read. A source that fails (a damaged file: logged
 * with the file and the offset) ends there; the others are still walked to their end.
 * Call it once. Returns 0 or -errno: fn's negative return (the walk stops at once), the
 * first source's failure (EINVAL for damaged data), EBUSY on a second call.
 */
AUXTRACE_API int timeline__process(struct timeline *tl, timeline_fn fn, void *ctx);

/*
 * timeline__stats() returns what the walk delivered so far, borrowed: valid while tl lives.
 */
AUXTRACE_API const struct timeline_stats *timeline__stats(const struct timeline *tl);
/*
 * timeline__stream_records() returns how many records stream name delivered ("perf": the
 * session's records of every kind), 0 for a name the timeline does not have.
 */
AUXTRACE_API uint64_t timeline__stream_records(const struct timeline *tl, const char *name);

/*
 * perf_clockid__trace_clock() returns the trace clock that reads clockid (CLOCK_MONOTONIC:
 * "mono", CLOCK_MONOTONIC_RAW: "mono_raw", CLOCK_BOOTTIME: "boot", CLOCK_TAI: "tai"), or
 * perf's own clock "perf" for -1 (no use_clockid): static; NULL for a clock tracefs lacks
 * (CLOCK_REALTIME, ...).
 */
AUXTRACE_API const char *perf_clockid__trace_clock(int clockid);

#ifdef __cplusplus
}
#endif
#endif
