/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A recording as auxrec record leaves it (a directory with perf.data and, with ftrace
 * events, trace.dat), or either file alone, opened as one timeline (auxtrace/timeline.h):
 *
 *	struct auxtrace_recording *rec = auxtrace_recording__open("rec.dir", NULL);
 *	err = timeline__process(auxtrace_recording__timeline(rec), print_record, NULL);
 *	auxtrace_recording__close(rec);
 *
 * It needs both libraries (the perf.data session of libauxtrace, the trace.dat reader of
 * libauxtrace-tracefs), so it lives in libauxtrace-tracefs.
 */
#ifndef AUXTRACE_RECORDING_H
#define AUXTRACE_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct auxtrace_recording;
struct perf_session;
struct perf_session_opts;
struct timeline;
struct timeline_opts;
struct trace_dat_reader;
struct trace_dat_reader_opts;

/* How to open a recording. Declare it with AUXTRACE_OPTS (auxtrace/core.h). */
struct auxtrace_recording_opts {
	size_t sz;			/* sizeof(struct auxtrace_recording_opts) */
	/* For perf.data (decoders, CPUs, itrace options); NULL: perf_session__new's defaults. */
	const struct perf_session_opts *session;
	/* For the timeline (any_clock); NULL: the defaults. */
	const struct timeline_opts *timeline;
	bool no_perf;			/* leave a directory's perf.data out */
	bool no_ftrace;			/* leave a directory's trace.dat out */
	/* For trace.dat (no_kallsyms); NULL: trace_dat_reader__open's defaults. */
	const struct trace_dat_reader_opts *trace_dat;
};

/*
 * auxtrace_recording__open() opens path: a directory holding perf.data and/or trace.dat, a
 * perf.data (file or pipe format; "-": standard input) or a trace.dat (told apart by their
 * magic), and makes one timeline over what it found. opts may be NULL. Returns the
 * recording, the caller's (auxtrace_recording__close), or NULL + errno: ENOENT when there is
 * nothing to read (a directory with neither file, or both left out), EINVAL for a file that
 * is neither (logged) or damaged, or opts the rule of option structs refuses, EXDEV when
 * the two files are on different clocks (logged: open one alone with no_perf or no_ftrace,
 * or interleave anyway with timeline_opts.any_clock), what perf_session__new and
 * trace_dat_reader__open fail with.
 */
AUXTRACE_API struct auxtrace_recording *
auxtrace_recording__open(const char *path, const struct auxtrace_recording_opts *opts);
/*
 * auxtrace_recording__close() frees the timeline, the session and the reader (NULL:
 * nothing).
 */
AUXTRACE_API void auxtrace_recording__close(struct auxtrace_recording *rec);

/*
 * auxtrace_recording__timeline() returns the timeline over every file opened (borrowed:
 * valid until auxtrace_recording__close); walk it once with timeline__process().
 */
AUXTRACE_API struct timeline *auxtrace_recording__timeline(const struct auxtrace_recording *rec);
/* auxtrace_recording__session() returns the perf.data session (borrowed), NULL when none. */
AUXTRACE_API struct perf_session *
auxtrace_recording__session(const struct auxtrace_recording *rec);
/* auxtrace_recording__trace_dat() returns the trace.dat reader (borrowed), NULL when none. */
AUXTRACE_API struct trace_dat_reader *
auxtrace_recording__trace_dat(const struct auxtrace_recording *rec);

#ifdef __cplusplus
}
#endif
#endif
