// SPDX-License-Identifier: LGPL-2.1
/*
 * One CPU's sub-buffers, kept in a file of the spool directory beside the trace.dat
 * (trace.dat.spool/cpuN) until the writer knows every CPU's size and can lay the file out;
 * named, so that what was drained survives a crash for trace_dat__recover(). They come through the sink, or are
 * spliced into the file by tracefs_cpu_write(): both write at the file's position. The sink
 * takes whole sub-buffers or nothing: a write that fails half-way is cut off again, so the
 * ring offers the same bytes next time and nothing is kept twice.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <internal/lib.h>
#include "trace-dat-internal.h"

/* Sub-buffer header: u64 timestamp, then a kernel long whose low 27 bits are the data size. */
#define TD_COMMIT_SIZE_MASK	0x07ffffffu

int td_tmpfile(const char *dir, const char *what)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	int err = -errno;

	if (fd >= 0)
		return fd;
	switch (err) {
	case -ENOENT:
	case -ENOTDIR:
		pr_err("cannot write %s: directory %s does not exist: create it first\n", what,
		       dir);
		break;
	case -EACCES:
	case -EPERM:
		pr_err("cannot write %s: no permission to create files in %s: choose a directory you can write to\n",
		       what, dir);
		break;
	case -EROFS:
		pr_err("cannot write %s: %s is on a read-only filesystem: choose a writable directory\n",
		       what, dir);
		break;
	case -ENOSPC:
	case -EDQUOT:
		pr_err("cannot write %s: no space left in %s: free some, or write elsewhere\n",
		       what, dir);
		break;
	case -EOPNOTSUPP:
	case -EISDIR:
		pr_err("cannot write %s: the filesystem of %s cannot create unnamed temporary files (O_TMPFILE), which keep half-written files invisible: write to a local filesystem (ext4, xfs, btrfs, tmpfs)\n",
		       what, dir);
		break;
	default:
		pr_err("cannot write %s in %s: %s\n", what, dir, strerror(-err));
	}
	return err;
}

/* Copy len bytes at offset off of the pieces iov[0..n) into dst; false if they end first. */
static bool iov__read(const struct iovec *iov, int n, size_t off, void *dst, size_t len)
{
	for (int i = 0; i < n && len; i++) {
		size_t take;

		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		take = iov[i].iov_len - off < len ? iov[i].iov_len - off : len;
		memcpy(dst, (const char *)iov[i].iov_base + off, take);
		dst = (char *)dst + take;
		len -= take;
		off = 0;
	}
	return len == 0;
}

/*
 * Every sub-buffer of a push must be one trace-cmd can load: a whole one, whose commit
 * word claims no more data than it has room for.
 */
static int spool__check(const struct td_spool *s, const struct iovec *iov, int iovcnt,
			size_t total)
{
	const struct td_layout *l = s->layout;
	size_t room = l->page_size - 8 - l->long_size;

	if (total % l->page_size) {
		pr_err("trace.dat CPU %d: a push of %zu bytes is not a whole number of %u-byte sub-buffers: feed the sink from a tracefs_cpu of the writer's instance\n",
		       s->cpu, total, l->page_size);
		return -EINVAL;
	}
	for (size_t off = 0; off < total; off += l->page_size) {
		uint32_t commit;	/* the low word: flags and size, either kernel long size */

		if (!iov__read(iov, iovcnt, off + 8, &commit, sizeof(commit)))
			return -EINVAL;
		if ((commit & TD_COMMIT_SIZE_MASK) > room) {
			pr_err("trace.dat CPU %d: a sub-buffer claims %u bytes of data, more than the %zu a %u-byte sub-buffer holds: the data is not this instance's sub-buffers\n",
			       s->cpu, commit & TD_COMMIT_SIZE_MASK, room, l->page_size);
			return -EINVAL;
		}
	}
	return 0;
}

/* writev() all of iov, continuing after short writes. 0 or -errno; *written: bytes written. */
static int spool__write(int fd, const struct iovec *iov, int iovcnt, size_t *written)
{
	size_t part = 0;	/* bytes of iov[0] already written */

	*written = 0;
	while (iovcnt) {
		ssize_t n = part ? write(fd, (const char *)iov->iov_base + part, iov->iov_len - part)
				 : writev(fd, iov, iovcnt < IOV_MAX ? iovcnt : IOV_MAX);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		*written += n;
		part += n;
		while (iovcnt && part >= iov->iov_len) {
			part -= iov->iov_len;
			iov++;
			iovcnt--;
		}
	}
	return 0;
}

/*
 * Give back what a half-done write took, so that the next write lands where it began: the
 * ring still has all of it. Where the file cannot be cut, its data is no longer whole.
 */
static void spool__undo(struct td_spool *s, size_t written, off_t *start)
{
	*start = lseek(s->fd, 0, SEEK_CUR) - (off_t)written;
	if (*start < 0 || ftruncate(s->fd, *start) < 0 || lseek(s->fd, *start, SEEK_SET) < 0) {
		pr_err("trace.dat CPU %d: cannot take back a half-written sub-buffer: %s; its data is unusable\n",
		       s->cpu, strerror(errno));
		s->broken = true;
	}
}

static ssize_t spool__refuse(struct td_spool *s)
{
	if (!*s->closed)
		return -EIO;	/* broken */
	pr_err("trace.dat CPU %d: data pushed after trace_dat_writer__finish(): flush-drain every CPU before finishing\n",
	       s->cpu);
	return -EINVAL;
}

