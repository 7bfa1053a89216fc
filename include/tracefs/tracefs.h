/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libtracefs' tracefs_cpu API, with libtracefs' names and signatures, so that code written
 * for libtracefs 1.8's ring-buffer mapping compiles against libauxtrace unchanged; plus the
 * instance calls a recorder needs. Where a function is ours alone it says "libauxtrace
 * extension". Like libtracefs' header it brings in libtraceevent's event-parse.h and kbuffer.h:
 * struct kbuffer, struct tep_handle and trace_seq are libtraceevent's.
 *
 * Errors: int functions return a negative errno (and set errno), except where libtracefs
 * defines -1 (tracefs_cpu_map, tracefs_event_enable/_disable: -1 with errno set); pointer
 * functions return NULL with errno set. "No data" is always errno EAGAIN: 0 from the int
 * reads, NULL from the _buf reads.
 *
 * A sub-buffer is input, even from the kernel: every read that hands one out to be parsed
 * (tracefs_cpu_read, _buffered_read, _flush and their _buf forms) first checks it the way
 * libtraceevent's kbuffer will walk it. A malformed one is dropped and counted as a loss of
 * unknown size, and that call fails with EBADMSG; the next call goes on after it. Drains and
 * writes pass sub-buffers on unparsed.
 *
 * Reading one CPU of an instance (libtracefs style):
 *
 *	tcpu = tracefs_cpu_open_mapped(inst, cpu, false);
 *	while ((kbuf = tracefs_cpu_read_buf(tcpu, false)))	// blocks per buffer_percent
 *		for (rec = kbuffer_read_event(kbuf, &ts); rec; rec = kbuffer_next_event(kbuf, &ts))
 *			use(rec, ts);
 *	while ((kbuf = tracefs_cpu_flush_buf(tcpu)))		// what is left, without waiting
 *		...
 *	tracefs_cpu_close(tcpu);
 *
 * Mapped (Linux 6.10+), the kbuffer points into the kernel's sub-buffer (no copy) and stays
 * valid until the next call on that tcpu. Every path hands out each event exactly once, as
 * whole standalone sub-buffers of tracefs_cpu_read_size() bytes that keep the kernel's
 * lost-events mark and count.
 *
 * Waiting: a blocking call sleeps in poll() (per the instance's buffer_percent) only when the
 * previous call found the buffer drained; after a wakeup, calls take everything there is
 * without sleeping, up to the sub-buffer the kernel is still writing. A tcpu belongs to one
 * thread at a time; only tracefs_cpu_stop() may come from another. We assume we are the only
 * reader of that CPU buffer (use an instance of your own).
 */
#ifndef AUXTRACE_TRACEFS_H
#define AUXTRACE_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <event-parse.h>
#include <kbuffer.h>
#include <auxtrace/core.h>
#include <auxtrace/ring.h>
#include <auxtrace/ring-set.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tracefs ---- */

/*
 * tracefs_tracing_dir() returns the tracefs mount point (found in /proc/mounts), static:
 * not to be freed. NULL + errno ENODEV if none, EACCES if this user may not read it.
 */
AUXTRACE_API const char *tracefs_tracing_dir(void);
/*
 * tracefs_get_tracing_file() returns "<tracing dir>/<name>", to be freed with
 * tracefs_put_tracing_file(); NULL + errno (ENODEV, EINVAL for a name leaving the
 * directory, ENOMEM).
 */
AUXTRACE_API char *tracefs_get_tracing_file(const char *name);
/* tracefs_put_tracing_file() frees a path this API returned (NULL: nothing). */
AUXTRACE_API void tracefs_put_tracing_file(char *name);

/* ---- instances: a NULL instance means the top level everywhere ---- */

struct tracefs_instance;

/*
 * tracefs_instance_create() creates <tracing dir>/instances/<name>, or attaches to it if it
 * exists (see _is_new); NULL is the top level. Returns the handle, the caller's
 * (tracefs_instance_free; tracefs_instance_destroy removes the instance), or NULL + errno:
 * EINVAL for a name that is empty, ".", ".." or has a '/', mkdir's (EACCES/EPERM: not
 * root), ENODEV (no tracefs), ENOMEM.
 */
AUXTRACE_API struct tracefs_instance *tracefs_instance_create(const char *name);
/*
 * tracefs_instance_create_exclusive() creates <tracing dir>/instances/<name> and fails if
 * it exists: an instance somebody else made (with events enabled, readers of its own) is
 * never taken over, so a recorder that destroys what it created removes nothing else's.
 * Not in libtracefs. Returns the handle (tracefs_instance_is_new() is true), or NULL + errno:
 * EEXIST (logged nothing: try another name), EINVAL for a NULL name or one create refuses,
 * mkdir's, ENODEV, ENOMEM.
 */
AUXTRACE_API struct tracefs_instance *tracefs_instance_create_exclusive(const char *name);
/*
 * tracefs_instance_alloc() returns a handle (tracefs_instance_free) for an instance that
 * exists already, never created: <tracing_dir>/instances/<name>
 * (tracing_dir NULL: the mounted tracefs; name NULL: tracing_dir itself). NULL with errno
 * ENOENT when that directory does not exist, EINVAL for a name create would refuse.
 */
AUXTRACE_API struct tracefs_instance *tracefs_instance_alloc(const char *tracing_dir,
							     const char *name);
/*
 * tracefs_instance_destroy() removes the instance directory (the handle stays to be
 * freed). Returns 0 or -errno: EBUSY while any of its CPU buffers is open or mapped,
 * EINVAL for the top level, rmdir's.
 */
AUXTRACE_API int tracefs_instance_destroy(struct tracefs_instance *instance);
/* tracefs_instance_free() frees the handle; the instance itself stays unless destroyed. */
AUXTRACE_API void tracefs_instance_free(struct tracefs_instance *instance);
/* tracefs_instance_is_new() returns whether tracefs_instance_create() made the directory. */
AUXTRACE_API bool tracefs_instance_is_new(struct tracefs_instance *instance);
/* tracefs_instance_exists() returns whether instances/<name> exists (false on any error). */
AUXTRACE_API bool tracefs_instance_exists(const char *name);
/* tracefs_instance_get_name() returns the instance's name, borrowed; NULL for the top level. */
AUXTRACE_API const char *tracefs_instance_get_name(struct tracefs_instance *instance);
/*
 * tracefs_instance_get_trace_dir() returns the tracing directory the instance lives in,
 * borrowed; NULL for the NULL (top level) instance.
 */
AUXTRACE_API const char *tracefs_instance_get_trace_dir(struct tracefs_instance *instance);
/*
 * Every call that takes a file name of an instance refuses an absolute one or one with a ".."
 * component (EINVAL): nothing leaves the instance's directory.
 */
/*
 * tracefs_instance_get_dir() returns the instance directory, malloc'ed: free with
 * tracefs_put_tracing_file(). NULL + errno (ENODEV, ENOMEM).
 */
AUXTRACE_API char *tracefs_instance_get_dir(struct tracefs_instance *instance);
/*
 * tracefs_instance_get_file() returns the path of file in the instance directory,
 * malloc'ed: free with tracefs_put_tracing_file(). NULL + errno (EINVAL, ENODEV, ENOMEM).
 */
AUXTRACE_API char *tracefs_instance_get_file(struct tracefs_instance *instance, const char *file);

/*
 * tracefs_instance_file_open() open(2)s a file of the instance with flags mode (-1 means
 * O_RDWR; O_CLOEXEC added). Returns the fd, the caller's to close, or -errno (open's).
 */
AUXTRACE_API int tracefs_instance_file_open(struct tracefs_instance *instance, const char *file,
					    int mode);
/*
 * tracefs_instance_file_read() returns the whole file, malloc'ed (free() it) and
 * NUL-terminated; its length in *psize (may be NULL). NULL + errno (open's or read's,
 * EINVAL, ENOMEM).
 */
AUXTRACE_API char *tracefs_instance_file_read(struct tracefs_instance *instance, const char *file,
					      int *psize);
/*
 * tracefs_instance_file_read_number() stores in *res the number a file starts with
 * ("7 (expanded: 1408)" gives 7). Returns 0 or -errno: the read's, EINVAL when the file
 * does not start with a number.
 */
AUXTRACE_API int tracefs_instance_file_read_number(struct tracefs_instance *instance,
						   const char *file, long long *res);
/*
 * tracefs_instance_file_write() replaces the file's content with str (O_TRUNC). Returns the
 * bytes written, or -errno (open's or write's: EINVAL for a value the kernel refuses).
 */
AUXTRACE_API int tracefs_instance_file_write(struct tracefs_instance *instance, const char *file,
					     const char *str);
/* tracefs_instance_file_clear() empties the file (opens it with O_TRUNC). Returns 0 or -errno. */
AUXTRACE_API int tracefs_instance_file_clear(struct tracefs_instance *instance, const char *file);

/*
 * Ring buffer configuration. Sizes are in KiB. Set them before mapping: a mapped CPU buffer
 * makes buffer_size_kb and buffer_subbuf_size_kb of its instance EBUSY.
 * cpu < 0: every CPU (buffer_size_kb), else per_cpu/cpu<cpu>/buffer_size_kb. Get with
 * cpu < 0 gives the size of each CPU's buffer (buffer_size_kb), where libtracefs gives the
 * total over all CPUs (buffer_total_size_kb).
 */
/* tracefs_instance_get_buffer_size() returns the size in KiB (see above), or -errno. */
AUXTRACE_API ssize_t tracefs_instance_get_buffer_size(struct tracefs_instance *instance, int cpu);
/*
 * tracefs_instance_set_buffer_size() sets the size in KiB (see above). Returns 0 or -errno
 * (EBUSY while mapped, logged; ENOMEM from the kernel).
 */
AUXTRACE_API int tracefs_instance_set_buffer_size(struct tracefs_instance *instance, size_t size,
						  int cpu);
/* tracefs_instance_get_subbuf_size() returns buffer_subbuf_size_kb, or -errno. */
AUXTRACE_API ssize_t tracefs_instance_get_subbuf_size(struct tracefs_instance *instance);
/*
 * tracefs_instance_set_subbuf_size() sets buffer_subbuf_size_kb: the kernel rounds it up
 * to a power-of-two number of pages. Returns 0 or -errno (EBUSY while mapped, logged).
 */
AUXTRACE_API int tracefs_instance_set_subbuf_size(struct tracefs_instance *instance, size_t size);
/*
 * tracefs_instance_get_buffer_percent() returns how full (0..100 %) a CPU buffer must be
 * before poll and blocking reads wake up, or -errno.
 */
AUXTRACE_API int tracefs_instance_get_buffer_percent(struct tracefs_instance *instance);
/* tracefs_instance_set_buffer_percent() sets it. Returns 0 or -errno (EINVAL outside 0..100). */
AUXTRACE_API int tracefs_instance_set_buffer_percent(struct tracefs_instance *instance, int val);
/* tracefs_instance_clear() empties every CPU buffer of the instance. Returns 0 or -errno. */
AUXTRACE_API int tracefs_instance_clear(struct tracefs_instance *instance);

/* tracefs_trace_is_on() returns tracing_on: 1 on, 0 off, or -errno. */
AUXTRACE_API int tracefs_trace_is_on(struct tracefs_instance *instance);
/* tracefs_trace_on() writes 1 to tracing_on. Returns 0 or -errno. */
AUXTRACE_API int tracefs_trace_on(struct tracefs_instance *instance);
/* tracefs_trace_off() writes 0 to tracing_on. Returns 0 or -errno. */
AUXTRACE_API int tracefs_trace_off(struct tracefs_instance *instance);

/*
 * tracefs_get_clock() returns the trace clock in use ("local", "mono", ...), malloc'ed
 * (free() it); NULL + errno (the read's, EINVAL when none is marked, ENOMEM).
 */
AUXTRACE_API char *tracefs_get_clock(struct tracefs_instance *instance);
/*
 * tracefs_instance_set_clock(), a libauxtrace extension, selects the trace clock. This
 * resets the instance's buffers. Returns 0 or -errno (EINVAL for an unknown clock, logged).
 */
AUXTRACE_API int tracefs_instance_set_clock(struct tracefs_instance *instance, const char *clock);

/*
 * tracefs_event_enable() enables (and tracefs_event_disable() disables) the events whose
 * system and name match system and event: POSIX basic regular expressions, anchored at both
 * ends, ignoring case ("sched", "sched_wak.*"), as in libtracefs. NULL matches every system or
 * every event; both NULL switch the instance's events/enable. Only real event directories of
 * that instance match, and a name with '/', or one that is "." or "..", is refused (-1, errno
 * EINVAL). Returns 0 when at least one event (or system) was switched; -1 when none matched
 * (errno ENOENT, as libtracefs' -1 with errno untouched), on a regex that does not compile
 * (EINVAL) or when a write failed (errno from the write; the events matched before it stay
 * switched).
 */
AUXTRACE_API int tracefs_event_enable(struct tracefs_instance *instance, const char *system,
				      const char *event);
/* tracefs_event_disable() is the same as tracefs_event_enable, and returns as it. */
AUXTRACE_API int tracefs_event_disable(struct tracefs_instance *instance, const char *system,
				       const char *event);

/*
 * tracefs_local_events() returns a libtraceevent handle that knows every event format of
 * tracing_dir (NULL: the local tracefs), its header_page, kernel symbols and printk
 * formats: ready for tep_print_event(). The caller's: tep_free() it. A format that does not
 * parse is left out. NULL + errno: ENODEV, EINVAL (no header_page there), ENOMEM.
 */
AUXTRACE_API struct tep_handle *tracefs_local_events(const char *tracing_dir);
/*
 * tracefs_load_cmdlines() teaches tep the pid -> comm map of tracing_dir's saved_cmdlines
 * (NULL: the local tracefs). Returns 0 or -errno (the read's, EINVAL when it does not parse).
 */
AUXTRACE_API int tracefs_load_cmdlines(const char *tracing_dir, struct tep_handle *tep);

/* ---- reading one CPU buffer: tracefs_cpu ---- */

struct tracefs_cpu;

/*
 * tracefs_cpu_open() opens [instance/]per_cpu/cpu<cpu>/trace_pipe_raw; instance is read
 * during the call only (the tcpu keeps no pointer to it). nonblock makes every read non-blocking; otherwise a read waits per
 * buffer_percent (poll) unless it passes nonblock itself. The sub-buffer size comes from the
 * instance's own events/header_page. Returns the tcpu, the caller's (tracefs_cpu_close), or
 * NULL + errno: ENOENT (no such CPU, logged), EINVAL (cpu < 0, a header_page it cannot read),
 * EACCES, ENOMEM.
 */
AUXTRACE_API struct tracefs_cpu *tracefs_cpu_open(struct tracefs_instance *instance, int cpu,
						  bool nonblock);
/*
 * tracefs_cpu_open_mapped() is tracefs_cpu_open, then tracefs_cpu_map; it still succeeds
 * when mapping is refused (tracefs_cpu_is_mapped() says which). Returns as tracefs_cpu_open.
 */
AUXTRACE_API struct tracefs_cpu *tracefs_cpu_open_mapped(struct tracefs_instance *instance,
							 int cpu, bool nonblock);
/*
 * tracefs_cpu_snapshot_open() opens the snapshot buffer of instance:
 * [instance/]per_cpu/cpu<cpu>/snapshot_raw, read like tracefs_cpu_open(), and returns as it
 * (ENOENT: a kernel without CONFIG_TRACER_SNAPSHOT). Its stats count no
 * records: the kernel's count is the main buffer's.
 */
AUXTRACE_API struct tracefs_cpu *tracefs_cpu_snapshot_open(struct tracefs_instance *instance,
							   int cpu, bool nonblock);
/*
 * tracefs_cpu_alloc_fd() returns a tcpu reading fd (trace_pipe_raw opened by the caller, or
 * anything that yields sub-buffers of subbuf_size bytes: a pipe, a file) with the sub-buffer
 * header of this kernel (the top level's header_page). fd is made O_NONBLOCK. subbuf_size must
 * be a power of two of at least 4096 (EINVAL). Its stats count no records; tracefs_cpu_map()
 * works on a trace_pipe_raw fd. fd stays the caller's: tracefs_cpu_free_fd() leaves it open,
 * tracefs_cpu_close() closes it. NULL + errno: EINVAL (fd < 0, the size), ENOMEM.
 */
AUXTRACE_API struct tracefs_cpu *tracefs_cpu_alloc_fd(int fd, int subbuf_size, bool nonblock);
/*
 * tracefs_cpu_free_fd() unmaps and frees everything but the fd (for tracefs_cpu_alloc_fd).
 * NULL is a no-op.
 */
AUXTRACE_API void tracefs_cpu_free_fd(struct tracefs_cpu *tcpu);
/*
 * tracefs_cpu_close() is tracefs_cpu_free_fd(), and closes the fd (also one given to
 * tracefs_cpu_alloc_fd). NULL is a no-op.
 */
AUXTRACE_API void tracefs_cpu_close(struct tracefs_cpu *tcpu);

/*
 * tracefs_cpu_is_mapped() returns whether this tcpu reads through a mapping now (not
 * whether the kernel could map).
 */
AUXTRACE_API bool tracefs_cpu_is_mapped(struct tracefs_cpu *tcpu);
/*
 * tracefs_mapped_is_supported() returns whether this kernel maps ring buffers (it maps the
 * top level's first CPU and unmaps it again): false when it cannot, or on any error.
 */
AUXTRACE_API bool tracefs_mapped_is_supported(void);
/*
 * tracefs_cpu_map() maps the CPU buffer (Linux 6.10+). Returns 0 (also when mapped
 * already), or -1 with errno (then reads keep using read/splice): ENODEV (a kernel before
 * 6.10), EBUSY (a snapshot or latency tracer uses the instance), EINVAL (a NULL tcpu, a
 * meta page this library does not know), ENOMEM, mmap's.
 */
AUXTRACE_API int tracefs_cpu_map(struct tracefs_cpu *tcpu);
/* tracefs_cpu_unmap() goes back to read/splice; nothing read is lost. No-op if not mapped. */
AUXTRACE_API void tracefs_cpu_unmap(struct tracefs_cpu *tcpu);

/*
 * tracefs_cpu_read_size() returns the sub-buffer size: the size of every buffer passed to
 * the calls below; -EINVAL for a NULL tcpu.
 */
AUXTRACE_API int tracefs_cpu_read_size(struct tracefs_cpu *tcpu);

/*
 * tracefs_cpu_read() reads one sub-buffer into buffer (read_size bytes, zero-filled after
 * the data). Returns the bytes, or 0 with errno EAGAIN when there is none (nonblocking, or
 * woken by tracefs_cpu_stop()), or -errno: EINVAL (NULL tcpu or buffer), EBADMSG (a
 * malformed sub-buffer, dropped), read's. Unmapped it uses read(2); mapped it copies from
 * the mapping.
 */
AUXTRACE_API int tracefs_cpu_read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock);
/*
 * tracefs_cpu_read_buf() is the same, loaded into a kbuffer the tcpu owns (valid until the
 * next call on it). Mapped: no copy. Returns it, or NULL + errno: EAGAIN when none, as
 * tracefs_cpu_read otherwise.
 */
