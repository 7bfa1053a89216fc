// SPDX-License-Identifier: LGPL-2.1
/* Where tracefs is mounted, paths inside it, and whole-file reads and writes. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

const char *tracefs_tracing_dir(void)
{
	const char *dir = libauxtrace__tracing_dir();

	if (!dir)
		pr_err("%s\n", libauxtrace__no_tracing_dir_why(errno));
	return dir;
}

const char *tracefs__dir(struct tracefs_instance *instance)
{
	return instance ? instance->dir : tracefs_tracing_dir();
}

/* A file of an instance is named relative to it, and no ".." component leads out of it. */
static bool file__stays_inside(const char *file)
{
	if (*file == '/')
		return false;
	for (const char *p = file;; p++) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		if (!p)
			return true;
	}
}

char *tracefs__path(struct tracefs_instance *instance, const char *file)
{
	const char *dir;
	char *path;

	if (!file || !file__stays_inside(file)) {
		pr_err("tracefs file '%s' refused: name a file of the instance relative to its directory, without '..'\n",
		       file ? file : "(null)");
		return libauxtrace__ptr_err(-EINVAL);
	}
	dir = tracefs__dir(instance);
	if (!dir)
		return NULL;
	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return libauxtrace__ptr_err(-ENOMEM);
	return path;
}

char *tracefs_get_tracing_file(const char *name)
{
	return tracefs__path(NULL, name);
}

void tracefs_put_tracing_file(char *name)
{
	free(name);
}

ssize_t tracefs__read_path(const char *path, char **bufp)
{
	size_t size = 4096, len = 0;
	char *buf = malloc(size);
	int fd, err;

	if (!buf)
		return libauxtrace__err(-ENOMEM);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	/* Pseudo files report size 0: grow until read() says the end. */
	for (;;) {
		ssize_t n = libauxtrace__read_full(fd, buf + len, size - 1 - len);
		char *bigger;

		if (n < 0)
			goto fail;
		len += n;
		if (len + 1 < size)
			break;
		bigger = realloc(buf, size * 2);
		if (!bigger) {
			errno = ENOMEM;
			goto fail;
		}
		buf = bigger;
		size *= 2;
	}
	close(fd);
	buf[len] = '\0';
	*bufp = buf;
	return len;
fail:
	err = -errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	return libauxtrace__err(err);
}

int tracefs__write_path(const char *path, const char *str)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return libauxtrace__err(-errno);
	return tracefs__write_fd(fd, str);
}

int tracefs__write_fd(int fd, const char *str)
{
	size_t len = strlen(str), done = 0;
	int err = 0;

	while (done < len) {
		ssize_t n = write(fd, str + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	close(fd);
	return err ? libauxtrace__err(err) : (int)done;
}
