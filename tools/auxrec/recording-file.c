// SPDX-License-Identifier: LGPL-2.1
/*
 * Whether a file of a recording can be read, said before anything opens it: a FIFO is
 * refused unopened (report reads each file more than once: its format check, then a pass
 * per question, and a pipe gives its bytes once, so a second open waits for ever), and a
 * trace.dat that is there but unreadable (a symlink loop, a dangling link, a directory) is an
 * error naming it, not a recording reported without its ftrace side.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "recording-file.h"

static const char *file_type(mode_t mode)
{
	return S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" :
	       S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device" :
	       "not a regular file";
}

int recording_file__check(const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		int err = -errno;

		auxrec_error("%s: %s", path, strerror(-err));
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		auxrec_error("%s: a directory, not a file of a recording", path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		auxrec_error("%s: %s: a recording is read from regular files, each more than once "
			     "(auxrec script - reads perf's pipe format from stdin; or save it to a "
			     "file first)", path, file_type(st.st_mode));
		return -EINVAL;
	}
	return 0;
}

int recording_file__optional(const char *path)
{
	struct stat st;
	int err;

	if (lstat(path, &st) && errno == ENOENT)
		return 0;
	err = recording_file__check(path);
	return err ? err : 1;
}
