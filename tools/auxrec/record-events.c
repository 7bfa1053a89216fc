// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec record's events: what the command line (or the default) asks for, configured the
 * way perf record configures them, on the CPUs and threads asked for, with the AUX backend's
 * options, and mapped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/callchain.h>
#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/pmu.h>
#include "error.h"
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

/* The first AUX-capable PMU of this machine (Intel PT preferred), or NULL. */
static char *record__aux_pmu(void)
{
	struct perf_pmus *pmus = perf_pmus__new(NULL);
	struct perf_pmu *pmu;
	char *name = NULL;

	if (!pmus)
		return NULL;
	perf_pmus__for_each_pmu(pmus, pmu) {
		const char *n = perf_pmu__name(pmu);

		if (auxtrace_pmu__is_aux_capable(n) && (!name || !strcmp(n, "intel_pt"))) {
			free(name);
			name = strdup(n);
		}
	}
	perf_pmus__delete(pmus);
	return name;
}

/*
 * No -e and no --ftrace: the AUX PMU when there is one, else cpu-clock samples with
 * side-band plus the scheduler's ftrace events; said in one line.
 */
static int record__default_events(struct record *rec)
{
	static char *sched_events[] = { "sched:sched_switch", "sched:sched_wakeup" };
	static char cpu_clock[] = "cpu-clock";
	char *pmu = record__aux_pmu();

	if (pmu) {
		if (asprintf(&rec->default_event, "%s//", pmu) < 0)
			rec->default_event = NULL;
		free(pmu);
		if (!rec->default_event)
			return -ENOMEM;
		if (!rec->quiet)
			fprintf(stderr, "auxrec: no -e or --ftrace given: recording %s, this "
				"machine's hardware trace\n", rec->default_event);
		return record__add(&rec->events, &rec->nr_events, rec->default_event);
	}
	/* -o -: stdout takes perf.data only; the sched events would need a trace.dat */
	if (rec->to_stdout) {
		if (!rec->quiet)
			fprintf(stderr, "auxrec: no -e or --ftrace given: recording cpu-clock "
				"samples with side-band (no AUX-capable PMU here); the default ftrace "
				"events are left out with -o -, which streams perf.data only: give "
				"-o DIR for their trace.dat\n");
		return record__add(&rec->events, &rec->nr_events, cpu_clock);
	}
	if (!rec->quiet)
		fprintf(stderr, "auxrec: no -e or --ftrace given: recording cpu-clock samples "
			"with side-band and ftrace sched:sched_switch, sched:sched_wakeup (no "
			"AUX-capable PMU here)\n");
	if (record__add(&rec->events, &rec->nr_events, cpu_clock) ||
	    record__add(&rec->ftrace_events, &rec->nr_ftrace_events, sched_events[0]) ||
	    record__add(&rec->ftrace_events, &rec->nr_ftrace_events, sched_events[1]))
		return -ENOMEM;
	return 0;
}

/* What parse_events' hooks share. */
struct record_parse_ctx {
	struct auxtrace_pmu_terms terms;
	struct record *rec;
};

/* AUX PMUs' events get perf's default terms, under the user's own. */
static const char *record__default_terms(const struct perf_pmu *pmu, void *ctx)
{
	return auxtrace_pmu__default_terms(pmu, &((struct record_parse_ctx *)ctx)->terms);
}

/* An event with its own call-graph= or stack-size=: the global -g leaves it as it says. */
static int record__new_evsel(struct evsel *evsel, const struct parse_events_event *event,
			     void *ctx)
{
	struct record *rec = ((struct record_parse_ctx *)ctx)->rec;
	struct record_own_callchain *own;

	if (!event->has_callchain && !event->callchain.dump_size)
		return 0;
	own = realloc(rec->own_callchains, (rec->nr_own_callchains + 1) * sizeof(*own));
	if (!own)
		return -ENOMEM;
	rec->own_callchains = own;
	own[rec->nr_own_callchains++] = (struct record_own_callchain){
		.evsel = evsel, .param = event->callchain, .has_callchain = event->has_callchain,
	};
	return 0;
}

