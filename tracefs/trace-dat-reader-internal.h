/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Private to the trace.dat reader (trace-dat-reader.c: the file's description;
 * trace-dat-cursor.c: the walk over the CPUs' sub-buffers).
 */
#ifndef AUXTRACE_TRACEFS_TRACE_DAT_READER_INTERNAL_H
#define AUXTRACE_TRACEFS_TRACE_DAT_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tracefs/trace-dat-reader.h>
#include "tracefs-internal.h"

struct trace_dat_reader {
	char *path;
	const unsigned char *map;	/* the whole file, read-only */
	/* perf.data's tracing data (borrowed while it is read): the description, no CPU data */
	bool tracing_data;
	struct trace_dat_reader_opts opts;
	uint64_t size;
	int file_version;		/* 6 or 7 */
	bool compressed;		/* version 7 with zstd */
	uint64_t options_at;		/* version 7: the first options section */
	/* The sub-buffers: the file's map, or (compressed) a decompressed copy of them in an
	 * unnamed temporary file, mapped. */
	const unsigned char *data_map;
	uint64_t data_size;
	uint64_t sections[6];		/* version 7: headers, ftrace and event formats, kallsyms,
					 * printk formats, cmdlines: their offsets */
	const char *buffer_opt;		/* version 7: the top buffer's BUFFER option, in the map */
	uint32_t buffer_opt_size;
	struct tep_handle *tep;
	struct rb_layout layout;	/* of the file's header_page, sub-buffers of page size */
	int nr_cpus;
	struct trace_dat_cpu_data *cpus;	/* [nr_cpus] */
	char **cpustat;			/* [nr_cpus], NULL where the file has none */
	char *clock, *uname, *version;
	char **events;			/* "system:event" of the event formats section */
	size_t nr_events;
	int64_t ts_offset;		/* the DATE and OFFSET options, added as trace-cmd does */
	unsigned int type_offset;	/* common_type in every payload */
	unsigned int type_size;		/* 0: no format says where it is */
};

#endif
