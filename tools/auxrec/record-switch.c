// SPDX-License-Identifier: LGPL-2.1
/*
 * --switch-output and --switch-max-files, as perf record's: the recording is cut into pieces,
 * each ended on SIGUSR2, at a size or after a time, and named by when it ended as perf names
 * perf.data.<timestamp>: OUTPUT.YYYYmmddHHMMSScc, the centiseconds last. A piece of auxrec
 * is a recording: a directory DIR.<timestamp> holding perf.data and trace.dat, which perf,
 * trace-cmd and every auxrec command read as any other recording (-o FILE.data with perf
 * events only: the file FILE.data.<timestamp>, as perf). Each is whole by itself: its own
 * header, attrs, features and side-band (the processes as they are at the switch, as perf
 * synthesizes them again), its own trace.dat description. A switch drains every ring into
 * the piece that ends, then moves the rings to the next piece's files before they are read
 * again: no record is in two pieces, none in neither.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/ring-set.h>
#include "error.h"
#include "record.h"

/* A number with one of units' letters after it, times that letter's factor. */
struct record_unit {
	char letter;
	double factor;
};

static bool record__parse_with_unit(const char *arg, const struct record_unit *units, int nr,
				    double *value)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v <= 0 || !end[0] || end[1])
		return false;
	for (int i = 0; i < nr; i++) {
		if (tolower((unsigned char)*end) == tolower((unsigned char)units[i].letter)) {
			*value = v * units[i].factor;
			return true;
		}
	}
	return false;
}

int record__parse_switch_output(struct record *rec, const char *arg)
{
	static const struct record_unit sizes[] = {
		{ 'B', 1 }, { 'K', 1 << 10 }, { 'M', 1 << 20 }, { 'G', 1 << 30 },
	};
	static const struct record_unit times[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	double v;

	rec->sw.on = true;
	rec->sw.signal = false;
	rec->sw.size = 0;
	rec->sw.time = 0;
	if (!arg || !strcmp(arg, "signal"))
		rec->sw.signal = true;
	else if (record__parse_with_unit(arg, sizes, 4, &v) && v >= 1 && v < 1e18)
		rec->sw.size = (uint64_t)v;
	else if (record__parse_with_unit(arg, times, 4, &v) && v >= 0.01 && v <= 365 * 86400.0)
		rec->sw.time = v;
	else {
		auxrec_error("--switch-output '%s': give signal (a new piece on SIGUSR2), a size "
			     "with B, K, M or G (100M), or a time with s, m, h or d (30s)", arg);
		return -EINVAL;
	}
	return 0;
}

int record__parse_switch_max_files(struct record *rec, const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || *end || end == arg || n < 1 || n > INT_MAX) {
		auxrec_error("--switch-max-files '%s': give how many pieces to keep, 1 or more", arg);
		return -EINVAL;
	}
	rec->sw.max_files = (int)n;
	return 0;
}

int record__check_switch(struct record *rec)
{
	if (rec->sw.max_files && !rec->sw.on) {
		auxrec_error("--switch-max-files keeps the newest pieces of --switch-output: give "
			     "--switch-output too");
		return -EINVAL;
	}
	if (rec->sw.on && rec->collector) {
		auxrec_error("--switch-output cuts local files into pieces, and -N sends the ftrace "
			     "events into one file of the collector's: give one of them");
		return -EINVAL;
	}
	if (rec->sw.on && rec->to_stdout) {
		auxrec_error("--switch-output cuts files into pieces, and -o - is one stream: give "
			     "-o DIR");
		return -EINVAL;
	}
	return 0;
}

/* What every ring has delivered so far: a piece's size is the growth of this. */
static uint64_t record__ring_bytes(const struct record *rec)
{
	uint64_t bytes = 0;

	for (int kind = 0; kind < RING_SOURCE__MAX; kind++) {
		struct ring_stats st;

		if (ring_set__stats(rec->set, kind, -1, &st) == 0)
			bytes += st.bytes;
	}
	return bytes;
}

void record__switch_start(struct record *rec, double now)
{
	if (!rec->sw.on)
		return;
	rec->sw.piece_started = now;
	rec->sw.base_bytes = record__ring_bytes(rec);
}

