// SPDX-License-Identifier: LGPL-2.1
/*
 * Resolved address filters into the kernel's filter string, checked against the PMU that
 * takes them, and set on an event with PERF_EVENT_IOC_SET_FILTER.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/addr-filter.h>

#include <internal/lib.h>

/* One filter as the kernel parses it, appended to *str (a string of *len bytes). */
static int addr_filter__append(const struct addr_filter *filt, char **str, size_t *len)
{
	char path[PATH_MAX] = "", head[64], *grown;
	size_t need;

	if (!filt->resolved) {
		pr_err("Address filter at byte %zu names symbols: call addr_filters__resolve() "
		       "before making the kernel's string\n", filt->pos);
		return -EINVAL;
	}
	if (filt->range && filt->start && !filt->size) {
		pr_err("Address filter at byte %zu: 'filter' needs a range of at least one byte, "
		       "its size is 0\n", filt->pos);
		return -EINVAL;
	}
	/* The kernel looks the path up itself: give it one that does not depend on our cwd. */
	if (filt->filename && !realpath(filt->filename, path)) {
		int err = -errno;

		pr_err("Address filter at byte %zu: %s: %s\n", filt->pos, filt->filename,
		       strerror(-err));
		return err;
	}
	if (filt->range)
		snprintf(head, sizeof(head), "%s 0x%" PRIx64 "/0x%" PRIx64, filt->action,
			 filt->addr, filt->size);
	else
		snprintf(head, sizeof(head), "%s 0x%" PRIx64, filt->action, filt->addr);
	need = *len + strlen(head) + strlen(path) + 3;	/* ',', '@', NUL */
	grown = realloc(*str, need);
	if (!grown)
		return -ENOMEM;
	*str = grown;
	*len += (size_t)sprintf(grown + *len, "%s%s%s%s", *len ? "," : "", head,
				filt->filename ? "@" : "", path);
	return 0;
}

char *addr_filters__to_str(const struct addr_filters *filts)
{
	const struct addr_filter *filt;
	char *str = strdup("");
	size_t len = 0;
	int err = str ? 0 : -ENOMEM;

	addr_filters__for_each_entry(filts, filt) {
		if (err)
			break;
		err = addr_filter__append(filt, &str, &len);
	}
	if (err) {
		free(str);
		return libauxtrace__ptr_err(err);
	}
	return str;
}

int addr_filters__check_pmu(const struct addr_filters *filts, const struct perf_pmu *pmu)
{
	unsigned int max = perf_pmu__nr_addr_filters(pmu);

	if (!max) {
		pr_err("PMU %s takes no address filters (it has no nr_addr_filters in sysfs): "
		       "address filters need an AUX PMU that has them, such as intel_pt or "
		       "cs_etm\n", perf_pmu__name(pmu));
		return libauxtrace__err(-EOPNOTSUPP);
	}
	if ((unsigned int)filts->cnt > max) {
		pr_err("Error: number of address filters (%d) exceeds maximum (%u) of PMU %s "
		       "(its nr_addr_filters): give at most %u\n", filts->cnt, max,
		       perf_pmu__name(pmu), max);
		return libauxtrace__err(-EINVAL);
	}
	return 0;
}

static int addr_filters__check_evsel(const struct addr_filters *filts,
				     const struct evsel *evsel, const struct perf_pmu *pmu)
{
	const struct perf_event_attr *attr = evsel__attr((struct evsel *)evsel);
	const struct addr_filter *filt;

	if (perf_pmu__type(pmu) != attr->type) {
		pr_err("%s: its attr.type is %u, and PMU %s has type %u: give the event's own "
		       "PMU\n", evsel__name(evsel), attr->type, perf_pmu__name(pmu),
		       perf_pmu__type(pmu));
		return -EINVAL;
	}
	addr_filters__for_each_entry(filts, filt) {
		if (!filt->filename && attr->exclude_kernel) {
			pr_err("%s: address filter at byte %zu is a kernel filter (it has no "
			       "@file), but the event excludes the kernel (:u): add @<file> or "
			       "trace the kernel too\n", evsel__name(evsel), filt->pos);
			return -EINVAL;
		}
	}
	return addr_filters__check_pmu(filts, pmu);
}

int addr_filters__apply(const struct addr_filters *filts, struct evsel *evsel,
			const struct perf_pmu *pmu)
{
	struct perf_pmus *pmus = NULL;
	char *str;
	int err;

	if (!filts->cnt)
		return 0;
	if (!pmu) {
		pmus = perf_pmus__new(NULL);
		pmu = pmus ? perf_pmus__find_by_type(pmus, evsel__attr(evsel)->type) : NULL;
		if (!pmu) {
			err = -errno;
			pr_err("%s: cannot find the PMU of type %u in sysfs: %s\n",
			       evsel__name(evsel), evsel__attr(evsel)->type, strerror(-err));
			goto out;
		}
	}
	err = addr_filters__check_evsel(filts, evsel, pmu);
	if (err)
		goto out;
	str = addr_filters__to_str(filts);
	if (!str) {
		err = -errno;
		goto out;
	}
	pr_debug("%s: address filters \"%s\"\n", evsel__name(evsel), str);
	/* The kernel copies at most a page of filter (strndup_user), else says only EINVAL. */
	if (strlen(str) >= (size_t)sysconf(_SC_PAGESIZE)) {
		pr_err("%s: the address filter string is %zu bytes, the kernel takes fewer than "
		       "%ld: use fewer filters or shorter paths\n", evsel__name(evsel),
		       strlen(str), sysconf(_SC_PAGESIZE));
		err = -EINVAL;
	} else {
		err = evsel__apply_filter(evsel, str);
	}
	free(str);
out:
	perf_pmus__delete(pmus);
	return libauxtrace__err(err);
}
