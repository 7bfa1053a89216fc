// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat version 7 with zstd (or none), as trace-cmd 3.x writes it with compression: the
 * file head names the algorithm and points at the options; each description part is a
 * section (a 16-byte header, then one compressed block: compressed size, plain size, the
 * zstd frame);
 * the CPU data is one flyrecord section in which each CPU's sub-buffers start page-aligned,
 * as a count of chunks and the chunks (10 sub-buffers each, one zstd frame apiece); the
 * options come last, among them each section's offset and the BUFFER option that says
 * where each CPU's chunks are.
 *
 * The description parts are the same bytes as in version 6 (trace-dat-meta.c and
 * trace-dat-events.c write them into a scratch memfd, compressed from there). At level 0 the
 * file names the compression "none" and the sections hold those bytes as they are. Without
 * CPU data the file ends after its options: the prefix a trace-cmd listen server completes
 * with the data it collected (trace-dat-net.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include <internal/lib.h>
#include <tracefs/tracefs.h>
#include "trace-dat-ids.h"
#include "trace-dat-internal.h"

#define TD_SEC_COMPRESSED	1
#define TD_NO_STRING		0xffffffffu
#define TD_PAGES_IN_CHUNK	10

struct td_v7 {
	struct td_out *out;
	bool compress;			/* zstd; else "none": sections stored as they are */
	struct td_out scratch;		/* a section's plain bytes, in a memfd */
	ZSTD_CCtx *cctx;
	int level;
	void *zbuf;			/* compressed bytes of one block or chunk */
	size_t zcap;
	uint64_t sections[TD_OPT_CMDLINES + 1];	/* file offset of each section's header */
};

static void td_v7__section_head(struct td_v7 *v, uint16_t id, uint16_t flags, uint64_t size)
{
	td_out__u16(v->out, id);
	td_out__u16(v->out, flags);
	td_out__u32(v->out, TD_NO_STRING);
	td_out__u64(v->out, size);
}

/* len bytes compressed into v->zbuf. Its size, or 0 with out->err set. */
static size_t td_v7__compress(struct td_v7 *v, const void *data, size_t len)
{
	size_t bound = ZSTD_compressBound(len), n;

	if (bound > v->zcap) {
		void *grown = realloc(v->zbuf, bound);

		if (!grown) {
			v->out->err = -ENOMEM;
			return 0;
		}
		v->zbuf = grown;
		v->zcap = bound;
	}
	n = ZSTD_compress2(v->cctx, v->zbuf, v->zcap, data, len);
	if (ZSTD_isError(n)) {
		pr_err("trace.dat: zstd failed: %s\n", ZSTD_getErrorName(n));
		v->out->err = -EIO;
		return 0;
	}
	return n;
}

/* A compressed block: compressed size, plain size, the frame. Returns the frame's size. */
static size_t td_v7__block(struct td_v7 *v, const void *data, size_t len)
{
	size_t n = td_v7__compress(v, data, len);

	if (v->out->err)
		return 0;
	td_out__u32(v->out, (uint32_t)n);
	td_out__u32(v->out, (uint32_t)len);
	td_out__write(v->out, v->zbuf, n);
	return n;
}

static void td_v7__scratch_begin(struct td_v7 *v)
{
	if (ftruncate(v->scratch.fd, 0) < 0 && !v->scratch.err)
		v->scratch.err = -errno;
	v->scratch.pos = 0;
	v->scratch.used = 0;
}

/* What was written into the scratch since begin, as section id: its header, one block. */
static void td_v7__scratch_end(struct td_v7 *v, uint16_t id)
{
	size_t len = v->scratch.pos, n;
	void *data = NULL;

	if (td_out__flush(&v->scratch)) {
		v->out->err = v->out->err ?: v->scratch.err;
		return;
	}
	if (len) {
		data = mmap(NULL, len, PROT_READ, MAP_PRIVATE, v->scratch.fd, 0);
		if (data == MAP_FAILED) {
			v->out->err = v->out->err ?: -errno;
			return;
		}
	}
	v->sections[id] = v->out->pos;
	if (!v->compress) {
		td_v7__section_head(v, id, 0, len);
		td_out__write(v->out, data, len);
	} else {
		n = td_v7__compress(v, len ? data : "", len);
		if (!v->out->err) {
			td_v7__section_head(v, id, TD_SEC_COMPRESSED, 8 + n);
			td_out__u32(v->out, (uint32_t)n);
			td_out__u32(v->out, (uint32_t)len);
			td_out__write(v->out, v->zbuf, n);
		}
	}
	if (len)
		munmap(data, len);
}

/*
 * CPU data of size bytes of sub-buffers from fd: the chunk count, then the chunks. Returns
 * what the BUFFER option counts: each chunk's 8-byte head and frame, not the count.
 */
static uint64_t td_v7__cpu_data(struct td_v7 *v, int fd, uint64_t size, unsigned int page)
{
	size_t chunk = (size_t)page * TD_PAGES_IN_CHUNK;
	uint64_t counted = 0;
	char *buf = malloc(chunk);

	if (!buf) {
		v->out->err = -ENOMEM;
		return 0;
	}
	td_out__u32(v->out, (uint32_t)((size + chunk - 1) / chunk));
	for (uint64_t at = 0; at < size && !v->out->err; at += chunk) {
		size_t len = size - at < chunk ? size - at : chunk;
		ssize_t got = pread(fd, buf, len, (off_t)at);

		if (got != (ssize_t)len)
			v->out->err = got < 0 ? -errno : -EIO;
		else
			counted += 8 + td_v7__block(v, buf, len);
	}
	free(buf);
	return counted;
}

/* The selected clock of trace_clock's text ("local [perf] global": "perf"). */
static void clock__selected(const char *text, char *name, size_t size)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	snprintf(name, size, "%.*s", open && close ? (int)(close - open - 1) : 5,
		 open && close ? open + 1 : "local");
}

