/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A perf.data writer that perf 6.1 reads (perf report, perf script, perf report -D): the
 * file format (header, attrs with their sample IDs, the data section, feature sections) or
 * perf's pipe format (`... | perf script -i -`). Records reach it three ways:
 *
 * - ring sinks (auxtrace/ring.h): the data sink takes the raw records of perf data rings
 *   (perf_mmap__push) and synthesized ones, the AUX sink takes PERF_RECORD_AUXTRACE frames
 *   (auxtrace_mmaps__read, __read_snapshot) and indexes them. Both writev the ring's bytes
 *   straight into the output: nothing is copied.
 * - single records: ID_INDEX, TIME_CONV, AUXTRACE_INFO, FINISHED_ROUND, FINISHED_INIT, or
 *   any record the caller built (perf_data_writer__write_event).
 * - perf_data_writer__finish: the feature sections and the final header.
 *
 * A session, in short (the evlist opened and mapped; errors omitted):
 *
 *	AUXTRACE_OPTS(perf_data_writer_opts, opts);
 *	struct perf_data_writer *w = perf_data_writer__new(fd, evlist, &opts);
 *
 *	perf_data_writer__write_prologue(w, itr);	  // ID_INDEX, TIME_CONV, AUXTRACE_INFO
 *	perf_event__synthesize_threads(evlist, NULL,	  // auxtrace/synthesize.h
 *				       perf_data_writer__data_sink(w));
 *	perf_data_writer__write_finished_init(w);
 *	// a ring set (auxtrace/ring-set.h) whose pass_done calls
 *	// perf_data_writer__write_finished_round(w)
 *	evlist__add_to_ring_set(evlist, set, perf_data_writer__data_sink(w));
 *	auxtrace_mmaps__add_to_ring_set(aux, set, perf_data_writer__aux_sink(w));
 *	while (recording)
 *		ring_set__poll(set, -1);
 *	ring_set__drain_all(set, true);
 *	perf_data_writer__finish(w);
 *	perf_data_writer__delete(w);
 *
 * A writer is used by one thread at a time; the sinks write where the writer is, in call
 * order. The library never prints: errors come back as -errno and are logged with their
 * cause and fix.
 *
 * Write errors (ENOSPC, EIO, EPIPE): the call returns -errno and the writer stops writing.
 * In a file the data section then ends at the last record that was written whole (a torn
 * record is cut off) and every later write fails with the same error. Call finish anyway:
 * it writes what still fits (feature sections, or the header alone) so that perf reads
 * the records that made it, and returns the error with a message that says how far the
 * file goes; perf_data_writer__stats() has the numbers. Until finish rewrites it, the
 * header's data size is that of the last FINISHED_ROUND (0 before the first), and there
 * are no feature sections: perf_data__recover() completes such a file.
 */
#ifndef AUXTRACE_PERF_DATA_H
#define AUXTRACE_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/event.h>
#include <auxtrace/evlist.h>
#include <auxtrace/perf-data-format.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_data_writer;

