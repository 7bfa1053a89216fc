/* SPDX-License-Identifier: LGPL-2.1 */
/* struct perf_session as data/ builds it and decode/ queues from it. Not installed. */
#ifndef AUXTRACE_INTERNAL_SESSION_H
#define AUXTRACE_INTERNAL_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <auxtrace/session.h>
#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/auxtrace-index.h>

#include <internal/lib.h>

/* Values of the writer's byte order, read from anywhere (no alignment needed). */
static inline uint64_t perf_u64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t perf_u32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint16_t perf_u16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

/* A pipe read through a buffer: records are copied out of it, payloads read past it. */
struct perf_stream {
	int fd;
	unsigned char *buf;
	size_t cap;
	size_t pos;		/* first unread byte */
	size_t len;		/* bytes held */
	uint64_t offset;	/* stream offset of buf[pos] */
};

/* One sample ID of the file: its evsel and, from ID_INDEX, its ring. */
struct perf_sid {
	uint64_t id;
	struct evlist_sample_id where;
	struct perf_sid *next;
};

struct perf_evsel_ids {
	struct evsel *evsel;
	uint64_t *ids;
	size_t nr;
};

#define PERF_SID_BUCKETS 256

struct ordered_events;

struct perf_session {
	char *path;		/* for messages: the file, or "pipe" */
	int fd;
	bool owns_fd;
	bool pipe_format;
	bool needs_swap;
	struct perf_session_opts opts;

	/* Mapped source: the whole file, read-only. */
	const unsigned char *map;
	uint64_t file_size;
	uint64_t dropped_to;	/* pages before it were given back (MADV_DONTNEED) */
	uint64_t drop_check_at;	/* where to look at the ordered queue for that again */
	/* AUX payloads read in place that their decoder is done with, not given back yet:
	 * the pages from aux_done_from to aux_done_to (equal: none) */
	uint64_t aux_done_from, aux_done_to;
	/* Stream source. */
	struct perf_stream stream;

	struct perf_file_header header;
	uint64_t data_offset, data_end;	/* the data section (a stream: its start, UINT64_MAX) */
	uint64_t pos;			/* next record to read */
	bool stream_started;		/* pipe format: the first non-header record is held */

	struct evlist *evlist;
	struct perf_evsel_ids *evsel_ids;	/* one per evsel, in evlist order */
	int nr_evsels;
	struct perf_sid *sid_hash[PERF_SID_BUCKETS];
	int id_pos, is_pos;		/* where records carry the sample ID (see sample.c) */
	bool sample_id_all;

	struct perf_file_section feat_sec[HEADER_FEAT_BITS];
	const void *feat_data[HEADER_FEAT_BITS];	/* pipe format: copies */
	bool feat_owned[HEADER_FEAT_BITS];
	struct perf_env env;
	struct perf_record_time_conv time_conv;
	bool has_time_conv;
	struct auxtrace_index *auxtrace_index;
	/* The decoder, and its callbacks as far as its sz says it has them (the rest NULL). */
	struct auxtrace *auxtrace;
	struct auxtrace aux_ops;
	/* The tool of process_events (NULL outside it), and its fields as far as its sz. */
	struct perf_tool *tool;
	struct perf_tool tool_ops;

	/* The record being handed out: in place or in scratch (aligned, swapped). */
	uint64_t *scratch;
	/* The payload of the AUXTRACE (or TRACING_DATA) record being processed. */
	const void *payload;
	uint64_t payload_offset;
	uint64_t payload_size;
	void *payload_copy;		/* a stream's copy, until someone takes it */

	bool held;			/* pipe header: the record read last is handed out again */
	union perf_event *held_event;
	uint64_t held_offset;

	struct ordered_events *oe;
	struct perf_decomp *decomp;	/* perf record -z: the zstd stream, NULL before one */
	struct perf_session_stats stats;
	bool processed;
};

/* A damaged file: log where and what, return -EINVAL. */
int perf_session__corrupt(const struct perf_session *s, uint64_t offset, const char *fmt, ...)
	__printf(3, 4);

/* Name of a record type for messages ("SAMPLE", "AUXTRACE", "type 99"). */
const char *perf_event__name(uint32_t type, char *buf, size_t size);

/*
 * Read the record at s->pos of a mapped session, or the next one of a stream: *event is
 * native and 8-byte aligned (in place, or in s->scratch until the next read). Its payload
 * (AUXTRACE, TRACING_DATA) is located or read too (s->payload*). 1, 0 at the end of the
 * data, or -errno (-EINVAL logged with the offset).
 */
int perf_session__read_event(struct perf_session *s, union perf_event **event,
			     uint64_t *file_offset);
/* Pipe format: read the attrs and features that lead the stream, up to the first other
 * record, which stays for process_events. */
int perf_session__read_pipe_header(struct perf_session *s);
/* Free a stream payload nobody took. */
void perf_session__release_payload(struct perf_session *s);
/* Hand the stream's payload copy over (the caller frees it); a second call copies again. */
void *perf_session__take_payload(struct perf_session *s);

/*
 * PERF_RECORD_COMPRESSED (session-decompress.c). feed: its payload goes to the stream's
 * decoder (made at the first); 0 or -errno. next: the next record decoded from what was
 * fed, in s->scratch with a native header, at the COMPRESSED record's offset; 1, 0 when
 * the fed bytes hold no whole record more, -EINVAL (logged). pending: bytes fed and not yet
 * handed out as records (the start of a record whose rest comes with a later COMPRESSED
 * record; at the end of the file, a torn one).
 */
int perf_decomp__feed(struct perf_session *s, const union perf_event *event, uint64_t offset);
int perf_decomp__next(struct perf_session *s, union perf_event **event, uint64_t *offset);
bool perf_decomp__pending(const struct perf_session *s);
void perf_decomp__delete(struct perf_session *s);

