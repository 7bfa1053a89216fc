// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script: the samples of a recording, one line each in perf script's default style,
 * with the branches and instructions the AUX decoders synthesize (--itrace) in time order
 * among them.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
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
#include "cmd.h"
#include "error.h"
#include "script-ftrace.h"
#include "script-line.h"

static const char script_usage[] =
	"usage: auxrec script [--itrace[=OPTS] | --no-itrace] [-i] [FILE|DIR|-]\n"
	"\n"
	"Print the samples of a recording as perf script does: comm, tid, [cpu], time,\n"
	"period, event, ip sym+off (dso); branches synthesized from Intel PT or BTS data as\n"
	"`from sym+off (dso) => to sym+off (dso)`, in time order with the other samples.\n"
	"\n"
	"  -i, --input PATH  a perf.data file, a directory auxrec record wrote (its\n"
	"                    perf.data), or - for perf's pipe format on stdin; default\n"
	"                    auxrec.data/perf.data, else perf.data\n"
	"      --itrace=OPTS what to synthesize from AUX data, perf's letters: b branches,\n"
	"                    i<N><unit> an instruction sample every N instructions (i), TSC\n"
	"                    ticks (t) or ns, us, ms of the trace's time (Intel PT; BTS has\n"
	"                    branches only), c calls and r returns only, e errors (e-o-l:\n"
	"                    without overflows or losses), s<N> skip the first N; without\n"
	"                    it, perf script's default (ce)\n"
	"      --no-itrace   do not decode AUX data\n"
	"\n"
	"Symbols come from the files the recording mapped (.symtab, else .dynsym, or their\n"
	"separate debug files by build ID) and from /proc/kallsyms; [unknown] otherwise.\n"
	"Tracepoint samples are shown without their fields.\n"
	"\n"
	"A trace.dat (or a directory holding a trace.dat and no perf.data) prints its\n"
	"ftrace events as trace-cmd report does: comm-pid [cpu] secs.usecs: name: fields,\n"
	"and CPU:N [n EVENTS DROPPED] where the kernel lost events.\n";

struct script {
	struct perf_tool tool;
	struct perf_machine *machine;
	struct perf_session *session;
	int name_width;			/* the longest event name, as perf aligns them */
	uint64_t nr_errors;
	struct script_line line;
};

static struct script *script_of(struct perf_tool *tool)
{
	return (struct script *)((char *)tool - offsetof(struct script, tool));
}

/* perf's width: the longest name in the evlist, the decoders' events included. */
static int script__name_width(struct script *scr)
{
	struct evlist *evlist = perf_session__evlist(scr->session);
	struct evsel *evsel;

	if (!scr->name_width) {
		evlist__for_each_entry(evlist, evsel) {
			int len = (int)strlen(evsel__name(evsel) ?: "");

			if (len > scr->name_width)
				scr->name_width = len;
		}
	}
	return scr->name_width;
}

/* comm, tid, [cpu], time: what the event samples of them. */
static void script__start(struct script *scr, uint64_t sample_type, pid_t tid, int cpu,
			  uint64_t time)
{
	struct script_line *l = &scr->line;

	script_line__str(l, perf_machine__comm(scr->machine, tid), 16);
	script_line__char(l, ' ');
	if (sample_type & PERF_SAMPLE_TID) {
		script_line__int(l, tid, 5);
		script_line__char(l, ' ');
	}
	if (sample_type & PERF_SAMPLE_CPU) {
		script_line__char(l, '[');
		script_line__u64(l, (uint64_t)cpu, 3, false, true);
		script_line__str(l, "] ", 0);
	}
	if (sample_type & PERF_SAMPLE_TIME) {
		script_line__u64(l, time / 1000000000, 5, false, false);
		script_line__char(l, '.');
		script_line__u64(l, time % 1000000000 / 1000, 6, false, true);
		script_line__str(l, ": ", 0);
	}
}