int record__parse_events(struct record *rec)
{
	struct record_parse_ctx ctx = { .rec = rec };
	AUXTRACE_OPTS(parse_events_opts, opts, .default_terms = record__default_terms,
		      .new_evsel = record__new_evsel, .ctx = &ctx);
	struct parse_events_error err;

	if (!rec->nr_events && !rec->nr_ftrace_events && record__default_events(rec))
		return -ENOMEM;
	/* ftrace alone: perf.data still gets the side-band (who ran, what was mapped) */
	if (!rec->nr_events &&
	    parse_events(rec->evlist, rec->system_wide || rec->cpu_list ? "dummy" : "dummy:u",
			 NULL, &err) < 0) {
		auxrec_error("the side-band event: %s", err.msg);
		return -EINVAL;
	}
	for (int i = 0; i < rec->nr_events; i++) {
		if (parse_events(rec->evlist, rec->events[i], &opts, &err) < 0) {
			auxrec_error("event '%s': %s", rec->events[i], err.msg);
			if (err.idx >= 0)
				fprintf(stderr, "        %s\n        %*s^\n", rec->events[i],
					err.idx, "");
			record__explain_aux_pmus(rec->events[i]);
			return -EINVAL;
		}
		if (record__bind_filters(rec, i))
			return -EINVAL;
	}
	return 0;
}

/*
 * Sampling defaults a perf user expects where the string set none: tracepoints every event,
 * other events at 4000 Hz; what the report needs in each sample; everything starts disabled
 * and is enabled once the rings are mapped.
 */
/* Whether some evsel already carries the side-band (an AUX backend's tracking event). */
static bool record__has_tracking(struct record *rec)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->evlist, evsel)
		if (evsel__attr(evsel)->comm || evsel__attr(evsel)->mmap)
			return true;
	return false;
}

/* The side-band perf record puts on its first event: who ran, what they mapped. */
static void record__track(struct record *rec, struct perf_event_attr *attr)
{
	attr->comm = attr->comm_exec = 1;
	attr->mmap = attr->mmap2 = 1;
	attr->mmap_data = rec->sample_address;	/* data mappings too, as perf -d */
	attr->task = 1;
	attr->ksymbol = 1;
	attr->bpf_event = !rec->no_bpf_event;
}