/* The flyrecord section: each CPU's chunks, page-aligned; the BUFFER option's table. */
static void td_v7__flyrecord(struct td_v7 *v, const struct td_v7_params *p, uint64_t *offsets,
			     uint64_t *counted)
{
	static const char zeros[4096];
	uint64_t head = v->out->pos, size;

	td_v7__section_head(v, TD_OPT_BUFFER, TD_SEC_COMPRESSED, 0);
	for (int cpu = 0; cpu < p->nr_cpus && !v->out->err; cpu++) {
		if (!p->sizes[cpu])
			continue;
		for (uint64_t pad = (p->align - v->out->pos % p->align) % p->align, n; pad; pad -= n) {
			n = pad < sizeof(zeros) ? pad : sizeof(zeros);
			td_out__write(v->out, zeros, n);
		}
		offsets[cpu] = v->out->pos;
		counted[cpu] = td_v7__cpu_data(v, p->fds[cpu], p->sizes[cpu],
					       p->layout->page_size);
	}
	size = v->out->pos - head - 16;
	td_out__patch(v->out, head + 8, &size, sizeof(size));
}

/* The BUFFER option: where the flyrecord section and each CPU's chunks are. */
static void td_v7__buffer_option(struct td_v7 *v, const struct td_v7_params *p,
				 uint64_t flyrecord, const uint64_t *offsets,
				 const uint64_t *counted)
{
	uint32_t nr = 0, page = p->layout->page_size;
	char clock[64];

	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		nr += !!p->sizes[cpu];
	clock__selected(p->clock, clock, sizeof(clock));
	td_out__u16(v->out, TD_OPT_BUFFER);
	td_out__u32(v->out, 8 + 1 + strlen(clock) + 1 + 4 + 4 + nr * 20);
	td_out__u64(v->out, flyrecord);
	td_out__str(v->out, "");	/* the top instance */
	td_out__str(v->out, clock);
	td_out__u32(v->out, page);
	td_out__u32(v->out, nr);
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (!p->sizes[cpu])
			continue;
		td_out__u32(v->out, (uint32_t)cpu);
		td_out__u64(v->out, offsets[cpu]);
		td_out__u64(v->out, counted[cpu]);
	}
}

/*
 * A spool head's options as they are (CPU count, uname, version, the CPUs' stats at the
 * start), but the clock: version 6 leaves its option empty (trace-dat-meta.c), 7 reads it.
 */
static void td_v7__head_options(struct td_v7 *v, const struct td_v7_params *p)
{
	uint64_t at = p->head->options_at;
	const void *data;
	uint32_t size;
	uint16_t id;

	while (td_head_parts__option(p->head, &at, &id, &data, &size)) {
		if (id == TD_OPT_TRACECLOCK)
			td_option__write(v->out, id, p->clock, strlen(p->clock) + 1);
		else
			td_option__write(v->out, id, data, size);
	}
}

