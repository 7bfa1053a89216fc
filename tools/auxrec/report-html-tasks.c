// SPDX-License-Identifier: LGPL-2.1
/*
 * The page's "Tasks over time" section: a lane per CPU showing which task ran when, with the
 * samples, events and losses on it, drawn by report-html-tasks.js from the levels of detail
 * report-sched.c kept. The page carries the coarsest level that still has a slot per pixel or
 * so at full view, then each finer one while the page's budget holds: zooming in picks the
 * finest level the page has, down to every run and event with its fields (level 0) when it fit.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report-html-util.h"
#include "report-sched.h"

/* The bytes of level data a page may carry: with the rest, a page stays under 2 MB. */
#define TASKS_BYTES_MAX		(1536 * 1024)
/* At full view, about this many pixels: the coarsest level has a slot per pixel or finer. */
#define TASKS_VIEW_PX		1500
/* Tasks named in the legend above the lanes; the rest are in the folded table. */
#define TASKS_LEGEND_MAX	12
/* Rows of the folded table: the rest (short-lived tasks of a busy machine) in one line. */
#define TASKS_TABLE_MAX		200

/* A task's colour: hues far apart for the busiest tasks (the golden angle), by rank. */
static unsigned task_hue(size_t rank)
{
	return (unsigned)((double)rank * 137.508 + 210) % 360;
}

struct tasks_order {
	const struct report_sched_task *t;
	size_t *rank;		/* [task index] -> rank by time on CPU */
	size_t *by_rank;	/* [rank] -> task index */
	size_t nr;
};

