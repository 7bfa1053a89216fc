// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec convert: a recording (its perf.data and trace.dat merged by time) as another tool's
 * format, as perf data convert: Trace Event Format JSON (--to chrome) for chrome://tracing,
 * Perfetto UI and speedscope. The command line and the walk; convert-chrome.c writes.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/itrace.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <tracefs/auxtrace-recording.h>
#include <tracefs/trace-dat-reader.h>

#include "call-slices.h"
#include "cmd.h"
#include "convert-chrome.h"
#include "error.h"
#include "script-filter.h"

enum { OPT_TO = 256, OPT_TIME, OPT_NO_CALLS };

static const char convert_usage[] =
	"usage: auxrec convert --to chrome -o FILE [--time START,STOP] [--no-calls] [-i]\n"
	"                      [DIR|FILE]\n"
	"\n"
	"Write a recording (a directory auxrec record wrote: its perf.data and trace.dat\n"
	"merged by time, or either file alone) as another tool's format, as perf data\n"
	"convert does, streaming: a recording of any size converts in constant memory.\n"
	"\n"
	"  -i, --input PATH  the recording; default auxrec.data\n"
	"      --to chrome   Trace Event Format JSON, which chrome://tracing, Perfetto UI\n"
	"                    and speedscope open: a track per CPU (process \"CPUs\") with a\n"
	"                    slice per task from sched_switch (trace.dat's, else perf.data's\n"
	"                    sched:sched_switch samples, else its context switches from\n"
	"                    --switch-events) and an instant per ftrace event with\n"
	"                    its fields; an instant per perf sample on its thread's track;\n"
	"                    threads and processes named from perf.data's COMM records;\n"
	"                    on each thread's track a slice per call its Intel PT or BTS\n"
	"                    trace shows, from the call to its return, named by the\n"
	"                    function (calls entered before the trace end at their return\n"
	"                    and start at the thread's first branch; calls open at the end\n"
	"                    end at its last; args.end says which)\n"
	"  -o, --output FILE where to write (- for stdout); removed when the conversion fails\n"
	"      --time START,STOP  only this span, in seconds as auxrec script prints them\n"
	"                    (either may be empty)\n"
	"      --no-calls    do not decode AUX data (no call slices; faster)\n"
	"  -q, --quiet       no summary line on stderr\n";

struct convert_args {
	const char *input, *output;
	struct script_filter window;	/* only its --time */
	bool quiet, no_calls;
};

/* Walk the recording into cw; 0 or -errno (said). */
static int convert__walk(struct auxtrace_recording *rec, FILE *f, const struct convert_args *a,
			 struct chrome_stats *stats, struct call_slices_stats *calls)
{
	struct perf_session *session = auxtrace_recording__session(rec);
	struct trace_dat_reader *tdr = auxtrace_recording__trace_dat(rec);
	size_t size = 0;
	const void *tracing = session ? perf_session__feature(session, HEADER_TRACING_DATA, &size)
				      : NULL;
	struct chrome_writer *cw;
	int err;

	cw = chrome_writer__new(f, a->window.time_start, a->window.time_end,
				tdr ? trace_dat_reader__tep(tdr) : NULL, tracing, size, !a->no_calls);
	if (!cw)
		return -errno;
	err = timeline__process(auxtrace_recording__timeline(rec), chrome_writer__record, cw);
	if (err)
		auxrec_file_error(a->input, "reading stopped", err);
	else
		err = chrome_writer__finish(cw);
	*stats = *chrome_writer__stats(cw);
	if (chrome_writer__call_stats(cw))
		*calls = *chrome_writer__call_stats(cw);
	chrome_writer__delete(cw);
	return err;
}

/*
 * The summary: what went where. The call slices by how they ended, as the JSON's args.end
 * says, so that a reader can match them with auxrec script --call-ret-trace's lines.
 */
