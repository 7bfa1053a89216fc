/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A trace.dat reader: trace-cmd's file format, versions 6 and 7 (sections, uncompressed or
 * zstd), as trace_dat_writer and trace-cmd record 3.1 write it. The file is mapped read-only;
 * events are handed out in place, and the pages a cursor has walked past leave the process's
 * memory in steps of a few MiB, so that reading a file of any size takes bounded memory (a
 * compressed file's CPU data is first decompressed into an unnamed file in $TMPDIR or /tmp,
 * mapped the same way: the offsets of trace_dat_cpu_data and of records are then offsets in
 * that data).
 *
 * struct trace_dat_reader *r = trace_dat_reader__open("trace.dat"); struct trace_dat_cursor *c
 * = trace_dat_cursor__new(r, -1);    // every CPU, by time const struct trace_dat_record *rec;
 *
 * while ((rec = trace_dat_cursor__next(c))) if (rec->kind == TRACE_DAT_EVENT) printf("%d %llu
 * %s\n", rec->cpu, rec->ts, rec->event ? rec->event->name : "?"); if (errno) ... the file is
 * damaged: the log says where trace_dat_cursor__delete(c); trace_dat_reader__close(r);
 *
 * Every offset and size in the file is checked against the file before it is used, and every
 * sub-buffer against the layout of the file's header_page before its events are walked (the
 * checks libauxtrace-tracefs applies to sub-buffers it reads from the kernel): a truncated or
 * damaged file gives NULL or -errno (EINVAL) and a message through the library's log callback
 * naming the file, the offset, the section or CPU, and what was expected there.
 *
 * Not read: files of another byte order, compression other than zstd (zlib), latency
 * traces, instance buffers other than the top one (said with a warning).
 */
#ifndef AUXTRACE_TRACE_DAT_READER_H
#define AUXTRACE_TRACE_DAT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tep_handle;
struct tep_event;
struct trace_dat_reader;
struct trace_dat_cursor;

/*
 * trace_dat_reader__open() opens path and checks the file's description: header, header_page,
 * header_event, the event formats (parsed into a libtraceevent handle), kallsyms, printk
 * formats, saved cmdlines, options, and the flyrecord table of each CPU's data. Returns the
 * reader, the caller's (trace_dat_reader__close), or NULL + errno: from open() or mmap(),
 * EINVAL for a file that is not a version 6 or 7 trace.dat or is damaged (logged), EOPNOTSUPP for
 * one this reader does not read (logged), ENOMEM.
 */
AUXTRACE_API struct trace_dat_reader *trace_dat_reader__open(const char *path);

/* How to open a trace.dat. Declare it with AUXTRACE_OPTS (auxtrace/core.h). */
struct trace_dat_reader_opts {
	size_t sz;			/* sizeof(struct trace_dat_reader_opts) */
	/*
	 * Check the kallsyms section but leave it out of the tep handle: the kernel's symbols
	 * take megabytes there (~19 MiB for 120 K symbols), which a reader that never prints an
	 * event's %ps or function field need not hold. Events then print those as addresses.
	 */
	bool no_kallsyms;
};

/*
 * trace_dat_reader__open_opts() is trace_dat_reader__open() with opts (NULL: the defaults,
 * as trace_dat_reader__open). Returns what trace_dat_reader__open returns, and NULL + EINVAL
 * for opts the rule of option structs refuses.
 */
AUXTRACE_API struct trace_dat_reader *
trace_dat_reader__open_opts(const char *path, const struct trace_dat_reader_opts *opts);
/*
 * trace_dat_reader__open_tracing_data() reads the tracing data of a perf.data (its
 * HEADER_TRACING_DATA section, or the payload of the pipe format's
 * PERF_RECORD_HEADER_TRACING_DATA; perf_session__feature() gives both): the front of a
 * trace.dat, version "0.6" as perf writes it or "6", up to the saved cmdlines, with the checks
 * and messages of trace_dat_reader__open (name stands for the path in them). data is borrowed
 * for the call only. The reader has the events' formats in trace_dat_reader__tep(), for
 * tep_print_event() on a tracepoint sample's raw data, and no CPU data. Returns it (the
 * caller's: trace_dat_reader__close), or NULL + errno as trace_dat_reader__open.
 */
AUXTRACE_API struct trace_dat_reader *trace_dat_reader__open_tracing_data(const void *data,
									  size_t size,
									  const char *name);
/*
 * trace_dat_reader__close() unmaps and frees r. Records, strings and the tep handle it
 * handed out are gone with it. NULL is a no-op.
 */
AUXTRACE_API void trace_dat_reader__close(struct trace_dat_reader *r);

/*
 * The getters below return what the reader owns (borrowed: valid until
 * trace_dat_reader__close).
 */
/* trace_dat_reader__path() returns the path it was opened with. */
AUXTRACE_API const char *trace_dat_reader__path(const struct trace_dat_reader *r);
/* trace_dat_reader__size() returns the file's size in bytes. */
AUXTRACE_API uint64_t trace_dat_reader__size(const struct trace_dat_reader *r);
/* trace_dat_reader__nr_cpus() returns the CPUs the file describes (its flyrecord table). */
AUXTRACE_API int trace_dat_reader__nr_cpus(const struct trace_dat_reader *r);
/* trace_dat_reader__page_size() returns its sub-buffer ("page") size in bytes. */
AUXTRACE_API unsigned int trace_dat_reader__page_size(const struct trace_dat_reader *r);

