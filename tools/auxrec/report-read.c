// SPDX-License-Identifier: LGPL-2.1
/*
 * The files of a recording into a report model, in one walk: auxtrace_recording__open finds
 * and opens them (a directory, a perf.data or a trace.dat, by their magic), its timeline
 * hands every record over in time order, user records included (AUXTRACE_INFO says whether
 * and how AUX data was recorded; AUXTRACE records carry its bytes). The model grows its bins
 * as the records come, so nothing is read twice and nothing is kept but the aggregates and
 * the AUX bytes still waiting for the PERF_RECORD_AUX that times them. perf.data through
 * perf_session, trace.dat through the trace.dat reader: both check every offset, and a
 * damaged file's error says which and where; what was read before it is still reported.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <event-parse.h>
#include <tracefs/auxtrace-recording.h>
#include <tracefs/trace-dat-reader.h>

#include "error.h"
#include "report.h"
#include "report-feed.h"

/* AUXTRACE_INFO priv[] index of the snapshot flag, per AUX type (perf's layouts). */
#define INTEL_PT_PRIV_SNAPSHOT_MODE	8
#define INTEL_BTS_PRIV_SNAPSHOT_MODE	5

/*
 * A stretch of one ring's AUX stream: an AUXTRACE record's bytes (not yet all timed), or a
 * PERF_RECORD_AUX (its time) whose bytes have not come yet. Both come in stream order per
 * ring, but AUXTRACE records go out as they are read and PERF_RECORD_AUX ones when their
 * round is sorted: either may wait for the other.
 */
struct aux_span {
	uint64_t start, end;
	uint64_t time;		/* a PERF_RECORD_AUX's */
	uint64_t covered;	/* an AUXTRACE record's bytes timed so far */
	int lane;
	bool counted;		/* the AUXTRACE record counted as a record */
};

struct aux_fifo {
	struct aux_span *v;
	size_t head, nr, alloc;
};

/* One AUX ring (a CPU's, or a thread's) and what waits on it. */
struct aux_ring {
	int key;		/* CPU, or tid on a per-thread ring */
	struct aux_fifo bufs, marks;
};

struct report_walk {
	struct report_data *d;
	struct auxtrace_recording *rec;
	bool by_cpu;			/* lanes are CPUs (else threads) */
	bool has_aux;			/* an AUXTRACE_INFO: AUX data was recorded */
	bool snapshot_mode;
	uint64_t last_time;		/* of the latest timed record delivered */
	uint64_t last_snapshot;
	int *ftrace_ids;		/* ids of the ftrace system's events seen */
	size_t nr_ftrace_ids;
	struct aux_ring *rings;
	size_t nr_rings;
	struct report_feed *feed;	/* what ran, into d->agg */
	int err;			/* the walk's own failure (ENOMEM), not a file's */
	bool said;			/* the error was printed where it happened */
};

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

/* ---- AUX bytes at the times of the PERF_RECORD_AUX records that cover them ---- */

static int aux_fifo__push(struct aux_fifo *q, const struct aux_span *span)
{
	if (q->head == q->nr)
		q->head = q->nr = 0;	/* empty: start over, so a steady flow stays small */
	if (q->nr == q->alloc) {
		size_t n = q->alloc ? 2 * q->alloc : 16;
		struct aux_span *v = reallocarray(q->v, n, sizeof(*v));

		if (!v)
			return -ENOMEM;
		q->v = v;
		q->alloc = n;
	}
	q->v[q->nr++] = *span;
	return 0;
}

static struct aux_span *aux_fifo__first(struct aux_fifo *q)
{
	return q->head < q->nr ? &q->v[q->head] : NULL;
}

static struct aux_ring *report_walk__ring(struct report_walk *w, int key)
{
	struct aux_ring *r;

	for (size_t i = 0; i < w->nr_rings; i++)
		if (w->rings[i].key == key)
			return &w->rings[i];
	r = reallocarray(w->rings, w->nr_rings + 1, sizeof(*r));
	if (!r)
		return NULL;
	w->rings = r;
	r = &r[w->nr_rings++];
	*r = (struct aux_ring){ .key = key };
	return r;
}

/* An AUXTRACE record no later PERF_RECORD_AUX covers: its untimed rest, and it is done. */
static int report_walk__aux_done(struct report_walk *w, struct aux_fifo *bufs)
{
	struct aux_span *b = &bufs->v[bufs->head++];
	uint64_t rest = b->end - b->start - b->covered;

	if (!rest && b->counted)
		return 0;
	return add_data(w, REPORT_SRC_AUX, b->lane, REPORT_TIME_NONE, rest, !b->counted);
}

