// SPDX-License-Identifier: LGPL-2.1
/*
 * The ftrace ring buffer through libauxtrace's tracefs_cpu API, side by side with a bare loop
 * of the same system calls written here: the limit each method can reach on this kernel.
 *
 *   mapped   tracefs_cpu_read_buf on a mapped CPU buffer, every event walked in place with
 *            libtraceevent's kbuffer;  bare: mmap + TRACE_MMAP_IOCTL_GET_READER + the same walk
 *   read     tracefs_cpu_read into our buffer + the same walk;  bare: read(2) + the walk
 *   splice   tracefs_cpu_write into a file on /dev/shm, no walk;
 *            bare: splice(2) trace_pipe_raw -> pipe -> file
 *
 * Two measurements, round after round, reported as medians:
 *   pre-filled  a fresh instance's CPU 0 buffer filled with trace_marker writes (tracing off
 *               afterwards), then drained once: consumer CPU time per sub-buffer;
 *   live        a thread pinned to the producer CPU calls getppid() with
 *               syscalls:sys_enter_getppid enabled; the consumer (this thread, on the consumer
 *               CPU) sleeps in poll until buffer_percent and drains to empty on each wakeup:
 *               events/s delivered, losses, consumer CPU, wakeups and system calls. The
 *               producer alone (no consumer) is the ceiling: once into a buffer the run cannot
 *               fill, once in bursts on a buffer of the live size (what that size alone costs).
 *               Rates against the ceiling count events per producer CPU-second: the machine
 *               may be shared, and time another task takes from the producer is no method's.
 *   libtracefs  the live load again through the libtracefs API (blocking tracefs_cpu_read +
 *               walk, tracefs_cpu_write), one loop (tracefs-loop/) built against this library
 *               and against the system's libtracefs, both run in each round: CPU per event
 *               ours/theirs, the bare loops above as the floor.
 *
 * Every instance is named auxtrace-bench-<pid>-... and removed at exit, also on errors and
 * SIGINT; top-level tracing state is never touched. Figures only: the exit code says whether
 * the bench could run, never how fast it was.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <tracefs/tracefs.h>
#include <internal/trace_mmap.h>

#include "bpf-getppid.h"
#include "util.h"

#define NAME "bench-tracefs"
#define PROD_CPU 0
#define CONS_CPU 1
#define RB_MISSED_EVENTS (1u << 31)
#define RB_MISSED_STORED (1u << 30)
#define RB_SIZE_MASK 0x07ffffffu
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct opts {
	double seconds;		/* producer run per live row */
	int reps;		/* repetitions of every row; the median is printed */
	unsigned int marker;	/* bytes per trace_marker write (pre-filled) */
	unsigned int fill_kb;	/* pre-filled buffer per CPU */
	unsigned int live_kb;	/* live buffer per CPU */
	unsigned int ceiling_kb;	/* producer-alone buffer on the producer CPU */
	int percent;		/* buffer_percent of the live rows */
	bool pre, live;		/* which measurements to run */
	bool verbose;		/* every round's figures on stderr */
};

static struct opts opts;
static volatile sig_atomic_t interrupted;
static char inst_prefix[64];
static char shm_path[96];
static volatile uint64_t walk_sink;	/* keeps the walks' payload loads alive */

static int fail(const char *what, int err)
{
	fprintf(stderr, NAME ": %s: %s\n", what, strerror(err < 0 ? -err : err));
	return err < 0 ? err : -err;
}

/* ---- signals: end the current row, clean up, exit ---------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: poll sees EINTR */
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Threads we start must not take the signals: the consumer has to see EINTR. */
static int start_thread_quietly(int (*start)(void *), void *arg)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = start(arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

/* ---- instances ----------------------------------------------------------------------------- */

static struct tracefs_instance *instance_new(const char *tag)
{
	static unsigned int seq;
	struct tracefs_instance *inst;
	char name[128];

	snprintf(name, sizeof(name), "%s%s-%u", inst_prefix, tag, seq++);
	inst = tracefs_instance_create(name);
	if (!inst) {
		fail("creating a tracefs instance", errno);
		return NULL;
	}
	if (!tracefs_instance_is_new(inst)) {
		fprintf(stderr, NAME ": instance %s already exists\n", name);
		tracefs_instance_free(inst);
		return NULL;
	}
	return inst;
}

static void instance_drop(struct tracefs_instance *inst)
{
	if (!inst)
		return;
	if (tracefs_instance_destroy(inst))
		fail("removing a tracefs instance", errno);
	tracefs_instance_free(inst);
}

/* Whatever an early exit left behind: every instance under our prefix. */
static void instances_sweep(void)
{
	const char *top = tracefs_tracing_dir();
	char dir[512], path[1024];
	struct dirent *d;
	DIR *dp;

	if (!top)
		return;
	snprintf(dir, sizeof(dir), "%s/instances", top);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)))
		if (!strncmp(d->d_name, inst_prefix, strlen(inst_prefix))) {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			if (rmdir(path))
				fprintf(stderr, NAME ": rmdir %s: %s\n", path, strerror(errno));
		}
	closedir(dp);
}

/* tracefs_instance_file_write() returns the bytes written: 0 or -errno here. */
static int instance_write(struct tracefs_instance *inst, const char *file, const char *str)
{
	int n = tracefs_instance_file_write(inst, file, str);

	return n < 0 ? n : 0;
}

/* per_cpu/cpu<cpu>/stats: "name: value" lines. */
struct cpu_stats {
	uint64_t overrun, dropped;
};

static int cpu_stats__read(struct tracefs_instance *inst, int cpu, struct cpu_stats *st)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "overrun:", offsetof(struct cpu_stats, overrun) },
		{ "dropped events:", offsetof(struct cpu_stats, dropped) },
	};
	char file[64], *text, *line;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(inst, file, NULL);
	if (!text)
		return -errno;
	*st = (struct cpu_stats){ 0 };
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		for (size_t i = 0; i < ARRAY_LEN(keys); i++)
			if (!strncmp(line, keys[i].key, strlen(keys[i].key)))
				*(uint64_t *)((char *)st + keys[i].off) =
					strtoull(line + strlen(keys[i].key), NULL, 10);
	free(text);
	return 0;
}

/* ---- the sub-buffer layout and the walk every parsing method does ------------------------- */

struct layout {
	unsigned int data_off;		/* 8 + kernel long */
	unsigned int long_size;
	unsigned int subbuf_size;
};

static int layout__read(struct tracefs_instance *inst, struct layout *l)
{
	char *text = tracefs_instance_file_read(inst, "events/header_page", NULL);
	unsigned int c_off, c_size, d_off, d_size;
	const char *c, *d;
	int ok;

	if (!text)
		return fail("reading events/header_page", errno);
	c = strstr(text, " commit;");
	d = strstr(text, " data;");
	ok = c && d && sscanf(c, " commit; offset:%u; size:%u;", &c_off, &c_size) == 2 &&
	     sscanf(d, " data; offset:%u; size:%u;", &d_off, &d_size) == 2 &&
	     (c_size == 4 || c_size == 8) && d_off == 8 + c_size;
	free(text);
	if (!ok)
		return fail("events/header_page: unknown layout", EPROTO);
	*l = (struct layout){ .data_off = d_off, .long_size = c_size,
			      .subbuf_size = d_off + d_size };
	return 0;
}

