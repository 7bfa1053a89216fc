/* SPDX-License-Identifier: LGPL-2.1 */
/* The byte buffer the perf.data writer builds feature payloads in (perf-data-buf.c). */
#ifndef AUXTRACE_DATA_PERF_DATA_BUF_H
#define AUXTRACE_DATA_PERF_DATA_BUF_H

#include <stddef.h>
#include <stdint.h>

/*
 * A growable byte buffer for feature payloads. The first allocation failure sticks in
 * `err` and later appends do nothing, so a builder checks once at the end.
 */
struct perf_data_buf {
	unsigned char *data;
	size_t len;
	size_t cap;
	int err;
};

void perf_data_buf__init(struct perf_data_buf *b);
void perf_data_buf__exit(struct perf_data_buf *b);
void perf_data_buf__add(struct perf_data_buf *b, const void *p, size_t n);
void perf_data_buf__add_zeros(struct perf_data_buf *b, size_t n);
static inline void perf_data_buf__add_u32(struct perf_data_buf *b, uint32_t v)
{
	perf_data_buf__add(b, &v, sizeof(v));
}
static inline void perf_data_buf__add_u64(struct perf_data_buf *b, uint64_t v)
{
	perf_data_buf__add(b, &v, sizeof(v));
}
/* perf's feature string: u32 length (NUL included, padded to 64), the bytes, zeros. */
void perf_data_buf__add_string(struct perf_data_buf *b, const char *s);

#endif
