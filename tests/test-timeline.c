// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline (auxtrace/timeline.h) and the recording opener (auxtrace-recording.h): on
 * recordings auxrec record makes on this machine (perf.data with cpu-clock and sched_switch
 * samples, trace.dat with getppid and sched_switch ftrace events, both on one clock), the
 * merged walk is non-decreasing in time, loses no record (the session's own counts, a
 * trace.dat cursor's, trace-cmd report's) and keeps each CPU's ftrace order; files on two
 * clocks are refused; either file alone works; damaged files fail naming the file and the
 * offset after what could be read went out. Synthetic streams pin the merge's rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <event-parse.h>
#include <tracefs/auxtrace-recording.h>
#include <tracefs/trace-dat-reader.h>
#include "lib/log-capture.h"
#include "lib/perf-data-testlib.h"
#include "lib/testlib.h"

#define LOOPS 20000

static char dir[64];

static void tmpdir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/auxtrace-timeline-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void tmpdir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), getenv("KEEP") ? "echo %s" : "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *in_dir(const char *fmt, ...)
{
	static char path[4][PATH_MAX];
	static int next;
	char *p = path[next++ % 4];
	int len = snprintf(p, PATH_MAX, "%s/", dir);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p + len, PATH_MAX - len, fmt, ap);
	va_end(ap);
	return p;
}

#define REQUIRE_TRACING()							\
	do {									\
		if (!testlib_is_root() || !testlib_tracefs())			\
			TEST_SKIP("needs root and a mounted tracefs");		\
	} while (0)

/* auxrec record -o DIR/name EVENTS -- getppid-loop LOOPS. */
static void record_args(const char *name, const char *events, int loops)
{
	static char auxrec[PATH_MAX];
	const char *b = getenv("B");
	char cmd[3 * PATH_MAX];

	if (!auxrec[0]) {
		snprintf(cmd, sizeof(cmd), "%s/auxrec", b && *b ? b : "build");
		ck_assert_ptr_nonnull(realpath(cmd, auxrec));
	}
	snprintf(cmd, sizeof(cmd), "timeout 60 %s record -o %s %s -- %s %d >%s.log 2>&1", auxrec,
		 in_dir("%s", name), events, testlib_prog("getppid-loop"), loops,
		 in_dir("%s", name));
	ck_assert_msg(system(cmd) == 0, "%s failed: see %s.log", cmd, in_dir("%s", name));
}

/*
 * cpu-clock and sched_switch samples in perf.data, getppid and sched_switch ftrace events in
 * trace.dat, of LOOPS getppid calls; extra: more options.
 */
static void record(const char *name, const char *extra)
{
	char events[256];

	snprintf(events, sizeof(events), "-e cpu-clock -e sched:sched_switch --ftrace "
		 "syscalls:sys_enter_getppid --ftrace sched:sched_switch %s", extra);
	record_args(name, events, LOOPS);
}

/* What a walk saw. */
struct walk {
	uint64_t nr[TIMELINE_NR_KINDS];
	uint64_t perf_types[PERF_SESSION_NR_TYPES];
	uint64_t backwards;		/* records older than one before them */
	uint64_t last;
	uint64_t switches;		/* from a perf record to an ftrace one or back */
	enum timeline_kind prev_kind;
	uint64_t getppid;		/* sys_enter_getppid events with a pid */
	struct { int cpu; uint64_t offset; } *ftrace;
	size_t nr_ftrace;
	int stop_at;			/* return -ECANCELED at this record (0: never) */
	uint64_t seen;
};

