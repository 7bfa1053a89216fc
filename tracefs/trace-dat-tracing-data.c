// SPDX-License-Identifier: LGPL-2.1
/*
 * The tracing data perf.data carries for tracepoint events: the front of a trace.dat, which
 * is where perf's format comes from (the header pages, the events' formats, printk formats,
 * saved cmdlines), without the ftrace formats and kallsyms, as perf record leaves them out.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <internal/lib.h>
#include "trace-dat-internal.h"

/* Write it to fd from offset 0. Bytes written, or -errno. */
static ssize_t tracing_data__write(int fd, struct tracefs_instance *inst,
				   const char *const *events)
{
	struct td_events ev = { 0 };
	struct td_layout layout;
	struct td_out *out = malloc(sizeof(*out));
	int err = out ? td_layout__read(&layout, inst) : -ENOMEM;

	for (int i = 0; !err && events && events[i]; i++)
		err = td_events__add(&ev, inst, events[i]);
	if (!err) {
		td_out__init(out, fd);
		td_meta__write_head(out, &layout, "6");
		td_meta__write_headers(out, inst);
		td_events__write(&ev, inst, out, false);	/* as perf: no ftrace formats */
		td_meta__write_symbols(out, inst, false);
		err = td_out__flush(out);
	}
	td_events__exit(&ev);
	if (!err)
		err = out->pos > (uint64_t)SSIZE_MAX ? -EFBIG : 0;
	if (!err) {
		ssize_t len = (ssize_t)out->pos;

		free(out);
		return len;
	}
	free(out);
	return err;
}

int trace_dat__tracing_data(struct tracefs_instance *inst, const char *const *events,
			    void **data, size_t *size)
{
	int fd = memfd_create("tracing-data", MFD_CLOEXEC);
	ssize_t len = fd < 0 ? -errno : tracing_data__write(fd, inst, events);
	void *buf = NULL;

	if (len >= 0) {
		buf = malloc(len ? len : 1);
		if (!buf)
			len = -ENOMEM;
		else if (lseek(fd, 0, SEEK_SET) < 0 || libauxtrace__read_full(fd, buf, len) != len)
			len = -EIO;	/* written with pwrite: the file offset is still 0 */
	}
	if (fd >= 0)
		close(fd);
	if (len < 0) {
		free(buf);
		return libauxtrace__err((int)len);
	}
	*data = buf;
	*size = len;
	return 0;
}
