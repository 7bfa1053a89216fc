// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat writer: per-CPU sinks into a spool directory while recording, then one pass
 * that writes the description, has the kernel copy the CPU data in, and only then gives the
 * file its name.
 */
#include <sys/statvfs.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/opts.h>
#include <tracefs/tracefs.h>
#include "trace-dat-internal.h"

struct trace_dat_writer {
	char *path;			/* the name the file gets at finish */
	char *dir;			/* where the unnamed file lives: path's directory */
	struct td_spool_dir spool;	/* path.spool: head, clock, each CPU's data */
	struct tracefs_instance *inst;
	struct td_layout layout;
	struct td_events events;
	bool events_given;		/* opts named them: do not look at set_event */
	char *version;
	unsigned int mode;
	int level;			/* zstd's for version 7; 0: version 6, stored */
	int nr_cpus;
	int fd;				/* the trace.dat, unnamed until finish succeeds */
	bool closed;			/* finish was called: the sinks refuse data */
	struct td_spool *spools;	/* [nr_cpus] */
};

/* The directory part of path ("." for a bare name), or NULL when path names no file. */
static char *path__dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!*path || (slash && !slash[1])) {
		pr_err("trace.dat path '%s' names no file: give a file name, such as out/trace.dat\n",
		       path);
		errno = EINVAL;
		return NULL;
	}
	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* The spool directory, with the description as it is now: what a crashed run is laid out of. */
static int writer__spool(struct trace_dat_writer *w)
{
	char *clock = td_meta__read_clock(w->inst);
	struct td_head_params p = {
		.inst = w->inst, .layout = &w->layout, .events = &w->events,
		.nr_cpus = w->nr_cpus, .version = w->version, .clock = clock, .level = w->level,
	};
	int err = clock ? td_spool_dir__create(&w->spool, w->path, &p) : -errno;

	free(clock);
	return err;
}

static int writer__init(struct trace_dat_writer *w, const char *path,
			struct tracefs_instance *inst, const struct trace_dat_writer_opts *o)
{
	int err;

	w->path = strdup(path);
	w->dir = path__dir(path);
	if (!w->path || !w->dir)
		return -errno;
	w->nr_cpus = o->nr_cpus ?: (int)sysconf(_SC_NPROCESSORS_CONF);
	if (w->nr_cpus <= 0 || w->nr_cpus > 65536) {
		pr_err("trace.dat for %d CPUs: trace_dat_writer_opts.nr_cpus must be 1..65536\n",
		       w->nr_cpus);
		return -EINVAL;
	}
	w->mode = o->mode ?: 0600;
	w->level = o->compression_level;
	if (w->level < 0 || w->level > 22) {
		pr_err("trace_dat_writer_opts.compression_level %d: zstd takes 1 to 22 (0: none)\n",
		       w->level);
		return -EINVAL;
	}
	if (w->mode & ~07777u) {
		pr_err("trace_dat_writer_opts.mode %#o has bits beyond permissions (07777)\n",
		       w->mode);
		return -EINVAL;
	}
	if (o->version)
		w->version = strdup(o->version);
	else if (asprintf(&w->version, "libauxtrace %s", libauxtrace_version()) < 0)
		w->version = NULL;
	if (!w->version)
		return -ENOMEM;
	w->inst = inst;
	err = td_layout__read(&w->layout, inst);
	if (err)
		return err;
	w->events_given = o->events != NULL;
	err = td_events__add_list(&w->events, inst, o->events);
	if (err)
		return err;
	w->spools = calloc(w->nr_cpus, sizeof(*w->spools));
	if (!w->spools)
		return -ENOMEM;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		w->spools[cpu].fd = -1;
	/* the unnamed file first: it says best why a directory cannot take the output */
	w->fd = td_tmpfile(w->dir, w->path);
	if (w->fd < 0)
		return w->fd;
	err = writer__spool(w);
	for (int cpu = 0; cpu < w->nr_cpus && !err; cpu++)
		err = td_spool__init(&w->spools[cpu], w->spool.fd, cpu, &w->layout, &w->closed);
	return err;
}