static int walk__record(void *ctx, const struct timeline_record *rec)
{
	struct walk *w = ctx;

	if (w->stop_at && ++w->seen == (uint64_t)w->stop_at)
		return -ECANCELED;
	w->nr[rec->kind]++;
	if (rec->time != TIMELINE_NO_TIME) {
		w->backwards += rec->time < w->last;
		if (rec->time > w->last)
			w->last = rec->time;
	}
	if (w->nr[rec->kind] > 1 && (rec->kind == TIMELINE_STREAM) != (w->prev_kind == TIMELINE_STREAM))
		w->switches++;
	w->prev_kind = rec->kind;
	if (rec->kind == TIMELINE_PERF_SAMPLE || rec->kind == TIMELINE_PERF_EVENT ||
	    rec->kind == TIMELINE_PERF_USER) {
		ck_assert_str_eq(rec->source, "perf");
		w->perf_types[rec->perf.event->header.type]++;
	}
	if (rec->kind == TIMELINE_STREAM) {
		const struct trace_dat_record *t = rec->stream.data;

		ck_assert_str_eq(rec->source, "ftrace");
		ck_assert_int_eq(rec->stream.type, t->kind);
		ck_assert_int_eq(rec->cpu, t->cpu);
		ck_assert_uint_eq(rec->time, t->ts);
		if (t->kind == TRACE_DAT_EVENT && t->event &&
		    !strcmp(t->event->name, "sys_enter_getppid") && rec->pid > 0 &&
		    rec->pid == rec->tid)
			w->getppid++;
		w->ftrace = realloc(w->ftrace, (w->nr_ftrace + 1) * sizeof(*w->ftrace));
		ck_assert_ptr_nonnull(w->ftrace);
		w->ftrace[w->nr_ftrace].cpu = t->cpu;
		w->ftrace[w->nr_ftrace++].offset = t->offset;
	}
	return 0;
}

/* Open path and walk it whole: timeline__process's return. */
static int walk_path(struct walk *w, const char *path, const struct auxtrace_recording_opts *o,
		     struct auxtrace_recording **out)
{
	struct auxtrace_recording *rec = auxtrace_recording__open(path, o);
	int err;

	ck_assert_msg(rec, "%s: %s", path, strerror(errno));
	err = timeline__process(auxtrace_recording__timeline(rec), walk__record, w);
	*out = rec;
	return err;
}

/* Every kernel record of the session went out once, samples as samples. */
static void assert_perf_whole(const struct walk *w, struct auxtrace_recording *rec)
{
	const struct perf_session_stats *st = perf_session__stats(auxtrace_recording__session(rec));
	const struct timeline *tl = auxtrace_recording__timeline(rec);
	uint64_t kernel = 0;

	for (int type = 1; type < PERF_RECORD_USER_TYPE_START; type++) {
		ck_assert_msg(w->perf_types[type] == st->nr_events[type],
			      "record type %d: %" PRIu64 " delivered, the session read %" PRIu64,
			      type, w->perf_types[type], st->nr_events[type]);
		kernel += st->nr_events[type];
	}
	ck_assert_uint_eq(w->nr[TIMELINE_PERF_SAMPLE], st->nr_events[PERF_RECORD_SAMPLE]);
	ck_assert_uint_eq(w->nr[TIMELINE_PERF_SAMPLE] + w->nr[TIMELINE_PERF_EVENT], kernel);
	ck_assert_uint_eq(timeline__stream_records(tl, "perf"), kernel + w->nr[TIMELINE_PERF_USER]);
	ck_assert_uint_gt(w->nr[TIMELINE_PERF_SAMPLE], 0);
}

/* The ftrace records are a cursor's, in each CPU's order; returns how many events. */
static uint64_t assert_ftrace_whole(const struct walk *w, const char *trace_dat)
{
	struct trace_dat_reader *r = trace_dat_reader__open(trace_dat);
	const struct trace_dat_record *t;
	struct trace_dat_cursor *c;
	uint64_t all = 0, events = 0;

	ck_assert_ptr_nonnull(r);
	c = trace_dat_cursor__new(r, -1);
	while ((t = trace_dat_cursor__next(c))) {
		all++;
		events += t->kind == TRACE_DAT_EVENT;
	}
	ck_assert_int_eq(errno, 0);
	trace_dat_cursor__delete(c);
	ck_assert_uint_eq(w->nr_ftrace, all);
	for (int cpu = 0; cpu < trace_dat_reader__nr_cpus(r); cpu++) {
		size_t i = 0;

		c = trace_dat_cursor__new(r, cpu);
		while ((t = trace_dat_cursor__next(c))) {
			while (i < w->nr_ftrace && w->ftrace[i].cpu != cpu)
				i++;
			ck_assert_msg(i < w->nr_ftrace && w->ftrace[i].offset == t->offset,
				      "CPU %d: the cursor's record at 0x%" PRIx64 " is not next in the "
				      "timeline", cpu, t->offset);
			i++;
		}
		while (i < w->nr_ftrace && w->ftrace[i].cpu != cpu)
			i++;
		ck_assert_msg(i == w->nr_ftrace, "CPU %d: the timeline has more", cpu);
		trace_dat_cursor__delete(c);
	}
	trace_dat_reader__close(r);
	return events;
}

