// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading perf record -z files: PERF_RECORD_COMPRESSED records are consecutive pieces of
 * one zstd stream (the writer never ends a frame), so they go in file order into one
 * decoder, and the records that come out are handed out one by one as if they stood in the
 * file at the COMPRESSED record's offset. A record may straddle two COMPRESSED records:
 * its first part waits at the start of the output buffer for the rest.
 *
 * Memory stays bounded whatever HEADER_COMPRESSED says: the decoder writes into a fixed
 * buffer and is called again for the rest of its input once the records in it were read.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

#include <internal/session.h>

/* Room for the largest record twice over: one waiting for its end, one whole after it. */
#define DECOMP_OUT_CAP	(256 * 1024)

struct perf_decomp {
	ZSTD_DCtx *dctx;
	unsigned char in[64 * 1024];	/* the payload of the COMPRESSED record being read */
	size_t in_len, in_pos;
	unsigned char out[DECOMP_OUT_CAP];
	size_t out_len, out_pos;
	bool full;			/* the decoder filled out: it may hold more */
	uint64_t offset;		/* of that COMPRESSED record */
};

void perf_decomp__delete(struct perf_session *s)
{
	if (!s->decomp)
		return;
	ZSTD_freeDCtx(s->decomp->dctx);
	free(s->decomp);
	s->decomp = NULL;
}

bool perf_decomp__pending(const struct perf_session *s)
{
	const struct perf_decomp *d = s->decomp;

	return d && (d->out_pos < d->out_len || d->in_pos < d->in_len || d->full);
}

int perf_decomp__feed(struct perf_session *s, const union perf_event *event, uint64_t offset)
{
	struct perf_decomp *d = s->decomp;
	size_t len = event->header.size - sizeof(event->header);

	if (!d) {
		d = s->decomp = calloc(1, sizeof(*d));
		if (!d || !(d->dctx = ZSTD_createDCtx())) {
			perf_decomp__delete(s);
			return -ENOMEM;
		}
	}
	if (d->in_pos < d->in_len)
		return perf_session__corrupt(s, offset, "a COMPRESSED record before the previous "
					     "one was read");
	memcpy(d->in, (const char *)event + sizeof(event->header), len);
	d->in_len = len;
	d->in_pos = 0;
	d->offset = offset;
	s->stats.nr_events[PERF_RECORD_COMPRESSED]++;
	return 0;
}

/* More decoded bytes behind the ones not read yet. 1: some came, 0: the input is used up. */
static int perf_decomp__run(struct perf_session *s)
{
	struct perf_decomp *d = s->decomp;
	ZSTD_outBuffer out;
	ZSTD_inBuffer in = { d->in, d->in_len, d->in_pos };
	size_t ret, before;

	if (d->in_pos == d->in_len && !d->full)
		return 0;
	memmove(d->out, d->out + d->out_pos, d->out_len - d->out_pos);
	d->out_len -= d->out_pos;
	d->out_pos = 0;
	out = (ZSTD_outBuffer){ d->out, sizeof(d->out), d->out_len };
	before = out.pos;
	ret = ZSTD_decompressStream(d->dctx, &out, &in);
	if (ZSTD_isError(ret))
		return perf_session__corrupt(s, d->offset, "a COMPRESSED record does not "
					     "decompress: %s", ZSTD_getErrorName(ret));
	if (out.pos == before && in.pos == d->in_pos) {
		if (in.pos < in.size)
			return perf_session__corrupt(s, d->offset, "a COMPRESSED record makes the "
						     "decoder stall (a record larger than %d "
						     "bytes?)", DECOMP_OUT_CAP / 2);
		d->full = false;	/* the output ended right at the buffer's end */
		return 0;
	}
	d->in_pos = in.pos;
	d->out_len = out.pos;
	d->full = out.pos == out.size;
	return 1;
}

int perf_decomp__next(struct perf_session *s, union perf_event **event, uint64_t *offset)
{
	struct perf_decomp *d = s->decomp;
	struct perf_event_header h;

	if (!d)
		return 0;
	for (;;) {
		size_t left = d->out_len - d->out_pos;
		int ret;

		if (left >= sizeof(h)) {
			memcpy(&h, d->out + d->out_pos, sizeof(h));
			if (s->needs_swap)
				h.size = __builtin_bswap16(h.size);
			if (h.size < sizeof(h))
				return perf_session__corrupt(s, d->offset, "a record compressed in "
							     "it says it has %u bytes", h.size);
			if (left >= h.size) {
				memcpy(s->scratch, d->out + d->out_pos, h.size);
				d->out_pos += h.size;
				*event = (union perf_event *)s->scratch;
				if (s->needs_swap) {
					(*event)->header.type = __builtin_bswap32(h.type);
					(*event)->header.misc = __builtin_bswap16(h.misc);
				}
				(*event)->header.size = h.size;
				*offset = d->offset;
				return 1;
			}
		}
		ret = perf_decomp__run(s);
		if (ret <= 0)
			return ret;
	}
}
