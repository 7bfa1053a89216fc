// SPDX-License-Identifier: LGPL-2.1
/*
 * The files of a recording into a report model. Two passes: the first finds the recording's
 * span (so the model bins at the best width from the first record on) and the PERF_RECORD_AUX
 * records (whose times place the AUX bytes, which AUXTRACE records lack); the second adds
 * every record, loss and snapshot. perf.data through perf_session, trace.dat through the
 * trace.dat reader: both check every offset, and their errors say where.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <auxtrace/session.h>
#include <event-parse.h>
#include <tracefs/trace-dat-reader.h>

#include "error.h"
#include "report.h"
#include "report-feed.h"

/* AUXTRACE_INFO priv[] index of the snapshot flag, per AUX type (perf's layouts). */
#define INTEL_PT_PRIV_SNAPSHOT_MODE	8
#define INTEL_BTS_PRIV_SNAPSHOT_MODE	5

/* A PERF_RECORD_AUX: where its bytes are in its ring's AUX stream, and when. */
struct aux_mark {
	int key;		/* CPU, or tid on a per-thread ring */
	uint64_t offset, size;
	uint64_t time;
};

struct report_walk {
	struct report_data *d;
	const struct report_input *in;
	bool by_cpu;			/* lanes are CPUs (else threads) */
	uint64_t first, last;		/* pass 1: the span */
	struct aux_mark *marks;		/* pass 1: PERF_RECORD_AUX, sorted for the lookup */
	size_t nr_marks, marks_alloc;
	bool has_aux;			/* an AUXTRACE_INFO: AUX data was recorded */
	bool snapshot_mode;
	uint64_t last_time;		/* pass 2: of the latest timed record, in file order */
	uint64_t last_snapshot;
	int *ftrace_ids;		/* pass 1: ids of the ftrace system's events seen */
	size_t nr_ftrace_ids;
	struct report_feed *feed;	/* pass 2: what ran, into d->agg */
	bool said;			/* the error was printed where it happened */
};

/* A perf_tool and the walk its callbacks fill. */
struct walk_tool {
	struct perf_tool tool;
	struct report_walk *w;
};

static struct report_walk *walk_of(struct perf_tool *tool)
{
	return ((struct walk_tool *)tool)->w;	/* the tool is the first member */
}

static uint64_t sample__time(const struct perf_sample *s)
{
	/* perf's rule: 0 is no time (synthesized side-band) */
	return s->time == (uint64_t)-1 || !s->time ? REPORT_TIME_NONE : s->time;
}

static int report_walk__lane(const struct report_walk *w, const struct perf_sample *s)
{
	uint32_t v = w->by_cpu ? s->cpu : s->tid;

	return v == (uint32_t)-1 ? REPORT_LANE_NONE : (int)v;
}

static void report_walk__span(struct report_walk *w, uint64_t t)
{
	if (t == REPORT_TIME_NONE)
		return;
	if (t < w->first)
		w->first = t;
	if (t > w->last)
		w->last = t;
}

/* ---- pass 1 ---- */

static int pass1__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			 struct perf_sample *sample, struct evsel *evsel)
{
	struct report_walk *w = walk_of(tool);

	(void)s, (void)evsel;
	report_walk__span(w, sample__time(sample));
	if (ev->header.type == PERF_RECORD_AUX && sample__time(sample) != REPORT_TIME_NONE) {
		struct aux_mark *m;

		if (w->nr_marks == w->marks_alloc) {
			size_t n = w->marks_alloc ? 2 * w->marks_alloc : 256;

			m = reallocarray(w->marks, n, sizeof(*m));
			if (!m)
				return -ENOMEM;
			w->marks = m;
			w->marks_alloc = n;
		}
		w->marks[w->nr_marks++] = (struct aux_mark){
			.key = (int)(sample->cpu != (uint32_t)-1 ? sample->cpu : sample->tid),
			.offset = ev->aux.aux_offset, .size = ev->aux.aux_size,
			.time = sample->time,
		};
	}
	return 0;
}