/*
 * Pair ring's waiting bytes with its waiting PERF_RECORD_AUX records: each stretch they
 * share goes in at the record's time (the buffer counted at the first).
 */
static int aux_ring__match(struct report_walk *w, struct aux_ring *ring)
{
	struct aux_span *b, *m;
	int err = 0;

	while (!err && (b = aux_fifo__first(&ring->bufs)) && (m = aux_fifo__first(&ring->marks))) {
		uint64_t from = m->start > b->start ? m->start : b->start;
		uint64_t to = m->end < b->end ? m->end : b->end;

		if (m->end <= b->start) {		/* bytes that never came */
			ring->marks.head++;
			continue;
		}
		if (b->end <= m->start) {		/* no record left for the rest */
			err = report_walk__aux_done(w, &ring->bufs);
			continue;
		}
		err = add_data(w, REPORT_SRC_AUX, b->lane, m->time, to - from, !b->counted);
		b->counted = true;
		b->covered += to - from;
		/* the one that ends first is done; the buffer too when the record goes past it */
		if (m->end <= b->end)
			ring->marks.head++;
		if (m->end >= b->end || b->covered == b->end - b->start)
			err = err ?: report_walk__aux_done(w, &ring->bufs);
	}
	return err;
}

/* At the end: what no PERF_RECORD_AUX timed. */
static int report_walk__aux_flush(struct report_walk *w)
{
	int err = 0;

	for (size_t i = 0; i < w->nr_rings && !err; i++)
		while (!err && aux_fifo__first(&w->rings[i].bufs))
			err = report_walk__aux_done(w, &w->rings[i].bufs);
	return err;
}

static void report_walk__aux_free(struct report_walk *w)
{
	for (size_t i = 0; i < w->nr_rings; i++) {
		free(w->rings[i].bufs.v);
		free(w->rings[i].marks.v);
	}
	free(w->rings);
}

/* A PERF_RECORD_AUX: the time of the stretch it covers (a full-trace ring's). */
static int report_walk__aux_mark(struct report_walk *w, const union perf_event *ev,
				 const struct perf_sample *sample)
{
	int key = (int)(sample->cpu != (uint32_t)-1 ? sample->cpu : sample->tid);
	struct aux_span m = {
		.start = ev->aux.aux_offset, .end = ev->aux.aux_offset + ev->aux.aux_size,
		.time = sample->time,
	};
	struct aux_ring *ring;

	if (w->snapshot_mode || sample__time(sample) == REPORT_TIME_NONE)
		return 0;	/* a snapshot is placed at its own moment */
	ring = report_walk__ring(w, key);
	if (!ring || aux_fifo__push(&ring->marks, &m))
		return -ENOMEM;
	return aux_ring__match(w, ring);
}

/* ---- perf.data records ---- */

