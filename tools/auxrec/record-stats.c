// SPDX-License-Identifier: LGPL-2.1
/* auxrec record's summary: one row per CPU (or thread) across every kind of ring. */
#include <stdio.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/cpumap.h>
#include "record.h"

/* One line of the summary: what the rings of one CPU (or one thread) delivered. */
struct record_row {
	struct ring_stats perf, aux, ftrace;
	bool has_perf, has_aux, has_ftrace;
};

static void record_row__add(struct ring_stats *sum, const struct ring_stats *s)
{
	sum->records += s->records;
	sum->bytes += s->bytes;
	sum->chunks += s->chunks;
	sum->lost += s->lost;
	sum->lost_reports += s->lost_reports;
	sum->lost_unknown += s->lost_unknown;
	sum->overruns += s->overruns;
	sum->aux_truncated += s->aux_truncated;
}

static void record__print_row(struct record *rec, const char *label, const struct record_row *r)
{
	fprintf(stderr, "%-8s", label);
	if (r->has_perf)
		fprintf(stderr, " %12llu %12llu %8llu", (unsigned long long)r->perf.records,
			(unsigned long long)r->perf.bytes, (unsigned long long)r->perf.lost);
	else
		fprintf(stderr, " %12s %12s %8s", "-", "-", "-");
	if (rec->aux && r->has_aux)
		fprintf(stderr, " %12llu %6llu %8llu", (unsigned long long)r->aux.bytes,
			(unsigned long long)r->aux.aux_truncated, (unsigned long long)r->aux.overruns);
	else if (rec->aux)
		fprintf(stderr, " %12s %6s %8s", "-", "-", "-");
	if (rec->ftrace && r->has_ftrace)
		fprintf(stderr, " %12llu %10llu %8llu%s", (unsigned long long)r->ftrace.records,
			(unsigned long long)r->ftrace.chunks, (unsigned long long)r->ftrace.lost,
			r->ftrace.lost_unknown ? "+" : "");
	else if (rec->ftrace)
		fprintf(stderr, " %12s %10s %8s", "-", "-", "-");
	fprintf(stderr, "\n");
}

/* The rings of mmap idx (perf data ring and its AUX area) into row. */
static void record__idx_row(struct record *rec, int idx, struct record_row *row)
{
	struct perf_mmap *map = evlist__mmap_at(rec->evlist, idx);

	if (map) {
		record_row__add(&row->perf, perf_mmap__stats(map));
		row->has_perf = true;
	}
	if (rec->aux && !auxtrace_mmaps__stats(rec->aux, idx, &row->aux))
		row->has_aux = true;
}

/* What was lost, why, and what to change; nothing when nothing was. */
static void record__print_losses(struct record *rec, const struct record_row *total)
{
	const struct ring_stats *p = &total->perf, *a = &total->aux, *f = &total->ftrace;

	if (p->lost)
		fprintf(stderr, "auxrec: lost %llu perf records (PERF_RECORD_LOST): the data rings "
			"filled before they were drained; give them more pages (-m DATA)\n",
			(unsigned long long)p->lost);
	if (rec->aux && (a->aux_truncated || a->overruns))
		fprintf(stderr, "auxrec: AUX data lost: %llu truncated transactions, %llu bytes "
			"overwritten; give the AUX areas more room (-m ,AUX)\n",
			(unsigned long long)a->aux_truncated, (unsigned long long)a->overruns);
	if (rec->ftrace && (f->lost || f->lost_unknown))
		fprintf(stderr, "auxrec: ftrace lost %llu events%s (%llu reports): the CPU buffers "
			"were overwritten before they were read (trace-cmd report shows where); "
			"give them more room (--ftrace-buffer-kb)\n",
			(unsigned long long)f->lost, f->lost_unknown ? " and more uncounted" : "",
			(unsigned long long)f->lost_reports);
}

/*
 * Per CPU (or per thread in --per-thread sessions, where ftrace rings still are per CPU):
 * records, bytes and losses of every ring, then the totals.
 */
