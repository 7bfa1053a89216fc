// SPDX-License-Identifier: LGPL-2.1
/* Hand-built perf.data files and their byte-swapped twins, for the reader's tests. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <check.h>
#include <auxtrace/auxtrace-index.h>
#include <auxtrace/event.h>
#include <auxtrace/perf-data-format.h>

#include "aux-payload.h"
#include "perf-data-file.h"

#define PD_MAX_ATTRS 8
#define PD_MAX_IDS 16
#define PD_MAX_FEATS 32

struct pd_file {
	int fd;
	bool pipe;
	bool started;
	uint64_t pos;
	struct {
		struct perf_event_attr attr;
		uint64_t ids[PD_MAX_IDS];
		int nr;
	} attrs[PD_MAX_ATTRS];
	int nr_attrs;
	struct {
		int feat;
		void *data;
		size_t size;
	} feats[PD_MAX_FEATS];
	int nr_feats;
	struct perf_file_header header;
	struct auxtrace_index *index;
};

static void pd_write(struct pd_file *f, const void *buf, size_t len)
{
	ck_assert_int_eq(write(f->fd, buf, len), (ssize_t)len);
	f->pos += len;
}

struct pd_file *pd_file__new(int fd, bool pipe)
{
	struct pd_file *f = calloc(1, sizeof(*f));

	ck_assert_ptr_nonnull(f);
	f->fd = fd;
	f->pipe = pipe;
	f->index = auxtrace_index__new();
	ck_assert_ptr_nonnull(f->index);
	return f;
}

void pd_file__add_attr(struct pd_file *f, const struct perf_event_attr *attr,
		       const uint64_t *ids, int nr_ids)
{
	ck_assert(!f->started && f->nr_attrs < PD_MAX_ATTRS && nr_ids <= PD_MAX_IDS);
	f->attrs[f->nr_attrs].attr = *attr;
	f->attrs[f->nr_attrs].attr.size = sizeof(*attr);
	if (nr_ids)
		memcpy(f->attrs[f->nr_attrs].ids, ids, nr_ids * sizeof(*ids));
	f->attrs[f->nr_attrs].nr = nr_ids;
	f->nr_attrs++;
}

/* Pipe format: features are records, unpadded, as perf writes them. */
static void pd_file__feature_record(struct pd_file *f, int feat, const void *data, size_t size)
{
	struct perf_record_header_feature rec = {
		.header = { .type = PERF_RECORD_HEADER_FEATURE,
			    .size = (uint16_t)(sizeof(rec) + size) },
		.feat_id = feat,
	};

	pd_write(f, &rec, sizeof(rec));
	pd_write(f, data, size);
}

void pd_file__add_feature(struct pd_file *f, int feat, const void *data, size_t size)
{
	if (f->pipe && f->started) {
		pd_file__feature_record(f, feat, data, size);
		return;
	}
	ck_assert(f->nr_feats < PD_MAX_FEATS);
	f->feats[f->nr_feats].feat = feat;
	f->feats[f->nr_feats].data = malloc(size);
	memcpy(f->feats[f->nr_feats].data, data, size);
	f->feats[f->nr_feats].size = size;
	f->nr_feats++;
}

void pd_file__add_feature_string(struct pd_file *f, int feat, const char *str)
{
	uint32_t len = (strlen(str) + 1 + PERF_DATA_NAME_ALIGN - 1) & ~(PERF_DATA_NAME_ALIGN - 1);
	unsigned char *buf = calloc(1, 4 + len);

	memcpy(buf, &len, 4);
	memcpy(buf + 4, str, strlen(str));
	pd_file__add_feature(f, feat, buf, 4 + len);
	free(buf);
}