static uint32_t page_commit(const struct layout *l, const void *page)
{
	const char *p = (const char *)page + 8;

	if (l->long_size == 8)
		return (uint32_t)__atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
}

/*
 * Whether the writer may still be on a mapped sub-buffer holding `size` data bytes: a page
 * the writer left is closed by a padding record that its commit counts, so it has no room.
 */
static bool page_is_partial(const struct layout *l, uint32_t commit, uint32_t size)
{
	return !(commit & RB_MISSED_EVENTS) && size + 8 <= l->subbuf_size - l->data_off;
}

/*
 * Whether a sub-buffer that read(2) returned may be the one the writer is still filling.
 * read(2) and splice drop the padding that closes a finished page, so free bytes prove
 * nothing: a finished page has less room than the record that did not fit. Room for the
 * largest record on the page is the sign of a live one; a wrong guess costs one more read.
 */
static bool read_page_may_grow(struct kbuffer *kb, void *page, const struct layout *l)
{
	uint32_t commit = page_commit(l, page);
	uint32_t room = l->subbuf_size - l->data_off - (commit & RB_SIZE_MASK), largest = 8;
	unsigned long long ts;
	void *rec;

	if ((commit & RB_MISSED_EVENTS) || room < largest)
		return false;
	kbuffer_load_subbuffer(kb, page);
	for (rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts))
		if ((uint32_t)kbuffer_curr_size(kb) > largest)
			largest = kbuffer_curr_size(kb);
	return room >= largest;
}

struct walk {
	uint64_t events;
	uint64_t lost;		/* in-band: the kernel's marks on the sub-buffers we saw */
	uint64_t sum;
};

/* What a parsing consumer does with each event: find it, read its type and pid. */
static inline void walk_event(struct walk *w, const void *rec)
{
	const unsigned char *p = rec;

	w->events++;
	w->sum += (uint64_t)(p[0] | p[1] << 8) + (uint64_t)p[4];
}

/* A kbuffer just loaded on a sub-buffer: its lost-events mark, then every event. */
static void walk_kbuf(struct walk *w, struct kbuffer *kb)
{
	int missed = kbuffer_missed_events(kb);
	unsigned long long ts = 0;
	void *rec;

	w->lost += missed < 0 ? 1 : missed;	/* unknown counts as one */
	for (rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts))
		walk_event(w, rec);
	w->sum += ts;
}

/* The events of data bytes [from, to) of a mapped page the writer may still be filling. */
static void walk_range(struct walk *w, struct kbuffer *kb, void *page, uint32_t from, uint32_t to)
{
	unsigned long long ts;
	void *rec;
	int missed;

	kbuffer_load_subbuffer(kb, page);
	if (!from && (uint32_t)kbuffer_subbuffer_size(kb) <= to) {
		walk_kbuf(w, kb);
		return;
	}
	missed = from ? 0 : kbuffer_missed_events(kb);	/* the mark belongs to the first piece */
	w->lost += missed < 0 ? 1 : missed;
	for (rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts)) {
		uint32_t at = kbuffer_curr_index(kb);

		if (at >= to)
			break;
		if (at >= from)
			walk_event(w, rec);
	}
}

static struct kbuffer *kbuf_new(const struct layout *l)
{
	return kbuffer_alloc(l->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			     KBUFFER_ENDIAN_SAME_AS_HOST);
}

/* The sub-buffers a splice row wrote, walked after the clock stopped: events and losses. */
static int walk_file(int fd, const struct layout *l, struct kbuffer *kb, struct walk *w)
{
	struct stat st;
	char *map;

	if (fstat(fd, &st))
		return fail("fstat of the splice file", errno);
	if (!st.st_size)
		return 0;
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap of the splice file", errno);
	for (size_t off = 0; off + l->subbuf_size <= (size_t)st.st_size; off += l->subbuf_size) {
		kbuffer_load_subbuffer(kb, map + off);
		walk_kbuf(w, kb);
	}
	munmap(map, st.st_size);
	return 0;
}

/* ---- readers: one per method and implementation -------------------------------------------- */

struct reader;

/* How far one step of a reader may go. */
enum step {
	STEP_WAIT,	/* the library's blocking call: it waits per buffer_percent itself */
	STEP_EDGE,	/* what is readable now, up to the sub-buffer the writer may be on */
	STEP_ALL,	/* everything readable now, through the method's own path */
	STEP_FLUSH,	/* the end of a recording: the partial sub-buffer too, by any path */
};

struct reader_ops {
	const char *method;
	bool parses;		/* walks every event (else the events are counted from the file) */
	int (*open)(struct reader *r);
	/* >0 moved data, 0 nothing more (EAGAIN), -errno. */
	int (*step)(struct reader *r, enum step how);
	void (*stop)(struct reader *r);
	void (*close)(struct reader *r);
};

struct reader {
	const struct reader_ops *ops;
	bool bare;
	struct tracefs_instance *inst;
	struct layout layout;
	struct kbuffer *kb;
	char *buf;			/* one sub-buffer */
	int out_fd;			/* splice rows: the file on /dev/shm */
	struct walk walk;

	/* libauxtrace */
	struct tracefs_cpu *tcpu;

	/* bare */
	int fd, stop_fd;
	int pipe[2];
	size_t pipe_size;
	volatile struct trace_buffer_meta *meta;
	size_t meta_len;
	char *data;
	size_t data_len;
	uint32_t id, off;		/* the reader sub-buffer and its data bytes walked */
	uint64_t subbufs, waits, syscalls;
	uint64_t edge;			/* calls that took (part of) the page the writer is on */
};

/* -- libauxtrace -- */

static int lib_open(struct reader *r, bool mapped)
{
	r->tcpu = (mapped ? tracefs_cpu_open_mapped : tracefs_cpu_open)(r->inst, PROD_CPU, false);
	if (!r->tcpu)
		return fail("tracefs_cpu_open", errno);
	if (mapped && !tracefs_cpu_is_mapped(r->tcpu))
		return fail("tracefs_cpu_open_mapped did not map", EOPNOTSUPP);
	if (tracefs_cpu_read_size(r->tcpu) != (int)r->layout.subbuf_size)
		return fail("tracefs_cpu_read_size differs from header_page", EPROTO);
	return 0;
}

static int lib_open_mapped(struct reader *r)
{
	return lib_open(r, true);
}

static int lib_open_unmapped(struct reader *r)
{
	return lib_open(r, false);
}

/* The library's "none": 0 / NULL with errno EAGAIN. Anything else is an error. */
static int lib_none(void)
{
	return errno == EAGAIN ? 0 : -errno;
}

