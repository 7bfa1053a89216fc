// SPDX-License-Identifier: LGPL-2.1
/*
 * Whether a file of a recording can be read, said before anything opens it: a FIFO is
 * refused unopened (report reads each file more than once: its format check, then a pass
 * per question, and a pipe gives its bytes once, so a second open waits for ever), and a
 * trace.dat that is there but unreadable (a symlink loop, a dangling link, a directory) is an
 * error naming it, not a recording reported without its ftrace side.
 */
#include <errno.h>
#include <stdio.h>
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

bool recording_file__unfinished(const char *dir)
{
	static const char *const left[] = { "trace.dat.spool", "perf.data.features" };
	char path[4096];
	struct stat st;

	for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, left[i]);
		if (lstat(path, &st) == 0)
			return true;
	}
	return false;
}

void recording_file__say_unfinished(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && recording_file__unfinished(path))
		auxrec_warning("%s is an unfinished recording (its auxrec record died): this reads "
			       "what its files hold now; auxrec recover %s makes them whole for "
			       "perf and trace-cmd", path, path);
}