/* trace-cmd report's events ("comm-pid [cpu] sec.nsec: name: ..."), -1 without trace-cmd. */
static long trace_cmd_events(const char *trace_dat)
{
	char cmd[PATH_MAX + 64], line[4096];
	long n = 0;
	FILE *p;

	if (system("command -v trace-cmd >/dev/null"))
		return -1;
	snprintf(cmd, sizeof(cmd), "timeout 60 trace-cmd report -t -i '%s' 2>/dev/null", trace_dat);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long sec, nsec;
		char *at = strstr(line, "] ");
		int cpu;

		n += at && at - line > 4 && at[-4] == '[' &&
		     sscanf(at - 3, "%d] %llu.%llu:", &cpu, &sec, &nsec) == 3;
	}
	ck_assert_int_eq(pclose(p), 0);
	return n;
}

/*
 * A recording of both files: one walk, in time order, every record of each, the ftrace
 * part in each CPU's order, the two interleaved.
 */
START_TEST(test_recording_merged)
{
	struct auxtrace_recording *rec;
	const struct timeline_stats *st;
	struct walk w = { 0 };
	uint64_t events;
	long tc;

	REQUIRE_TRACING();
	record("both", "");
	ck_assert_int_eq(walk_path(&w, in_dir("both"), NULL, &rec), 0);
	st = timeline__stats(auxtrace_recording__timeline(rec));
	ck_assert_str_eq(timeline__clock(auxtrace_recording__timeline(rec)), "perf");
	for (int k = 0; k < TIMELINE_NR_KINDS; k++)
		ck_assert_uint_eq(st->nr[k], w.nr[k]);
	/* out of order: only what the session itself delivered late */
	ck_assert_uint_eq(w.backwards, st->nr_unordered);
	ck_assert_uint_eq(st->nr_unordered,
			  perf_session__stats(auxtrace_recording__session(rec))->nr_unordered_events);
	assert_perf_whole(&w, rec);
	events = assert_ftrace_whole(&w, in_dir("both/trace.dat"));
	ck_assert_uint_eq(timeline__stream_records(auxtrace_recording__timeline(rec), "ftrace"),
			  w.nr_ftrace);
	ck_assert_uint_ge(w.getppid, LOOPS);
	ck_assert_msg(w.switches > 2, "perf and ftrace records not interleaved (%" PRIu64
		      " switches)", w.switches);
	tc = trace_cmd_events(in_dir("both/trace.dat"));
	if (tc >= 0)
		ck_assert_uint_eq(events, (uint64_t)tc);
	auxtrace_recording__close(rec);
	free(w.ftrace);
}
END_TEST

