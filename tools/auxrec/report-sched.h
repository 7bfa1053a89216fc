/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What ran where over time, for the report page's task lanes: per CPU, which task ran when
 * (from context switches), and the samples and tracepoint events on it, kept at levels of
 * detail so that memory and the page stay bounded whatever the recording's length.
 *
 * Level 0 is exact: every run of a task on a CPU, every event with its fields. Level k > 0
 * merges: runs shorter than REPORT_SCHED_Q0_NS x 4^(k-1) join their neighbours into one piece
 * (drawn in the colour of the task that ran most of it, as busy as its non-idle share), and
 * events within one such slot of a CPU become one mark with a count. A level holds at most
 * about two pieces per slot of the recording, so the coarse levels are small; a level that
 * outgrows REPORT_SCHED_LEVEL_MAX pieces or marks is dropped as the records stream by (with
 * every finer one), and the page says that zooming in past the finest level kept needs a
 * shorter recording. Records come in time order per CPU, as report-agg.h requires.
 *
 * Like the text report's task table, runs are kept per switch source (a recording may hold
 * the same switches in perf.data and in trace.dat) and the one with the most switches is
 * shown; a task's time on CPU is counted by the same rule, so the page's per-task totals and
 * the text report's agree.
 */
#ifndef AUXREC_REPORT_SCHED_H
#define AUXREC_REPORT_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "report-agg.h"

/* Levels: 0 exact, then slots of 1 us, 4 us, 16 us ... 4^14 us (about 4.5 min). */
#define REPORT_SCHED_LEVELS	16
#define REPORT_SCHED_Q0_NS	1000
/*
 * Pieces (or marks) a level may hold over every CPU before it is dropped: more than a page's
 * budget for its levels takes (report-html-tasks.c), at a few bytes each.
 */
#define REPORT_SCHED_LEVEL_MAX	(96 * 1024)
/* An event's fields as kept at level 0: longer text is cut here. */
#define REPORT_SCHED_FIELDS_MAX	160

/* A task as the page names and colours it; index 0 is the idle task (tid 0). */
struct report_sched_task {
	pid_t tid;
	char comm[17];
	uint64_t oncpu_ns;	/* of the shown source, after report_sched__finish() */
	uint64_t oncpu_src[REPORT_SWITCH__NR];
};

/* A run of one task (level 0) or a merged piece: [start, end), busy ns of it not idle. */
struct report_sched_piece {
	uint64_t start, end, busy;
	uint32_t task;		/* index in tasks: the one that ran most of it */
};

/* A sample or event (level 0), or those of one slot merged (count > 1: the first one's). */
struct report_sched_mark {
	uint64_t t;
	uint32_t name;		/* index in names */
	uint32_t task;		/* index in tasks, UINT32_MAX: unknown */
	uint64_t count;
	char *fields;		/* level 0 only, NULL: none */
};

struct report_sched_level {
	bool dropped;		/* outgrew REPORT_SCHED_LEVEL_MAX: nothing here */
};

/* An event name; sample: a perf sample of a non-tracepoint event (drawn as a tick). */
struct report_sched_name {
	char *name;
	bool sample;
};

struct report_sched;

/* NULL with errno ENOMEM. */
struct report_sched *report_sched__new(void);
void report_sched__delete(struct report_sched *s);

/* As report_agg__seen(), report_agg__switch() and report_agg__switch_in(): 0 or -ENOMEM. */
int report_sched__seen(struct report_sched *s, enum report_switch_src src, int cpu, uint64_t t);
int report_sched__switch(struct report_sched *s, enum report_switch_src src, int cpu,
			 uint64_t t, pid_t prev_tid, const char *prev_comm, pid_t next_tid,
			 const char *next_comm);
int report_sched__switch_in(struct report_sched *s, enum report_switch_src src, int cpu,
			    uint64_t t, pid_t tid);
/*
 * A sample (sample: a non-tracepoint perf event) or tracepoint event called name on cpu at t
 * by tid (-1: unknown) named comm (NULL: not known here), with its fields as text (NULL:
 * none). Untimed or CPU-less records are not drawn. 0 or -ENOMEM.
 */
int report_sched__event(struct report_sched *s, const char *name, bool sample, int cpu,
			uint64_t t, pid_t tid, const char *comm, const char *fields);
/* Whether events' fields are still kept (level 0 not dropped): else no need to format them. */
bool report_sched__wants_fields(const struct report_sched *s);

/* After the last record: each CPU's last run closed, the shown source chosen. 0 or -ENOMEM. */
int report_sched__finish(struct report_sched *s);

/* The shown switch source, -1 when there was no switch (then there are no pieces). */
int report_sched__source(const struct report_sched *s);
size_t report_sched__nr_cpus(const struct report_sched *s);
const struct report_sched_task *report_sched__tasks(const struct report_sched *s, size_t *nr);
const struct report_sched_name *report_sched__names(const struct report_sched *s, size_t *nr);
const struct report_sched_level *report_sched__level(const struct report_sched *s, int level);
/* The slot width of level (0: exact). */
uint64_t report_sched__slot_ns(int level);
/* The pieces and marks of one CPU at level (NULL, *nr 0: none, or the level was dropped). */
const struct report_sched_piece *report_sched__pieces(const struct report_sched *s, int level,
						      size_t cpu, size_t *nr);
const struct report_sched_mark *report_sched__marks(const struct report_sched *s, int level,
						    size_t cpu, size_t *nr);

#endif
