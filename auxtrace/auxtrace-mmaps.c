// SPDX-License-Identifier: LGPL-2.1
/*
 * The AUX areas of an evlist: evlist mmap driver hooks that decide per idx what to map
 * (auxtrace_mmap_params) and map it right after that idx's data ring, the loops that drain
 * every area into one sink, and the areas as ring set sources.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace-pmu.h>
#include <auxtrace/pmu.h>
#include <auxtrace/ring-set.h>
#include <internal/auxtrace-mmap.h>
#include <internal/lib.h>
#include <internal/ring.h>

/* One idx: what its hook decided, its area, and the ring set source that drains it. */
struct auxtrace_mmaps_idx {
	struct auxtrace_mmaps *aux;
	int idx;
	struct auxtrace_mmap_params mp;
	struct auxtrace_mmap *mm;	/* allocated when the idx is mapped */
	struct ring_stats stats;	/* the source's answer to the set's last stats call */
};

struct auxtrace_mmaps {
	struct evlist *evlist;
	struct auxtrace_record *itr;
	unsigned int pages;
	bool overwrite;
	const struct auxtrace_mmap_ops *ops;
	struct evlist_mmap_hooks hooks;
	int nr;
	struct auxtrace_mmaps_idx *at;	/* [nr] */
};

static int auxtrace_mmaps__grow(struct auxtrace_mmaps *aux, int nr)
{
	struct auxtrace_mmaps_idx *at;

	if (nr <= aux->nr)
		return 0;
	at = realloc(aux->at, nr * sizeof(*at));
	if (!at)
		return -ENOMEM;
	aux->at = at;
	for (int idx = aux->nr; idx < nr; idx++)
		at[idx] = (struct auxtrace_mmaps_idx){ .aux = aux, .idx = idx };
	aux->nr = nr;
	return 0;
}

static int auxtrace_mmaps__idx_hook(struct evlist *evlist, struct evsel *evsel, int idx,
				    void *ctx)
{
	struct auxtrace_mmaps *aux = ctx;
	int nr = evlist__nr_mmaps(evlist);
	int err = auxtrace_mmaps__grow(aux, idx < nr ? nr : idx + 1);

	if (err)
		return err;
	/* The template depends on the data ring size, known only once the driver runs. */
	auxtrace_mmap_params__init(&aux->at[idx].mp, evlist__mmap_len(evlist), aux->pages,
				   aux->overwrite);
	auxtrace_mmap_params__set_idx(&aux->at[idx].mp, evlist, evsel, idx);
	return 0;
}

/* "intel_pt, intel_bts" or "none": the PMUs of this machine that can fill an AUX area. */
static void auxtrace__aux_pmus(char *buf, size_t size)
{
	struct perf_pmus *pmus = perf_pmus__new(NULL);
	struct perf_pmu *pmu;
	size_t used = 0;

	buf[0] = '\0';
	if (pmus) {
		perf_pmus__for_each_pmu(pmus, pmu) {
			const char *name = perf_pmu__name(pmu);
			int n;

			if (!auxtrace_pmu__is_aux_capable(name))
				continue;
			n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", name);
			if (n < 0 || (size_t)n >= size - used)
				break;
			used += n;
		}
		perf_pmus__delete(pmus);
	}
	if (!used)
		snprintf(buf, size, "none");
}

static const char *auxtrace__pmu_name(const struct evsel *evsel, char *buf, size_t size)
{
	struct perf_pmus *pmus = perf_pmus__new(NULL);
	struct perf_pmu *pmu;
	uint32_t type = evsel__attr((struct evsel *)evsel)->type;

	pmu = pmus ? perf_pmus__find_by_type(pmus, type) : NULL;
	if (pmu)
		snprintf(buf, size, "%s", perf_pmu__name(pmu));
	else
		snprintf(buf, size, "type %u", type);
	perf_pmus__delete(pmus);
	return buf;
}

