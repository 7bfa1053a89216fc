// SPDX-License-Identifier: LGPL-2.1
/*
 * trace_dat__recover() on a spool whose head is arbitrary bytes: the head is a file on disk,
 * outside input, split into version 7's sections (tracefs/trace-dat-head.c) when the spool
 * asks for compression, and laid out as version 6 otherwise: the input's first byte picks
 * which (odd: compressed), the rest is the head. The spool has a clock and one CPU file of two zeroed 4 KiB sub-buffers. Errors are
 * expected; crashes, hangs and out-of-bounds reads are not.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs/trace-dat.h>
#include "fuzz.h"

FUZZ_LSAN_IGNORE_LIBTRACEEVENT()

static char dir[64], path[128], spool[160];

static void put(const char *name, const void *data, size_t size)
{
	char file[200];
	int fd;

	snprintf(file, sizeof(file), "%s/%s", spool, name);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

static void remove_all(void)
{
	static const char *const names[] = { "head", "clock", "compression", "cpu0",
					     "trace.dat.v7" };
	char file[200];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", spool, names[i]);
		unlink(file);
	}
	rmdir(spool);
	unlink(path);
}

static void remove_dir(void)
{
	remove_all();
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char zeros[8192];

	if (!dir[0]) {
		fuzz__log_quietly();
		snprintf(dir, sizeof(dir), "/tmp/fuzz-spool-head.XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/trace.dat", dir);
		snprintf(spool, sizeof(spool), "%s.spool", path);
		atexit(remove_dir);
	}
	if (!size)
		return 0;
	if (mkdir(spool, 0700) < 0)
		abort();
	put("head", data + 1, size - 1);
	put("clock", "[mono]", 6);
	if (data[0] & 1)
		put("compression", "1", 1);
	put("cpu0", zeros, sizeof(zeros));
	trace_dat__recover(path);
	remove_all();
	return 0;
}