/* Declare with AUXTRACE_OPTS (auxtrace/core.h): sz set, the fields not given 0. */
struct perf_data_writer_opts {
	size_t sz;
	/* Perf's pipe format, for a pipe, socket or terminal; otherwise the file format, which
	 * needs a seekable fd. Pipe mode has no AUXTRACE index and no build IDs (as perf
	 * record -o -); its features are written at once. A reader that goes away raises
	 * SIGPIPE: ignore it to get -EPIPE from the writes instead. */
	bool pipe;
	/* HEADER_CMDLINE: the recorder's argv (argc strings); NULL: /proc/self/cmdline. */
	int argc;
	const char *const *argv;
	/* Where HEADER_PMU_MAPPINGS comes from (NULL: /sys, or $AUXTRACE_SYSFS). */
	const char *sysfs_root;
	/* Leave out HEADER_BUILD_ID (it reads the data section back and every ELF file the
	 * MMAP and MMAP2 records name). */
	bool no_build_ids;
	/*
	 * HEADER_CLOCK_DATA for events on perf's default clock (no use_clockid), which no
	 * clock_gettime() reads: one moment read on it (clock_ref_ns, e.g. the time of a record
	 * the recorder caused) and on CLOCK_REALTIME (wall_ref_ns), so that readers print sample
	 * times as dates (perf script -F+tod). Written with clockid PERF_CLOCK_DEFAULT_ID.
	 * 0: none (then CLOCK_DATA is written only for events with a clockid, read by finish).
	 */
	uint64_t clock_ref_ns, wall_ref_ns;
	/* perf record -z: 1..22, the zstd level the data sink's records are compressed at
	 * (PERF_RECORD_COMPRESSED, HEADER_COMPRESSED); 0: stored as they are. What a
	 * push still holds after 5 ms in the compressor is stored plain, counted, so that a
	 * slow compressor does not hold a ring until it overflows. */
	int compression_level;
	size_t :0;
};

/*
 * CLOCK_DATA's clockid for perf's default clock: no POSIX clock's number (perf prints the
 * dates from the two reference times alone).
 */
#define PERF_CLOCK_DEFAULT_ID	0xffffffffu

/*
 * perf_data_writer__new() returns a writer of evlist's session into fd, which it does not
 * close; the caller's (perf_data_writer__delete). opts is copied (its strings too). The evlist
 * must be opened (its sample IDs go into the attrs) and stay alive until the writer is deleted;
 * perf's rules on sample types are checked here (several events need PERF_SAMPLE_IDENTIFIER
 * each and the same sample_id_all), since a file that breaks them opens in perf but shows
 * nothing. File format: the header, IDs and attrs are written at once from fd's offset 0 (the
 * file is truncated there); pipe format: the pipe header, one PERF_RECORD_HEADER_ATTR per evsel
 * and the feature sections as PERF_RECORD_HEADER_FEATURE. NULL + errno (EINVAL with the rule
 * logged, ESPIPE for a file format on a pipe, or the write's errno).
 */
AUXTRACE_API struct perf_data_writer *
perf_data_writer__new(int fd, struct evlist *evlist, const struct perf_data_writer_opts *opts);
/*
 * perf_data_writer__delete() frees the writer (NULL: nothing); a file it did not finish
 * keeps the data size of its last round and no feature sections (an unfinished recording).
 */
AUXTRACE_API void perf_data_writer__delete(struct perf_data_writer *w);

/*
 * The sinks, valid while the writer lives. The data sink takes whole records (the raw
 * bytes of a perf data ring, synthesized records). The AUX sink takes one
 * PERF_RECORD_AUXTRACE frame per push, as auxtrace_mmap__read makes them (the 48-byte
 * record first, then size bytes of payload and padding); it refuses frames before an
 * AUXTRACE_INFO was written (perf rejects such a file) and indexes each frame (file
 * format). A refused or failed push returns -errno and the ring keeps its bytes.
 */
/* perf_data_writer__data_sink() returns the data sink, borrowed. Cannot fail. */
AUXTRACE_API struct ring_sink *perf_data_writer__data_sink(struct perf_data_writer *w);
/* perf_data_writer__aux_sink() returns the AUX sink, borrowed. Cannot fail. */
AUXTRACE_API struct ring_sink *perf_data_writer__aux_sink(struct perf_data_writer *w);

/*
 * perf_data_writer__write_event() writes one whole record (header.size bytes, a multiple of 8).
 * AUXTRACE_INFO is checked: a type perf 6.1 does not know makes it refuse the whole file, so it
 * is -EINVAL here. AUXTRACE records go through the AUX sink. Returns 0 or -errno.
 */
AUXTRACE_API int perf_data_writer__write_event(struct perf_data_writer *w,
					       const union perf_event *event);

