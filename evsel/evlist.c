// SPDX-License-Identifier: LGPL-2.1
/* The evlist: its evsels in order, the maps it hands them, opening, and the sample-ID hash. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/evlist.h>
#include <internal/evlist-ids.h>
#include <internal/evlist-struct.h>
#include <internal/lib.h>

struct evlist *evlist__new(void)
{
	struct evlist *evlist = calloc(1, sizeof(*evlist));

	return evlist ? evlist : libauxtrace__ptr_err(-ENOMEM);
}

void evlist__delete(struct evlist *evlist)
{
	int i;

	if (!evlist)
		return;
	evlist__close(evlist);
	for (i = 0; i < evlist->nr_entries; i++)
		evsel__delete(evlist->entries[i]);
	while (evlist->dropped) {
		struct evsel *evsel = evlist->dropped;

		evlist->dropped = evsel->next_dropped;
		evsel__delete(evsel);
	}
	free(evlist->entries);
	perf_cpu_map__put(evlist->user_cpus);
	perf_cpu_map__put(evlist->all_cpus);
	perf_thread_map__put(evlist->threads);
	free(evlist);
}

static void evlist__renumber(struct evlist *evlist, int from)
{
	for (; from < evlist->nr_entries; from++)
		evlist->entries[from]->idx = from;
}

static void evlist__log_dropped(const struct evsel *evsel, const struct perf_cpu_map *pmu,
				const struct perf_cpu_map *user)
{
	char pmu_list[256], user_list[256];

	perf_cpu_map__snprint(pmu, pmu_list, sizeof(pmu_list));
	perf_cpu_map__snprint(user, user_list, sizeof(user_list));
	pr_warn("%s dropped from the evlist: its PMU counts on CPUs %s only, none of them in "
		"the requested CPUs %s; ask for one of those CPUs to record it\n",
		evsel->name, pmu_list, user_list);
}

/*
 * Its CPUs and threads from the evlist's, as libperf propagates them. 0, 1: no CPU left,
 * or -errno.
 */
static int evlist__propagate(struct evlist *evlist, struct evsel *evsel)
{
	struct perf_cpu_map *user = evlist->user_cpus;
	bool user_any = !user || perf_cpu_map__has_any_cpu(user);
	struct perf_cpu_map *pmu, *cpus;
	struct perf_thread_map *dummy = NULL;

	/* A PMU without a cpumask counts on every online CPU. */
	pmu = evsel->pmu_cpus ? perf_cpu_map__get(evsel->pmu_cpus) :
				perf_cpu_map__new_online_cpus();
	if (!pmu)
		return -errno;
	errno = 0;	/* an empty intersection is NULL with errno 0, a failure sets it */
	if (evsel->system_wide || (user_any && evsel->requires_cpu))
		cpus = perf_cpu_map__get(pmu);
	else if (user_any)
		cpus = perf_cpu_map__new_any_cpu();	/* fewer fds than one per CPU */
	else
		cpus = perf_cpu_map__intersect(user, pmu);
	if (!cpus) {
		int err = errno;

		if (!err)
			evlist__log_dropped(evsel, pmu, user);
		perf_cpu_map__put(pmu);
		return err ? -err : 1;
	}
	perf_cpu_map__put(pmu);
	if (evsel->system_wide) {
		dummy = perf_thread_map__new_dummy();
		if (!dummy) {
			perf_cpu_map__put(cpus);
			return -ENOMEM;
		}
	}
	evsel__set_maps(evsel, cpus, dummy ? dummy : evlist->threads);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(dummy);
	return 0;
}

static int evlist__update_all_cpus(struct evlist *evlist)
{
	struct perf_cpu_map *all = NULL;
	int i, err;

	for (i = 0; i < evlist->nr_entries; i++) {
		err = perf_cpu_map__merge(&all, evlist->entries[i]->cpus);
		if (err) {
			perf_cpu_map__put(all);
			return err;
		}
	}
	perf_cpu_map__put(evlist->all_cpus);
	evlist->all_cpus = all;
	return 0;
}

/* Take entries[i] out of the list, as libperf does, but keep owning it. */
static void evlist__drop(struct evlist *evlist, int i)
{
	struct evsel *evsel = evlist->entries[i];

	evlist__remove(evlist, evsel);
	evsel->evlist = evlist;
	evsel->next_dropped = evlist->dropped;
	evlist->dropped = evsel;
}

/* Propagate to entries[i], dropping it when no CPU is left. 0, 1 when dropped, or -errno. */
static int evlist__propagate_at(struct evlist *evlist, int i)
{
	int ret = evlist__propagate(evlist, evlist->entries[i]);

	if (ret == 1)
		evlist__drop(evlist, i);
	return ret;
}

int evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	int err;

	if (evlist->nr_entries == evlist->alloc_entries) {
		int alloc = evlist->alloc_entries ? evlist->alloc_entries * 2 : 8;
		struct evsel **entries = realloc(evlist->entries, alloc * sizeof(*entries));

		if (!entries) {
			pr_err("evlist__add: out of memory adding %s\n", evsel->name);
			return libauxtrace__err(-ENOMEM);
		}
		evlist->entries = entries;
		evlist->alloc_entries = alloc;
	}
	evsel->evlist = evlist;
	evsel->idx = evlist->nr_entries;
	evlist->entries[evlist->nr_entries++] = evsel;
	if (!evlist->maps_set)
		return 0;
	err = evlist__propagate_at(evlist, evsel->idx);
	if (err == 0)
		err = evlist__update_all_cpus(evlist);
	if (err < 0) {
		evlist__remove(evlist, evsel);	/* not added: still the caller's */
		return libauxtrace__err(err);
	}
	return 0;
}

/* Hand a dropped evsel back to the caller. */
static void evlist__undrop(struct evlist *evlist, struct evsel *evsel)
{
	struct evsel **p = &evlist->dropped;

	while (*p != evsel)
		p = &(*p)->next_dropped;
	*p = evsel->next_dropped;
	evsel->next_dropped = NULL;
	evsel->evlist = NULL;
}

void evlist__remove(struct evlist *evlist, struct evsel *evsel)
{
	int i = evsel->idx;

	if (evsel->evlist != evlist)
		return;
	if (i < 0) {
		evlist__undrop(evlist, evsel);
		return;
	}
	evlist__id_hash_remove_evsel(evlist, evsel);
	memmove(&evlist->entries[i], &evlist->entries[i + 1],
		(evlist->nr_entries - i - 1) * sizeof(*evlist->entries));
	evlist->nr_entries--;
	evlist__renumber(evlist, i);
	evsel->evlist = NULL;
	evsel->idx = -1;
}

void evlist__move_to_front(struct evlist *evlist, struct evsel *evsel)
{
	int i = evsel->idx;

	if (evsel->evlist != evlist || i == 0)
		return;
	memmove(&evlist->entries[1], &evlist->entries[0], i * sizeof(*evlist->entries));
	evlist->entries[0] = evsel;
	evlist__renumber(evlist, 0);
}

int evlist__nr_entries(const struct evlist *evlist)
{
	return evlist->nr_entries;
}

struct evsel *evlist__first(const struct evlist *evlist)
{
	return evlist->nr_entries ? evlist->entries[0] : NULL;
}

struct evsel *evlist__next(const struct evlist *evlist, const struct evsel *evsel)
{
	int i = evsel->idx + 1;

	return i < evlist->nr_entries ? evlist->entries[i] : NULL;
}

int evlist__set_maps(struct evlist *evlist, struct perf_cpu_map *cpus,
		     struct perf_thread_map *threads)
{
	int i, ret;

	perf_maps__assign(&evlist->user_cpus, &evlist->threads, cpus, threads);
	evlist->maps_set = true;
	for (i = 0; i < evlist->nr_entries; ) {
		ret = evlist__propagate_at(evlist, i);
		if (ret < 0)
			return libauxtrace__err(ret);
		if (ret == 0)
			i++;	/* a dropped entry's successor moved into slot i */
	}
	return libauxtrace__err(evlist__update_all_cpus(evlist));
}

struct perf_cpu_map *evlist__user_cpus(const struct evlist *evlist)
{
	return evlist->user_cpus;
}

struct perf_cpu_map *evlist__all_cpus(const struct evlist *evlist)
{
	return evlist->all_cpus;
}

struct perf_thread_map *evlist__threads(const struct evlist *evlist)
{
	return evlist->threads;
}

int evlist__open(struct evlist *evlist)
{
	int i, err;

	if (!evlist->maps_set) {
		pr_err("evlist__open: no CPUs or threads to open on; call evlist__set_maps first\n");
		return libauxtrace__err(-EINVAL);
	}
	for (i = 0; i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];

		err = evsel__open(evsel, evsel->cpus, evsel->threads);
		if (err) {
			evlist__close(evlist);
			return libauxtrace__err(err);
		}
	}
	return 0;
}

void evlist__close(struct evlist *evlist)
{
	int i;

	evlist__munmap(evlist);
	/* Members before their leaders: the reverse of the opening order. */
	for (i = evlist->nr_entries - 1; i >= 0; i--)
		evsel__close(evlist->entries[i]);
}

static int evlist__for_each_evsel(struct evlist *evlist, int (*fn)(struct evsel *evsel))
{
	int i, err;

	for (i = 0; i < evlist->nr_entries; i++) {
		err = fn(evlist->entries[i]);
		if (err)
			return err;
	}
	return 0;
}

int evlist__enable(struct evlist *evlist)
{
	return evlist__for_each_evsel(evlist, evsel__enable);
}

int evlist__disable(struct evlist *evlist)
{
	return evlist__for_each_evsel(evlist, evsel__disable);
}