/* Either file alone, given by name or left out of the directory. */
START_TEST(test_single_files)
{
	AUXTRACE_OPTS(auxtrace_recording_opts, no_ftrace, .no_ftrace = true);
	AUXTRACE_OPTS(auxtrace_recording_opts, no_perf, .no_perf = true);
	AUXTRACE_OPTS(auxtrace_recording_opts, neither, .no_perf = true, .no_ftrace = true);
	AUXTRACE_OPTS(timeline_opts, user_tl, .user_records = true);
	AUXTRACE_OPTS(auxtrace_recording_opts, user, .timeline = &user_tl);
	struct auxtrace_recording *rec;
	struct walk w = { 0 };

	REQUIRE_TRACING();
	record("one", "");
	ck_assert_int_eq(walk_path(&w, in_dir("one/perf.data"), NULL, &rec), 0);
	ck_assert_ptr_null(auxtrace_recording__trace_dat(rec));
	ck_assert_uint_eq(w.nr_ftrace, 0);
	assert_perf_whole(&w, rec);
	auxtrace_recording__close(rec);

	ck_assert_uint_eq(w.nr[TIMELINE_PERF_USER], 0);	/* only when asked for */

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(walk_path(&w, in_dir("one"), &no_ftrace, &rec), 0);
	ck_assert_uint_eq(w.nr_ftrace, 0);
	assert_perf_whole(&w, rec);
	auxtrace_recording__close(rec);

	/* user_records: every user record too, each once, without a time */
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(walk_path(&w, in_dir("one"), &user, &rec), 0);
	assert_perf_whole(&w, rec);
	{
		const struct perf_session_stats *st =
			perf_session__stats(auxtrace_recording__session(rec));
		uint64_t nr = 0;

		for (int type = PERF_RECORD_USER_TYPE_START; type < PERF_SESSION_NR_TYPES; type++) {
			ck_assert_msg(w.perf_types[type] == st->nr_events[type],
				      "user record type %d: %" PRIu64 " delivered, the session read %"
				      PRIu64, type, w.perf_types[type], st->nr_events[type]);
			nr += st->nr_events[type];
		}
		ck_assert_uint_gt(st->nr_events[PERF_RECORD_FINISHED_ROUND], 0);
		ck_assert_uint_eq(w.nr[TIMELINE_PERF_USER], nr);
		ck_assert_uint_ge(timeline__stats(auxtrace_recording__timeline(rec))->nr_no_time, nr);
	}
	auxtrace_recording__close(rec);
	free(w.ftrace);

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(walk_path(&w, in_dir("one/trace.dat"), NULL, &rec), 0);
	ck_assert_ptr_null(auxtrace_recording__session(rec));
	ck_assert_str_eq(timeline__clock(auxtrace_recording__timeline(rec)), "perf");
	ck_assert_uint_eq(w.nr[TIMELINE_PERF_SAMPLE] + w.nr[TIMELINE_PERF_EVENT], 0);
	ck_assert_uint_eq(w.backwards, 0);
	assert_ftrace_whole(&w, in_dir("one/trace.dat"));
	auxtrace_recording__close(rec);
	free(w.ftrace);

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(walk_path(&w, in_dir("one"), &no_perf, &rec), 0);
	assert_ftrace_whole(&w, in_dir("one/trace.dat"));
	auxtrace_recording__close(rec);
	free(w.ftrace);

	log_capture_start();
	assert_null_errno(auxtrace_recording__open(in_dir("one"), &neither), ENOENT);
	assert_null_errno(auxtrace_recording__open(in_dir("one.log"), NULL), EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("neither a perf.data") && log_captured("one.log"),
		      "log: %s", log_text);
	assert_null_errno(auxtrace_recording__open(in_dir("nothing-here"), NULL), ENOENT);
}
END_TEST

/*
 * perf.data on perf's clock beside a trace.dat on mono: refused, saying which clocks and
 * that each can be read alone; any_clock interleaves anyway. A recording made with -k mono
 * has both on mono.
 */
START_TEST(test_clock_mismatch)
{
	AUXTRACE_OPTS(timeline_opts, any, .any_clock = true);
	AUXTRACE_OPTS(auxtrace_recording_opts, anyway, .timeline = &any);
	struct auxtrace_recording *rec;
	struct walk w = { 0 };

	REQUIRE_TRACING();
	record("perf-clock", "");
	record("mono", "-k mono");
	ck_assert_int_eq(mkdir(in_dir("mixed"), 0755), 0);
	ck_assert_int_eq(symlink(in_dir("perf-clock/perf.data"), in_dir("mixed/perf.data")), 0);
	ck_assert_int_eq(symlink(in_dir("mono/trace.dat"), in_dir("mixed/trace.dat")), 0);
	log_capture_start();
	assert_null_errno(auxtrace_recording__open(in_dir("mixed"), NULL), EXDEV);
	log_capture_stop();
	ck_assert_msg(log_captured("\"mono\"") && log_captured("\"perf\"") &&
		      log_captured("perf.data") && log_captured("alone"), "log: %s", log_text);

	ck_assert_int_eq(walk_path(&w, in_dir("mixed"), &anyway, &rec), 0);
	assert_perf_whole(&w, rec);
	assert_ftrace_whole(&w, in_dir("mono/trace.dat"));
	auxtrace_recording__close(rec);
	free(w.ftrace);

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(walk_path(&w, in_dir("mono"), NULL, &rec), 0);
	ck_assert_str_eq(timeline__clock(auxtrace_recording__timeline(rec)), "mono");
	assert_perf_whole(&w, rec);
	assert_ftrace_whole(&w, in_dir("mono/trace.dat"));
	ck_assert_uint_gt(w.switches, 2);
	auxtrace_recording__close(rec);
	free(w.ftrace);
}
END_TEST