int record__switch_timeout(const struct record *rec, double now, int timeout)
{
	double left;

	if (!rec->sw.time)
		return timeout;
	left = rec->sw.piece_started + rec->sw.time - now;
	if (left <= 0)
		return 0;
	return left * 1000 < timeout ? (int)(left * 1000) + 1 : timeout;
}

/*
 * OUTPUT.<timestamp> as perf's: the local time to the centisecond. A name taken already (two
 * switches in one centisecond) takes the next centisecond, so the names still sort in order.
 */
static char *record__piece_name(const struct record *rec)
{
	struct timeval tv;
	long long cs;

	gettimeofday(&tv, NULL);
	cs = (long long)tv.tv_sec * 100 + tv.tv_usec / 10000;
	for (;; cs++) {
		time_t sec = (time_t)(cs / 100);
		struct tm tm;
		char *name;

		localtime_r(&sec, &tm);
		if (asprintf(&name, "%s.%04d%02d%02d%02d%02d%02d%02lld", rec->output,
			     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
			     tm.tm_sec, cs % 100) < 0)
			return NULL;
		if (access(name, F_OK) < 0)	/* free, or a name rename will say is wrong */
			return name;
		free(name);
	}
}

static void record__say_piece(const struct record *rec, const char *name)
{
	static const char *const files[] = { "perf.data", "trace.dat" };
	struct stat st;
	char path[PATH_MAX];

	if (rec->quiet)
		return;
	if (rec->output_file) {
		fprintf(stderr, "auxrec: dump %s (%.1f KiB)\n", name,
			stat(name, &st) == 0 ? st.st_size / 1024.0 : 0.0);
		return;
	}
	fprintf(stderr, "auxrec: dump %s:", name);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", name, files[i]);
		if (stat(path, &st) == 0)
			fprintf(stderr, " %s %.1f KiB", files[i], st.st_size / 1024.0);
	}
	fprintf(stderr, "\n");
}

/* --switch-max-files: the piece joins the kept ones, and the oldest beyond N go. */
static int record__keep_piece(struct record *rec, char *name)
{
	char **kept;

	if (!rec->sw.max_files) {
		free(name);
		return 0;
	}
	kept = realloc(rec->sw.kept, (rec->sw.nr_kept + 1) * sizeof(*kept));
	if (!kept) {
		free(name);
		return -ENOMEM;
	}
	rec->sw.kept = kept;
	kept[rec->sw.nr_kept++] = name;
	while (rec->sw.nr_kept > rec->sw.max_files) {
		int err = rec->output_file ? (unlink(kept[0]) < 0 ? -errno : 0) :
					     record__remove_recording(kept[0]);

		if (err)
			auxrec_error("--switch-max-files: cannot remove the old piece %s: %s",
				     kept[0], auxrec_strerror(-err));
		free(kept[0]);
		memmove(kept, kept + 1, --rec->sw.nr_kept * sizeof(*kept));
	}
	return 0;
}

/* The piece's files are finished: give it its name, say it, keep the newest. */
static int record__name_piece(struct record *rec)
{
	char *name = record__piece_name(rec);

	if (!name)
		return -ENOMEM;
	if (rename(rec->output, name) < 0) {
		int err = -errno;

		auxrec_error("cannot name the piece %s as %s: %s", rec->output, name,
			     auxrec_strerror(-err));
		free(name);
		return err;
	}
	rec->sw.pieces++;
	record__say_piece(rec, name);
	return record__keep_piece(rec, name);
}

static struct ring_sink *record__data_sink_of(void *ctx, int cpu)
{
	(void)cpu;
	return perf_data_writer__data_sink(ctx);
}

static struct ring_sink *record__aux_sink_of(void *ctx, int cpu)
{
	(void)cpu;
	return perf_data_writer__aux_sink(ctx);
}

static struct ring_sink *record__cpu_sink_of(void *ctx, int cpu)
{
	return trace_dat_writer__cpu_sink(ctx, cpu);
}

