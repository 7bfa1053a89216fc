// SPDX-License-Identifier: LGPL-2.1
/*
 * The ftrace sub-buffer format (spec §2): the layout from header_page, the commit word and
 * its lost-events marks, a walk over the event records, and standalone pieces of a page.
 * Our own parser: libtraceevent 1.7's kbuffer cannot refresh a growing page, cannot extract
 * a range, and drops the MISSED marks when it copies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

enum {
	RB_TYPE_DATA_MAX = 28,		/* type_len 1..28: payload of 4 * type_len bytes */
	RB_TYPE_PADDING = 29,
	RB_TYPE_TIME_EXTEND = 30,
	RB_TYPE_TIME_STAMP = 31,
	RB_TS_SHIFT = 27,
};
#define RB_TS_MSB_MASK (0xf8ULL << 56)	/* an absolute stamp carries 59 bits */

/* "field: local_t commit; offset:8; size:8; signed:1;" → name "commit", offset 8, size 8 */
static bool parse_field(const char *line, char *name, size_t name_size, unsigned int *offset,
			unsigned int *size)
{
	const char *field = strstr(line, "field:");
	const char *semi, *start;

	if (!field)
		return false;
	semi = strchr(field, ';');
	if (!semi)
		return false;
	/* the name is the last word before ';' ("u64 timestamp", "char data") */
	for (start = semi; start > field && start[-1] != ' ' && start[-1] != '\t'; start--)
		;
	snprintf(name, name_size, "%.*s", (int)(semi - start), start);
	return sscanf(semi, "; offset:%u; size:%u;", offset, size) == 2;
}

