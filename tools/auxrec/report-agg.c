// SPDX-License-Identifier: LGPL-2.1
/* What ran, aggregated record by record (report-agg.h), and its three tables. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report-agg.h"

#define COMM_LEN	16	/* TASK_COMM_LEN: what the kernel keeps of a name */
#define CPU_COLUMNS_MAX	8	/* more CPUs than this: the busiest one instead of a column each */

struct report_task {
	pid_t tid, pid;		/* pid -1: not known */
	char comm[COMM_LEN + 1];
	uint64_t samples, events;
	uint64_t oncpu_ns[REPORT_SWITCH__NR];
};

/* One CPU as one switch source sees it. */
struct report_cpu {
	uint64_t first, last;	/* of the source's records here; first > last: none */
	uint64_t since;		/* the last switch, or first */
	pid_t cur;		/* who runs since then, -1: not known */
	bool switched;
};

struct report_event {
	const void *key;
	char *name;
	enum report_event_src src;
	uint64_t count, first, last;
	uint64_t *per_cpu;
	int nr_cpus;
};

struct report_sym {
	const void *key;
	char comm[COMM_LEN + 1];
	char *dso, *sym;	/* copies; "[unknown]" when unresolved */
	bool kernel;
	uint64_t samples, period;
};

/* An open-addressing index of a table's rows: slot = row + 1, 0 empty; a power of two. */
struct agg_index {
	uint32_t *slots;
	size_t nr;
};

struct report_agg {
	struct report_task *tasks;
	size_t nr_tasks, tasks_alloc;
	struct agg_index task_index;

	struct report_cpu *cpus[REPORT_SWITCH__NR];
	int nr_cpus[REPORT_SWITCH__NR];
	uint64_t switches[REPORT_SWITCH__NR];

	struct report_event *events;
	size_t nr_events, events_alloc;
	struct agg_index event_index;
	size_t last_event;	/* the row of the latest key + 1: most records repeat it */

	struct report_sym *syms;
	size_t nr_syms, syms_alloc;
	struct agg_index sym_index;
};

static uint64_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/*
 * The slot for hash h: the row matching (by eq) or the empty slot where it goes. The index
 * is kept at most half full, so the walk ends.
 */
static uint32_t *agg_index__slot(struct agg_index *ix, uint64_t h,
				 bool (*eq)(const void *rows, uint32_t row, const void *want),
				 const void *rows, const void *want)
{
	size_t mask = ix->nr - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask)
		if (!ix->slots[i] || eq(rows, ix->slots[i] - 1, want))
			return &ix->slots[i];
}

/* Room for rows + 1 rows: a new index of twice the size, the rows rehashed into it. */
static int agg_index__reserve(struct agg_index *ix, size_t rows,
			      uint64_t (*hash_row)(const void *rows, uint32_t row),
			      const void *table)
{
	size_t n = ix->nr ? ix->nr : 64;
	uint32_t *old = ix->slots;
	size_t old_nr = ix->nr;

	if ((rows + 1) * 2 <= ix->nr)
		return 0;
	while ((rows + 1) * 2 > n)
		n *= 2;
	ix->slots = calloc(n, sizeof(*ix->slots));
	if (!ix->slots) {
		ix->slots = old;
		return -ENOMEM;
	}
	ix->nr = n;
	for (size_t i = 0; i < old_nr; i++) {
		size_t j;

		if (!old[i])
			continue;
		for (j = hash_row(table, old[i] - 1) & (n - 1); ix->slots[j]; j = (j + 1) & (n - 1))
			;
		ix->slots[j] = old[i];
	}
	free(old);
	return 0;
}

/* Room for one more row of sz bytes in *rows. */
static int agg__grow(void **rows, size_t *alloc, size_t nr, size_t sz)
{
	size_t n = *alloc ? *alloc * 2 : 64;
	void *p;

	if (nr < *alloc)
		return 0;
	p = reallocarray(*rows, n, sz);
	if (!p)
		return -ENOMEM;
	*rows = p;
	*alloc = n;
	return 0;
}

struct report_agg *report_agg__new(void)
{
	return calloc(1, sizeof(struct report_agg));
}

void report_agg__delete(struct report_agg *a)
{
	if (!a)
		return;
	free(a->tasks);
	free(a->task_index.slots);
	for (int s = 0; s < REPORT_SWITCH__NR; s++)
		free(a->cpus[s]);
	for (size_t i = 0; i < a->nr_events; i++) {
		free(a->events[i].name);
		free(a->events[i].per_cpu);
	}
	free(a->events);
	free(a->event_index.slots);
	for (size_t i = 0; i < a->nr_syms; i++) {
		free(a->syms[i].dso);
		free(a->syms[i].sym);
	}
	free(a->syms);
	free(a->sym_index.slots);
	free(a);
}