/* Records walked, and the most RSS seen while walking (looked at every 64 Ki records). */
struct rss_walk {
	uint64_t n;
	long long max_rss;
};

static int rss_record(void *ctx, const struct timeline_record *rec)
{
	struct rss_walk *w = ctx;

	(void)rec;
	if (!(w->n++ & 0xffff)) {
		long long rss = testlib_self_status("RssFile", 10);

		if (rss > w->max_rss)
			w->max_rss = rss;
	}
	return 0;
}

/*
 * A walk over some 60 MB of recording (getppid as a perf tracepoint and as an ftrace event)
 * holds a few MB of it: the session and the trace.dat cursor give back the pages they
 * passed. Measured as this process's file-backed RSS while walking, over that after the
 * open: the files' pages are what a walk that gives nothing back keeps, and anonymous
 * memory is not (a sanitizer's quarantine of freed blocks would count there).
 */
START_TEST(test_memory_bounded)
{
	struct auxtrace_recording *rec;
	struct stat perf, ftrace;
	struct rss_walk w = { 0 };
	long long opened;

	REQUIRE_TRACING();
	record_args("big", "-e syscalls:sys_enter_getppid -m 1024 --ftrace "
		    "syscalls:sys_enter_getppid --ftrace-buffer-kb 16384", 600000);
	ck_assert_int_eq(stat(in_dir("big/perf.data"), &perf), 0);
	ck_assert_int_eq(stat(in_dir("big/trace.dat"), &ftrace), 0);
	ck_assert_int_gt(perf.st_size + ftrace.st_size, 40 << 20);
	rec = auxtrace_recording__open(in_dir("big"), NULL);
	ck_assert_ptr_nonnull(rec);
	opened = testlib_self_status("RssFile", 10);
	ck_assert_int_eq(timeline__process(auxtrace_recording__timeline(rec), rss_record, &w), 0);
	auxtrace_recording__close(rec);
	ck_assert_uint_gt(w.n, 1000000);
	ck_assert_msg(w.max_rss - opened < 24 * 1024, "file RSS grew by %lld KiB walking %lld MiB",
		      w.max_rss - opened, (long long)(perf.st_size + ftrace.st_size) >> 20);
}
END_TEST

/* A copy of src with len bytes at offset replaced by bytes (NULL: cut the file there). */
static void damaged_copy(const char *src, const char *dst, uint64_t offset, const void *bytes,
			 size_t len)
{
	size_t size;
	void *data = testlib_slurp(src, &size);
	int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_ptr_nonnull(data);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_le(offset + len, size);
	if (bytes)
		memcpy((char *)data + offset, bytes, len);
	else
		size = offset;
	ck_assert_int_eq(write(fd, data, size), (ssize_t)size);
	close(fd);
	free(data);
}

struct nth {
	int n;
	const void *at;
};

static int nth__record(void *ctx, const union perf_event *ev)
{
	struct nth *nth = ctx;

	if (--nth->n)
		return 0;
	nth->at = ev;
	return 1;
}

/* The file offset of the record in the middle of perf.data's data section. */
static uint64_t middle_record(const char *path)
{
	struct perf_session *s = perf_session__new(path, NULL);
	const struct perf_file_header *h;
	struct nth nth = { 0 };
	size_t size;
	char *data = testlib_slurp(path, &size);
	uint64_t at;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(data);
	h = perf_session__header(s);
	nth.n = testlib_walk_records(data + h->data.offset, h->data.size, nth__record, &nth) / 2;
	ck_assert_int_gt(nth.n, 10);
	testlib_walk_records(data + h->data.offset, h->data.size, nth__record, &nth);
	ck_assert_ptr_nonnull(nth.at);
	at = (uint64_t)((const char *)nth.at - data);
	perf_session__delete(s);
	free(data);
	return at;
}

/*
 * A sub-buffer in the middle of trace.dat with a commit word past its room: the walk fails
 * with EINVAL naming the file and the sub-buffer's offset, after every perf record and the
 * ftrace records before it went out. A perf.data with a record too short for its header in
 * the middle: the same, the other way round.
 */
