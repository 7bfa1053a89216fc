// SPDX-License-Identifier: LGPL-2.1
/*
 * Arm Statistical Profiling Extension: the AUX area holds sampled operation records, one
 * per sampling interval, so the event's period is that interval, not 1.
 */
#include <stdio.h>

#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>

#include <internal/auxtrace-backend.h>
#include <internal/lib.h>

/* AUXTRACE_INFO priv[] of type PERF_AUXTRACE_ARM_SPE (perf 6.1's version 1 layout). */
enum {
	ARM_SPE_PMU_TYPE,
	ARM_SPE_PER_CPU_MMAPS,
	ARM_SPE_PRIV_NR,
};

/* The driver's interval when sysfs does not say (caps/min_interval). */
#define ARM_SPE_DEFAULT_INTERVAL 4096

/* The driver's minimum interval (caps/min_interval), else ARM_SPE_DEFAULT_INTERVAL. */
static uint64_t arm_spe_min_interval(const struct perf_pmu *pmu)
{
	uint64_t interval = ARM_SPE_DEFAULT_INTERVAL;

	perf_pmu__cap_u64(pmu, "min_interval", 10, &interval);
	return interval;
}

/* perf's default: sample every minimum interval rather than at a frequency. */
int arm_spe_default_terms(const struct perf_pmu *pmu, char *buf, size_t size)
{
	int len = snprintf(buf, size, "period=%llu",
			   (unsigned long long)arm_spe_min_interval(pmu));

	return len < 0 || (size_t)len >= size ? -ENOSPC : len;
}

static const struct auxtrace_size_rules arm_spe_sizes = {
	.min_full = 8 << 10,
	.min_overwrite = 8 << 10,
};

static int arm_spe_recording_options(struct auxtrace_record *itr, struct evlist *evlist,
				     struct auxtrace_opts *opts)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	const char *name = auxtrace_backend__name(be);
	uint64_t interval = arm_spe_min_interval(itr->pmu);
	struct perf_event_attr *attr;
	int err;

	err = auxtrace_backend__find_evsel(be, evlist);
	if (err)
		return err;
	attr = evsel__attr(be->evsel);
	if (attr->freq) {
		pr_err("%s: a sampling frequency is not supported, SPE samples every N "
		       "operations: give a period (-c N or period=N)\n", name);
		return -EINVAL;
	}
	/* "discard" keeps the profiling without a buffer: nothing to map or record. */
	if (attr->config & auxtrace_backend__format_bit(be, "discard")) {
		pr_debug("%s: discard mode, no AUX area\n", name);
		return 0;
	}

	if (attr->sample_period > interval)
		interval = attr->sample_period;
	err = auxtrace_backend__options(be, evlist, opts, &arm_spe_sizes);
	if (err)
		return err;
	attr->sample_period = interval;
	attr->sample_type |= PERF_SAMPLE_DATA_SRC;
	if (attr->config & auxtrace_backend__format_bit(be, "pa_enable"))
		attr->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (be->per_cpu) {
		/* Decoding several tasks' samples on one CPU needs their times. */
		auxtrace_backend__set_config_if_unset(be, "ts_enable", 1);
		attr->sample_type |= PERF_SAMPLE_TIME;
	}
	return auxtrace_backend__add_tracking(be, evlist, be->per_cpu);
}

static size_t arm_spe_info_priv_size(struct auxtrace_record *itr, struct evlist *evlist)
{
	(void)itr;
	(void)evlist;
	return ARM_SPE_PRIV_NR * sizeof(uint64_t);
}

static int arm_spe_info_fill(struct auxtrace_record *itr, struct evlist *evlist,
			     struct perf_record_auxtrace_info *info, size_t priv_size)
{
	int err = auxtrace_backend__check_priv_size(auxtrace_backend(itr),
						    arm_spe_info_priv_size(itr, evlist), priv_size);

	if (err)
		return err;
	info->type = PERF_AUXTRACE_ARM_SPE;
	info->priv[ARM_SPE_PMU_TYPE] = perf_pmu__type(itr->pmu);
	info->priv[ARM_SPE_PER_CPU_MMAPS] = auxtrace_evlist__per_cpu(evlist);
	return 0;
}

const struct auxtrace_record arm_spe_record_ops = {
	.recording_options = arm_spe_recording_options,
	.info_priv_size = arm_spe_info_priv_size,
	.info_fill = arm_spe_info_fill,
	.find_snapshot = auxtrace_backend__find_snapshot_head,
	.reference = auxtrace_reference__monotonic_raw,
};