static int lib_step_mapped(struct reader *r, enum step how)
{
	struct kbuffer *kb = how == STEP_FLUSH ? tracefs_cpu_flush_buf(r->tcpu)
					       : tracefs_cpu_read_buf(r->tcpu, how != STEP_WAIT);

	if (!kb)
		return lib_none();
	walk_kbuf(&r->walk, kb);
	return 1;
}

static int lib_step_read(struct reader *r, enum step how)
{
	int n = how == STEP_FLUSH ? tracefs_cpu_flush(r->tcpu, r->buf)
				  : tracefs_cpu_read(r->tcpu, r->buf, how != STEP_WAIT);

	if (n <= 0)
		return n < 0 ? n : lib_none();
	kbuffer_load_subbuffer(r->kb, r->buf);
	walk_kbuf(&r->walk, r->kb);
	return 1;
}

static int lib_step_splice(struct reader *r, enum step how)
{
	int n = how == STEP_FLUSH ? tracefs_cpu_flush_write(r->tcpu, r->out_fd)
				  : tracefs_cpu_write(r->tcpu, r->out_fd, how != STEP_WAIT);

	return n <= 0 ? (n < 0 ? n : lib_none()) : 1;
}

static void lib_stop(struct reader *r)
{
	tracefs_cpu_stop(r->tcpu);
}

static void lib_close(struct reader *r)
{
	const struct tracefs_cpu_syscalls *sys;

	if (!r->tcpu)
		return;
	sys = tracefs_cpu_syscall_stats(r->tcpu);
	r->subbufs = tracefs_cpu_stats(r->tcpu)->chunks;
	r->waits = sys->waits;
	r->syscalls = sys->waits + sys->get_reader + sys->reads + sys->splices;
	r->edge = sys->edge;
	tracefs_cpu_close(r->tcpu);
	r->tcpu = NULL;
}

/* -- bare: the same system calls, nothing else -- */

static int bare_open(struct reader *r)
{
	char file[64], *path;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", PROD_CPU);
	path = tracefs_instance_get_file(r->inst, file);
	if (!path)
		return fail("trace_pipe_raw path", errno);
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (r->fd < 0)
		return fail("open trace_pipe_raw", errno);
	r->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->stop_fd < 0)
		return fail("eventfd", errno);
	return 0;
}

static int bare_open_mapped(struct reader *r)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;
	int err = bare_open(r);

	if (err)
		return err;
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		return fail("mmap of the meta page", errno);
	r->meta = p;
	r->meta_len = page;
	if (r->meta->meta_page_size > page) {
		r->meta_len = r->meta->meta_page_size;
		munmap(p, page);
		p = mmap(NULL, r->meta_len, PROT_READ, MAP_SHARED, r->fd, 0);
		r->meta = p == MAP_FAILED ? NULL : p;
		if (!r->meta)
			return fail("mmap of the meta area", errno);
	}
	r->data_len = (size_t)r->meta->subbuf_size * r->meta->nr_subbufs;
	p = mmap(NULL, r->data_len, PROT_READ, MAP_SHARED, r->fd, r->meta->meta_page_size);
	if (p == MAP_FAILED)
		return fail("mmap of the sub-buffers", errno);
	r->data = p;
	r->id = r->meta->reader.id;
	r->off = r->meta->reader.read;
	return 0;
}

static int bare_open_splice(struct reader *r)
{
	unsigned long long max = 1 << 20;
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");
	int err = bare_open(r), got;

	if (err)
		return err;
	if (f) {
		if (fscanf(f, "%llu", &max) != 1)
			max = 1 << 20;
		fclose(f);
	}
	if (pipe2(r->pipe, O_CLOEXEC | O_NONBLOCK))
		return fail("pipe2", errno);
	fcntl(r->pipe[1], F_SETPIPE_SZ, (int)max);
	got = fcntl(r->pipe[1], F_GETPIPE_SZ);
	if (got < (int)r->layout.subbuf_size)
		return fail("F_GETPIPE_SZ: pipe smaller than a sub-buffer", ENOSPC);
	r->pipe_size = got - got % r->layout.subbuf_size;
	return 0;
}

