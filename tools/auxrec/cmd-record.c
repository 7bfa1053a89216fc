// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec record: open the events, map every ring (data rings, AUX areas, ftrace CPUs), and
 * drain the ready ones from one ring set straight into perf.data and trace.dat, through the
 * library's writers; then finish both files, whatever ended the recording, and say what was
 * written where and what was lost.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include "cmd.h"
#include "error.h"
#include "ftrace.h"
#include "record.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* After each round that moved records: perf sorts by time between two of these. */
static void record__pass_done(void *ctx, size_t bytes)
{
	struct record *rec = ctx;

	(void)bytes;
	perf_data_writer__write_finished_round(rec->perf_data);
}

/* One ring set over every ring: perf data rings with their AUX areas, ftrace CPUs. */
static int record__setup_ring_set(struct record *rec)
{
	/*
	 * A round (every perf ring read, then FINISHED_ROUND) at most every 10 ms: a wakeup
	 * then drains only the ready rings, whatever the number of CPUs, and perf sorts at
	 * most 10 ms of records at a time.
	 */
	AUXTRACE_OPTS(ring_set_opts, opts, .pass_done = record__pass_done, .ctx = rec,
		      .round_ms = 10);
	bool full_trace = rec->aux && !rec->opts.auxtrace_snapshot_mode &&
			  !rec->opts.auxtrace_sample_mode;
	int err = 0;

	rec->set = ring_set__new(&opts);
	if (!rec->set) {
		auxrec_error("cannot make the ring set: %s", auxrec_strerror(errno));
		return -errno;
	}
	if (evlist__nr_mmaps(rec->evlist)) {
		err = evlist__add_to_ring_set(rec->evlist, rec->set,
					      perf_data_writer__data_sink(rec->perf_data));
		/* snapshot and sample modes copy the AUX areas when asked, not on wakeups */
		if (!err && full_trace)
			err = auxtrace_mmaps__add_to_ring_set(rec->aux, rec->set,
							      perf_data_writer__aux_sink(rec->perf_data));
	}
	if (!err && rec->ftrace)
		err = ftrace_session__add_to_ring_set(rec->ftrace, rec->set, record__ftrace_sink,
						      rec);
	if (err)
		auxrec_error("cannot watch the rings: %s", auxrec_strerror(err));
	return err;
}

/* Copy the newest AUX data of every area into perf.data (-S: SIGUSR2, -Se: at exit). */
static int record__snapshot(struct record *rec, bool on_exit)
{
	ssize_t n;

	if (auxtrace_record__snapshot_start(rec->itr) < 0)
		return -errno;
	n = auxtrace_mmaps__read_snapshot(rec->aux, perf_data_writer__aux_sink(rec->perf_data),
					  rec->opts.auxtrace_snapshot_size);
	if (n < 0)
		return (int)n;
	if (!on_exit && auxtrace_record__snapshot_finish(rec->itr) < 0)
		return -errno;
	return perf_data_writer__write_finished_round(rec->perf_data);
}

/* Why the loop ended, for the summary: a signal, the duration, the workload, the targets. */
static void record__note_end(struct record *rec, const char *why)
{
	rec->end_reason = why;
}

/*
 * Wake up per ring set poll; a wakeup that is not data is a signal: a snapshot request, a
 * child that exited, or a stop. Ends on a stop, the duration, the workload's exit, or when
 * every traced task is gone (-p).
 */