/*
 * The options section: where the sections are, the instance's options, BUFFER when there is
 * CPU data (flyrecord not 0), DONE.
 */
static void td_v7__options(struct td_v7 *v, const struct td_v7_params *p, uint64_t flyrecord,
			   const uint64_t *offsets, const uint64_t *counted)
{
	uint64_t head = v->out->pos, size;

	td_v7__section_head(v, TD_OPT_DONE, 0, 0);
	for (uint16_t id = TD_OPT_HEADER_INFO; id <= TD_OPT_CMDLINES; id++)
		td_option__write(v->out, id, &v->sections[id], sizeof(v->sections[id]));
	if (p->head)
		td_v7__head_options(v, p);
	else	/* before the recording, the CPUs' stats would say nothing: only with the data */
		td_meta__write_instance_options(v->out, p->inst, p->nr_cpus, p->version, p->clock,
						flyrecord != 0);
	if (flyrecord)
		td_v7__buffer_option(v, p, flyrecord, offsets, counted);
	td_out__u16(v->out, 0);		/* DONE, and no options section after this one */
	td_out__u32(v->out, 8);
	td_out__u64(v->out, 0);
	size = v->out->pos - head - 16;
	td_out__patch(v->out, head + 8, &size, sizeof(size));
}

/*
 * The head (naming zstd, or none at level 0) and the description sections. Returns where the
 * first options section's offset goes.
 */
static uint64_t td_v7__meta(struct td_v7 *v, const struct td_v7_params *p)
{
	struct td_out *out = v->out;
	uint64_t options_slot;

	td_meta__write_head(out, p->layout, "7");
	td_out__str(out, v->compress ? "zstd" : "none");
	td_out__str(out, v->compress ? ZSTD_versionString() : "");
	options_slot = out->pos;
	td_out__u64(out, 0);		/* the options' offset, known at the end */

	if (p->head) {		/* the same bytes, from version 6 */
		for (uint16_t id = TD_OPT_HEADER_INFO; id <= TD_OPT_CMDLINES; id++) {
			td_v7__scratch_begin(v);
			td_out__write(&v->scratch, p->head->base + p->head->at[id], p->head->len[id]);
			td_v7__scratch_end(v, id);
		}
		return options_slot;
	}
	td_v7__scratch_begin(v);
	td_meta__write_headers(&v->scratch, p->inst);
	td_v7__scratch_end(v, TD_OPT_HEADER_INFO);
	td_v7__scratch_begin(v);
	td_events__write_ftrace(p->inst, &v->scratch, true);
	td_v7__scratch_end(v, TD_OPT_FTRACE_EVENTS);
	td_v7__scratch_begin(v);
	td_events__write_systems(p->events, p->inst, &v->scratch);
	td_v7__scratch_end(v, TD_OPT_EVENT_FORMATS);
	for (uint16_t id = TD_OPT_KALLSYMS; id <= TD_OPT_CMDLINES; id++) {
		td_v7__scratch_begin(v);
		td_meta__write_symbol(&v->scratch, p->inst,
				      TD_SYMBOLS_KALLSYMS + (id - TD_OPT_KALLSYMS));
		td_v7__scratch_end(v, id);
	}
	return options_slot;
}

uint64_t td_v7__write(struct td_out *out, const struct td_v7_params *p)
{
	struct td_v7 v = { .out = out, .compress = p->level > 0, .cctx = ZSTD_createCCtx() };
	uint64_t *offsets = calloc(2 * (size_t)p->nr_cpus, sizeof(*offsets)), options_at;
	uint64_t flyrecord = 0, options_slot;
	int fd = memfd_create("trace.dat section", MFD_CLOEXEC);

	if (fd < 0 || !v.cctx || !offsets) {
		out->err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	if (v.compress)
		ZSTD_CCtx_setParameter(v.cctx, ZSTD_c_compressionLevel, p->level);
	td_out__init(&v.scratch, fd);
	options_slot = td_v7__meta(&v, p);
	if (p->fds) {
		flyrecord = out->pos;
		td_v7__flyrecord(&v, p, offsets, offsets + p->nr_cpus);
	}
	options_at = out->pos;
	td_v7__options(&v, p, flyrecord, offsets, offsets + p->nr_cpus);
	td_out__patch(out, options_slot, &options_at, sizeof(options_at));
out:
	if (fd >= 0)
		close(fd);
	free(offsets);
	free(v.zbuf);
	ZSTD_freeCCtx(v.cctx);
	return out->pos;
}
