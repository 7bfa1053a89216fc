/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What auxrec script prints of each sample: perf script's -F fields, its defaults per event
 * type, and what an event's sample_type can give.
 */
#ifndef AUXREC_SCRIPT_FIELDS_H
#define AUXREC_SCRIPT_FIELDS_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

enum script_field {
	SF_COMM		= 1u << 0,
	SF_TID		= 1u << 1,
	SF_PID		= 1u << 2,
	SF_CPU		= 1u << 3,
	SF_TIME		= 1u << 4,
	SF_PERIOD	= 1u << 5,
	SF_EVENT	= 1u << 6,
	SF_TRACE	= 1u << 7,
	SF_IP		= 1u << 8,
	SF_SYM		= 1u << 9,
	SF_SYMOFF	= 1u << 10,
	SF_DSO		= 1u << 11,
	SF_ADDR		= 1u << 12,
	SF_FLAGS	= 1u << 13,	/* a branch's kind: call, return, tr strt, ... */
	SF_CALLINDENT	= 1u << 14,	/* the branch's function, indented by call depth */
};

/* The names -F takes, for messages. */
#define SCRIPT_FIELD_NAMES "comm,tid,pid,cpu,time,period,event,trace,ip,sym,symoff,dso,addr," \
			   "flags,callindent"

/* perf's output types: -F hw:..., sw:..., trace:...; every other PMU's events as hw's. */
enum script_type { ST_HW, ST_SW, ST_TRACE, ST_NR };

struct script_fields {
	unsigned int fields[ST_NR];
	bool user_set[ST_NR];	/* -F given: the branch target only when addr is asked */
	unsigned int named[ST_NR];	/* fields -F named (perf refuses those it cannot give) */
};

/* perf script's defaults. */
void script_fields__init(struct script_fields *sf);
/*
 * script_fields__parse() applies one -F argument as perf script does: "f1,f2" (every type),
 * "TYPE:f1,f2" (one), or "+f"/"-f" to add to or take from the defaults. 0, or -EINVAL with the
 * field that is not known in *bad (pointing into str).
 */
int script_fields__parse(struct script_fields *sf, const char *str, const char **bad);
/* Which fields an event of attr prints: asked for and given by its sample_type. */
unsigned int script_fields__of(const struct script_fields *sf,
			       const struct perf_event_attr *attr);
/*
 * The first field -F asked for that an event of attr does not sample (perf script refuses
 * to print it), NULL when there is none.
 */
const char *script_fields__missing(const struct script_fields *sf,
				   const struct perf_event_attr *attr);
/* Whether -F set the fields of attr's type (perf then shows a branch's target only for addr). */
bool script_fields__user_set(const struct script_fields *sf, const struct perf_event_attr *attr);

#endif