/* mmap + GET_READER: walk what the kernel counted as read; ask again when it is walked. */
static int bare_step_mapped(struct reader *r, enum step how)
{
	uint32_t id, rd, from;
	char *page;

	r->syscalls++;
	if (ioctl(r->fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
		return -errno;
	id = r->meta->reader.id;
	rd = r->meta->reader.read;
	if (id == r->id && rd == r->off)
		return 0;
	from = id == r->id ? r->off : 0;
	r->id = id;
	r->off = rd;
	page = r->data + (size_t)id * r->layout.subbuf_size;
	if (rd > from) {
		walk_range(&r->walk, r->kb, page, from, rd);
		r->subbufs++;
	}
	/* the page the writer may still be on: wait (poll) rather than spin on it */
	if (page_is_partial(&r->layout, page_commit(&r->layout, page), rd)) {
		r->edge += rd > from;
		if (how == STEP_EDGE)
			return 0;
	}
	return 1;
}

static int bare_step_read(struct reader *r, enum step how)
{
	ssize_t n;

	do {
		r->syscalls++;
		n = read(r->fd, r->buf, r->layout.subbuf_size);
	} while (n < 0 && errno == EINTR && !interrupted);
	if (n <= 0)
		return n < 0 && errno != EAGAIN ? -errno : 0;
	r->subbufs++;
	kbuffer_load_subbuffer(r->kb, r->buf);
	walk_kbuf(&r->walk, r->kb);
	if (read_page_may_grow(r->kb, r->buf, &r->layout)) {
		r->edge++;
		if (how == STEP_EDGE)
			return 0;
	}
	return 1;
}

static int splice_all(struct reader *r, size_t len)
{
	while (len) {
		ssize_t n;

		r->syscalls++;
		n = splice(r->pipe[0], NULL, r->out_fd, NULL, len, SPLICE_F_MOVE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		len -= n;
	}
	return 0;
}

/* splice only hands out whole sub-buffers; the flush reads the live one with read(2). */
static int bare_step_splice(struct reader *r, enum step how)
{
	ssize_t n;
	int err;

	r->syscalls++;
	n = splice(r->fd, NULL, r->pipe[1], NULL, r->pipe_size, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return -errno;
	if (n > 0) {
		err = splice_all(r, n);
		if (err)
			return err;
		r->subbufs += n / r->layout.subbuf_size;
		return 1;
	}
	if (how != STEP_FLUSH)
		return 0;
	r->syscalls++;
	n = read(r->fd, r->buf, r->layout.subbuf_size);
	if (n <= 0)
		return n < 0 && errno != EAGAIN ? -errno : 0;
	r->syscalls++;
	if (write(r->out_fd, r->buf, r->layout.subbuf_size) != (ssize_t)r->layout.subbuf_size)
		return -EIO;
	r->subbufs++;
	return 1;
}

static void bare_stop(struct reader *r)
{
	uint64_t one = 1;

	if (write(r->stop_fd, &one, sizeof(one)) < 0)
		fail("eventfd write", errno);
}

static void bare_close(struct reader *r)
{
	if (r->data)
		munmap(r->data, r->data_len);
	if (r->meta)
		munmap((void *)r->meta, r->meta_len);
	r->data = NULL;
	r->meta = NULL;
	for (int i = 0; i < 2; i++)
		if (r->pipe[i] >= 0)
			close(r->pipe[i]);
	if (r->stop_fd >= 0)
		close(r->stop_fd);
	if (r->fd >= 0)
		close(r->fd);
	r->pipe[0] = r->pipe[1] = r->stop_fd = r->fd = -1;
}

static const struct reader_ops lib_ops[] = {
	{ "mapped read_buf+walk", true, lib_open_mapped, lib_step_mapped, lib_stop, lib_close },
	{ "read + walk", true, lib_open_unmapped, lib_step_read, lib_stop, lib_close },
	{ "splice -> /dev/shm", false, lib_open_unmapped, lib_step_splice, lib_stop, lib_close },
};

static const struct reader_ops bare_ops[] = {
	{ "mapped read_buf+walk", true, bare_open_mapped, bare_step_mapped, bare_stop, bare_close },
	{ "read + walk", true, bare_open, bare_step_read, bare_stop, bare_close },
	{ "splice -> /dev/shm", false, bare_open_splice, bare_step_splice, bare_stop, bare_close },
};

#define NR_METHODS ((int)ARRAY_LEN(lib_ops))

static void reader__close(struct reader *r)
{
	r->ops->close(r);
	if (r->kb)
		kbuffer_free(r->kb);
	free(r->buf);
	r->kb = NULL;
	r->buf = NULL;
}

/* Open the reader of method m on CPU 0 of inst; the splice file is emptied first. */
static int reader__open(struct reader *r, int m, bool bare, struct tracefs_instance *inst,
			int out_fd)
{
	int err;

	*r = (struct reader){ .ops = bare ? &bare_ops[m] : &lib_ops[m], .bare = bare,
			      .inst = inst, .out_fd = out_fd, .fd = -1, .stop_fd = -1,
			      .pipe = { -1, -1 } };
	err = layout__read(inst, &r->layout);
	if (err)
		return err;
	r->kb = kbuf_new(&r->layout);
	r->buf = aligned_alloc(sysconf(_SC_PAGESIZE), r->layout.subbuf_size);
	if (!r->kb || !r->buf)
		return fail("allocating the reader", ENOMEM);
	if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET))
		return fail("truncating the splice file", errno);
	return r->ops->open(r);
}

/* Everything readable now, never waiting (a flush would read splice's last page with read(2)). */
static int reader__drain(struct reader *r)
{
	int n;

	while ((n = r->ops->step(r, STEP_ALL)) > 0)
		;
	return n;
}

/*
 * The live consumer. The library waits inside its blocking calls (poll per buffer_percent,
 * then everything up to the live page); the bare loop does the same by hand. Both end with a
 * flush once the producer stopped them.
 */
static int reader__live(struct reader *r)
{
	int n;

	if (!r->bare) {
		while ((n = r->ops->step(r, STEP_WAIT)) > 0)
			;
	} else {
		for (;;) {
			struct pollfd pfd[2] = { { .fd = r->fd, .events = POLLIN },
						 { .fd = r->stop_fd, .events = POLLIN } };

			r->waits++;
			r->syscalls++;
			if (poll(pfd, 2, -1) < 0) {
				n = -errno;
				break;
			}
			while ((n = r->ops->step(r, STEP_EDGE)) > 0)
				;
			if (n < 0 || (pfd[1].revents & POLLIN))
				break;
		}
	}
	if (n < 0)
		return n == -EINTR && interrupted ? -EINTR : fail(r->ops->method, n);
	while ((n = r->ops->step(r, STEP_FLUSH)) > 0)
		;
	return n < 0 ? fail(r->ops->method, n) : 0;
}

/* ---- the pre-filled drain ---------------------------------------------------------------- */

struct filler {
	struct tracefs_instance *inst;
	int fd;
	pthread_t thread;
	int err;
};

/*
 * trace_marker writes on the producer CPU until the non-overwriting buffer is full: the
 * kernel then refuses the write with EBADF and counts a dropped event.
 */
static void *fill_thread(void *arg)
{
	struct filler *f = arg;
	char msg[4096];
	struct cpu_stats st;

	memset(msg, 'm', opts.marker);
	while (!interrupted) {
		if (write(f->fd, msg, opts.marker) >= 0)
			continue;
		f->err = -errno;
		if (errno == EBADF && !cpu_stats__read(f->inst, PROD_CPU, &st) && st.dropped)
			f->err = 0;
		break;
	}
	return NULL;
}

static int filler__start(void *arg)
{
	struct filler *f = arg;
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	pthread_attr_init(&attr);
	CPU_ZERO(&set);
	CPU_SET(PROD_CPU, &set);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	err = pthread_create(&f->thread, &attr, fill_thread, f);
	pthread_attr_destroy(&attr);
	return -err;
}

static int fill(struct tracefs_instance *inst)
{
	struct filler f = { .inst = inst };
	int err;

	f.fd = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (f.fd < 0)
		return f.fd;
	err = start_thread_quietly(filler__start, &f);
	if (!err) {
		pthread_join(f.thread, NULL);
		err = f.err;
	}
	close(f.fd);
	return err ? err : interrupted ? -EINTR : 0;
}

struct prefill_result {		/* doubles only: medians are taken field by field */
	double us;		/* consumer CPU per sub-buffer */
	double subbufs, events;
};

/* A fresh instance whose CPU 0 buffer is full of markers, tracing off. */
static struct tracefs_instance *prefilled_instance(void)
{
	struct tracefs_instance *inst = instance_new("fill");
	int err;

	if (!inst)
		return NULL;
	err = tracefs_instance_set_buffer_size(inst, opts.fill_kb, -1);
	/* dropping instead of overwriting: "full" is exact and no page carries a loss */
	if (!err)
		err = instance_write(inst, "options/overwrite", "0");
	if (!err)
		err = tracefs_trace_on(inst);
	if (!err)
		err = fill(inst);
	if (!err)
		err = tracefs_trace_off(inst);
	if (err) {
		if (err != -EINTR)
			fail("pre-filling an instance with trace_marker writes", err);
		instance_drop(inst);
		return NULL;
	}
	return inst;
}

/* Events a splice row wrote into the file (walked after the clock stopped), then close. */
static int reader__finish(struct reader *r)
{
	int err = 0;

	if (r->kb && !r->ops->parses)
		err = walk_file(r->out_fd, &r->layout, r->kb, &r->walk);
	if (r->kb)
		reader__close(r);
	walk_sink += r->walk.sum;
	return err;
}

static int run_prefilled(int m, bool bare, int out_fd, struct prefill_result *res)
{
	struct tracefs_instance *inst = prefilled_instance();
	struct reader r;
	double t0 = 0, t1 = 0;
	int err;

	if (!inst)
		return interrupted ? -EINTR : -1;
	err = reader__open(&r, m, bare, inst, out_fd);
	if (!err) {
		/* CPU time: a busy machine may preempt us, which is no method's cost */
		t0 = bench__thread_cpu_s(NULL);
		err = reader__drain(&r);
		t1 = bench__thread_cpu_s(NULL);
		if (err)
			fail(r.ops->method, err);
	}
	if (reader__finish(&r) && !err)
		err = -EIO;
	instance_drop(inst);
	if (err)
		return err;
	res->subbufs = r.subbufs;
	res->events = r.walk.events;
	res->us = (t1 - t0) * 1e6 / (r.subbufs ? r.subbufs : 1);
	return 0;
}

/* ---- the live storm ------------------------------------------------------------------------ */

struct live_result {
	double rate;		/* events/s delivered (wall clock) */
	double ratio;		/* per producer CPU-second, against the ceiling of the same round */
	double cpu;		/* consumer CPU seconds per second */
	double ns_per_event;	/* consumer CPU per event delivered */
	double lib_lost;	/* the library's lost count (lib rows) */
	double inband_lost;	/* the kernel's marks on the sub-buffers delivered */
	double kernel_lost;	/* per_cpu stats: overrun + dropped events */
	double missing;		/* producer calls neither delivered nor reported lost */
	double waits_per_s;
	double waits_per_sb;
	double sys_per_sb;	/* system calls per sub-buffer, waits included */
	double ev_per_call;	/* events per read/GET_READER/splice call (waits not counted) */
	double edge_per_wake;	/* calls that took from the writer's page, per wait */
	double cpu_rate;	/* events per producer CPU-second (for the ratio) */
};

struct live_ctx {
	struct tracefs_instance *inst;
	struct reader *r;	/* NULL: the producer alone */
};

/* In the producer thread when its loop ends: stop the events first, then the consumer. */
static void live_done(void *arg)
{
	struct live_ctx *c = arg;

	tracefs_trace_off(c->inst);
	if (c->r)
		c->r->ops->stop(c->r);
}

static int load_start(void *arg)
{
	return bpf_getppid_load__start(arg);
}

/*
 * An instance recording sys_enter_getppid of this process only (set_event_pid follows the
 * threads it creates): other benchmarks may storm getppid() on the same CPU. Tracing stays
 * off until the producer starts.
 */
static struct tracefs_instance *live_instance(unsigned int kb, int cpu)
{
	struct tracefs_instance *inst = instance_new("live");
	char pid[32];
	int err;

	if (!inst)
		return NULL;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	err = tracefs_trace_off(inst);
	if (!err)
		err = tracefs_instance_set_buffer_size(inst, kb, cpu);
	if (!err)
		err = tracefs_instance_set_buffer_percent(inst, opts.percent);
	if (!err)
		err = instance_write(inst, "options/event-fork", "1");
	if (!err)
		err = instance_write(inst, "set_event_pid", pid);
	if (!err)
		err = tracefs_event_enable(inst, "syscalls", "sys_enter_getppid");
	if (err) {
		fail("setting up the live instance", err);
		instance_drop(inst);
		return NULL;
	}
	return inst;
}

/*
 * The producer unhindered: no consumer, no wakeups. large: one run into a buffer on the
 * producer CPU that the whole run cannot fill (the ceiling). Otherwise bursts of 3/4 of a
 * buffer as large as the live rows', cleared in between: what that buffer size alone costs.
 * Events per producer CPU-second; *lost counts what overflowed.
 */
static int run_ceiling(bool large, double *cpu_rate, double *lost)
{
	struct live_ctx ctx = { .inst = large ? live_instance(opts.ceiling_kb, PROD_CPU)
					      : live_instance(opts.live_kb, -1) };
	struct bpf_getppid_load load = { .cpu = PROD_CPU, .done = live_done, .ctx = &ctx };
	uint64_t calls = 0, elapsed = 0, cpu_ns = 0;
	struct cpu_stats st;
	int err = ctx.inst ? 0 : -1;

	if (large)
		load.duration_ns = opts.seconds * 1e9;
	else	/* sys_enter_getppid takes 16 bytes of a sub-buffer (4 header + 12 payload) */
		load.calls_max = (uint64_t)opts.live_kb * 1024 / 16 * 3 / 4;
	*lost = 0;
	while (!err && !interrupted && elapsed < opts.seconds * 1e9) {
		err = tracefs_instance_clear(ctx.inst);
		if (!err)
			err = tracefs_trace_on(ctx.inst);
		if (!err)
			err = start_thread_quietly(load_start, &load);
		if (err)
			break;
		bpf_getppid_load__join(&load);
		err = cpu_stats__read(ctx.inst, PROD_CPU, &st);
		calls += load.calls;
		elapsed += load.elapsed_ns;
		cpu_ns += load.cpu_ns;
		*lost += st.overrun + st.dropped;
	}
	instance_drop(ctx.inst);
	if (err)
		return fail("producer alone", err);
	*cpu_rate = calls / (cpu_ns / 1e9);
	return interrupted ? -EINTR : 0;
}

static int run_live(int m, bool bare, int out_fd, struct live_result *res)
{
	struct reader r = { .kb = NULL };
	struct live_ctx ctx = { .inst = live_instance(opts.live_kb, -1), .r = &r };
	struct bpf_getppid_load load = { .cpu = PROD_CPU, .done = live_done, .ctx = &ctx };
	struct cpu_stats st = { 0 };
	double cpu0, cpu, secs;
	uint64_t lib_lost = 0;
	bool started = false;
	int err;

	if (!ctx.inst)
		return -1;
	load.duration_ns = opts.seconds * 1e9;
	err = reader__open(&r, m, bare, ctx.inst, out_fd);
	if (!err)
		err = tracefs_trace_on(ctx.inst);
	cpu0 = bench__thread_cpu_s(NULL);
	if (!err)
		err = start_thread_quietly(load_start, &load);
	if (!err) {
		started = true;
		err = reader__live(&r);
	}
	cpu = bench__thread_cpu_s(NULL) - cpu0;
	if (started)
		bpf_getppid_load__join(&load);
	if (!err && !bare)
		lib_lost = tracefs_cpu_stats(r.tcpu)->lost + tracefs_cpu_stats(r.tcpu)->lost_unknown;
	if (reader__finish(&r) && !err)
		err = -EIO;
	if (!err)
		err = cpu_stats__read(ctx.inst, PROD_CPU, &st);
	instance_drop(ctx.inst);
	if (err)
		return err;
	secs = load.elapsed_ns / 1e9;
	*res = (struct live_result){
		.rate = r.walk.events / secs,
		.cpu = cpu / secs,
		.ns_per_event = r.walk.events ? cpu * 1e9 / r.walk.events : 0,
		.lib_lost = lib_lost,
		.inband_lost = r.walk.lost,
		.kernel_lost = st.overrun + st.dropped,
		.missing = (double)load.calls - r.walk.events - st.overrun - st.dropped,
		.waits_per_s = r.waits / secs,
		.waits_per_sb = r.subbufs ? (double)r.waits / r.subbufs : 0,
		.sys_per_sb = r.subbufs ? (double)r.syscalls / r.subbufs : 0,
		.ev_per_call = r.syscalls > r.waits ? (double)r.walk.events / (r.syscalls - r.waits)
						    : 0,
		.edge_per_wake = r.waits ? (double)r.edge / r.waits : 0,
		.cpu_rate = r.walk.events / (load.cpu_ns / 1e9),
	};
	return 0;
}

/* ---- the libtracefs API against the system's libtracefs, in the same run ----------------- */

/*
 * tracefs-loop-ours and tracefs-loop-sys (beside this binary) run one loop on the libtracefs
 * API against each library: they export the same names, so they never share a binary.
 */
static const char *const vs_methods[] = { "read", "splice" };
static const char *const vs_impls[] = { "ours", "sys" };
#define NR_VS ((int)ARRAY_LEN(vs_methods))
#ifndef SYS_LIBTRACEFS
#define SYS_LIBTRACEFS "?"
#endif

struct vs_result {		/* doubles only: medians are taken field by field */
	double rate;		/* events/s delivered (wall clock) */
	double ratio;		/* per producer CPU-second, against the ceiling of the same round */
	double ns_per_event;	/* consumer CPU */
	double lost;		/* the kernel's overrun + dropped */
	double calls_per_s;	/* read/write/flush calls */
};

static int run_vs(int m, int impl, double ceiling, struct vs_result *res)
{
	unsigned long long events, cpu_ns, calls, lost, prod_ns, elapsed_ns;
	char exe[512], cmd[1024], line[512];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	int ok;

	if (len <= 0)
		return fail("readlink /proc/self/exe", errno);
	exe[len] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(cmd, sizeof(cmd), "%s/tracefs-loop-%s %s %g %u %d %d %d %s-loop", exe,
		 vs_impls[impl], vs_methods[m], opts.seconds, opts.live_kb, opts.percent, PROD_CPU,
		 CONS_CPU, shm_path);
	f = popen(cmd, "r");
	if (!f)
		return fail(cmd, errno);
	ok = fgets(line, sizeof(line), f) &&
	     sscanf(line, "events=%llu cpu_ns=%llu calls=%llu lost=%llu prod_cpu_ns=%llu "
		    "elapsed_ns=%llu", &events, &cpu_ns, &calls, &lost, &prod_ns, &elapsed_ns) == 6;
	if (pclose(f) || !ok || !events || !prod_ns || !elapsed_ns) {
		fprintf(stderr, NAME ": %s failed\n", cmd);
		return interrupted ? -EINTR : -EIO;
	}
	*res = (struct vs_result){
		.rate = events / (elapsed_ns / 1e9),
		.ratio = events / (prod_ns / 1e9) / ceiling,
		.ns_per_event = (double)cpu_ns / events,
		.lost = lost,
		.calls_per_s = calls / (elapsed_ns / 1e9),
	};
	return 0;
}

/* ---- driver and report ----------------------------------------------------------------- */

/* Field-wise medians of reps results made of doubles only. */
static void median_fields(const void *runs, int reps, size_t size, void *out)
{
	double v[reps];

	for (size_t f = 0; f < size / sizeof(double); f++) {
		for (int i = 0; i < reps; i++)
			v[i] = ((const double *)((const char *)runs + i * size))[f];
		((double *)out)[f] = bench__median(v, reps);
	}
}

/*
 * The median of the per-round ratios a/b of a field of reps results of each kind (a result
 * of each every `size` bytes): a and b of a round run seconds apart, so a machine that drifts
 * between rounds cancels out of each ratio.
 */
static double median_ratio_of(const void *a, size_t a_size, size_t a_field, const void *b,
			      size_t b_size, size_t b_field, int reps)
{
	double v[reps];

	for (int i = 0; i < reps; i++) {
		double x = *(const double *)((const char *)a + i * a_size + a_field);
		double y = *(const double *)((const char *)b + i * b_size + b_field);

		v[i] = y ? x / y : 0;
	}
	return bench__median(v, reps);
}

/* lib/bare of one field. */
static double median_ratio(const void *lib, const void *bare, int reps, size_t size,
			   size_t field)
{
	return median_ratio_of(lib, size, field, bare, size, field, reps);
}

static void print_prefilled(const struct prefill_result med[][2], const double ratio[])
{
	printf("\n(a) pre-filled drain: %u KiB buffer on CPU %d, %u-byte trace_marker writes, "
	       "consumer on CPU %d;\n    consumer CPU time per sub-buffer, median of %d rounds; "
	       "lib/bare: median of the rounds' ratios\n",
	       opts.fill_kb, PROD_CPU, opts.marker, CONS_CPU, opts.reps);
	printf("%-22s %11s %11s %9s %7s %12s %10s %8s\n", "method", "bare us/sb", "lib us/sb",
	       "lib/bare", "target", "sub-buffers", "events", "ev/sb");
	for (int m = 0; m < NR_METHODS; m++) {
		const struct prefill_result *b = &med[m][1], *l = &med[m][0];

		printf("%-22s %11.2f %11.2f %8.2fx %7s %12.0f %10.0f %8.1f\n", lib_ops[m].method,
		       b->us, l->us, ratio[m], ratio[m] <= 1.1 ? "met" : "MISSED", l->subbufs,
		       l->events, l->subbufs ? l->events / l->subbufs : 0);
		if (b->subbufs != l->subbufs || b->events != l->events)
			printf("%-22s bare drained %.0f sub-buffers, %.0f events\n", "", b->subbufs,
			       b->events);
	}
}

/* ceiling[0]: the producer alone into a large buffer; [1]: in bursts on the live size. */
static void print_live(const double ceiling[2], double ceiling_lost,
		       const struct live_result med[][2], const double ratio[])
{
	char name[64];

	printf("\n(b) live: getppid() on CPU %d for %.1f s with syscalls:sys_enter_getppid, "
	       "%u KiB buffer, buffer_percent %d, consumer on CPU %d; median of %d\n"
	       "    x ceil: events per producer CPU-second against the producer alone (large "
	       "buffer) in the same round\n", PROD_CPU, opts.seconds, opts.live_kb, opts.percent,
	       CONS_CPU, opts.reps);
	printf("%-22s %-4s %9s %6s %8s %7s %6s %7s %7s %8s %7s %7s %6s %7s %7s\n", "method",
	       "impl", "events/s", "x ceil", "lost:lib", "in-band", "kernel", "missing", "cons%",
	       "ns/event", "waits/s", "wait/sb", "sys/sb", "ev/call", "edge/wk");
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "alone, %u KiB%s", i ? opts.live_kb : opts.ceiling_kb,
			 i ? " bursts" : "");
		printf("%-27s %7.3f M %6.2f %8s %7s %6.0f %7s %7s %8s %7s %7s %6s\n", name,
		       ceiling[i] / 1e6, ceiling[i] / ceiling[0], "-", "-", i ? 0 : ceiling_lost,
		       "-", "-", "-", "-", "-", "-");
	}
	for (int m = 0; m < NR_METHODS; m++)
		for (int b = 0; b < 2; b++) {
			const struct live_result *x = &med[m][b];
			char lib_lost[16] = "-";

			if (!b)
				snprintf(lib_lost, sizeof(lib_lost), "%.0f", x->lib_lost);
			printf("%-22s %-4s %7.3f M %6.2f %8s %7.0f %6.0f %7.0f %6.2f%% %8.1f %7.0f "
			       "%7.3f %6.2f %7.1f %7.2f\n", b ? "" : lib_ops[m].method,
			       b ? "bare" : "lib", x->rate / 1e6, x->ratio, lib_lost, x->inband_lost,
			       x->kernel_lost, x->missing, x->cpu * 100, x->ns_per_event,
			       x->waits_per_s, x->waits_per_sb, x->sys_per_sb, x->ev_per_call,
			       x->edge_per_wake);
		}
	printf("(the alone rows are events per producer CPU-second; \"events/s\" of the others is "
	       "wall-clock)\n");
	for (int m = 0; m < NR_METHODS; m++) {
		const struct live_result *x = &med[m][0];

		printf("target %-22s zero loss %s (%.0f); CPU per event lib/bare %.2fx\n",
		       lib_ops[m].method,
		       x->kernel_lost || x->lib_lost || x->inband_lost ? "MISSED" : "met",
		       x->kernel_lost, ratio[m]);
	}
}

