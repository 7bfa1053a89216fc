// SPDX-License-Identifier: LGPL-2.1
/*
 * The record stream: one record at a time from the file mapping (in place when it is
 * native and aligned, else a swapped or aligned copy) or from a pipe (always a copy), each
 * checked against the data that is there before anything in it is used; and the payloads
 * that follow AUXTRACE and TRACING_DATA records outside their header.size.
 */
#include <stdlib.h>
#include <unistd.h>

#include <internal/session.h>

/* Make n bytes of the stream available at buf + pos. Returns what is there (fewer only at
 * the end of the stream), or -errno. */
static ssize_t perf_stream__fill(struct perf_stream *st, size_t n)
{
	if (st->len - st->pos >= n)
		return n;
	if (st->pos) {
		memmove(st->buf, st->buf + st->pos, st->len - st->pos);
		st->len -= st->pos;
		st->pos = 0;
	}
	while (st->len < n) {
		ssize_t got = libauxtrace__read_full(st->fd, st->buf + st->len, st->cap - st->len);

		if (got < 0)
			return got;
		if (!got)
			break;
		st->len += got;
	}
	return st->len < n ? (ssize_t)st->len : (ssize_t)n;
}

static void perf_stream__consume(struct perf_stream *st, size_t n)
{
	st->pos += n;
	st->offset += n;
}

/*
 * Read n bytes of the stream into dst (NULL: skip them). What is buffered goes first, the
 * rest straight from the fd. Returns the bytes read (fewer: the stream ended) or -errno.
 */
static ssize_t perf_stream__read(struct perf_stream *st, void *dst, uint64_t n)
{
	uint64_t done = 0;

	while (done < n) {
		size_t want = n - done < st->cap ? n - done : st->cap;
		ssize_t got = perf_stream__fill(st, want);

		if (got < 0)
			return got;
		if (!got)
			break;
		if (dst)
			memcpy((char *)dst + done, st->buf + st->pos, got);
		perf_stream__consume(st, got);
		done += got;
	}
	return done;
}

void perf_session__release_payload(struct perf_session *s)
{
	free(s->payload_copy);
	s->payload_copy = NULL;
	s->payload = NULL;
	s->payload_size = 0;
}

void *perf_session__take_payload(struct perf_session *s)
{
	void *copy = s->payload_copy;

	if (copy) {
		s->payload_copy = NULL;	/* s->payload stays readable: the taker frees it later */
		return copy;
	}
	copy = malloc(s->payload_size ? s->payload_size : 1);
	if (copy && s->payload)
		memcpy(copy, s->payload, s->payload_size);
	return copy;
}

/*
 * A stream payload is read in pieces into a buffer that grows with what arrives, so that
 * a damaged size costs only the bytes that really follow.
 */
static int perf_session__read_stream_payload(struct perf_session *s, uint64_t size,
					     uint64_t offset, const char *what)
{
	uint64_t done = 0, cap = 0;
	unsigned char *buf = NULL;

	while (done < size) {
		uint64_t step = size - done < 4 * 1024 * 1024 ? size - done : 4 * 1024 * 1024;
		ssize_t got;

		if (done + step > cap) {
			unsigned char *grown;

			cap = cap ? cap * 2 : step;
			if (cap < done + step)
				cap = done + step;
			if (cap > size)
				cap = size;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
		}
		got = perf_stream__read(&s->stream, buf + done, step);
		if (got < 0) {
			free(buf);
			return (int)got;
		}
		done += got;
		if ((uint64_t)got < step) {
			free(buf);
			return perf_session__corrupt(s, offset, "the stream ends %llu bytes into "
						     "the %llu-byte payload of a %s record",
						     (unsigned long long)done,
						     (unsigned long long)size, what);
		}
	}
	s->payload_copy = buf;
	s->payload = buf;
	return 0;
}

/* Payload bytes that follow a record outside its header.size. */
static uint64_t perf_event__payload_size(const union perf_event *event)
{
	switch (event->header.type) {
	case PERF_RECORD_AUXTRACE:
		return event->auxtrace.size;
	case PERF_RECORD_HEADER_TRACING_DATA:
		return event->tracing_data.size;
	default:
		return 0;
	}
}

static int perf_session__locate_payload(struct perf_session *s, const union perf_event *event,
					uint64_t offset)
{
	uint64_t at = offset + event->header.size;
	char name[32];

	perf_session__release_payload(s);
	s->payload_offset = at;
	s->payload_size = perf_event__payload_size(event);
	if (!s->payload_size)
		return 0;
	if (!s->map)
		return perf_session__read_stream_payload(s, s->payload_size, at,
							 perf_event__name(event->header.type, name,
									  sizeof(name)));
	if (s->payload_size > s->data_end - at)
		return perf_session__corrupt(s, offset, "the %llu-byte payload of a %s record "
					     "runs past the end of the data (%llu bytes left)",
					     (unsigned long long)s->payload_size,
					     perf_event__name(event->header.type, name, sizeof(name)),
					     (unsigned long long)(s->data_end - at));
	s->payload = s->map + at;
	return 0;
}

/*
 * Check (and for a foreign file swap) a record whose header is native. 1: use it; 0: skip
 * it (a foreign record this reader cannot swap: counted); -EINVAL.
 */
