// SPDX-License-Identifier: LGPL-2.1
/*
 * perf record -z: the records the data sink takes go into the file as PERF_RECORD_COMPRESSED
 * records, pieces of one zstd stream that runs for the whole file (a record cannot be read
 * alone: the reader feeds them in order to one decoder, as perf does). Compression happens
 * here, on the write path, one push at a time: the ring's bytes are compressed straight out
 * of the mapping and flushed before the push returns, so nothing waits for the compressor
 * (no queue to bound) and the ring is released only when its bytes are in the file.
 *
 * Each flush covers one slice of a push (PERF_DATA_COMPRESS_SLICE and at most one record
 * more), less than the mmap_len that HEADER_COMPRESSED announces: perf sizes its
 * decompression buffer by it, so no COMPRESSED record may decode to more (plus the piece of
 * a record carried over).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include <internal/lib.h>
#include "perf-data-buf.h"
#include "perf-data-internal.h"

/* The payload of one COMPRESSED record: header.size is a u16, as perf cuts them. */
#define COMPRESSED_PAYLOAD_MAX	(PERF_RECORD_MAX_SIZE - sizeof(struct perf_event_header))

struct perf_data_compressor {
	ZSTD_CCtx *cctx;
	int level;
	struct ring_sink *file;			/* where records go: the writer's file */
	struct perf_data_writer_stats *stats;	/* the writer's, compressed_* counted here */
	/* one record being filled: its header, then the compressed bytes */
	struct perf_event_header hdr;
	unsigned char out[COMPRESSED_PAYLOAD_MAX];
};

struct perf_data_compressor *perf_data_compressor__new(int level, struct ring_sink *out,
						       struct perf_data_writer_stats *stats)
{
	struct perf_data_compressor *c;
	size_t ret;

	if (level < 1 || level > ZSTD_maxCLevel()) {
		pr_err("perf.data: compression level %d: zstd takes 1 to %d (perf record -z "
		       "uses 1)\n", level, ZSTD_maxCLevel());
		return libauxtrace__ptr_err(-EINVAL);
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return libauxtrace__ptr_err(-ENOMEM);
	c->level = level;
	c->file = out;
	c->stats = stats;
	c->hdr.type = PERF_RECORD_COMPRESSED;
	c->cctx = ZSTD_createCCtx();
	ret = c->cctx ? ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, level) : 0;
	if (!c->cctx || ZSTD_isError(ret)) {
		int err = c->cctx ? -EINVAL : -ENOMEM;

		pr_err("perf.data: cannot set up zstd at level %d: %s\n", level,
		       c->cctx ? ZSTD_getErrorName(ret) : "out of memory");
		ZSTD_freeCCtx(c->cctx);
		free(c);
		return libauxtrace__ptr_err(err);
	}
	return c;
}

void perf_data_compressor__delete(struct perf_data_compressor *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->cctx);
	free(c);
}

/* iov whole into the file, or -errno. */
static int perf_data_compressor__write(struct perf_data_compressor *c, const struct iovec *iov,
				       int iovcnt)
{
	ssize_t n = c->file->push(c->file, iov, iovcnt);

	return n < 0 ? (int)n : 0;
}

/* The bytes compressed so far go out as one COMPRESSED record. */
static int perf_data_compressor__emit(struct perf_data_compressor *c, ZSTD_outBuffer *out)
{
	struct iovec iov[2] = { { &c->hdr, sizeof(c->hdr) }, { c->out, out->pos } };
	int err;

	if (!out->pos)
		return 0;
	c->hdr.size = (uint16_t)(sizeof(c->hdr) + out->pos);
	err = perf_data_compressor__write(c, iov, 2);
	if (!err) {
		c->stats->compressed_records++;
		c->stats->compressed_bytes += c->hdr.size;
	}
	out->pos = 0;
	return err;
}

/* Run zstd over in (or flush it when mode says so), emitting records as they fill. */
static int perf_data_compressor__run(struct perf_data_compressor *c, ZSTD_inBuffer *in,
				     ZSTD_outBuffer *out, ZSTD_EndDirective mode)
{
	size_t left;

	do {
		left = ZSTD_compressStream2(c->cctx, out, in, mode);
		if (ZSTD_isError(left)) {
			pr_err("perf.data: zstd failed: %s\n", ZSTD_getErrorName(left));
			return -EIO;
		}
		if (out->pos == out->size) {
			int err = perf_data_compressor__emit(c, out);

			if (err)
				return err;
		}
	} while (mode == ZSTD_e_flush ? left != 0 : in->pos < in->size);
	return 0;
}

