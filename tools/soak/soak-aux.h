/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The AUX half of `make soak`: what the read-back of each perf.data segment found, summed
 * over the segments, to be held against the producer's and the library's own counts.
 */
#ifndef SOAK_AUX_H
#define SOAK_AUX_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/perf-data.h>

struct aux_readback {
	/* the AUX stream as the files tell it */
	uint64_t next;			/* stream position the next AUXTRACE record must start at */
	uint64_t frames;		/* PERF_RECORD_AUXTRACE records */
	uint64_t payload;		/* their payload bytes */
	uint64_t gaps;			/* bytes between one record's end and the next one's start */
	uint64_t gap_frames;		/* records that start after such a gap */
	uint64_t stale;			/* their payload: what the area held, not stream bytes */
	uint64_t index_entries;		/* HEADER_AUXTRACE entries, each matched to its record */
	/* the data rings as the files tell it */
	uint64_t kernel_records;	/* records of kernel types: what the rings gave */
	uint64_t samples;
	uint64_t lost;			/* PERF_RECORD_LOST counts */
	uint64_t segments;
	uint64_t file_bytes;
	/* the first thing that was wrong, empty when nothing was */
	char error[512];
};

/*
 * Read the finished segment at path with libauxtrace's perf_session reader: every record,
 * the AUXTRACE index against the records it names, the records against what the writer says
 * it wrote (ws), the stream positions against the previous segments' and the payload bytes
 * at each record's ends against the producer's pattern. Adds to rb; 0, or -1 with rb->error.
 */
int aux_readback__segment(struct aux_readback *rb, const char *path,
			  const struct perf_data_writer_stats *ws);

#endif