void record__config_evsels(struct record *rec)
{
	struct evsel *evsel;
	bool many = evlist__nr_entries(rec->evlist) > 1;
	bool track = !record__has_tracking(rec);

	evlist__for_each_entry(rec->evlist, evsel) {
		struct perf_event_attr *attr = evsel__attr(evsel);
		bool dummy = attr->type == PERF_TYPE_SOFTWARE &&
			     attr->config == PERF_COUNT_SW_DUMMY;

		if (track) {
			record__track(rec, attr);
			track = false;
		}
		/* on the event with the side-band, whoever put it there */
		if (attr->comm && rec->switch_events)
			attr->context_switch = 1;
		if (!attr->sample_period && !attr->freq) {
			if (attr->type == PERF_TYPE_TRACEPOINT || dummy) {
				attr->sample_period = 1;
			} else if (rec->count) {
				attr->sample_period = rec->count;
			} else {
				attr->freq = 1;
				attr->sample_freq = rec->freq ? rec->freq : 4000;
			}
		}
		attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_PERIOD;
		if (rec->sample_address)
			attr->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		if (rec->clockid >= 0) {	/* -k: perf.data says so in its CLOCKID feature */
			attr->use_clockid = 1;
			attr->clockid = rec->clockid;
		}
		/* a tracepoint's fields, which perf script prints */
		if (attr->type == PERF_TYPE_TRACEPOINT)
			attr->sample_type |= PERF_SAMPLE_RAW;
		if (!rec->per_thread || rec->sample_cpu)
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

static const struct record_own_callchain *record__own_callchain(struct record *rec,
								 const struct evsel *evsel)
{
	for (int i = 0; i < rec->nr_own_callchains; i++)
		if (rec->own_callchains[i].evsel == evsel)
			return &rec->own_callchains[i];
	return NULL;
}

/*
 * perf record's rule: -g/--call-graph on every sampling event, except one whose string says
 * call-graph= (its own stack-size= is the size of a global dwarf); the side-band dummy has
 * no samples to unwind. --user-callchains/--kernel-callchains cut each chain in half.
 */
int record__config_callchains(struct record *rec)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->evlist, evsel) {
		struct perf_event_attr *attr = evsel__attr(evsel);
		const struct record_own_callchain *own = record__own_callchain(rec, evsel);
		struct callchain_param param = rec->callchain;

		if (attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_DUMMY)
			continue;
		if (own && own->param.dump_size)
			param.dump_size = own->param.dump_size;
		if (!own || !own->has_callchain)
			callchain_param__config(&param, attr);
		if (!(attr->sample_type & PERF_SAMPLE_CALLCHAIN))
			continue;
		if ((attr->sample_type & PERF_SAMPLE_REGS_USER) && !attr->sample_regs_user) {
			auxrec_error("--call-graph dwarf: auxrec knows no user registers of this "
				     "architecture; use fp");
			return -EINVAL;
		}
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
		    !callchain__lbr_supported(NULL)) {
			auxrec_error("--call-graph lbr: this machine's CPU PMU has no last branch "
				     "record (no cpu/caps/branches in sysfs); use fp, or dwarf for "
				     "programs built without frame pointers");
			return -EINVAL;
		}
		if (rec->user_callchains)
			attr->exclude_callchain_kernel = 1;
		if (rec->kernel_callchains)
			attr->exclude_callchain_user = 1;
	}
	return 0;
}

/* CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in our effective set: kernel profiling allowed. */
static bool record__perfmon_capable(void)
{
	unsigned long long caps = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	return caps & (1ull << 38 | 1ull << 21);
}

/*
 * The kernel's rule (perf_allow_kernel): above paranoid 1, only CAP_PERFMON or
 * CAP_SYS_ADMIN may count the kernel. perf record then drops to user space on its own and
 * says so; so does auxrec, rather than fail on a kernel error. Tracepoints are left alone:
 * they are the kernel's, and need privileges that no exclusion gives.
 */
void record__exclude_kernel_if_denied(struct record *rec)
{
	long paranoid = record__sysctl("perf_event_paranoid", 2);
	char names[256] = "";
	struct evsel *evsel;
	size_t len = 0;

	if (paranoid <= 1 || record__perfmon_capable())
		return;
	evlist__for_each_entry(rec->evlist, evsel) {
		struct perf_event_attr *attr = evsel__attr(evsel);

		if (attr->exclude_kernel || attr->type == PERF_TYPE_TRACEPOINT)
			continue;
		attr->exclude_kernel = attr->exclude_hv = 1;
		if (len < sizeof(names))
			len += snprintf(names + len, sizeof(names) - len, "%s%s:u", len ? ", " : "",
					evsel__name(evsel));
	}
	if (len && !rec->quiet)
		fprintf(stderr, "auxrec: kernel.perf_event_paranoid is %ld and auxrec has neither "
			"CAP_PERFMON nor CAP_SYS_ADMIN: the kernel is excluded, recording %s; as "
			"root or with paranoid <= 1 the kernel is recorded too\n", paranoid, names);
}

int record__set_maps(struct record *rec)
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
			     rec->cpu_list ? rec->cpu_list : "online", auxrec_strerror(errno));
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
		auxrec_error("threads of pid %d: %s", rec->pid, auxrec_strerror(errno));
		perf_cpu_map__put(cpus);
		return err;
	}
	err = evlist__set_maps(rec->evlist, cpus, threads);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return err;
}

/* The AUX side: a backend when an AUX event was asked for, sizes from -m and -S. */
int record__setup_auxtrace(struct record *rec)
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

int record__mmap(struct record *rec)
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
