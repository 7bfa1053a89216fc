// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script: a recording as one stream in time order (the timeline of its perf.data and
 * trace.dat): perf samples one line each in perf script's default style, with the branches
 * and instructions the AUX decoders synthesize (--itrace) among them, and the ftrace events
 * as trace-cmd report prints them. Here: the command line, the walk, the selection;
 * script-print.c prints each perf record, script-ftrace.c each ftrace one.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/decode.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/itrace.h>
#include <auxtrace/machine.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <event-parse.h>
#include <auxtrace-recording.h>
#include <trace-dat-reader.h>
#include "cmd.h"
#include "error.h"
#include "recording-file.h"
#include "script-fields.h"
#include "script-filter.h"
#include "script-ftrace.h"
#include "script-line.h"
#include "script-par.h"
#include "script-print.h"

enum { OPT_ITRACE = 256, OPT_NO_ITRACE, OPT_PID, OPT_TID, OPT_COMM, OPT_TIME, OPT_NS,
       OPT_CALL_TRACE, OPT_CALL_RET_TRACE, OPT_SOURCE, OPT_ANY_CLOCK };


static const char script_usage[] =
	"usage: auxrec script [--itrace[=OPTS] | --no-itrace | --call-trace | --call-ret-trace]\n"
	"                     [-F FIELDS] [--ns] [-C CPUS] [--pid PIDS] [--tid TIDS]\n"
	"                     [--comm COMMS] [--time START,STOP] [--source perf,ftrace]\n"
	"                     [--any-clock] [-j N] [-i] [DIR|FILE|-]\n"
	"\n"
	"Print a recording as one stream in time order: the samples of its perf.data as perf\n"
	"script does (comm, tid, [cpu], time, period, event, ip sym+off (dso); a tracepoint's\n"
	"fields as libtraceevent formats them; a callchain's frames below its sample; branches\n"
	"synthesized from Intel PT or BTS data as `from sym+off (dso) => to sym+off (dso)`),\n"
	"and among them the ftrace events of its trace.dat as trace-cmd report does, each line\n"
	"marked `ftrace: ` (grep '^ftrace: ' | cut -c9- gives trace-cmd's lines back). A\n"
	"trace.dat alone prints as trace-cmd report, unmarked.\n"
	"\n"
	"  -i, --input PATH  a directory auxrec record wrote (its perf.data and trace.dat), a\n"
	"                    perf.data, a trace.dat, or - for perf's pipe format on stdin;\n"
	"                    default auxrec.data, else perf.data\n"
	"      --source S    read only these of a directory's files: perf, ftrace or both\n"
	"      --any-clock   interleave files recorded on different clocks by their raw times\n"
	"                    (refused without it: the order between them would mean nothing)\n"
	"  -j, --threads N   N >= 2: decode Intel PT on N threads, and format the lines of\n"
	"                    what the AUX decoders synthesize on N threads, writing on this\n"
	"                    one (with callindent: decoding on another); the output is the\n"
	"                    same; default 1\n"
	"      --itrace=OPTS what to synthesize from AUX data, perf's letters: b branches,\n"
	"                    i<N><unit> an instruction sample every N instructions (i), TSC\n"
	"                    ticks (t) or ns, us, ms of the trace's time (Intel PT; BTS has\n"
	"                    branches only), c calls and r returns only, e errors (e-o-l:\n"
	"                    without overflows or losses), s<N> skip the first N; without\n"
	"                    it, perf script's default (ce)\n"
	"      --no-itrace   do not decode AUX data\n"
	"      --call-trace  calls, each function indented by call depth (--itrace=cewp)\n"
	"      --call-ret-trace  calls and returns, with the branch's kind (--itrace=crewp)\n"
	"  -F, --fields F    perf script's fields of the perf lines (ftrace lines stay\n"
	"                    trace-cmd's): a list, TYPE:list (hw, sw, trace), or\n"
	"                    +field/-field; " SCRIPT_FIELD_NAMES "\n"
	"      --ns          perf lines' times to the nanosecond\n"
	"Selection, of perf and ftrace records alike (an ftrace event's thread is its\n"
	"common_pid, its process the one perf.data's side-band gave that thread, else the\n"
	"thread; its comm trace-cmd's; a loss mark answers to -C and --time only):\n"
	"  -C, --cpu CPUS    only these CPUs (0-2,4)\n"
	"      --pid PIDS    only these processes (1,42)\n"
	"      --tid TIDS    only these threads\n"
	"      --comm COMMS  only threads of these names (sh,ls)\n"
	"      --time START,STOP  only this span, in seconds as printed (either may be empty)\n"
	"\n"
	"Symbols come from the files the recording mapped (.symtab, else .dynsym, or their\n"
	"separate debug files by build ID) and from /proc/kallsyms; [unknown] otherwise.\n";