struct trace_dat_writer *trace_dat_writer__new(const char *path, struct tracefs_instance *inst,
					       const struct trace_dat_writer_opts *opts)
{
	struct trace_dat_writer_opts o;
	struct trace_dat_writer *w;
	int err;

	if (!path)
		return libauxtrace__ptr_err(-EINVAL);
	err = opts__copy(trace_dat_writer_opts, &o, opts);
	if (err)
		return libauxtrace__ptr_err(err);
	w = calloc(1, sizeof(*w));
	if (!w)
		return libauxtrace__ptr_err(-ENOMEM);
	w->fd = -1;
	w->spool.fd = -1;
	err = writer__init(w, path, inst, &o);
	if (err) {
		trace_dat_writer__delete(w);
		return libauxtrace__ptr_err(err);
	}
	return w;
}

struct ring_sink *trace_dat_writer__cpu_sink(struct trace_dat_writer *w, int cpu)
{
	if (!w)
		return libauxtrace__ptr_err(-EINVAL);
	if (cpu < 0 || cpu >= w->nr_cpus || w->closed) {
		if (w->closed)
			pr_err("%s is finished: ask for CPU sinks before trace_dat_writer__finish()\n",
			       w->path);
		else
			pr_err("CPU %d is outside the %d CPUs of %s (trace_dat_writer_opts.nr_cpus)\n",
			       cpu, w->nr_cpus, w->path);
		return libauxtrace__ptr_err(-EINVAL);
	}
	return &w->spools[cpu].sink;
}

int trace_dat_writer__cpu_fd(struct trace_dat_writer *w, int cpu)
{
	struct ring_sink *sink = trace_dat_writer__cpu_sink(w, cpu);

	if (!sink)
		return libauxtrace__err(-errno);
	return container_of(sink, struct td_spool, sink)->fd;
}

/*
 * Name the finished file: link it under a temporary name, then rename that over path, so
 * path is either the old file or the whole new one, never a part.
 */
static int writer__publish(struct trace_dat_writer *w)
{
	char proc[64], *tmp;
	int err = 0;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w->fd);
	if (asprintf(&tmp, "%s.%d.tmp", w->path, (int)getpid()) < 0)
		return -ENOMEM;
	unlink(tmp);		/* left by a run of ours that died between link and rename */
	if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) < 0) {
		err = -errno;
		pr_err("cannot give %s a name (linkat of %s): %s%s\n", w->path, proc,
		       strerror(errno), err == -ENOENT ? ": is /proc mounted?" : "");
	} else if (rename(tmp, w->path) < 0) {
		err = -errno;
		pr_err("cannot rename %s to %s: %s\n", tmp, w->path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return err;
}

/* Each CPU's bytes of whole sub-buffers. 0 or -errno, logged. */
static int writer__sizes(struct trace_dat_writer *w, uint64_t *sizes)
{
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		int64_t size = td_spool__size(&w->spools[cpu]);

		if (size < 0) {
			pr_err("cannot write %s: the trace data of CPU %d: %s\n", w->path, cpu,
			       strerror((int)-size));
			return (int)size;
		}
		sizes[cpu] = size;
	}
	return 0;
}

/*
 * The copy gives each spool's room back as it goes, but needs some free to start: without
 * it, stop before a spool is touched, so that the spool can still be laid out alone.
 */
