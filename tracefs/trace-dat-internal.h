/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Private to the trace.dat writer (tracefs/trace-dat-*.c, the reader's files aside): the
 * buffered output stream, the metadata sections, the event list, and the per-CPU spool files.
 */
#ifndef AUXTRACE_TRACEFS_TRACE_DAT_INTERNAL_H
#define AUXTRACE_TRACEFS_TRACE_DAT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <auxtrace/ring.h>
#include <tracefs/trace-dat.h>
#include "trace-dat-ids.h"

struct tracefs_instance;

/* ---- trace-dat-out.c: the file, written front to back through a buffer ---- */

#define TD_OUT_BUF	(64 * 1024)

/*
 * The first error sticks: every later write is a no-op, so a section writer can write all
 * its pieces and look at the error once.
 */
struct td_out {
	int fd;
	int err;		/* 0, or the first -errno */
	uint64_t pos;		/* file offset of the next byte */
	size_t used;		/* bytes in buf, which start at pos - used */
	char buf[TD_OUT_BUF];
};

void td_out__init(struct td_out *out, int fd);
void td_out__write(struct td_out *out, const void *data, size_t len);
void td_out__u16(struct td_out *out, uint16_t v);
void td_out__u32(struct td_out *out, uint32_t v);
void td_out__u64(struct td_out *out, uint64_t v);
/* The string and its NUL. */
void td_out__str(struct td_out *out, const char *s);
/*
 * A file's whole content after its length as a width-byte (4 or 8) number, for files whose
 * size only reading tells (tracefs and /proc). peek, if not NULL, sees the first bytes
 * before anything is written and may return false to write the file as empty. 0; -errno
 * from open() with nothing written (the caller decides whether that is fatal); or the
 * stream's sticky error.
 */
int td_out__file(struct td_out *out, const char *path, int width,
		 bool (*peek)(const char *head, size_t len));
/*
 * A file the trace.dat cannot do without, after its u64 length: one that cannot be read
 * fails the file, with a message ending in hint. A NULL path is -ENOMEM.
 */
void td_out__required_file(struct td_out *out, const char *path, const char *hint);
/* Overwrite width bytes at file offset off, in the buffer if they are still there. */
void td_out__patch(struct td_out *out, uint64_t off, const void *v, size_t width);
/* Write out the buffer. 0 or the sticky -errno. */
int td_out__flush(struct td_out *out);

/* ---- trace-dat-events.c: which event formats the file carries ---- */

struct td_system;

struct td_events {
	struct td_system *systems;	/* in the order they were first named */
	int nr_systems;
};

/* Add "system:event", "system:*" or "system" of inst. 0, -ENOENT (no such event), -errno. */
int td_events__add(struct td_events *ev, struct tracefs_instance *inst, const char *spec);
/* Add the events enabled in inst now (its set_event). 0 or -errno. */
int td_events__add_enabled(struct td_events *ev, struct tracefs_instance *inst);
/* Add each of events (NULL-terminated), or with events NULL those enabled now. 0 or -errno. */
int td_events__add_list(struct td_events *ev, struct tracefs_instance *inst,
			const char *const *events);
/* The ftrace formats section and the event formats section, or each alone. */
void td_events__write(const struct td_events *ev, struct tracefs_instance *inst,
		      struct td_out *out, bool ftrace_formats);
void td_events__write_ftrace(struct tracefs_instance *inst, struct td_out *out,
			     bool ftrace_formats);
void td_events__write_systems(const struct td_events *ev, struct tracefs_instance *inst,
			      struct td_out *out);
void td_events__exit(struct td_events *ev);

/* ---- trace-dat-meta.c: what describes the data ---- */

/* Sub-buffer geometry of the instance, from its events/header_page. */
struct td_layout {
	unsigned int page_size;		/* whole sub-buffer: trace.dat's "page size" */
	unsigned int long_size;		/* the kernel's long: commit word, stored lost count */
};

int td_layout__read(struct td_layout *l, struct tracefs_instance *inst);

/* Magic, version ("6", "7"), endianness, long size, page size. */
void td_meta__write_head(struct td_out *out, const struct td_layout *l, const char *version);
/* header_page and header_event of inst. */
void td_meta__write_headers(struct td_out *out, struct tracefs_instance *inst);
/* kallsyms, printk formats, saved cmdlines; or one of them. */
void td_meta__write_symbols(struct td_out *out, struct tracefs_instance *inst, bool kallsyms);
enum { TD_SYMBOLS_KALLSYMS, TD_SYMBOLS_PRINTK, TD_SYMBOLS_CMDLINES };
void td_meta__write_symbol(struct td_out *out, struct tracefs_instance *inst, int which);
/* One option: u16 id, u32 size, the data. */
void td_option__write(struct td_out *out, uint16_t id, const void *data, uint32_t len);
/* The instance's trace_clock text ("[local] global ..."), malloc'ed; NULL, logged. */
char *td_meta__read_clock(struct tracefs_instance *inst);
/* Version 6: the CPU count and the options section. */
void td_meta__write_options(struct td_out *out, struct tracefs_instance *inst, int nr_cpus,
			    const char *version);
/* The options that describe the instance: CPU count, clock (its text), uname, version, and
 * (cpustats) each CPU's stats. */
void td_meta__write_instance_options(struct td_out *out, struct tracefs_instance *inst,
				     int nr_cpus, const char *version, const char *clock,
				     bool cpustats);
/*
 * "flyrecord", the table of nr CPUs' {offset, size} and the trace clock after it. CPU i's
 * sizes[i] bytes go at offsets[i], aligned to align, in CPU order, at least 10 bytes after
 * the clock. Returns where the last CPU's data ends (the file's size).
 */
uint64_t td_meta__write_flyrecord(struct td_out *out, const char *clock,
				  const uint64_t *sizes, int nr, uint64_t align,
				  uint64_t *offsets);

/* ---- trace-dat-head.c: a spool's head, split into version 7's sections ---- */

struct td_head_parts {
	const char *base;		/* the head, mapped */
	size_t size;
	uint64_t at[TD_OPT_CMDLINES + 1];	/* where each description section starts */
	uint64_t len[TD_OPT_CMDLINES + 1];	/* and its bytes */
	uint64_t options_at;		/* the options after "options  ", DONE left out */
	uint64_t options_len;
};

/* Map the head open in fd and find its parts. 0 or -errno; EINVAL (damaged) logged with what. */
int td_head_parts__read(struct td_head_parts *h, int fd, const char *what);
/*
 * The option at *at (start at h->options_at): its id, data and size, *at moved past it;
 * false after the last one.
 */
bool td_head_parts__option(const struct td_head_parts *h, uint64_t *at, uint16_t *id,
			   const void **data, uint32_t *size);
void td_head_parts__exit(struct td_head_parts *h);

/* ---- trace-dat-v7.c: version 7, compressed with zstd ---- */

struct td_v7_params {
	struct tracefs_instance *inst;	/* the description's source, */
	const struct td_head_parts *head;	/* or (not NULL) a spool's head: the options too */
	const struct td_layout *layout;
	const struct td_events *events;
	const char *clock;		/* trace_clock's text */
	const char *version;
	int nr_cpus;
	const int *fds;			/* each CPU's spool (NULL: no CPU data), */
	const uint64_t *sizes;		/* and its bytes of whole sub-buffers */
	uint64_t align;			/* of each CPU's data */
	int level;			/* zstd's; 0: compression "none" */
};

/*
 * The whole file into out from offset 0; without CPU data (fds NULL), the prefix trace-cmd
 * listen appends the data to: the description and one options section, whose DONE is the
 * last. Returns where it ends; out->err on failure.
 */
uint64_t td_v7__write(struct td_out *out, const struct td_v7_params *p);

/* ---- trace-dat-spool.c: one CPU's sub-buffers, kept until finish ---- */

struct td_spool {
	struct ring_sink sink;
	int fd;				/* cpuN in the spool directory */
	struct ring_sink_fd file;	/* splices into fd */
	int cpu;
	const struct td_layout *layout;
	const bool *closed;		/* the writer finished: refuse data */
	bool full;			/* ENOSPC was reported once */
	bool broken;			/* a failed write could not be taken back */
};

/* An unnamed file in dir (O_TMPFILE), mode 0600. fd, or -errno with a message. */
int td_tmpfile(const char *dir, const char *what);

/* Create cpuN in the spool directory dir_fd. 0 or -errno, logged. */
int td_spool__init(struct td_spool *s, int dir_fd, int cpu, const struct td_layout *l,
		   const bool *closed);
/*
 * Open an existing cpuN to add to, cut to whole sub-buffers. 0 or -errno (ENOENT: no such
 * file), not logged.
 */
int td_spool__reopen(struct td_spool *s, int dir_fd, int cpu, const struct td_layout *l,
		     const bool *closed);
/* Bytes of whole sub-buffers kept (a partial one at the end is left out, said), or -errno. */
int64_t td_spool__size(struct td_spool *s);
/* Copy the first size bytes to out_fd at off, in the kernel. 0 or -errno. */
int td_spool__copy(struct td_spool *s, int out_fd, uint64_t off, uint64_t size);
void td_spool__exit(struct td_spool *s);
/*
 * Copy size bytes of in_fd from its start to out_fd at off, in the kernel, giving the
 * copied bytes' room back to the disk as it goes (in_fd is a spool: it is read once). 0 or
 * -errno.
 */
int td_copy(int in_fd, int out_fd, uint64_t off, uint64_t size);
/* Free room the disk needs to lay out a trace.dat from spools it already holds. */
uint64_t td_copy_room(int nr_cpus, uint64_t align);

/* ---- trace-dat-spool-dir.c: the spool directory, and a trace.dat made from it ---- */

/*
 * PATH.spool/ holds what a trace.dat of PATH needs while it is recorded: head (the file's
 * start up to the flyrecord section: layout, formats, kallsyms, printk formats, cmdlines,
 * options, as they were at the start), clock (trace_clock's text) and cpu0..cpuN-1 (each
 * CPU's sub-buffers as drained).
 */
struct td_spool_dir {
	char *path;			/* PATH.spool */
	int fd;				/* the directory, for openat() */
	bool head;			/* head and clock were written whole */
};

struct td_head_params {
	struct tracefs_instance *inst;
	const struct td_layout *layout;
	const struct td_events *events;
	int nr_cpus;
	const char *version;
	const char *clock;
	int level;			/* the writer's compression level: recovery writes the same */
};

/*
 * The spool's files besides head, clock and cpuN: which instance the events came from
 * (absent for the top level), and the zstd level the file was asked for (absent: none).
 */
#define TD_SPOOL_INSTANCE	"instance"
#define TD_SPOOL_COMPRESSION	"compression"

/* Create PATH.spool (it must not exist) and write head and clock. 0 or -errno, logged; a
 * head that does not fit is only warned about (the recording goes on, unrecoverable). */
int td_spool_dir__create(struct td_spool_dir *d, const char *path,
			 const struct td_head_params *p);
/*
 * Lay out PATH from PATH.spool's head, flyrecord and CPU files (whole sub-buffers, the
 * newest left out when the disk has no room for the layout), rename it to PATH and remove
 * the spool. 0 or -errno, logged.
 */
int td_spool_dir__assemble(const char *path, unsigned int mode);
/*
 * The sub-buffer size a spool's head (open in dir_fd) gives. 0 or -errno, logged naming
 * spool: ENOENT (no head), EINVAL (not a trace.dat version 6 head, or a damaged size).
 */
int td_spool_dir__page_size(int dir_fd, const char *spool, unsigned int *page_size);
/* Remove PATH.spool and what is in it. */
void td_spool_dir__remove(struct td_spool_dir *d);
/* Let go of d without touching the directory (assemble removed it). */
void td_spool_dir__forget(struct td_spool_dir *d);

#endif