struct script {
	struct perf_machine *machine;
	struct perf_session *session;	/* NULL: no perf.data */
	struct script_filter *filter;
	struct script_print print;
	struct trace_dat_reader *tracing;	/* perf.data's tracepoint formats, when there are */
	struct script_ftrace *ftrace;	/* the trace.dat's lines; NULL: no trace.dat */
	struct tep_handle *ftrace_tep;	/* its comms, for --comm */
	struct script_line *line;	/* an ftrace line being built */
	struct script_par *par;		/* -j: synthesized samples' lines formatted at once */
	bool follow_calls;		/* callindent: every branch goes to the call depths */
	bool bts;			/* the AUX data is Intel BTS's */
	uint32_t branch_filter;		/* branches shown (c, r with callindent); 0: all */
	uint64_t nr_errors;
};

/* perf script's selection: comm only looked up when --comm asks for it. */
static bool script__selected(struct script *scr, int cpu, pid_t pid, pid_t tid, uint64_t time)
{
	const char *comm = script_filter__needs_comm(scr->filter) ?
			   script_print__comm(&scr->print, tid) : NULL;

	return script_filter__match(scr->filter, cpu, pid, tid, comm, time);
}

/* -F names a field evsel does not sample: perf script refuses, and so do we. */
static int script__fields_given(struct script *scr, struct evsel *evsel)
{
	const char *missing = script_fields__missing(&scr->print.fields, evsel__attr(evsel));

	if (!missing)
		return 0;
	auxrec_error("samples of '%s' do not have the '%s' field: leave it out of -F",
		     evsel__name(evsel) ?: "?", missing);
	return -EINVAL;
}

static int script__sample(struct script *scr, struct perf_sample *sample, struct evsel *evsel)
{
	if (!script__selected(scr, (int)sample->cpu, (pid_t)sample->pid, (pid_t)sample->tid,
			      sample->time))
		return 0;
	return script__fields_given(scr, evsel) ?:
	       script_print__sample(&scr->print, evsel, sample);
}

static int script__auxtrace_sample(struct script *scr, const struct auxtrace_sample *sample,
				   struct evsel *evsel)
{
	if (scr->follow_calls) {
		int err = script_print__follow(&scr->print, sample);

		if (err)
			return err;
		if (scr->branch_filter && sample->kind == AUXTRACE_SAMPLE_BRANCH &&
		    !(sample->flags & scr->branch_filter))
			return 0;
	}
	if (!script__selected(scr, sample->cpu, sample->pid, sample->tid, sample->time))
		return 0;
	if (script__fields_given(scr, evsel))
		return -EINVAL;
	if (scr->par)
		return script_par__add(scr->par, sample, evsel);
	return script_print__auxtrace_sample(&scr->print, evsel, sample);
}

/*
 * A user record: AUXTRACE_INFO says which AUX data this is (perf keeps BTS call depths per
 * buffer), each AUXTRACE where a buffer starts, for those call depths (callindent).
 */
static int script__user(struct script *scr, const union perf_event *event)
{
	if (event->header.type == PERF_RECORD_AUXTRACE_INFO)
		scr->bts = event->auxtrace_info.type == PERF_AUXTRACE_INTEL_BTS;
	if (event->header.type != PERF_RECORD_AUXTRACE || !scr->follow_calls || !scr->bts)
		return 0;
	return script_print__bts_buffer(&scr->print, (int)event->auxtrace.cpu,
					(pid_t)event->auxtrace.tid, event->auxtrace.offset);
}

/*
 * The selection of an ftrace event: ftrace knows the thread only (common_pid); its process
 * is the one perf.data's side-band gave that thread, else the thread itself. The comm is
 * trace-cmd's (saved cmdlines, what the sched_switch plugin learned). A loss mark belongs to
 * a CPU, not a task: -C and --time only.
 */