/* Where one CPU's sub-buffers are: library-owned, fields may be added at the end. */
struct trace_dat_cpu_data {
	uint64_t offset;		/* file offset of the first sub-buffer */
	uint64_t size;			/* bytes: a whole number of sub-buffers */
};

/*
 * trace_dat_reader__cpu_data() returns where CPU cpu's sub-buffers are; NULL + EINVAL for a
 * CPU outside [0, nr_cpus).
 */
AUXTRACE_API const struct trace_dat_cpu_data *
trace_dat_reader__cpu_data(const struct trace_dat_reader *r, int cpu);

/*
 * trace_dat_reader__clock() returns the trace clock the timestamps are on, as the file names it
 * ("local", "mono", ...: the selected one of trace_clock's list), or NULL when the file names
 * none.
 */
AUXTRACE_API const char *trace_dat_reader__clock(const struct trace_dat_reader *r);
/* trace_dat_reader__uname() returns the UNAME option, NULL when the file has none. */
AUXTRACE_API const char *trace_dat_reader__uname(const struct trace_dat_reader *r);
/* trace_dat_reader__version() returns the VERSION option, NULL when the file has none. */
AUXTRACE_API const char *trace_dat_reader__version(const struct trace_dat_reader *r);
/*
 * trace_dat_reader__cpustat() returns CPU cpu's CPUSTAT text ("entries: ...\noverrun:
 * ..."), NULL when the file has none or cpu is outside it.
 */
AUXTRACE_API const char *trace_dat_reader__cpustat(const struct trace_dat_reader *r, int cpu);

/*
 * trace_dat_reader__events() returns the events whose formats the file carries besides the
 * ftrace system's, as "system:event" in the file's order: what was recorded. *nr gets the
 * count.
 */
AUXTRACE_API const char *const *trace_dat_reader__events(const struct trace_dat_reader *r,
							 size_t *nr);

/*
 * trace_dat_reader__tep() returns the libtraceevent handle with the file's formats, kallsyms,
 * printk formats and comms, for tep_print_event() and field access on a record's data. Owned by
 * the reader.
 */
AUXTRACE_API struct tep_handle *trace_dat_reader__tep(const struct trace_dat_reader *r);

enum trace_dat_record_kind {
	TRACE_DAT_EVENT,		/* an event */
	/*
	 * The kernel lost events before this sub-buffer (its buffer overflowed or was reset):
	 * handed out before the sub-buffer's first event, as trace-cmd report prints
	 * "CPU:N [n EVENTS DROPPED]" there.
	 */
	TRACE_DAT_LOST,
};

/* One record of a cursor: library-owned, valid until the next call; fields may be added. */
struct trace_dat_record {
	enum trace_dat_record_kind kind;
	int cpu;
	uint64_t ts;			/* ns on the trace clock (a loss: its sub-buffer's time) */
	uint64_t offset;		/* in the file: the event's header word, a loss's sub-buffer */
	const void *data;		/* the event's payload, in the file mapping (NULL: a loss) */
	uint32_t size;			/* bytes of data */
	uint32_t record_size;		/* bytes the event takes in its sub-buffer, header included */
	int id;				/* the payload's common_type; -1 when too short to hold one */
	struct tep_event *event;	/* its format; NULL when the file has none for id */
	int64_t missed;			/* a loss: events lost, or -1 when the kernel kept no count */
};

/*
 * trace_dat_cursor__new() returns a walk (trace_dat_cursor__delete; r must outlive it) over
 * CPU cpu's sub-buffers in file order, or with cpu -1 over every CPU merged by
 * time (ties to the lower CPU), as trace-cmd report shows them. NULL with errno EINVAL for a
 * CPU outside the file, ENOMEM.
 */
AUXTRACE_API struct trace_dat_cursor *trace_dat_cursor__new(struct trace_dat_reader *r,
							    int cpu);
/*
 * trace_dat_cursor__next() returns the next record (borrowed: valid until the next call),
 * or NULL: errno 0 at the end, EINVAL at a damaged sub-buffer (logged with
 * the CPU and its file offset; the cursor stays at the end).
 */
AUXTRACE_API const struct trace_dat_record *trace_dat_cursor__next(struct trace_dat_cursor *c);
/* trace_dat_cursor__delete() frees c (NULL: nothing). */
AUXTRACE_API void trace_dat_cursor__delete(struct trace_dat_cursor *c);

struct timeline;

/*
 * trace_dat_reader__add_to_timeline() adds r's events to tl (auxtrace/timeline.h) as the
 * stream "ftrace", on the file's trace clock: a cursor over every CPU (r must outlive tl).
 * Each record's stream.data is its const struct trace_dat_record * (stream.type its kind:
 * an event or a loss), with cpu, time, and for an event pid and tid both the payload's
 * common_pid: ftrace records the thread only, as trace-cmd report shows it. Returns 0 or
 * -errno: timeline__add_stream's (EXDEV: the file's clock is not the timeline's, logged),
 * ENOMEM.
 */
AUXTRACE_API int trace_dat_reader__add_to_timeline(struct trace_dat_reader *r,
						   struct timeline *tl);

#ifdef __cplusplus
}
#endif
#endif