/*
 * perf_data_writer__write_id_index() writes PERF_RECORD_ID_INDEX: each sample ID's mmap idx,
 * CPU and thread (several records when they do not fit one), so that perf can tell which AUX
 * buffer a sample's event fed. Needs the evlist mapped; nothing when no evsel has IDs. Returns
 * 0 or -errno.
 */
AUXTRACE_API int perf_data_writer__write_id_index(struct perf_data_writer *w);
/*
 * perf_data_writer__write_time_conv() writes PERF_RECORD_TIME_CONV from the first data ring's
 * control page (TSC to perf time), as perf writes it: only when the kernel publishes a
 * conversion (cap_user_time_zero), else nothing. Returns 0, or -errno: EINVAL when the evlist
 * has no data ring mapped.
 */
AUXTRACE_API int perf_data_writer__write_time_conv(struct perf_data_writer *w);
/*
 * perf_data_writer__write_auxtrace_info() writes PERF_RECORD_AUXTRACE_INFO of the backend
 * (auxtrace_record__info_new). Returns 0 or -errno (that function's errno, the write's).
 */
AUXTRACE_API int perf_data_writer__write_auxtrace_info(struct perf_data_writer *w,
						       struct auxtrace_record *itr);
/*
 * perf_data_writer__write_prologue() writes the records perf record writes before the
 * side-band, in perf's order: ID_INDEX, TIME_CONV, then AUXTRACE_INFO when itr is not NULL (the
 * Arm decoders read the time conversion when they see it). Returns 0 or the first -errno.
 */
AUXTRACE_API int perf_data_writer__write_prologue(struct perf_data_writer *w,
						  struct auxtrace_record *itr);
/*
 * perf_data_writer__write_tracing_data() takes the tracing data of the evlist's tracepoint
 * events (size bytes, copied) (trace_dat__tracing_data() of libauxtrace-tracefs makes it):
 * perf refuses a file with tracepoint events and none ("broken or missing trace data"). File
 * format: kept, and written by finish as HEADER_TRACING_DATA; pipe format: written now as
 * PERF_RECORD_HEADER_TRACING_DATA, so call it before the first sample. Returns 0 or -errno.
 */
AUXTRACE_API int perf_data_writer__write_tracing_data(struct perf_data_writer *w,
						      const void *data, size_t size);
/*
 * perf_data_writer__write_finished_init() writes PERF_RECORD_FINISHED_INIT: the
 * synthesized side-band ends here. Returns 0 or -errno.
 */
AUXTRACE_API int perf_data_writer__write_finished_init(struct perf_data_writer *w);
/*
 * perf_data_writer__write_finished_round() writes PERF_RECORD_FINISHED_ROUND after a drain
 * pass: perf sorts records by time between two of them (without any it keeps the whole file in
 * memory). Written only when records came since the last one, so calling it after every pass
 * costs nothing when idle. Returns 0 or -errno.
 */
AUXTRACE_API int perf_data_writer__write_finished_round(struct perf_data_writer *w);
/*
 * perf_data_writer__write_recovery() writes into fd the feature sections known now, for
 * perf_data__recover() to add to a file whose writer died: call it after the tracing data,
 * the prologue and the synthesized side-band, and remove the file once finish succeeds.
 * Why: in the file format each FINISHED_ROUND also rewrites the header with the data size
 * so far (one pwrite), so such a file reads up to the last round, but perf 6.1 refuses its
 * tracepoint events without the feature sections, which only finish writes. Returns 0 or
 * -errno (EINVAL: the pipe format).
 */
AUXTRACE_API int perf_data_writer__write_recovery(struct perf_data_writer *w, int fd);

/* What perf_data__recover() found. */
struct perf_data_recovery {
	uint64_t data_size;		/* bytes of whole records kept */
	uint64_t records;		/* their number */
	uint64_t torn_bytes;		/* cut off after them: a record the writer did not finish */
	bool finished;			/* the file was complete: nothing was changed */
};

