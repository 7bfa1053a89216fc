// SPDX-License-Identifier: LGPL-2.1
/* The byte buffer that feature payloads are built in. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/perf-data-format.h>
#include <internal/lib.h>
#include "perf-data-buf.h"

void perf_data_buf__init(struct perf_data_buf *b)
{
	*b = (struct perf_data_buf){ 0 };
}

void perf_data_buf__exit(struct perf_data_buf *b)
{
	free(b->data);
	perf_data_buf__init(b);
}

static unsigned char *perf_data_buf__grow(struct perf_data_buf *b, size_t n)
{
	unsigned char *p;
	size_t cap;

	if (b->err)
		return NULL;
	if (n > b->cap - b->len) {
		cap = b->cap ? b->cap : 256;
		while (cap - b->len < n)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->data = p;
		b->cap = cap;
	}
	p = b->data + b->len;
	b->len += n;
	return p;
}

void perf_data_buf__add(struct perf_data_buf *b, const void *p, size_t n)
{
	unsigned char *dst = perf_data_buf__grow(b, n);

	if (dst && n)
		memcpy(dst, p, n);
}

void perf_data_buf__add_zeros(struct perf_data_buf *b, size_t n)
{
	unsigned char *dst = perf_data_buf__grow(b, n);

	if (dst && n)
		memset(dst, 0, n);
}

void perf_data_buf__add_string(struct perf_data_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PERF_DATA_NAME_ALIGN - 1) & ~(size_t)(PERF_DATA_NAME_ALIGN - 1));

	perf_data_buf__add_u32(b, len);
	perf_data_buf__add(b, s, n);
	perf_data_buf__add_zeros(b, len - n);
}
