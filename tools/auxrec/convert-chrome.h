/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A recording's merged records (auxtrace/timeline.h) as Trace Event Format JSON, written as
 * they come: chrome://tracing, Perfetto UI and speedscope open it. What it holds:
 *  - a process "CPUs" (pid CHROME_CPUS_PID) with a thread per CPU ("CPU N", tid N): on it an
 *    "X" slice per task from sched_switch (ftrace's, else perf.data's sched:sched_switch
 *    samples, else its context switches out of a CPU: PERF_RECORD_SWITCH_CPU_WIDE), named
 *    by the task's comm, args.tid its thread; each switch ends one slice (cat "sched"; the
 *    first from the CPU's first record in the window), and the task that runs after a
 *    CPU's last switch gets one to the CPU's last record (cat "sched,tail");
 *  - an instant per ftrace event (cat "ftrace") on its CPU's thread, its fields as args,
 *    and per ftrace loss (cat "loss", args.missed);
 *  - an instant per perf sample (cat "perf") on its thread (real pid and tid), named by its
 *    event, args cpu and ip; the threads named from perf.data's COMM records;
 *  - with calls, on each thread's track an "X" slice (cat "call") per call the AUX decoders
 *    found (call-slices.h), named by the function called, args dso, addr, depth and end
 *    (what ended it: "return", "a return further out", "return from a call before the
 *    trace", "open at the end: ended at the thread's last branch").
 * Memory: a task per CPU and the open calls of each thread, whatever the recording's size.
 */
#ifndef AUXREC_CONVERT_CHROME_H
#define AUXREC_CONVERT_CHROME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct call_slices_stats;
struct chrome_writer;
struct tep_handle;
struct timeline_record;

/* Above any pid the kernel hands out (pid_max <= 2^22): the CPU tracks never merge a task's. */
#define CHROME_CPUS_PID (1 << 30)

/* What a conversion wrote. */
struct chrome_stats {
	uint64_t nr_slices, nr_tail_slices, nr_ftrace, nr_perf, nr_losses;
	uint64_t nr_no_time;		/* records without a time: left out */
	uint64_t nr_untimed_branches;	/* of them, AUX branches (BTS's have no time) */
};

/*
 * Into f (borrowed) the records within [start, end] ns. ftrace: the trace.dat's formats
 * (NULL: none); perf_tracing: perf.data's tracing data (size bytes, NULL: none), for its
 * sched_switch samples. calls: call slices from the AUX samples (the walk decodes calls and
 * returns). NULL + errno (ENOMEM).
 */
struct chrome_writer *chrome_writer__new(FILE *f, uint64_t start, uint64_t end,
					 struct tep_handle *ftrace, const void *perf_tracing,
					 size_t size, bool calls);
/* One record: timeline_fn's signature (ctx: the writer). 0 or -errno. */
int chrome_writer__record(void *cw, const struct timeline_record *rec);
/* The calls still open, the tail slices and the end of the JSON; 0 or -errno (f's errors are
 * the caller's to check). */
int chrome_writer__finish(struct chrome_writer *cw);
const struct chrome_stats *chrome_writer__stats(const struct chrome_writer *cw);
/* The call slices written; NULL without calls. */
const struct call_slices_stats *chrome_writer__call_stats(const struct chrome_writer *cw);
void chrome_writer__delete(struct chrome_writer *cw);

#endif
