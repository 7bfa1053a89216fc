// SPDX-License-Identifier: LGPL-2.1
/*
 * Pages for the browser test: report-html-demo KIND PAGE.html TRUTH.json fills a report model
 * with synthetic data, writes its page, and writes what the data was (every loss as added, the
 * snapshots, the numbers of one bin of the full view and of one finer bin seen when zoomed in,
 * summed from the adds, the totals) for the test to find on the page.
 * The truth is kept from the adds themselves, not read back from the model.
 *
 * KIND: two-cpu    10 s, 2 CPUs, all four sources, a loss burst, two snapshots
 *       many-cpu   10 s, 256 CPUs (the heat map), 16 of them recorded and silent
 *       heat-edge  1 s on one lane more than the page draws as lanes: the first heat map
 *       one-cpu    1 s on one CPU
 *       threads    per-thread lanes, no span given (bins grow with the data)
 *       zero-length a recording whose start is its end
 *       empty      a header and no data
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-html.h"
#include "report-model.h"

#define MS	UINT64_C(1000000)
#define SEC	UINT64_C(1000000000)
#define START	(1000 * SEC)	/* trace clock at the recording's start */
#define MAX_LOSSES 64

static const char *const source_keys[REPORT_SRC__NR] = { "samples", "sideband", "aux", "ftrace" };
static const char *const loss_keys[REPORT_LOSS__NR] = {
	"lost", "aux-truncated", "aux-partial", "aux-collision", "ftrace-missed", "lost-samples",
};

