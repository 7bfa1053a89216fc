// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec record: open the events, map every ring (data rings, AUX areas, ftrace CPUs), drain
 * them all from one poll loop through the library's consumer core, and print per CPU what
 * arrived and what was lost. (Writing perf.data and trace.dat comes with the data/ room.)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/pmu.h>
#include "auxrec.h"
#include "ftrace.h"
#include "record.h"


/* Asked for hardware trace that is not there: say what this machine can trace instead. */
static void record__explain_aux_pmus(const char *event)
{
	size_t len = strcspn(event, "/");
	char pmu_name[64];
	struct perf_pmus *pmus;
	struct perf_pmu *pmu;
	int nr = 0;

	if (!event[len] || len >= sizeof(pmu_name))
		return;
	memcpy(pmu_name, event, len);
	pmu_name[len] = '\0';
	if (!auxtrace_pmu__is_aux_capable(pmu_name))
		return;
	pmus = perf_pmus__new(NULL);
	fprintf(stderr, "auxrec: AUX-capable PMUs on this machine:");
	perf_pmus__for_each_pmu(pmus, pmu) {
		if (auxtrace_pmu__is_aux_capable(perf_pmu__name(pmu))) {
			fprintf(stderr, " %s", perf_pmu__name(pmu));
			nr++;
		}
	}
	fprintf(stderr, nr ? "\n" : " none: hardware trace cannot be recorded here\n");
	perf_pmus__delete(pmus);
}

