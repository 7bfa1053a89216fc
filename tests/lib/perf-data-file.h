/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * perf.data files built by hand for the reader's tests, written from the format's
 * description rather than with the library's reader code: a builder (file or pipe format,
 * attrs with IDs, records, AUXTRACE records with their payloads and index, features), and
 * a byte-swapper that turns a native file into the one a machine of the other byte order
 * would have written.
 */
#ifndef TESTLIB_PERF_DATA_FILE_H
#define TESTLIB_PERF_DATA_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <auxtrace/session.h>

struct pd_file;

/* Writes to fd from its current offset 0 (a fresh memfd or file). Aborts the test on error. */
struct pd_file *pd_file__new(int fd, bool pipe);
/* Before pd_file__start. */
void pd_file__add_attr(struct pd_file *f, const struct perf_event_attr *attr,
		       const uint64_t *ids, int nr_ids);
/* File format: written after the data at finish; pipe format: a HEADER_FEATURE record now
 * (or at start when added before it). */
void pd_file__add_feature(struct pd_file *f, int feat, const void *data, size_t size);
/* A feature string payload as perf writes it (u32 length padded to 64, the string, NULs). */
void pd_file__add_feature_string(struct pd_file *f, int feat, const char *str);
/* The header (placeholder in the file format), attrs and IDs; data starts after it. */
void pd_file__start(struct pd_file *f);
/* Append a record (its header.size bytes) or raw bytes; returns the file offset. */
uint64_t pd_file__record(struct pd_file *f, const void *record);
uint64_t pd_file__bytes(struct pd_file *f, const void *buf, size_t len);
/* An AUXTRACE record then its payload (padded to 8); indexed unless no_index. */
uint64_t pd_file__auxtrace(struct pd_file *f, uint32_t idx, uint32_t cpu, uint32_t tid,
			   uint64_t offset, uint64_t reference, const void *payload, size_t size);
/* Framed AUX output (AUXTRACE records and payloads, as auxtrace_mmaps__read wrote it),
 * each record indexed. Returns the records. */
int pd_file__framed(struct pd_file *f, const void *buf, size_t len);
/* File format: features (and the AUXTRACE index when index and there were AUXTRACE
 * records), then the header. The fd stays open. Frees f. */
void pd_file__finish(struct pd_file *f, bool index);

/* The bytes of a file (malloc'd) and its size. */
unsigned char *pd_read_all(int fd, size_t *size);
/* A memfd holding buf. */
int pd_memfd(const void *buf, size_t size);

/*
 * Byte-swap a native file-format perf.data in place: header, attrs (bit-fields too), IDs,
 * the records this project's tests write or perf record writes for a software event, and
 * the feature payloads the reader parses. Aborts on a record type it does not know.
 */
void pd_swap_file(unsigned char *buf, size_t size);

/* What a session delivered, in order: a perf_tool that copies every record it is handed. */
struct pd_log_entry {
	char kind;		/* 'S' sample, 'E' other kernel record, 'U' user, 'A' AUXTRACE */
	uint32_t type;
	uint64_t time;		/* -1: none */
	uint64_t offset;	/* file offset (AUXTRACE: of the payload) */
	uint64_t id;
	char *evsel;		/* its evsel's name */
	unsigned char *copy;	/* the record's bytes (AUXTRACE: then its payload) */
	size_t size;
};

struct pd_log {
	struct perf_tool tool;
	struct pd_log_entry *e;
	int n, cap;
};

void pd_log__init(struct pd_log *log, bool ordered);
void pd_log__exit(struct pd_log *log);
/* Open fd (or path when fd < 0) with opts and log every record. Returns process_events'
 * result; *stats (may be NULL) gets the session's counters. */
int pd_log__read(struct pd_log *log, const char *path, int fd, bool ordered,
		 const struct perf_session_opts *opts, struct perf_session_stats *stats);
/* Both logs hold the same records (kinds, types, offsets aside) byte for byte. */
void pd_log__assert_same(const struct pd_log *a, const struct pd_log *b, bool same_offsets);
/* Entries of this kind and type. */
int pd_log__count(const struct pd_log *log, char kind, uint32_t type);

#endif
