// SPDX-License-Identifier: LGPL-2.1
/* What ran where over time, at levels of detail (report-sched.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report-sched.h"

/* A merged piece remembers this many tasks' time in it: the one that ran most is drawn. */
#define PIECE_CANDIDATES	4

/* An array of pieces or marks. */
struct vec {
	void *v;
	size_t nr, alloc;
};

/* A piece being merged at a level > 0: runs join it until it is a slot long. */
struct open_piece {
	bool open;
	uint64_t start, end, busy;
	uint32_t task[PIECE_CANDIDATES];
	uint64_t ns[PIECE_CANDIDATES];
	int nr;
};

/* One CPU as one switch source sees it (as report-agg.c's report_cpu), and its pieces. */
struct sched_cpu {
	uint64_t first, last, since;
	int64_t cur;		/* task index running since `since`, -1: not known */
	bool switched;
	struct vec pieces[REPORT_SCHED_LEVELS];
	struct open_piece open[REPORT_SCHED_LEVELS];
};

struct sched_src {
	struct sched_cpu *cpus;
	size_t nr_cpus;
	uint64_t switches;
	size_t nr[REPORT_SCHED_LEVELS];		/* pieces over every CPU */
};

/* One CPU's marks, and the slot of its last mark per level (to merge into). */
struct mark_cpu {
	struct vec marks[REPORT_SCHED_LEVELS];
	uint64_t slot[REPORT_SCHED_LEVELS];
};

struct report_sched {
	struct report_sched_task *tasks;
	size_t nr_tasks, tasks_alloc;
	uint32_t *task_slots;		/* open addressing by tid: index + 1, 0 empty */
	size_t nr_task_slots;

	struct report_sched_name *names;
	size_t nr_names, names_alloc;
	size_t last_name;

	struct sched_src src[REPORT_SWITCH__NR];
	struct mark_cpu *mark_cpus;
	size_t nr_mark_cpus;
	size_t nr_marks[REPORT_SCHED_LEVELS];

	struct report_sched_level levels[REPORT_SCHED_LEVELS];
	int shown;
};

static int vec__push(struct vec *v, const void *item, size_t sz)
{
	if (v->nr == v->alloc) {
		size_t n = v->alloc ? v->alloc * 2 : 64;
		void *p = reallocarray(v->v, n, sz);

		if (!p)
			return -ENOMEM;
		v->v = p;
		v->alloc = n;
	}
	memcpy((char *)v->v + v->nr++ * sz, item, sz);
	return 0;
}

static void marks__free(struct vec *v)
{
	struct report_sched_mark *m = v->v;

	for (size_t i = 0; i < v->nr; i++)
		free(m[i].fields);
	free(v->v);
	*v = (struct vec){ 0 };
}

uint64_t report_sched__slot_ns(int level)
{
	return level ? (uint64_t)REPORT_SCHED_Q0_NS << (2 * (level - 1)) : 0;
}

static uint64_t tid_hash(pid_t tid)
{
	uint64_t v = (uint64_t)(uint32_t)tid * 0x9e3779b97f4a7c15ULL;

	return v ^ (v >> 29);
}