static int pass1__user(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		       uint64_t offset)
{
	struct report_walk *w = walk_of(tool);
	const struct perf_record_auxtrace_info *info = &ev->auxtrace_info;
	size_t nr_priv = (ev->header.size - sizeof(*info)) / sizeof(uint64_t);

	(void)s, (void)offset;
	if (ev->header.type != PERF_RECORD_AUXTRACE_INFO)
		return 0;
	w->has_aux = true;
	if (info->type == PERF_AUXTRACE_INTEL_PT && nr_priv > INTEL_PT_PRIV_SNAPSHOT_MODE)
		w->snapshot_mode = info->priv[INTEL_PT_PRIV_SNAPSHOT_MODE];
	else if (info->type == PERF_AUXTRACE_INTEL_BTS && nr_priv > INTEL_BTS_PRIV_SNAPSHOT_MODE)
		w->snapshot_mode = info->priv[INTEL_BTS_PRIV_SNAPSHOT_MODE];
	return 0;
}

static int aux_mark__cmp(const void *a, const void *b)
{
	const struct aux_mark *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* ---- pass 2 ---- */

static int add_data(struct report_walk *w, enum report_source src, int lane, uint64_t t,
		    uint64_t bytes, uint64_t records)
{
	return report_model__add_data(w->d->m, src, lane, t, bytes, records);
}

static int add_loss(struct report_walk *w, enum report_loss_kind kind, int lane, uint64_t t,
		    uint64_t count)
{
	return report_model__add_loss(w->d->m, kind, lane, t, count);
}

static int pass2__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			 struct perf_sample *sample, struct evsel *evsel)
{
	struct report_walk *w = walk_of(tool);
	int lane = report_walk__lane(w, sample);
	uint64_t t = sample__time(sample);
	int err = 0;

	(void)s;
	if (t != REPORT_TIME_NONE)
		w->last_time = t;
	err = report_feed__perf(w->feed, ev, sample, evsel);
	if (err)
		return err;
	if (ev->header.type == PERF_RECORD_SAMPLE)
		return add_data(w, REPORT_SRC_SAMPLES, lane, t, ev->header.size, 1);
	err = add_data(w, REPORT_SRC_SIDEBAND, lane, t, ev->header.size, 1);
	if (err)
		return err;
	switch (ev->header.type) {
	case PERF_RECORD_LOST:
		return add_loss(w, REPORT_LOSS_LOST, lane, t, ev->lost.lost);
	case PERF_RECORD_LOST_SAMPLES:
		return add_loss(w, REPORT_LOSS_LOST_SAMPLES, lane, t, ev->lost_samples.lost);
	case PERF_RECORD_AUX:
		if (ev->aux.flags & PERF_AUX_FLAG_TRUNCATED)
			err = add_loss(w, REPORT_LOSS_AUX_TRUNCATED, lane, t, 1);
		if (!err && (ev->aux.flags & PERF_AUX_FLAG_PARTIAL))
			err = add_loss(w, REPORT_LOSS_AUX_PARTIAL, lane, t, 1);
		if (!err && (ev->aux.flags & PERF_AUX_FLAG_COLLISION))
			err = add_loss(w, REPORT_LOSS_AUX_COLLISION, lane, t, 1);
		return err;
	default:
		return 0;
	}
}

static struct report_aux_queue *report_data__queue(struct report_data *d,
						   const struct perf_record_auxtrace *a)
{
	if (a->idx >= d->nr_queues) {
		struct report_aux_queue *q = reallocarray(d->queues, a->idx + 1, sizeof(*q));

		if (!q)
			return NULL;
		for (size_t i = d->nr_queues; i <= a->idx; i++)
			q[i] = (struct report_aux_queue){ .idx = (uint32_t)i, .cpu = -1, .tid = -1 };
		d->queues = q;
		d->nr_queues = a->idx + 1;
	}
	d->queues[a->idx].cpu = (int)a->cpu;
	d->queues[a->idx].tid = (int)a->tid;
	return &d->queues[a->idx];
}

/*
 * A full-trace buffer's bytes at the times of the PERF_RECORD_AUX records that cover them
 * (the kernel writes one as each stretch of trace ends), the buffer itself counted at the
 * first; bytes no record covers, untimed.
 */
