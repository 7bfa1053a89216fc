// SPDX-License-Identifier: LGPL-2.1
/*
 * HEADER_TRACING_DATA cut down to the event formats, for a disk with no room for the whole.
 * The layout is the front of a trace.dat, as perf writes it: magic, version, endianness,
 * long and page size; header_page and header_event; the ftrace formats; the systems' event
 * formats; then the kernel symbols, the printk formats and (version 0.6 on) the saved
 * cmdlines. perf needs the formats to read a tracepoint sample at all; the three tables
 * after them only name kernel pointers and pids in what it prints, and saved_cmdlines alone
 * can be ~100 KiB, so they are what goes first.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "perf-data-buf.h"
#include "perf-data-internal.h"

struct tracing_cursor {
	const unsigned char *p;
	size_t left;
	bool swap;		/* the data's byte order is not ours */
	bool bad;		/* ran past the end: nothing after it is believed */
};

static const void *tracing_cursor__take(struct tracing_cursor *c, size_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || n > c->left) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	c->left -= n;
	return p;
}

static uint64_t tracing_cursor__uint(struct tracing_cursor *c, size_t width)
{
	const void *p = tracing_cursor__take(c, width);
	uint32_t v32;
	uint64_t v64;

	if (!p)
		return 0;
	if (width == 4) {
		memcpy(&v32, p, 4);
		return c->swap ? bswap_32(v32) : v32;
	}
	memcpy(&v64, p, 8);
	return c->swap ? bswap_64(v64) : v64;
}

/* A section: its size (width bytes), then that many bytes. */
static void tracing_cursor__skip_section(struct tracing_cursor *c, size_t width)
{
	tracing_cursor__take(c, (size_t)tracing_cursor__uint(c, width));
}

static void tracing_cursor__skip_string(struct tracing_cursor *c)
{
	const unsigned char *nul = c->bad ? NULL : memchr(c->p, '\0', c->left);

	tracing_cursor__take(c, nul ? (size_t)(nul - c->p) + 1 : c->left + 1);
}

/* nr sections of formats, each with a u64 size. */
static void tracing_cursor__skip_formats(struct tracing_cursor *c, uint32_t nr)
{
	for (uint32_t i = 0; i < nr && !c->bad; i++)
		tracing_cursor__skip_section(c, 8);
}

int perf_data_tracing__formats_only(const void *data, size_t size, struct perf_data_buf *buf)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n',
						 'g' };
	struct tracing_cursor c = { .p = data, .left = size };
	const unsigned char *order;
	size_t formats_len;
	uint32_t nr;
	bool cmdlines;

	if (size < sizeof(magic) || memcmp(data, magic, sizeof(magic)))
		return -EINVAL;
	tracing_cursor__take(&c, sizeof(magic));
	tracing_cursor__skip_string(&c);			/* version */
	order = tracing_cursor__take(&c, 2);			/* big endian, long size */
	c.swap = order && order[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tracing_cursor__take(&c, 4);				/* page size */
	for (int i = 0; i < 2; i++) {				/* header_page, header_event */
		tracing_cursor__skip_string(&c);
		tracing_cursor__skip_section(&c, 8);
	}
	tracing_cursor__skip_formats(&c, (uint32_t)tracing_cursor__uint(&c, 4));	/* ftrace */
	nr = (uint32_t)tracing_cursor__uint(&c, 4);
	for (uint32_t i = 0; i < nr && !c.bad; i++) {
		tracing_cursor__skip_string(&c);
		tracing_cursor__skip_formats(&c, (uint32_t)tracing_cursor__uint(&c, 4));
	}
	formats_len = size - c.left;
	tracing_cursor__skip_section(&c, 4);			/* kallsyms */
	tracing_cursor__skip_section(&c, 4);			/* printk formats */
	cmdlines = c.left >= 8;
	if (c.bad)
		return -EINVAL;
	/* the tables after the formats, each there and empty, as this data's version has them */
	perf_data_buf__add(buf, data, formats_len);
	perf_data_buf__add_zeros(buf, cmdlines ? 16 : 8);
	return buf->err;
}