/* ---- tasks ---- */

static bool task__eq(const void *rows, uint32_t row, const void *want)
{
	return ((const struct report_task *)rows)[row].tid == *(const pid_t *)want;
}

static uint64_t task__hash(const void *rows, uint32_t row)
{
	return hash64((uint64_t)((const struct report_task *)rows)[row].tid);
}

static void task__set_comm(struct report_task *t, const char *comm)
{
	if (comm && *comm) {
		strncpy(t->comm, comm, COMM_LEN);
		t->comm[COMM_LEN] = '\0';
	}
}

/* The task tid (made on first sight), its comm and pid updated when given; NULL: ENOMEM. */
static struct report_task *report_agg__task(struct report_agg *a, pid_t tid, pid_t pid,
					    const char *comm)
{
	struct report_task *t;
	uint32_t *slot;

	if (agg_index__reserve(&a->task_index, a->nr_tasks, task__hash, a->tasks) ||
	    agg__grow((void **)&a->tasks, &a->tasks_alloc, a->nr_tasks, sizeof(*a->tasks)))
		return NULL;
	slot = agg_index__slot(&a->task_index, hash64((uint64_t)tid), task__eq, a->tasks, &tid);
	if (*slot) {
		t = &a->tasks[*slot - 1];
	} else {
		t = &a->tasks[a->nr_tasks];
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		t->pid = -1;
		*slot = (uint32_t)++a->nr_tasks;
	}
	if (pid >= 0)
		t->pid = pid;
	task__set_comm(t, comm);
	return t;
}

/* ---- time on CPU ---- */

static struct report_cpu *report_agg__cpu(struct report_agg *a, enum report_switch_src src,
					  int cpu)
{
	if (cpu < 0 || (unsigned)src >= REPORT_SWITCH__NR)
		return NULL;
	if (cpu >= a->nr_cpus[src]) {
		int n = cpu + 1;
		struct report_cpu *c = reallocarray(a->cpus[src], (size_t)n, sizeof(*c));

		if (!c)
			return NULL;
		for (int i = a->nr_cpus[src]; i < n; i++)
			c[i] = (struct report_cpu){ .first = UINT64_MAX, .cur = -1 };
		a->cpus[src] = c;
		a->nr_cpus[src] = n;
	}
	return &a->cpus[src][cpu];
}

int report_agg__seen(struct report_agg *a, enum report_switch_src src, int cpu, uint64_t t)
{
	struct report_cpu *c;

	if (cpu < 0 || t == UINT64_MAX)
		return 0;
	c = report_agg__cpu(a, src, cpu);
	if (!c)
		return -ENOMEM;
	if (c->first > c->last) {
		c->first = c->since = c->last = t;
		return 0;
	}
	if (t > c->last)
		c->last = t;
	return 0;
}

/* Credit tid with the time from the CPU's last switch (or its first record) to t. */
static int report_cpu__credit(struct report_agg *a, enum report_switch_src src,
			      struct report_cpu *c, pid_t tid, const char *comm, uint64_t t)
{
	struct report_task *task;

	if (tid < 0)
		return 0;
	task = report_agg__task(a, tid, -1, comm);
	if (!task)
		return -ENOMEM;
	if (t > c->since)
		task->oncpu_ns[src] += t - c->since;
	return 0;
}

int report_agg__switch(struct report_agg *a, enum report_switch_src src, int cpu, uint64_t t,
		       pid_t prev_tid, const char *prev_comm, pid_t next_tid,
		       const char *next_comm)
{
	struct report_cpu *c;
	int err = report_agg__seen(a, src, cpu, t);

	if (err || cpu < 0)
		return err;
	c = &a->cpus[src][cpu];
	err = report_cpu__credit(a, src, c, prev_tid, prev_comm, t);
	if (!err && next_tid >= 0 && !report_agg__task(a, next_tid, -1, next_comm))
		err = -ENOMEM;
	c->since = t;
	c->cur = next_tid;
	c->switched = true;
	a->switches[src]++;
	return err;
}