static bool script__ftrace_selected(struct script *scr, const struct timeline_record *rec,
				    const struct trace_dat_record *t)
{
	const char *comm = NULL;
	pid_t pid = -1;

	if (t->kind == TRACE_DAT_LOST)
		return script_filter__match_span(scr->filter, rec->cpu, rec->time);
	if (scr->filter->pids && scr->session)
		pid = perf_machine__pid(scr->machine, rec->tid);
	if (script_filter__needs_comm(scr->filter))
		comm = tep_data_comm_from_pid(scr->ftrace_tep, rec->tid);
	return script_filter__match(scr->filter, rec->cpu, pid >= 0 ? pid : rec->tid, rec->tid,
				    comm, rec->time);
}

static int script__ftrace_record(struct script *scr, const struct timeline_record *rec)
{
	const struct trace_dat_record *t = rec->stream.data;

	if (!script__ftrace_selected(scr, rec, t)) {
		/*
		 * A name the sched plugins learn from an event left out still shows on the lines
		 * selected, as trace-cmd report reads every event of its CPUs; of the CPUs -C
		 * leaves out (trace-cmd report --cpu) it reads none, so it learns nothing there.
		 */
		if (script_filter__match_cpu(scr->filter, rec->cpu))
			script_ftrace__skip(scr->ftrace, t);
		return 0;
	}
	script_ftrace__line(scr->ftrace, t, scr->line);
	return script_line__write(scr->line, stdout);
}

/*
 * A side-band record that can change what a line shows: a process's mappings, its name, its
 * parent, a kernel symbol (what perf_machine__process_event follows). The rest (AUX,
 * ITRACE_START, SWITCH, LOST, ...: some with every AUX buffer) leave the texts kept valid.
 */
static bool script__changes_processes(const union perf_event *event)
{
	switch (event->header.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_KSYMBOL:
		return true;
	default:
		return false;
	}
}

/* One record of the recording, in time order: to its printer. */
static int script__record(void *ctx, const struct timeline_record *rec)
{
	struct script *scr = ctx;
	int err;

	/*
	 * The synthesized samples' lines gathered go out before any other line, and are
	 * formatted before the side-band changes what they show; a user record, and the
	 * side-band that comes with each AUX buffer, do neither.
	 */
	if (scr->par && rec->kind != TIMELINE_AUX_SAMPLE && rec->kind != TIMELINE_PERF_USER &&
	    (rec->kind != TIMELINE_PERF_EVENT || script__changes_processes(rec->perf.event))) {
		err = script_par__flush(scr->par);
		if (err)
			return err;
	}
	switch (rec->kind) {
	case TIMELINE_PERF_SAMPLE:
		return script__sample(scr, rec->perf.sample, rec->perf.evsel);
	case TIMELINE_PERF_EVENT:	/* side-band: processes, their names and mappings */
		if (script__changes_processes(rec->perf.event)) {
			script_print__forget(&scr->print);
			if (scr->par)
				script_par__forget(scr->par);
		}
		return perf_machine__process_event(scr->machine, rec->perf.event, rec->perf.sample);
	case TIMELINE_PERF_USER:
		return script__user(scr, rec->perf.event);
	case TIMELINE_AUX_SAMPLE:
		return script__auxtrace_sample(scr, rec->aux.sample, rec->aux.evsel);
	case TIMELINE_AUX_ERROR:
		scr->nr_errors++;
		return script_print__auxtrace_error(&scr->print, rec->aux_error.err);
	case TIMELINE_STREAM:
		return script__ftrace_record(scr, rec);
	default:
		return 0;
	}
}

/* The input: given, else auxrec.data when it is there, else perf.data (as perf). */
static const char *script__input(const char *input)
{
	struct stat st;

	if (input)
		return input;
	return stat("auxrec.data", &st) ? "perf.data" : "auxrec.data";
}

static void script__warn(const struct script *scr)
{
	const struct perf_session_stats *st = perf_session__stats(scr->session);

	if (st->total_lost)
		auxrec_error("warning: %" PRIu64 " events were lost while recording "
			     "(PERF_RECORD_LOST): the data rings were too small or read too late",
			     st->total_lost);
	if (st->total_aux_lost)
		auxrec_error("warning: AUX data was lost %" PRIu64 " times (PERF_RECORD_AUX "
			     "truncated): a larger AUX area (-m ,SIZE) keeps up better",
			     st->total_aux_lost);
	if (scr->nr_errors)
		auxrec_error("warning: %" PRIu64 " instruction trace errors", scr->nr_errors);
}

/* What the command line asked for. */
struct script_args {
	const char *path;
	const struct itrace_synth_opts *itrace;
	bool decode;
	bool no_perf, no_ftrace;	/* --source */
	bool any_clock;
	unsigned int nr_threads;	/* -j */
	struct script_filter filter;
	struct script_fields fields;
	bool ns;
	int dso_pad;
	bool follow_calls;
	uint32_t branch_filter;
};