void pd_file__start(struct pd_file *f)
{
	const size_t attr_size = sizeof(struct perf_event_attr) + sizeof(struct perf_file_section);
	uint64_t ids_at;
	int i;

	f->started = true;
	if (f->pipe) {
		struct perf_pipe_file_header h = { PERF_DATA_MAGIC, sizeof(h) };

		pd_write(f, &h, sizeof(h));
		for (i = 0; i < f->nr_attrs; i++) {
			struct perf_event_header rh = {
				.type = PERF_RECORD_HEADER_ATTR,
				.size = (uint16_t)(sizeof(rh) + sizeof(f->attrs[i].attr) +
						   f->attrs[i].nr * 8),
			};

			pd_write(f, &rh, sizeof(rh));
			pd_write(f, &f->attrs[i].attr, sizeof(f->attrs[i].attr));
			pd_write(f, f->attrs[i].ids, f->attrs[i].nr * 8);
		}
		for (i = 0; i < f->nr_feats; i++) {
			pd_file__feature_record(f, f->feats[i].feat, f->feats[i].data,
						f->feats[i].size);
			free(f->feats[i].data);
		}
		f->nr_feats = 0;
		return;
	}
	/* perf's own order: header, attrs, their IDs, then the data. */
	pd_write(f, &f->header, sizeof(f->header));
	f->header.attrs.offset = f->pos;
	f->header.attrs.size = f->nr_attrs * attr_size;
	ids_at = f->pos + f->header.attrs.size;
	for (i = 0; i < f->nr_attrs; i++) {
		struct perf_file_section ids = { ids_at, f->attrs[i].nr * 8 };

		pd_write(f, &f->attrs[i].attr, sizeof(f->attrs[i].attr));
		pd_write(f, &ids, sizeof(ids));
		ids_at += ids.size;
	}
	for (i = 0; i < f->nr_attrs; i++)
		pd_write(f, f->attrs[i].ids, f->attrs[i].nr * 8);
	f->header.data.offset = f->pos;
	f->header.attr_size = attr_size;
}

uint64_t pd_file__bytes(struct pd_file *f, const void *buf, size_t len)
{
	uint64_t at = f->pos;

	ck_assert(f->started);
	pd_write(f, buf, len);
	return at;
}

uint64_t pd_file__record(struct pd_file *f, const void *record)
{
	return pd_file__bytes(f, record, ((const struct perf_event_header *)record)->size);
}

uint64_t pd_file__auxtrace(struct pd_file *f, uint32_t idx, uint32_t cpu, uint32_t tid,
			   uint64_t offset, uint64_t reference, const void *payload, size_t size)
{
	static const unsigned char zeros[8];
	size_t padded = (size + 7) & ~(size_t)7;
	struct perf_record_auxtrace ev = {
		.header = { .type = PERF_RECORD_AUXTRACE, .size = sizeof(ev) },
		.size = padded, .offset = offset, .reference = reference,
		.idx = idx, .tid = tid, .cpu = cpu,
	};
	uint64_t at = pd_file__record(f, &ev);

	pd_write(f, payload, size);
	pd_write(f, zeros, padded - size);
	ck_assert_int_eq(auxtrace_index__add(f->index, at, sizeof(ev)), 0);
	return at;
}

struct pd_frames {
	struct pd_file *f;
	const unsigned char *buf;
};

static int pd_frames__index(void *ctx, const struct perf_record_auxtrace *ev,
			    const unsigned char *payload)
{
	struct pd_frames *fr = ctx;
	uint64_t at = fr->f->pos + (payload - fr->buf) - sizeof(*ev);

	ck_assert_int_eq(auxtrace_index__add(fr->f->index, at, ev->header.size), 0);
	return 0;
}

int pd_file__framed(struct pd_file *f, const void *buf, size_t len)
{
	struct pd_frames fr = { f, buf };
	int n = aux_frames__walk(buf, len, pd_frames__index, &fr);

	ck_assert_int_ge(n, 0);
	pd_file__bytes(f, buf, len);
	return n;
}