/* A write failed with err after the file held kept bytes: say why, a full disk once. */
static void spool__report(struct td_spool *s, int err, off_t kept)
{
	if ((err == -ENOSPC || err == -EDQUOT) && !s->full)
		pr_err("trace.dat CPU %d: no space left on the device after %lld KiB of its data: free space where trace.dat goes, or record less (fewer events, a shorter run); the ring buffer keeps what did not fit until a drain succeeds\n",
		       s->cpu, (long long)kept >> 10);
	else if (err != -ENOSPC && err != -EDQUOT)
		pr_err("trace.dat CPU %d: writing its data: %s\n", s->cpu, strerror(-err));
	s->full = err == -ENOSPC || err == -EDQUOT;
}

static ssize_t spool__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	struct td_spool *s = container_of(sink, struct td_spool, sink);
	size_t total = 0, written;
	off_t start;
	int err;

	if (*s->closed || s->broken)
		return spool__refuse(s);
	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	err = spool__check(s, iov, iovcnt, total);
	if (err)
		return err;
	err = spool__write(s->fd, iov, iovcnt, &written);
	if (!err) {
		s->full = false;
		return total;
	}
	spool__undo(s, written, &start);
	spool__report(s, err, start);
	return err;
}

/*
 * Sub-buffers spliced from the ring's pipe straight into the file, never through user
 * memory. What a failing file cut short stays in the pipe and goes first next time; a part
 * never finished is left out at finish.
 */
static ssize_t spool__splice(struct ring_sink *sink, int pipe_fd, size_t len)
{
	struct td_spool *s = container_of(sink, struct td_spool, sink);
	ssize_t n;

	if (*s->closed || s->broken)
		return spool__refuse(s);
	n = s->file.sink.splice(&s->file.sink, pipe_fd, len);
	if (n < 0 && n != -EINVAL && n != -EAGAIN)
		spool__report(s, (int)n, lseek(s->fd, 0, SEEK_CUR));
	else if (n > 0)
		s->full = false;
	return n;
}

/* cpuN of the spool directory dir_fd, opened with flags, behind the sink. 0 or -errno. */
static int spool__open(struct td_spool *s, int dir_fd, int cpu, const struct td_layout *l,
		       const bool *closed, int flags)
{
	char name[32];

	snprintf(name, sizeof(name), "cpu%d", cpu);
	*s = (struct td_spool){ .sink.push = spool__push, .sink.splice = spool__splice,
				.cpu = cpu, .layout = l, .closed = closed };
	s->fd = openat(dir_fd, name, O_RDWR | O_CLOEXEC | flags, 0600);
	if (s->fd < 0)
		return -errno;
	ring_sink_fd__init(&s->file, s->fd);
	return 0;
}

int td_spool__init(struct td_spool *s, int dir_fd, int cpu, const struct td_layout *l,
		   const bool *closed)
{
	int err = spool__open(s, dir_fd, cpu, l, closed, O_CREAT | O_EXCL);

	if (err)
		pr_err("cannot create the spool file cpu%d of CPU %d: %s\n", cpu, cpu,
		       strerror(-err));
	return err;
}

int td_spool__reopen(struct td_spool *s, int dir_fd, int cpu, const struct td_layout *l,
		     const bool *closed)
{
	int err = spool__open(s, dir_fd, cpu, l, closed, 0);
	off_t end = err ? 0 : lseek(s->fd, 0, SEEK_END);

	if (err)
		return err;
	/* a write the kill cut short: what follows must start on a sub-buffer's boundary */
	end -= end % l->page_size;
	if (ftruncate(s->fd, end) < 0 || lseek(s->fd, end, SEEK_SET) < 0) {
		err = -errno;
		td_spool__exit(s);
	}
	return err;
}

int64_t td_spool__size(struct td_spool *s)
{
	off_t end = lseek(s->fd, 0, SEEK_END), rest;

	if (end < 0)
		return -errno;
	if (s->broken)
		return -EIO;
	rest = end % s->layout->page_size;
	if (rest)
		pr_warn("trace.dat CPU %d: leaving out the last %lld bytes, the start of a sub-buffer whose write a full disk cut short and no later tracefs_cpu_write() finished\n",
			s->cpu, (long long)rest);
	return end - rest;
}

int td_spool__copy(struct td_spool *s, int out_fd, uint64_t off, uint64_t size)
{
	return td_copy(s->fd, out_fd, off, size);
}

void td_spool__exit(struct td_spool *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/*
 * Bytes copied per copy_file_range() before the source gives their room back: the disk then
 * needs room for the file and one chunk, not for two copies of the data. Small enough for
 * that (and for a nearly full disk), large enough that the calls cost nothing next to the
 * copying.
 */
#define TD_COPY_CHUNK		(256u << 10)

int td_copy(int in_fd, int out_fd, uint64_t off, uint64_t size)
{
	loff_t in = 0, out = off;

	while ((uint64_t)in < size) {
		uint64_t left = size - in;
		loff_t from = in;
		ssize_t n = copy_file_range(in_fd, &in, out_fd, &out,
					    left < TD_COPY_CHUNK ? left : TD_COPY_CHUNK, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		/* the copy owns these bytes now: keep the disk use near one trace, not two */
		fallocate(in_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, from, n);
	}
	return 0;
}

/*
 * A copy that meets a full disk stops short at what fit, and punching that out of the
 * spool makes room for the next: the layout needs a few pages free, not a chunk. The
 * padding before each CPU's data is a hole.
 */
uint64_t td_copy_room(int nr_cpus, uint64_t align)
{
	return ((uint64_t)nr_cpus + 4) * align;
}