static int report_walk__aux_buffer(struct report_walk *w, const struct perf_record_auxtrace *a,
				   int lane)
{
	int key = a->cpu != (uint32_t)-1 ? (int)a->cpu : (int)a->tid;
	uint64_t start = a->offset, end = a->offset + a->size, covered = 0, records = 1;
	size_t lo = 0, hi = w->nr_marks;
	int err;

	while (lo < hi) {	/* the first mark of key that ends after start */
		size_t mid = lo + (hi - lo) / 2;
		const struct aux_mark *m = &w->marks[mid];

		if (m->key < key || (m->key == key && m->offset + m->size <= start))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->nr_marks && w->marks[lo].key == key && w->marks[lo].offset < end; lo++) {
		const struct aux_mark *m = &w->marks[lo];
		uint64_t from = m->offset > start ? m->offset : start;
		uint64_t to = m->offset + m->size < end ? m->offset + m->size : end;

		if (to <= from)
			continue;
		err = add_data(w, REPORT_SRC_AUX, lane, m->time, to - from, records);
		if (err)
			return err;
		covered += to - from;
		records = 0;
	}
	if (covered == a->size && !records)
		return 0;
	return add_data(w, REPORT_SRC_AUX, lane, REPORT_TIME_NONE, a->size - covered, records);
}

/*
 * Snapshot mode: a snapshot is the AUXTRACE records written together at one moment, which
 * the file marks by no time of its own: the time of the latest timed record before them.
 */
static int report_walk__snapshot(struct report_walk *w, const struct perf_record_auxtrace *a,
				 int lane)
{
	uint64_t t = w->last_time;
	int err;

	if (t != REPORT_TIME_NONE && t != w->last_snapshot) {
		err = report_model__add_snapshot(w->d->m, t);
		if (err)
			return err;
		w->last_snapshot = t;
	}
	return add_data(w, REPORT_SRC_AUX, lane, t, a->size, 1);
}

static int pass2__auxtrace(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			   uint64_t data_offset, const void *data)
{
	struct report_walk *w = walk_of(tool);
	const struct perf_record_auxtrace *a = &ev->auxtrace;
	struct report_aux_queue *q = report_data__queue(w->d, a);
	uint32_t v = w->by_cpu ? a->cpu : a->tid;
	int lane = v == (uint32_t)-1 ? REPORT_LANE_NONE : (int)v;

	(void)s, (void)data_offset, (void)data;
	if (!q)
		return -ENOMEM;
	q->bytes += a->size;
	q->buffers++;
	return w->snapshot_mode ? report_walk__snapshot(w, a, lane)
				: report_walk__aux_buffer(w, a, lane);
}

static int pass2__user(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		       uint64_t offset)
{
	struct report_walk *w = walk_of(tool);

	(void)s, (void)offset;
	w->d->aux_errors += ev->header.type == PERF_RECORD_AUXTRACE_ERROR;
	return 0;
}

/* One pass over the records of an open session. */
static int perf_pass(struct report_walk *w, struct perf_session *s, bool second)
{
	struct walk_tool t = {
		.tool = {
			.sz = sizeof(struct perf_tool),
			/* per CPU in time order, as time on CPU needs its switches */
			.ordered_events = second,
			.sample = second ? pass2__sample : pass1__sample,
			.event = second ? pass2__sample : pass1__sample,
			.user_event = second ? pass2__user : pass1__user,
			.auxtrace = second ? pass2__auxtrace : NULL,
		},
		.w = w,
	};
	int err = perf_session__process_events(s, &t.tool);

	if (err < 0) {
		auxrec_file_error(w->in->perf_path, "reading stopped", err);
		w->said = true;
		return err;
	}
	if (!second) {
		if (w->nr_marks)	/* no PERF_RECORD_AUX: marks is NULL, which qsort may not take */
			qsort(w->marks, w->nr_marks, sizeof(*w->marks), aux_mark__cmp);
	} else {
		w->d->perf_unknown = perf_session__stats(s)->nr_unknown_events +
				     perf_session__stats(s)->nr_unknown_id;
	}
	return 0;
}

