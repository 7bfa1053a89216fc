// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec report as text: the header, the totals per source and per loss kind, each lane's
 * totals, and the AUX queues, read from the report model (the page shows the same model).
 * Plain integers, so that scripts can take the numbers.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

static void text__info(FILE *f, const char *name, const char *value)
{
	if (value)
		fprintf(f, "  %-12s %s\n", name, value);
}

/* ns as seconds with 9 decimals */
static void text__secs(FILE *f, int64_t ns)
{
	fprintf(f, "%s%" PRId64 ".%09" PRId64, ns < 0 ? "-" : "", (ns < 0 ? -ns : ns) / 1000000000,
		(ns < 0 ? -ns : ns) % 1000000000);
}

static void text__header(FILE *f, const struct report_data *d)
{
	const struct report_model *m = d->m;

	fprintf(f, "auxrec report: %s\n", m->info[REPORT_INFO_DATA_DIR]);
	text__info(f, "host", m->info[REPORT_INFO_HOSTNAME]);
	text__info(f, "kernel", m->info[REPORT_INFO_OS_RELEASE]);
	text__info(f, "arch", m->info[REPORT_INFO_ARCH]);
	text__info(f, "recorded by", m->info[REPORT_INFO_VERSION]);
	text__info(f, "command", m->info[REPORT_INFO_COMMAND]);
	/* the names are in the events table: 340 syscalls would make one line of 14 KB */
	if (m->nr_events)
		fprintf(f, "  %-12s %zu recorded (the events table below)\n", "events", m->nr_events);
	else
		fprintf(f, "  %-12s unknown\n", "events");
	if (m->nr_cpus_online)
		fprintf(f, "  %-12s %d online of %d\n", "CPUs", m->nr_cpus_online, m->nr_cpus_avail);
	text__info(f, "mode", m->info[REPORT_INFO_MODE]);
	text__info(f, "trace clock", d->trace_clock);
	/* read anyway, each file whole: a health view; only their relative times mean nothing */
	if (d->perf_clock)
		fprintf(f, "  %-12s differ: perf.data on \"%s\", trace.dat on \"%s\": the times of one "
			"file are not comparable with the other's\n", "clocks", d->perf_clock,
			d->trace_clock ? d->trace_clock : "unknown");
	if (d->read_error)
		fprintf(f, "  %-12s reading stopped at a damaged file (the error says where): "
			"this is what was read before it\n", "incomplete");
	fprintf(f, "  %-12s", "files");
	if (d->perf_size)
		fprintf(f, " perf.data %" PRIu64 " bytes", d->perf_size);
	if (d->trace_size)
		fprintf(f, "%s trace.dat %" PRIu64 " bytes", d->perf_size ? "," : "", d->trace_size);
	fputc('\n', f);
	if (m->has_span) {
		fprintf(f, "  %-12s ", "span");
		text__secs(f, (int64_t)m->start_ns);
		fputs(" to ", f);
		text__secs(f, (int64_t)m->end_ns);
		fputs(" (", f);
		text__secs(f, (int64_t)(m->end_ns - m->start_ns));
		fputs(" s)\n", f);
	} else {
		char why[512];

		report_model__why_no_span(m, why, sizeof(why));
		fprintf(f, "  %-12s unknown: %s\n", "span", why);
	}
	if (m->wall_start_ns) {
		time_t sec = (time_t)(m->wall_start_ns / 1000000000);
		char buf[64];
		struct tm tm;

		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", gmtime_r(&sec, &tm));
		fprintf(f, "  %-12s %s.%06" PRIu64 " UTC\n", "started", buf,
			m->wall_start_ns % 1000000000 / 1000);
	}
	if (m->nr_snapshots)
		fprintf(f, "  %-12s %zu\n", "snapshots", m->nr_snapshots);
}

