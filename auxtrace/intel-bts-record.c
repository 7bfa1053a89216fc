// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel Branch Trace Store: 24-byte {from, to, misc} records in the AUX area. Per-thread
 * only (the driver traces one task), no AUX sampling.
 */
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>

#include <internal/auxtrace-info.h>
#include <internal/auxtrace-backend.h>
#include <internal/lib.h>

/* One branch record: the driver never writes a partial one at the end of the buffer. */
#define INTEL_BTS_RECORD_SIZE 24

static const struct auxtrace_size_rules intel_bts_sizes = {
	.min_full = 8 << 10,
	.min_overwrite = 4 << 10,
};

static int intel_bts_recording_options(struct auxtrace_record *itr, struct evlist *evlist,
				       struct auxtrace_opts *opts)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	int err;

	if (opts->auxtrace_sample_mode) {
		pr_err("intel_bts: AUX area sampling is not supported: use intel_pt, or record "
		       "the whole trace\n");
		return -EINVAL;
	}
	if (auxtrace_evlist__per_cpu(evlist)) {
		pr_err("intel_bts: per-CPU recording is not supported: trace a workload or "
		       "threads (-- CMD, -p, -t) rather than CPUs (-a, -C)\n");
		return -EINVAL;
	}
	err = auxtrace_backend__options(be, evlist, opts, &intel_bts_sizes);
	if (err)
		return err;
	return auxtrace_backend__add_tracking(be, evlist, false);
}

static size_t intel_bts_info_priv_size(struct auxtrace_record *itr, struct evlist *evlist)
{
	(void)itr;
	(void)evlist;
	return INTEL_BTS_PRIV_NR * sizeof(uint64_t);
}

static int intel_bts_info_fill(struct auxtrace_record *itr, struct evlist *evlist,
			       struct perf_record_auxtrace_info *info, size_t priv_size)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	struct auxtrace_time_conv tc;
	int err;

	err = auxtrace_backend__check_priv_size(be, intel_bts_info_priv_size(itr, evlist),
						priv_size);
	if (!err)
		err = be->time_conv(be, evlist, &tc);
	if (err)
		return err;
	info->type = PERF_AUXTRACE_INTEL_BTS;
	info->priv[INTEL_BTS_PMU_TYPE] = perf_pmu__type(itr->pmu);
	info->priv[INTEL_BTS_TIME_SHIFT] = tc.time_shift;
	info->priv[INTEL_BTS_TIME_MULT] = tc.time_mult;
	info->priv[INTEL_BTS_TIME_ZERO] = tc.time_zero;
	info->priv[INTEL_BTS_CAP_USER_TIME_ZERO] = tc.cap_user_time_zero;
	info->priv[INTEL_BTS_SNAPSHOT_MODE] = be->snapshot_mode;
	return 0;
}

const struct auxtrace_record intel_bts_record_ops = {
	.recording_options = intel_bts_recording_options,
	.info_priv_size = intel_bts_info_priv_size,
	.info_fill = intel_bts_info_fill,
	.find_snapshot = auxtrace_backend__find_snapshot_tail,
	.reference = auxtrace_reference__tsc,
	.alignment = INTEL_BTS_RECORD_SIZE,
};