static struct perf_session *perf_open(struct report_walk *w)
{
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct perf_session *s = perf_session__new(w->in->perf_path, &opts);

	if (!s) {
		int err = errno;

		auxrec_file_error(w->in->perf_path, "cannot read it as perf.data", err);
		w->said = true;
		errno = err;
	}
	return s;
}

/* Lanes are CPUs when any perf event records its CPU, or there is ftrace data. */
static bool perf_by_cpu(struct perf_session *s)
{
	struct evlist *evlist = perf_session__evlist(s);
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		if (evsel__attr(evsel)->sample_type & PERF_SAMPLE_CPU)
			return true;
	return false;
}

static int model_info(struct report_model *m, enum report_info key, const char *value)
{
	return value && *value ? report_model__set_info(m, key, value) : 0;
}

/* The header lines from perf.data's feature sections and attrs. */
static int perf_describe(struct report_walk *w, struct perf_session *s)
{
	const struct perf_env *env = perf_session__env(s);
	struct report_model *m = w->d->m;
	struct evsel *evsel;
	char *cmd = NULL;
	size_t len = 0;
	int err;
	FILE *f;

	err = model_info(m, REPORT_INFO_HOSTNAME, env->hostname);
	err = err ?: model_info(m, REPORT_INFO_OS_RELEASE, env->os_release);
	err = err ?: model_info(m, REPORT_INFO_ARCH, env->arch);
	if (!err && env->version && *env->version >= '0' && *env->version <= '9') {
		char *v;

		if (asprintf(&v, "perf %s", env->version) < 0)
			return -ENOMEM;
		err = model_info(m, REPORT_INFO_VERSION, v);
		free(v);
	} else if (!err) {
		err = model_info(m, REPORT_INFO_VERSION, env->version);
	}
	if (!err && env->nr_cpus_avail)
		err = report_model__set_cpus(m, (int)env->nr_cpus_online, (int)env->nr_cpus_avail);
	evlist__for_each_entry(perf_session__evlist(s), evsel)
		err = err ?: report_model__add_event(m, evsel__name(evsel));
	if (err || !env->nr_cmdline)
		return err;
	f = open_memstream(&cmd, &len);
	if (!f)
		return -errno;
	for (uint32_t i = 0; i < env->nr_cmdline; i++)
		fprintf(f, "%s%s", i ? " " : "", env->cmdline[i]);
	fclose(f);
	err = model_info(m, REPORT_INFO_COMMAND, cmd);
	free(cmd);
	return err;
}

/*
 * Every CPU (or thread) the perf events were opened on gets its lane, data or not: a CPU that
 * stayed quiet is one thing the page is there to show. PERF_RECORD_ID_INDEX (read by a pass)
 * names each sample ID's CPU and thread; a file without one names none, and then only the
 * lanes with data are drawn.
 */
static int perf_add_lanes(struct report_walk *w, struct perf_session *s)
{
	struct evsel *evsel;

	evlist__for_each_entry(perf_session__evlist(s), evsel) {
		size_t nr;
		const uint64_t *ids = perf_session__evsel_ids(s, evsel, &nr);

		for (size_t i = 0; i < nr; i++) {
			struct evlist_sample_id where;
			int lane, err;

			if (perf_session__id_lookup(s, ids[i], &where))
				continue;
			lane = w->by_cpu ? where.cpu.cpu : where.tid;
			err = lane < 0 ? 0 : report_model__add_lane(w->d->m, lane);
			if (err)
				return err;
		}
	}
	return 0;
}

/* The tracepoints' formats perf.data carries, for the fields the feed reads. */
static int perf_formats(struct report_walk *w, struct perf_session *s)
{
	size_t size;
	const void *data = perf_session__feature(s, HEADER_TRACING_DATA, &size);

	return report_feed__perf_formats(w->feed, data, size);
}