AUXTRACE_API struct kbuffer *tracefs_cpu_read_buf(struct tracefs_cpu *tcpu, bool nonblock);
/*
 * tracefs_cpu_buffered_read() reads unmapped through a splice pipe, whole sub-buffers only
 * (the one the kernel is still writing waits for tracefs_cpu_flush*()); mapped it is
 * exactly tracefs_cpu_read. Returns as tracefs_cpu_read.
 */
AUXTRACE_API int tracefs_cpu_buffered_read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock);
/*
 * tracefs_cpu_buffered_read_buf() is tracefs_cpu_buffered_read into a kbuffer, and returns
 * as tracefs_cpu_read_buf.
 */
AUXTRACE_API struct kbuffer *tracefs_cpu_buffered_read_buf(struct tracefs_cpu *tcpu,
							   bool nonblock);
/*
 * tracefs_cpu_flush() is for the end of tracing: it never waits and takes the partly
 * written sub-buffer too. Call it until it returns 0 (errno EAGAIN); returns as
 * tracefs_cpu_read.
 */
AUXTRACE_API int tracefs_cpu_flush(struct tracefs_cpu *tcpu, void *buffer);
/*
 * tracefs_cpu_flush_buf() is tracefs_cpu_flush into a kbuffer: call it until it returns
 * NULL (errno EAGAIN); returns as tracefs_cpu_read_buf.
 */
