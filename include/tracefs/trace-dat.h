/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A trace.dat writer: trace-cmd's file format, version 6 (or 7 with zstd, see
 * compression_level), as trace-cmd report 3.1.6 and libtracecmd read it, for the ftrace
 * events of one tracefs instance.
 *
 *	w = trace_dat_writer__new("out/trace.dat", inst, NULL);
 *	per CPU:  tracefs_cpu_drain(tcpu, trace_dat_writer__cpu_sink(w, cpu));
 *	      or: tracefs_cpu_write(tcpu, trace_dat_writer__cpu_fd(w, cpu), true);
 *	at the end: tracefs_cpu_flush_drain(tcpu, sink) (or _flush_write(tcpu, fd)) for every
 *	CPU, then
 *	err = trace_dat_writer__finish(w);
 *	trace_dat_writer__delete(w);
 *
 * Each CPU's sink takes whole sub-buffers as the tracefs_cpu drains hand them out (any of
 * the splice, read and mapped paths), and its fd takes them spliced by tracefs_cpu_write();
 * both keep them, untouched, in a spool directory beside the file (PATH.spool/cpuN, with
 * the file's description as it was at the start in PATH.spool/head and clock): the
 * kernel's lost-events marks and counts stay in them, so trace-cmd reports the losses.
 * trace_dat_writer__finish() writes the instance's description (header_page, header_event,
 * the ftrace and recorded events' formats, kallsyms, printk formats, saved cmdlines, trace
 * clock, per-CPU stats) and then has the kernel copy each CPU's sub-buffers into the file
 * (copy_file_range), at offsets aligned to the sub-buffer size.
 *
 * The file appears under its name only when it is complete: until then it is an unnamed
 * file, so a failure leaves nothing behind that looks like a trace.dat. A crash leaves the
 * spool, which trace_dat__recover() lays out into a trace.dat of what was drained; finish
 * does the same, with the description of the start, when the disk has no room for a fresh
 * one (what fit is kept); a finish that succeeds removes the spool. Errors are -errno, and the library's log callback gets a
 * message naming the cause and the fix.
 *
 * A writer belongs to one thread at a time. Its sinks may be drained from different threads
 * as long as each CPU's sink is used by one thread at a time.
 */
#ifndef AUXTRACE_TRACE_DAT_H
#define AUXTRACE_TRACE_DAT_H

#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tracefs_instance;
struct trace_dat_writer;

struct trace_dat_writer_opts {
	size_t sz;			/* sizeof(struct trace_dat_writer_opts) */
	/*
	 * The events whose formats the file carries, besides the ftrace system's (trace_marker
	 * and friends, always there): a NULL-terminated list of "system:event", "system:*" or
	 * "system", as trace-cmd takes them for -e. NULL: the events enabled in the instance
	 * (its set_event) when the writer is created or when it finishes. An event without
	 * its format in the file shows in trace-cmd report as "[UNKNOWN EVENT]".
	 */
	const char *const *events;
	int nr_cpus;			/* CPUs the file describes; 0: every possible CPU */
	const char *version;		/* the VERSION option; NULL: "libauxtrace <version>" */
	unsigned int mode;		/* permission bits of the file; 0: 0600 */
	/*
	 * 1..22: write version 7 with zstd at this level, as trace-cmd 3.x writes it with
	 * compression (each description section one block, each CPU's data in chunks of 10
	 * sub-buffers); trace-cmd report 3.1.6 reads it. 0: version 6, stored.
	 */
	int compression_level;
};

/*
 * trace_dat_writer__new() returns a writer of path for the ftrace data of inst (NULL: the
 * top level; borrowed: it must outlive the writer), the caller's (trace_dat_writer__delete).
 * It reads the instance's sub-buffer layout and opts' events now and creates the file
 * unnamed in path's directory, with the spool directory path.spool (which must not exist:
 * -EEXIST), so an unwritable directory fails here. opts may be NULL (it
 * is copied). NULL + errno on failure: EINVAL (no path, opts with unknown fields), ENOENT
 * (an unknown event), open's (EACCES, ENOENT for the directory), ENOMEM.
 */
AUXTRACE_API struct trace_dat_writer *
trace_dat_writer__new(const char *path, struct tracefs_instance *inst,
		      const struct trace_dat_writer_opts *opts);