int report_agg__switch_in(struct report_agg *a, enum report_switch_src src, int cpu,
			  uint64_t t, pid_t tid)
{
	int err = report_agg__seen(a, src, cpu, t);

	if (err || cpu < 0)
		return err;
	a->cpus[src][cpu].since = t;
	a->cpus[src][cpu].cur = tid;
	return 0;
}

/* The source the report shows: the most switches, the preferred one on a tie; -1: none. */
static int report_agg__switch_source(const struct report_agg *a)
{
	int best = -1;

	for (int s = 0; s < REPORT_SWITCH__NR; s++)
		if (a->switches[s] && (best < 0 || a->switches[s] > a->switches[best]))
			best = s;
	return best;
}

/* After the last record: each CPU's last piece to the task its last switch let in. */
static int report_agg__close_cpus(struct report_agg *a, int src)
{
	for (int cpu = 0; cpu < a->nr_cpus[src]; cpu++) {
		struct report_cpu *c = &a->cpus[src][cpu];
		int err;

		if (!c->switched || c->cur < 0)
			continue;
		err = report_cpu__credit(a, src, c, c->cur, NULL, c->last);
		if (err)
			return err;
		c->since = c->last;
	}
	return 0;
}

/* ---- events ---- */

static bool event__eq(const void *rows, uint32_t row, const void *want)
{
	return ((const struct report_event *)rows)[row].key == want;
}

static uint64_t event__hash(const void *rows, uint32_t row)
{
	return hash64((uint64_t)(uintptr_t)((const struct report_event *)rows)[row].key);
}

static struct report_event *report_agg__event_row(struct report_agg *a, const void *key,
						  const char *sys, const char *name,
						  enum report_event_src src)
{
	struct report_event *e;
	uint32_t *slot;

	if (a->last_event && a->events[a->last_event - 1].key == key)
		return &a->events[a->last_event - 1];
	if (agg_index__reserve(&a->event_index, a->nr_events, event__hash, a->events) ||
	    agg__grow((void **)&a->events, &a->events_alloc, a->nr_events, sizeof(*a->events)))
		return NULL;
	slot = agg_index__slot(&a->event_index, hash64((uint64_t)(uintptr_t)key), event__eq,
			       a->events, key);
	if (!*slot) {
		e = &a->events[a->nr_events];
		memset(e, 0, sizeof(*e));
		e->key = key;
		e->src = src;
		e->first = UINT64_MAX;
		if (asprintf(&e->name, "%s%s%s", sys ? sys : "", sys ? ":" : "",
			     name ? name : "?") < 0)
			return NULL;
		*slot = (uint32_t)++a->nr_events;
	}
	a->last_event = *slot;
	return &a->events[*slot - 1];
}

int report_agg__declare_event(struct report_agg *a, const void *key, const char *sys,
			      const char *name, enum report_event_src src)
{
	return report_agg__event_row(a, key, sys, name, src) ? 0 : -ENOMEM;
}

int report_agg__event(struct report_agg *a, const void *key, const char *sys, const char *name,
		      enum report_event_src src, int cpu, uint64_t t, pid_t pid, pid_t tid,
		      const char *comm)
{
	struct report_event *e = report_agg__event_row(a, key, sys, name, src);

	if (!e)
		return -ENOMEM;
	e->count++;
	if (t != UINT64_MAX) {
		if (t < e->first)
			e->first = t;
		if (t > e->last)
			e->last = t;
	}
	if (cpu >= 0) {
		if (cpu >= e->nr_cpus) {
			uint64_t *p = reallocarray(e->per_cpu, (size_t)cpu + 1, sizeof(*p));

			if (!p)
				return -ENOMEM;
			memset(p + e->nr_cpus, 0, (size_t)(cpu + 1 - e->nr_cpus) * sizeof(*p));
			e->per_cpu = p;
			e->nr_cpus = cpu + 1;
		}
		e->per_cpu[cpu]++;
	}
	if (tid >= 0) {
		struct report_task *task = report_agg__task(a, tid, pid, comm);

		if (!task)
			return -ENOMEM;
		if (src == REPORT_EVENT_PERF)
			task->samples++;
		else
			task->events++;
	}
	return 0;
}

/* ---- symbols ---- */

static bool sym__eq(const void *rows, uint32_t row, const void *want)
{
	const struct report_sym *x = &((const struct report_sym *)rows)[row], *y = want;

	return x->key == y->key && x->kernel == y->kernel && !strcmp(x->comm, y->comm) &&
	       !strcmp(x->dso, y->dso) && !strcmp(x->sym, y->sym);
}