static int task__by_oncpu(const void *x, const void *y, void *tasks)
{
	const struct report_sched_task *t = tasks;
	const struct report_sched_task *a = &t[*(const size_t *)x], *b = &t[*(const size_t *)y];

	if (a->oncpu_ns != b->oncpu_ns)
		return a->oncpu_ns > b->oncpu_ns ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int tasks_order__init(struct tasks_order *o, const struct report_sched *s)
{
	o->t = report_sched__tasks(s, &o->nr);
	o->rank = calloc(o->nr, sizeof(*o->rank));
	o->by_rank = calloc(o->nr, sizeof(*o->by_rank));
	if (!o->rank || !o->by_rank)
		return -ENOMEM;
	for (size_t i = 0; i < o->nr; i++)
		o->by_rank[i] = i;
	qsort_r(o->by_rank, o->nr, sizeof(*o->by_rank), task__by_oncpu, (void *)o->t);
	for (size_t r = 0; r < o->nr; r++)
		o->rank[o->by_rank[r]] = r;
	return 0;
}

static void tasks_order__exit(struct tasks_order *o)
{
	free(o->rank);
	free(o->by_rank);
}

static void html__task_name(FILE *f, const struct report_sched_task *t)
{
	html__puts(f, *t->comm ? t->comm : "?");
	fprintf(f, " <span class=\"muted\">%d</span>", t->tid);
}

static void html__tasks_legend(FILE *f, const struct tasks_order *o)
{
	size_t shown = 0, busy = 0;

	fputs("<div class=\"legend\" id=\"task-legend\">\n", f);
	for (size_t r = 0; r < o->nr; r++) {
		const struct report_sched_task *t = &o->t[o->by_rank[r]];

		if (!t->tid || !t->oncpu_ns)
			continue;
		busy++;
		if (shown == TASKS_LEGEND_MAX)
			continue;
		shown++;
		fprintf(f, "<span class=\"legend-item\" data-tid=\"%d\"><span class=\"swatch\" "
			"style=\"background: hsl(%u 70%% 48%%)\"></span>", t->tid, task_hue(r));
		html__task_name(f, t);
		fputs("</span>\n", f);
	}
	if (busy > shown)
		fprintf(f, "<span class=\"legend-item muted\">and %zu more (table below)</span>\n",
			busy - shown);
	fputs("<span class=\"legend-item muted\"><span class=\"tick-key\"></span>sample</span>\n"
	      "<span class=\"legend-item muted\"><span class=\"event-key\"></span>event</span>\n"
	      "</div>\n", f);
}

static int html__tasks_totals(FILE *f, const struct report_sched *s, const struct tasks_order *o)
{
	uint64_t total = 0, rest = 0;
	char buf[40];

	for (size_t i = 0; i < o->nr; i++)
		total += o->t[i].oncpu_ns;
	for (size_t r = TASKS_TABLE_MAX; r < o->nr; r++)
		rest += o->t[o->by_rank[r]].oncpu_ns;
	fprintf(f, "<details class=\"fold\">\n<summary>Tasks (%zu): time on CPU</summary>\n"
		"<table class=\"totals\" id=\"tasks-totals\">\n<thead><tr><th>Task</th>"
		"<th class=\"num\">tid</th><th class=\"num\">On CPU</th><th class=\"num\">%%</th>"
		"</tr></thead>\n<tbody>\n", o->nr);
	for (size_t r = 0; r < o->nr && r < TASKS_TABLE_MAX; r++) {
		const struct report_sched_task *t = &o->t[o->by_rank[r]];

		fprintf(f, "<tr data-tid=\"%d\" data-oncpu-ns=\"%" PRIu64 "\"><td><span class=\"swatch\""
			" style=\"background: hsl(%u 70%% 48%%)\"></span> ", t->tid, t->oncpu_ns,
			task_hue(r));
		html__puts(f, *t->comm ? t->comm : "?");
		fprintf(f, "</td><td class=\"num\">%d</td><td class=\"num\">%s</td>"
			"<td class=\"num\">%.2f</td></tr>\n", t->tid,
			html__fmt_time(buf, (int64_t)t->oncpu_ns, t->oncpu_ns),
			total ? 100.0 * (double)t->oncpu_ns / (double)total : 0.0);
	}
	if (o->nr > TASKS_TABLE_MAX)
		fprintf(f, "<tr><td>%zu more tasks</td><td></td><td class=\"num\">%s</td>"
			"<td class=\"num\">%.2f</td></tr>\n", o->nr - TASKS_TABLE_MAX,
			html__fmt_time(buf, (int64_t)rest, rest),
			total ? 100.0 * (double)rest / (double)total : 0.0);
	fputs("</tbody>\n</table>\n", f);
	if (report_sched__source(s) < 0)
		fputs("<p class=\"note\">No context switch was recorded: which task ran when is not "
		      "known (record sched:sched_switch, or --switch-events).</p>\n", f);
	fputs("</details>\n", f);
	return 0;
}

int report_html_tasks__body(FILE *f, const struct report_page *p)
{
	struct tasks_order o = { 0 };
	int err;

	fputs("<section aria-label=\"tasks\" id=\"tasks-section\">\n<h2>Tasks over time</h2>\n"
	      "<div class=\"toolbar\">\n", f);
	if (!p->sched) {
		fputs("</div>\n<p class=\"note\">This page was made without task data.</p>\n"
		      "</section>\n", f);
		return 0;
	}
	err = tasks_order__init(&o, p->sched);
	if (!err) {
		html__tasks_legend(f, &o);
		fputs("<div class=\"controls\"><span class=\"muted\">Rows</span>"
		      "<button type=\"button\" data-tview=\"cpu\" aria-pressed=\"true\">per CPU</button>"
		      "<button type=\"button\" data-tview=\"thread\" aria-pressed=\"false\">per thread"
		      "</button><button type=\"button\" id=\"tasks-reset\">Whole recording</button>"
		      "</div>\n</div>\n<div id=\"tasks\" class=\"tasks\" tabindex=\"0\" "
		      "aria-label=\"tasks over time: + and - zoom, arrows pan, 0 shows it all\">"
		      "<noscript><p class=\"tl-empty\">The lanes are drawn by the page's script; the "
		      "table below needs none.</p></noscript></div>\n<p id=\"tasks-note\" "
		      "class=\"view-note\"></p>\n<div id=\"tasks-tip\" class=\"tip\" role=\"tooltip\" "
		      "hidden></div>\n", f);
		err = html__tasks_totals(f, p->sched, &o);
		fputs("</section>\n", f);
	}
	tasks_order__exit(&o);
	return err;
}

/* v as a signed base-36 token ("" for 0). */
static void put_b36(FILE *f, int64_t v)
{
	char buf[16];
	size_t n;

	if (v < 0)
		fputc('-', f);
	n = html__b36(buf, (uint64_t)(v < 0 ? -v : v));
	fwrite(buf, 1, n, f);
}

/*
 * One CPU's pieces: "start,length,task,busy" per piece, start from the previous piece's end
 * (the first from the origin), busy in thousandths ("" for all of it), base 36.
 */
static void json__pieces(FILE *f, const struct report_sched_piece *pc, size_t n, uint64_t origin)
{
	uint64_t at = origin;

	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		uint64_t len = pc[i].end - pc[i].start;

		if (i)
			fputc(',', f);
		put_b36(f, (int64_t)(pc[i].start - at));
		fputc(',', f);
		put_b36(f, (int64_t)len);
		fputc(',', f);
		put_b36(f, pc[i].task);
		fputc(',', f);
		if (pc[i].busy < len)
			put_b36(f, (int64_t)(pc[i].busy * 1000 / len));
		at = pc[i].end;
	}
	fputc('"', f);
}