static int record__loop(struct record *rec)
{
	double deadline = rec->duration > 0 ? rec->started + rec->duration : 0;
	double swept = rec->started;

	for (;;) {
		double t = now();
		int timeout = 1000, n;

		/*
		 * Once a second every ring, ready or not: what waits under a wakeup mark reaches
		 * the files (and a pipe's reader) and the status line within a second.
		 */
		if (t - swept >= 1.0) {
			ssize_t moved = ring_set__drain_all(rec->set, false);

			if (moved < 0 && moved != -ECANCELED) {
				auxrec_error("draining the rings failed: %s",
					     auxrec_strerror((int)moved));
				return (int)moved;
			}
			swept = t;
		}

		if (deadline) {
			if (t >= deadline) {
				record__note_end(rec, "the duration (--duration) ran out");
				return 0;
			}
			if ((deadline - t) * 1000 < timeout)
				timeout = (int)((deadline - t) * 1000) + 1;
		}
		record__print_status(rec, t);
		n = ring_set__poll(rec->set, timeout);
		if (n < 0 && n != -ECANCELED && n != -EINTR) {
			auxrec_error("draining the rings failed: %s", auxrec_strerror(-n));
			return n;
		}
		if (n == -ECANCELED)
			ring_set__resume(rec->set);
		if (record__take_snapshot_request() && rec->aux && rec->opts.auxtrace_snapshot_mode) {
			int err = record__snapshot(rec, false);

			if (err) {
				auxrec_error("AUX area tracing snapshot failed: %s", auxrec_strerror(-err));
				return err;
			}
		}
		if (record__stop_requested()) {
			record__note_end(rec, strsignal(record__stop_signal()));
			return 0;
		}
		if (rec->have_workload && workload__poll_exit(&rec->workload)) {
			record__note_end(rec, "the command exited");
			return 0;
		}
		if (rec->pid && ring_set__nr_alive(rec->set) == 0) {
			record__note_end(rec, "every traced thread exited");
			return 0;
		}
	}
}