int rb_layout__parse(struct rb_layout *l, const char *header_page)
{
	unsigned int commit_off = 0, commit_size = 0, data_off = 0, data_size = 0;
	const char *line = header_page;

	while (line && *line) {
		unsigned int off, size;
		char name[64];

		if (parse_field(line, name, sizeof(name), &off, &size)) {
			if (!strcmp(name, "commit")) {
				commit_off = off;
				commit_size = size;
			} else if (!strcmp(name, "data")) {
				data_off = off;
				data_size = size;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (commit_off != 8 || (commit_size != 4 && commit_size != 8) ||
	    data_off != 8 + commit_size || !data_size) {
		pr_err("events/header_page has an unknown layout (commit %u@%u, data %u@%u): kernel too old or too new for this library\n",
		       commit_size, commit_off, data_size, data_off);
		return libauxtrace__err(-EINVAL);
	}
	l->long_size = commit_size;
	l->data_off = data_off;
	l->subbuf_size = data_off + data_size;
	return 0;
}

int rb_layout__read(struct rb_layout *l, struct tracefs_instance *instance)
{
	char *text = tracefs_instance_file_read(instance, "events/header_page", NULL);
	int ret;

	if (!text)
		return libauxtrace__err(-errno);
	ret = rb_layout__parse(l, text);
	free(text);
	return ret;
}

static inline uint32_t load_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t load_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

uint32_t rb_page__commit(const void *page, const struct rb_layout *l)
{
	const char *commit = (const char *)page + 8;

	if (l->long_size == 8)
		return (uint32_t)__atomic_load_n((const uint64_t *)commit, __ATOMIC_ACQUIRE);
	return __atomic_load_n((const uint32_t *)commit, __ATOMIC_ACQUIRE);
}

int64_t rb_page__lost(const void *page, const struct rb_layout *l, uint32_t commit)
{
	const char *count = (const char *)page + l->data_off + rb_commit__size(commit);

	if (!(commit & RB_MISSED_EVENTS))
		return 0;
	if (!(commit & RB_MISSED_STORED) ||
	    rb_commit__size(commit) + l->long_size > rb_layout__capacity(l))
		return -1;
	return l->long_size == 8 ? (int64_t)load_u64(count) : (int64_t)load_u32(count);
}

/* One record header word, split the way this (the kernel's own) byte order lays it out. */
static inline void record__split(uint32_t w, unsigned int *type_len, uint32_t *delta)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	*type_len = w >> 27;
	*delta = w & 0x07ffffff;
#else
	*type_len = w & 0x1f;
	*delta = w >> 5;
#endif
}

/*
 * Length of the record at data offset off (off < size) whose header word splits into
 * type_len and delta. 0 ends a walk: null padding, or a length that leaves the data.
 */
static inline uint32_t record__len(const char *data, uint32_t off, uint32_t size,
				   unsigned int type_len, uint32_t delta)
{
	uint32_t len;

	if (type_len >= 1 && type_len <= RB_TYPE_DATA_MAX) {
		len = 4 + 4 * type_len;
		return len <= size - off ? len : 0;
	}
	if (size - off < 8)
		return 0;
	if (type_len == RB_TYPE_TIME_EXTEND || type_len == RB_TYPE_TIME_STAMP)
		return 8;
	if (type_len == RB_TYPE_PADDING && !delta)
		return 0;	/* null padding: the rest of the page is unused */
	len = 4 + load_u32(data + off + 4);	/* large data record, or padding */
	return len >= 8 && len <= size - off ? len : 0;
}

bool rb_page__maybe_live(const void *page, const struct rb_layout *l, uint32_t commit)
{
	const char *data = (const char *)page + l->data_off;
	uint32_t size = rb_commit__size(commit), off = 0, len, delta;
	unsigned int type_len;
	uint32_t room;

	if ((commit & RB_MISSED_EVENTS) || size > rb_layout__capacity(l))
		return false;
	room = rb_layout__capacity(l) - size;
	if (room < 8)
		return false;
	for (; size - off >= 4; off += len) {
		record__split(load_u32(data + off), &type_len, &delta);
		len = record__len(data, off, size, type_len, delta);
		if (!len)
			break;
		if (len > room)
			return false;
	}
	return true;
}

uint64_t rb_page__ts_at(const void *page, const struct rb_layout *l, uint32_t at)
{
	const char *data = (const char *)page + l->data_off;
	uint64_t ts = load_u64(page);
	uint32_t off = 0, len, delta;
	unsigned int type_len;

	for (; at - off >= 4; off += len) {
		record__split(load_u32(data + off), &type_len, &delta);
		len = record__len(data, off, at, type_len, delta);
		if (!len)
			break;
		switch (type_len) {
		case RB_TYPE_TIME_EXTEND:
			ts += ((uint64_t)load_u32(data + off + 4) << RB_TS_SHIFT) + delta;
			break;
		case RB_TYPE_TIME_STAMP:
			ts = (ts & RB_TS_MSB_MASK) |
			     (uint64_t)load_u32(data + off + 4) << RB_TS_SHIFT | delta;
			break;
		default:	/* data, and padding: kbuffer adds its delta too, so we do */
			ts += delta;
			break;
		}
	}
	return ts;
}

static void store_long(unsigned char *dst, const struct rb_layout *l, uint64_t val)
{
	if (l->long_size == 8) {
		memcpy(dst, &val, 8);
	} else {
		uint32_t v32 = (uint32_t)val;

		memcpy(dst, &v32, 4);
	}
}

void rb_piece__window(struct rb_piece *p, const struct rb_layout *l, const void *zeros,
		      struct ring_window *win)
{
	uint32_t len = p->to - p->from;
	uint64_t ts = p->from ? rb_page__ts_at(p->page, l, p->from) : load_u64(p->page);
	uint32_t commit = len | (p->flags & RB_MISSED_FLAGS);
	size_t used = l->data_off + len;

	memcpy(p->hdr, &ts, 8);
	if (commit & RB_MISSED_STORED) {
		int64_t lost = rb_page__lost(p->page, l, (p->flags & RB_MISSED_FLAGS) | p->page_size);

		/* the count belongs right after the data it follows; it fits there by construction */
		if (lost >= 0 && used + l->long_size <= l->subbuf_size)
			store_long(p->lost, l, (uint64_t)lost);
		else
			commit &= ~RB_MISSED_STORED;
	}
	store_long(p->hdr + 8, l, commit);
	ring__add_iov(win, p->hdr, l->data_off);
	ring__add_iov(win, p->page + l->data_off + p->from, len);
	if (commit & RB_MISSED_STORED) {
		ring__add_iov(win, p->lost, l->long_size);
		used += l->long_size;
	}
	ring__add_iov(win, zeros, l->subbuf_size - used);
}
