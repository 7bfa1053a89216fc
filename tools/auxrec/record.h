/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec record: the session's state, shared by the command's files. */
#ifndef AUXREC_RECORD_H
#define AUXREC_RECORD_H

#include <stdbool.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/callchain.h>
#include <auxtrace/evlist.h>
#include <auxtrace/perf-data.h>
#include <trace-dat.h>
#include <trace-dat-net.h>
#include "workload.h"
#include "ftrace.h"

struct record {
	/* the command line (record-options.c) */
	char **events;
	int nr_events;
	char **ftrace_events;
	int nr_ftrace_events;
	enum ftrace_mode ftrace_mode;
	int ftrace_buffer_kb;	/* per CPU; 0: the kernel's default */
	bool system_wide;
	bool per_thread;
	const char *cpu_list;
	pid_t pid;
	const char *mmap_pages;
	const char *snapshot;
	double duration;
	int clockid;		/* -k: the events' clock, -1: perf's own */
	const char *trace_clock;	/* ... and the ftrace instance's: "perf" without -k */
	const char *output;	/* the output directory, or "-": pipe format on stdout */
	bool to_stdout;
	bool output_given;	/* -o was given (not the default directory) */
	bool output_file;	/* -o FILE.data with perf events only: perf.data is FILE.data */
	int compression_level;	/* -z: zstd level, 0: off */
	bool help;		/* -h: usage printed, nothing to record */
	char **argv;		/* the workload, or NULL */
	char *default_event;	/* the AUX PMU's event when none was given */
	struct record_filters *filters;	/* --filter (record-filter.c) */
	struct callchain_param callchain;	/* -g, --call-graph (mode NONE: none) */
	bool user_callchains, kernel_callchains;	/* only that half of each chain */
	bool sample_address;	/* -d, and --call-graph dwarf: data addresses and mappings */
	unsigned int freq;	/* -F: Hz for events that set no period or frequency; 0: 4000 */
	unsigned long long count;	/* -c: their period instead; 0: none */
	bool switch_events;	/* --switch-events: context switch records */
	bool sample_cpu;	/* --sample-cpu: the CPU in samples even with --per-thread */
	bool quiet;		/* -q: errors only, as perf record -q */
	bool ftrace_all_tasks;	/* --ftrace-all-tasks: no set_event_pid for -p or a command */
	bool no_bpf_event;	/* --no-bpf-event: no BPF side-band, as perf */
	bool data_letter;	/* -d was given (a duration before auxrec followed perf) */
	/* events whose string has call-graph= or stack-size= terms: theirs win */
	struct record_own_callchain {
		struct evsel *evsel;
		struct callchain_param param;
		bool has_callchain;
	} *own_callchains;
	int nr_own_callchains;

	/* what records (record-events.c, ftrace.c) */
	struct evlist *evlist;
	struct auxtrace_record *itr;
	struct auxtrace_opts opts;
	struct auxtrace_mmaps *aux;
	struct ftrace_session *ftrace;
	struct ring_set *set;		/* every ring above, drained when ready */
	struct workload workload;
	bool have_workload;

	/* where it goes (record-output.c) */
	char *perf_path, *trace_path;	/* NULL: stdout / no trace.dat */
	int perf_fd;
	struct perf_data_writer *perf_data;
	struct trace_dat_writer *trace_dat;	/* with -N: where the data goes if the collector leaves */
	const char *collector;	/* -N HOST:PORT: trace-cmd listen takes the ftrace data */
	struct trace_dat_net *net;

	/* how it went, for the summary */
	const char *end_reason;
	double started, ended;
};

/* The command line into rec, checked; 0 or -errno (the cause printed). */
int record__parse_args(struct record *rec, int argc, char **argv);
/* /proc/sys/kernel/<name> as a number; dflt when it cannot be read. */
long record__sysctl(const char *name, long dflt);
/* Append item to a growing list. 0 or -ENOMEM. */
int record__add(char ***list, int *nr, char *item);

/*
 * Events (record-events.c): parse them (or the default), set the maps, the AUX backend's
 * options, perf record's sampling defaults and side-band, and map the rings.
 */
int record__parse_events(struct record *rec);
int record__set_maps(struct record *rec);
int record__setup_auxtrace(struct record *rec);
void record__config_evsels(struct record *rec);
/*
 * perf's fallback for an unprivileged user where kernel.perf_event_paranoid > 1: the events
 * that would profile the kernel exclude it, said in one line.
 */
void record__exclude_kernel_if_denied(struct record *rec);
/* -g/--call-graph and the events' own call-graph= terms on the attrs; 0 or -EINVAL (said). */
int record__config_callchains(struct record *rec);
int record__mmap(struct record *rec);

/*
 * --filter (record-filter.c), perf record's rule: each belongs to the -e before it. add
 * refuses one before any -e; bind, called after parse_events of -e number event, checks
 * the filters of that -e against the events it made (address filters parsed, resolved and
 * counted); apply sets them on the opened events. 0 or -errno, the cause printed.
 */
int record__add_filter(struct record *rec, const char *filter);
int record__bind_filters(struct record *rec, int event);
int record__apply_filters(struct record *rec);
void record__free_filters(struct record *rec);

/*
 * Output (record-output.c): the directory (an existing recording kept as DIR.old) or
 * stdout; perf.data from the opened, mapped evlist with its prologue and side-band; trace.dat
 * for the ftrace instance; finished whatever happened, and said where they are.
 */
int record__prepare_output(struct record *rec);
int record__open_perf_data(struct record *rec);
int record__open_trace_dat(struct record *rec);
int record__finish_output(struct record *rec);
/*
 * The perf clock's reading at one moment and CLOCK_REALTIME's (record-clock.c), from a
 * record the recorder causes: perf.data's CLOCK_DATA when the events have no -k clock.
 * 0, or -errno with both 0.
 */
int record__clock_ref(uint64_t *clock_ns, uint64_t *wall_ns);
/*
 * -N (record-net.c): the ftrace data goes to a trace-cmd listen server; trace.dat (in the
 * output directory, or auxrec-PID.trace.dat beside it with -o -) keeps what the rings still
 * hold should the collector go away, and is written only then. open_net connects, and
 * finish_net ends the session and says what went where; 0 or -errno, the cause printed.
 * record__ftrace_sink: CPU cpu's ftrace sink, the collector's or trace.dat's.
 */
int record__check_net(struct record *rec);
int record__open_net(struct record *rec);
int record__finish_net(struct record *rec);
struct ring_sink *record__ftrace_sink(void *rec, int cpu);

/* The recording never started: remove what prepare_output created. */
void record__discard_output(struct record *rec);
void record__close_output(struct record *rec);

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
/* The live status line on a terminal: bytes written and lost per source. */
void record__print_status(struct record *rec, double now);
/* The status line gives way to what is printed next (nothing when none is shown). */
void record__clear_status(void);

#endif