/* The wall clock at the span's start, when perf.data says how its clock relates to it. */
static void perf_wall_start(struct report_walk *w, struct perf_session *s)
{
	const struct perf_env *env = perf_session__env(s);

	/* the reference may be before the first record or after it (read at the end) */
	int64_t off = (int64_t)(w->first - env->clock_clockid_ns);

	if (env->has_clock_data && w->first != UINT64_MAX &&
	    (off >= 0 || env->clock_wall_ns > (uint64_t)-off))
		report_model__set_wall_start(w->d->m, env->clock_wall_ns + (uint64_t)off);
}

/* ---- trace.dat ---- */

static struct trace_dat_reader *trace_open(struct report_walk *w)
{
	struct trace_dat_reader *r = trace_dat_reader__open(w->in->trace_path);

	if (!r) {
		int err = errno;

		auxrec_file_error(w->in->trace_path, "cannot read it as trace.dat", err);
		w->said = true;
		errno = err;
	}
	return r;
}

/* What trace.dat adds to the header: its events, and the machine when there is no perf.data. */
static int trace_describe(struct report_walk *w, struct trace_dat_reader *r, bool alone)
{
	struct report_model *m = w->d->m;
	const char *const *events;
	size_t nr;
	int err = 0;

	/* its CPU table is the CPUs it recorded, as KernelShark draws them: quiet ones too */
	for (int cpu = 0; cpu < trace_dat_reader__nr_cpus(r) && !err; cpu++)
		err = report_model__add_lane(m, cpu);
	events = trace_dat_reader__events(r, &nr);
	err = report_feed__declare_ftrace(w->feed, events, nr);
	for (size_t i = 0; i < nr && !err; i++) {
		char *name;

		if (asprintf(&name, "%s (ftrace)", events[i]) < 0)
			return -ENOMEM;
		err = report_model__add_event(m, name);
		free(name);
	}
	if (trace_dat_reader__clock(r)) {
		w->d->trace_clock = strdup(trace_dat_reader__clock(r));
		if (!w->d->trace_clock)
			return -ENOMEM;
	}
	if (alone && !err) {
		char sys[65], host[65], release[65];
		const char *uname = trace_dat_reader__uname(r);

		err = report_model__set_cpus(m, trace_dat_reader__nr_cpus(r),
					     trace_dat_reader__nr_cpus(r));
		err = err ?: model_info(m, REPORT_INFO_VERSION, trace_dat_reader__version(r));
		if (!err && uname && sscanf(uname, "%64s %64s %64s", sys, host, release) == 3) {
			err = model_info(m, REPORT_INFO_HOSTNAME, host);
			err = err ?: model_info(m, REPORT_INFO_OS_RELEASE, release);
		}
	}
	return err;
}

/*
 * trace.dat carries the formats of the whole ftrace system whatever was recorded, so an ftrace
 * event (trace_marker's print, ...) counts among the recorded events once it is in the data.
 */