/* The next piece: its files, their heads and side-band, and the rings moved to them. */
static int record__next_piece(struct record *rec)
{
	int err = record__create_files(rec);

	if (!err)
		err = record__open_perf_data(rec);
	if (!err && rec->ftrace)
		err = record__open_trace_dat(rec);
	if (!err)
		err = ring_set__set_sinks(rec->set, RING_SOURCE_PERF, record__data_sink_of,
					  rec->perf_data);
	if (err >= 0)
		err = ring_set__set_sinks(rec->set, RING_SOURCE_AUX, record__aux_sink_of,
					  rec->perf_data);
	if (err >= 0 && rec->ftrace)
		err = ring_set__set_sinks(rec->set, RING_SOURCE_FTRACE, record__cpu_sink_of,
					  rec->trace_dat);
	if (err >= 0)
		return 0;
	auxrec_error("cannot start the next piece in %s: %s", rec->output, auxrec_strerror(-err));
	/* what it holds so far is no recording: it goes, as an output that never started */
	record__close_files(rec);
	if (rec->output_file ? unlink(rec->perf_path) : record__remove_recording(rec->output))
		auxrec_error("could not remove the unfinished %s: %s", rec->output,
			     auxrec_strerror(errno));
	return err;
}

/*
 * End this piece and start the next. Every ring is drained into it first, flushed as at the
 * end (tracefs hands out the page it is writing too): the piece holds everything up to the
 * switch. When the next piece cannot start, the recording stops with the error and the
 * rings are not drained again: they may still point at the writers of the piece that ended,
 * which are kept (finished) until the ring set is gone.
 */
static int record__switch(struct record *rec, double now)
{
	struct perf_data_writer *old_perf = rec->perf_data;
	struct trace_dat_writer *old_trace = rec->trace_dat;
	bool resumed = false;
	ssize_t n;
	int err, ferr;

	/*
	 * Every signal auxrec handles stops the set, not only a stop: also the SIGUSR2 of this
	 * very switch when it came after the poll had returned (its request is taken already),
	 * a later one, or a child's SIGCHLD. Those resume the drain; a request still waiting
	 * stops the set again once it is done, for the loop to serve. Taken as a stop, the
	 * switch was lost (test-auxrec-switch saw three pieces of four once).
	 */
	while ((n = ring_set__drain_all(rec->set, true)) == -ECANCELED) {
		if (record__stop_requested())
			return 0;	/* a stop came meanwhile: the end finishes this piece */
		ring_set__resume(rec->set);
		resumed = true;
	}
	if (resumed)
		record__signals_wake(rec->set);
	if (n < 0) {
		auxrec_error("draining the rings for the switch failed: %s",
			     auxrec_strerror((int)-n));
		return (int)n;
	}
	/* a piece that ends on an error still gets its name: it holds what was written */
	ferr = record__finish_output(rec);
	if (rec->perf_fd >= 0)
		close(rec->perf_fd);
	rec->perf_fd = -1;
	rec->perf_data = NULL;
	rec->trace_dat = NULL;
	err = record__name_piece(rec);
	if (!err && !ferr)
		err = record__next_piece(rec);
	if (err || ferr) {
		rec->sw.retired_perf = old_perf;
		rec->sw.retired_trace = old_trace;
		return ferr ? ferr : err;
	}
	perf_data_writer__delete(old_perf);
	trace_dat_writer__delete(old_trace);
	record__switch_start(rec, now);
	return 0;
}

int record__switch_if_due(struct record *rec, double now)
{
	bool due;

	if (!rec->sw.on)
		return 0;
	/* taken whatever else is due: the switch serves it */
	due = record__take_switch_request();
	due |= rec->sw.time && now >= rec->sw.piece_started + rec->sw.time;
	due |= rec->sw.size && record__ring_bytes(rec) - rec->sw.base_bytes >= rec->sw.size;
	return due ? record__switch(rec, now) : 0;
}

int record__switch_end(struct record *rec)
{
	/* nothing was written since a switch that failed: there is no piece to name */
	if (!rec->sw.on || rec->sw.retired_perf || rec->perf_fd < 0)
		return 0;
	return record__name_piece(rec);
}

void record__switch_free(struct record *rec)
{
	for (int i = 0; i < rec->sw.nr_kept; i++)
		free(rec->sw.kept[i]);
	free(rec->sw.kept);
	perf_data_writer__delete(rec->sw.retired_perf);
	trace_dat_writer__delete(rec->sw.retired_trace);
}