AUXTRACE_API struct kbuffer *tracefs_cpu_flush_buf(struct tracefs_cpu *tcpu);
/*
 * tracefs_cpu_flush_write() flushes everything left into wfd (still the caller's). Returns
 * the bytes written, or -errno (the write's, EINVAL).
 */
AUXTRACE_API int tracefs_cpu_flush_write(struct tracefs_cpu *tcpu, int wfd);
/*
 * tracefs_cpu_write() writes what is readable now into wfd (still the caller's). Returns the
 * bytes written (0 + EAGAIN: none; -EAGAIN: a non-blocking wfd is full). Unmapped it splices
 * (no copy; whole sub-buffers), and what wfd did not take goes out first next time; mapped it
 * writes straight from the mapping.
 */
AUXTRACE_API int tracefs_cpu_write(struct tracefs_cpu *tcpu, int wfd, bool nonblock);
/*
 * tracefs_cpu_pipe() is like tracefs_cpu_write, into a pipe, and returns as it (EBADF when
 * wfd is none; EINVAL for a NULL tcpu or wfd < 0). Unmapped, data goes through
 * the tcpu's own pipe, so that only whole sub-buffers move and what wfd did not take stays
 * for the next call (libtracefs splices straight into wfd); -ENOSPC when wfd cannot hold one
 * sub-buffer.
 */
