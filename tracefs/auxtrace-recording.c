// SPDX-License-Identifier: LGPL-2.1
/*
 * auxtrace_recording: what auxrec record wrote, found and opened as one timeline. A
 * directory is auxrec's layout (record-output.c: perf.data, and trace.dat when ftrace events
 * were recorded); a file is told apart by its magic.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include "auxtrace-recording.h"
#include "trace-dat-reader.h"

struct auxtrace_recording {
	struct perf_session *session;
	struct trace_dat_reader *reader;
	struct timeline *tl;
};

enum rec_file { REC_PERF_DATA, REC_TRACE_DAT };

/* What a file is, by its first bytes: -EINVAL (logged) for neither, or what open() says. */
static int recording__file_kind(const char *path)
{
	static const char trace_dat[] = "\x17\x08\x44tracing", perf[] = "PERFILE2",
			  perf_swapped[] = "2ELIFREP";
	char head[10] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = libauxtrace__read_full(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return (int)n;
	if (n == (ssize_t)sizeof(head) && !memcmp(head, trace_dat, sizeof(head)))
		return REC_TRACE_DAT;
	if (n >= 8 && (!memcmp(head, perf, 8) || !memcmp(head, perf_swapped, 8)))
		return REC_PERF_DATA;
	pr_err("%s: neither a perf.data (magic PERFILE2) nor a trace.dat (magic \\x17\\x08Dtracing): "
	       "give a recording directory, a perf.data or a trace.dat\n", path);
	return -EINVAL;
}

static int recording__open_perf(struct auxtrace_recording *rec, const char *path,
				const struct auxtrace_recording_opts *o)
{
	rec->session = perf_session__new(path, o->session);
	return rec->session ? 0 : -errno;
}

static int recording__open_trace_dat(struct auxtrace_recording *rec, const char *path,
				     const struct auxtrace_recording_opts *o)
{
	rec->reader = trace_dat_reader__open_opts(path, o->trace_dat);
	return rec->reader ? 0 : -errno;
}

/* A directory: each of its files that is there and not left out. */
static int recording__open_dir(struct auxtrace_recording *rec, const char *dir,
			       const struct auxtrace_recording_opts *o)
{
	char perf[PATH_MAX], ftrace[PATH_MAX];
	bool has_perf, has_ftrace;
	int err = 0;

	if ((size_t)snprintf(perf, sizeof(perf), "%s/perf.data", dir) >= sizeof(perf) ||
	    (size_t)snprintf(ftrace, sizeof(ftrace), "%s/trace.dat", dir) >= sizeof(ftrace))
		return -ENAMETOOLONG;
	has_perf = !o->no_perf && !access(perf, F_OK);
	has_ftrace = !o->no_ftrace && !access(ftrace, F_OK);
	if (!has_perf && !has_ftrace) {
		pr_err("%s: no perf.data or trace.dat to read in this directory%s\n", dir,
		       o->no_perf || o->no_ftrace ? " (or the one there was left out)" : "");
		return -ENOENT;
	}
	if (has_perf)
		err = recording__open_perf(rec, perf, o);
	if (!err && has_ftrace)
		err = recording__open_trace_dat(rec, ftrace, o);
	return err;
}

static int recording__open_path(struct auxtrace_recording *rec, const char *path,
				const struct auxtrace_recording_opts *o)
{
	struct stat st;
	int kind;

	if (!strcmp(path, "-"))
		return recording__open_perf(rec, path, o);
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return recording__open_dir(rec, path, o);
	/*
	 * A FIFO (or another stream) cannot be opened twice, once for its magic and once to
	 * read it: it can only be perf's pipe format, which the session reads from one open.
	 */
	if (!S_ISREG(st.st_mode) && o->no_perf) {
		pr_err("%s: not a regular file, so perf's pipe format, which is left out\n", path);
		return -ENOENT;
	}
	if (!S_ISREG(st.st_mode))
		return recording__open_perf(rec, path, o);
	kind = recording__file_kind(path);
	if (kind < 0)
		return kind;
	if ((kind == REC_PERF_DATA && o->no_perf) || (kind == REC_TRACE_DAT && o->no_ftrace)) {
		pr_err("%s: the only file given is left out: nothing to read\n", path);
		return -ENOENT;
	}
	return kind == REC_PERF_DATA ? recording__open_perf(rec, path, o)
				     : recording__open_trace_dat(rec, path, o);
}

struct auxtrace_recording *auxtrace_recording__open(const char *path,
						    const struct auxtrace_recording_opts *opts)
{
	struct auxtrace_recording_opts o;
	struct auxtrace_recording *rec;
	int err;

	if (opts__copy(auxtrace_recording_opts, &o, opts))
		return libauxtrace__ptr_err(EINVAL);
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return libauxtrace__ptr_err(ENOMEM);
	err = recording__open_path(rec, path ? path : ".", &o);
	if (!err) {
		rec->tl = timeline__new(rec->session, o.timeline);
		err = rec->tl ? 0 : -errno;
	}
	if (!err && rec->reader) {
		err = trace_dat_reader__add_to_timeline(rec->reader, rec->tl);
		if (err == -EXDEV)
			pr_err("%s: read its perf.data or its trace.dat alone (no_ftrace, no_perf)\n",
			       path);
	}
	if (err) {
		auxtrace_recording__close(rec);
		return libauxtrace__ptr_err(err);
	}
	return rec;
}

void auxtrace_recording__close(struct auxtrace_recording *rec)
{
	if (!rec)
		return;
	/* the timeline's stream holds a cursor of the reader: it goes first */
	timeline__delete(rec->tl);
	trace_dat_reader__close(rec->reader);
	perf_session__delete(rec->session);
	free(rec);
}

struct timeline *auxtrace_recording__timeline(const struct auxtrace_recording *rec)
{
	return rec->tl;
}

struct perf_session *auxtrace_recording__session(const struct auxtrace_recording *rec)
{
	return rec->session;
}

struct trace_dat_reader *auxtrace_recording__trace_dat(const struct auxtrace_recording *rec)
{
	return rec->reader;
}