/* The task tid's index, made on first sight; its comm updated when given. -1: ENOMEM. */
static int64_t report_sched__task(struct report_sched *s, pid_t tid, const char *comm)
{
	size_t mask, i;
	struct report_sched_task *t;

	if ((s->nr_tasks + 1) * 2 > s->nr_task_slots) {
		size_t n = s->nr_task_slots ? s->nr_task_slots * 2 : 256;
		uint32_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -1;
		for (size_t k = 0; k < s->nr_tasks; k++) {
			for (i = tid_hash(s->tasks[k].tid) & (n - 1); slots[i]; i = (i + 1) & (n - 1))
				;
			slots[i] = (uint32_t)k + 1;
		}
		free(s->task_slots);
		s->task_slots = slots;
		s->nr_task_slots = n;
	}
	mask = s->nr_task_slots - 1;
	for (i = tid_hash(tid) & mask; s->task_slots[i]; i = (i + 1) & mask)
		if (s->tasks[s->task_slots[i] - 1].tid == tid)
			break;
	if (!s->task_slots[i]) {
		struct report_sched_task nt = { .tid = tid };
		struct vec v = { s->tasks, s->nr_tasks, s->tasks_alloc };

		if (vec__push(&v, &nt, sizeof(nt)))
			return -1;
		s->tasks = v.v;
		s->nr_tasks = v.nr;
		s->tasks_alloc = v.alloc;
		s->task_slots[i] = (uint32_t)s->nr_tasks;
	}
	t = &s->tasks[s->task_slots[i] - 1];
	if (comm && *comm) {
		strncpy(t->comm, comm, sizeof(t->comm) - 1);
		t->comm[sizeof(t->comm) - 1] = '\0';
	}
	return s->task_slots[i] - 1;
}