static void convert__summary(const struct convert_args *a, const struct chrome_stats *st,
			     const struct call_slices_stats *cs)
{
	fprintf(stderr, "auxrec convert: %s: %" PRIu64 " task slices (+%" PRIu64 " to the end), %"
		PRIu64 " ftrace events, %" PRIu64 " perf samples, %" PRIu64 " losses", a->output,
		st->nr_slices, st->nr_tail_slices, st->nr_ftrace, st->nr_perf, st->nr_losses);
	if (!a->no_calls)
		fprintf(stderr, ", %" PRIu64 " call slices (%" PRIu64 " calls, %" PRIu64
			" returns; %" PRIu64 " entered before the trace, %" PRIu64
			" open at the end, %" PRIu64 " without their return; depth %u)",
			cs->nr_ends[CALL_SLICE_RETURN] + cs->nr_ends[CALL_SLICE_UNWOUND] +
			cs->nr_ends[CALL_SLICE_PAST_START] + cs->nr_ends[CALL_SLICE_OPEN_AT_END],
			cs->nr_calls, cs->nr_returns, cs->nr_ends[CALL_SLICE_PAST_START],
			cs->nr_ends[CALL_SLICE_OPEN_AT_END], cs->nr_ends[CALL_SLICE_UNWOUND],
			cs->max_depth);
	if (st->nr_untimed_branches)
		fprintf(stderr, "; %" PRIu64 " branches without a time left out (BTS has none: "
			"no call slices from them)", st->nr_untimed_branches);
	fputc('\n', stderr);
}

static int convert__run(const struct convert_args *a)
{
	AUXTRACE_OPTS(itrace_synth_opts, itrace, .default_no_sample = true);
	AUXTRACE_OPTS(perf_session_opts, session_opts, .itrace_synth_opts = &itrace);
	AUXTRACE_OPTS(auxtrace_recording_opts, opts, .session = &session_opts);
	struct auxtrace_recording *rec;
	bool to_stdout = !strcmp(a->output, "-");
	struct chrome_stats st = { 0 };
	struct call_slices_stats calls = { 0 };
	FILE *f;
	int err;

	/* calls and returns are all a call slice needs: no other branch is synthesized */
	if (!a->no_calls && !itrace_do_parse_synth_opts(&itrace, "cr", 0))
		session_opts.decoders = auxtrace_decoders__builtin();
	rec = auxtrace_recording__open(a->input, &opts);
	if (!rec) {
		err = -errno;
		auxrec_file_error(a->input, "cannot read the recording", err);
		return err;
	}
	f = to_stdout ? stdout : fopen(a->output, "w");
	if (!f) {
		err = -errno;
		auxrec_error("%s: cannot write: %s", a->output, auxrec_strerror(err));
		auxtrace_recording__close(rec);
		return err;
	}
	err = convert__walk(rec, f, a, &st, &calls);
	if ((to_stdout ? fflush(f) : fclose(f)) && !err) {
		err = -errno;
		auxrec_error("%s: cannot write: %s", a->output, auxrec_strerror(err));
	}
	if (err && !to_stdout)
		unlink(a->output);	/* half a JSON file opens nowhere */
	if (!err && !a->quiet)
		convert__summary(a, &st, &calls);
	auxtrace_recording__close(rec);
	return err;
}

int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "to", required_argument, NULL, OPT_TO },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "no-calls", no_argument, NULL, OPT_NO_CALLS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct convert_args a = { .window = SCRIPT_FILTER_INIT };
	const char *to = NULL;
	int c, ret = 0;

	optind = 1;
	while (!ret && (c = getopt_long(argc, argv, "i:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a.input = optarg;
			break;
		case 'o':
			a.output = optarg;
			break;
		case OPT_TO:
			to = optarg;
			break;
		case OPT_TIME:
			if (script_filter__parse_time(&a.window, optarg)) {
				auxrec_error("--time '%s': start,stop in seconds (e.g. "
					     "4507.35,4507.36), either one empty", optarg);
				ret = 2;
			}
			break;
		case OPT_NO_CALLS:
			a.no_calls = true;
			break;
		case 'q':
			a.quiet = true;
			break;
		case 'h':
			fputs(convert_usage, stdout);
			return 0;
		default:
			fputs(convert_usage, stderr);
			ret = 2;
		}
	}
	if (!ret && optind < argc && !a.input)
		a.input = argv[optind++];
	if (!ret && optind < argc) {
		auxrec_error("convert: unexpected argument '%s': one input, with -i or alone",
			     argv[optind]);
		ret = 2;
	}
	if (!ret && (!to || strcmp(to, "chrome"))) {
		auxrec_error("convert: --to %s: the one format is chrome (Trace Event Format JSON)",
			     to ?: "is missing;");
		ret = 2;
	}
	if (!ret && !a.output) {
		auxrec_error("convert: -o FILE is missing (- for stdout)");
		ret = 2;
	}
	if (!a.input)
		a.input = "auxrec.data";
	if (!ret)
		ret = convert__run(&a) ? 1 : 0;
	script_filter__exit(&a.window);
	return ret;
}
