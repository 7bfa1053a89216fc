/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec record: the session's state, shared by the command and its summary. */
#ifndef AUXREC_RECORD_H
#define AUXREC_RECORD_H

#include <stdbool.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include "auxrec.h"
#include "ftrace.h"

struct record {
	char **events;
	int nr_events;
	char **ftrace_events;
	int nr_ftrace_events;
	enum ftrace_mode ftrace_mode;
	bool system_wide;
	bool per_thread;
	const char *cpu_list;
	pid_t pid;
	const char *mmap_pages;
	const char *snapshot;
	double duration;
	char **argv;		/* the workload, or NULL */

	struct evlist *evlist;
	struct auxtrace_record *itr;
	struct auxtrace_opts opts;
	struct auxtrace_mmaps *aux;
	struct ftrace_session *ftrace;
	struct ring_set *set;		/* every ring above, drained when ready */
	struct workload workload;
	bool have_workload;
};

/* Per CPU (or per thread): what every ring delivered and lost, then the totals. */
void record__print_stats(struct record *rec);

#endif
