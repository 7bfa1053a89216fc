/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Private to the tracefs room (tracefs/tracefs-*.c): instances, the sub-buffer format, and the
 * tracefs_cpu object with its three ring adapters (mapped, read(2), splice).
 */
#ifndef AUXTRACE_TRACEFS_TRACEFS_INTERNAL_H
#define AUXTRACE_TRACEFS_TRACEFS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <internal/lib.h>
#include <internal/ring.h>
#include <tracefs/tracefs.h>

/* ---- tracefs-utils.c: where tracefs is, and small file I/O ---- */

struct tracefs_instance {
	char *name;		/* NULL: the top level */
	char *trace_dir;	/* the tracing directory it lives in */
	char *dir;		/* absolute path of the instance directory */
	bool is_new;		/* created by tracefs_instance_create */
};

/* The directory of instance (the top level for NULL), or NULL with errno when no tracefs. */
const char *tracefs__dir(struct tracefs_instance *instance);

/*
 * "<instance dir>/<file>", malloc'ed; NULL with errno. EINVAL (logged) for a file that would
 * leave the instance: absolute, or with a ".." component.
 */
char *tracefs__path(struct tracefs_instance *instance, const char *file);

/* Read a whole (pseudo) file into a NUL-terminated malloc'ed buffer. Bytes, or -errno. */
ssize_t tracefs__read_path(const char *path, char **buf);

/* Replace a file's content with str (O_TRUNC). Bytes written, or -errno. */
int tracefs__write_path(const char *path, const char *str);
/* Write str to fd (opened O_TRUNC), then close fd. Bytes written, or -errno. */
int tracefs__write_fd(int fd, const char *str);

/* ---- tracefs-page.c: the sub-buffer format (spec §2) ---- */

#define RB_COMMIT_MASK		0x07ffffffu	/* data bytes in the low word of commit */
#define RB_MISSED_EVENTS	(1u << 31)	/* events were lost before this sub-buffer */
#define RB_MISSED_STORED	(1u << 30)	/* ... and their count follows the data */
#define RB_MISSED_FLAGS		(RB_MISSED_EVENTS | RB_MISSED_STORED)
#define RB_LONG_MAX		8		/* widest kernel long: commit word, lost count */
#define RB_SUBBUF_MIN		4096u		/* the smallest page of any architecture */
#define RB_SUBBUF_MAX		(RB_COMMIT_MASK + 1u)	/* what a commit word can describe */

/* Sub-buffer geometry of one instance, from its events/header_page. */
struct rb_layout {
	unsigned int data_off;		/* 8 + kernel long: 16 (64-bit kernel) or 12 */
	unsigned int long_size;		/* width of the commit word and of a stored count */
	unsigned int subbuf_size;	/* header included: the unit of every read */
};

/* Parse header_page text. 0 or -EINVAL (the message names what did not fit). */
int rb_layout__parse(struct rb_layout *l, const char *header_page);

/*
 * Set the sub-buffer size, header included: a power of two from RB_SUBBUF_MIN to
 * RB_SUBBUF_MAX, above data_off. 0, or -EINVAL (nothing logged) for any other size.
 */
int rb_layout__set_subbuf_size(struct rb_layout *l, unsigned long size);

/* Read and parse <instance>/events/header_page. 0 or -errno. */
int rb_layout__read(struct rb_layout *l, struct tracefs_instance *instance);

static inline unsigned int rb_layout__capacity(const struct rb_layout *l)
{
	return l->subbuf_size - l->data_off;
}

/*
 * The low 32 bits of a sub-buffer's commit word (flags + size), loaded once: on a mapped
 * page the writer may be growing it. 64-bit kernels sign-extend the flags into the high half,
 * so only the low word means anything.
 */
uint32_t rb_page__commit(const void *page, const struct rb_layout *l);

static inline uint32_t rb_commit__size(uint32_t commit)
{
	return commit & RB_COMMIT_MASK;
}

/* Lost events announced by a sub-buffer: 0 none, -1 some but uncounted, else the count. */
int64_t rb_page__lost(const void *page, const struct rb_layout *l, uint32_t commit);

/*
 * Whether the writer may still be on a sub-buffer that read(2) copied out. The kernel gives
 * no sign, and read(2) drops the padding that closes a page the writer left, so such a page
 * keeps up to one record's worth of room unused. So: room for every record on it (and at
 * least for the smallest one, 8 bytes), and no lost-events mark (the kernel only marks pages
 * the writer left). A drain stops after such a sub-buffer and waits instead of spinning on
 * the live page. The walk ends at the first record longer than the room, which proves the
 * page finished: on a full page of like-sized events that is the first one.
 */
bool rb_page__maybe_live(const void *page, const struct rb_layout *l, uint32_t commit);

