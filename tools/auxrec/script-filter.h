/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which records auxrec script shows, as perf script users select them: -C CPUS, --pid,
 * --tid, --comm, --time. One object for every source of a recording, so that perf samples,
 * AUX samples and ftrace events of the merged stream answer to the same selection.
 */
#ifndef AUXREC_SCRIPT_FILTER_H
#define AUXREC_SCRIPT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_cpu_map;

struct script_filter {
	struct perf_cpu_map *cpus;	/* -C; NULL: every CPU */
	int *pids, *tids;		/* --pid, --tid: sorted; NULL: any */
	size_t nr_pids, nr_tids;
	char **comms;			/* --comm; NULL: any */
	size_t nr_comms;
	uint64_t time_start, time_end;	/* --time, ns, both inclusive; 0 and UINT64_MAX: all */
};

#define SCRIPT_FILTER_INIT { .time_end = UINT64_MAX }

/*
 * The options' arguments, as perf script takes them: a CPU list ("0-2,4"); a list of
 * numbers ("1,42"); a list of names; "start,stop" in seconds with up to 9 decimals, either
 * side empty (open). 0, or -EINVAL (the caller says what is wrong with the argument), -ENOMEM.
 */
int script_filter__parse_cpus(struct script_filter *f, const char *str);
int script_filter__parse_pids(struct script_filter *f, const char *str);
int script_filter__parse_tids(struct script_filter *f, const char *str);
int script_filter__parse_comms(struct script_filter *f, const char *str);
int script_filter__parse_time(struct script_filter *f, const char *str);

/* Whether the filter asks for a comm: a caller looks it up for match only then. */
static inline bool script_filter__needs_comm(const struct script_filter *f)
{
	return f->comms != NULL;
}

/*
 * script_filter__match() says whether a record of cpu, pid, tid and comm (NULL when the filter
 * needs none) at time ns passes. A record without a CPU (-1) or time passes those tests as perf
 * lets them.
 */
bool script_filter__match(const struct script_filter *f, int cpu, pid_t pid, pid_t tid,
			  const char *comm, uint64_t time);
/* script_filter__match_span() tests -C and --time only: for what belongs to no task. */
bool script_filter__match_span(const struct script_filter *f, int cpu, uint64_t time);
/* script_filter__match_cpu() tests -C alone. */
bool script_filter__match_cpu(const struct script_filter *f, int cpu);

void script_filter__exit(struct script_filter *f);

#endif