/* The mapping failed with -err: say why in the user's terms, and what to change. */
static void auxtrace_mmaps__log_error(struct auxtrace_mmaps *aux, const struct evsel *evsel,
				      const struct auxtrace_mmap_params *mp, int err)
{
	const char *name = evsel__name(evsel);
	size_t aux_kb = mp->len / 1024, data_kb = evlist__mmap_len(aux->evlist) / 1024;
	int nr = evlist__nr_mmaps(aux->evlist);
	char pmu[64], list[256], limit[32];

	switch (-err) {
	case EOPNOTSUPP:
		auxtrace__aux_pmus(list, sizeof(list));
		pr_err("%s (PMU %s) cannot produce AUX area data: the kernel refused to map an AUX "
		       "area for it (EOPNOTSUPP, idx %d). AUX-capable PMUs on this machine: %s. "
		       "%srecord without an AUX area (no ,AUX part in -m)\n",
		       name, auxtrace__pmu_name(evsel, pmu, sizeof(pmu)), mp->idx, list,
		       strcmp(list, "none") ? "Trace with an event of one of them, or " : "So ");
		break;
	case EPERM:
		libauxtrace__memlock_rlimit(limit, sizeof(limit));
		pr_err("%s: permission error mapping the AUX area of idx %d: the locked-memory "
		       "budget is spent. Asked per mmap: %zu KiB data + %zu KiB AUX; for %d "
		       "mmaps up to %zu KiB. Allowed: /proc/sys/kernel/perf_event_mlock_kb = %llu "
		       "KiB per CPU, then RLIMIT_MEMLOCK = %s. Raise one of them (sysctl "
		       "kernel.perf_event_mlock_kb=N, ulimit -l) or ask for smaller areas "
		       "(-m DATA,AUX)\n",
		       name, mp->idx, data_kb, aux_kb, nr, (data_kb + aux_kb) * nr,
		       libauxtrace__perf_mlock_kb(0), limit);
		break;
	case EINVAL:
		pr_err("%s: the kernel refused the AUX area of idx %d (%zu KiB at offset %lld, "
		       "EINVAL): its size must be a power of two pages and the event owning the "
		       "ring must not be write_backward\n",
		       name, mp->idx, aux_kb, (long long)mp->offset);
		break;
	default:
		pr_err("%s: mapping the AUX area of idx %d (%zu KiB) failed: %s\n", name, mp->idx,
		       aux_kb, strerror(-err));
	}
}

static int auxtrace_mmaps__mmap_hook(struct evlist *evlist, struct evsel *evsel,
				     struct perf_mmap *map, int idx, void *ctx)
{
	struct auxtrace_mmaps *aux = ctx;
	struct auxtrace_mmaps_idx *at = &aux->at[idx];
	const struct auxtrace_mmap_params *mp = &at->mp;
	int err;

	(void)evlist;
	if (!mp->len || !mp->mmap_needed)
		return 0;
	if (!at->mm) {
		at->mm = auxtrace_mmap__new();
		if (!at->mm)
			return -ENOMEM;
		auxtrace_mmap__set_ops(at->mm, aux->ops);
	}
	err = auxtrace_mmap__mmap(at->mm, mp, perf_mmap__userpg(map), perf_mmap__fd(map));
	if (err)
		auxtrace_mmaps__log_error(aux, evsel, mp, err);
	return err;
}

static void auxtrace_mmaps__munmap_hook(struct evlist *evlist, struct perf_mmap *map, int idx,
					void *ctx)
{
	struct auxtrace_mmaps *aux = ctx;

	(void)evlist;
	(void)map;
	if (idx < aux->nr)
		auxtrace_mmap__munmap(aux->at[idx].mm);
}

struct auxtrace_mmaps *auxtrace_mmaps__new(struct evlist *evlist, struct auxtrace_record *itr,
					   unsigned int auxtrace_pages, bool overwrite)
{
	struct auxtrace_mmaps *aux;

	if (!evlist)
		return libauxtrace__ptr_err(-EINVAL);
	aux = calloc(1, sizeof(*aux));
	if (!aux)
		return libauxtrace__ptr_err(-ENOMEM);
	aux->evlist = evlist;
	aux->itr = itr;
	aux->pages = auxtrace_pages;
	aux->overwrite = overwrite;
	aux->ops = &auxtrace_mmap_ops__kernel;
	aux->hooks = (struct evlist_mmap_hooks){
		.sz = sizeof(aux->hooks),
		.idx = auxtrace_mmaps__idx_hook,
		.mmap = auxtrace_mmaps__mmap_hook,
		.munmap = auxtrace_mmaps__munmap_hook,
		.ctx = aux,
	};
	return aux;
}

void auxtrace_mmaps__delete(struct auxtrace_mmaps *aux)
{
	int idx;

	if (!aux)
		return;
	for (idx = 0; idx < aux->nr; idx++)
		auxtrace_mmap__delete(aux->at[idx].mm);
	free(aux->at);
	free(aux);
}

void auxtrace_mmaps__set_ops(struct auxtrace_mmaps *aux, const struct auxtrace_mmap_ops *ops)
{
	aux->ops = ops ? ops : &auxtrace_mmap_ops__kernel;
}

const struct evlist_mmap_hooks *auxtrace_mmaps__hooks(struct auxtrace_mmaps *aux)
{
	return &aux->hooks;
}

int auxtrace_mmaps__nr(const struct auxtrace_mmaps *aux)
{
	return aux->nr;
}