static void text__sources(FILE *f, const struct report_model *m)
{
	int64_t origin = (int64_t)report_model__origin(m);
	struct report_count all = { 0, 0 };

	fprintf(f, "\n%-16s %14s %12s  %-8s %16s %16s %10s\n", "source", "bytes", "records",
		"unit", "first (s)", "last (s)", "untimed");
	for (int s = 0; s < REPORT_SRC__NR; s++) {
		const struct report_source_total *t = &m->source[s];

		fprintf(f, "%-16s %14" PRIu64 " %12" PRIu64 "  %-8s ", report_source__name(s),
			t->sum.bytes, t->sum.records, report_source__unit(s));
		if (t->first_ns <= t->last_ns) {
			char a[40], b[40];

			snprintf(a, sizeof(a), "%.9f", (double)((int64_t)t->first_ns - origin) / 1e9);
			snprintf(b, sizeof(b), "%.9f", (double)((int64_t)t->last_ns - origin) / 1e9);
			fprintf(f, "%16s %16s", a, b);
		} else {
			fprintf(f, "%16s %16s", "-", "-");
		}
		fprintf(f, " %10" PRIu64 "\n", t->untimed);
		all.bytes += t->sum.bytes;
		all.records += t->sum.records;
	}
	fprintf(f, "%-16s %14" PRIu64 " %12" PRIu64 "\n", "all sources", all.bytes, all.records);
}

static void text__losses(FILE *f, const struct report_model *m)
{
	fprintf(f, "\n%-26s %10s %12s  %s\n", "loss", "reports", "lost", "unit");
	for (int k = 0; k < REPORT_LOSS__NR; k++) {
		const struct report_loss_total *l = &m->loss[k];

		fprintf(f, "%-26s %10" PRIu64 " %12" PRIu64 "  %s", report_loss_kind__name(k),
			l->marks, l->count, report_loss_kind__unit(k));
		if (l->uncounted)
			fprintf(f, " (%" PRIu64 " of the reports without a count)", l->uncounted);
		fputc('\n', f);
	}
}

static void report_lane__label(const struct report_lane *l, const char *kind, char *buf,
				size_t size)
{
	if (l->id == REPORT_LANE_NONE)
		snprintf(buf, size, "no %s", kind);
	else
		snprintf(buf, size, "%s %d", kind, l->id);
}

/* One row per lane, every column as wide as its widest cell, so the eye runs down a column. */
static void text__lanes(FILE *f, const struct report_model *m)
{
	const char *kind = m->lane_kind == REPORT_LANES_THREAD ? "thread" : "CPU";
	int width[REPORT_SRC__NR], label_width = (int)strlen(kind) + 2;
	char cell[48];

	for (int s = 0; s < REPORT_SRC__NR; s++)
		width[s] = (int)strlen(report_source__name(s));
	for (size_t i = 0; i < m->nr_lanes; i++) {
		const struct report_lane *l = &m->lanes[i];

		report_lane__label(l, kind, cell, sizeof(cell));
		if ((int)strlen(cell) > label_width)
			label_width = (int)strlen(cell);
		for (int s = 0; s < REPORT_SRC__NR; s++) {
			int n = snprintf(cell, sizeof(cell), "%" PRIu64 "/%" PRIu64,
					 l->total[s].bytes, l->total[s].records);

			if (n > width[s])
				width[s] = n;
		}
	}
	fprintf(f, "\nper %s: bytes/records of each source; losses\n  %-*s", kind, label_width,
		kind);
	for (int s = 0; s < REPORT_SRC__NR; s++)
		fprintf(f, "  %*s", width[s], report_source__name(s));
	fputc('\n', f);
	for (size_t i = 0; i < m->nr_lanes; i++) {
		const struct report_lane *l = &m->lanes[i];
		int any = 0;

		report_lane__label(l, kind, cell, sizeof(cell));
		fprintf(f, "  %-*s", label_width, cell);
		for (int s = 0; s < REPORT_SRC__NR; s++) {
			snprintf(cell, sizeof(cell), "%" PRIu64 "/%" PRIu64, l->total[s].bytes,
				 l->total[s].records);
			fprintf(f, "  %*s", width[s], cell);
		}
		for (int k = 0; k < REPORT_LOSS__NR; k++) {
			if (!l->lost[k])
				continue;
			fprintf(f, "%s%s %" PRIu64, any ? ", " : "; ", report_loss_kind__name(k),
				l->lost[k]);
			any = 1;
		}
		fputc('\n', f);
	}
}

