// SPDX-License-Identifier: LGPL-2.1
/*
 * The spool directory beside a trace.dat being recorded (PATH.spool/): every byte drained
 * lives under a name that says what it is, with the file's description written at the
 * start, so that a recording cut short by a crash, a kill or a full disk can still be laid
 * out into a trace.dat of what was drained. trace_dat_writer__finish() writes a fresh
 * description and removes the spool; this file lays a trace.dat out of the spool alone:
 * trace_dat__recover(), and finish's fallback when the disk has no room for a fresh one.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <internal/lib.h>
#include <tracefs/trace-dat.h>
#include <tracefs/tracefs.h>
#include "trace-dat-internal.h"

/* Where trace.dat's head keeps the sub-buffer size: after magic, "tracing", "6", two bytes. */
#define TD_HEAD_PAGE_SIZE_AT	14
#define TD_MAX_CPUS		65536

static char *spool__path(const char *path)
{
	char *spool;

	return asprintf(&spool, "%s.spool", path) < 0 ? NULL : spool;
}

/* Write a small file name in dir_fd whole. 0 or -errno. */
static int spool__write_file(int dir_fd, const char *name, const void *data, size_t len)
{
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n != (ssize_t)len) {
		int err = n < 0 ? -errno : -ENOSPC;

		close(fd);
		unlinkat(dir_fd, name, 0);
		return err;
	}
	return close(fd) < 0 ? -errno : 0;
}

/* head: trace.dat version 6 up to the flyrecord section, as the writer makes it. */
static int spool__write_head(int dir_fd, const struct td_head_params *p)
{
	struct td_out *out = malloc(sizeof(*out));
	int fd = openat(dir_fd, "head", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600), err;

	if (fd < 0 || !out) {
		err = fd < 0 ? -errno : -ENOMEM;
		if (fd >= 0)
			close(fd);
		free(out);
		return err;
	}
	td_out__init(out, fd);
	td_meta__write_head(out, p->layout, "6");
	td_meta__write_headers(out, p->inst);
	td_events__write(p->events, p->inst, out, true);
	td_meta__write_symbols(out, p->inst, true);
	td_meta__write_options(out, p->inst, p->nr_cpus, p->version);
	err = td_out__flush(out);
	free(out);
	close(fd);
	if (err)
		unlinkat(dir_fd, "head", 0);
	return err;
}

/* What recovery needs besides the description: the instance to drain, the compression. */
static int spool__write_params(int dir_fd, const struct td_head_params *p)
{
	const char *name = p->inst ? tracefs_instance_get_name(p->inst) : NULL;
	char level[16];
	int err = name ? spool__write_file(dir_fd, TD_SPOOL_INSTANCE, name, strlen(name)) : 0;

	if (!err && p->level) {
		snprintf(level, sizeof(level), "%d", p->level);
		err = spool__write_file(dir_fd, TD_SPOOL_COMPRESSION, level, strlen(level));
	}
	return err;
}

int td_spool_dir__create(struct td_spool_dir *d, const char *path,
			 const struct td_head_params *p)
{
	int err;

	*d = (struct td_spool_dir){ .fd = -1 };
	d->path = spool__path(path);
	if (!d->path)
		return -ENOMEM;
	if (mkdir(d->path, 0700) < 0) {
		err = -errno;
		if (err == -EEXIST)
			pr_err("%s exists: the spool of an unfinished recording of %s; lay it out with trace_dat__recover() (auxrec recover) or remove it\n",
			       d->path, path);
		else
			pr_err("cannot create the spool directory %s: %s\n", d->path,
			       strerror(-err));
		free(d->path);
		d->path = NULL;
		return err;
	}
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0) {
		err = -errno;
		td_spool_dir__remove(d);
		return err;
	}
	err = spool__write_head(d->fd, p);
	if (!err)
		err = spool__write_file(d->fd, "clock", p->clock, strlen(p->clock));
	if (!err)
		err = spool__write_params(d->fd, p);
	d->head = !err;
	if (err)
		pr_warn("%s: cannot write the description a crashed recording is recovered from (%s): if this recording dies, its trace.dat cannot be recovered\n",
			d->path, strerror(-err));
	return 0;
}

void td_spool_dir__remove(struct td_spool_dir *d)
{
	DIR *dir;
	struct dirent *e;

	if (!d->path)
		return;
	dir = d->fd >= 0 ? fdopendir(d->fd) : NULL;
	while (dir && (e = readdir(dir)))
		if (e->d_name[0] != '.')
			unlinkat(d->fd, e->d_name, 0);
	if (dir)
		closedir(dir);	/* closes d->fd */
	else if (d->fd >= 0)
		close(d->fd);
	rmdir(d->path);
	free(d->path);
	*d = (struct td_spool_dir){ .fd = -1 };
}

void td_spool_dir__forget(struct td_spool_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	*d = (struct td_spool_dir){ .fd = -1 };
}

/* A small text file of the spool, NUL-terminated in buf; "" when it is not there. */
static void spool__read_text(int dir_fd, const char *name, char *buf, size_t size)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

