// SPDX-License-Identifier: LGPL-2.1
/*
 * A spool's head (trace.dat version 6 up to the flyrecord section, as trace-dat-spool-dir.c
 * writes it) split into the parts that version 7 keeps as sections of their own, so that a
 * recording that asked for compression is recovered compressed from the description of its
 * start (trace-dat-v7.c), its instance perhaps long gone. The head is outside input (a
 * file on disk): every length is checked against the file.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <internal/lib.h>
#include "trace-dat-ids.h"
#include "trace-dat-internal.h"

/* magic (3), "tracing" (7), "6\0", endianness, long size, u32 sub-buffer size */
#define TD_HEAD_FILE_HEAD	18

struct head_walk {
	const char *base;
	uint64_t size;
	uint64_t pos;
	bool bad;		/* a length ran past the end: the position is no longer meaningful */
};

static void walk__skip(struct head_walk *w, uint64_t n)
{
	if (w->bad || n > w->size - w->pos)
		w->bad = true;
	else
		w->pos += n;
}

/* A native number of width bytes (2, 4, 8); 0 past the end. */
static uint64_t walk__num(struct head_walk *w, int width)
{
	uint64_t v = 0;
	uint16_t v16;
	uint32_t v32;
	uint64_t at = w->pos;

	walk__skip(w, width);
	if (w->bad)
		return 0;
	if (width == 2)
		memcpy(&v16, w->base + at, 2), v = v16;
	else if (width == 4)
		memcpy(&v32, w->base + at, 4), v = v32;
	else
		memcpy(&v, w->base + at, 8);
	return v;
}

static void walk__str(struct head_walk *w)
{
	const char *nul = w->bad ? NULL : memchr(w->base + w->pos, '\0', w->size - w->pos);

	if (!nul)
		w->bad = true;
	else
		w->pos = nul + 1 - w->base;
}

/* count times: a width-byte length and that many bytes */
static void walk__files(struct head_walk *w, uint64_t count, int width)
{
	for (uint64_t i = 0; i < count && !w->bad; i++)
		walk__skip(w, walk__num(w, width));
}

static void walk__section(struct head_walk *w, struct td_head_parts *h, int id)
{
	uint64_t start = w->pos, n;

	switch (id) {
	case TD_OPT_HEADER_INFO:		/* "header_page", its file, "header_event", its file */
		walk__str(w);
		walk__files(w, 1, 8);
		walk__str(w);
		walk__files(w, 1, 8);
		break;
	case TD_OPT_FTRACE_EVENTS:
		walk__files(w, walk__num(w, 4), 8);
		break;
	case TD_OPT_EVENT_FORMATS:
		n = walk__num(w, 4);
		for (uint64_t i = 0; i < n && !w->bad; i++) {
			walk__str(w);
			walk__files(w, walk__num(w, 4), 8);
		}
		break;
	default:				/* kallsyms, printk formats: u32; cmdlines: u64 */
		walk__files(w, 1, id == TD_OPT_CMDLINES ? 8 : 4);
	}
	h->at[id] = start;
	h->len[id] = w->pos - start;
}

int td_head_parts__read(struct td_head_parts *h, int fd, const char *what)
{
	struct stat st;
	struct head_walk w = { 0 };

	*h = (struct td_head_parts){ 0 };
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size <= TD_HEAD_FILE_HEAD)
		goto damaged;
	h->size = st.st_size;
	h->base = mmap(NULL, h->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (h->base == MAP_FAILED) {
		h->base = NULL;
		return -errno;
	}
	w = (struct head_walk){ .base = h->base, .size = h->size, .pos = TD_HEAD_FILE_HEAD };
	for (int id = TD_OPT_HEADER_INFO; id <= TD_OPT_CMDLINES; id++)
		walk__section(&w, h, id);
	walk__num(&w, 4);			/* the CPU count: the BUFFER option's to say */
	if (!w.bad && (w.size - w.pos < 10 || memcmp(w.base + w.pos, "options  ", 10)))
		w.bad = true;
	walk__skip(&w, 10);
	h->options_at = w.pos;
	while (!w.bad && walk__num(&w, 2) != TD_OPT_DONE) {
		walk__skip(&w, walk__num(&w, 4));
		h->options_len = w.pos - h->options_at;
	}
	if (!w.bad)
		return 0;
	td_head_parts__exit(h);
damaged:
	pr_err("%s is not the head of a trace.dat version 6 that a trace.dat writer made (a length at byte %llu runs past its %lld bytes): damaged\n",
	       what, (unsigned long long)w.pos, (long long)st.st_size);
	return -EINVAL;
}

bool td_head_parts__option(const struct td_head_parts *h, uint64_t *at, uint16_t *id,
			   const void **data, uint32_t *size)
{
	if (*at >= h->options_at + h->options_len)
		return false;
	memcpy(id, h->base + *at, sizeof(*id));
	memcpy(size, h->base + *at + 2, sizeof(*size));
	*data = h->base + *at + 6;
	*at += 6 + (uint64_t)*size;
	return true;
}

void td_head_parts__exit(struct td_head_parts *h)
{
	if (h->base)
		munmap((void *)h->base, h->size);
	*h = (struct td_head_parts){ 0 };
}