/*
 * The events (data records) of a whole sub-buffer, as trace-cmd report lists them: padding
 * and time stamps are not events. The walk stops at a record that does not fit.
 */
uint32_t rb_page__nr_events(const void *page, const struct rb_layout *l);

/* The commit word's part of rb_page__check: the data and a stored count fit. 0 or -EBADMSG. */
int rb_commit__check(uint32_t commit, const struct rb_layout *l);

/*
 * Whether libtraceevent's kbuffer can parse the sub-buffer at page with this commit word
 * without reading past it or stepping in place: the data and a stored lost count fit in
 * the sub-buffer, and every record lies inside the data. 0 or -EBADMSG. kbuffer trusts
 * all of it, so every sub-buffer handed to it, or to a caller who will, passes here first.
 */
int rb_page__check(const void *page, const struct rb_layout *l, uint32_t commit);

/*
 * The running timestamp after every record before data offset off, as libtraceevent's kbuffer
 * computes it (padding deltas included), so that a piece starting at off can be handed out
 * as a standalone sub-buffer whose header carries it and whose records stay byte-identical.
 */
uint64_t rb_page__ts_at(const void *page, const struct rb_layout *l, uint32_t off);

/*
 * A byte range [from, to) of one sub-buffer's data, handed out as a standalone sub-buffer of
 * exactly subbuf_size bytes: a fresh header (scratch), the data in place, the lost count when
 * this piece carries the page's MISSED mark, zeros to the end. Never copies the data.
 */
struct rb_piece {
	const char *page;
	uint32_t from, to;
	uint32_t flags;			/* RB_MISSED_* to keep: only on a page's first piece */
	uint32_t page_size;		/* the page's own data size (where a stored count sits) */
	unsigned char hdr[8 + RB_LONG_MAX];
	unsigned char lost[RB_LONG_MAX];
};

/* rb_page__check for the records of a piece: every one lies inside [from, to). */
int rb_piece__check(const struct rb_piece *p, const struct rb_layout *l);

/* Fill the scratch header of piece p and append its iovecs (at most 4) to win. */
void rb_piece__window(struct rb_piece *p, const struct rb_layout *l, const void *zeros,
		      struct ring_window *win);

/* ---- the tracefs_cpu object (tracefs-cpu.c) and its ring adapters ---- */

struct trace_map;

/*
 * The longest a blocking call leaves events on the page the writer is on (mapped) before it
 * takes them: auxrec's round.
 */
#define TCPU_ROUND_MS 10

struct tracefs_cpu {
	struct ring ring;		/* one adapter: held, then mapped, read(2) or splice */
	int fd;				/* trace_pipe_raw, always O_NONBLOCK: waiting is poll's job */
	int stop_fd;			/* eventfd that tracefs_cpu_stop() signals */
	int cpu;
	bool perm_nonblock;		/* opened nonblocking, or stopped */
	int stopped;			/* set by tracefs_cpu_stop(), possibly from another thread */
	bool need_wait;			/* the last call drained to empty or to the live page */
	/*
	 * The most a batch (drain, write, pipe) moves in one call: the CPU buffer's size, what
	 * could be ready when it started, so that a producer faster than the sink cannot keep
	 * a call going for ever; 0 when unknown (tracefs_cpu_alloc_fd).
	 */
	size_t batch_bytes;
	struct rb_layout layout;
	struct kbuffer *kbuf;		/* what the _buf calls hand back */
	char *buffer;			/* subbuf_size bytes: read(2) target, copies for kbuf */
	const void *zeros;		/* subbuf_size zero bytes (a read-only anonymous map) */

	/* read(2) and splice: a sub-buffer already taken from the kernel but not by a sink */
	char *held;			/* NULL, or where it lies (buffer or the caller's) */
	bool held_live;			/* it may be the page the writer is still on */
	int splice_pipe[2];		/* created on the first splice */
	int pipe_size;			/* bytes the pipe really holds (F_GETPIPE_SZ) */
	size_t buffered;		/* bytes waiting in the splice pipe */

	struct trace_map *map;		/* NULL unless mapped */
	struct tracefs_cpu_syscalls sys;

	/*
	 * Records are the kernel's own count of events read from this CPU buffer ("read
	 * events" of per_cpu/cpuN/stats, the meta's read when mapped), looked at when asked
	 * for: walking every copied sub-buffer to count them would cost more than the read.
	 */
	int stats_fd;			/* per_cpu/cpu<cpu>/stats, or -1 */
	uint64_t read_base;		/* the count when we started counting */
	uint64_t read_seen;		/* the count at the last look */
	uint64_t read_before;		/* events read before the buffer was last reset */
	/*
	 * Losses where no sub-buffer passes through our hands (splice windows): the kernel's
	 * own count of events lost on this CPU ("overrun" + "dropped events" of the stats),
	 * as of the last loss we accounted.
	 */
	uint64_t kernel_lost_seen;
};