void pd_file__finish(struct pd_file *f, bool index)
{
	struct perf_file_header header;
	uint64_t table, at;
	int i, j, nr;

	if (f->pipe)
		goto out;
	f->header.magic = PERF_DATA_MAGIC;
	f->header.size = sizeof(f->header);
	f->header.data.size = f->pos - f->header.data.offset;
	if (index && auxtrace_index__nr(f->index))
		f->header.adds_features[HEADER_AUXTRACE / 64] |= 1ull << (HEADER_AUXTRACE % 64);
	for (i = 0; i < f->nr_feats; i++)
		f->header.adds_features[f->feats[i].feat / 64] |= 1ull << (f->feats[i].feat % 64);
	nr = 0;
	for (i = 0; i < HEADER_FEAT_BITS; i++)
		nr += (f->header.adds_features[i / 64] >> (i % 64)) & 1;
	table = f->pos;
	at = table + nr * sizeof(struct perf_file_section);
	ck_assert_int_eq(lseek(f->fd, at, SEEK_SET), (off_t)at);
	f->pos = at;
	/* The sections in bit order, each right after the one before. */
	for (i = 0; i < HEADER_FEAT_BITS; i++) {
		struct perf_file_section sec = { f->pos, 0 };

		if (!((f->header.adds_features[i / 64] >> (i % 64)) & 1))
			continue;
		if (i == HEADER_AUXTRACE && index) {
			ck_assert_int_eq(auxtrace_index__write(f->index, f->fd), 0);
			f->pos += auxtrace_index__section_size(f->index);
		}
		for (j = 0; j < f->nr_feats; j++)
			if (f->feats[j].feat == i)
				pd_write(f, f->feats[j].data, f->feats[j].size);
		sec.size = f->pos - sec.offset;
		ck_assert_int_eq(pwrite(f->fd, &sec, sizeof(sec), table), (ssize_t)sizeof(sec));
		table += sizeof(sec);
	}
	header = f->header;
	ck_assert_int_eq(pwrite(f->fd, &header, sizeof(header), 0), (ssize_t)sizeof(header));
out:
	for (i = 0; i < f->nr_feats; i++)
		free(f->feats[i].data);
	auxtrace_index__delete(f->index);
	free(f);
}

unsigned char *pd_read_all(int fd, size_t *size)
{
	off_t end = lseek(fd, 0, SEEK_END);
	unsigned char *buf = malloc(end ? end : 1);

	ck_assert_int_ge(end, 0);
	ck_assert_int_eq(pread(fd, buf, end, 0), end);
	*size = end;
	return buf;
}

int pd_memfd(const void *buf, size_t size)
{
	int fd = memfd_create("perf.data", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, size), (ssize_t)size);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* ---- byte swapping, written from the layouts in perf_event.h and perf's format doc ---- */

static void sw16(unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	v = __builtin_bswap16(v);
	memcpy(p, &v, 2);
}

static void sw32(unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void sw64(unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void sw64s(unsigned char *p, unsigned char *end)
{
	for (; p + 8 <= end; p += 8)
		sw64(p);
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* An attr of size bytes: integers by their offsets; the flags word's bits per byte. */
static void swap_attr(unsigned char *a, size_t size)
{
	static const struct { uint8_t off, width; } fields[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 40, 0 },
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 },
		{ 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 },
		{ 116, 4 }, { 120, 8 }, { 128, 8 },
	};
	size_t i;
	int b;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned char *p = a + fields[i].off;

		if ((size_t)fields[i].off + (fields[i].width ? fields[i].width : 8) > size)
			break;
		switch (fields[i].width) {
		case 0:
			for (b = 0; b < 8; b++) {
				unsigned char v = p[b], r = 0;
				int k;

				for (k = 0; k < 8; k++)
					r |= ((v >> k) & 1) << (7 - k);
				p[b] = r;
			}
			break;
		case 2: sw16(p); break;
		case 4: sw32(p); break;
		case 8: sw64(p); break;
		}
	}
}

struct swap_ctx {
	unsigned char *buf;
	const struct perf_event_attr *attrs[PD_MAX_ATTRS];
	const uint64_t *ids[PD_MAX_ATTRS];
	uint64_t nr_ids[PD_MAX_ATTRS];
	int nr_attrs;
};

static const struct perf_event_attr *swap_ctx__attr(const struct swap_ctx *c, uint64_t id)
{
	int i;
	uint64_t j;

	for (i = 0; i < c->nr_attrs; i++)
		for (j = 0; j < c->nr_ids[i]; j++)
			if (c->ids[i][j] == id)
				return c->attrs[i];
	return c->attrs[0];	/* synthesized (ID 0), or of no attr: the tests' attrs agree */
}

/* The trailer of a side-band record: u32 pairs for TID and CPU, u64 for the rest. */
static void swap_trailer(const struct perf_event_attr *attr, unsigned char *end)
{
	static const uint64_t order[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
					  PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					  PERF_SAMPLE_IDENTIFIER };
	unsigned char *p;
	size_t i, n = 0;

	if (!attr->sample_id_all)
		return;
	for (i = 0; i < 6; i++)
		n += !!(attr->sample_type & order[i]);
	p = end - 8 * n;
	for (i = 0; i < 6; i++) {
		if (!(attr->sample_type & order[i]))
			continue;
		if (order[i] == PERF_SAMPLE_TID || order[i] == PERF_SAMPLE_CPU) {
			sw32(p);
			sw32(p + 4);
		} else {
			sw64(p);
		}
		p += 8;
	}
}