START_TEST(test_damaged_files)
{
	const uint32_t bad_commit = 0x00ffffff;
	const struct trace_dat_cpu_data *cd = NULL;
	struct auxtrace_recording *rec;
	struct trace_dat_reader *r;
	struct walk w = { 0 }, whole = { 0 };
	uint64_t sub, all_ftrace;
	char where[32];
	int err;

	REQUIRE_TRACING();
	record("good", "");
	ck_assert_int_eq(walk_path(&whole, in_dir("good"), NULL, &rec), 0);
	auxtrace_recording__close(rec);
	all_ftrace = whole.nr_ftrace;

	/* the middle sub-buffer of the CPU with the most data */
	r = trace_dat_reader__open(in_dir("good/trace.dat"));
	ck_assert_ptr_nonnull(r);
	for (int cpu = 0; cpu < trace_dat_reader__nr_cpus(r); cpu++)
		if (!cd || trace_dat_reader__cpu_data(r, cpu)->size > cd->size)
			cd = trace_dat_reader__cpu_data(r, cpu);
	ck_assert_uint_ge(cd->size / trace_dat_reader__page_size(r), 4);
	sub = cd->offset + cd->size / trace_dat_reader__page_size(r) / 2 *
			   trace_dat_reader__page_size(r);
	trace_dat_reader__close(r);
	ck_assert_int_eq(mkdir(in_dir("bad-ftrace"), 0755), 0);
	ck_assert_int_eq(symlink(in_dir("good/perf.data"), in_dir("bad-ftrace/perf.data")), 0);
	/* the commit word follows the sub-buffer's 8-byte timestamp */
	damaged_copy(in_dir("good/trace.dat"), in_dir("bad-ftrace/trace.dat"), sub + 8,
		     &bad_commit, sizeof(bad_commit));
	log_capture_start();
	err = walk_path(&w, in_dir("bad-ftrace"), NULL, &rec);
	log_capture_stop();
	ck_assert_int_eq(err, -EINVAL);
	snprintf(where, sizeof(where), "0x%" PRIx64, sub);
	ck_assert_msg(log_captured("bad-ftrace/trace.dat") && log_captured(where), "log: %s",
		      log_text);
	assert_perf_whole(&w, rec);
	ck_assert_uint_gt(w.nr_ftrace, 0);
	ck_assert_uint_lt(w.nr_ftrace, all_ftrace);
	auxtrace_recording__close(rec);
	free(w.ftrace);

	/* perf.data with a record in the middle of its data section 4 bytes long */
	ck_assert_int_eq(mkdir(in_dir("bad-perf"), 0755), 0);
	ck_assert_int_eq(symlink(in_dir("good/trace.dat"), in_dir("bad-perf/trace.dat")), 0);
	sub = middle_record(in_dir("good/perf.data"));
	damaged_copy(in_dir("good/perf.data"), in_dir("bad-perf/perf.data"), sub + 6,
		     &(uint16_t){ 4 }, sizeof(uint16_t));
	memset(&w, 0, sizeof(w));
	log_capture_start();
	err = walk_path(&w, in_dir("bad-perf"), NULL, &rec);
	log_capture_stop();
	ck_assert_int_eq(err, -EINVAL);
	snprintf(where, sizeof(where), "0x%" PRIx64, sub);
	ck_assert_msg(log_captured("bad-perf/perf.data") && log_captured(where), "log: %s",
		      log_text);
	/* every ftrace record still went out, and the perf records before the damage */
	ck_assert_uint_eq(w.nr_ftrace, all_ftrace);
	ck_assert_uint_gt(w.nr[TIMELINE_PERF_SAMPLE], 0);
	ck_assert_uint_lt(w.nr[TIMELINE_PERF_SAMPLE], whole.nr[TIMELINE_PERF_SAMPLE]);
	auxtrace_recording__close(rec);
	free(w.ftrace);
	free(whole.ftrace);
}
END_TEST

/* A synthetic stream: times from an array (TIMELINE_NO_TIME: none), failing with fail_err
 * after fail_after records when that is set. */
struct fake {
	const uint64_t *times;
	int nr, at, fail_after, fail_err;
	int id;
	bool freed;
};

static int fake__next(void *ctx, struct timeline_record *rec)
{
	struct fake *f = ctx;

	if (f->fail_err && f->at == f->fail_after)
		return f->fail_err;
	if (f->at == f->nr)
		return 0;
	rec->time = f->times[f->at];
	rec->cpu = f->id;
	rec->stream.type = f->at++;
	rec->stream.data = f;
	return 1;
}

static void fake__free(void *ctx)
{
	((struct fake *)ctx)->freed = true;
}