/*
 * vs[m][impl]: medians; vs_ratio[m]: median of the rounds' ours/sys CPU per event;
 * mapped_ratio: the mapped lib row of (b) against libtracefs' read loop, per round.
 */
static void print_vs(const struct vs_result vs[][2], const double vs_ratio[], double mapped_ratio,
		     const struct live_result live[][2])
{
	printf("\n(c) the same live load through the libtracefs API, one loop built against "
	       "libauxtrace-tracefs (ours)\n    and against the system's libtracefs " SYS_LIBTRACEFS
	       " (sys), side by side in each round: blocking tracefs_cpu_read + walk,\n"
	       "    tracefs_cpu_write into /dev/shm; median of %d\n", opts.reps);
	printf("%-10s %-5s %9s %6s %7s %8s %8s\n", "method", "impl", "events/s", "x ceil",
	       "lost", "ns/event", "calls/s");
	for (int m = 0; m < NR_VS; m++)
		for (int i = 0; i < 2; i++)
			printf("%-10s %-5s %7.3f M %6.2f %7.0f %8.1f %8.0f\n", i ? "" : vs_methods[m],
			       vs_impls[i], vs[m][i].rate / 1e6, vs[m][i].ratio, vs[m][i].lost,
			       vs[m][i].ns_per_event, vs[m][i].calls_per_s);
	for (int m = 0; m < NR_VS; m++) {
		/*
		 * No loop of the same system calls costs less than the bare one of (b): when it
		 * alone is over half of libtracefs, the target is beyond this interface.
		 */
		double bare = live[m + 1][1].ns_per_event;
		double floor = vs[m][1].ns_per_event ? bare / vs[m][1].ns_per_event : 0;

		printf("target %-6s CPU per event ours/libtracefs <= 0.5x %s (%.2fx; the bare loop "
		       "of (b) %.1f ns/event, %.2fx libtracefs%s)\n", vs_methods[m],
		       vs_ratio[m] <= 0.5 ? "met" : "MISSED", vs_ratio[m], bare, floor,
		       floor > 0.5 ? ": the floor is over the target" : "");
	}
	printf("target mapped CPU per event <= 0.5x libtracefs' read (it cannot map) %s (%.2fx); "
	       "mapped <= read %s (%.2fx)\n", mapped_ratio <= 0.5 ? "met" : "MISSED", mapped_ratio,
	       live[0][0].ns_per_event <= live[1][0].ns_per_event ? "met" : "MISSED",
	       live[1][0].ns_per_event ? live[0][0].ns_per_event / live[1][0].ns_per_event : 0);
}