/*
 * One CPU's marks: "time,name,task,count", time from the previous mark's, task + 1 ("":
 * unknown), count "" for 1.
 */
static void json__marks(FILE *f, const struct report_sched_mark *mk, size_t n, uint64_t origin)
{
	uint64_t at = origin;

	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		put_b36(f, (int64_t)(mk[i].t - at));
		fputc(',', f);
		put_b36(f, mk[i].name);
		fputc(',', f);
		put_b36(f, mk[i].task == UINT32_MAX ? 0 : (int64_t)mk[i].task + 1);
		fputc(',', f);
		if (mk[i].count > 1)
			put_b36(f, (int64_t)mk[i].count);
		at = mk[i].t;
	}
	fputc('"', f);
}

/*
 * The words of events' fields, each once: most repeat ("prev_prio=120", "==>", a task's
 * "prev_comm=..." and "prev_pid=..."), so that a field reads as a few word numbers.
 */
struct words {
	char **word;
	size_t nr, alloc;
	uint32_t *slots;	/* open addressing: index + 1, 0 empty; a power of two, half full */
	size_t nr_slots;
};

static uint64_t word_hash(const char *w, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 0x100000001b3ULL;
	return h;
}

/* The index of the word w (len bytes), added when new; -1: ENOMEM. */
static int64_t words__index(struct words *d, const char *w, size_t len)
{
	size_t i;

	if ((d->nr + 1) * 2 > d->nr_slots) {
		size_t n = d->nr_slots ? d->nr_slots * 2 : 1024;
		uint32_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -1;
		for (size_t k = 0; k < d->nr; k++) {
			for (i = word_hash(d->word[k], strlen(d->word[k])) & (n - 1); slots[i];
			     i = (i + 1) & (n - 1))
				;
			slots[i] = (uint32_t)k + 1;
		}
		free(d->slots);
		d->slots = slots;
		d->nr_slots = n;
	}
	for (i = word_hash(w, len) & (d->nr_slots - 1); d->slots[i]; i = (i + 1) & (d->nr_slots - 1)) {
		const char *have = d->word[d->slots[i] - 1];

		if (!strncmp(have, w, len) && !have[len])
			return d->slots[i] - 1;
	}
	if (d->nr == d->alloc) {
		size_t n = d->alloc ? d->alloc * 2 : 256;
		char **p = reallocarray(d->word, n, sizeof(*p));

		if (!p)
			return -1;
		d->word = p;
		d->alloc = n;
	}
	d->word[d->nr] = strndup(w, len);
	if (!d->word[d->nr])
		return -1;
	d->slots[i] = (uint32_t)++d->nr;
	return (int64_t)d->nr - 1;
}