struct auxtrace_mmap *auxtrace_mmaps__at(const struct auxtrace_mmaps *aux, int idx)
{
	struct auxtrace_mmap *mm = idx >= 0 && idx < aux->nr ? aux->at[idx].mm : NULL;

	return mm && auxtrace_mmap__base(mm) ? mm : NULL;
}

static ssize_t auxtrace_mmaps__read_all(struct auxtrace_mmaps *aux, struct ring_sink *sink,
					bool snapshot, size_t snapshot_size)
{
	ssize_t total = 0;
	int idx;

	for (idx = 0; idx < aux->nr; idx++) {
		struct auxtrace_mmap *mm = auxtrace_mmaps__at(aux, idx);
		ssize_t n;

		if (!mm)
			continue;
		n = snapshot ? auxtrace_mmap__read_snapshot(mm, aux->itr, sink, snapshot_size)
			     : auxtrace_mmap__read(mm, aux->itr, sink);
		if (n < 0)
			return n;	/* what was not taken stays in its area */
		total += n;
	}
	return total;
}

ssize_t auxtrace_mmaps__read_idx(struct auxtrace_mmaps *aux, int idx, struct ring_sink *sink)
{
	struct auxtrace_mmap *mm = auxtrace_mmaps__at(aux, idx);

	/* an overwrite area is copied when a snapshot is taken, never drained */
	if (!mm || aux->overwrite)
		return 0;
	return auxtrace_mmap__read(mm, aux->itr, sink);
}

ssize_t auxtrace_mmaps__read(struct auxtrace_mmaps *aux, struct ring_sink *sink)
{
	return auxtrace_mmaps__read_all(aux, sink, false, 0);
}

ssize_t auxtrace_mmaps__read_snapshot(struct auxtrace_mmaps *aux, struct ring_sink *sink,
				      size_t snapshot_size)
{
	return auxtrace_mmaps__read_all(aux, sink, true, snapshot_size);
}

int auxtrace_mmaps__stats_sz(const struct auxtrace_mmaps *aux, int idx, struct ring_stats *out,
			     size_t sz)
{
	/* An unmapped area keeps its counters until the next mapping of the evlist. */
	const struct auxtrace_mmap *mm = idx >= 0 && idx < aux->nr ? aux->at[idx].mm : NULL;
	const struct perf_mmap *map = evlist__mmap_at(aux->evlist, idx);
	struct ring_stats stats = { .sz = sizeof(stats) };

	if (!mm && !map)
		return libauxtrace__err(-ENOENT);
	if (mm)
		stats = *auxtrace_mmap__stats(mm);
	if (map) {
		/* The kernel reports AUX losses as PERF_RECORD_AUX in the data ring. */
		const struct ring_stats *data = perf_mmap__stats(map);

		stats.aux_truncated = data->aux_truncated;
		stats.aux_partial = data->aux_partial;
		stats.aux_collision = data->aux_collision;
	}
	return ring_stats__copy_out(out, sz, &stats);
}

static ssize_t aux_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	struct auxtrace_mmaps_idx *at = ctx;

	(void)final;	/* the area holds only what the PMU finished writing */
	return auxtrace_mmaps__read_idx(at->aux, at->idx, sink);
}

static const struct ring_stats *aux_source__stats(void *ctx)
{
	struct auxtrace_mmaps_idx *at = ctx;

	return auxtrace_mmaps__stats(at->aux, at->idx, &at->stats) ? NULL : &at->stats;
}

static const struct ring_source_ops aux_source_ops = {
	.drain = aux_source__drain,
	.stats = aux_source__stats,
};

int auxtrace_mmaps__add_to_ring_set(struct auxtrace_mmaps *aux, struct ring_set *set,
				    struct ring_sink *sink)
{
	if (!aux || !set || !sink)
		return libauxtrace__err(-EINVAL);
	for (int idx = 0; idx < aux->nr; idx++) {
		struct perf_mmap *map = evlist__mmap_at(aux->evlist, idx);
		int leader, id;

		if (!auxtrace_mmaps__at(aux, idx))
			continue;
		/* the kernel wakes the data ring's fds for both, and its records come first */
		leader = ring_set__find_source(set, map);
		if (leader < 0) {
			pr_err("ring set: the AUX area of idx %d has no data ring in the set; call "
			       "evlist__add_to_ring_set first\n", idx);
			return libauxtrace__err(leader);
		}
		id = ring_set__add(set, &(struct ring_source){
			.sz = sizeof(struct ring_source),
			.kind = RING_SOURCE_AUX,
			.cpu = perf_mmap__cpu(map).cpu,
			.ops = &aux_source_ops,
			.ctx = &aux->at[idx],
			.sink = sink,
		});
		if (id < 0)
			return id;
		id = ring_set__follow(set, id, leader);
		if (id < 0)
			return id;
	}
	return 0;
}
