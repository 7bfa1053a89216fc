/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * auxrec script's ftrace lines: one trace.dat record (an event or a loss mark) as the line
 * trace-cmd report 3.1.6 prints for it,
 *
 *             comm-pid   [cpu] secs.usecs: name:                field text
 *     CPU:N [n EVENTS DROPPED]
 *
 * with the field text of libtraceevent's event plugins where trace-cmd uses them
 * (sched_switch, sched_wakeup, kmalloc, hrtimer_start, ...) and comms from the file's saved
 * cmdlines and the comms the sched_switch plugin learns, as trace-cmd resolves them.
 *
 * Among perf lines (SCRIPT_FTRACE_MARK), each ftrace line starts with "ftrace: " and goes on
 * with trace-cmd's text unchanged: `grep '^ftrace: ' | cut -c9-` gives trace-cmd report's lines
 * back, `grep -v '^ftrace: '` perf script's. Alone, the lines carry no mark.
 */
#ifndef AUXREC_SCRIPT_FTRACE_H
#define AUXREC_SCRIPT_FTRACE_H

#include <stddef.h>
#include <stdio.h>

struct script_line;
struct trace_dat_reader;
struct trace_dat_record;
struct script_ftrace;

enum script_ftrace_flags {
	SCRIPT_FTRACE_MARK = 1 << 0,	/* start each line with SCRIPT_FTRACE_PREFIX */
};

#define SCRIPT_FTRACE_PREFIX "ftrace: "

/*
 * script_ftrace__new() makes the formatter of r's records and loads libtraceevent's plugins
 * into r's tep handle (unloaded by script_ftrace__delete). NULL + errno on failure.
 */
struct script_ftrace *script_ftrace__new(struct trace_dat_reader *r, unsigned int flags);
void script_ftrace__delete(struct script_ftrace *f);

/*
 * script_ftrace__skip() is for a record the selection leaves out: an event with a plugin
 * still goes through it, since the sched_switch plugin teaches the tep handle comms as it
 * prints, so that a line selected prints as in the whole output (trace-cmd report's).
 */
void script_ftrace__skip(struct script_ftrace *f, const struct trace_dat_record *rec);
/* script_ftrace__line() appends rec's line to l, without its newline. */
void script_ftrace__line(struct script_ftrace *f, const struct trace_dat_record *rec,
			 struct script_line *l);

#endif
