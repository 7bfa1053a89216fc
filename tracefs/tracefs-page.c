// SPDX-License-Identifier: LGPL-2.1
/*
 * The ftrace sub-buffer format (spec §2): the layout from header_page, the commit word and
 * its lost-events marks, a walk over the event records, and standalone pieces of a page.
 * Our own parser: libtraceevent 1.7's kbuffer cannot refresh a growing page, cannot extract
 * a range, and drops the MISSED marks when it copies.
 */
#include <errno.h>
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

/*
 * A decimal number after key at *p ("offset:16"), spaces and tabs allowed around it; *p moves
 * past it. Kernel text, but still input: no sign, no overflow, at most max.
 */
static bool parse_number(const char **p, const char *key, unsigned long max, unsigned long *val)
{
	const char *s = *p + strspn(*p, " \t");
	char *end;

	if (strncmp(s, key, strlen(key)))
		return false;
	s += strlen(key);
	s += strspn(s, " \t");
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*val = strtoul(s, &end, 10);
	if (errno || *val > max)
		return false;
	*p = end + strspn(end, " \t");
	if (**p != ';')
		return false;
	(*p)++;
	return true;
}

/* "field: local_t commit;\toffset:8;\tsize:8;\tsigned:1;" gives "commit", offset 8, size 8. */
static bool parse_field(const char *line, char *name, size_t name_size, unsigned long *offset,
			unsigned long *size)
{
	const char *field = strstr(line, "field:");
	const char *end = strchr(line, '\n');
	const char *semi, *start;

	if (!field || (end && field > end))
		return false;
	semi = strchr(field, ';');
	if (!semi || (end && semi > end))
		return false;
	/* the name is the last word before ';' ("u64 timestamp", "char data") */
	for (start = semi; start > field && start[-1] != ' ' && start[-1] != '\t'; start--)
		;
	snprintf(name, name_size, "%.*s", (int)(semi - start), start);
	semi++;
	return parse_number(&semi, "offset:", RB_SUBBUF_MAX, offset) &&
	       parse_number(&semi, "size:", RB_SUBBUF_MAX, size);
}

int rb_layout__set_subbuf_size(struct rb_layout *l, unsigned long size)
{
	/* the kernel's sub-buffers are pages, or a power-of-two number of them */
	if (size < RB_SUBBUF_MIN || size > RB_SUBBUF_MAX || (size & (size - 1)) ||
	    size <= l->data_off)
		return -EINVAL;
	l->subbuf_size = size;
	return 0;
}