static void usage(void)
{
	fprintf(stderr, "usage: " NAME " [-d SECONDS] [-r REPS] [-s MARKER] [-b KB] [-l KB] "
		"[-c KB] [-p PERCENT] [-t pre|live] [-v]\n"
		"  -d  producer run per live row (default 2)\n"
		"  -r  repetitions of every row; the median is shown (default 5)\n"
		"  -s  bytes per trace_marker write in the pre-filled rows (default 8)\n"
		"  -b  pre-filled buffer_size_kb (default 16384)\n"
		"  -l  live buffer_size_kb (default 4096)\n"
		"  -c  producer-alone buffer on CPU 0 in KiB (default 262144)\n"
		"  -p  live buffer_percent (default 50)\n"
		"  -t  only the pre-filled or only the live measurement\n"
		"  -v  print every round's figures (stderr)\n");
}

static int parse_opts(int argc, char **argv)
{
	int c;

	opts = (struct opts){ .seconds = 2, .reps = 5, .marker = 8, .fill_kb = 16384,
			      .live_kb = 4096, .ceiling_kb = 262144, .percent = 50, .pre = true,
			      .live = true };
	while ((c = getopt(argc, argv, "d:r:s:b:l:c:p:t:vh")) != -1) {
		switch (c) {
		case 'd': opts.seconds = atof(optarg); break;
		case 'r': opts.reps = atoi(optarg); break;
		case 's': opts.marker = strtoul(optarg, NULL, 0); break;
		case 'b': opts.fill_kb = strtoul(optarg, NULL, 0); break;
		case 'l': opts.live_kb = strtoul(optarg, NULL, 0); break;
		case 't':
			opts.pre = !strcmp(optarg, "pre");
			opts.live = !strcmp(optarg, "live");
			break;
		case 'v': opts.verbose = true; break;
		case 'c': opts.ceiling_kb = strtoul(optarg, NULL, 0); break;
		case 'p': opts.percent = atoi(optarg); break;
		default: usage(); return -1;
		}
	}
	if (opts.seconds <= 0 || opts.seconds > 60 || opts.reps < 1 || !opts.marker ||
	    opts.marker > 4000 || !opts.fill_kb || !opts.live_kb || !opts.ceiling_kb ||
	    !(opts.pre || opts.live) ||
	    opts.percent < 0 || opts.percent > 100) {
		usage();
		return -1;
	}
	return 0;
}