/* "%16llx sym+0xoff (dso)", as perf prints an address it resolved. */
static void script__addr(struct script *scr, pid_t pid, uint64_t addr)
{
	struct perf_addr_location al = { .sz = sizeof(al) };
	struct script_line *l = &scr->line;

	perf_machine__resolve(scr->machine, pid, addr, &al);
	script_line__u64(l, addr, 16, true, false);
	script_line__char(l, ' ');
	if (al.sym) {
		script_line__str(l, al.sym, 0);
		script_line__str(l, "+0x", 0);
		script_line__u64(l, al.sym_offset, 0, true, false);
	} else {
		script_line__str(l, "[unknown]", 0);
	}
	script_line__str(l, " (", 0);
	script_line__str(l, al.dso ?: "[unknown]", 0);
	script_line__char(l, ')');
}

/* The period (a fixed one when the event does not sample it, as perf shows it), the name. */
static void script__name(struct script *scr, struct evsel *evsel, uint64_t period)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	struct script_line *l = &scr->line;

	if (!(attr->sample_type & PERF_SAMPLE_PERIOD))
		period = attr->freq ? 0 : attr->sample_period;
	if (attr->type != PERF_TYPE_TRACEPOINT) {
		script_line__u64(l, period, 10, false, false);
		script_line__char(l, ' ');
	}
	script_line__str(l, evsel__name(evsel) ?: "[unknown]", script__name_width(scr));
	script_line__str(l, ": ", 0);
}

static int script__sample(struct perf_tool *tool, struct perf_session *session,
			  union perf_event *event, struct perf_sample *sample,
			  struct evsel *evsel)
{
	struct script *scr = script_of(tool);
	const struct perf_event_attr *attr = evsel__attr(evsel);

	(void)session;
	(void)event;
	script__start(scr, attr->sample_type, (pid_t)sample->tid, (int)sample->cpu,
		      sample->time);
	script__name(scr, evsel, sample->period);
	if (attr->type != PERF_TYPE_TRACEPOINT && attr->sample_type & PERF_SAMPLE_IP) {
		script_line__char(&scr->line, ' ');
		script__addr(scr, (pid_t)sample->pid, sample->ip);
	}
	return script_line__write(&scr->line, stdout);
}

/* A synthesized branch: "from ... => to ...". */
static int script__auxtrace_sample(struct perf_tool *tool, struct perf_session *session,
				   const struct auxtrace_sample *sample, struct evsel *evsel)
{
	struct script *scr = script_of(tool);
	const struct perf_event_attr *attr = evsel__attr(evsel);

	(void)session;
	script__start(scr, attr->sample_type, sample->tid, sample->cpu, sample->time);
	script__name(scr, evsel, sample->period);
	script_line__char(&scr->line, ' ');
	script__addr(scr, sample->pid, sample->ip);
	if (sample->kind == AUXTRACE_SAMPLE_BRANCH) {
		script_line__str(&scr->line, " => ", 0);
		script__addr(scr, sample->pid, sample->addr);
	}
	return script_line__write(&scr->line, stdout);
}

/* perf's line for PERF_RECORD_AUXTRACE_ERROR, and where in the AUX data it happened. */
static int script__auxtrace_error(struct perf_tool *tool, struct perf_session *session,
				  const struct auxtrace_decode_error *err, struct evsel *evsel)
{
	struct script *scr = script_of(tool);

	(void)session;
	(void)evsel;
	scr->nr_errors++;
	printf(" instruction trace error type 1");
	if (err->time)
		printf(" time %" PRIu64 ".%09" PRIu64, err->time / 1000000000,
		       err->time % 1000000000);
	else
		printf(" time 0");
	printf(" cpu %d pid %d tid %d ip %#" PRIx64 " code %d: %s", err->cpu, err->pid, err->tid,
	       err->ip, err->perf_code, err->msg);
	if (err->kind != AUXTRACE_DECODE_ERR_LOST)
		printf(" (AUX offset %#" PRIx64 ")", err->aux_offset);
	putchar('\n');
	return 0;
}