struct report_sched *report_sched__new(void)
{
	struct report_sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->shown = -1;
	/* the idle task is index 0, named as perf and trace-cmd name it */
	if (report_sched__task(s, 0, "swapper") < 0) {
		report_sched__delete(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void report_sched__delete(struct report_sched *s)
{
	if (!s)
		return;
	for (int src = 0; src < REPORT_SWITCH__NR; src++) {
		for (size_t c = 0; c < s->src[src].nr_cpus; c++)
			for (int l = 0; l < REPORT_SCHED_LEVELS; l++)
				free(s->src[src].cpus[c].pieces[l].v);
		free(s->src[src].cpus);
	}
	for (size_t c = 0; c < s->nr_mark_cpus; c++)
		for (int l = 0; l < REPORT_SCHED_LEVELS; l++)
			marks__free(&s->mark_cpus[c].marks[l]);
	free(s->mark_cpus);
	for (size_t i = 0; i < s->nr_names; i++)
		free(s->names[i].name);
	free(s->names);
	free(s->tasks);
	free(s->task_slots);
	free(s);
}

/* Level and every finer one outgrew the budget: their pieces and marks go. */
static void report_sched__drop(struct report_sched *s, int level)
{
	for (int l = 0; l <= level; l++) {
		if (s->levels[l].dropped)
			continue;
		s->levels[l].dropped = true;
		for (int src = 0; src < REPORT_SWITCH__NR; src++) {
			for (size_t c = 0; c < s->src[src].nr_cpus; c++) {
				free(s->src[src].cpus[c].pieces[l].v);
				s->src[src].cpus[c].pieces[l] = (struct vec){ 0 };
			}
			s->src[src].nr[l] = 0;
		}
		for (size_t c = 0; c < s->nr_mark_cpus; c++)
			marks__free(&s->mark_cpus[c].marks[l]);
		s->nr_marks[l] = 0;
	}
}

static int report_sched__grow(void **arr, size_t *nr, size_t want, size_t sz)
{
	void *p;

	if (want <= *nr)
		return 0;
	p = reallocarray(*arr, want, sz);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *nr * sz, 0, (want - *nr) * sz);
	*arr = p;
	*nr = want;
	return 0;
}

static struct sched_cpu *report_sched__cpu(struct report_sched *s, enum report_switch_src src,
					   int cpu)
{
	struct sched_src *ss = &s->src[src];
	size_t old = ss->nr_cpus;

	if (report_sched__grow((void **)&ss->cpus, &ss->nr_cpus, (size_t)cpu + 1,
			       sizeof(*ss->cpus)))
		return NULL;
	for (size_t c = old; c < ss->nr_cpus; c++) {
		ss->cpus[c].first = UINT64_MAX;
		ss->cpus[c].cur = -1;
	}
	return &ss->cpus[cpu];
}

static int report_sched__push_piece(struct report_sched *s, enum report_switch_src src,
				    struct sched_cpu *c, int level,
				    const struct report_sched_piece *p)
{
	if (s->levels[level].dropped)
		return 0;
	if (s->src[src].nr[level] >= REPORT_SCHED_LEVEL_MAX) {
		report_sched__drop(s, level);
		return 0;
	}
	s->src[src].nr[level]++;
	return vec__push(&c->pieces[level], p, sizeof(*p));
}

/* The merged piece of a level as drawn: the task that ran most of it; none when all idle. */
static int open_piece__close(struct report_sched *s, enum report_switch_src src,
			     struct sched_cpu *c, int level)
{
	struct open_piece *o = &c->open[level];
	struct report_sched_piece p = { o->start, o->end, o->busy, 0 };
	uint64_t most = 0;

	if (!o->open)
		return 0;
	o->open = false;
	for (int i = 0; i < o->nr; i++) {
		if (o->ns[i] > most) {
			most = o->ns[i];
			p.task = o->task[i];
		}
	}
	return o->busy ? report_sched__push_piece(s, src, c, level, &p) : 0;
}

/* A run joins the open piece: its task's time counted among the candidates. */
static void open_piece__add(struct open_piece *o, uint32_t task, uint64_t start, uint64_t end)
{
	int least = 0;

	if (!o->open)
		*o = (struct open_piece){ .open = true, .start = start };
	o->end = end;
	if (!task)
		return;
	o->busy += end - start;
	for (int i = 0; i < o->nr; i++) {
		if (o->task[i] == task) {
			o->ns[i] += end - start;
			return;
		}
		if (o->ns[i] < o->ns[least])
			least = i;
	}
	if (o->nr < PIECE_CANDIDATES)
		least = o->nr++;
	else if (o->ns[least] >= end - start)
		return;
	o->task[least] = task;
	o->ns[least] = end - start;
}

/* Task index task ran on c from start to end: into every level kept. */
static int report_sched__run(struct report_sched *s, enum report_switch_src src,
			     struct sched_cpu *c, uint32_t task, uint64_t start, uint64_t end)
{
	struct report_sched_piece run = { start, end, task ? end - start : 0, task };
	int err = 0;

	if (end <= start)
		return 0;
	if (task)
		err = report_sched__push_piece(s, src, c, 0, &run);
	for (int l = 1; l < REPORT_SCHED_LEVELS && !err; l++) {
		uint64_t q = report_sched__slot_ns(l);
		struct open_piece *o = &c->open[l];

		if (s->levels[l].dropped)
			continue;
		/* a run of a slot or more stands alone (an idle one is a gap) */
		if (end - start >= q) {
			err = open_piece__close(s, src, c, l);
			if (!err && task)
				err = report_sched__push_piece(s, src, c, l, &run);
			continue;
		}
		if (o->open && start != o->end)
			err = open_piece__close(s, src, c, l);
		open_piece__add(o, task, start, end);
		if (!err && o->end - o->start >= q)
			err = open_piece__close(s, src, c, l);
	}
	return err;
}

int report_sched__seen(struct report_sched *s, enum report_switch_src src, int cpu, uint64_t t)
{
	struct sched_cpu *c;

	if (cpu < 0 || t == UINT64_MAX || (unsigned)src >= REPORT_SWITCH__NR)
		return 0;
	c = report_sched__cpu(s, src, cpu);
	if (!c)
		return -ENOMEM;
	if (c->first > c->last)
		c->first = c->since = c->last = t;
	else if (t > c->last)
		c->last = t;
	return 0;
}

/* Credit the task from the CPU's last switch (or first record) to t, as report-agg.c does. */
static int report_sched__credit(struct report_sched *s, enum report_switch_src src,
				struct sched_cpu *c, int64_t task, uint64_t t)
{
	if (task < 0 || t <= c->since)
		return 0;
	s->tasks[task].oncpu_src[src] += t - c->since;
	return report_sched__run(s, src, c, (uint32_t)task, c->since, t);
}

int report_sched__switch(struct report_sched *s, enum report_switch_src src, int cpu,
			 uint64_t t, pid_t prev_tid, const char *prev_comm, pid_t next_tid,
			 const char *next_comm)
{
	int64_t prev = -1, next = -1;
	struct sched_cpu *c;
	int err = report_sched__seen(s, src, cpu, t);

	if (err || cpu < 0 || t == UINT64_MAX || (unsigned)src >= REPORT_SWITCH__NR)
		return err;
	if ((prev_tid >= 0 && (prev = report_sched__task(s, prev_tid, prev_comm)) < 0) ||
	    (next_tid >= 0 && (next = report_sched__task(s, next_tid, next_comm)) < 0))
		return -ENOMEM;
	c = &s->src[src].cpus[cpu];
	err = report_sched__credit(s, src, c, prev, t);
	c->since = t;
	c->cur = next;
	c->switched = true;
	s->src[src].switches++;
	return err;
}

int report_sched__switch_in(struct report_sched *s, enum report_switch_src src, int cpu,
			    uint64_t t, pid_t tid)
{
	int64_t task = tid >= 0 ? report_sched__task(s, tid, NULL) : -1;
	int err = report_sched__seen(s, src, cpu, t);

	if (err || cpu < 0 || t == UINT64_MAX || (unsigned)src >= REPORT_SWITCH__NR)
		return err;
	if (tid >= 0 && task < 0)
		return -ENOMEM;
	s->src[src].cpus[cpu].since = t;
	s->src[src].cpus[cpu].cur = task;
	return 0;
}

bool report_sched__wants_fields(const struct report_sched *s)
{
	return !s->levels[0].dropped;
}

static int64_t report_sched__name(struct report_sched *s, const char *name, bool sample)
{
	struct report_sched_name n = { .sample = sample };
	struct vec v;

	if (s->last_name < s->nr_names && !strcmp(s->names[s->last_name].name, name))
		return (int64_t)s->last_name;
	for (size_t i = 0; i < s->nr_names; i++)
		if (!strcmp(s->names[i].name, name))
			return (int64_t)(s->last_name = i);
	n.name = strdup(name);
	v = (struct vec){ s->names, s->nr_names, s->names_alloc };
	if (!n.name || vec__push(&v, &n, sizeof(n))) {
		free(n.name);
		return -1;
	}
	s->names = v.v;
	s->nr_names = v.nr;
	s->names_alloc = v.alloc;
	return (int64_t)(s->last_name = s->nr_names - 1);
}

static int report_sched__push_mark(struct report_sched *s, struct mark_cpu *mc, int level,
				   struct report_sched_mark *m)
{
	if (s->nr_marks[level] >= REPORT_SCHED_LEVEL_MAX) {
		report_sched__drop(s, level);
		return 0;
	}
	if (level == 0 && m->fields) {
		size_t n = strnlen(m->fields, REPORT_SCHED_FIELDS_MAX);

		m->fields = strndup(m->fields, n);
		if (!m->fields)
			return -ENOMEM;
	}
	if (vec__push(&mc->marks[level], m, sizeof(*m))) {
		if (level == 0)
			free(m->fields);
		return -ENOMEM;
	}
	s->nr_marks[level]++;
	return 0;
}

int report_sched__event(struct report_sched *s, const char *name, bool sample, int cpu,
			uint64_t t, pid_t tid, const char *comm, const char *fields)
{
	int64_t n, task = -1;
	struct mark_cpu *mc;
	size_t old = s->nr_mark_cpus;
	int err = 0;

	if (cpu < 0 || t == UINT64_MAX)
		return 0;
	n = report_sched__name(s, name, sample);
	if (n < 0 || (tid >= 0 && (task = report_sched__task(s, tid, comm)) < 0) ||
	    report_sched__grow((void **)&s->mark_cpus, &s->nr_mark_cpus, (size_t)cpu + 1,
			       sizeof(*s->mark_cpus)))
		return -ENOMEM;
	for (size_t c = old; c < s->nr_mark_cpus; c++)
		for (int l = 0; l < REPORT_SCHED_LEVELS; l++)
			s->mark_cpus[c].slot[l] = UINT64_MAX;
	mc = &s->mark_cpus[cpu];
	for (int l = 0; l < REPORT_SCHED_LEVELS && !err; l++) {
		struct report_sched_mark m = { t, (uint32_t)n, task < 0 ? UINT32_MAX : (uint32_t)task,
					       1, l ? NULL : (char *)fields };
		/* slots of REPORT_SCHED_Q0_NS x 4^(l-1): one division, then shifts */
		uint64_t slot = l ? t / REPORT_SCHED_Q0_NS >> (2 * (l - 1)) : UINT64_MAX;

		if (s->levels[l].dropped)
			continue;
		if (l && slot == mc->slot[l] && mc->marks[l].nr) {
			/* in its slot's mark here, so in the wider slots' marks of every coarser level */
			for (int k = l; k < REPORT_SCHED_LEVELS; k++)
				if (mc->marks[k].nr)
					((struct report_sched_mark *)mc->marks[k].v)[mc->marks[k].nr - 1].count++;
			break;
		}
		mc->slot[l] = slot;
		err = report_sched__push_mark(s, mc, l, &m);
	}
	return err;
}

int report_sched__finish(struct report_sched *s)
{
	int err = 0;

	for (int src = 0; src < REPORT_SWITCH__NR; src++) {
		struct sched_src *ss = &s->src[src];

		for (size_t i = 0; i < ss->nr_cpus && !err; i++) {
			struct sched_cpu *c = &ss->cpus[i];

			if (c->switched)
				err = report_sched__credit(s, src, c, c->cur, c->last);
			c->since = c->last;
			for (int l = 1; l < REPORT_SCHED_LEVELS && !err; l++)
				err = open_piece__close(s, src, c, l);
		}
		/* the text report's choice: the most switches, the preferred one on a tie */
		if (ss->switches && (s->shown < 0 || ss->switches > s->src[s->shown].switches))
			s->shown = src;
	}
	for (size_t i = 0; i < s->nr_tasks; i++)
		s->tasks[i].oncpu_ns = s->shown >= 0 ? s->tasks[i].oncpu_src[s->shown] : 0;
	return err;
}

int report_sched__source(const struct report_sched *s)
{
	return s->shown;
}

size_t report_sched__nr_cpus(const struct report_sched *s)
{
	size_t n = s->nr_mark_cpus;

	if (s->shown >= 0 && s->src[s->shown].nr_cpus > n)
		n = s->src[s->shown].nr_cpus;
	return n;
}

const struct report_sched_task *report_sched__tasks(const struct report_sched *s, size_t *nr)
{
	*nr = s->nr_tasks;
	return s->tasks;
}

const struct report_sched_name *report_sched__names(const struct report_sched *s, size_t *nr)
{
	*nr = s->nr_names;
	return s->names;
}

const struct report_sched_level *report_sched__level(const struct report_sched *s, int level)
{
	return &s->levels[level];
}

const struct report_sched_piece *report_sched__pieces(const struct report_sched *s, int level,
						      size_t cpu, size_t *nr)
{
	const struct sched_src *ss = s->shown >= 0 ? &s->src[s->shown] : NULL;

	*nr = 0;
	if (!ss || cpu >= ss->nr_cpus)
		return NULL;
	*nr = ss->cpus[cpu].pieces[level].nr;
	return ss->cpus[cpu].pieces[level].v;
}

const struct report_sched_mark *report_sched__marks(const struct report_sched *s, int level,
						    size_t cpu, size_t *nr)
{
	*nr = 0;
	if (cpu >= s->nr_mark_cpus)
		return NULL;
	*nr = s->mark_cpus[cpu].marks[level].nr;
	return s->mark_cpus[cpu].marks[level].v;
}