static int record__parse_events(struct record *rec)
{
	struct auxtrace_pmu_terms terms;
	/* AUX PMUs' events get perf's default terms, under the user's own. */
	struct parse_events_opts opts = { .default_terms = auxtrace_pmu__default_terms,
					  .ctx = &terms };
	struct parse_events_error err;

	for (int i = 0; i < rec->nr_events; i++) {
		if (parse_events(rec->evlist, rec->events[i], &opts, &err) < 0) {
			auxrec_error("event '%s': %s", rec->events[i], err.msg);
			if (err.idx >= 0)
				fprintf(stderr, "        %s\n        %*s^\n", rec->events[i],
					err.idx, "");
			record__explain_aux_pmus(rec->events[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Sampling defaults a perf user expects where the string set none: tracepoints every event,
 * other events at 4000 Hz; what the report needs in each sample; everything starts disabled
 * and is enabled once the rings are mapped.
 */
static void record__config_evsels(struct record *rec)
{
	struct evsel *evsel;
	bool many = evlist__nr_entries(rec->evlist) > 1;

	evlist__for_each_entry(rec->evlist, evsel) {
		struct perf_event_attr *attr = evsel__attr(evsel);

		if (!attr->sample_period && !attr->freq) {
			if (attr->type == PERF_TYPE_TRACEPOINT) {
				attr->sample_period = 1;
			} else {
				attr->freq = 1;
				attr->sample_freq = 4000;
			}
		}
		attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_PERIOD;
		if (!rec->per_thread)
			attr->sample_type |= PERF_SAMPLE_CPU;
		if (many)
			attr->sample_type |= PERF_SAMPLE_IDENTIFIER;
		attr->sample_id_all = 1;
		attr->disabled = 1;
		/* A per-CPU recording of a command follows its children, like perf record. */
		attr->inherit = rec->have_workload && !rec->per_thread && !rec->system_wide &&
				!rec->cpu_list;
	}
}

static int record__set_maps(struct record *rec)
{
	struct perf_cpu_map *cpus = NULL;
	struct perf_thread_map *threads = NULL;
	int err;

	if (rec->per_thread)
		cpus = perf_cpu_map__new_any_cpu();
	else if (rec->cpu_list)
		cpus = perf_cpu_map__new(rec->cpu_list);
	else
		cpus = perf_cpu_map__new_online_cpus();
	if (!cpus) {
		auxrec_error("CPU list '%s': %s (give e.g. 0-3,7 with online CPUs)",
			     rec->cpu_list ? rec->cpu_list : "online", strerror(errno));
		return -EINVAL;
	}
	if (rec->system_wide || rec->cpu_list)
		threads = perf_thread_map__new_dummy();	/* every task: the command only times it */
	else if (rec->have_workload)
		threads = perf_thread_map__new_tid(rec->workload.pid);
	else if (rec->pid)
		threads = perf_thread_map__new_pid(rec->pid);
	else
		threads = perf_thread_map__new_dummy();
	if (!threads) {
		err = -errno;
		auxrec_error("threads of pid %d: %s", rec->pid, strerror(errno));
		perf_cpu_map__put(cpus);
		return err;
	}
	err = evlist__set_maps(rec->evlist, cpus, threads);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return err;
}

/* The AUX side: a backend when an AUX event was asked for, sizes from -m and -S. */
static int record__setup_auxtrace(struct record *rec)
{
	int err = 0;

	auxtrace_opts__init(&rec->opts);
	rec->opts.per_thread = rec->per_thread;
	if (rec->mmap_pages && auxtrace_opts__parse_mmap_pages(&rec->opts, rec->mmap_pages) < 0) {
		auxrec_error("-m '%s': give DATA[,AUX] as page counts or sizes (64K, 4M)",
			     rec->mmap_pages);
		return -EINVAL;
	}
	rec->itr = auxtrace_record__init(rec->evlist, NULL, &err);
	if (!rec->itr && err)
		return err;
	if (rec->snapshot && auxtrace_opts__parse_snapshot(rec->itr, &rec->opts, rec->snapshot) < 0)
		return -EINVAL;
	if (rec->itr)
		return auxtrace_record__options(rec->itr, rec->evlist, &rec->opts);
	if (rec->opts.auxtrace_mmap_pages) {
		/*
		 * An AUX area was asked for on events that have no AUX backend: try it anyway,
		 * so the kernel's verdict (and the library's message naming the PMU) reaches
		 * the user rather than a silent drop of the request.
		 */
		evsel__set_needs_auxtrace_mmap(evlist__first(rec->evlist), true);
	}
	return 0;
}

static int record__mmap(struct record *rec)
{
	const struct evlist_mmap_hooks *hooks = NULL;
	bool overwrite = rec->opts.auxtrace_snapshot_mode || rec->opts.auxtrace_sample_mode;

	if (rec->itr || rec->opts.auxtrace_mmap_pages) {
		rec->aux = auxtrace_mmaps__new(rec->evlist, rec->itr,
					       rec->opts.auxtrace_mmap_pages, overwrite);
		if (!rec->aux)
			return -errno;
		hooks = auxtrace_mmaps__hooks(rec->aux);
	}
	return evlist__mmap_ex(rec->evlist, rec->opts.mmap_pages, hooks);
}

/* Bytes leave through here; writing files comes later, counting is all a sink must do now. */
static ssize_t record__count_sink(void *ctx, const struct iovec *iov, int iovcnt)
{
	size_t *total = ctx, n = 0;

	for (int i = 0; i < iovcnt; i++)
		n += iov[i].iov_len;
	*total += n;
	return n;
}

/* One ring set over every ring: perf data rings with their AUX areas, ftrace CPUs. */
static int record__setup_ring_set(struct record *rec, struct ring_sink *sink)
{
	bool full_trace = rec->aux && !rec->opts.auxtrace_snapshot_mode &&
			  !rec->opts.auxtrace_sample_mode;
	int err = 0;

	rec->set = ring_set__new(NULL);
	if (!rec->set)
		return -errno;
	if (evlist__nr_mmaps(rec->evlist))
		err = ring_set__add_evlist(rec->set, rec->evlist, full_trace ? rec->aux : NULL,
					   sink, sink);
	if (!err && rec->ftrace)
		err = ftrace_session__add_to_ring_set(rec->ftrace, rec->set, sink);
	return err;
}

static int record__snapshot(struct record *rec, struct ring_sink *sink, bool on_exit)
{
	ssize_t n;

	if (auxtrace_record__snapshot_start(rec->itr) < 0)
		return -errno;
	n = auxtrace_mmaps__read_snapshot(rec->aux, sink, rec->opts.auxtrace_snapshot_size);
	if (n < 0)
		return (int)n;
	if (!on_exit && auxtrace_record__snapshot_finish(rec->itr) < 0)
		return -errno;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
static int record__loop(struct record *rec, struct ring_sink *sink)
{
	double deadline = rec->duration > 0 ? now() + rec->duration : 0;

	for (;;) {
		int timeout = 1000, n;

		if (deadline) {
			double left = deadline - now();

			if (left <= 0) {
				record__note_end(rec, "the duration (-d) ran out");
				return 0;
			}
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
		}
		n = ring_set__poll(rec->set, timeout);
		if (n < 0 && n != -ECANCELED && n != -EINTR) {
			auxrec_error("draining the rings failed: %s", strerror(-n));
			return n;
		}
		if (n == -ECANCELED)
			ring_set__resume(rec->set);
		if (record__take_snapshot_request() && rec->aux && rec->opts.auxtrace_snapshot_mode) {
			int err = record__snapshot(rec, sink, false);

			if (err) {
				auxrec_error("AUX area tracing snapshot failed: %s", strerror(-err));
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
		auxrec_error("cannot turn tracing on in auxrec's tracefs instance: %s%s",
			     strerror(-err), err == -EMFILE || err == -ENFILE ?
			     " (out of file descriptors: raise ulimit -n)" : "");
		return err;
	}
	err = evlist__enable(rec->evlist);
	if (err) {
		auxrec_error("cannot enable the events: %s", strerror(-err));
		return err;
	}
	if (rec->have_workload) {
		err = workload__start(&rec->workload);
		if (err) {
			auxrec_error("cannot run '%s': %s", rec->argv[0], strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Open and map everything; a stop requested meanwhile ends the setup early. */
static int record__setup(struct record *rec, struct ring_sink *sink)
{
	int err;

	rec->evlist = evlist__new();
	if (!rec->evlist)
		return -ENOMEM;
	err = record__parse_events(rec);
	if (!err && rec->argv) {
		err = workload__prepare(&rec->workload, rec->argv);
		if (err)
			auxrec_error("cannot start '%s': %s", rec->argv[0], strerror(-err));
		rec->have_workload = !err;
	}
	if (!err) {
		record__config_evsels(rec);
		err = record__set_maps(rec);
	}
	if (!err)
		err = record__setup_auxtrace(rec);
	/* --ftrace alone has no perf events: nothing to open or map. */
	if (!err && evlist__nr_entries(rec->evlist) && !record__stop_requested())
		err = evlist__open(rec->evlist);
	if (!err && evlist__nr_entries(rec->evlist) && !record__stop_requested())
		err = record__mmap(rec);
	if (!err && rec->nr_ftrace_events && !record__stop_requested()) {
		rec->ftrace = ftrace_session__new(rec->ftrace_events, rec->nr_ftrace_events,
						  rec->ftrace_mode,
						  rec->cpu_list ? evlist__all_cpus(rec->evlist) : NULL);
		if (!rec->ftrace)
			err = -EINVAL;
	}
	if (!err)
		err = record__setup_ring_set(rec, sink);
	return err;
}

static int record__run(struct record *rec)
{
	size_t total = 0;
	struct ring_sink_callback sink;
	int err;

	ring_sink_callback__init(&sink, record__count_sink, &total);
	err = record__setup(rec, &sink.sink);
	if (err)
		return err;
	record__signals_wake(rec->set);
	record__signals_take_snapshots(rec->opts.auxtrace_snapshot_mode);
	if (!record__stop_requested())
		err = record__start(rec);
	if (!err && !record__stop_requested())
		err = record__loop(rec, &sink.sink);
	else if (!err)
		record__note_end(rec, strsignal(record__stop_signal()));
	evlist__disable(rec->evlist);
	if (rec->ftrace)
		ftrace_session__enable(rec->ftrace, false);
	/* What was captured before a stop or an error is still delivered, unless aborted. */
	if (!record__abort_requested() && ring_set__drain_all(rec->set, true) >= 0 && rec->aux &&
	    rec->opts.auxtrace_snapshot_on_exit)
		err = err ? err : record__snapshot(rec, &sink.sink, true);
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
	if (rec->ftrace)
		ftrace_session__delete(rec->ftrace);
	if (rec->evlist)
		evlist__munmap(rec->evlist);
	auxtrace_mmaps__delete(rec->aux);
	auxtrace_record__free(rec->itr);
	evlist__delete(rec->evlist);
	free(rec->events);
	free(rec->ftrace_events);
}

int cmd_record(int argc, char **argv)
{
	struct record rec = { .ftrace_mode = FTRACE_SPLICE };
	int err;

	/* first of all: a signal from now on stops us cleanly, even during the setup */
	if (record__install_signals() < 0) {
		auxrec_error("cannot install signal handlers: %s", strerror(errno));
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