/*
 * The formats of the tracepoint events, from the recording's tracing data (perf's
 * HEADER_TRACING_DATA, or its pipe record): none means their fields are not shown.
 */
static void script__tracing_data(struct script *scr, const char *path)
{
	size_t size;
	const void *data = perf_session__feature(scr->session, HEADER_TRACING_DATA, &size);

	if (!data)
		return;
	scr->tracing = trace_dat_reader__open_tracing_data(data, size, path);
	if (!scr->tracing) {
		auxrec_error("%s: its tracing data cannot be read (see above): tracepoint fields "
			     "are not shown", path);
		return;
	}
	script_print__set_tep(&scr->print, trace_dat_reader__tep(scr->tracing),
			      !perf_session__is_pipe(scr->session));
}

/* The recording could not be opened: why, and what to do about it. */
static void script__open_failed(const char *path, int err)
{
	if (err == -EXDEV) {
		auxrec_error("%s: its perf.data and trace.dat were recorded on different clocks "
			     "(see above): their times cannot be interleaved. Read one alone with "
			     "--source perf or --source ftrace (or give %s/perf.data or "
			     "%s/trace.dat), or interleave them by their raw times anyway with "
			     "--any-clock", path, path, path);
		return;
	}
	auxrec_error("cannot read %s: %s%s", path, strerror(-err),
		     err == -ENOENT ? " (record one with auxrec record, or give -i)" : "");
}

/*
 * The perf.data side: the machine that follows its processes, the printer and its tracepoint
 * formats.
 */
static int script__open_perf(struct script *scr, const char *path)
{
	scr->machine = perf_machine__new(NULL);
	if (!scr->machine)
		return -errno;
	scr->print.machine = scr->machine;
	if (!scr->session)
		return 0;
	scr->print.evlist = perf_session__evlist(scr->session);
	script_print__init(&scr->print);
	script__tracing_data(scr, path);
	return 0;
}

/*
 * The trace.dat side: its lines, marked when perf lines are among them; alone, trace-cmd
 * report's "cpus=N" first.
 */
static int script__open_ftrace(struct script *scr, struct trace_dat_reader *r)
{
	if (!r)
		return 0;
	scr->line = malloc(sizeof(*scr->line));
	scr->ftrace = scr->line ? script_ftrace__new(r, scr->session ? SCRIPT_FTRACE_MARK : 0)
				: NULL;
	if (!scr->ftrace)
		return -errno;
	scr->line->len = 0;
	scr->ftrace_tep = trace_dat_reader__tep(r);
	if (!scr->session)
		printf("cpus=%d\n", trace_dat_reader__nr_cpus(r));
	return 0;
}

/*
 * -j N: the synthesized samples' lines are formatted by N - 1 workers and this thread, which
 * decodes (the timeline on one thread: a hand-over per sample less; Intel PT's decoder has
 * N - 1 workers of its own, session_opts.decode_threads) and writes them. Not
 * with callindent, whose lines depend on each other (the call depth, perf's column that
 * moves with the lines): there the timeline decodes on a thread of its own instead.
 */
static int script__start_par(struct script *scr, unsigned int nr_threads)
{
	if (nr_threads < 2 || !scr->session || scr->follow_calls)
		return 0;
	scr->par = script_par__new(&scr->print, nr_threads - 1);
	return scr->par ? 0 : -errno;
}