static int fake__add(struct timeline *tl, struct fake *f, const char *name, const char *clock)
{
	AUXTRACE_OPTS(timeline_stream, st, .name = name, .clock = clock, .next = fake__next,
		      .free = fake__free, .ctx = f);

	return timeline__add_stream(tl, &st);
}

struct order {
	char seq[64][8];
	int n;
	int stop_at;
};

static int order__record(void *ctx, const struct timeline_record *rec)
{
	struct order *o = ctx;

	ck_assert_int_eq(rec->kind, TIMELINE_STREAM);
	ck_assert_int_eq(rec->pid, -1);
	snprintf(o->seq[o->n++], sizeof(o->seq[0]), "%s%d", rec->source, rec->stream.type);
	return o->n == o->stop_at ? -ECANCELED : 0;
}

static void assert_order(const struct order *o, const char *want)
{
	char got[512] = "";

	for (int i = 0; i < o->n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "",
			 o->seq[i]);
	ck_assert_str_eq(got, want);
}

/*
 * The merge's rules on streams alone: the oldest head first, ties to the stream added
 * first, records without a time where they are pulled; the stats; a failing stream ends
 * while the others go on; the callback's stop; one walk only.
 */
START_TEST(test_streams_merge)
{
	static const uint64_t ta[] = { 10, 30, 30, 50 },
			      tb[] = { 20, 30, TIMELINE_NO_TIME, 40, 60 };
	struct fake a = { .times = ta, .nr = 4, .id = 0 }, b = { .times = tb, .nr = 5, .id = 1 };
	struct timeline *tl = timeline__new(NULL, NULL);
	const struct timeline_stats *st;
	struct order o = { 0 };

	ck_assert_ptr_nonnull(tl);
	ck_assert_ptr_null(timeline__clock(tl));
	ck_assert_int_eq(fake__add(tl, &a, "a", "mono"), 0);
	ck_assert_int_eq(fake__add(tl, &b, "b", "mono"), 0);
	ck_assert_str_eq(timeline__clock(tl), "mono");
	ck_assert_int_eq(timeline__process(tl, order__record, &o), 0);
	/* b2 has no time: out when pulled, after b1 went */
	assert_order(&o, "a0 b0 a1 a2 b1 b2 b3 a3 b4");
	st = timeline__stats(tl);
	ck_assert_uint_eq(st->nr[TIMELINE_STREAM], 9);
	ck_assert_uint_eq(st->nr_no_time, 1);
	ck_assert_uint_eq(st->nr_unordered, 0);
	ck_assert_uint_eq(st->first_time, 10);
	ck_assert_uint_eq(st->last_time, 60);
	ck_assert_uint_eq(timeline__stream_records(tl, "a"), 4);
	ck_assert_uint_eq(timeline__stream_records(tl, "b"), 5);
	ck_assert_uint_eq(timeline__stream_records(tl, "perf"), 0);
	log_capture_start();
	ck_assert_int_eq(timeline__process(tl, order__record, &o), -EBUSY);
	ck_assert_int_eq(fake__add(tl, &a, "c", "mono"), -EBUSY);
	log_capture_stop();
	timeline__delete(tl);
	ck_assert(a.freed && b.freed);

	/* a stream that fails after two records: the other goes to its end */
	a = (struct fake){ .times = ta, .nr = 4, .fail_after = 2, .fail_err = -EIO };
	b = (struct fake){ .times = tb, .nr = 5, .id = 1 };
	memset(&o, 0, sizeof(o));
	tl = timeline__new(NULL, NULL);
	ck_assert_int_eq(fake__add(tl, &a, "a", NULL), 0);
	ck_assert_int_eq(timeline__process(tl, order__record, &o), -EIO);
	assert_order(&o, "a0 a1");
	timeline__delete(tl);

	a = (struct fake){ .times = ta, .nr = 4, .fail_after = 2, .fail_err = -EIO };
	memset(&o, 0, sizeof(o));
	tl = timeline__new(NULL, NULL);
	ck_assert_int_eq(fake__add(tl, &a, "a", "perf"), 0);
	ck_assert_int_eq(fake__add(tl, &b, "b", "perf"), 0);
	ck_assert_int_eq(timeline__process(tl, order__record, &o), -EIO);
	assert_order(&o, "a0 b0 a1 b1 b2 b3 b4");
	timeline__delete(tl);

	/* the callback stops the walk */
	a = (struct fake){ .times = ta, .nr = 4 };
	b = (struct fake){ .times = tb, .nr = 5, .id = 1 };
	memset(&o, 0, sizeof(o));
	o.stop_at = 3;
	tl = timeline__new(NULL, NULL);
	ck_assert_int_eq(fake__add(tl, &a, "a", "perf"), 0);
	ck_assert_int_eq(fake__add(tl, &b, "b", "perf"), 0);
	ck_assert_int_eq(timeline__process(tl, order__record, &o), -ECANCELED);
	assert_order(&o, "a0 b0 a1");
	timeline__delete(tl);
}
END_TEST