static uint64_t sym__hash_of(const struct report_sym *s)
{
	return hash64((uint64_t)(uintptr_t)s->key ^ hash_str(s->comm) ^ hash_str(s->dso) * 31 ^
		      hash_str(s->sym) * 17 ^ s->kernel);
}

static uint64_t sym__hash(const void *rows, uint32_t row)
{
	return sym__hash_of(&((const struct report_sym *)rows)[row]);
}

int report_agg__symbol(struct report_agg *a, const void *key, const char *comm,
		       const char *dso, const char *sym, bool kernel, uint64_t period)
{
	struct report_sym want = { .key = key, .dso = (char *)(dso ? dso : "[unknown]"),
				   .sym = (char *)(sym ? sym : "[unknown]"), .kernel = kernel };
	uint32_t *slot;

	strncpy(want.comm, comm ? comm : "", COMM_LEN);
	if (agg_index__reserve(&a->sym_index, a->nr_syms, sym__hash, a->syms) ||
	    agg__grow((void **)&a->syms, &a->syms_alloc, a->nr_syms, sizeof(*a->syms)))
		return -ENOMEM;
	slot = agg_index__slot(&a->sym_index, sym__hash_of(&want), sym__eq, a->syms, &want);
	if (!*slot) {
		/* copies: a mapping's strings may go when a later mapping hides it */
		want.dso = strdup(want.dso);
		want.sym = strdup(want.sym);
		if (!want.dso || !want.sym) {
			free(want.dso);
			free(want.sym);
			return -ENOMEM;
		}
		a->syms[a->nr_syms] = want;
		*slot = (uint32_t)++a->nr_syms;
	}
	a->syms[*slot - 1].samples++;
	a->syms[*slot - 1].period += period;
	return 0;
}

/* ---- the tables ---- */

/* The rows' order for a table, by cmp (qsort_r's, given the aggregate): rows stay put. */
static uint32_t *report_agg__order(struct report_agg *a, size_t nr,
				   int (*cmp)(const void *, const void *, void *))
{
	uint32_t *order = malloc((nr ? nr : 1) * sizeof(*order));

	if (!order)
		return NULL;
	for (size_t i = 0; i < nr; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, nr, sizeof(*order), cmp, a);
	return order;
}

static void text__secs(FILE *f, int width, int64_t ns)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%s%" PRId64 ".%09" PRId64, ns < 0 ? "-" : "",
		 (ns < 0 ? -ns : ns) / 1000000000, (ns < 0 ? -ns : ns) % 1000000000);
	fprintf(f, " %*s", width, buf);
}

static int task__by_oncpu(const void *x, const void *y, void *ctx)
{
	const struct report_agg *agg = ctx;
	const struct report_task *a = &agg->tasks[*(const uint32_t *)x];
	const struct report_task *b = &agg->tasks[*(const uint32_t *)y];
	int src = report_agg__switch_source(agg);
	uint64_t ta = src >= 0 ? a->oncpu_ns[src] : 0, tb = src >= 0 ? b->oncpu_ns[src] : 0;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->samples + a->events != b->samples + b->events)
		return a->samples + a->events > b->samples + b->events ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static const char *const switch_src_names[REPORT_SWITCH__NR] = {
	[REPORT_SWITCH_FTRACE] = "trace.dat's sched:sched_switch",
	[REPORT_SWITCH_PERF_RECORD] = "perf.data's PERF_RECORD_SWITCH",
	[REPORT_SWITCH_PERF_TP] = "perf.data's sched:sched_switch",
};

static void text__task_row(FILE *f, const char *label, pid_t pid, pid_t tid, uint64_t ns,
			   uint64_t total, uint64_t samples, uint64_t events)
{
	fprintf(f, "  %-16s", label);
	if (tid == -2)
		fprintf(f, " %15s", "");
	else if (pid >= 0)
		fprintf(f, " %7d %7d", pid, tid);
	else
		fprintf(f, " %7s %7d", "-", tid);
	text__secs(f, 14, (int64_t)ns);
	fprintf(f, " %6.2f %10" PRIu64 " %10" PRIu64 "\n", total ? 100.0 * ns / total : 0.0,
		samples, events);
}