static void words__free(struct words *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->word[i]);
	free(d->word);
	free(d->slots);
}

/*
 * Level 0's fields: "words", every word once, and "fields", per CPU a string of its marks'
 * fields, separated by commas, each as its words' numbers + 1 in base 36 separated by dots
 * ("" for a mark without fields); the page joins the words with single spaces, as they were
 * split. 0 or -ENOMEM.
 */
static int json__fields(FILE *f, const struct report_sched *s, size_t nr_cpus)
{
	struct words d = { 0 };
	char *buf = NULL;
	size_t len = 0, n;
	FILE *mem = open_memstream(&buf, &len);
	int err = mem ? 0 : -ENOMEM;

	for (size_t c = 0; c < nr_cpus && !err; c++) {
		const struct report_sched_mark *mk = report_sched__marks(s, 0, c, &n);

		fputs(c ? ",\"" : "\"", mem);
		for (size_t i = 0; i < n && !err; i++) {
			const char *w = mk[i].fields;

			if (i)
				fputc(',', mem);
			while (w && !err) {
				size_t wl = strcspn(w, " ");
				int64_t k = words__index(&d, w, wl);

				if (k < 0)
					err = -ENOMEM;
				else
					put_b36(mem, k + 1);
				w = w[wl] ? w + wl + 1 : NULL;
				if (w)
					fputc('.', mem);
			}
		}
		fputc('"', mem);
	}
	if (mem && fclose(mem))
		err = -ENOMEM;
	if (!err) {
		fputs(",\"words\":[", f);
		for (size_t i = 0; i < d.nr; i++) {
			fputs(i ? ",\"" : "\"", f);
			html__json_puts(f, d.word[i]);
			fputc('"', f);
		}
		fprintf(f, "],\"fields\":[%s]", buf);
	}
	free(buf);
	words__free(&d);
	return err;
}

/* Level l as JSON into f. 0 or -ENOMEM. */
static int json__level(FILE *f, const struct report_sched *s, int l, uint64_t origin)
{
	size_t nr_cpus = report_sched__nr_cpus(s), n;
	int err;

	fprintf(f, "{\"q\":%" PRIu64 ",\"pieces\":[", report_sched__slot_ns(l));
	for (size_t c = 0; c < nr_cpus; c++) {
		const struct report_sched_piece *pc = report_sched__pieces(s, l, c, &n);

		fputs(c ? "," : "", f);
		json__pieces(f, pc, n, origin);
	}
	fputs("],\"marks\":[", f);
	for (size_t c = 0; c < nr_cpus; c++) {
		const struct report_sched_mark *mk = report_sched__marks(s, l, c, &n);

		fputs(c ? "," : "", f);
		json__marks(f, mk, n, origin);
	}
	fputs("]", f);
	err = l ? 0 : json__fields(f, s, nr_cpus);
	fputs("}", f);
	return err;
}

/*
 * The levels the page carries, coarse to fine: top (the full view's) always; the finest one
 * that fits beside it in TASKS_BYTES_MAX (level 0 when it does: every run); between them,
 * those under half the finest's bytes while the budget holds (a level about as big as the
 * finest draws no faster: it would only take room). The encoded levels are kept until
 * chosen. 0 or -ENOMEM.
 */