static int perf_data_compressor__flush(struct perf_data_compressor *c, ZSTD_outBuffer *out)
{
	ZSTD_inBuffer none = { NULL, 0, 0 };
	int err = perf_data_compressor__run(c, &none, out, ZSTD_e_flush);

	return err ? err : perf_data_compressor__emit(c, out);
}

/* The bytes of iov into the stream, then flushed: the reader can decode them whole. */
static int perf_data_compressor__feed(struct perf_data_compressor *c, const struct iovec *iov,
				      int iovcnt, ZSTD_outBuffer *out)
{
	int err = 0;

	for (int i = 0; !err && i < iovcnt; i++) {
		ZSTD_inBuffer in = { iov[i].iov_base, iov[i].iov_len, 0 };

		err = perf_data_compressor__run(c, &in, out, ZSTD_e_continue);
		c->stats->compressed_input += in.size;
	}
	return err ? err : perf_data_compressor__flush(c, out);
}

/* The first len bytes of iov from byte from on, as iovecs in slice (iovcnt at most). */
static int iov__slice(const struct iovec *iov, int iovcnt, size_t from, size_t len,
		      struct iovec *slice)
{
	int n = 0;

	for (int i = 0; i < iovcnt && len; i++) {
		size_t take;

		if (from >= iov[i].iov_len) {
			from -= iov[i].iov_len;
			continue;
		}
		take = iov[i].iov_len - from < len ? iov[i].iov_len - from : len;
		slice[n++] = (struct iovec){ (char *)iov[i].iov_base + from, take };
		len -= take;
		from = 0;
	}
	return n;
}

/* header.size of the record at byte at of iov (its header may straddle iovecs). */
static size_t iov__record_size(const struct iovec *iov, int iovcnt, size_t at,
			       struct iovec *slice)
{
	struct perf_event_header h = { .size = 0 };
	int n = iov__slice(iov, iovcnt, at, sizeof(h), slice);
	size_t done = 0;

	for (int i = 0; i < n; done += slice[i].iov_len, i++)
		memcpy((char *)&h + done, slice[i].iov_base, slice[i].iov_len);
	return done == sizeof(h) ? h.size : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Compress a push in slices of whole records, each flushed (zstd does most of its work at
 * the flush, so the clock between slices sees what compressing cost). Once the push has
 * taken the compressor longer than PERF_DATA_COMPRESS_BUDGET_NS, the rest is stored as it
 * is: a slow compressor (a high level, a slow CPU) does not hold a ring until it overflows,
 * and readers take plain records between COMPRESSED ones.
 */
int perf_data_compressor__push(struct perf_data_compressor *c, const struct iovec *iov,
				int iovcnt)
{
	ZSTD_outBuffer out = { c->out, sizeof(c->out), 0 };
	struct iovec *slice = calloc((size_t)iovcnt, sizeof(*slice));
	uint64_t start = now_ns();
	size_t total = 0, at = 0;
	int err = slice ? 0 : -ENOMEM;

	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	while (!err && at < total) {
		size_t end = at, size = 1;

		while (end < total && end - at < PERF_DATA_COMPRESS_SLICE && size)
			end += size = iov__record_size(iov, iovcnt, end, slice);
		if (!size || end > total)
			end = total;	/* not whole records: compressed as bytes all the same */
		err = perf_data_compressor__feed(c, slice,
						 iov__slice(iov, iovcnt, at, end - at, slice), &out);
		at = end;
		if (err || at == total || now_ns() - start < PERF_DATA_COMPRESS_BUDGET_NS)
			continue;
		err = perf_data_compressor__write(c, slice,
						  iov__slice(iov, iovcnt, at, total - at, slice));
		if (!err)
			c->stats->stored_uncompressed += total - at;
		break;
	}
	free(slice);
	return err;
}

/*
 * HEADER_COMPRESSED as perf record writes it: version 0, type 1 (zstd), the level, the
 * ratio of record bytes to compressed bytes rounded, and the decompression buffer size.
 */
int perf_data_compressor__feature(const struct perf_data_compressor *c,
				  struct perf_data_buf *buf)
{
	const struct perf_data_writer_stats *st;

	if (!c)
		return -ENOENT;
	st = c->stats;
	perf_data_buf__add_u32(buf, 0);
	perf_data_buf__add_u32(buf, 1);
	perf_data_buf__add_u32(buf, (uint32_t)c->level);
	perf_data_buf__add_u32(buf, st->compressed_bytes ?
			       (uint32_t)((double)st->compressed_input / st->compressed_bytes + 0.5) : 0);
	perf_data_buf__add_u32(buf, PERF_DATA_COMPRESS_MMAP_LEN);
	return 0;
}