/* Start what records: the ftrace instance, the events, then the workload. */
static int record__start(struct record *rec)
{
	int err;

	if (rec->ftrace && (err = ftrace_session__enable(rec->ftrace, true)) < 0) {
		auxrec_error("cannot turn tracing on in auxrec's tracefs instance: %s",
			     auxrec_strerror(err));
		return err;
	}
	err = evlist__enable(rec->evlist);
	if (err) {
		auxrec_error("cannot enable the events: %s", auxrec_strerror(-err));
		return err;
	}
	rec->started = now();
	if (rec->have_workload) {
		err = workload__start(&rec->workload);
		if (err) {
			auxrec_error("cannot run '%s': %s", rec->argv[0], auxrec_strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Open and map everything, then the files; a stop requested meanwhile ends it early. */
static int record__setup(struct record *rec)
{
	int err;

	rec->evlist = evlist__new();
	if (!rec->evlist)
		return -ENOMEM;
	err = record__parse_events(rec);
	if (!err && rec->argv) {
		err = workload__prepare(&rec->workload, rec->argv);
		if (err)
			auxrec_error("cannot start '%s': %s", rec->argv[0], auxrec_strerror(-err));
		rec->have_workload = !err;
	}
	if (!err)
		err = record__set_maps(rec);
	if (!err)
		err = record__setup_auxtrace(rec);
	if (!err) {
		record__config_evsels(rec);
		record__exclude_kernel_if_denied(rec);
		err = record__config_callchains(rec);
	}
	if (!err) {
		err = evlist__open(rec->evlist);
	}
	if (!err)
		err = record__apply_filters(rec);
	if (!err && !record__stop_requested())
		err = record__mmap(rec);
	if (!err && rec->nr_ftrace_events && !record__stop_requested()) {
		rec->ftrace = ftrace_session__new(rec->ftrace_events, rec->nr_ftrace_events,
						  rec->ftrace_mode, rec->trace_clock,
						  rec->ftrace_buffer_kb,
						  rec->cpu_list ? evlist__all_cpus(rec->evlist) : NULL);
		if (!rec->ftrace)
			err = -EINVAL;
	}
	/* -p or a command (not one that only times -a/-C): its events, as trace-cmd -P -F */
	if (!err && rec->ftrace && !rec->ftrace_all_tasks && !rec->system_wide &&
	    !rec->cpu_list && (rec->pid || rec->have_workload))
		err = ftrace_session__follow(rec->ftrace, rec->have_workload ?
					     rec->workload.pid : rec->pid);
	/* the files last: a recording that cannot start leaves none */
	if (!err && !record__stop_requested())
		err = record__prepare_output(rec);
	if (!err && !record__stop_requested())
		err = record__open_perf_data(rec);
	if (!err && rec->ftrace && !record__stop_requested())
		err = record__open_trace_dat(rec);
	if (!err && !record__stop_requested())
		err = record__setup_ring_set(rec);
	return err;
}

/* Stop producing, take what is left, finish the files. */
static int record__stop(struct record *rec, int err)
{
	bool aborted;
	int ferr;

	record__clear_status();
	evlist__disable(rec->evlist);
	if (rec->ftrace)
		ftrace_session__enable(rec->ftrace, false);
	rec->ended = now();
	/* from here on, a stop the set sees is a second request: it cuts the drain short */
	if (rec->set)
		ring_set__resume(rec->set);
	aborted = record__abort_requested();
	/* what was captured before a stop or an error is still delivered, unless aborted */
	if (!aborted && rec->set) {
		ssize_t n = ring_set__drain_all(rec->set, true);

		aborted = n == -ECANCELED;
		if (!aborted && n < 0 && !err) {
			auxrec_error("draining the rings failed: %s", auxrec_strerror(-(int)n));
			err = (int)n;
		}
		if (!aborted && !err && rec->aux && rec->opts.auxtrace_snapshot_on_exit)
			err = record__snapshot(rec, true);
	}
	if (aborted && rec->set)
		fprintf(stderr, "auxrec: aborted: what was still in the rings is not written\n");
	ferr = record__finish_output(rec);
	return err ? err : ferr;
}

static int record__run(struct record *rec)
{
	int err = record__setup(rec);

	if (err || !rec->set) {
		record__discard_output(rec);
		return err;
	}
	record__signals_wake(rec->set);
	record__signals_take_snapshots(rec->opts.auxtrace_snapshot_mode);
	if (!record__stop_requested())
		err = record__start(rec);
	if (!err && !record__stop_requested())
		err = record__loop(rec);
	else if (!err)
		record__note_end(rec, strsignal(record__stop_signal()));
	err = record__stop(rec, err);
	record__print_stats(rec);
	if (rec->have_workload) {
		workload__poll_exit(&rec->workload);
		if (rec->workload.exited && WIFEXITED(rec->workload.status) &&
		    WEXITSTATUS(rec->workload.status) == 127)
			auxrec_error("'%s' could not be executed", rec->argv[0]);
	}
	return err;
}

static void record__cleanup(struct record *rec)
{
	record__signals_wake(NULL);
	if (rec->have_workload)
		workload__kill(&rec->workload);
	ring_set__delete(rec->set);
	record__close_output(rec);
	if (rec->ftrace)
		ftrace_session__delete(rec->ftrace);
	if (rec->evlist)
		evlist__munmap(rec->evlist);
	auxtrace_mmaps__delete(rec->aux);
	auxtrace_record__free(rec->itr);
	evlist__delete(rec->evlist);
	free(rec->events);
	free(rec->ftrace_events);
	free(rec->default_event);
	free(rec->own_callchains);
	record__free_filters(rec);
}

int cmd_record(int argc, char **argv)
{
	struct record rec = { .ftrace_mode = FTRACE_SPLICE, .perf_fd = -1 };
	int err;

	/* first of all: a signal from now on stops us cleanly, even during the setup */
	if (record__install_signals() < 0) {
		auxrec_error("cannot install signal handlers: %s", auxrec_strerror(errno));
		return 1;
	}
	err = record__parse_args(&rec, argc, argv);
	if (!err && !rec.help)
		err = record__run(&rec);
	record__cleanup(&rec);
	/* finalized and clean: now die of the signal that stopped us, as the shell expects */
	if (record__stop_signal()) {
		signal(record__stop_signal(), SIG_DFL);
		raise(record__stop_signal());
	}
	return err ? 1 : 0;
}
