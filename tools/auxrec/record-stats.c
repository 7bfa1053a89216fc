// SPDX-License-Identifier: LGPL-2.1
/* auxrec record's summary: one row per CPU (or thread) across every kind of ring. */
#include <stdio.h>

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
	sum->lost_unknown += s->lost_unknown;
	sum->overruns += s->overruns;
	sum->aux_truncated += s->aux_truncated;
}

static void record__print_row(struct record *rec, const char *label, const struct record_row *r)
{
	printf("%-8s", label);
	if (r->has_perf)
		printf(" %12llu %12llu %8llu", (unsigned long long)r->perf.records,
		       (unsigned long long)r->perf.bytes, (unsigned long long)r->perf.lost);
	else
		printf(" %12s %12s %8s", "-", "-", "-");
	if (rec->aux && r->has_aux)
		printf(" %12llu %6llu %8llu", (unsigned long long)r->aux.bytes,
		       (unsigned long long)r->aux.aux_truncated, (unsigned long long)r->aux.overruns);
	else if (rec->aux)
		printf(" %12s %6s %8s", "-", "-", "-");
	if (rec->ftrace && r->has_ftrace)
		printf(" %12llu %10llu %8llu%s", (unsigned long long)r->ftrace.records,
		       (unsigned long long)r->ftrace.chunks, (unsigned long long)r->ftrace.lost,
		       r->ftrace.lost_unknown ? "+" : "");
	else if (rec->ftrace)
		printf(" %12s %10s %8s", "-", "-", "-");
	printf("\n");
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

/*
 * Per CPU (or per thread in --per-thread sessions, where ftrace rings still are per CPU):
 * records, bytes and losses of every ring, then the totals.
 */
void record__print_stats(struct record *rec)
{
	int nr = evlist__nr_mmaps(rec->evlist);
	bool per_thread = evlist__per_thread(rec->evlist) && nr;
	struct perf_cpu_map *cpus = per_thread ? NULL : perf_cpu_map__new_online_cpus();
	struct record_row total = { .has_perf = true, .has_aux = true, .has_ftrace = true };
	char label[32];

	printf("%-8s %12s %12s %8s", per_thread ? "thread" : "cpu", "perf records", "perf bytes",
	       "lost");
	if (rec->aux)
		printf(" %12s %6s %8s", "AUX bytes", "trunc", "overrun");
	if (rec->ftrace)
		printf(" %12s %10s %8s", "ftrace events", "sub-bufs", "lost");
	printf("\n");
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
	if (rec->ftrace)
		printf("ftrace rings read %s\n", ftrace_session__mode(rec->ftrace));
}