static int perf_session__check_event(struct perf_session *s, union perf_event *event,
				     uint64_t offset)
{
	uint32_t type = event->header.type;
	struct perf_sample sample;
	struct evsel *evsel;
	size_t trailer = 0;
	int err;

	if (type < PERF_RECORD_USER_TYPE_START) {
		evsel = perf_session__event_evsel(s, event, s->needs_swap);
		if (!evsel) {
			if (!s->needs_swap)
				return 1;	/* counted and skipped at delivery */
			s->stats.nr_unknown_id++;
			return 0;
		}
		if (type != PERF_RECORD_SAMPLE)
			trailer = perf_sample_id__size(evsel__attr(evsel));
		err = perf_event__check_layout(s, event, offset, trailer, s->needs_swap);
		if (!err && s->needs_swap)
			err = perf_sample__walk(s, evsel, event, &sample, offset, true);
	} else {
		err = perf_event__check_layout(s, event, offset, 0, s->needs_swap);
	}
	return err ? err : 1;
}

/* The next record's bytes: in place or copied into s->scratch (header made native). */
static int perf_session__fetch(struct perf_session *s, union perf_event **event,
			       uint64_t *offset)
{
	struct perf_event_header h;
	char name[32];
	uint64_t left;

	*offset = s->map ? s->pos : s->stream.offset;
	if (s->map) {
		if (s->pos >= s->data_end)
			return 0;
		left = s->data_end - s->pos;
		if (left < sizeof(h))
			return perf_session__corrupt(s, s->pos, "the data ends %llu bytes into a "
						     "record header", (unsigned long long)left);
		memcpy(&h, s->map + s->pos, sizeof(h));
	} else {
		ssize_t got = perf_stream__fill(&s->stream, sizeof(h));

		if (got < 0)
			return (int)got;
		if (!got)
			return 0;
		if (got < (ssize_t)sizeof(h))
			return perf_session__corrupt(s, *offset, "the stream ends %zd bytes into "
						     "a record header", got);
		memcpy(&h, s->stream.buf + s->stream.pos, sizeof(h));
		left = UINT64_MAX;
	}
	if (s->needs_swap) {
		h.type = __builtin_bswap32(h.type);
		h.misc = __builtin_bswap16(h.misc);
		h.size = __builtin_bswap16(h.size);
	}
	if (h.size < sizeof(h))
		return perf_session__corrupt(s, *offset, "a %s record says it has %u bytes, "
					     "less than its own header",
					     perf_event__name(h.type, name, sizeof(name)), h.size);
	if (h.size > left)
		return perf_session__corrupt(s, *offset, "a %s record of %u bytes runs past the "
					     "end of the data (%llu bytes left)",
					     perf_event__name(h.type, name, sizeof(name)), h.size,
					     (unsigned long long)left);
	if (s->map) {
		if (!s->needs_swap && !(s->pos % 8)) {
			*event = (union perf_event *)(s->map + s->pos);
		} else {
			memcpy(s->scratch, s->map + s->pos, h.size);
			*event = (union perf_event *)s->scratch;
		}
		s->pos += h.size;
	} else {
		ssize_t got = perf_stream__read(&s->stream, s->scratch, h.size);

		if (got < 0)
			return (int)got;
		if (got < h.size)
			return perf_session__corrupt(s, *offset, "the stream ends %zd bytes into "
						     "a %s record of %u bytes", got,
						     perf_event__name(h.type, name, sizeof(name)),
						     h.size);
		*event = (union perf_event *)s->scratch;
	}
	if ((void *)*event == (void *)s->scratch)
		(*event)->header = h;
	return 1;
}

/*
 * The next record of the file, or of the zstd stream of its COMPRESSED records: those go
 * to the decoder, and what it decodes comes out first.
 */
static int perf_session__next(struct perf_session *s, union perf_event **event,
			      uint64_t *offset)
{
	for (;;) {
		int ret = perf_decomp__next(s, event, offset);

		if (ret)
			return ret;
		ret = perf_session__fetch(s, event, offset);
		if (ret > 0 && (*event)->header.type == PERF_RECORD_COMPRESSED) {
			ret = perf_decomp__feed(s, *event, *offset);
			if (ret)
				return ret;
			continue;
		}
		/* perf record -z leaves bytes in zstd between pushes: plain records (rounds)
		 * come between the two halves of a compressed record; only the end may not */
		if (ret == 0 && perf_decomp__pending(s))
			return perf_session__corrupt(s, *offset, "the compressed records end "
						     "inside a record");
		return ret;
	}
}

int perf_session__read_event(struct perf_session *s, union perf_event **event,
			     uint64_t *file_offset)
{
	int ret;

	if (s->held) {
		s->held = false;
		*event = s->held_event;
		*file_offset = s->held_offset;
		return 1;
	}
	for (;;) {
		ret = perf_session__next(s, event, file_offset);
		if (ret <= 0)
			return libauxtrace__err(ret);
		/* A foreign record this reader has no layout for cannot be swapped. */
		if (s->needs_swap && (*event)->header.type != PERF_RECORD_SAMPLE &&
		    !perf_event__has_layout((*event)->header.type)) {
			char name[32];

			pr_debug("%s: a %s record at 0x%llx cannot be swapped: skipped\n", s->path,
				 perf_event__name((*event)->header.type, name, sizeof(name)),
				 (unsigned long long)*file_offset);
			s->stats.nr_unknown_events++;
			continue;
		}
		ret = perf_session__check_event(s, *event, *file_offset);
		if (ret < 0)
			return libauxtrace__err(ret);
		if (!ret)
			continue;
		ret = perf_session__locate_payload(s, *event, *file_offset);
		if (ret)
			return libauxtrace__err(ret);
		if (s->map)
			s->pos += s->payload_size;
		return 1;
	}
}