/*
 * perf_data__recover() repairs a perf.data (fd, open for reading and writing) whose writer
 * did not finish: the data section is every whole record after the attrs (a torn last
 * record is cut off), followed by the feature sections of features_fd (a file of
 * perf_data_writer__write_recovery(); -1: none, which perf 6.1 needs for tracepoint
 * events), and the header says so. A finished file (features present) is left alone.
 * Fills *r (may be NULL). Returns 0 or -errno: EINVAL (not a perf.data file, or a
 * recovery file that is not one), read and write errors.
 */
AUXTRACE_API int perf_data__recover(int fd, int features_fd, struct perf_data_recovery *r);

/*
 * perf_data_writer__finish() ends the file: the feature sections (hostname, osrelease, version,
 * arch, nrcpus, cpudesc, cpuid, total_mem, cmdline, event_desc, pmu_mappings, clockid and
 * clock_data when the events use a clockid, clock_data from opts' reference when they do not,
 * the AUXTRACE index, build IDs), then the header
 * with the data size and feature bits (file format). A feature whose source cannot be read (no
 * cpuid on this architecture, an unreadable ELF file) is left out, logged at debug level. Pipe
 * format: nothing left to write. When the disk has no room for them all, the sections perf needs
 * go first, the records last (see perf_data_writer_stats: features_left_out, cut_bytes,
 * unreadable). Returns 0, or the first write error of the session or of the sections (see
 * above; the file stays readable up to where the message says, unless stats say unreadable),
 * or -EALREADY on a second call.
 */
AUXTRACE_API int perf_data_writer__finish(struct perf_data_writer *w);

struct perf_data_writer_stats {
	uint64_t data_offset;	/* file offset of the data section (pipe: bytes before it) */
	uint64_t data_size;	/* bytes of whole records in the data section */
	uint64_t events;	/* records written one by one (write_event, ID_INDEX, ...) */
	uint64_t ring_bytes;	/* of data_size: taken by the data sink */
	uint64_t aux_frames;	/* PERF_RECORD_AUXTRACE frames taken by the AUX sink */
	uint64_t aux_bytes;	/* of data_size: those frames, payload and padding included */
	uint64_t rounds;	/* FINISHED_ROUND records */
	uint64_t build_ids;	/* HEADER_BUILD_ID entries written by finish */
	int error;		/* the first write error (-errno), 0 */
	bool finished;		/* the header and features are written */
	uint64_t compressed_input;	/* compression: record bytes that went in, */
	uint64_t compressed_bytes;	/*   the COMPRESSED records they made (of data_size), */
	uint64_t compressed_records;	/*   and how many */
	uint64_t stored_uncompressed;	/* record bytes stored plain: compressing was slow */
	/*
	 * A disk too full for the feature sections (a write error at finish): finish left out
	 * those perf can do without (hostname, event names, build IDs, the AUXTRACE index) and,
	 * if still short, the tracing data's symbol tables after the formats; then it cuts
	 * records off the end of the data section, at a record boundary, to make room for what
	 * perf needs to read the rest (the tracepoints' formats, -z's parameters).
	 */
	bool features_left_out;
	uint64_t cut_bytes;	/*   the records cut off (of data_size before finish), */
	uint64_t cut_records;	/*   and how many */
	/* perf refuses the file: what it needs did not fit, not even in place of the records
	 * (they are kept), or the header could not be rewritten */
	bool unreadable;
	uint64_t needed_bytes;	/* what perf needs took, or would have (0: nothing) */
};
/*
 * perf_data_writer__stats() returns the writer's counters, borrowed: valid while the writer
 * lives (the struct only grows at the end).
 */
AUXTRACE_API const struct perf_data_writer_stats *
perf_data_writer__stats(const struct perf_data_writer *w);

#ifdef __cplusplus
}
#endif
#endif