/* A stream going back in time is counted, not reordered. */
START_TEST(test_stream_backwards_counted)
{
	static const uint64_t t[] = { 10, 5, 20 };
	struct fake a = { .times = t, .nr = 3 };
	struct timeline *tl = timeline__new(NULL, NULL);
	struct order o = { 0 };

	ck_assert_int_eq(fake__add(tl, &a, "a", "perf"), 0);
	ck_assert_int_eq(timeline__process(tl, order__record, &o), 0);
	assert_order(&o, "a0 a1 a2");
	ck_assert_uint_eq(timeline__stats(tl)->nr_unordered, 1);
	timeline__delete(tl);
}
END_TEST

/* Streams on different or unknown clocks, bad streams and options. */
START_TEST(test_stream_refused)
{
	AUXTRACE_OPTS(timeline_opts, any, .any_clock = true);
	struct { struct timeline_opts o; char newer[8]; } future = { .o = { .sz = sizeof(future) } };
	struct fake a = { 0 }, b = { 0 };
	struct timeline *tl = timeline__new(NULL, NULL);
	AUXTRACE_OPTS(timeline_stream, nameless, .next = fake__next);

	log_capture_start();
	ck_assert_int_eq(fake__add(tl, &a, "a", "boot"), 0);
	ck_assert_int_eq(fake__add(tl, &b, "b", "local"), -EXDEV);
	ck_assert_int_eq(errno, EXDEV);
	log_capture_stop();
	ck_assert_msg(log_captured("\"boot\"") && log_captured("\"local\"") &&
		      log_captured("the b stream") && log_captured("the a stream") &&
		      log_captured("any_clock"), "log: %s", log_text);
	ck_assert(!b.freed);	/* refused: the caller keeps it */
	log_capture_start();
	ck_assert_int_eq(fake__add(tl, &b, "b", NULL), -EXDEV);
	ck_assert_int_eq(timeline__add_stream(tl, &nameless), -EINVAL);
	log_capture_stop();
	ck_assert(log_captured("unknown"));
	timeline__delete(tl);

	tl = timeline__new(NULL, &any);
	ck_assert_int_eq(fake__add(tl, &a, "a", "boot"), 0);
	ck_assert_int_eq(fake__add(tl, &b, "b", NULL), 0);
	timeline__delete(tl);

	future.newer[0] = 1;
	log_capture_start();
	assert_null_errno(timeline__new(NULL, &future.o), EINVAL);
	log_capture_stop();

	ck_assert_str_eq(perf_clockid__trace_clock(-1), "perf");
	ck_assert_str_eq(perf_clockid__trace_clock(CLOCK_MONOTONIC), "mono");
	ck_assert_str_eq(perf_clockid__trace_clock(CLOCK_MONOTONIC_RAW), "mono_raw");
	ck_assert_str_eq(perf_clockid__trace_clock(CLOCK_BOOTTIME), "boot");
	ck_assert_str_eq(perf_clockid__trace_clock(CLOCK_TAI), "tai");
	ck_assert_ptr_null(perf_clockid__trace_clock(CLOCK_REALTIME));
}
END_TEST

static Suite *timeline_suite(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_streams_merge);
	tcase_add_test(tc, test_stream_backwards_counted);
	tcase_add_test(tc, test_stream_refused);
	tcase_add_test(tc, test_recording_merged);
	tcase_add_test(tc, test_single_files);
	tcase_add_test(tc, test_clock_mismatch);
	tcase_add_test(tc, test_damaged_files);
	tcase_add_test(tc, test_memory_bounded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return testlib_run(timeline_suite());
}