static int writer__room(struct trace_dat_writer *w, uint64_t align)
{
	struct statvfs vfs;

	if (fstatvfs(w->fd, &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < td_copy_room(w->nr_cpus, align))
		return -ENOSPC;
	return 0;
}

/* Write the whole file into w->fd: the description, then each CPU's data. 0 or -errno. */
static int writer__write(struct trace_dat_writer *w, struct td_out *out)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	uint64_t align = w->layout.page_size > sys_page ? w->layout.page_size : sys_page;
	char *clock = td_meta__read_clock(w->inst);
	int err = clock ? 0 : -errno;
	uint64_t *sizes = calloc(2 * (size_t)w->nr_cpus, sizeof(*sizes)), *offsets, end = 0;

	if (!err && !sizes)
		err = -ENOMEM;
	if (!err)
		err = writer__sizes(w, sizes);
	if (!err && w->level) {
		int *fds = calloc((size_t)w->nr_cpus, sizeof(*fds));
		struct td_v7_params p = {
			.inst = w->inst, .layout = &w->layout, .events = &w->events,
			.clock = clock, .version = w->version, .nr_cpus = w->nr_cpus, .fds = fds,
			.sizes = sizes, .align = align, .level = w->level,
		};

		for (int cpu = 0; fds && cpu < w->nr_cpus; cpu++)
			fds[cpu] = w->spools[cpu].fd;
		td_out__init(out, w->fd);
		end = fds ? td_v7__write(out, &p) : 0;
		err = fds ? td_out__flush(out) : -ENOMEM;
		free(fds);
	} else if (!err) {
		offsets = sizes + w->nr_cpus;
		td_out__init(out, w->fd);
		td_meta__write_head(out, &w->layout, "6");
		td_meta__write_headers(out, w->inst);
		td_events__write(&w->events, w->inst, out, true);
		td_meta__write_symbols(out, w->inst, true);
		td_meta__write_options(out, w->inst, w->nr_cpus, w->version);
		end = td_meta__write_flyrecord(out, clock, sizes, w->nr_cpus, align, offsets);
		err = td_out__flush(out);
		if (!err)
			err = writer__room(w, align);
		for (int cpu = 0; cpu < w->nr_cpus && !err; cpu++)
			if (sizes[cpu])
				err = td_spool__copy(&w->spools[cpu], w->fd, offsets[cpu],
						     sizes[cpu]);
	}
	if (!err && ftruncate(w->fd, end) < 0)	/* the padding after the last CPU's data */
		err = -errno;
	if (!err && fchmod(w->fd, w->mode) < 0)
		err = -errno;
	free(sizes);
	free(clock);
	if ((err == -ENOSPC || err == -EDQUOT) && w->spool.head)
		pr_warn("no space left in %s for a fresh description of %s (%llu KiB): laying it out from its spool, with the description of its start\n",
			w->dir, w->path, (unsigned long long)(end >> 10));
	else if (err == -ENOSPC || err == -EDQUOT)
		pr_err("no space left in %s for %s (%llu KiB), nor was there for its description at the start: free space there or write elsewhere; this recording is lost\n",
		       w->dir, w->path, (unsigned long long)(end >> 10));
	else if (err)
		pr_err("cannot write %s: %s\n", w->path, strerror(-err));
	return err;
}

int trace_dat_writer__finish(struct trace_dat_writer *w)
{
	struct td_out *out;
	int err = 0;

	if (!w)
		return libauxtrace__err(-EINVAL);
	if (w->closed) {
		pr_err("%s: trace_dat_writer__finish() called twice\n", w->path);
		return libauxtrace__err(-EINVAL);
	}
	w->closed = true;
	if (!w->events_given)	/* those enabled after the writer was made */
		err = td_events__add_enabled(&w->events, w->inst);
	out = err ? NULL : malloc(sizeof(*out));
	if (!err && !out)
		err = -ENOMEM;
	if (!err)
		err = writer__write(w, out);
	if (!err)
		err = writer__publish(w);
	free(out);
	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		td_spool__exit(&w->spools[cpu]);
	if (err) {
		close(w->fd);	/* the unnamed file goes with its last fd: its room too */
		w->fd = -1;
	}
	if (!err) {
		/* the data is in the file now: give the disk space back */
		td_spool_dir__remove(&w->spool);
	} else if ((err == -ENOSPC || err == -EDQUOT) && w->spool.head) {
		/* a full disk: what fit is in the spool, with the description of the start */
		err = td_spool_dir__assemble(w->path, w->mode);
		if (!err)
			td_spool_dir__forget(&w->spool);	/* laid out and removed */
	} else if (!w->spool.head) {
		td_spool_dir__remove(&w->spool);	/* nothing could make a file of it */
	}
	return libauxtrace__err(err);
}

void trace_dat_writer__delete(struct trace_dat_writer *w)
{
	if (!w)
		return;
	for (int cpu = 0; w->spools && cpu < w->nr_cpus; cpu++)
		td_spool__exit(&w->spools[cpu]);
	/* unfinished on purpose (finish leaves a spool only when it could not lay it out) */
	if (!w->closed)
		td_spool_dir__remove(&w->spool);
	td_spool_dir__forget(&w->spool);
	if (w->fd >= 0)
		close(w->fd);
	td_events__exit(&w->events);
	free(w->spools);
	free(w->version);
	free(w->path);
	free(w->dir);
	free(w);
}