/* tracefs_mapped_is_supported() would map the top level's buffer: ask in an instance. */
static bool can_map(void)
{
	struct tracefs_instance *inst = instance_new("probe");
	struct tracefs_cpu *tcpu = inst ? tracefs_cpu_open_mapped(inst, PROD_CPU, true) : NULL;
	bool mapped = tracefs_cpu_is_mapped(tcpu);

	tracefs_cpu_close(tcpu);
	instance_drop(inst);
	return mapped;
}

/* 0 ready, 1 skipped (the SKIP line is printed), -1 error. */
static int check_machine(void)
{
	const char *missing = NULL;
	char path[512];
	int err;

	if (geteuid() != 0)
		missing = "needs root (tracefs instances, trace_pipe_raw)";
	else if (!tracefs_tracing_dir())
		missing = "no tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing)";
	else if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		missing = "needs two online CPUs (producer CPU 0, consumer CPU 1)";
	if (!missing) {
		snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid",
			 tracefs_tracing_dir());
		if (access(path, F_OK))
			missing = "no syscalls:sys_enter_getppid event (CONFIG_FTRACE_SYSCALLS)";
	}
	if (!missing && !can_map())
		missing = "the kernel cannot map tracefs ring buffers (Linux 6.10+)";
	if (missing) {
		printf("SKIP: " NAME ": %s\n", missing);
		return 1;
	}
	err = bench__pin_self(CONS_CPU);
	if (err)
		return fail("pinning the consumer to CPU 1", err);
	return 0;
}