static int spool__head_page_size(int head_fd, const char *spool, unsigned int *page_size)
{
	unsigned char head[TD_HEAD_PAGE_SIZE_AT + 4];

	if (pread(head_fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(head, "\x17\x08\x44tracing6", 11)) {
		pr_err("%s/head is not the start of a trace.dat version 6\n", spool);
		return -EINVAL;
	}
	memcpy(page_size, head + TD_HEAD_PAGE_SIZE_AT, 4);
	if (*page_size < 64 || *page_size > (1u << 24)) {
		pr_err("%s/head gives a sub-buffer size of %u bytes: damaged\n", spool,
		       *page_size);
		return -EINVAL;
	}
	return 0;
}

int td_spool_dir__page_size(int dir_fd, const char *spool, unsigned int *page_size)
{
	int fd = openat(dir_fd, "head", O_RDONLY | O_CLOEXEC), err;

	if (fd < 0) {
		pr_err("%s has no head: the recording died before it had written its description\n",
		       spool);
		return -ENOENT;
	}
	err = spool__head_page_size(fd, spool, page_size);
	close(fd);
	return err;
}

/* A spool's head, its sub-buffer size, CPU files, clock and compression, open for laying out. */
struct spool_layout {
	int head;
	unsigned int page_size;
	int nr_cpus;
	int *cpus;		/* [nr_cpus] fds */
	uint64_t *sizes;	/* [2 * nr_cpus]: whole sub-buffers, then the offsets */
	char clock[256];
	int level;		/* zstd's, as the recording asked; 0: version 6, stored */
};

static int layout__open(struct spool_layout *sl, int dir_fd, const char *spool)
{
	char name[32];
	int err;

	sl->head = openat(dir_fd, "head", O_RDWR | O_CLOEXEC);
	spool__read_text(dir_fd, "clock", sl->clock, sizeof(sl->clock));
	if (sl->head < 0 || !sl->clock[0]) {
		pr_err("%s has no head or no clock: the recording died before it had written its description, and no trace.dat can be made of it\n",
		       spool);
		return -ENOENT;
	}
	err = spool__head_page_size(sl->head, spool, &sl->page_size);
	if (err)
		return err;
	spool__read_text(dir_fd, TD_SPOOL_COMPRESSION, name, sizeof(name));
	sl->level = atoi(name);
	if (sl->level < 0 || sl->level > 22) {
		pr_warn("%s/%s asks for zstd level %d: writing the recovered trace.dat uncompressed\n",
			spool, TD_SPOOL_COMPRESSION, sl->level);
		sl->level = 0;
	}
	sl->cpus = calloc(TD_MAX_CPUS, sizeof(*sl->cpus));
	if (!sl->cpus)
		return -ENOMEM;
	for (sl->nr_cpus = 0; sl->nr_cpus < TD_MAX_CPUS; sl->nr_cpus++) {
		snprintf(name, sizeof(name), "cpu%d", sl->nr_cpus);
		sl->cpus[sl->nr_cpus] = openat(dir_fd, name, O_RDWR | O_CLOEXEC);
		if (sl->cpus[sl->nr_cpus] < 0)
			break;
	}
	sl->sizes = calloc(2 * (size_t)sl->nr_cpus + 1, sizeof(*sl->sizes));
	if (!sl->sizes)
		return -ENOMEM;
	for (int cpu = 0; cpu < sl->nr_cpus; cpu++) {
		off_t end = lseek(sl->cpus[cpu], 0, SEEK_END);

		/* a sub-buffer whose write was cut short is left out */
		sl->sizes[cpu] = end > 0 ? (uint64_t)end / sl->page_size * sl->page_size : 0;
	}
	return 0;
}

static void layout__close(struct spool_layout *sl)
{
	if (sl->head >= 0)
		close(sl->head);
	for (int cpu = 0; sl->cpus && cpu < sl->nr_cpus; cpu++)
		close(sl->cpus[cpu]);
	free(sl->cpus);
	free(sl->sizes);
}

/*
 * A disk that filled up has no room to lay the file out: leave out the newest sub-buffers,
 * from the CPU with the most, until the layout fits. Returns the bytes left out.
 */
static uint64_t layout__make_room(struct spool_layout *sl, uint64_t align)
{
	struct statvfs vfs;
	uint64_t need = td_copy_room(sl->nr_cpus, align), avail, dropped = 0;

	if (fstatvfs(sl->head, &vfs) < 0)
		return 0;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	while (avail + dropped < need) {
		int most = 0;
		uint64_t cut;

		for (int cpu = 1; cpu < sl->nr_cpus; cpu++)
			if (sl->sizes[cpu] > sl->sizes[most])
				most = cpu;
		if (!sl->nr_cpus || !sl->sizes[most])
			break;
		cut = need - avail - dropped;
		cut = (cut + sl->page_size - 1) / sl->page_size * sl->page_size;
		if (cut > sl->sizes[most])
			cut = sl->sizes[most];
		sl->sizes[most] -= cut;
		if (ftruncate(sl->cpus[most], (off_t)sl->sizes[most]) < 0)
			break;
		dropped += cut;
	}
	return dropped;
}

/* head + flyrecord + each CPU's data, in the head file. 0 or -errno. */
static int layout__write(struct spool_layout *sl, const char *path)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	uint64_t align = sl->page_size > sys_page ? sl->page_size : (uint64_t)sys_page;
	uint64_t dropped = layout__make_room(sl, align), end;
	uint64_t *offsets = sl->sizes + sl->nr_cpus;
	struct td_out *out = malloc(sizeof(*out));
	off_t head_end = lseek(sl->head, 0, SEEK_END);
	int err;

	if (!out || head_end < 0) {
		free(out);
		return out ? -errno : -ENOMEM;
	}
	if (dropped)
		pr_warn("%s: the disk is full: the newest %llu KiB of trace data are left out to make room for the file's layout\n",
			path, (unsigned long long)dropped >> 10);
	td_out__init(out, sl->head);
	out->pos = (uint64_t)head_end;
	end = td_meta__write_flyrecord(out, sl->clock, sl->sizes, sl->nr_cpus, align, offsets);
	err = td_out__flush(out);
	free(out);
	for (int cpu = 0; cpu < sl->nr_cpus && !err; cpu++)
		if (sl->sizes[cpu])
			err = td_copy(sl->cpus[cpu], sl->head, offsets[cpu], sl->sizes[cpu]);
	if (!err && ftruncate(sl->head, (off_t)end) < 0)
		err = -errno;
	return err;
}