static void text__tasks(FILE *f, struct report_agg *a)
{
	int src = report_agg__switch_source(a);
	uint64_t total = 0, rest_ns = 0, rest_samples = 0, rest_events = 0;
	uint32_t *order;
	size_t shown;

	if (!a->nr_tasks || (src >= 0 && report_agg__close_cpus(a, src)))
		return;
	order = report_agg__order(a, a->nr_tasks, task__by_oncpu);
	if (!order)
		return;
	for (size_t i = 0; src >= 0 && i < a->nr_tasks; i++)
		total += a->tasks[i].oncpu_ns[src];
	shown = a->nr_tasks < REPORT_AGG_TOP_TASKS ? a->nr_tasks : REPORT_AGG_TOP_TASKS;
	if (src >= 0)
		fprintf(f, "\ntasks: time on CPU from %s (%" PRIu64 " switches), samples, events\n",
			switch_src_names[src], a->switches[src]);
	else
		fputs("\ntasks: samples, events (no context switch recorded: time on CPU unknown)\n",
		      f);
	fprintf(f, "  %-16s %7s %7s %14s %6s %10s %10s\n", "comm", "pid", "tid", "on CPU (s)", "%",
		"samples", "events");
	for (size_t i = 0; i < a->nr_tasks; i++) {
		const struct report_task *t = &a->tasks[order[i]];
		uint64_t ns = src >= 0 ? t->oncpu_ns[src] : 0;

		if (i < shown) {
			text__task_row(f, t->comm[0] ? t->comm : ":?", t->pid, t->tid, ns, total,
				       t->samples, t->events);
			continue;
		}
		rest_ns += ns;
		rest_samples += t->samples;
		rest_events += t->events;
	}
	if (a->nr_tasks > shown) {
		char label[48];

		snprintf(label, sizeof(label), "(%zu more)", a->nr_tasks - shown);
		text__task_row(f, label, -1, -2, rest_ns, total, rest_samples, rest_events);
	}
	free(order);
}

static int event__by_count(const void *x, const void *y, void *ctx)
{
	const struct report_agg *agg = ctx;
	const struct report_event *a = &agg->events[*(const uint32_t *)x];
	const struct report_event *b = &agg->events[*(const uint32_t *)y];

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->src != b->src)
		return (int)a->src - (int)b->src;
	return strcmp(a->name, b->name);
}

/* Names of the events without a record, after a label, wrapped before 100 columns. */
static void text__quiet_events(FILE *f, const struct report_agg *a, const uint32_t *order,
			       size_t from)
{
	int col;

	if (from >= a->nr_events)
		return;
	col = fprintf(f, "  %zu recorded without a record:", a->nr_events - from);
	for (size_t i = from; i < a->nr_events; i++) {
		const struct report_event *e = &a->events[order[i]];
		const char *tag = e->src == REPORT_EVENT_FTRACE ? " (ftrace)" : "";
		int len = 1 + (int)strlen(e->name) + (int)strlen(tag);

		if (col + len > 99) {
			fputs("\n   ", f);
			col = 3;
		}
		col += fprintf(f, " %s%s", e->name, tag);
	}
	fputc('\n', f);
}

/* More CPUs than columns: how many CPUs had records, and the busiest with its count. */
static void text__event_cpus(FILE *f, const struct report_event *e, int nr_cpus)
{
	int busiest = 0, used = 0;
	char cell[40];

	if (nr_cpus <= CPU_COLUMNS_MAX) {
		for (int c = 0; c < nr_cpus; c++)
			fprintf(f, " %10" PRIu64, c < e->nr_cpus ? e->per_cpu[c] : 0);
		return;
	}
	for (int c = 0; c < e->nr_cpus; c++) {
		used += e->per_cpu[c] != 0;
		busiest = e->per_cpu[c] > e->per_cpu[busiest] ? c : busiest;
	}
	snprintf(cell, sizeof(cell), "CPU %d: %" PRIu64, busiest,
		 e->nr_cpus ? e->per_cpu[busiest] : 0);
	fprintf(f, " %5d %20s", used, cell);
}

