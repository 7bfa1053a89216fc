/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The decoder interface a perf_session calls: perf's `struct auxtrace`. A decoder (Intel PT,
 * Intel BTS, ...) embeds a struct auxtrace in its own state and offers a constructor in a
 * struct auxtrace_decoder; the session picks the constructor whose type matches the
 * recording's PERF_RECORD_AUXTRACE_INFO, then calls, in this order:
 *
 *	new(session, info)              when AUXTRACE_INFO is read (a file decoder usually
 *	                                queues all its data here: auxtrace_queues__populate)
 *	process_auxtrace_event(...)     for each PERF_RECORD_AUXTRACE, in file order
 *	process_event(...)              for each kernel record, in time order when the tool
 *	                                orders events, before the tool sees it
 *	flush_events(...)               once the last record was delivered
 *	free_events(...)                then, to drop what it queued
 *	free(...)                       from perf_session__delete
 *
 * A callback may be NULL. A negative return stops processing and is returned by
 * perf_session__process_events.
 */
#ifndef AUXTRACE_AUXTRACE_DECODER_H
#define AUXTRACE_AUXTRACE_DECODER_H

#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/event.h>
#include <auxtrace/evsel.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The session that calls a decoder, and the samples it parses (session.h). */
struct perf_session;
struct perf_sample;

struct auxtrace {
	size_t sz;			/* sizeof(struct auxtrace) */
	int (*process_event)(struct auxtrace *aux, struct perf_session *session,
			     union perf_event *event, struct perf_sample *sample,
			     struct evsel *evsel);
	/* data_offset: where the payload is in the file (a stream: its offset in the stream;
	 * auxtrace_queues__add_event takes the copy the session read). */
	int (*process_auxtrace_event)(struct auxtrace *aux, struct perf_session *session,
				      union perf_event *event, uint64_t data_offset);
	int (*flush_events)(struct auxtrace *aux, struct perf_session *session);
	void (*free_events)(struct auxtrace *aux, struct perf_session *session);
	void (*free)(struct auxtrace *aux, struct perf_session *session);
};

struct auxtrace_decoder {
	size_t sz;			/* sizeof(struct auxtrace_decoder) */
	const char *name;		/* "intel_bts" */
	uint32_t type;			/* enum auxtrace_type of the AUXTRACE_INFO it reads */
	/* info is native and header.size bytes long: check its priv size. NULL with errno
	 * fails the session's processing (logged with the record's offset). */
	struct auxtrace *(*new)(struct perf_session *session,
				const struct perf_record_auxtrace_info *info);
};

/*
 * auxtrace_decoders__builtin() returns the decoders of this library, a static
 * NULL-terminated array, for perf_session_opts.decoders: Intel PT and Intel BTS. Cannot
 * fail. Each synthesizes samples as perf 6.1's does, to the tool's auxtrace_sample
 * and auxtrace_error (auxtrace/session.h), as perf_session_opts.itrace_synth_opts asks: a
 * taken branch or a period of instructions per sample, decode errors, in time order with
 * the kernel records. Each adds the events perf synthesizes ("branches", "instructions",
 * named with the AUX event's modifiers) to the session's evlist, and passes the one a
 * sample belongs to: its attr's sample_type says which fields perf would show (time only
 * when the trace is decoded in time, the CPU only for per-CPU recordings). The code comes
 * from the files the side-band's MMAP2 records name, read where the recording saw them.
 */
AUXTRACE_API const struct auxtrace_decoder *const *auxtrace_decoders__builtin(void);

#ifdef __cplusplus
}
#endif
#endif
