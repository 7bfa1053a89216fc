// SPDX-License-Identifier: LGPL-2.1
/*
 * Choosing the AUX recording backend of a session, and the auxtrace_record__* wrappers that
 * let a session without AUX events (itr == NULL) run the same code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/pmu.h>

#include <internal/auxtrace-backend.h>
#include <internal/evsel.h>
#include <internal/lib.h>
#include <internal/opts.h>

/* The backend of each AUXTRACE_INFO type that auxtrace-pmu.c names a PMU of. */
static const struct auxtrace_backend_kind {
	enum auxtrace_type type;
	const struct auxtrace_record *ops;
	/* perf's default terms of the PMU's events; NULL: none */
	int (*default_terms)(const struct perf_pmu *pmu, char *buf, size_t size);
} auxtrace_backend_kinds[] = {
	{ PERF_AUXTRACE_INTEL_PT,  &intel_pt_record_ops, intel_pt_default_terms },
	{ PERF_AUXTRACE_INTEL_BTS, &intel_bts_record_ops, NULL },
	{ PERF_AUXTRACE_ARM_SPE,   &arm_spe_record_ops, arm_spe_default_terms },
	{ PERF_AUXTRACE_CS_ETM,    &cs_etm_record_ops, NULL },
};

static const struct auxtrace_backend_kind *auxtrace_backend_kind__find(const char *name)
{
	enum auxtrace_type type = auxtrace_pmu__auxtrace_type(name);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(auxtrace_backend_kinds); i++) {
		if (auxtrace_backend_kinds[i].type == type)
			return &auxtrace_backend_kinds[i];
	}
	return NULL;
}

const char *auxtrace_pmu__default_terms(const struct perf_pmu *pmu, void *ctx)
{
	const struct auxtrace_backend_kind *kind;
	struct auxtrace_pmu_terms *terms = ctx;

	if (!pmu || !terms)
		return NULL;
	kind = auxtrace_backend_kind__find(perf_pmu__name(pmu));
	if (!kind || !kind->default_terms ||
	    kind->default_terms(pmu, terms->str, sizeof(terms->str)) <= 0)
		return NULL;
	return terms->str;
}

static struct auxtrace_record *auxtrace_backend__new(const struct auxtrace_backend_kind *kind,
						     const char *sysfs_root, const char *name,
						     struct evlist *evlist)
{
	struct auxtrace_backend *be = calloc(1, sizeof(*be));

	if (!be)
		return libauxtrace__ptr_err(-ENOMEM);
	be->itr = *kind->ops;
	/* What every backend does the same way; the kind's table holds only its own rules. */
	be->itr.free = auxtrace_backend__free;
	be->itr.snapshot_start = auxtrace_backend__snapshot_start;
	be->itr.snapshot_finish = auxtrace_backend__snapshot_finish;
	be->itr.parse_snapshot_options = auxtrace_backend__parse_snapshot_options;
	be->itr.read_finish = auxtrace_backend__read_finish;
	be->itr.evlist = evlist;
	be->time_conv = auxtrace_backend__time_conv;
	be->itr.pmu = perf_pmu__new(sysfs_root, name);
	if (!be->itr.pmu) {
		int err = errno;

		pr_err("%s: cannot read the PMU from sysfs (%s)\n", name, strerror(err));
		free(be);
		return libauxtrace__ptr_err(err);
	}
	return &be->itr;
}

/*
 * The AUX PMU of the evlist: every AUX event must belong to the same one, since a session
 * has one backend and the kernel shares an AUX area only within one PMU.
 */
static int auxtrace_record__find_pmu(struct evlist *evlist, const struct perf_pmus *pmus,
				     const struct perf_pmu **found)
{
	struct evsel *evsel;

	*found = NULL;
	evlist__for_each_entry(evlist, evsel) {
		const struct perf_pmu *pmu;

		pmu = perf_pmus__find_by_type(pmus, evsel__attr(evsel)->type);
		if (!pmu || !auxtrace_pmu__is_aux_capable(perf_pmu__name(pmu)))
			continue;
		if (*found && *found != pmu) {
			pr_err("%s and %s may not be used together: record the events of one AUX "
			       "PMU per session\n", perf_pmu__name(*found), perf_pmu__name(pmu));
			return -EINVAL;
		}
		*found = pmu;
	}
	return 0;
}

struct auxtrace_record *auxtrace_record__init(struct evlist *evlist, const char *sysfs_root,
					      int *err)
{
	const struct perf_pmu *pmu = NULL;
	struct auxtrace_record *itr = NULL;
	struct perf_pmus *pmus;
	int ret;

	*err = 0;
	if (!evlist || !evlist__nr_entries(evlist))
		return NULL;
	pmus = perf_pmus__new(sysfs_root);
	if (!pmus) {
		/* No PMU directory at all: no event of the evlist can be an AUX event. */
		if (errno == ENOENT)
			return NULL;
		*err = -errno;
		return libauxtrace__ptr_err(*err);
	}
	ret = auxtrace_record__find_pmu(evlist, pmus, &pmu);
	if (!ret && pmu) {
		itr = auxtrace_backend__new(auxtrace_backend_kind__find(perf_pmu__name(pmu)),
					    sysfs_root, perf_pmu__name(pmu), evlist);
		if (!itr)
			ret = -errno;
	}
	perf_pmus__delete(pmus);
	*err = ret;
	return ret ? libauxtrace__ptr_err(ret) : itr;
}

void auxtrace_record__free(struct auxtrace_record *itr)
{
	if (itr && itr->free)
		itr->free(itr);
}

const char *auxtrace_record__pmu_name(const struct auxtrace_record *itr)
{
	return auxtrace_itr__pmu_name(itr);
}