/* A read of a tracefs_cpu: the core's request, and what this ring kind needs besides. */
struct tracefs_cpu_request {
	struct ring_request req;
	bool splice;			/* unmapped: through our pipe rather than read(2) */
	bool check;			/* drop what rb_page__check refuses: -EBADMSG */
	bool leave_open;		/* mapped: leave the writer's page to the next call */
	char *target;			/* where read(2) lands: tcpu->buffer or the caller's */
};

static inline const struct tracefs_cpu_request *
tracefs_cpu_request(const struct ring_request *req)
{
	return container_of(req, const struct tracefs_cpu_request, req);
}

/* ---- tracefs-cpu-stats.c: the kernel's per-CPU counters (per_cpu/cpuN/stats) ---- */

/* The values of the nr "key:" lines of the stats file into v. 0 or -errno. */
int tracefs_cpu__kernel_stats(struct tracefs_cpu *tcpu, const char *const *keys, uint64_t *v,
			      int nr);
/*
 * Account what the kernel lost since the last look as one loss report (splice windows,
 * whose sub-buffers we never see), or only remember where the count stands (after a
 * lost-events mark was accounted from a sub-buffer, so the same loss is not counted twice).
 */
void tracefs_cpu__account_kernel_lost(struct tracefs_cpu *tcpu);
void tracefs_cpu__sync_kernel_lost(struct tracefs_cpu *tcpu);

/* ---- tracefs-read.c: the unmapped paths, and what was taken but not yet handed out ---- */

/*
 * Every path first offers a sub-buffer already taken from the kernel (held), then what the
 * splice pipe still holds: older data goes out first whatever path reads next. A window of
 * the pipe goes to a sink that splices as it is; to any other sink one sub-buffer at a time,
 * through the held buffer. 1 window, 0 none, -errno.
 */
int tracefs_cpu__peek_held(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			   struct ring_window *win);
/* read(2) one sub-buffer into rd->target and offer it. 1, 0 (no data), -errno. */
int tracefs_cpu__peek_read(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			   struct ring_window *win);
/* Splice what the kernel has into our pipe and offer it. 1, 0 (no data), -errno. */
int tracefs_cpu__peek_splice(struct tracefs_cpu *tcpu, const struct tracefs_cpu_request *rd,
			     struct ring_window *win);
/* Whether win is one tracefs-read.c offered; then commit it here. */
bool tracefs_cpu__is_read_window(const struct tracefs_cpu *tcpu, const struct ring_window *win);
void tracefs_cpu__commit_read(struct tracefs_cpu *tcpu, struct ring_window *win, size_t taken);

/* ---- tracefs-map.c: the mapped path (spec §1.4) ---- */

/*
 * Map the CPU buffer of tcpu->fd. 0 or -errno (logged with cause and fallback). The mapping
 * takes the meta's sub-buffer size, which may differ from tcpu->layout's: the caller resizes
 * its scratch to trace_map__subbuf_size() before reading.
 */
int trace_map__new(struct tracefs_cpu *tcpu, struct trace_map **mapp);
/*
 * Unmap. Bytes the kernel already counted as read but no sink took are copied to dst
 * (subbuf_size bytes) as a standalone sub-buffer: returns true when it did.
 */
bool trace_map__delete(struct trace_map *m, const struct rb_layout *l, const void *zeros,
		       char *dst);
unsigned int trace_map__subbuf_size(const struct trace_map *m);
/* The meta's count of events read, as of the last GET_READER. */
uint64_t trace_map__events_read(const struct trace_map *m);

/*
 * The buffer was reset under the mapping (cleared, trace_clock changed) since the last
 * peek: the kernel's count of events read stood at `events` in all before its resets.
 */
struct trace_map_reset {
	unsigned int resets;
	uint64_t events;
};

/*
 * The next piece of the reader page, or 0 when the kernel has nothing new, or when
 * leave_open and the piece is on the page the writer is on, which is then left once: the
 * next call takes it (trace_map__left_open() says so meanwhile). -errno.
 */
int trace_map__peek(struct tracefs_cpu *tcpu, bool leave_open, struct ring_window *win,
		    struct trace_map_reset *reset);
bool trace_map__left_open(const struct trace_map *m);
/* The sink took the piece peek offered: count its lost-events mark into ring's stats. */
void trace_map__commit(struct trace_map *m, struct ring *ring, const struct rb_layout *l);

/* rb_piece__check for the piece peek offered. */
int trace_map__check(const struct trace_map *m, const struct rb_layout *l);

/*
 * If iov is the window of a mapped piece that starts at its page's first byte, that page:
 * a kbuffer can then be loaded on the mapping itself.
 */
const char *trace_map__whole_page(const struct trace_map *m, const struct iovec *iov,
				  int iovcnt);

#endif