static void swap_sample(const struct perf_event_attr *attr, unsigned char *p, unsigned char *end)
{
	uint64_t t = attr->sample_type, n;
	const uint64_t handled = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_AUX;

	ck_assert_msg(!(t & ~handled), "swap: sample_type %#llx", (unsigned long long)t);
	if (t & PERF_SAMPLE_IDENTIFIER) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_IP) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_TID) { sw32(p); sw32(p + 4); p += 8; }
	if (t & PERF_SAMPLE_TIME) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_ADDR) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_ID) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_STREAM_ID) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_CPU) { sw32(p); sw32(p + 4); p += 8; }
	if (t & PERF_SAMPLE_PERIOD) { sw64(p); p += 8; }
	if (t & PERF_SAMPLE_CALLCHAIN) {
		n = rd64(p);
		sw64s(p, p + 8 + 8 * n);
		p += 8 + 8 * n;
	}
	if (t & PERF_SAMPLE_RAW) {
		n = rd32(p);
		sw32(p);
		p += 4 + n;
	}
	if (t & PERF_SAMPLE_AUX) {
		n = rd64(p);
		sw64(p);
		p += 8 + n;	/* AUX bytes are not integers */
	}
	ck_assert(p <= end);
}

/* One record of the data section, native on entry. Returns its size with any payload. */
static uint64_t swap_record(struct swap_ctx *c, unsigned char *rec)
{
	struct perf_event_header h;
	unsigned char *b = rec + 8, *end;
	uint64_t payload = 0;
	const struct perf_event_attr *attr = c->attrs[0];

	memcpy(&h, rec, sizeof(h));
	end = rec + h.size;
	if (h.type == PERF_RECORD_SAMPLE) {
		attr = swap_ctx__attr(c, c->nr_attrs > 1 ? rd64(b) : 0);
		swap_sample(attr, b, end);
	} else if (h.type < PERF_RECORD_USER_TYPE_START) {
		if (c->nr_attrs > 1 && attr->sample_id_all)
			attr = swap_ctx__attr(c, rd64(end - 8));	/* IDENTIFIER, last */
		swap_trailer(attr, end);
	}
	switch (h.type) {
	case PERF_RECORD_MMAP:
		sw32(b); sw32(b + 4); sw64(b + 8); sw64(b + 16); sw64(b + 24);
		break;
	case PERF_RECORD_MMAP2:
		sw32(b); sw32(b + 4); sw64(b + 8); sw64(b + 16); sw64(b + 24);
		if (!(h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			sw32(b + 32); sw32(b + 36); sw64(b + 40); sw64(b + 48);
		}
		sw32(b + 56); sw32(b + 60);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		sw32(b); sw32(b + 4);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		sw32(b); sw32(b + 4); sw32(b + 8); sw32(b + 12); sw64(b + 16);
		break;
	case PERF_RECORD_LOST:
		sw64(b); sw64(b + 8);
		break;
	case PERF_RECORD_AUX:
		sw64(b); sw64(b + 8); sw64(b + 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		sw64(b);
		break;
	case PERF_RECORD_KSYMBOL:	/* a BPF program loaded while perf recorded */
		sw64(b); sw32(b + 8); sw16(b + 12); sw16(b + 14);
		break;
	case PERF_RECORD_BPF_EVENT:
		sw16(b); sw16(b + 2); sw32(b + 4);
		break;
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
	case PERF_RECORD_CPU_MAP:	/* the reader skips these in a foreign file */
		break;
	case PERF_RECORD_ID_INDEX:
		sw64s(b, end);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		sw32(b); sw32(b + 4); sw64s(b + 8, end);
		break;
	case PERF_RECORD_AUXTRACE:
		payload = rd64(b);
		sw64(b); sw64(b + 8); sw64(b + 16); sw32(b + 24); sw32(b + 28); sw32(b + 32);
		sw32(b + 36);
		break;
	case PERF_RECORD_TIME_CONV:
		sw64(b); sw64(b + 8); sw64(b + 16);
		if (h.size >= 56) {
			sw64(b + 24); sw64(b + 32);
		}
		break;
	case PERF_RECORD_EVENT_UPDATE:
		sw64(b); sw64(b + 8);
		break;
	case PERF_RECORD_THREAD_MAP: {
		uint64_t nr = rd64(b), i;

		sw64(b);
		for (i = 0; i < nr; i++)
			sw64(b + 8 + i * 24);
		break;
	}
	default:
		ck_abort_msg("swap: record type %u", h.type);
	}
	sw32(rec);
	sw16(rec + 4);
	sw16(rec + 6);
	return h.size + payload;
}

/* u32 length then the string. */
static unsigned char *swap_string(unsigned char *p)
{
	uint32_t len = rd32(p);

	sw32(p);
	return p + 4 + len;
}

static void swap_feature(int feat, unsigned char *p, unsigned char *end)
{
	uint32_t nr, i, attr_size, nr_ids;

	switch (feat) {
	case HEADER_HOSTNAME: case HEADER_OSRELEASE: case HEADER_VERSION: case HEADER_ARCH:
	case HEADER_CPUDESC: case HEADER_CPUID:
		swap_string(p);
		break;
	case HEADER_NRCPUS:
		sw32(p); sw32(p + 4);
		break;
	case HEADER_TOTAL_MEM: case HEADER_CLOCKID: case HEADER_SAMPLE_TIME: case HEADER_AUXTRACE:
		sw64s(p, end);
		break;
	case HEADER_CMDLINE:
		nr = rd32(p);
		sw32(p);
		for (p += 4, i = 0; i < nr; i++)
			p = swap_string(p);
		break;
	case HEADER_PMU_MAPPINGS:
		nr = rd32(p);
		sw32(p);
		for (p += 4, i = 0; i < nr; i++) {
			sw32(p);
			p = swap_string(p + 4);
		}
		break;
	case HEADER_EVENT_DESC:
		nr = rd32(p);
		attr_size = rd32(p + 4);
		sw32(p); sw32(p + 4);
		for (p += 8, i = 0; i < nr; i++) {
			swap_attr(p, attr_size);
			p += attr_size;
			nr_ids = rd32(p);
			sw32(p);
			p = swap_string(p + 4);
			sw64s(p, p + 8 * nr_ids);
			p += 8 * nr_ids;
		}
		break;
	case HEADER_BUILD_ID:
		while (p < end) {
			uint16_t size;

			memcpy(&size, p + 6, 2);
			sw32(p); sw16(p + 4); sw16(p + 6); sw32(p + 8);
			p += size;
		}
		break;
	default:
		break;	/* sections the reader keeps as raw bytes */
	}
}

void pd_swap_file(unsigned char *buf, size_t size)
{
	struct perf_file_header h;
	struct swap_ctx c = { .buf = buf };
	uint64_t i, pos, table;
	int feat;

	memcpy(&h, buf, sizeof(h));
	ck_assert(h.magic == PERF_DATA_MAGIC && h.size == sizeof(h) && h.data.offset +
		  h.data.size <= size);
	c.nr_attrs = h.attrs.size / h.attr_size;
	ck_assert_int_le(c.nr_attrs, PD_MAX_ATTRS);
	for (i = 0; i < (uint64_t)c.nr_attrs; i++) {
		unsigned char *a = buf + h.attrs.offset + i * h.attr_size;
		unsigned char *ids = a + h.attr_size - 16;

		c.attrs[i] = (const void *)a;
		c.ids[i] = (const uint64_t *)(buf + rd64(ids));
		c.nr_ids[i] = rd64(ids + 8) / 8;
	}
	/* Records first, while the attrs they need are still native. */
	for (pos = h.data.offset; pos < h.data.offset + h.data.size; )
		pos += swap_record(&c, buf + pos);
	for (i = 0; i < (uint64_t)c.nr_attrs; i++) {
		unsigned char *a = buf + h.attrs.offset + i * h.attr_size;
		unsigned char *ids = a + h.attr_size - 16;

		sw64s(buf + rd64(ids), buf + rd64(ids) + rd64(ids + 8));
		sw64(ids);
		sw64(ids + 8);
		swap_attr(a, h.attr_size - 16);
	}
	table = h.data.offset + h.data.size;
	for (feat = 0; feat < HEADER_FEAT_BITS; feat++) {
		uint64_t off, len;

		if (!((h.adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		off = rd64(buf + table);
		len = rd64(buf + table + 8);
		swap_feature(feat, buf + off, buf + off + len);
		sw64(buf + table);
		sw64(buf + table + 8);
		table += 16;
	}
	sw64s(buf, buf + sizeof(h));
}

/* ---- a logging tool ---- */

static struct pd_log_entry *pd_log__add(struct pd_log *log, char kind, const union perf_event *ev,
					 uint64_t offset, const void *payload, size_t payload_size)
{
	struct pd_log_entry *e;

	if (log->n == log->cap) {
		log->cap = log->cap ? log->cap * 2 : 64;
		log->e = realloc(log->e, log->cap * sizeof(*log->e));
		ck_assert_ptr_nonnull(log->e);
	}
	e = &log->e[log->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->type = ev->header.type;
	e->time = (uint64_t)-1;
	e->offset = offset;
	e->size = ev->header.size + payload_size;
	e->copy = malloc(e->size);
	memcpy(e->copy, ev, ev->header.size);
	if (payload_size)
		memcpy(e->copy + ev->header.size, payload, payload_size);
	return e;
}

static int pd_log__kernel(struct pd_log *log, char kind, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel)
{
	struct pd_log_entry *e = pd_log__add(log, kind, event, sample->file_offset, NULL, 0);

	e->time = sample->time;
	e->id = sample->id;
	e->evsel = strdup(evsel__name(evsel));	/* names die with the session */
	return 0;
}

static int pd_log__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel)
{
	(void)s;
	return pd_log__kernel((struct pd_log *)tool, 'S', event, sample, evsel);
}

static int pd_log__event(struct perf_tool *tool, struct perf_session *s, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel)
{
	(void)s;
	return pd_log__kernel((struct pd_log *)tool, 'E', event, sample, evsel);
}

static int pd_log__user(struct perf_tool *tool, struct perf_session *s, union perf_event *event,
			uint64_t offset)
{
	(void)s;
	pd_log__add((struct pd_log *)tool, 'U', event, offset, NULL, 0);
	return 0;
}

static int pd_log__auxtrace(struct perf_tool *tool, struct perf_session *s,
			    union perf_event *event, uint64_t data_offset, const void *data)
{
	(void)s;
	ck_assert(data || !event->auxtrace.size);
	pd_log__add((struct pd_log *)tool, 'A', event, data_offset, data, event->auxtrace.size);
	return 0;
}

void pd_log__init(struct pd_log *log, bool ordered)
{
	memset(log, 0, sizeof(*log));
	log->tool = (struct perf_tool){
		.sz = sizeof(log->tool), .ordered_events = ordered, .sample = pd_log__sample,
		.event = pd_log__event, .user_event = pd_log__user, .auxtrace = pd_log__auxtrace,
	};
}

void pd_log__exit(struct pd_log *log)
{
	int i;

	for (i = 0; i < log->n; i++) {
		free(log->e[i].copy);
		free(log->e[i].evsel);
	}
	free(log->e);
	memset(log, 0, sizeof(*log));
}

int pd_log__read(struct pd_log *log, const char *path, int fd, bool ordered,
		 const struct perf_session_opts *opts, struct perf_session_stats *stats)
{
	AUXTRACE_OPTS(perf_session_opts, dflt);
	struct perf_session *s;
	int err;

	pd_log__init(log, ordered);
	s = fd >= 0 ? perf_session__new_fd(fd, opts ? opts : &dflt)
		    : perf_session__new(path, opts ? opts : &dflt);
	if (!s)
		return -errno;
	err = perf_session__process_events(s, &log->tool);
	if (stats)
		*stats = *perf_session__stats(s);
	perf_session__delete(s);
	return err;
}

void pd_log__assert_same(const struct pd_log *a, const struct pd_log *b, bool same_offsets)
{
	int i;

	ck_assert_int_eq(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		const struct pd_log_entry *x = &a->e[i], *y = &b->e[i];

		ck_assert_msg(x->kind == y->kind && x->type == y->type && x->time == y->time &&
			      x->size == y->size && !memcmp(x->copy, y->copy, x->size),
			      "record %d differs: %c%u t%llu %zu bytes vs %c%u t%llu %zu bytes", i,
			      x->kind, x->type, (unsigned long long)x->time, x->size, y->kind,
			      y->type, (unsigned long long)y->time, y->size);
		if (same_offsets)
			ck_assert_uint_eq(x->offset, y->offset);
	}
}

int pd_log__count(const struct pd_log *log, char kind, uint32_t type)
{
	int i, n = 0;

	for (i = 0; i < log->n; i++)
		n += log->e[i].kind == kind && log->e[i].type == type;
	return n;
}