static int report_walk__perf(struct report_walk *w, union perf_event *ev,
			     struct perf_sample *sample, struct evsel *evsel)
{
	int lane = report_walk__lane(w, sample);
	uint64_t t = sample__time(sample);
	int err = 0;

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
		return err ?: report_walk__aux_mark(w, ev, sample);
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

/*
 * A full-trace buffer's bytes go in at the times of the PERF_RECORD_AUX records that cover
 * them (the kernel writes one as each stretch of trace ends), the buffer itself counted at
 * the first; bytes no record covers, untimed.
 */
static int report_walk__auxtrace(struct report_walk *w, const struct perf_record_auxtrace *a)
{
	struct report_aux_queue *q = report_data__queue(w->d, a);
	uint32_t v = w->by_cpu ? a->cpu : a->tid;
	int lane = v == (uint32_t)-1 ? REPORT_LANE_NONE : (int)v;
	struct aux_span b = { .start = a->offset, .end = a->offset + a->size, .lane = lane };
	struct aux_ring *ring;

	if (!q)
		return -ENOMEM;
	q->bytes += a->size;
	q->buffers++;
	if (w->snapshot_mode)
		return report_walk__snapshot(w, a, lane);
	ring = report_walk__ring(w, a->cpu != (uint32_t)-1 ? (int)a->cpu : (int)a->tid);
	if (!ring || aux_fifo__push(&ring->bufs, &b))
		return -ENOMEM;
	return aux_ring__match(w, ring);
}

static void report_walk__auxtrace_info(struct report_walk *w, const union perf_event *ev)
{
	const struct perf_record_auxtrace_info *info = &ev->auxtrace_info;
	size_t nr_priv = (ev->header.size - sizeof(*info)) / sizeof(uint64_t);

	w->has_aux = true;
	if (info->type == PERF_AUXTRACE_INTEL_PT && nr_priv > INTEL_PT_PRIV_SNAPSHOT_MODE)
		w->snapshot_mode = info->priv[INTEL_PT_PRIV_SNAPSHOT_MODE];
	else if (info->type == PERF_AUXTRACE_INTEL_BTS && nr_priv > INTEL_BTS_PRIV_SNAPSHOT_MODE)
		w->snapshot_mode = info->priv[INTEL_BTS_PRIV_SNAPSHOT_MODE];
}

static int report_walk__user(struct report_walk *w, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_AUXTRACE_INFO:
		report_walk__auxtrace_info(w, ev);
		return 0;
	case PERF_RECORD_AUXTRACE:
		return report_walk__auxtrace(w, &ev->auxtrace);
	case PERF_RECORD_AUXTRACE_ERROR:
		w->d->aux_errors++;
		return 0;
	default:
		return 0;
	}
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
static void perf_wall_start(struct report_walk *w, struct perf_session *s, uint64_t first)
{
	const struct perf_env *env = perf_session__env(s);

	/* the reference may be before the first record or after it (read at the end) */
	int64_t off = (int64_t)(first - env->clock_clockid_ns);

	if (env->has_clock_data && (off >= 0 || env->clock_wall_ns > (uint64_t)-off))
		report_model__set_wall_start(w->d->m, env->clock_wall_ns + (uint64_t)off);
}

/* ---- trace.dat ---- */

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
	err = err ?: report_feed__declare_ftrace(w->feed, events, nr);
	for (size_t i = 0; i < nr && !err; i++) {
		char *name;

		if (asprintf(&name, "%s (ftrace)", events[i]) < 0)
			return -ENOMEM;
		err = report_model__add_event(m, name);
		free(name);
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

/* A trace.dat record: an event, or what the ring buffer says it missed. */
static int report_walk__ftrace(struct report_walk *w, const struct trace_dat_record *rec)
{
	if (rec->kind == TRACE_DAT_LOST)
		return add_loss(w, REPORT_LOSS_FTRACE_MISSED, rec->cpu, rec->ts,
				rec->missed < 0 ? 0 : (uint64_t)rec->missed);
	if (rec->kind == TRACE_DAT_EVENT) {
		int err = report_walk__note_ftrace_event(w, rec->event);

		if (err)
			return err;
	}
	return add_data(w, REPORT_SRC_FTRACE, rec->cpu, rec->ts, rec->record_size, 1) ?:
	       report_feed__ftrace(w->feed, rec);
}

/* Each record of the walk into the model and the aggregates. */
static int report_walk__record(void *ctx, const struct timeline_record *rec)
{
	struct report_walk *w = ctx;

	switch (rec->kind) {
	case TIMELINE_PERF_SAMPLE:
	case TIMELINE_PERF_EVENT:
		w->err = report_walk__perf(w, rec->perf.event, rec->perf.sample, rec->perf.evsel);
		break;
	case TIMELINE_PERF_USER:
		w->err = report_walk__user(w, rec->perf.event);
		break;
	case TIMELINE_STREAM:
		w->err = report_walk__ftrace(w, rec->stream.data);
		break;
	default:	/* no decoders: no AUX samples */
		break;
	}
	return w->err;
}

/*
 * Open what in names, interleaving the two files whatever their clocks (a health view reports
 * each file; the text says when their times are not comparable). No AUX decoders: report
 * counts AUX bytes per ring and time, auxrec script decodes them.
 */
static int report_walk__open(struct report_walk *w, const struct report_input *in)
{
	AUXTRACE_OPTS(timeline_opts, tl_opts, .any_clock = true, .user_records = true);
	/* the report prints no ftrace event: trace.dat's kernel symbols would be ~19 MiB unused */
	AUXTRACE_OPTS(trace_dat_reader_opts, td_opts, .no_kallsyms = true);
	AUXTRACE_OPTS(auxtrace_recording_opts, opts, .timeline = &tl_opts, .trace_dat = &td_opts);
	int err;

	w->rec = auxtrace_recording__open(in->where, &opts);
	if (w->rec)
		return 0;
	err = errno;
	w->said = true;
	if (err == ENOENT)	/* nothing there, or nothing to read (the library said which) */
		auxrec_error("%s: %s%s", in->where, strerror(err),
			     in->named ? "" : " (auxrec record writes there; or name a recording)");
	else
		auxrec_file_error(in->where, "cannot read it as a recording", err);
	return -err;
}

/* The two files' trace clocks, when they differ: their times are then not comparable. */
static int report_walk__clocks(struct report_walk *w, struct perf_session *ps,
			       struct trace_dat_reader *tr)
{
	const char *perf = ps ? timeline__clock(auxtrace_recording__timeline(w->rec)) : NULL;
	const char *ftrace = tr ? trace_dat_reader__clock(tr) : NULL;

	if (ftrace) {
		w->d->trace_clock = strdup(ftrace);
		if (!w->d->trace_clock)
			return -ENOMEM;
	}
	if (ps && tr && (!perf || !ftrace || strcmp(perf, ftrace))) {
		w->d->perf_clock = strdup(perf ? perf : "unknown");
		if (!w->d->perf_clock)
			return -ENOMEM;
	}
	return 0;
}

static int report_walk__run(struct report_walk *w, const struct report_input *in)
{
	struct report_data *d = w->d;
	struct perf_session *ps;
	struct trace_dat_reader *tr;
	const struct timeline_stats *st;
	int err;

	err = report_walk__open(w, in);
	if (err)
		return err;
	ps = auxtrace_recording__session(w->rec);
	tr = auxtrace_recording__trace_dat(w->rec);
	w->by_cpu = tr || !ps || perf_by_cpu(ps);
	d->m = report_model__new(w->by_cpu ? REPORT_LANES_CPU : REPORT_LANES_THREAD);
	d->agg = d->m ? report_agg__new() : NULL;
	d->sched = d->agg && in->tasks ? report_sched__new() : NULL;
	w->feed = d->agg && (d->sched || !in->tasks) ?
		  report_feed__new(d->agg, d->sched, tr ? trace_dat_reader__tep(tr) : NULL) : NULL;
	if (!w->feed)
		return -errno;
	err = model_info(d->m, REPORT_INFO_DATA_DIR, in->where);
	d->perf_size = ps ? perf_session__size(ps) : 0;
	d->trace_size = tr ? trace_dat_reader__size(tr) : 0;
	err = err ?: report_walk__clocks(w, ps, tr);
	if (!err && ps)
		err = perf_describe(w, ps) ?:
		      report_feed__declare_perf(w->feed, perf_session__evlist(ps)) ?:
		      perf_formats(w, ps);
	if (!err && tr)
		err = trace_describe(w, tr, !ps);
	if (err)
		return err;

	/* one walk: a damaged file ends its part, what was read before is still reported */
	err = timeline__process(auxtrace_recording__timeline(w->rec), report_walk__record, w);
	if (w->err)
		return w->err;
	if (err) {
		auxrec_file_error(in->where, "reading stopped", err);
		d->read_error = err;
	}
	err = report_walk__aux_flush(w) ?: (d->sched ? report_sched__finish(d->sched) : 0);
	st = timeline__stats(auxtrace_recording__timeline(w->rec));
	if (!err && st->first_time && st->last_time >= st->first_time) {
		err = report_model__set_span(d->m, st->first_time, st->last_time);
		if (!err && ps)
			perf_wall_start(w, ps, st->first_time);
	}
	if (!err && w->has_aux)
		err = model_info(d->m, REPORT_INFO_MODE, w->snapshot_mode ? "AUX snapshot"
									  : "AUX full trace");
	if (!err && ps) {
		d->perf_unknown = perf_session__stats(ps)->nr_unknown_events +
				  perf_session__stats(ps)->nr_unknown_id;
		err = perf_add_lanes(w, ps);
	}
	return err;
}

int report_data__read(struct report_data *d, const struct report_input *in)
{
	struct report_walk w = { .d = d, .last_time = REPORT_TIME_NONE,
				 .last_snapshot = REPORT_TIME_NONE };
	int err;

	memset(d, 0, sizeof(*d));
	err = report_walk__run(&w, in);
	report_walk__aux_free(&w);
	auxtrace_recording__close(w.rec);
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
	report_sched__delete(d->sched);
	free(d->queues);
	free(d->trace_clock);
	free(d->perf_clock);
	memset(d, 0, sizeof(*d));
}