AUXTRACE_API int tracefs_cpu_pipe(struct tracefs_cpu *tcpu, int wfd, bool nonblock);
/*
 * tracefs_cpu_stop() wakes a read blocked in another thread and make every later read
 * non-blocking, so that a flush loop can follow. Returns 0: the reader is woken for sure (a
 * waiting call polls an eventfd of the tcpu), which is what libtracefs' 0 says; its 1 ("may
 * need a signal", for kernels whose trace_pipe_raw cannot be woken) never happens here. -errno
 * on error (EINVAL for a NULL tcpu).
 */
AUXTRACE_API int tracefs_cpu_stop(struct tracefs_cpu *tcpu);

/* ---- libauxtrace extensions: one poll loop, the consumer core's sinks, accounting ---- */

/*
 * tracefs_cpu_fd() returns the fd to put in a poll/epoll set (POLLIN per buffer_percent),
 * the tcpu's: read it only through this API. -EINVAL for a NULL tcpu.
 */
AUXTRACE_API int tracefs_cpu_fd(struct tracefs_cpu *tcpu);

/*
 * tracefs_cpu_drain() (and its two forms below) pushes what is readable now into sink,
 * never waiting, one standalone sub-buffer per push
 * (read_size bytes: header, data, lost count, zeros). Mapped, the iovecs point into the
 * mapping. A drain stops after the sub-buffer the kernel is still writing: poll again rather
 * than spin on it; and after the CPU buffer's size (opened from an instance), what could be
 * ready when it started, so that a producer faster than the sink cannot hold it for ever (a
 * next call takes the rest at once). Returns the bytes the sink took (0: nothing), or
 * -errno; on a sink error the sub-buffer stays to be offered again.
 *   _drain: unmapped, read(2) (partial sub-buffers too);
 *   _buffered_drain: unmapped, splice (whole sub-buffers only);
 *   _flush_drain: everything, including the partial sub-buffer: the end of a recording.
 */