/* The file version 7 is written into, in the spool, until it is whole and renamed. */
#define TD_SPOOL_V7	"trace.dat.v7"

/*
 * Version 7 with zstd, as the recording asked: the description of the start, in sections,
 * and the CPU data compressed in chunks, into a file of its own renamed to path when whole.
 * A disk without room for it leaves the spool as it was (*done false): the caller lays out
 * version 6 in place, which needs almost none. 0 or -errno, logged.
 */
static int layout__compress(struct spool_layout *sl, int dir_fd, const char *spool,
			    const char *path, unsigned int mode, bool *done)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	struct td_layout l = { .page_size = sl->page_size };
	struct td_out *out = malloc(sizeof(*out));
	struct td_head_parts head;
	struct td_v7_params p = {
		.layout = &l, .head = &head, .clock = sl->clock, .nr_cpus = sl->nr_cpus,
		.fds = sl->cpus, .sizes = sl->sizes, .level = sl->level,
		.align = sl->page_size > sys_page ? sl->page_size : (uint64_t)sys_page,
	};
	int fd = openat(dir_fd, TD_SPOOL_V7, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int err = fd < 0 ? -errno : out ? td_head_parts__read(&head, sl->head, spool) : -ENOMEM;
	uint64_t end;

	if (!err) {
		td_out__init(out, fd);
		end = td_v7__write(out, &p);
		err = td_out__flush(out);
		td_head_parts__exit(&head);
		if (!err && (ftruncate(fd, (off_t)end) < 0 || fchmod(fd, mode) < 0))
			err = -errno;
		if (!err && renameat(dir_fd, TD_SPOOL_V7, AT_FDCWD, path) < 0)
			err = -errno;
	}
	free(out);
	if (fd >= 0)
		close(fd);
	*done = !err;
	if (!err)
		return 0;
	unlinkat(dir_fd, TD_SPOOL_V7, 0);
	if (err != -ENOSPC && err != -EDQUOT)
		return err;
	pr_warn("%s: no room for a compressed copy of the recording: laying it out uncompressed (version 6) in place\n",
		path);
	return 0;
}

int td_spool_dir__assemble(const char *path, unsigned int mode)
{
	struct spool_layout sl = { .head = -1 };
	struct td_spool_dir d = { .fd = -1, .path = spool__path(path) };
	bool compressed = false;
	int err;

	if (!d.path)
		return -ENOMEM;
	d.fd = open(d.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d.fd < 0) {
		err = -errno;
		pr_err("cannot open the spool %s: %s\n", d.path, strerror(-err));
		free(d.path);
		return err;
	}
	err = layout__open(&sl, d.fd, d.path);
	if (!err && sl.level)
		err = layout__compress(&sl, d.fd, d.path, path, mode, &compressed);
	if (!err && !compressed)
		err = layout__write(&sl, path);
	if (!err && !compressed && fchmod(sl.head, mode) < 0)
		err = -errno;
	if (!err && !compressed && renameat(d.fd, "head", AT_FDCWD, path) < 0)
		err = -errno;
	layout__close(&sl);
	if (err) {
		pr_err("cannot lay out %s from %s: %s\n", path, d.path, strerror(-err));
		close(d.fd);
		free(d.path);
		return err;
	}
	td_spool_dir__remove(&d);
	return 0;
}

int trace_dat__recover(const char *path)
{
	if (!path)
		return libauxtrace__err(-EINVAL);
	return libauxtrace__err(td_spool_dir__assemble(path, 0600));
}