static int report_walk__note_ftrace_event(struct report_walk *w, const struct tep_event *event)
{
	char *name;
	int *ids, err;

	if (!event || strcmp(event->system, "ftrace"))
		return 0;
	for (size_t i = 0; i < w->nr_ftrace_ids; i++)
		if (w->ftrace_ids[i] == event->id)
			return 0;
	ids = realloc(w->ftrace_ids, (w->nr_ftrace_ids + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	w->ftrace_ids = ids;
	ids[w->nr_ftrace_ids++] = event->id;
	if (asprintf(&name, "ftrace:%s (ftrace)", event->name) < 0)
		return -ENOMEM;
	err = report_model__add_event(w->d->m, name);
	free(name);
	return err;
}

static int trace_pass(struct report_walk *w, struct trace_dat_reader *r, bool second)
{
	struct trace_dat_cursor *c = trace_dat_cursor__new(r, -1);
	const struct trace_dat_record *rec;
	int err = 0;

	if (!c)
		return -errno;
	while (!err && (rec = trace_dat_cursor__next(c))) {
		if (!second) {
			report_walk__span(w, rec->ts);
			if (rec->kind == TRACE_DAT_EVENT)
				err = report_walk__note_ftrace_event(w, rec->event);
		} else if (rec->kind == TRACE_DAT_LOST)
			err = add_loss(w, REPORT_LOSS_FTRACE_MISSED, rec->cpu, rec->ts,
				       rec->missed < 0 ? 0 : (uint64_t)rec->missed);
		else
			err = add_data(w, REPORT_SRC_FTRACE, rec->cpu, rec->ts, rec->record_size, 1) ?:
			      report_feed__ftrace(w->feed, rec);
	}
	if (!err && errno)
		err = -errno;
	if (err) {
		auxrec_file_error(w->in->trace_path, "reading stopped", err);
		w->said = true;
	}
	trace_dat_cursor__delete(c);
	return err;
}

static int file_size(const char *path, uint64_t *size)
{
	struct stat st;

	if (!path)
		return 0;
	if (stat(path, &st))
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int report_walk__run(struct report_walk *w, struct perf_session **ps,
			    struct trace_dat_reader **tr)
{
	const struct report_input *in = w->in;
	struct report_data *d = w->d;
	int err;

	if (in->perf_path && !(*ps = perf_open(w)))
		return -errno;
	if (in->trace_path && !(*tr = trace_open(w)))
		return -errno;
	w->by_cpu = *tr || !*ps || perf_by_cpu(*ps);
	d->m = report_model__new(w->by_cpu ? REPORT_LANES_CPU : REPORT_LANES_THREAD);
	d->agg = d->m ? report_agg__new() : NULL;
	w->feed = d->agg ? report_feed__new(d->agg, *tr ? trace_dat_reader__tep(*tr) : NULL) : NULL;
	if (!w->feed)
		return -errno;
	err = model_info(d->m, REPORT_INFO_DATA_DIR, in->where);
	err = err ?: file_size(in->perf_path, &d->perf_size);
	err = err ?: file_size(in->trace_path, &d->trace_size);
	if (!err && *ps)
		err = perf_describe(w, *ps);
	if (!err && *tr)
		err = trace_describe(w, *tr, !*ps);
	if (err)
		return err;

	/* pass 1: the span, the AUX records; a session reads its file once */
	if (*ps) {
		err = perf_pass(w, *ps, false);
		perf_session__delete(*ps);
		*ps = err ? NULL : perf_open(w);
		if (!err && !*ps)
			err = -errno;
	}
	if (!err && *tr)
		err = trace_pass(w, *tr, false);
	if (err)
		return err;
	if (w->first <= w->last) {
		err = report_model__set_span(d->m, w->first, w->last);
		if (err)
			return err;
		if (*ps)
			perf_wall_start(w, *ps);
	}
	if (w->has_aux)
		err = model_info(d->m, REPORT_INFO_MODE, w->snapshot_mode ? "AUX snapshot"
									  : "AUX full trace");

	/* pass 2: everything into the model (the evsels of the session that reads it) */
	if (!err && *ps)
		err = report_feed__declare_perf(w->feed, perf_session__evlist(*ps)) ?:
		      perf_formats(w, *ps) ?:
		      perf_pass(w, *ps, true);
	if (!err && *ps)
		err = perf_add_lanes(w, *ps);
	if (!err && *tr)
		err = trace_pass(w, *tr, true);
	return err;
}

int report_data__read(struct report_data *d, const struct report_input *in)
{
	struct report_walk w = { .d = d, .in = in, .first = UINT64_MAX,
				 .last_time = REPORT_TIME_NONE, .last_snapshot = REPORT_TIME_NONE };
	struct trace_dat_reader *tr = NULL;
	struct perf_session *ps = NULL;
	int err;

	memset(d, 0, sizeof(*d));
	err = report_walk__run(&w, &ps, &tr);
	perf_session__delete(ps);
	trace_dat_reader__close(tr);
	free(w.marks);
	free(w.ftrace_ids);
	report_feed__delete(w.feed);
	if (err) {
		if (!w.said)
			auxrec_error("%s: %s", in->where, strerror(-err));
		report_data__exit(d);
	}
	return err;
}

void report_data__exit(struct report_data *d)
{
	report_model__free(d->m);
	report_agg__delete(d->agg);
	free(d->queues);
	free(d->trace_clock);
	memset(d, 0, sizeof(*d));
}
