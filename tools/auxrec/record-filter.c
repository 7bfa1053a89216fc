// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec record --filter, perf record's rule: a filter belongs to the -e before it and goes
 * on every event that -e made, as a tracepoint filter on a tracepoint and as address
 * filters on an event whose PMU takes them (nr_addr_filters: intel_pt, cs_etm). Several
 * --filter after one -e are joined as perf joins them: "(a) && (b)" for a tracepoint,
 * "a,b" for address filters. Address filters are parsed, resolved and counted against the
 * PMU before anything opens; every filter is set on the opened events before any ring is
 * mapped, so a filter the kernel refuses leaves nothing behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/addr-filter.h>
#include <auxtrace/pmu.h>
#include "error.h"
#include "record.h"

/* One --filter as given, and the -e it follows. */
struct record_filter_arg {
	int event;		/* index in rec->events */
	const char *str;
};

/* What one event gets: a tracepoint filter, or address filters parsed and resolved. */
struct record_filter_set {
	struct evsel *evsel;
	char *tracepoint;
	struct addr_filters addr;
};

struct record_filters {
	struct record_filter_arg *args;
	int nr_args;
	struct record_filter_set *sets;
	int nr_sets;
	int nr_bound;		/* evsels of the -e options bound so far, in evlist order */
};

int record__add_filter(struct record *rec, const char *str)
{
	struct record_filters *f = rec->filters;
	struct record_filter_arg *args;

	if (!rec->nr_events) {
		auxrec_error("--filter '%s' comes before any -e: as in perf record, a filter "
			     "applies to the -e event before it; put it after -e EVENT (a "
			     "tracepoint such as sched:sched_switch, or an AUX event such as "
			     "intel_pt//)", str);
		return -EINVAL;
	}
	if (!f && !(f = rec->filters = calloc(1, sizeof(*f))))
		return -ENOMEM;
	args = realloc(f->args, (f->nr_args + 1) * sizeof(*args));
	if (!args)
		return -ENOMEM;
	args[f->nr_args++] = (struct record_filter_arg){ .event = rec->nr_events - 1, .str = str };
	f->args = args;
	return 0;
}

/* The --filter strings of -e number event, joined: "(a) && (b)" for a tracepoint, else "a,b". */
static char *record_filters__join(const struct record_filters *f, int event, bool tracepoint)
{
	char *joined = NULL, *next;

	for (int i = 0; i < f->nr_args; i++) {
		if (f->args[i].event != event)
			continue;
		if (!joined)
			next = strdup(f->args[i].str);
		else if (asprintf(&next, tracepoint ? "(%s) && (%s)" : "%s,%s", joined,
				  f->args[i].str) < 0)
			next = NULL;
		free(joined);
		if (!next)
			return NULL;
		joined = next;
	}
	return joined;
}

/* The PMU of evsel takes address filters: parse, resolve and count them for it. */
static int record_filter_set__addr(struct record_filter_set *set, const struct perf_pmu *pmu,
				   const char *str, const char *event)
{
	const char *name = evsel__name(set->evsel);

	if (addr_filters__parse_bare_filter(&set->addr, str)) {
		auxrec_error("--filter '%s' after -e %s: %s (PMU %s) takes address filters, and "
			     "this is not one: see above where it breaks", str, event, name,
			     perf_pmu__name(pmu));
		return -EINVAL;
	}
	if (addr_filters__resolve(&set->addr, NULL)) {
		auxrec_error("--filter '%s' after -e %s: its symbols cannot be resolved (see "
			     "above why); give a function of the file, #N for one of several, or "
			     "an address", str, event);
		return -EINVAL;
	}
	if (addr_filters__check_pmu(&set->addr, pmu)) {
		auxrec_error("--filter '%s' after -e %s: %d address filters, and PMU %s takes "
			     "%u (its nr_addr_filters): drop some, or cover several functions "
			     "with one range (START / END)", str, event, set->addr.cnt,
			     perf_pmu__name(pmu), perf_pmu__nr_addr_filters(pmu));
		return -EINVAL;
	}
	return 0;
}

