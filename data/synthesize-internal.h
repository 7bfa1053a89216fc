/* SPDX-License-Identifier: LGPL-2.1 */
/* What the side-band synthesizers share: the tracking evsel's trailer, one record buffer. */
#ifndef AUXTRACE_DATA_SYNTHESIZE_INTERNAL_H
#define AUXTRACE_DATA_SYNTHESIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <auxtrace/event.h>
#include <auxtrace/synthesize.h>

/* The sample_id trailer: at most pid/tid, time, id, stream id, cpu/res, identifier. */
#define SYNTH_TRAILER_MAX	(6 * sizeof(uint64_t))

struct synth {
	struct ring_sink *sink;
	struct perf_synth_opts opts;
	uint64_t sample_type;		/* the tracking evsel's, when it has sample_id_all */
	uint64_t id;			/* its first sample ID, 0 when it has none */
	uint32_t cpu;			/* the CPU of that ID's fd (0 for any CPU) */
	union perf_event *ev;		/* the record being built, room for its trailer */
};

/* 0, or -errno (EINVAL with the cause logged, ENOMEM). */
int synth__init(struct synth *s, struct evlist *evlist, const struct perf_synth_opts *opts,
		struct ring_sink *sink);
void synth__exit(struct synth *s);

/*
 * Push s->ev: body_len bytes of record (padded here to 8), then the trailer for pid/tid;
 * header.type and misc are the caller's, header.size is set. 0 or the sink's -errno.
 */
int synth__emit(struct synth *s, size_t body_len, uint32_t pid, uint32_t tid);

/*
 * Copy len bytes of name to offset off of s->ev, NUL-terminated and zero-padded to 8.
 * Returns the record's length up to and including the NUL.
 */
size_t synth__set_name(struct synth *s, size_t off, const char *name, size_t len);

#endif
