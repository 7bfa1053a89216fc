// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading a soak segment back: libauxtrace's own perf.data reader goes over every record,
 * and what it finds is held against the writer's figures, the AUXTRACE index and the stream
 * the test producer wrote (aux_stream__byte: never zero, so padding cannot pass for data).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/auxtrace-index.h>
#include <auxtrace/session.h>
#include "tests/lib/aux-payload.h"
#include "soak-aux.h"

/* Bytes compared with the pattern at each end of a record: a misplaced window shows there. */
#define EDGE 64

struct segment_reader {
	struct perf_tool tool;		/* first: the callbacks get it back */
	struct aux_readback *rb;
	uint64_t *offsets;		/* file offset of each AUXTRACE record, in file order */
	size_t nr, cap;
	uint64_t aux_bytes;		/* records and payloads, as the writer counts them */
};

static int readback__fail(struct aux_readback *rb, const char *fmt, ...)
{
	va_list ap;

	if (!rb->error[0]) {
		va_start(ap, fmt);
		vsnprintf(rb->error, sizeof(rb->error), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The payload's first and last EDGE bytes are the producer's stream from byte pos on. */
static bool payload__matches(const unsigned char *data, uint64_t pos, uint64_t size)
{
	uint64_t head = size < EDGE ? size : EDGE;

	for (uint64_t i = 0; i < head; i++)
		if (data[i] != aux_stream__byte(pos + i))
			return false;
	for (uint64_t i = size - head; i < size; i++)
		if (data[i] != aux_stream__byte(pos + i))
			return false;
	return true;
}

static int reader__auxtrace(struct perf_tool *tool, struct perf_session *session,
			    union perf_event *event, uint64_t data_offset, const void *data)
{
	struct segment_reader *r = (struct segment_reader *)tool;
	struct aux_readback *rb = r->rb;
	const struct perf_record_auxtrace *ev = &event->auxtrace;

	(void)session;
	if (r->nr == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		uint64_t *grown = realloc(r->offsets, cap * sizeof(*grown));

		if (!grown)
			return readback__fail(rb, "out of memory for %zu record offsets", cap);
		r->offsets = grown;
		r->cap = cap;
	}
	r->offsets[r->nr++] = data_offset - sizeof(*ev);
	r->aux_bytes += sizeof(*ev) + ev->size;
	/* the producer writes whole 8-byte words, so the writer never pads */
	if (!ev->size || ev->size % 8 || !data || !((const unsigned char *)data)[ev->size - 1])
		return readback__fail(rb, "AUXTRACE record at file offset %#llx: size %llu is empty, "
				      "not whole words, or ends in padding",
				      (unsigned long long)(data_offset - sizeof(*ev)),
				      (unsigned long long)ev->size);
	if (ev->idx != 0 || ev->cpu != 0)
		return readback__fail(rb, "AUXTRACE record at stream offset %llu names idx %u cpu %u, "
				      "not the one area of CPU 0", (unsigned long long)ev->offset,
				      ev->idx, ev->cpu);
	if (ev->offset < rb->next)
		return readback__fail(rb, "AUXTRACE record at stream offset %llu goes back before "
				      "%llu, where the previous one ended",
				      (unsigned long long)ev->offset, (unsigned long long)rb->next);
	if (ev->offset > rb->next) {
		/*
		 * A forced loss: the bytes in between are counted as overrun, not delivered, and
		 * the area this record copies holds what was there before the jump, no new
		 * stream byte: the stream goes on after it.
		 */
		rb->gaps += ev->offset - rb->next;
		rb->gap_frames++;
		rb->stale += ev->size;
	} else if (!payload__matches(data, ev->offset - rb->gaps - rb->stale, ev->size)) {
		return readback__fail(rb, "AUXTRACE record at stream offset %llu (%llu bytes): the "
				      "payload is not the producer's stream at that offset",
				      (unsigned long long)ev->offset, (unsigned long long)ev->size);
	}
	rb->next = ev->offset + ev->size;
	rb->frames++;
	rb->payload += ev->size;
	return 0;
}

/* The HEADER_AUXTRACE index names exactly the records the walk found, in order. */
static int reader__check_index(struct segment_reader *r, struct perf_session *session)
{
	const struct auxtrace_index *index = perf_session__auxtrace_index(session);
	size_t nr = index ? auxtrace_index__nr(index) : 0;

	if (nr != r->nr)
		return readback__fail(r->rb, "the AUXTRACE index has %zu entries for %zu records",
				      nr, r->nr);
	for (size_t i = 0; i < nr; i++) {
		const struct auxtrace_index_entry *e = auxtrace_index__entry(index, i);

		if (e->file_offset != r->offsets[i] || e->sz != sizeof(struct perf_record_auxtrace))
			return readback__fail(r->rb, "AUXTRACE index entry %zu: offset %#llx size "
					      "%llu, but record %zu is at %#llx", i,
					      (unsigned long long)e->file_offset,
					      (unsigned long long)e->sz, i,
					      (unsigned long long)r->offsets[i]);
	}
	r->rb->index_entries += nr;
	return 0;
}

/* Whole records of kernel types: every one came out of a data ring (nothing is synthesized). */
static void reader__count_kernel_records(struct aux_readback *rb,
					 const struct perf_session_stats *st)
{
	for (int t = 0; t < PERF_RECORD_USER_TYPE_START; t++)
		rb->kernel_records += st->nr_events[t];
	rb->samples += st->nr_events[PERF_RECORD_SAMPLE];
	rb->lost += st->total_lost;
}

int aux_readback__segment(struct aux_readback *rb, const char *path,
			  const struct perf_data_writer_stats *ws)
{
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct segment_reader r = {
		.tool = { .sz = sizeof(r.tool), .auxtrace = reader__auxtrace },
		.rb = rb,
	};
	const struct perf_session_stats *st;
	struct perf_session *session;
	int err = 0;

	session = perf_session__new(path, &opts);
	if (!session)
		return readback__fail(rb, "%s: the reader refuses it (see the log above)", path);
	if (perf_session__process_events(session, &r.tool) < 0)
		err = readback__fail(rb, "%s: the reader stops before the end (see the log above)",
				     path);
	st = perf_session__stats(session);
	if (!err && (st->nr_unknown_events || st->nr_unknown_id))
		err = readback__fail(rb, "%s: %llu records of unknown types, %llu of unknown IDs",
				     path, (unsigned long long)st->nr_unknown_events,
				     (unsigned long long)st->nr_unknown_id);
	if (!err && (r.nr != ws->aux_frames || r.aux_bytes != ws->aux_bytes))
		err = readback__fail(rb, "%s: %zu AUXTRACE records (%llu bytes) read back, the writer "
				     "wrote %llu (%llu bytes)", path, r.nr,
				     (unsigned long long)r.aux_bytes,
				     (unsigned long long)ws->aux_frames,
				     (unsigned long long)ws->aux_bytes);
	if (!err)
		err = reader__check_index(&r, session);
	if (!err) {
		reader__count_kernel_records(rb, st);
		rb->segments++;
		rb->file_bytes += perf_session__size(session);
	}
	perf_session__delete(session);
	free(r.offsets);
	return err;
}