/*
 * trace_dat_writer__cpu_sink() returns where CPU cpu's sub-buffers go (borrowed): pass it to
 * tracefs_cpu_drain(), tracefs_cpu_buffered_drain() or tracefs_cpu_flush_drain() of that CPU,
 * or to anything that pushes whole sub-buffers of the instance. A push that is not a whole
 * number of sub-buffers, or a sub-buffer whose header does not fit the instance's layout, fails
 * with -EINVAL. A push that does not fit on the disk fails with -ENOSPC and keeps nothing of
 * it: the ring keeps those bytes, and what the sink took before stays whole. The sink lives as
 * long as the writer. NULL with errno EINVAL for a CPU outside the file's CPU count, or an
 * error from creating the CPU's temporary file.
 */
AUXTRACE_API struct ring_sink *trace_dat_writer__cpu_sink(struct trace_dat_writer *w, int cpu);

/*
 * trace_dat_writer__cpu_fd() returns the file behind CPU cpu's sink, for tracefs_cpu_write()
 * and tracefs_cpu_flush_write() of that CPU: unmapped they splice whole sub-buffers from the
 * kernel into it without passing them through user memory, the cheapest way to record. Write
 * nothing else there; using the sink as well is fine. If a full disk cuts such a write short,
 * the next tracefs_cpu_write() finishes the sub-buffer; one still unfinished at
 * trace_dat_writer__finish() is left out with a warning. The fd belongs to the writer and is
 * closed by finish. Fails with -errno as trace_dat_writer__cpu_sink().
 */
AUXTRACE_API int trace_dat_writer__cpu_fd(struct trace_dat_writer *w, int cpu);

/*
 * trace_dat_writer__finish() writes the file and gives it its name (replacing a file of that
 * name). Call it after the last flush drain; the sinks refuse data afterwards. Returns 0 or
 * -errno; on failure there is no file under path (nor any other), whatever the writer had
 * written. Once only: a second call is -EINVAL.
 */
AUXTRACE_API int trace_dat_writer__finish(struct trace_dat_writer *w);

/*
 * trace_dat__recover() makes path (a trace.dat) of the spool a writer of path left behind
 * when it did not finish (a crash, a kill, a power cut): path.spool/ holds the file's
 * description as it was at the start (head, clock) and each CPU's sub-buffers as drained
 * (cpuN). The file gets that description, and every whole sub-buffer (a torn last one is
 * left out); the spool is removed. Returns 0 or -errno: ENOENT (no spool, or one whose
 * description was never written), EINVAL (not a spool), the disk's. The file is version 7
 * with zstd when the writer was asked for it (compression_level), else version 6; version 7
 * that does not fit on the disk is laid out as version 6 instead, with a warning.
 */
AUXTRACE_API int trace_dat__recover(const char *path);

/*
 * trace_dat__spool_instance() returns the name of the tracefs instance whose events the writer
 * of path recorded, as its spool (path.spool/) keeps it: a recording that died leaves that
 * instance behind, its events enabled. The caller's (free() it), or NULL + errno: ENOENT (no
 * spool, the top level's events, or a spool that names none), ENOMEM, EINVAL (path NULL).
 */
AUXTRACE_API char *trace_dat__spool_instance(const char *path);

/*
 * trace_dat__spool_drain() adds what inst's ring buffer still holds to the spool a writer of
 * path left behind, as the writer's last flush drain would have: it turns tracing in inst off
 * (so that the drain ends), then drains every CPU of the file, partial sub-buffers too, after
 * each CPU's whole sub-buffers (a torn last one is cut off). Call it before
 * trace_dat__recover(); the instance stays (remove it with tracefs_instance_destroy()).
 * Returns the bytes added, or -errno: EINVAL (inst NULL or the top level, or sub-buffers of
 * another size than the spool's: not its instance), ENOENT (no spool or no head), the reads'
 * and the disk's.
 */
AUXTRACE_API int64_t trace_dat__spool_drain(const char *path, struct tracefs_instance *inst);

/*
 * trace_dat__tracing_data() makes the tracing data a perf.data needs when it holds tracepoint
 * events (perf refuses such a file without it: "broken or missing trace data"): the description
 * of the events of inst named in events ("system:event", "system:*" or "system",
 * NULL-terminated), in the layout trace.dat starts with and perf reads (kallsyms left empty, as
 * perf record leaves it). Into *data (malloc'ed, the caller frees it) and *size; hand it to
 * perf_data_writer__write_tracing_data(). Returns 0 or -errno (ENOENT for an unknown event,
 * EINVAL, ENOMEM, tracefs reads').
 */
AUXTRACE_API int trace_dat__tracing_data(struct tracefs_instance *inst,
					 const char *const *events, void **data, size_t *size);

/*
 * trace_dat_writer__delete() frees the writer; without a successful finish, nothing of it
 * stays on disk. NULL is a no-op.
 */
AUXTRACE_API void trace_dat_writer__delete(struct trace_dat_writer *w);

#ifdef __cplusplus
}
#endif
#endif