static int json__levels(FILE *f, const struct report_sched *s, int top, uint64_t origin)
{
	struct { char *buf; size_t len; } lv[REPORT_SCHED_LEVELS] = { 0 };
	size_t budget = TASKS_BYTES_MAX;
	int finest = top, err = 0, first = 1;

	for (int l = top; l >= 0 && !report_sched__level(s, l)->dropped && !err; l--) {
		FILE *mem = open_memstream(&lv[l].buf, &lv[l].len);

		if (!mem) {
			err = -ENOMEM;
			break;
		}
		err = json__level(mem, s, l, origin);
		err = fclose(mem) ? -ENOMEM : err;
		if (!err && (l == top || lv[top].len + lv[l].len <= budget))
			finest = l;
	}
	budget -= lv[top].len < budget ? lv[top].len : budget;
	if (finest != top)
		budget -= lv[finest].len;
	for (int l = top; l >= finest && !err; l--) {
		if (l != top && l != finest && (lv[l].len * 2 > lv[finest].len || lv[l].len > budget))
			continue;
		if (l != top && l != finest)
			budget -= lv[l].len;
		fputs(first ? "\n" : ",\n", f);
		fwrite(lv[l].buf, 1, lv[l].len, f);
		first = 0;
	}
	for (int l = 0; l < REPORT_SCHED_LEVELS; l++)
		free(lv[l].buf);
	fputs("]}\n</script>\n", f);
	return err;
}

/* The level whose slots are a pixel or finer at full view (a duration of d ns). */
static int tasks__view_level(const struct report_sched *s, uint64_t d)
{
	int l = 0;

	while (l + 1 < REPORT_SCHED_LEVELS && report_sched__slot_ns(l + 1) <= d / TASKS_VIEW_PX)
		l++;
	/* a dropped level has no data: the finest coarser one kept instead */
	while (l + 1 < REPORT_SCHED_LEVELS && report_sched__level(s, l)->dropped)
		l++;
	return l;
}

static const char *const switch_src_names[REPORT_SWITCH__NR] = {
	[REPORT_SWITCH_FTRACE] = "trace.dat's sched:sched_switch",
	[REPORT_SWITCH_PERF_RECORD] = "perf.data's PERF_RECORD_SWITCH",
	[REPORT_SWITCH_PERF_TP] = "perf.data's sched:sched_switch",
};

int report_html_tasks__data(FILE *f, const struct report_page *p)
{
	const struct report_sched *s = p->sched;
	const struct report_model *m = p->m;
	uint64_t origin = report_model__origin(m), d;
	size_t nr;
	const struct report_sched_task *t;
	const struct report_sched_name *nm;
	struct tasks_order o = { 0 };
	int src;

	if (!s)
		return 0;
	if (tasks_order__init(&o, s)) {
		tasks_order__exit(&o);
		return -ENOMEM;
	}
	src = report_sched__source(s);
	d = m->has_span ? m->end_ns - m->start_ns : m->nr_bins ? m->last_ns - m->first_ns : 0;
	fprintf(f, "<script type=\"application/json\" id=\"tasks-data\">\n{\"origin\":%" PRIu64
		",\"duration\":%" PRIu64 ",\"source\":\"%s\",\"cpus\":%zu,\"tasks\":[", origin, d,
		src >= 0 ? switch_src_names[src] : "", report_sched__nr_cpus(s));
	t = report_sched__tasks(s, &nr);
	for (size_t i = 0; i < nr; i++) {
		fprintf(f, "%s[%d,\"", i ? "," : "", t[i].tid);
		html__json_puts(f, t[i].comm);
		fprintf(f, "\",%" PRIu64 ",%u]", t[i].oncpu_ns, task_hue(o.rank[i]));
	}
	tasks_order__exit(&o);
	fputs("],\n\"names\":[", f);
	nm = report_sched__names(s, &nr);
	for (size_t i = 0; i < nr; i++) {
		fputs(i ? ",[\"" : "[\"", f);
		html__json_puts(f, nm[i].name);
		fprintf(f, "\",%d]", nm[i].sample);
	}
	fputs("],\n\"levels\":[", f);
	return json__levels(f, s, tasks__view_level(s, d), origin);
}

