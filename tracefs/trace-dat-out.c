// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat output stream: the metadata is many small pieces (formats, numbers), so they
 * gather in one buffer and go out in large writes. The CPU data never passes through here.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include "trace-dat-internal.h"

void td_out__init(struct td_out *out, int fd)
{
	out->fd = fd;
	out->err = 0;
	out->pos = 0;
	out->used = 0;
}

int td_out__flush(struct td_out *out)
{
	size_t done = 0;

	while (!out->err && done < out->used) {
		ssize_t n = pwrite(out->fd, out->buf + done, out->used - done,
				   out->pos - out->used + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			out->err = n < 0 ? -errno : -EIO;
		else
			done += n;
	}
	out->used = 0;
	return out->err;
}

void td_out__write(struct td_out *out, const void *data, size_t len)
{
	while (!out->err && len) {
		size_t n = TD_OUT_BUF - out->used;

		if (n > len)
			n = len;
		memcpy(out->buf + out->used, data, n);
		out->used += n;
		out->pos += n;
		data = (const char *)data + n;
		len -= n;
		if (out->used == TD_OUT_BUF)
			td_out__flush(out);
	}
}

void td_out__u16(struct td_out *out, uint16_t v)
{
	td_out__write(out, &v, sizeof(v));
}

void td_out__u32(struct td_out *out, uint32_t v)
{
	td_out__write(out, &v, sizeof(v));
}

void td_out__u64(struct td_out *out, uint64_t v)
{
	td_out__write(out, &v, sizeof(v));
}

void td_out__str(struct td_out *out, const char *s)
{
	td_out__write(out, s, strlen(s) + 1);
}

void td_out__patch(struct td_out *out, uint64_t off, const void *v, size_t width)
{
	uint64_t start = out->pos - out->used;

	if (out->err)
		return;
	if (off >= start) {
		memcpy(out->buf + (off - start), v, width);
		return;
	}
	if (pwrite(out->fd, v, width, off) != (ssize_t)width)
		out->err = -errno ?: -EIO;
}

/* len as a width-byte (4 or 8) number in the host's byte order. */
static void td_length(unsigned char *b, int width, uint64_t len)
{
	uint32_t len32 = (uint32_t)len;

	if (width == 4)
		memcpy(b, &len32, 4);
	else
		memcpy(b, &len, 8);
}

/* Read fd to its end straight into the buffer. Bytes read, or -errno (in out->err). */
static int64_t td_out__stream(struct td_out *out, int fd)
{
	int64_t total = 0;

	while (!out->err) {
		ssize_t n = read(fd, out->buf + out->used, TD_OUT_BUF - out->used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			out->err = -errno;
			break;
		}
		if (n == 0)
			return total;
		out->used += n;
		out->pos += n;
		total += n;
		if (out->used == TD_OUT_BUF)
			td_out__flush(out);
	}
	return out->err;
}

int td_out__file(struct td_out *out, const char *path, int width,
		 bool (*peek)(const char *head, size_t len))
{
	unsigned char len[8] = { 0 };
	uint64_t slot;
	int64_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (peek) {
		char head[128];
		ssize_t n = pread(fd, head, sizeof(head), 0);

		if (n >= 0 && !peek(head, n)) {
			close(fd);
			td_out__write(out, len, width);		/* an empty section */
			return 0;
		}
	}
	/* the length is patched once the end is known: keep it in one piece of the buffer */
	if (TD_OUT_BUF - out->used < (size_t)width)
		td_out__flush(out);
	slot = out->pos;
	td_out__write(out, len, width);
	got = td_out__stream(out, fd);
	close(fd);
	if (got < 0)
		return (int)got;
	if (width == 4 && got > UINT32_MAX) {
		pr_err("%s holds %lld bytes, more than trace.dat can describe (4 GiB)\n", path,
		       (long long)got);
		return out->err = -EFBIG;
	}
	td_length(len, width, got);
	td_out__patch(out, slot, len, width);
	return out->err;
}

void td_out__required_file(struct td_out *out, const char *path, const char *hint)
{
	int err = path ? td_out__file(out, path, 8, NULL) : -ENOMEM;

	if (err && !out->err) {
		pr_err("cannot read %s: %s%s\n", path ?: "a tracefs file", strerror(-err), hint);
		out->err = err;
	}
}
