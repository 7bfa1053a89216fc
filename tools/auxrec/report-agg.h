/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What ran in a recording, aggregated as its records stream by: one record in, the
 * aggregates updated, nothing of the record kept. Per task (tid): time on CPU, samples,
 * events; per event name: count, per CPU, first and last time; per (event, comm, dso, symbol):
 * the samples and their period, as perf report --sort comm,dso,sym weighs them.
 *
 * Memory grows with the tasks, event names, CPUs and symbols a recording has, never with
 * its records. Records of one source must come in time order per CPU (the perf.data session
 * ordered, the trace.dat cursor, or the merged timeline); the sources may interleave.
 *
 * Time on CPU comes from context switches, kept per source since a recording may hold the
 * same switches twice (sched:sched_switch in perf.data and in trace.dat): on each CPU, the
 * time from the source's first record there to its last, cut at its switches, each piece
 * credited to the task that ran it (the switch's prev task before it; after the last one its
 * next task, when the switch names it). The report shows the source with the most switches.
 */
#ifndef AUXREC_REPORT_AGG_H
#define AUXREC_REPORT_AGG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Where context switches came from, in the order the report prefers them on a tie. */
enum report_switch_src {
	REPORT_SWITCH_FTRACE,		/* trace.dat sched:sched_switch */
	REPORT_SWITCH_PERF_RECORD,	/* PERF_RECORD_SWITCH(_CPU_WIDE) */
	REPORT_SWITCH_PERF_TP,		/* perf.data sched:sched_switch samples */
	REPORT_SWITCH__NR,
};

/* Which file an event name's records come from. */
enum report_event_src {
	REPORT_EVENT_PERF,
	REPORT_EVENT_FTRACE,
};

struct report_agg;

/* NULL with errno ENOMEM. */
struct report_agg *report_agg__new(void);
void report_agg__delete(struct report_agg *a);

/*
 * A record of switch source src on cpu at time t (every record of the file that source
 * reads, switches or not): where the CPU's span for that source starts and ends.
 */
int report_agg__seen(struct report_agg *a, enum report_switch_src src, int cpu, uint64_t t);

/*
 * A context switch on cpu at t: prev_tid ran until t, next_tid (-1: the record does not
 * say) from t. A comm may be NULL (not named by the record). 0 or -ENOMEM.
 */
int report_agg__switch(struct report_agg *a, enum report_switch_src src, int cpu, uint64_t t,
		       pid_t prev_tid, const char *prev_comm, pid_t next_tid,
		       const char *next_comm);
/* The task switched in on cpu at t (PERF_RECORD_SWITCH in): it runs from t. */
int report_agg__switch_in(struct report_agg *a, enum report_switch_src src, int cpu,
			  uint64_t t, pid_t tid);

/*
 * A record of the event key names (a stable pointer: its evsel, its tep_event), called
 * "sys:name" (sys NULL: "name"; made only the first time a key comes), from src, on cpu
 * (-1: none) at t (UINT64_MAX: none), by task tid (-1: none) of process pid (-1: unknown)
 * named comm (NULL: not known here). perf samples count as the task's samples, ftrace events
 * as its events. 0 or -ENOMEM.
 */
int report_agg__event(struct report_agg *a, const void *key, const char *sys, const char *name,
		      enum report_event_src src, int cpu, uint64_t t, pid_t pid, pid_t tid,
		      const char *comm);
/*
 * An event recorded that may have no record (a name the file lists): shown in the table
 * with its zero count. 0 or -ENOMEM.
 */
int report_agg__declare_event(struct report_agg *a, const void *key, const char *sys,
			      const char *name, enum report_event_src src);

/*
 * A perf sample of the event key resolved to dso and sym (NULL: unresolved; copied when
 * new), weighing period, by comm. 0 or -ENOMEM.
 */
int report_agg__symbol(struct report_agg *a, const void *key, const char *comm,
		       const char *dso, const char *sym, bool kernel, uint64_t period);

/* Rows printed: tasks and symbols beyond it are folded into one line. */
#define REPORT_AGG_TOP_TASKS	20
#define REPORT_AGG_TOP_SYMBOLS	20

/*
 * The three tables as text; origin_ns: the time the event table's first/last count from.
 * Call it once, after the last record: it closes each CPU's last piece of time on CPU.
 */
void report_agg__print(FILE *f, struct report_agg *a, uint64_t origin_ns);

#endif