int rb_layout__parse(struct rb_layout *l, const char *header_page)
{
	unsigned long commit_off = 0, commit_size = 0, data_off = 0, data_size = 0;
	const char *line = header_page;

	while (line && *line) {
		unsigned long off, size;
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
	if (commit_off == 8 && (commit_size == 4 || commit_size == 8) &&
	    data_off == 8 + commit_size) {
		l->long_size = commit_size;
		l->data_off = data_off;
		if (!rb_layout__set_subbuf_size(l, data_off + data_size))
			return 0;
	}
	pr_err("events/header_page has an unknown layout (commit %lu@%lu, data %lu@%lu; sub-buffers are a power of two of %u to %u bytes): kernel too old or too new for this library\n",
	       commit_size, commit_off, data_size, data_off, RB_SUBBUF_MIN, RB_SUBBUF_MAX);
	return libauxtrace__err(-EINVAL);
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
	const char *count;

	if (!(commit & RB_MISSED_EVENTS))
		return 0;
	if (!(commit & RB_MISSED_STORED) ||
	    rb_commit__size(commit) + l->long_size > rb_layout__capacity(l))
		return -1;
	count = (const char *)page + l->data_off + rb_commit__size(commit);
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
 * Length of the record at data offset off (off < size) whose header word has type_len, as
 * libtraceevent's kbuffer steps over it (a padding's word counts the bytes after it; a large
 * record's counts itself and the payload, rounded up to 4 bytes), or 0 when the record does
 * not fit in [off, size). Never less than 4, so every walk moves on.
 */
static inline uint32_t record__len(const char *data, uint32_t off, uint32_t size,
				   unsigned int type_len)
{
	uint32_t room = size - off, len;

	if (type_len >= 1 && type_len <= RB_TYPE_DATA_MAX) {
		len = 4 + 4 * type_len;
		return len <= room ? len : 0;
	}
	if (room < 8)
		return 0;
	if (type_len == RB_TYPE_TIME_EXTEND || type_len == RB_TYPE_TIME_STAMP)
		return 8;
	len = load_u32(data + off + 4);
	if (type_len == RB_TYPE_PADDING)
		return len <= room - 4 ? 4 + len : 0;
	if (len < 4 || len > room - 4)
		return 0;
	len = 4 + ((len + 3) & ~3u);
	return len <= room ? len : 0;
}

/* Null padding: the rest of the page is unused (the kernel's tail of a page it left). */
static inline bool record__is_null_padding(unsigned int type_len, uint32_t delta)
{
	return type_len == RB_TYPE_PADDING && !delta;
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
		len = record__is_null_padding(type_len, delta) ? 0 :
		      record__len(data, off, size, type_len);
		if (!len)
			break;
		if (len > room)
			return false;
	}
	return true;
}

/*
 * Every record of data[0, size) lies inside it, so that kbuffer (which trusts them) reads
 * nothing past the data and moves on at each record. 0 or -EBADMSG.
 */
static int rb_records__check(const char *data, uint32_t size)
{
	uint32_t off, len, delta;
	unsigned int type_len;

	for (off = 0; off < size; off += len) {
		if (size - off < 4)
			return -EBADMSG;
		record__split(load_u32(data + off), &type_len, &delta);
		len = record__len(data, off, size, type_len);
		if (!len)
			return -EBADMSG;
	}
	return 0;
}

uint32_t rb_page__nr_events(const void *page, const struct rb_layout *l)
{
	const char *data = (const char *)page + l->data_off;
	uint32_t size = rb_commit__size(rb_page__commit(page, l)), off, len, delta, nr = 0;
	unsigned int type_len;

	if (size > rb_layout__capacity(l))
		return 0;
	for (off = 0; size - off >= 4; off += len) {
		record__split(load_u32(data + off), &type_len, &delta);
		len = record__len(data, off, size, type_len);
		if (!len)
			break;
		nr += type_len <= RB_TYPE_DATA_MAX;	/* 0: a large event's */
	}
	return nr;
}

int rb_commit__check(uint32_t commit, const struct rb_layout *l)
{
	uint32_t size = rb_commit__size(commit);

	if (size > rb_layout__capacity(l))
		return -EBADMSG;
	/* kbuffer reads a stored count after the data whenever both flags say so */
	if ((commit & RB_MISSED_FLAGS) == RB_MISSED_FLAGS &&
	    size + l->long_size > rb_layout__capacity(l))
		return -EBADMSG;
	return 0;
}

int rb_page__check(const void *page, const struct rb_layout *l, uint32_t commit)
{
	int err = rb_commit__check(commit, l);

	return err ? err : rb_records__check((const char *)page + l->data_off,
					     rb_commit__size(commit));
}

int rb_piece__check(const struct rb_piece *p, const struct rb_layout *l)
{
	if (p->from > p->to || p->to > rb_layout__capacity(l))
		return -EBADMSG;
	return rb_records__check(p->page + l->data_off + p->from, p->to - p->from);
}

uint64_t rb_page__ts_at(const void *page, const struct rb_layout *l, uint32_t at)
{
	const char *data = (const char *)page + l->data_off;
	uint64_t ts = load_u64(page);
	uint32_t off = 0, len, delta;
	unsigned int type_len;

	for (; at - off >= 4; off += len) {
		record__split(load_u32(data + off), &type_len, &delta);
		len = record__is_null_padding(type_len, delta) ? 0 :
		      record__len(data, off, at, type_len);
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