/*
 * The PMU's default terms in the config bits of its parsed events that the event string left
 * alone, as perf's parser always applies them: a caller that parsed "intel_pt//u" without
 * the default_terms hook records what perf records, not pt alone. Bits the string set, or
 * that the hook set already, keep their values.
 */
static void auxtrace_record__default_config(struct auxtrace_record *itr, struct evlist *evlist)
{
	struct auxtrace_pmu_terms terms;
	const char *str = auxtrace_pmu__default_terms(itr->pmu, &terms);
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		char copy[sizeof(terms.str)], *term, *save = NULL;

		/* an evsel made from an attr has the config its caller chose, all of it */
		if (!str || !evsel->parsed || evsel__attr(evsel)->type != perf_pmu__type(itr->pmu))
			continue;
		snprintf(copy, sizeof(copy), "%s", str);
		for (term = strtok_r(copy, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(term, '=');
			uint64_t value = 1;

			if (eq) {
				*eq = '\0';
				value = strtoull(eq + 1, NULL, 0);
			}
			/* config terms only: SPE's period is its backend's to set */
			auxtrace_evsel__set_config_if_unset(itr->pmu, evsel, term, value);
		}
	}
}

int auxtrace_record__options(struct auxtrace_record *itr, struct evlist *evlist,
			     struct auxtrace_opts *opts)
{
	struct auxtrace_opts o;
	int err;

	if (!itr || !itr->recording_options)
		return 0;
	err = auxtrace_opts__load(opts, &o);
	if (err)
		return err;
	auxtrace_record__default_config(itr, evlist);
	err = itr->recording_options(itr, evlist, &o);
	if (err)
		return libauxtrace__err(err);
	libauxtrace__opts_store(opts, &o, sizeof(o));
	return 0;
}

size_t auxtrace_record__info_priv_size(struct auxtrace_record *itr, struct evlist *evlist)
{
	if (!itr || !itr->info_priv_size)
		return 0;
	return itr->info_priv_size(itr, evlist);
}

int auxtrace_record__info_fill(struct auxtrace_record *itr, struct evlist *evlist,
			       struct perf_record_auxtrace_info *info, size_t priv_size)
{
	if (!itr || !itr->info_fill) {
		pr_err("AUX area tracing is not supported here: no AUX event has a recording "
		       "backend, so there is no AUXTRACE_INFO to write\n");
		return libauxtrace__err(-EINVAL);
	}
	return libauxtrace__err(itr->info_fill(itr, evlist, info, priv_size));
}

struct perf_record_auxtrace_info *auxtrace_record__info_new(struct auxtrace_record *itr,
							    struct evlist *evlist)
{
	size_t priv_size = auxtrace_record__info_priv_size(itr, evlist);
	size_t size = sizeof(struct perf_record_auxtrace_info) + priv_size;
	struct perf_record_auxtrace_info *info;
	int err;

	if (size > UINT16_MAX) {
		pr_err("%s: AUXTRACE_INFO would be %zu bytes, more than a perf record holds "
		       "(65535)\n", auxtrace_record__pmu_name(itr), size);
		return libauxtrace__ptr_err(-E2BIG);
	}
	info = calloc(1, size);
	if (!info)
		return libauxtrace__ptr_err(-ENOMEM);
	info->header.type = PERF_RECORD_AUXTRACE_INFO;
	info->header.size = (uint16_t)size;
	err = auxtrace_record__info_fill(itr, evlist, info, priv_size);
	if (err) {
		free(info);
		return libauxtrace__ptr_err(err);
	}
	return info;
}

/* itr as one of this library's backends; NULL for a table a caller built itself. */
static struct auxtrace_backend *auxtrace_backend__of(struct auxtrace_record *itr)
{
	return itr && itr->free == auxtrace_backend__free ? auxtrace_backend(itr) : NULL;
}

int auxtrace_record__set_filter(struct auxtrace_record *itr, const char *filter)
{
	struct auxtrace_backend *be = auxtrace_backend__of(itr);
	char *copy = NULL;

	if (!itr)
		return 0;
	if (!be)
		return libauxtrace__err(-EINVAL);
	if (filter && *filter) {
		copy = strdup(filter);
		if (!copy)
			return libauxtrace__err(-ENOMEM);
	}
	free(be->filter);
	be->filter = copy;
	return 0;
}

int auxtrace_record__snapshot_start(struct auxtrace_record *itr)
{
	if (!itr || !itr->snapshot_start)
		return 0;
	return libauxtrace__err(itr->snapshot_start(itr));
}

int auxtrace_record__snapshot_finish(struct auxtrace_record *itr)
{
	if (!itr || !itr->snapshot_finish)
		return 0;
	return libauxtrace__err(itr->snapshot_finish(itr));
}

int auxtrace_record__find_snapshot(struct auxtrace_record *itr, int idx,
				   struct auxtrace_mmap *mm, unsigned char *data,
				   uint64_t *head, uint64_t *old)
{
	if (!itr || !itr->find_snapshot)
		return 0;
	return libauxtrace__err(itr->find_snapshot(itr, idx, mm, data, head, old));
}

uint64_t auxtrace_record__reference(struct auxtrace_record *itr)
{
	if (!itr || !itr->reference)
		return 0;
	return itr->reference(itr);
}

unsigned int auxtrace_record__alignment(const struct auxtrace_record *itr)
{
	return itr ? itr->alignment : 0;
}

int auxtrace_record__read_finish(struct auxtrace_record *itr, int idx)
{
	if (!itr || !itr->read_finish)
		return 0;
	return libauxtrace__err(itr->read_finish(itr, idx));
}

void auxtrace_record__set_user_disabled(struct auxtrace_record *itr, bool disabled)
{
	struct auxtrace_backend *be = auxtrace_backend__of(itr);

	if (be)
		be->user_disabled = disabled;
}