AUXTRACE_API ssize_t tracefs_cpu_drain(struct tracefs_cpu *tcpu, struct ring_sink *sink);
/* tracefs_cpu_buffered_drain() drains by splice when unmapped; returns as tracefs_cpu_drain. */
AUXTRACE_API ssize_t tracefs_cpu_buffered_drain(struct tracefs_cpu *tcpu, struct ring_sink *sink);
/*
 * tracefs_cpu_flush_drain() drains everything, the partial sub-buffer too; returns as
 * tracefs_cpu_drain.
 */
AUXTRACE_API ssize_t tracefs_cpu_flush_drain(struct tracefs_cpu *tcpu, struct ring_sink *sink);

/*
 * tracefs_cpu_add_to_ring_set() lets a ring set (auxtrace/ring-set.h) drain tcpu into sink
 * whenever its fd is ready, as tracefs_cpu_buffered_drain (buffered: splice, the cheapest way
 * into a file) or tracefs_cpu_drain, and with tracefs_cpu_flush_drain at
 * ring_set__drain_all(set, true). Its stats count as RING_SOURCE_FTRACE on its CPU. tcpu and
 * sink must outlive the set. Returns 0 or -errno (EINVAL for a NULL argument,
 * ring_set__add_source's).
 */
AUXTRACE_API int tracefs_cpu_add_to_ring_set(struct tracefs_cpu *tcpu, struct ring_set *set,
					     bool buffered, struct ring_sink *sink);

