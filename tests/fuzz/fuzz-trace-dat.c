// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat reader on arbitrary bytes, as a file (a memfd opened by its /proc path, so
 * that the reader maps it as it maps any file): the description, then every record of every
 * CPU merged, each one's bytes read, so that a bound it failed to check shows up under the
 * sanitizers. Errors are expected; crashes, hangs and out-of-bounds reads are not.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <event-parse.h>
#include <tracefs/trace-dat-reader.h>
#include "fuzz.h"

FUZZ_LSAN_IGNORE_LIBTRACEEVENT()

static void read_all(struct trace_dat_reader *r)
{
	const struct trace_dat_record *rec;
	struct trace_dat_cursor *c;
	const char *const *events;
	size_t nr;

	fuzz__touch_str(trace_dat_reader__clock(r));
	fuzz__touch_str(trace_dat_reader__uname(r));
	fuzz__touch_str(trace_dat_reader__version(r));
	events = trace_dat_reader__events(r, &nr);
	for (size_t i = 0; i < nr; i++)
		fuzz__touch_str(events[i]);
	for (int cpu = 0; cpu < trace_dat_reader__nr_cpus(r); cpu++)
		fuzz__touch_str(trace_dat_reader__cpustat(r, cpu));
	c = trace_dat_cursor__new(r, -1);
	if (!c)
		return;
	while ((rec = trace_dat_cursor__next(c))) {
		fuzz__touch(rec->data, rec->size);
		if (rec->event)
			fuzz__touch_str(rec->event->name);
	}
	trace_dat_cursor__delete(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-trace-dat", MFD_CLOEXEC);
	struct trace_dat_reader *r;
	char path[64];

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		r = trace_dat_reader__open(path);
		if (r) {
			read_all(r);
			trace_dat_reader__close(r);
		}
	}
	close(fd);
	return 0;
}