/* Side-band: the machine follows processes, their names and mappings. */
static int script__event(struct perf_tool *tool, struct perf_session *session,
			 union perf_event *event, struct perf_sample *sample, struct evsel *evsel)
{
	struct script *scr = script_of(tool);

	(void)session;
	(void)evsel;
	return perf_machine__process_event(scr->machine, event, sample);
}

/* -i: a file, a directory auxrec record wrote, or - for a pipe; default as perf. */
static const char *script__input(const char *input, char *buf, size_t size)
{
	struct stat st;

	if (!input)
		input = stat("auxrec.data", &st) ? "perf.data" : "auxrec.data";
	if (strcmp(input, "-") && !stat(input, &st) && S_ISDIR(st.st_mode)) {
		snprintf(buf, size, "%s/perf.data", input);
		return buf;
	}
	return input;
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

static int script__run(const char *path, const struct itrace_synth_opts *itrace,
		       bool decode)
{
	AUXTRACE_OPTS(perf_session_opts, opts,
		      .decoders = decode ? auxtrace_decoders__builtin() : NULL,
		      .itrace_synth_opts = itrace);
	struct script scr = {
		.tool = { .sz = sizeof(scr.tool), .ordered_events = true,
			  .sample = script__sample, .event = script__event,
			  .auxtrace_sample = script__auxtrace_sample,
			  .auxtrace_error = script__auxtrace_error },
	};
	static char out[1 << 16];
	int err;

	setvbuf(stdout, out, _IOFBF, sizeof(out));
	scr.machine = perf_machine__new(NULL);
	if (!scr.machine)
		return -errno;
	scr.session = perf_session__new(path, &opts);
	if (!scr.session) {
		err = -errno;
		auxrec_error("cannot read %s: %s%s", path, strerror(-err),
			     err == -ENOENT ? " (record one with auxrec record, or give -i)" : "");
		perf_machine__delete(scr.machine);
		return err;
	}
	err = perf_session__process_events(scr.session, &scr.tool);
	if (fflush(stdout) && !err)
		err = -errno;
	if (err)
		auxrec_error("reading %s stopped: %s", path, strerror(-err));
	script__warn(&scr);
	perf_session__delete(scr.session);
	perf_machine__delete(scr.machine);
	return err;
}

int cmd_script(int argc, char **argv)
{
	enum { OPT_ITRACE = 256, OPT_NO_ITRACE };
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "itrace", optional_argument, NULL, OPT_ITRACE },
		{ "no-itrace", no_argument, NULL, OPT_NO_ITRACE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	AUXTRACE_OPTS(itrace_synth_opts, itrace, .default_no_sample = true);
	const char *input = NULL, *trace_dat;
	char path[4096];
	bool decode = true;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case OPT_ITRACE:
			if (itrace_do_parse_synth_opts(&itrace, optarg, 0)) {
				auxrec_error("--itrace=%s: see above where it breaks; the letters are "
					     "listed by auxrec script -h", optarg ?: "");
				return 2;
			}
			break;
		case OPT_NO_ITRACE:
			decode = false;
			break;
		case 'h':
			fputs(script_usage, stdout);
			return 0;
		default:
			fputs(script_usage, stderr);
			return 2;
		}
	}
	if (optind < argc && !input)
		input = argv[optind++];		/* auxrec script DIR, as auxrec report DIR */
	if (optind < argc) {
		auxrec_error("script: unexpected argument '%s': one input, with -i or alone",
			     argv[optind]);
		return 2;
	}
	trace_dat = script_ftrace__input(input, path, sizeof(path));
	if (trace_dat)
		return script_ftrace__run(trace_dat) ? 1 : 0;
	return script__run(script__input(input, path, sizeof(path)), &itrace, decode) ? 1 : 0;
}