static int script__run(struct script_args *args)
{
	AUXTRACE_OPTS(perf_session_opts, session_opts,
		      .decoders = args->decode ? auxtrace_decoders__builtin() : NULL,
		      .cpus = args->filter.cpus,
		      .itrace_synth_opts = args->itrace, .decode_threads = args->nr_threads);
	AUXTRACE_OPTS(timeline_opts, tl_opts, .any_clock = args->any_clock, .user_records = true,
		      .nr_threads = args->follow_calls ? args->nr_threads : 1);
	AUXTRACE_OPTS(auxtrace_recording_opts, opts, .session = &session_opts,
		      .timeline = &tl_opts, .no_perf = args->no_perf, .no_ftrace = args->no_ftrace);
	struct script scr = {
		.filter = &args->filter,
		.follow_calls = args->follow_calls,
		.branch_filter = args->branch_filter,
		.print = { .fields = args->fields, .ns = args->ns, .dso_pad = args->dso_pad,
			   .out = stdout },
	};
	const char *path = args->path;
	static char out[1 << 20];	/* lines are short and many: fewer, larger writes */
	struct auxtrace_recording *rec;
	int err;

	setvbuf(stdout, out, _IOFBF, sizeof(out));
	recording_file__say_unfinished(path);
	rec = auxtrace_recording__open(path, &opts);
	if (!rec) {
		err = -errno;
		script__open_failed(path, err);
		return err;
	}
	scr.session = auxtrace_recording__session(rec);
	err = script__open_perf(&scr, path) ?:
	      script__open_ftrace(&scr, auxtrace_recording__trace_dat(rec));
	if (!err)
		err = script__start_par(&scr, args->nr_threads);
	if (!err)
		err = timeline__process(auxtrace_recording__timeline(rec), script__record, &scr);
	if (scr.par) {
		int perr = script_par__flush(scr.par);

		err = err ?: perr;
		script_par__delete(scr.par);
	}
	if (fflush(stdout) && !err)
		err = -errno;
	if (err)
		auxrec_error("reading %s stopped: %s", path, strerror(-err));
	if (scr.session) {
		script__warn(&scr);
		script_print__exit(&scr.print);
	}
	script_ftrace__delete(scr.ftrace);
	free(scr.line);
	trace_dat_reader__close(scr.tracing);
	perf_machine__delete(scr.machine);
	auxtrace_recording__close(rec);
	return err;
}

/* --source: which files of a recording to read, "perf", "ftrace" or both. 0, or 2. */
static int script__source(struct script_args *args, const char *arg)
{
	char *list = strdup(arg), *save = NULL;
	int ret = list ? 0 : 1;

	args->no_perf = args->no_ftrace = true;
	for (char *s = strtok_r(list, ",", &save); !ret && s; s = strtok_r(NULL, ",", &save)) {
		if (!strcmp(s, "perf")) {
			args->no_perf = false;
		} else if (!strcmp(s, "ftrace")) {
			args->no_ftrace = false;
		} else {
			auxrec_error("--source '%s': perf, ftrace or perf,ftrace expected", arg);
			ret = 2;
		}
	}
	if (!ret && args->no_perf && args->no_ftrace) {
		auxrec_error("--source '%s': name perf, ftrace or both", arg);
		ret = 2;
	}
	free(list);
	return ret;
}

/* -j N: 1 or more threads. 0, or 2 (usage). */
static int script__threads(struct script_args *args, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || !n || n > 1024) {
		auxrec_error("-j '%s': a number of threads from 1 to 1024", arg);
		return 2;
	}
	args->nr_threads = (unsigned int)n;
	return 0;
}

/* A selection option's argument; 0, or 2 (usage) after saying what is wrong with it. */
static int script__select(struct script_args *args, int opt, const char *arg)
{
	static const struct {
		int opt;
		int (*parse)(struct script_filter *f, const char *str);
		const char *name, *want;
	} selections[] = {
		{ 'C', script_filter__parse_cpus, "-C", "a CPU list such as 0-2,4" },
		{ OPT_PID, script_filter__parse_pids, "--pid", "a list of process IDs such as 1,42" },
		{ OPT_TID, script_filter__parse_tids, "--tid", "a list of thread IDs such as 1,42" },
		{ OPT_COMM, script_filter__parse_comms, "--comm", "a list of comms such as sh,ls" },
		{ OPT_TIME, script_filter__parse_time, "--time",
		  "start,stop in seconds (perf's timestamps, e.g. 4507.35,4507.36), either one empty" },
	};

	for (size_t i = 0; i < sizeof(selections) / sizeof(selections[0]); i++) {
		int err;

		if (selections[i].opt != opt)
			continue;
		err = selections[i].parse(&args->filter, arg);
		if (err == -ENOMEM) {
			auxrec_error("%s: out of memory", selections[i].name);
			return 1;
		}
		if (err) {
			auxrec_error("%s '%s': %s expected", selections[i].name, arg,
				     selections[i].want);
			return 2;
		}
	}
	return 0;
}

/*
 * perf script's --call-trace (calls, errors, power events, each call's function indented by
 * depth after its padded dso) and --call-ret-trace (returns too, and the branch's kind). 0,
 * or 2 after saying what went wrong.
 */
static int script__call_trace(struct script_args *args, struct itrace_synth_opts *itrace,
			      bool returns)
{
	const char *bad;

	if (script_fields__parse(&args->fields, returns ?
				 "-ip,-addr,-event,-period,+callindent,+flags" :
				 "-ip,-addr,-event,-period,+callindent", &bad) ||
	    itrace_do_parse_synth_opts(itrace, returns ? "crewp" : "cewp", 0))
		return 2;
	args->ns = true;
	args->dso_pad = returns ? 0 : 50;
	return 0;
}