struct demo {
	struct report_model *m;
	struct report_count total[REPORT_SRC__NR];
	struct { uint64_t count, reports; } lost[REPORT_LOSS__NR];
	struct { int lane; enum report_loss_kind kind; uint64_t t, count; } losses[MAX_LOSSES];
	size_t nr_losses;
	/*
	 * The hovered bins, at full view and zoomed in: lane, [t0, t0 + w) from the start, and
	 * what the adds put there. w 0: no such probe.
	 */
	struct probe { int lane; uint64_t t0, w; struct report_count c[REPORT_SRC__NR]; } probe[2];
	/* [id + 1]: a lane the adds named (1), and what they put there, timed or not */
	unsigned char lanes[(1 << 16) + 1];
	unsigned char timed[(1 << 16) + 1];
	struct report_count lane_total[(1 << 16) + 1][REPORT_SRC__NR];
	uint64_t lane_lost[(1 << 16) + 1][REPORT_LOSS__NR];
	uint64_t rng;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "report-html-demo: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static uint64_t demo__rand(struct demo *d, uint64_t n)
{
	d->rng ^= d->rng << 13;
	d->rng ^= d->rng >> 7;
	d->rng ^= d->rng << 17;
	return d->rng % n;
}

/* t: ns from the start; REPORT_TIME_NONE passes through. */
static void demo__data(struct demo *d, enum report_source src, int lane, uint64_t t,
		       uint64_t bytes, uint64_t records)
{
	int err = report_model__add_data(d->m, src, lane,
					 t == REPORT_TIME_NONE ? t : START + t, bytes, records);

	if (err)
		die("report_model__add_data", err);
	d->lanes[lane + 1] = 1;
	d->timed[lane + 1] |= t != REPORT_TIME_NONE;
	d->lane_total[lane + 1][src].bytes += bytes;
	d->lane_total[lane + 1][src].records += records;
	d->total[src].bytes += bytes;
	d->total[src].records += records;
	for (int i = 0; i < 2; i++) {
		struct probe *p = &d->probe[i];

		if (p->w && lane == p->lane && t >= p->t0 && t < p->t0 + p->w) {
			p->c[src].bytes += bytes;
			p->c[src].records += records;
		}
	}
}

static void demo__loss(struct demo *d, enum report_loss_kind kind, int lane, uint64_t t,
		       uint64_t count)
{
	int err = report_model__add_loss(d->m, kind, lane, START + t, count);

	if (err)
		die("report_model__add_loss", err);
	d->lanes[lane + 1] = 1;
	if (d->nr_losses == MAX_LOSSES)
		die("too many losses for the truth table", ENOSPC);
	d->losses[d->nr_losses].lane = lane;
	d->losses[d->nr_losses].kind = kind;
	d->losses[d->nr_losses].t = t;
	d->losses[d->nr_losses++].count = count;
	d->lost[kind].count += count;
	d->lost[kind].reports++;
	d->lane_lost[lane + 1][kind] += count;
}

/* A lane the recording covered that stayed silent. */
static void demo__silent(struct demo *d, int lane)
{
	int err = report_model__add_lane(d->m, lane);

	if (err)
		die("report_model__add_lane", err);
	d->lanes[lane + 1] = 1;
}

static void demo__header(struct demo *d, const char *command, int cpus)
{
	static const char *const events[] = { "cpu-clock", "sched:sched_switch",
					      "sched:sched_wakeup", "intel_pt//u" };
	struct report_model *m = d->m;

	if (report_model__set_info(m, REPORT_INFO_COMMAND, command) ||
	    report_model__set_info(m, REPORT_INFO_HOSTNAME, "demo-host") ||
	    report_model__set_info(m, REPORT_INFO_OS_RELEASE, "6.18.0-demo") ||
	    report_model__set_info(m, REPORT_INFO_ARCH, "x86_64") ||
	    report_model__set_info(m, REPORT_INFO_VERSION, "auxrec 0.1.0") ||
	    report_model__set_info(m, REPORT_INFO_DATA_DIR, "auxrec.data/") ||
	    report_model__set_info(m, REPORT_INFO_MODE, "full trace") ||
	    report_model__set_cpus(m, cpus, cpus) ||
	    report_model__set_wall_start(m, UINT64_C(1793534400) * SEC))
		die("header", errno);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (report_model__add_event(m, events[i]))
			die("report_model__add_event", errno);
}

static void demo__span(struct demo *d, uint64_t len)
{
	int err = report_model__set_span(d->m, START, START + len);

	if (err)
		die("report_model__set_span", err);
}

static void demo__snapshot(struct demo *d, uint64_t t)
{
	int err = report_model__add_snapshot(d->m, START + t);

	if (err)
		die("report_model__add_snapshot", err);
}

/* which: 0 a bin of the full view, 1 a finer one, which zooming in shows. */
static void demo__probe(struct demo *d, int which, int lane, uint64_t t0, uint64_t w)
{
	d->probe[which].lane = lane;
	d->probe[which].t0 = t0;
	d->probe[which].w = w;
}

/* A triangle wave of period p ns at t: -1000 .. 1000. */
static int demo__wave(uint64_t t, uint64_t p)
{
	int64_t x = (int64_t)((t % p) * 4000 / p);	/* 0 .. 4000 */

	return (int)(x < 2000 ? x - 1000 : 3000 - x);
}

/* 10 s on 2 CPUs: CPU 1 goes quiet from 3 to 5 s, then loses data in a burst at 6 s. */
static void demo__two_cpu(struct demo *d)
{
	demo__header(d, "./build/tests/progs/getppid-loop 1000000", 2);
	demo__span(d, 10 * SEC);
	demo__probe(d, 0, 0, 2500 * MS, 10 * MS);
	demo__probe(d, 1, 0, 2503 * MS, MS);
	for (int cpu = 0; cpu < 2; cpu++) {
		for (uint64_t t = 0; t < 10 * SEC; t += SEC / 4000) {
			int busy = cpu ? 600 : 550 + demo__wave(t, 4800 * MS) * 2 / 5;

			if (cpu == 1 && t >= 3 * SEC && t < 5 * SEC)
				continue;
			if ((int)demo__rand(d, 1000) < busy)
				demo__data(d, REPORT_SRC_SAMPLES, cpu, t + demo__rand(d, 1000),
					   160 + 8 * demo__rand(d, 4), 1);
		}
		for (uint64_t t = 0; t < 10 * SEC; t += 20 * MS) {
			if (cpu ? t >= 1 * SEC && t < 6 * SEC : t >= 2 * SEC && t < 8 * SEC)
				demo__data(d, REPORT_SRC_AUX, cpu, t + 3 * MS,
					   16384 + 64 * demo__rand(d, 128), 1);
		}
		for (uint64_t t = 0; t < 10 * SEC; t += MS) {
			uint64_t n = 3 + demo__rand(d, 4) + ((t / SEC) % 3 == (uint64_t)cpu ? 6 : 0);

			if (cpu == 1 && t >= 3 * SEC && t < 5 * SEC)
				continue;
			demo__data(d, REPORT_SRC_FTRACE, cpu, t + 500, 48 * n, n);
		}
		for (uint64_t t = 0; t < 10 * SEC; t += 5 * MS)
			demo__data(d, REPORT_SRC_SIDEBAND, cpu, t + 1234, 48, 1);
	}
	/* what a recording starts with: synthesized comm and mmap2 records, some without time */
	for (int i = 0; i < 40; i++)
		demo__data(d, REPORT_SRC_SIDEBAND, 0, i * MS / 2, 96 + 8 * (i % 5), 1);
	demo__data(d, REPORT_SRC_SIDEBAND, 0, REPORT_TIME_NONE, 200, 2);

	for (int i = 0; i < 5; i++)
		demo__loss(d, REPORT_LOSS_LOST, 1, 6 * SEC + i * 9 * MS + 100, 100 * (i + 1));
	demo__loss(d, REPORT_LOSS_AUX_TRUNCATED, 1, 6020 * MS + 77, 1);
	demo__loss(d, REPORT_LOSS_AUX_PARTIAL, 0, 4000 * MS + 5, 1);
	demo__loss(d, REPORT_LOSS_AUX_COLLISION, 0, 4500 * MS + 5, 1);
	demo__loss(d, REPORT_LOSS_FTRACE_MISSED, 0, 7500 * MS + 42, 1234);
	demo__loss(d, REPORT_LOSS_FTRACE_MISSED, 1, 8200 * MS + 42, 0);
	demo__snapshot(d, 3 * SEC);
	demo__snapshot(d, 7250 * MS);
}

/* 10 s on 256 CPUs: a busy block, a wave across the machine, idle CPUs, scattered losses. */
static void demo__many_cpu(struct demo *d)
{
	demo__header(d, "system-wide", 256);
	demo__span(d, 10 * SEC);
	demo__probe(d, 0, 100, 5 * SEC, 20 * MS);
	for (int cpu = 0; cpu < 256; cpu++) {
		if (cpu >= 224 && cpu % 2) {
			demo__silent(d, cpu);	/* recorded, and not a thing happened */
			continue;
		}
		for (uint64_t t = 0; t < 10 * SEC; t += 4 * MS) {
			/* a wave crosses the machine in 10 s, 1 s wide on each CPU */
			int64_t phase = (int64_t)(t / MS) - cpu * 39;
			int64_t bump = 1000 - (phase < 0 ? -phase : phase);
			int64_t busy = cpu < 32 ? 900 : 100 + (bump > 0 ? bump * 4 / 5 : 0);

			if ((int64_t)demo__rand(d, 1000) < busy)
				demo__data(d, REPORT_SRC_SAMPLES, cpu, t + demo__rand(d, 4 * MS),
					   160, 1);
		}
		if (cpu < 64)
			for (uint64_t t = 0; t < 10 * SEC; t += 10 * MS)
				demo__data(d, REPORT_SRC_FTRACE, cpu, t + 1000, 48 * 20, 20);
	}
	demo__loss(d, REPORT_LOSS_LOST, 100, 5 * SEC + 3 * MS, 321);
	demo__loss(d, REPORT_LOSS_LOST, 200, 8 * SEC + 1 * MS, 77);
	demo__loss(d, REPORT_LOSS_FTRACE_MISSED, 7, 2 * SEC + 5 * MS, 900);
	demo__snapshot(d, 2500 * MS);
	demo__snapshot(d, 9 * SEC);
}

/* REPORT_HTML_HEAT_LANES + 1 CPUs: the fewest that the page draws as a heat map. */
static void demo__heat_edge(struct demo *d)
{
	demo__header(d, "system-wide", REPORT_HTML_HEAT_LANES + 1);
	demo__span(d, SEC);
	demo__probe(d, 0, 3, 500 * MS, MS);
	for (int cpu = 0; cpu <= REPORT_HTML_HEAT_LANES; cpu++)
		for (uint64_t t = cpu * MS; t < SEC; t += 5 * MS)
			demo__data(d, REPORT_SRC_SAMPLES, cpu, t, 64, 1);
	demo__loss(d, REPORT_LOSS_LOST, REPORT_HTML_HEAT_LANES, 250 * MS, 3);
}

static void demo__one_cpu(struct demo *d)
{
	demo__header(d, "sleep 1", 1);
	demo__span(d, SEC);
	demo__probe(d, 0, 0, 500 * MS, MS);
	demo__probe(d, 1, 0, 500 * MS, 100 * 1000);
	for (uint64_t t = 0; t < SEC; t += SEC / 1000) {
		demo__data(d, REPORT_SRC_SAMPLES, 0, t, 64, 1);
		demo__data(d, REPORT_SRC_FTRACE, 0, t + 100, 96, 2);
	}
	demo__loss(d, REPORT_LOSS_LOST, 0, 500 * MS + 10, 5);
}

/* --per-thread, with no span given: the bins grow with the data. */
static void demo__threads(struct demo *d)
{
	static const int tids[] = { 4242, 4243, 4250 };

	demo__header(d, "make -j3", 2);
	demo__probe(d, 0, 4243, 1 * SEC, 2 * MS);
	for (size_t i = 0; i < 3; i++)
		for (uint64_t t = i * 100 * MS; t < 2 * SEC - i * 300 * MS; t += MS / 2)
			demo__data(d, REPORT_SRC_SAMPLES, tids[i], t, 200, 1);
	demo__loss(d, REPORT_LOSS_LOST, 4250, 700 * MS, 12);
}

static void demo__zero_length(struct demo *d)
{
	demo__header(d, "true", 1);
	demo__span(d, 0);
	demo__probe(d, 0, 0, 0, 1000);
	for (int i = 0; i < 3; i++)
		demo__data(d, REPORT_SRC_SAMPLES, 0, 0, 100, 1);
	demo__snapshot(d, 0);
}

static void demo__truth(struct demo *d, FILE *f, const char *kind)
{
	const struct report_model *m = d->m;
	size_t nr_lanes = 0;
	const char *mode;

	for (size_t i = 0; i < sizeof(d->lanes); i++)
		nr_lanes += d->lanes[i];
	mode = !nr_lanes ? "empty" : nr_lanes > REPORT_HTML_HEAT_LANES ? "heatmap" : "lanes";

	fprintf(f, "{\"kind\":\"%s\",\"mode\":\"%s\",\"laneAttr\":\"%s\",\n\"lanes\":[", kind, mode,
		m->lane_kind == REPORT_LANES_THREAD ? "tid" : "cpu");
	/* lanes in the order the page must show them: every lane the adds named, ascending */
	for (int id = -1, n = 0; id < 1 << 16; id++)
		if (d->lanes[id + 1])
			fprintf(f, "%s%d", n++ ? "," : "", id);
	/* per lane: the per-lane table's totals and losses, and whether its bins hold anything */
	fputs("],\n\"laneTotals\":{", f);
	for (int id = -1, n = 0; id < 1 << 16; id++) {
		if (!d->lanes[id + 1])
			continue;
		fprintf(f, "%s\"%d\":[\"", n++ ? "," : "", id);
		for (int s = 0; s < REPORT_SRC__NR; s++)
			fprintf(f, "%s%" PRIu64 "/%" PRIu64, s ? " " : "",
				d->lane_total[id + 1][s].bytes, d->lane_total[id + 1][s].records);
		/* the losses as the text report lists them: "AUX truncated 1, ..." */
		fputs("\",\"", f);
		for (int k = 0, any = 0; k < REPORT_LOSS__NR; k++)
			if (d->lane_lost[id + 1][k])
				fprintf(f, "%s%s %" PRIu64, any++ ? ", " : "", report_loss_kind__name(k),
					d->lane_lost[id + 1][k]);
		fputs("\"]", f);
	}
	for (int busy = 0; busy < 2; busy++) {
		fputs(busy ? "],\"busyLanes\":[" : "},\n\"emptyLanes\":[", f);
		for (int id = -1, n = 0; id < 1 << 16; id++)
			if (d->lanes[id + 1] && d->timed[id + 1] == busy)
				fprintf(f, "%s%d", n++ ? "," : "", id);
	}
	fputs("],\n\"losses\":[", f);
	for (size_t i = 0; i < d->nr_losses; i++)
		fprintf(f, "%s[%d,%" PRIu64 ",\"%s\",%" PRIu64 "]", i ? "," : "", d->losses[i].lane,
			d->losses[i].t, loss_keys[d->losses[i].kind], d->losses[i].count);
	fputs("],\n\"snapshots\":[", f);
	for (size_t i = 0; i < m->nr_snapshots; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", m->snapshots[i] - START);
	fputs("],\n\"totals\":{", f);
	for (int s = 0; s < REPORT_SRC__NR; s++)
		fprintf(f, "%s\"%s\":[%" PRIu64 ",%" PRIu64 "]", s ? "," : "", source_keys[s],
			d->total[s].bytes, d->total[s].records);
	fputs("},\n\"lossTotals\":{", f);
	for (int k = 0; k < REPORT_LOSS__NR; k++)
		fprintf(f, "%s\"%s\":[%" PRIu64 ",%" PRIu64 "]", k ? "," : "", loss_keys[k],
			d->lost[k].count, d->lost[k].reports);
	for (int i = 0; i < 2; i++) {
		const struct probe *p = &d->probe[i];

		fputs(i ? ",\n\"zoomProbe\":" : "},\n\"probe\":", f);
		if (!p->w || !m->nr_bins) {
			fputs("null", f);
			continue;
		}
		fprintf(f, "{\"lane\":%d,\"t0\":%" PRIu64 ",\"binNs\":%" PRIu64 ",\"sources\":{",
			p->lane, p->t0, p->w);
		for (int s = 0, n = 0; s < REPORT_SRC__NR; s++)
			if (p->c[s].records)
				fprintf(f, "%s\"%s\":[%" PRIu64 ",%" PRIu64 "]", n++ ? "," : "",
					source_keys[s], p->c[s].bytes, p->c[s].records);
		fputs("}}", f);
	}
	fputs("}\n", f);
}

/*
 * The probed bins must be bins of the page: the full view's, and for the zoomed one, the
 * finest, which the page must carry for each source the probe has data of.
 */
static int demo__check_probes(const struct demo *d, const char *kind)
{
	struct report_html_plan plan;

	report_html__plan(d->m, &plan);
	if (d->probe[0].w && d->m->nr_bins && d->probe[0].w != plan.view_ns) {
		fprintf(stderr, "report-html-demo: %s: the page's bins are %" PRIu64 " ns, the probe "
			"expects %" PRIu64 "\n", kind, plan.view_ns, d->probe[0].w);
		return -1;
	}
	for (int s = 0; d->probe[1].w && s < REPORT_SRC__NR; s++) {
		if (d->probe[1].c[s].records && plan.src_ns[s] != d->probe[1].w) {
			fprintf(stderr, "report-html-demo: %s: the page carries %s in bins of %" PRIu64
				" ns, the zoomed probe expects %" PRIu64 "\n", kind,
				report_source__name(s), plan.src_ns[s], d->probe[1].w);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fill)(struct demo *d);
		enum report_lane_kind lanes;
	} kinds[] = {
		{ "two-cpu", demo__two_cpu, REPORT_LANES_CPU },
		{ "many-cpu", demo__many_cpu, REPORT_LANES_CPU },
		{ "heat-edge", demo__heat_edge, REPORT_LANES_CPU },
		{ "one-cpu", demo__one_cpu, REPORT_LANES_CPU },
		{ "threads", demo__threads, REPORT_LANES_THREAD },
		{ "zero-length", demo__zero_length, REPORT_LANES_CPU },
		{ "empty", NULL, REPORT_LANES_CPU },
	};
	static struct demo d = { .rng = 88172645463325252ULL };
	FILE *page, *truth;
	size_t k;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: report-html-demo KIND PAGE.html TRUTH.json\n");
		return 2;
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(kinds[k].name, argv[1]))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		fprintf(stderr, "report-html-demo: unknown kind '%s'\n", argv[1]);
		return 2;
	}
	d.m = report_model__new(kinds[k].lanes);
	if (!d.m)
		die("report_model__new", errno);
	if (kinds[k].fill)
		kinds[k].fill(&d);
	else
		demo__header(&d, "true", 2);
	if (demo__check_probes(&d, argv[1]))
		return 1;
	page = fopen(argv[2], "w");
	truth = fopen(argv[3], "w");
	if (!page || !truth)
		die("open the output files", errno);
	err = report_html__write(page, d.m, NULL);
	if (err)
		die("report_html__write", err);
	demo__truth(&d, truth, argv[1]);
	if (fclose(page) || fclose(truth))
		die("close the output files", errno);
	report_model__free(d.m);
	return 0;
}