int main(int argc, char **argv)
{
	struct prefill_result *pre, pre_med[NR_METHODS][2];
	struct live_result *live, live_med[NR_METHODS][2];
	double pre_ratio[NR_METHODS], live_ratio[NR_METHODS];
	double *ceiling, ceiling_med[2], ceiling_lost = 0;
	struct vs_result *vs, vs_med[NR_VS][2];
	double vs_ratio[NR_VS], mapped_ratio = 0;
	int out_fd, err, reps;

	if (parse_opts(argc, argv))
		return 2;
	reps = opts.reps;
	bench__print_lib_warnings(NAME);
	snprintf(inst_prefix, sizeof(inst_prefix), "auxtrace-bench-%d-", (int)getpid());
	err = check_machine();
	if (err)
		return err > 0 ? 0 : 1;
	snprintf(shm_path, sizeof(shm_path), "/dev/shm/%ssplice", inst_prefix);
	out_fd = open(shm_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out_fd < 0)
		return fail(shm_path, errno), 1;
	unlink(shm_path);	/* nothing to leave behind, whatever happens */
	catch_signals();

	pre = calloc((size_t)NR_METHODS * 2 * reps, sizeof(*pre));
	live = calloc((size_t)NR_METHODS * 2 * reps, sizeof(*live));
	ceiling = calloc((size_t)2 * reps, sizeof(*ceiling));	/* large, then live size */
	vs = calloc((size_t)NR_VS * 2 * reps, sizeof(*vs));
	if (!pre || !live || !ceiling || !vs)
		err = fail("allocating results", ENOMEM);
	/*
	 * Round after round, every row once, the order of lib and bare flipped each round:
	 * drift and a noisy neighbour hit both alike; the medians are printed.
	 */
	for (int i = 0; i < reps && !err; i++) {
		double lost = 0;

		for (int m = 0; m < NR_METHODS && opts.pre && !err; m++)
			for (int k = 0; k < 2 && !err; k++) {
				int bare = (k + i) % 2;

				struct prefill_result *x = &pre[(m * 2 + bare) * reps + i];

				err = run_prefilled(m, bare, out_fd, x);
				if (!err && opts.verbose)
					fprintf(stderr, "round %d pre-filled %-22s %-4s %6.2f us/sb\n", i,
						lib_ops[m].method, bare ? "bare" : "lib", x->us);
			}
		if (!opts.live)
			continue;
		if (!err)
			err = run_ceiling(true, &ceiling[i], &lost);
		ceiling_lost = lost > ceiling_lost ? lost : ceiling_lost;
		if (!err)
			err = run_ceiling(false, &ceiling[reps + i], &lost);
		if (!err && opts.verbose)
			fprintf(stderr, "round %d alone %.3f M/cpu-s, bursts %.3f M/cpu-s\n", i,
				ceiling[i] / 1e6, ceiling[reps + i] / 1e6);
		for (int m = 0; m < NR_METHODS && !err; m++)
			for (int k = 0; k < 2 && !err; k++) {
				int bare = (k + i) % 2;
				struct live_result *x = &live[(m * 2 + bare) * reps + i];

				err = run_live(m, bare, out_fd, x);
				x->ratio = x->cpu_rate / ceiling[i];
				if (!err && opts.verbose)
					fprintf(stderr, "round %d live %-22s %-4s %6.3f M/s %5.2fx "
						"%6.2f%% %6.1f ns/event\n", i, lib_ops[m].method,
						bare ? "bare" : "lib", x->rate / 1e6, x->ratio,
						x->cpu * 100, x->ns_per_event);
			}
		for (int m = 0; m < NR_VS && !err; m++)
			for (int k = 0; k < 2 && !err; k++) {
				int impl = (k + i) % 2;
				struct vs_result *x = &vs[(m * 2 + impl) * reps + i];

				err = run_vs(m, impl, ceiling[i], x);
				if (!err && opts.verbose)
					fprintf(stderr, "round %d libtracefs API %-6s %-4s %6.3f M/s "
						"%5.2fx %6.1f ns/event\n", i, vs_methods[m],
						vs_impls[impl], x->rate / 1e6, x->ratio, x->ns_per_event);
			}
	}
	if (!err) {
		for (int m = 0; m < NR_METHODS; m++)
			for (int b = 0; b < 2; b++) {
				median_fields(&pre[(m * 2 + b) * reps], reps, sizeof(*pre),
					      &pre_med[m][b]);
				median_fields(&live[(m * 2 + b) * reps], reps, sizeof(*live),
					      &live_med[m][b]);
			}
		for (int m = 0; m < NR_METHODS; m++) {
			pre_ratio[m] = median_ratio(&pre[m * 2 * reps], &pre[(m * 2 + 1) * reps],
						    reps, sizeof(*pre),
						    offsetof(struct prefill_result, us));
			live_ratio[m] = median_ratio(&live[m * 2 * reps], &live[(m * 2 + 1) * reps],
						     reps, sizeof(*live),
						     offsetof(struct live_result, ns_per_event));
		}
		for (int m = 0; m < NR_VS && opts.live; m++) {
			for (int b = 0; b < 2; b++)
				median_fields(&vs[(m * 2 + b) * reps], reps, sizeof(*vs),
					      &vs_med[m][b]);
			vs_ratio[m] = median_ratio(&vs[m * 2 * reps], &vs[(m * 2 + 1) * reps], reps,
						   sizeof(*vs),
						   offsetof(struct vs_result, ns_per_event));
		}
		/* mapped has no libtracefs 1.6 counterpart: against its read loop */
		mapped_ratio = median_ratio_of(&live[0], sizeof(*live),
					       offsetof(struct live_result, ns_per_event),
					       &vs[1 * reps], sizeof(*vs),
					       offsetof(struct vs_result, ns_per_event), reps);
		ceiling_med[0] = bench__median(ceiling, reps);
		ceiling_med[1] = bench__median(ceiling + reps, reps);
		if (opts.pre)
			print_prefilled(pre_med, pre_ratio);
		if (opts.live) {
			print_live(ceiling_med, ceiling_lost, live_med, live_ratio);
			print_vs(vs_med, vs_ratio, mapped_ratio, live_med);
		}
		if (ceiling_lost)
			printf("note: the producer alone overflowed its %u KiB: raise -c\n",
			       opts.ceiling_kb);
	} else if (err == -EINTR && interrupted) {
		fprintf(stderr, NAME ": interrupted\n");
	}
	instances_sweep();
	close(out_fd);
	free(pre);
	free(live);
	free(ceiling);
	free(vs);
	return err ? 1 : 0;
}