/*
 * The pages of bytes from to to of the file mapping given back (MADV_DONTNEED), a hint
 * that cannot fail: they come back from the page cache when read again.
 */
void perf_session__give_back(const struct perf_session *s, uint64_t from, uint64_t to);
/*
 * A decoder is done with the AUX payload in bytes from to to of the file mapping: its pages
 * are given back with those of the payloads done before, once they span a step (session.c).
 * One thread at a time.
 */
void perf_session__aux_done(struct perf_session *s, uint64_t from, uint64_t to);

/* Does ptr lie inside the file mapping? Then its file offset. */
bool perf_session__map_offset(const struct perf_session *s, const void *ptr, uint64_t *offset);

/* The evsel of a record (the first when the file cannot tell), NULL when its ID is unknown.
 * raw: the record's body is still in the writer's byte order (its header is native). */
struct evsel *perf_session__event_evsel(struct perf_session *s, const union perf_event *event,
				       bool raw);
/* The sample ID entry, NULL when unknown. */
struct perf_sid *perf_session__sid(const struct perf_session *s, uint64_t id);
/* Map sample ID id to evsel (adding it, or moving it to evsel). 0 or -ENOMEM. */
int perf_session__add_id(struct perf_session *s, struct evsel *evsel, uint64_t id);
/* An attr of stored bytes in the writer's byte order into a native one of this build
 * (shorter: zero-filled; longer: only if the rest is zero); checked against the others. */
int perf_session__read_attr(struct perf_session *s, const void *raw, size_t stored,
			    struct perf_event_attr *attr, uint64_t offset, bool swap);
/* ids: nr_ids u64s, swapped first when swap. */
int perf_session__add_evsel(struct perf_session *s, const struct perf_event_attr *attr,
			    const void *ids, size_t nr_ids, bool swap);
int perf_session__process_id_index(struct perf_session *s, const union perf_event *event,
				   uint64_t offset);

/*
 * Parse a kernel record's sample fields with evsel's attr (data/sample.c), swapping each
 * field in place first when swap. Bounds are checked: -EINVAL (logged with offset).
 */
int perf_sample__walk(struct perf_session *s, const struct evsel *evsel, union perf_event *event,
		      struct perf_sample *sample, uint64_t offset, bool swap);
/* The evsel and the sample of a native kernel record: 0, -ENOENT (unknown ID), -EINVAL. */
int perf_session__parse_sample(struct perf_session *s, const union perf_event *event,
			       struct perf_sample *sample, struct evsel **evsel, uint64_t offset);

/*
 * Whether a parsed sample holds what cannot be true given its file's header (a CPU beyond
 * HEADER_NRCPUS, a pid/tid beyond PID_MAX_LIMIT, a time outside HEADER_SAMPLE_TIME): then it
 * is counted in nr_damaged_samples, the first logged with offset, and must not be delivered
 * (data/session-damage.c).
 */
bool perf_session__sample_damaged(struct perf_session *s, const struct perf_sample *sample,
				  uint64_t offset);

/*
 * Check a record's fixed fields against its size and its strings for a NUL, swapping each
 * field in place first when swap (a foreign record whose header is already native)
 * (data/event-layout.c). Samples and trailers are left to perf_sample__walk. 0, or -EINVAL
 * logged with the offset.
 */
int perf_event__check_layout(struct perf_session *s, union perf_event *event, uint64_t offset,
			     size_t trailer_size, bool swap);
/* Does this reader know the fields of this record type (and so can swap it)? */
bool perf_event__has_layout(uint32_t type);
/* Swap the first size bytes of a foreign attr in place. */
void perf_event_attr__swap(struct perf_event_attr *attr, size_t size);
/* Bytes of the sample_id_all trailer an attr puts on side-band records. */
size_t perf_sample_id__size(const struct perf_event_attr *attr);

/* Features (data/features-reader.c): one section's payload, in the writer's byte order. */
int perf_session__process_feature(struct perf_session *s, int feat, const void *data,
				  uint64_t size, uint64_t offset);
void perf_env__exit(struct perf_session *s);
/* Append a build ID record's entry (size bytes; swap: its fields are in the writer's order). */
int perf_env__add_build_id(struct perf_session *s, const void *record, size_t size, bool swap);
int perf_session__set_evsel_name(struct perf_session *s, uint64_t id, size_t index,
				 const char *name);

/* A user record (type >= 64): what the session takes from it, then s->tool if any. */
int perf_session__process_user_event(struct perf_session *s, union perf_event *event,
				     uint64_t offset);

/*
 * Ordered delivery (data/ordered-events.c): events sorted by (time, arrival). An event
 * outside the file mapping is copied when queued.
 */
typedef int (*ordered_events__deliver_t)(void *ctx, union perf_event *event, uint64_t offset);
struct ordered_events *ordered_events__new(void);
void ordered_events__delete(struct ordered_events *oe);
/* 0, or -ENOMEM. Returns 1 when timestamp is older than what was already flushed. */
int ordered_events__queue(struct ordered_events *oe, union perf_event *event,
			  uint64_t timestamp, uint64_t offset, bool copy);
/* FINISHED_ROUND: deliver what is not newer than the previous round's newest. */
int ordered_events__flush_round(struct ordered_events *oe, ordered_events__deliver_t fn,
				void *ctx);
/* Deliver everything. */
int ordered_events__flush_all(struct ordered_events *oe, ordered_events__deliver_t fn,
			      void *ctx);
/* The lowest file offset a queued event in the mapping has, UINT64_MAX when none. */
uint64_t ordered_events__min_offset(const struct ordered_events *oe);

#endif
