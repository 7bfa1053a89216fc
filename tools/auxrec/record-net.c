// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec record -N HOST:PORT: the ftrace data goes to a trace-cmd listen server, which
 * writes the trace.dat, as trace-cmd record -N does; perf.data stays where -o says (-o -:
 * perf's pipe format on stdout, for any transport a fleet uses). A local trace.dat writer
 * stands by: if the collector goes away, what the rings still hold and all that follows
 * goes there, and the summary says how many events went where, so nothing is lost unsaid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "error.h"
#include "ftrace.h"
#include "record.h"

int record__check_net(struct record *rec)
{
	if (rec->collector && !rec->nr_ftrace_events) {
		auxrec_error("-N %s sends ftrace events to a trace-cmd collector: give them with "
			     "--ftrace SYSTEM:EVENT", rec->collector);
		return -EINVAL;
	}
	return 0;
}

struct ring_sink *record__ftrace_sink(void *ctx, int cpu)
{
	struct record *rec = ctx;

	return rec->net ? trace_dat_net__cpu_sink(rec->net, cpu) :
			  trace_dat_writer__cpu_sink(rec->trace_dat, cpu);
}

int record__open_net(struct record *rec)
{
	struct tracefs_instance *inst = ftrace_session__instance(rec->ftrace);
	AUXTRACE_OPTS(trace_dat_writer_opts, wopts, .compression_level = rec->compression_level);
	AUXTRACE_OPTS(trace_dat_net_opts, nopts, .compression_level = rec->compression_level);

	/* -o -: no directory; the fallback goes beside us, under a name no one else uses */
	if (!rec->trace_path && asprintf(&rec->trace_path, "auxrec-%d.trace.dat",
					 (int)getpid()) < 0) {
		rec->trace_path = NULL;
		return -ENOMEM;
	}
	/* unnamed until finished: it shows up only if the collector goes away */
	rec->trace_dat = trace_dat_writer__new(rec->trace_path, inst, &wopts);
	if (!rec->trace_dat) {
		auxrec_error("cannot prepare %s, which would keep the ftrace data should the "
			     "collector go away: %s", rec->trace_path, auxrec_strerror(errno));
		return -errno;
	}
	nopts.fallback = rec->trace_dat;
	rec->net = trace_dat_net__connect(rec->collector, inst, &nopts);
	if (!rec->net) {
		auxrec_error("-N %s: cannot send the ftrace events to that trace-cmd collector: %s",
			     rec->collector, auxrec_strerror(errno));
		return -errno;
	}
	if (!rec->quiet)
		fprintf(stderr, "auxrec: sending the ftrace events to trace-cmd collector %s\n",
			rec->collector);
	return 0;
}

int record__finish_net(struct record *rec)
{
	int err = trace_dat_net__finish(rec->net), kept_err;
	const struct trace_dat_net_stats *st = trace_dat_net__stats(rec->net);

	if (!st->kept_bytes) {
		if (err)
			auxrec_error("-N %s: the trace-cmd collector did not get the whole "
				     "recording: %s", rec->collector, auxrec_strerror(err));
		else if (!rec->quiet)
			fprintf(stderr, "auxrec: sent %llu ftrace events (%.1f KiB) to trace-cmd "
				"collector %s\n", (unsigned long long)st->sent_events,
				st->sent_bytes / 1024.0, rec->collector);
		return err;
	}
	kept_err = trace_dat_writer__finish(rec->trace_dat);
	auxrec_error("trace-cmd collector %s went away during the recording: %llu ftrace "
		     "events (%.1f KiB) had been sent to it; the %llu recorded after (%.1f KiB) "
		     "%s %s", rec->collector, (unsigned long long)st->sent_events,
		     st->sent_bytes / 1024.0, (unsigned long long)st->kept_events,
		     st->kept_bytes / 1024.0, kept_err ? "could not be kept in" : "are kept in",
		     rec->trace_path);
	if (kept_err)
		auxrec_error("%s: %s", rec->trace_path, auxrec_strerror(kept_err));
	return err ? err : kept_err;
}