static int report_loss__by_time(const void *a, const void *b)
{
	const struct report_loss *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	if (x->lane_id != y->lane_id)
		return x->lane_id < y->lane_id ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/*
 * Where data was lost: the model's marks (losses of one lane and kind within one bin merged),
 * in time order, the time of the earliest loss of each from the start.
 */
static void text__loss_marks(FILE *f, const struct report_model *m)
{
	const char *kind = m->lane_kind == REPORT_LANES_THREAD ? "thread" : "CPU";
	int64_t origin = (int64_t)report_model__origin(m);
	struct report_loss *l;

	if (!m->nr_losses)
		return;
	l = malloc(m->nr_losses * sizeof(*l));
	if (!l)
		return;
	memcpy(l, m->losses, m->nr_losses * sizeof(*l));
	qsort(l, m->nr_losses, sizeof(*l), report_loss__by_time);
	fprintf(f, "\nlosses over time (s from the start; one line per %s, kind and %" PRIu64
		" ns bin)\n", kind, m->bin_ns);
	for (size_t i = 0; i < m->nr_losses; i++) {
		fputs("  ", f);
		text__secs(f, (int64_t)l[i].time_ns - origin);
		if (l[i].lane_id == REPORT_LANE_NONE)
			fprintf(f, "  no %s", kind);
		else
			fprintf(f, "  %s %d", kind, l[i].lane_id);
		fprintf(f, "  %s  %" PRIu64 " %s in %" PRIu64 " report%s\n",
			report_loss_kind__name(l[i].kind), l[i].count,
			report_loss_kind__unit(l[i].kind), l[i].marks, l[i].marks == 1 ? "" : "s");
	}
	free(l);
}

static void text__snapshots(FILE *f, const struct report_model *m)
{
	int64_t origin = (int64_t)report_model__origin(m);

	if (!m->nr_snapshots)
		return;
	fputs("\nsnapshots (s from the start)\n", f);
	for (size_t i = 0; i < m->nr_snapshots; i++) {
		fputs("  ", f);
		text__secs(f, (int64_t)m->snapshots[i] - origin);
		fputc('\n', f);
	}
}

static void text__aux_queues(FILE *f, const struct report_data *d)
{
	if (!d->nr_queues)
		return;
	fprintf(f, "\n%-24s %10s %14s\n", "AUX queue", "buffers", "bytes");
	for (size_t i = 0; i < d->nr_queues; i++) {
		const struct report_aux_queue *q = &d->queues[i];
		char name[48];

		if (!q->buffers)
			continue;
		if (q->cpu >= 0)
			snprintf(name, sizeof(name), "idx %u (CPU %d)", q->idx, q->cpu);
		else
			snprintf(name, sizeof(name), "idx %u (thread %d)", q->idx, q->tid);
		fprintf(f, "  %-22s %10" PRIu64 " %14" PRIu64 "\n", name, q->buffers, q->bytes);
	}
}

void report_text__print(FILE *f, const struct report_data *d)
{
	text__header(f, d);
	text__sources(f, d->m);
	text__losses(f, d->m);
	text__lanes(f, d->m);
	text__loss_marks(f, d->m);
	text__snapshots(f, d->m);
	text__aux_queues(f, d);
	report_agg__print(f, d->agg, report_model__origin(d->m));
	if (d->perf_unknown)
		fprintf(f, "\n%" PRIu64 " perf.data records of unknown type or sample ID were skipped\n",
			d->perf_unknown);
	if (d->aux_errors)
		fprintf(f, "\n%" PRIu64 " PERF_RECORD_AUXTRACE_ERROR records\n", d->aux_errors);
}