/*
 * tracefs_cpu_stats() returns what this tcpu delivered (borrowed: valid while the tcpu
 * lives): bytes, chunks (sub-buffers), lost / lost_reports / lost_unknown
 * from the kernel's lost-events marks, and records: the events the kernel counts as read from
 * this CPU buffer since the open ("read events" of per_cpu/cpuN/stats; the meta page when
 * mapped), on every path. Nothing walks the sub-buffers to count them, so records is brought
 * up to date by each call (one read of the stats file when unmapped), includes a sub-buffer
 * taken from the kernel that no sink accepted yet, and assumes this tcpu is the buffer's only
 * reader. Across a buffer reset (clear, trace clock) it keeps the events read before it, if
 * the mapping saw the reset or a call of this function came between the reset and the point
 * where the new count passed the old one. NULL + EINVAL for a NULL tcpu.
 */
AUXTRACE_API const struct ring_stats *tracefs_cpu_stats(struct tracefs_cpu *tcpu);

/* What reading this tcpu cost in system calls. */
struct tracefs_cpu_syscalls {
	uint64_t waits;		/* poll() calls that waited for data */
	uint64_t wakeups;	/* ... of which returned with data readable */
	uint64_t get_reader;	/* TRACE_MMAP_IOCTL_GET_READER calls */
	uint64_t reads;		/* read(2) of trace_pipe_raw */
	uint64_t splices;	/* splice(2) out of trace_pipe_raw */
	uint64_t edge;		/* sub-buffers (or pieces) taken from the page the writer is on */
};
/*
 * tracefs_cpu_syscall_stats() returns what reading this tcpu cost in system calls
 * (borrowed: valid while the tcpu lives); NULL + EINVAL for a NULL tcpu.
 */
AUXTRACE_API const struct tracefs_cpu_syscalls *
tracefs_cpu_syscall_stats(struct tracefs_cpu *tcpu);

#ifdef __cplusplus
}
#endif
#endif
