/* SPDX-License-Identifier: LGPL-2.1 */
/* The perf.data writer as its files see it: the object, feature payloads, build IDs. */
#ifndef AUXTRACE_DATA_PERF_DATA_INTERNAL_H
#define AUXTRACE_DATA_PERF_DATA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <string.h>
#include <auxtrace/auxtrace-index.h>
#include <auxtrace/perf-data.h>

struct perf_data_buf;

/* header.size is a u16: the largest record. */
#define PERF_RECORD_MAX_SIZE	0xffff

/* How many recent round boundaries the writer remembers. */
#define PERF_DATA_ROUND_MARKS	16

/* The sample IDs of one evsel, as the attrs section and EVENT_DESC list them. */
struct perf_data_attr {
	struct evsel *evsel;
	struct perf_event_attr attr;	/* as opened, attr.size set */
	uint64_t *ids;
	int nr_ids;
};

struct perf_data_writer {
	int fd;
	bool pipe;
	bool no_build_ids;
	struct evlist *evlist;
	char **argv;			/* copied; NULL: /proc/self/cmdline */
	int argc;
	char *sysfs_root;
	struct perf_data_attr *attrs;
	int nr_attrs;
	struct ring_sink_fd out;	/* writev with short-write retries: every write goes here */
	struct ring_sink data_sink;
	struct ring_sink aux_sink;
	struct auxtrace_index *index;
	struct perf_file_header header;	/* file format: rewritten by finish */
	uint64_t offset;		/* where the next byte goes (file: its offset) */
	uint64_t round_mark;		/* data_size at the last FINISHED_ROUND */
	/* data_size at the last rounds (record boundaries): where finish walks from when it
	 * cuts records off the end, instead of from the start of a file of gigabytes */
	uint64_t round_marks[PERF_DATA_ROUND_MARKS];
	bool wrote_auxtrace_info;
	struct build_id_set *build_ids;	/* the files MMAP records named; NULL: none wanted */
	void *tracing_data;		/* HEADER_TRACING_DATA, written by finish (file format) */
	size_t tracing_data_size;
	uint64_t clock_ref_ns, wall_ref_ns;	/* CLOCK_DATA for the default clock; 0: none */
	struct perf_data_compressor *compressor;	/* -z: NULL when off */
	struct ring_sink raw_sink;	/* the write path, for the compressor's records */
	struct perf_data_writer_stats stats;
};

/*
 * The recovery file (perf_data_writer__write_recovery): this head, then a feature table
 * whose offsets count from the table's start, then the payloads; perf_data__recover()
 * appends them after the data and moves the offsets there.
 */
#define PERF_DATA_RECOVERY_MAGIC	0x3156434552445041ULL	/* "APDRECV1" */
struct perf_data_recovery_head {
	uint64_t magic;
	uint64_t features[PERF_DATA_FEATURE_WORDS];	/* which sections the table lists */
};

/*
 * File format: rewrite the header with the data size of the records written so far, so
 * that a file cut short later still reads up to here. 0 or -errno.
 */
int perf_data_writer__sync_header(struct perf_data_writer *w);

/*
 * Write len bytes whole at the writer's position (the one write path: a failure sticks,
 * and a file is cut back to its last whole record). 0 or -errno.
 */
int perf_data_writer__put_buf(struct perf_data_writer *w, const void *buf, size_t len);

/*
 * Compression (perf-data-compress.c), knowing nothing of the writer but where its records go
 * (out: whole writes, -errno) and the stats it counts in. new: a compressor at zstd level
 * (1..22), NULL + errno (logged). push: iov's whole records into PERF_RECORD_COMPRESSED
 * records, flushed before it returns (what is left past the time budget is stored plain,
 * counted in stored_uncompressed); 0 or -errno. feature: HEADER_COMPRESSED's payload,
 * -ENOENT for NULL (off).
 */
#define PERF_DATA_COMPRESS_MMAP_LEN	(256 * 1024)
/* The records compressed between two looks at the clock, and how long one push may take in
 * the compressor before its rest is stored plain. */
#define PERF_DATA_COMPRESS_SLICE	(64 * 1024)
#define PERF_DATA_COMPRESS_BUDGET_NS	(5 * 1000 * 1000)
struct perf_data_compressor *perf_data_compressor__new(int level, struct ring_sink *out,
						       struct perf_data_writer_stats *stats);
void perf_data_compressor__delete(struct perf_data_compressor *c);
int perf_data_compressor__push(struct perf_data_compressor *c, const struct iovec *iov,
			       int iovcnt);
int perf_data_compressor__feature(const struct perf_data_compressor *c,
				  struct perf_data_buf *buf);

/*
 * The payload of feature feat into buf (empty). 0: there is one; -ENOENT: nothing to
 * say here (a feature this writer does not make, one the pipe format cannot have, a
 * source this machine lacks: logged at debug level); -errno. The AUXTRACE index is not
 * built here: the writer writes it straight from its chunks.
 */
int perf_data_feature__build(struct perf_data_writer *w, enum perf_header_feature feat,
			     struct perf_data_buf *buf);
/*
 * The tracing data (HEADER_TRACING_DATA's payload) cut to its event formats into buf
 * (empty): the kernel symbols, printk formats and saved cmdlines after them are left
 * empty. perf-data-tracing.c. 0, -EINVAL when the data is not laid out as perf's, -ENOMEM.
 */
int perf_data_tracing__formats_only(const void *data, size_t size, struct perf_data_buf *buf);

/*
 * The whole records of fd from off on, up to end: their bytes (so off + that is a record
 * boundary), counted in *records. An AUXTRACE frame counts with its payload; the walk stops
 * at anything that is not a record. perf-data-recover.c.
 */
uint64_t perf_data__walk_records(int fd, uint64_t off, uint64_t end, uint64_t *records);

/* "hostname", "build_id", ... for messages. */
const char *perf_data_feature__name(enum perf_header_feature feat);

/*
 * The value of the first "key : value" line of text (/proc/cpuinfo, /proc/meminfo) whose
 * key is key, with runs of blanks squeezed to one (as perf prints "model name"). false
 * when absent.
 */
bool perf_data__cpuinfo_value(const char *text, const char *key, char *out, size_t size);
/*
 * perf's cpuid string from /proc/cpuinfo text: on x86 "vendor,family,model,stepping"
 * (GenuineIntel,6,85,4), the display family and model as the kernel computes them.
 * -ENOENT when the text lacks them (other architectures).
 */
int perf_data__cpuid_from_cpuinfo(const char *cpuinfo, char *out, size_t size);

/*
 * HEADER_BUILD_ID: the build IDs of the files the MMAP and MMAP2 records of the data
 * section name, read back from the written file. -ENOENT when there are none.
 */
int perf_data_build_ids__build(struct perf_data_writer *w, struct perf_data_buf *buf);
/* The set the MMAP records are noted in, for a file whose build IDs are wanted. */
int perf_data_build_ids__new(struct perf_data_writer *w);
void perf_data_build_ids__delete(struct perf_data_writer *w);
/* Note the MMAP and MMAP2 records among the whole records of iov, as they were written. */
void perf_data_build_ids__note(struct perf_data_writer *w, const struct iovec *iov, int iovcnt);

#endif
