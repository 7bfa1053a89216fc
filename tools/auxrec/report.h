/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * auxrec report: the files of a recording read into a report model (report-read.c), printed
 * as text (report-text.c) or as the HTML page (report-html.c), or dumped record by record
 * (report-dump.c). Every number printed comes from the model, so the text and the page agree
 * by construction.
 */
#ifndef AUXREC_REPORT_H
#define AUXREC_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report-agg.h"
#include "report-model.h"
#include "report-sched.h"

/*
 * The files of a recording: a directory's perf.data and trace.dat, or one file of either
 * (auxtrace_recording__open tells which is there, and which a file is).
 */
struct report_input {
	char *where;		/* what the user named: the directory or the file */
	bool named;		/* else the default directory */
	char *perf_path;	/* -D's perf.data */
	bool tasks;		/* keep which task ran where when (the page's lanes: memory) */
};

/* NULL arg: "auxrec.data". Checks what is there (a FIFO is refused). 0, or -errno printed. */
int report_input__init(struct report_input *in, const char *arg);
void report_input__exit(struct report_input *in);

/* One AUX queue (mmap idx) of perf.data: its PERF_RECORD_AUXTRACE buffers. */
struct report_aux_queue {
	uint32_t idx;
	int cpu;		/* -1: a per-thread ring */
	int tid;
	uint64_t bytes, buffers;
};

/* What the report shows besides the model: per-queue AUX totals, the files. */
struct report_data {
	struct report_model *m;
	struct report_agg *agg;			/* what ran: tasks, events, symbols */
	struct report_sched *sched;		/* which task ran where when (in->tasks), or NULL */
	struct report_aux_queue *queues;	/* by idx */
	size_t nr_queues;
	char *trace_clock;			/* trace.dat's clock, NULL without one */
	char *perf_clock;			/* perf.data's when it is not trace.dat's */
	int read_error;				/* -errno: a file is damaged, the rest unread */
	uint64_t perf_size, trace_size;		/* bytes of the files, 0 when absent */
	uint64_t perf_unknown;			/* records skipped by the reader */
	uint64_t aux_errors;			/* PERF_RECORD_AUXTRACE_ERROR records */
};

/*
 * Read every file of in into d (the model made here), in one walk. 0, or -errno with the
 * error printed (which file, what, where) and d empty. A file damaged midway is not a
 * failure: d holds what was read before, d->read_error says why the rest was not.
 */
int report_data__read(struct report_data *d, const struct report_input *in);
void report_data__exit(struct report_data *d);

/* The text report. */
void report_text__print(FILE *f, const struct report_data *d);

/* auxrec report -D: every record of perf.data, perf report -D style. 0 or -errno. */
int report_dump__print(FILE *f, const char *perf_path);

#endif