/*
 * With callindent every call and return must reach the call depths, also those c or r alone
 * would not show: decode both, and show what the letters asked for, as perf's filter does
 * (c: calls, asynchronous branches, trace ends; r: returns, trace begins).
 */
static void script__follow_calls(struct script_args *args, struct itrace_synth_opts *itrace)
{
	for (int t = 0; t < ST_NR; t++)
		args->follow_calls |= !!(args->fields.fields[t] & SF_CALLINDENT);
	if (!args->follow_calls || !itrace->set || !(itrace->calls || itrace->returns))
		return;
	if (itrace->calls)
		args->branch_filter |= AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_ASYNC |
				       AUXTRACE_IP_FLAG_TRACE_END;
	if (itrace->returns)
		args->branch_filter |= AUXTRACE_IP_FLAG_RETURN | AUXTRACE_IP_FLAG_TRACE_BEGIN;
	itrace->calls = itrace->returns = true;
}

int cmd_script(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "itrace", optional_argument, NULL, OPT_ITRACE },
		{ "no-itrace", no_argument, NULL, OPT_NO_ITRACE },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "fields", required_argument, NULL, 'F' },
		{ "ns", no_argument, NULL, OPT_NS },
		{ "call-trace", no_argument, NULL, OPT_CALL_TRACE },
		{ "call-ret-trace", no_argument, NULL, OPT_CALL_RET_TRACE },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "any-clock", no_argument, NULL, OPT_ANY_CLOCK },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	AUXTRACE_OPTS(itrace_synth_opts, itrace, .default_no_sample = true);
	/*
	 * One thread unless asked: more pay only where CPUs are free. On the 2-CPU test VM -j2
	 * ran at 1.35-1.56x -j1's rate when it was quiet, 1.02-1.03x when it was busy, for
	 * 1-14% more CPU (README, bench-decode).
	 */
	struct script_args args = { .itrace = &itrace, .decode = true,
				    .filter = SCRIPT_FILTER_INIT, .nr_threads = 1 };
	const char *input = NULL, *bad;
	int c, ret = 0;

	script_fields__init(&args.fields);
	optind = 1;
	while (!ret && (c = getopt_long(argc, argv, "i:C:F:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case OPT_ITRACE:
			if (itrace_do_parse_synth_opts(&itrace, optarg, 0)) {
				auxrec_error("--itrace=%s: see above where it breaks; the letters are "
					     "listed by auxrec script -h", optarg ?: "");
				ret = 2;
			}
			break;
		case OPT_NO_ITRACE:
			args.decode = false;
			break;
		case 'C':
		case OPT_PID:
		case OPT_TID:
		case OPT_COMM:
		case OPT_TIME:
			ret = script__select(&args, c, optarg);
			break;
		case 'F':
			if (script_fields__parse(&args.fields, optarg, &bad)) {
				auxrec_error("-F %s: '%.*s' is not a field this script prints (%s)",
					     optarg, (int)strcspn(bad, ","), bad, SCRIPT_FIELD_NAMES);
				ret = 2;
			}
			break;
		case OPT_NS:
			args.ns = true;
			break;
		case OPT_CALL_TRACE:
		case OPT_CALL_RET_TRACE:
			ret = script__call_trace(&args, &itrace, c == OPT_CALL_RET_TRACE);
			break;
		case OPT_SOURCE:
			ret = script__source(&args, optarg);
			break;
		case OPT_ANY_CLOCK:
			args.any_clock = true;
			break;
		case 'j':
			ret = script__threads(&args, optarg);
			break;
		case 'h':
			fputs(script_usage, stdout);
			script_filter__exit(&args.filter);
			return 0;
		default:
			fputs(script_usage, stderr);
			ret = 2;
		}
	}
	if (!ret && optind < argc && !input)
		input = argv[optind++];		/* auxrec script DIR, as auxrec report DIR */
	if (!ret && optind < argc) {
		auxrec_error("script: unexpected argument '%s': one input, with -i or alone",
			     argv[optind]);
		ret = 2;
	}
	if (!ret) {
		script__follow_calls(&args, &itrace);
		args.path = script__input(input);
		ret = script__run(&args) ? 1 : 0;
	}
	script_filter__exit(&args.filter);
	return ret;
}