static void text__events(FILE *f, struct report_agg *a, uint64_t origin)
{
	int nr_cpus = 0, width = 5;
	size_t counted = 0;
	uint32_t *order;
	char cell[32];

	if (!a->nr_events)
		return;
	order = report_agg__order(a, a->nr_events, event__by_count);
	if (!order)
		return;
	for (; counted < a->nr_events && a->events[order[counted]].count; counted++) {
		const struct report_event *e = &a->events[order[counted]];
		int len = (int)strlen(e->name);

		nr_cpus = e->nr_cpus > nr_cpus ? e->nr_cpus : nr_cpus;
		width = len > width ? len : width;
	}
	width = width > 48 ? 48 : width;	/* a longer name is cut: the table stays a table */
	fputs("\nevents: records per name and CPU; first, last (s from the start)\n", f);
	fprintf(f, "  %-*s %-6s %10s", width, "event", "file", "count");
	if (nr_cpus <= CPU_COLUMNS_MAX) {
		for (int c = 0; c < nr_cpus; c++) {
			snprintf(cell, sizeof(cell), "CPU %d", c);
			fprintf(f, " %10s", cell);
		}
	} else {
		fprintf(f, " %5s %20s", "CPUs", "busiest");
	}
	fprintf(f, " %14s %14s\n", "first", "last");
	for (size_t i = 0; i < counted; i++) {
		const struct report_event *e = &a->events[order[i]];

		fprintf(f, "  %-*.*s %-6s %10" PRIu64, width, width, e->name,
			e->src == REPORT_EVENT_FTRACE ? "ftrace" : "perf", e->count);
		text__event_cpus(f, e, nr_cpus);
		if (e->first <= e->last) {
			text__secs(f, 14, (int64_t)(e->first - origin));
			text__secs(f, 14, (int64_t)(e->last - origin));
		} else {
			fprintf(f, " %14s %14s", "-", "-");
		}
		fputc('\n', f);
	}
	text__quiet_events(f, a, order, counted);
	free(order);
}

static int sym__by_period(const void *x, const void *y, void *ctx)
{
	const struct report_agg *agg = ctx;
	const struct report_sym *a = &agg->syms[*(const uint32_t *)x];
	const struct report_sym *b = &agg->syms[*(const uint32_t *)y];

	if (a->key != b->key)
		return (uintptr_t)a->key < (uintptr_t)b->key ? -1 : 1;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return strcmp(a->comm, b->comm);
}

static const char *report_agg__event_name(const struct report_agg *a, const void *key)
{
	for (size_t i = 0; i < a->nr_events; i++)
		if (a->events[i].key == key)
			return a->events[i].name;
	return "?";
}

/* A file's name without its directory, as perf report shows a dso ("[kernel.kallsyms]" stays). */
static const char *dso__short_name(const char *dso)
{
	const char *slash = *dso == '[' ? NULL : strrchr(dso, '/');

	return slash ? slash + 1 : dso;
}

/* One event's rows order[from, to): the top ones, the rest on one line. */
static void text__event_symbols(FILE *f, const struct report_agg *a, const uint32_t *order,
				size_t from, size_t to)
{
	uint64_t total = 0, samples = 0, rest = 0, rest_samples = 0;

	for (size_t i = from; i < to; i++) {
		total += a->syms[order[i]].period;
		samples += a->syms[order[i]].samples;
	}
	fprintf(f, "\ntop symbols of %s: %" PRIu64 " samples, overhead by period (perf report "
		"--sort comm,dso,sym)\n", report_agg__event_name(a, a->syms[order[from]].key),
		samples);
	fprintf(f, "  %8s %10s  %-16s %-24s %s\n", "overhead", "samples", "comm", "dso", "symbol");
	for (size_t i = from; i < to; i++) {
		const struct report_sym *s = &a->syms[order[i]];

		if (i - from >= REPORT_AGG_TOP_SYMBOLS) {
			rest += s->period;
			rest_samples += s->samples;
			continue;
		}
		fprintf(f, "  %7.2f%% %10" PRIu64 "  %-16s %-24s [%c] %s\n",
			total ? 100.0 * s->period / total : 0.0, s->samples, s->comm,
			dso__short_name(s->dso), s->kernel ? 'k' : '.', s->sym);
	}
	if (to - from > REPORT_AGG_TOP_SYMBOLS)
		fprintf(f, "  %7.2f%% %10" PRIu64 "  (%zu more)\n", total ? 100.0 * rest / total : 0.0,
			rest_samples, to - from - REPORT_AGG_TOP_SYMBOLS);
}

static void text__symbols(FILE *f, struct report_agg *a)
{
	uint32_t *order = report_agg__order(a, a->nr_syms, sym__by_period);

	for (size_t from = 0, to; order && from < a->nr_syms; from = to) {
		for (to = from + 1;
		     to < a->nr_syms && a->syms[order[to]].key == a->syms[order[from]].key; to++)
			;
		text__event_symbols(f, a, order, from, to);
	}
	free(order);
}

void report_agg__print(FILE *f, struct report_agg *a, uint64_t origin_ns)
{
	text__tasks(f, a);
	text__events(f, a, origin_ns);
	text__symbols(f, a);
}