/* What the filters of -e number event mean for evsel, one of its events. */
static int record_filters__bind_evsel(struct record_filters *f, struct evsel *evsel,
				      int event, const char *event_str)
{
	bool tracepoint = evsel__attr(evsel)->type == PERF_TYPE_TRACEPOINT;
	char *str = record_filters__join(f, event, tracepoint);
	struct record_filter_set *set, *sets;
	struct perf_pmus *pmus = NULL;
	const struct perf_pmu *pmu = NULL;
	int err = 0;

	sets = str ? realloc(f->sets, (f->nr_sets + 1) * sizeof(*sets)) : NULL;
	if (!sets) {
		free(str);
		return -ENOMEM;
	}
	f->sets = sets;
	set = &sets[f->nr_sets++];
	*set = (struct record_filter_set){ .evsel = evsel };
	addr_filters__init(&set->addr);
	if (tracepoint) {
		set->tracepoint = str;	/* the kernel parses it, and says if it refuses */
		return 0;
	}
	pmus = perf_pmus__new(NULL);
	if (pmus)
		pmu = perf_pmus__find_by_type(pmus, evsel__attr(evsel)->type);
	if (!pmu || !perf_pmu__nr_addr_filters(pmu)) {
		auxrec_error("--filter '%s' after -e %s: %s (PMU %s) takes neither a tracepoint "
			     "filter nor address filters (no nr_addr_filters in sysfs); put "
			     "--filter after the -e of a tracepoint (sys:event) or of an AUX event "
			     "with address filters (intel_pt//, cs_etm//)", str, event_str,
			     evsel__name(evsel), pmu ? perf_pmu__name(pmu) : "unknown");
		err = -EINVAL;
	} else {
		err = record_filter_set__addr(set, pmu, str, event_str);
	}
	perf_pmus__delete(pmus);
	free(str);
	return err;
}

int record__bind_filters(struct record *rec, int event)
{
	struct record_filters *f = rec->filters;
	bool any = false;
	struct evsel *evsel;
	int idx = 0, err = 0;

	if (!f)
		return 0;
	for (int i = 0; i < f->nr_args && !any; i++)
		any = f->args[i].event == event;
	/* parse_events appends: the evsels after those bound so far are this -e's */
	evlist__for_each_entry(rec->evlist, evsel) {
		if (idx++ >= f->nr_bound && any && !err)
			err = record_filters__bind_evsel(f, evsel, event, rec->events[event]);
	}
	f->nr_bound = idx;
	return err;
}

int record__apply_filters(struct record *rec)
{
	struct record_filters *f = rec->filters;

	for (int i = 0; f && i < f->nr_sets; i++) {
		struct record_filter_set *set = &f->sets[i];
		int err;

		if (evsel__idx(set->evsel) < 0)
			continue;	/* dropped: its PMU counts on none of the CPUs */
		if (set->tracepoint) {
			if (auxrec_verbose)
				fprintf(stderr, "auxrec: %s: filter \"%s\"\n",
					evsel__name(set->evsel), set->tracepoint);
			err = evsel__apply_filter(set->evsel, set->tracepoint);
		} else {
			err = addr_filters__apply(&set->addr, set->evsel, NULL);
		}
		if (err) {
			auxrec_error("cannot set the --filter of %s: %s (see above why)",
				     evsel__name(set->evsel), strerror(-err));
			return err;
		}
	}
	return 0;
}

void record__free_filters(struct record *rec)
{
	struct record_filters *f = rec->filters;

	if (!f)
		return;
	for (int i = 0; i < f->nr_sets; i++) {
		free(f->sets[i].tracepoint);
		addr_filters__exit(&f->sets[i].addr);
	}
	free(f->sets);
	free(f->args);
	free(f);
	rec->filters = NULL;
}