void record__print_stats(struct record *rec)
{
	int nr = evlist__nr_mmaps(rec->evlist);
	bool per_thread = evlist__per_thread(rec->evlist) && nr;
	struct record_row total = { .has_perf = true, .has_aux = true, .has_ftrace = true };
	struct perf_cpu_map *cpus;
	char label[32];

	record__clear_status();
	if (rec->quiet)
		return;
	cpus = per_thread ? NULL : perf_cpu_map__new_online_cpus();	/* after -q: not leaked */
	if (rec->end_reason)
		fprintf(stderr, "auxrec: recorded %.2f s; ended because %s\n",
			rec->ended - rec->started, rec->end_reason);
	fprintf(stderr, "%-8s %12s %12s %8s", per_thread ? "thread" : "cpu", "perf records",
		"perf bytes", "lost");
	if (rec->aux)
		fprintf(stderr, " %12s %6s %8s", "AUX bytes", "trunc", "overrun");
	if (rec->ftrace)
		fprintf(stderr, " %12s %10s %8s", "ftrace events", "sub-bufs", "lost");
	fprintf(stderr, "\n");
	for (int i = 0; i < (per_thread ? nr : perf_cpu_map__nr(cpus)); i++) {
		struct record_row row = { 0 };

		if (per_thread) {
			record__idx_row(rec, i, &row);
			snprintf(label, sizeof(label), "%d",
				 perf_thread_map__pid(evlist__threads(rec->evlist), i));
		} else {
			int cpu = perf_cpu_map__cpu(cpus, i).cpu;

			for (int idx = 0; idx < nr; idx++) {
				struct perf_mmap *map = evlist__mmap_at(rec->evlist, idx);

				if (map && perf_mmap__cpu(map).cpu == cpu)
					record__idx_row(rec, idx, &row);
			}
			row.has_ftrace = rec->ftrace &&
					 !ring_set__stats(rec->set, RING_SOURCE_FTRACE, cpu,
							  &row.ftrace);
			if (!row.has_perf && !row.has_ftrace)
				continue;	/* a CPU outside -C */
			snprintf(label, sizeof(label), "%d", cpu);
		}
		record__print_row(rec, label, &row);
		record_row__add(&total.perf, &row.perf);
		record_row__add(&total.aux, &row.aux);
		record_row__add(&total.ftrace, &row.ftrace);
	}
	/* ftrace rings are per CPU: in per-thread sessions, their totals only */
	if (per_thread && rec->ftrace)
		ring_set__stats(rec->set, RING_SOURCE_FTRACE, -1, &total.ftrace);
	record__print_row(rec, "total", &total);
	perf_cpu_map__put(cpus);
	if (rec->ftrace && ftrace_session__followed(rec->ftrace))
		fprintf(stderr, "ftrace rings read %s; events of pid %d and its children only "
			"(--ftrace-all-tasks for every task's)\n", ftrace_session__mode(rec->ftrace),
			(int)ftrace_session__followed(rec->ftrace));
	else if (rec->ftrace)
		fprintf(stderr, "ftrace rings read %s; events of every task\n",
			ftrace_session__mode(rec->ftrace));
	record__print_losses(rec, &total);
}

static void record__say_bytes(char *buf, size_t size, uint64_t bytes)
{
	if (bytes >= 10 << 20)
		snprintf(buf, size, "%.1f MiB", bytes / 1048576.0);
	else if (bytes >= 10 << 10)
		snprintf(buf, size, "%.1f KiB", bytes / 1024.0);
	else
		snprintf(buf, size, "%llu B", (unsigned long long)bytes);
}

/* One source's part of the status line: bytes so far and what was lost. */
static int record__status_part(struct record *rec, enum ring_source_kind kind, const char *name,
			       char *buf, size_t size)
{
	struct ring_stats st;
	char bytes[32];

	if (ring_set__stats(rec->set, kind, -1, &st) < 0)
		return 0;
	record__say_bytes(bytes, sizeof(bytes), st.bytes);
	return snprintf(buf, size, "  %s %s (%llu lost)", name, bytes,
			(unsigned long long)(st.lost + st.lost_unknown + st.aux_truncated +
					     st.overruns));
}

static bool status_shown;

void record__clear_status(void)
{
	if (status_shown)
		fputs("\r\033[K", stderr);
	status_shown = false;
}

void record__print_status(struct record *rec, double now)
{
	static double last;
	char line[256];
	int n;

	/*
	 * A terminal only, once a second: a log file gets the summary alone. The clock first:
	 * the loop calls this per wakeup, and isatty() is a system call.
	 */
	if (now - last < 1.0)
		return;
	last = now;
	if (!isatty(STDERR_FILENO))
		return;
	n = snprintf(line, sizeof(line), "\rauxrec: %.0f s", now - rec->started);
	n += record__status_part(rec, RING_SOURCE_PERF, "perf", line + n, sizeof(line) - n);
	if (rec->aux)
		n += record__status_part(rec, RING_SOURCE_AUX, "AUX", line + n, sizeof(line) - n);
	if (rec->ftrace)
		record__status_part(rec, RING_SOURCE_FTRACE, "ftrace", line + n, sizeof(line) - n);
	fprintf(stderr, "%s\033[K", line);
	status_shown = true;
}
