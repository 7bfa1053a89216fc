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
	const char *output;	/* the output directory, or "-": pipe format on stdout */
	bool to_stdout;
	bool help;		/* -h: usage printed, nothing to record */
	char **argv;		/* the workload, or NULL */

	struct evlist *evlist;
	struct auxtrace_record *itr;
	struct auxtrace_opts opts;
	struct auxtrace_mmaps *aux;
	struct ftrace_session *ftrace;
	struct ring_set *set;		/* every ring above, drained when ready */
	const char *end_reason;		/* why the recording ended, for the summary */
	struct workload workload;
	bool have_workload;
};

/* The command line into rec, checked; 0 or -errno (the cause printed). */
int record__parse_args(struct record *rec, int argc, char **argv);

/*
 * Signals (record-signals.c): installed before anything is created; every signal whose
 * default would kill us asks for a stop, a second one for an abort; SIGUSR2 takes a
 * snapshot when told to; all of them wake the ring set's poll.
 */
int record__install_signals(void);
void record__signals_wake(struct ring_set *set);
void record__signals_take_snapshots(bool on);
bool record__stop_requested(void);
bool record__abort_requested(void);
int record__stop_signal(void);
bool record__take_snapshot_request(void);

/* Per CPU (or per thread): what every ring delivered and lost, then the totals. */
void record__print_stats(struct record *rec);

#endif
