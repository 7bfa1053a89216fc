// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel Processor Trace: its recording options (config terms checked against the CPU's
 * caps files), snapshot and sample sizes, and AUXTRACE_INFO as perf 6.1's decoder reads it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>

#include <internal/auxtrace-info.h>
#include <internal/auxtrace-backend.h>
#include <internal/lib.h>

static const struct auxtrace_size_rules intel_pt_sizes = {
	.min_full = 8 << 10,
	.min_overwrite = 4 << 10,
	.default_sample_size = 4096,
};

/*
 * Config terms the CPU may not support: a feature cap that must not be 0 when the term is
 * non-zero, and for multi-valued terms a caps bitmap of the values it takes.
 */
static const struct intel_pt_cap_term {
	const char *term;
	const char *feature_cap;
	const char *values_cap;
} intel_pt_cap_terms[] = {
	{ "cyc",	"psb_cyc", NULL },
	{ "mtc",	"mtc",     NULL },
	{ "cyc_thresh",	"psb_cyc", "cycle_thresholds" },
	{ "mtc_period",	"mtc",     "mtc_periods" },
	{ "psb_period",	"psb_cyc", "psb_periods" },
};

/* A caps file of the intel_pt PMU: hex without "0x". -ENOENT when the kernel lacks it. */
static int intel_pt_cap(struct auxtrace_backend *be, const char *cap, uint64_t *val)
{
	return perf_pmu__cap_u64(be->itr.pmu, cap, 16, val);
}

static void intel_pt_list_values(uint64_t bitmap, char *buf, size_t size)
{
	size_t len = 0;
	int v;

	buf[0] = '\0';
	for (v = 0; v < 64 && len < size; v++) {
		if (bitmap & (1ULL << v))
			len += snprintf(buf + len, size - len, "%s%d", len ? "," : "", v);
	}
}

static int intel_pt_check_term(struct auxtrace_backend *be, const struct intel_pt_cap_term *t,
			       uint64_t config)
{
	uint64_t val = auxtrace_backend__config_value(be, t->term, config);
	uint64_t feature, bitmap;
	char valid[200];

	if (!auxtrace_backend__format_mask(be, t->term))
		return 0;
	if (!intel_pt_cap(be, t->feature_cap, &feature) && !feature) {
		if (!val)
			return 0;
		pr_err("intel_pt: %s is not supported by this CPU (caps/%s is 0): remove it from "
		       "the event\n", t->term, t->feature_cap);
		return -EINVAL;
	}
	if (!t->values_cap || intel_pt_cap(be, t->values_cap, &bitmap))
		return 0;
	if (val < 64 && (bitmap & (1ULL << val)))
		return 0;
	intel_pt_list_values(bitmap, valid, sizeof(valid));
	pr_err("intel_pt: %s=%llu is not valid on this CPU; valid values (caps/%s): %s\n",
	       t->term, (unsigned long long)val, t->values_cap, valid);
	return -EINVAL;
}

static int intel_pt_check_config(struct auxtrace_backend *be)
{
	struct perf_event_attr *attr = evsel__attr(be->evsel);
	uint64_t pt = auxtrace_backend__format_bit(be, "pt");
	size_t i;

	/* pt=0 would make the kernel refuse the event with a bare EINVAL. */
	if (pt && !(attr->config & pt)) {
		pr_warn("intel_pt: pt=0 makes no sense, recording with pt=1\n");
		attr->config |= pt;
	}
	for (i = 0; i < ARRAY_SIZE(intel_pt_cap_terms); i++) {
		int err = intel_pt_check_term(be, &intel_pt_cap_terms[i], attr->config);

		if (err)
			return err;
	}
	return 0;
}

/* The value of a caps bitmap nearest target: the highest at or below it, else the lowest. */
static int intel_pt_nearest_value(uint64_t bitmap, int target)
{
	int v;

	for (v = target; v >= 0; v--) {
		if (bitmap & (1ULL << v))
			return v;
	}
	for (v = target + 1; v < 64; v++) {
		if (bitmap & (1ULL << v))
			return v;
	}
	return -1;
}

/* Append a term to the list in buf; false when it does not fit. */
__printf(4, 5)
static bool intel_pt_add_term(char *buf, size_t size, int *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len) {
		if ((size_t)*len + 1 >= size)
			return false;
		buf[(*len)++] = ',';
		buf[*len] = '\0';
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *len)
		return false;
	*len += n;
	return true;
}

static bool intel_pt_has_term(const struct perf_pmu *pmu, const char *term)
{
	struct perf_pmu_format fmt;

	return !perf_pmu__format(pmu, term, &fmt);
}

/*
 * perf's default terms: time stamps (tsc), timing packets every 2^3 crystal clocks (mtc,
 * mtc_period) and PSB packets every 2^(3+11) bytes (psb_period), at the values nearest 3
 * that caps allow, and pt,branch, so that the trace decodes into branches. A cap file the
 * kernel lacks counts as support (caps/mtc, caps/psb_cyc) or as no values (the bitmaps);
 * as in perf, psb_period comes only with mtc_period. Each term only where the PMU has its
 * format file.
 */
int intel_pt_default_terms(const struct perf_pmu *pmu, char *buf, size_t size)
{
	uint64_t mtc = 1, mtc_periods = 0, psb_cyc = 1, psb_periods = 0;
	bool fits = true;
	int len = 0;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	if (intel_pt_has_term(pmu, "tsc"))
		fits &= intel_pt_add_term(buf, size, &len, "tsc");
	perf_pmu__cap_u64(pmu, "mtc", 16, &mtc);
	if (mtc)
		perf_pmu__cap_u64(pmu, "mtc_periods", 16, &mtc_periods);
	if (mtc_periods && intel_pt_has_term(pmu, "mtc") && intel_pt_has_term(pmu, "mtc_period"))
		fits &= intel_pt_add_term(buf, size, &len, "mtc,mtc_period=%d",
					  intel_pt_nearest_value(mtc_periods, 3));
	perf_pmu__cap_u64(pmu, "psb_cyc", 16, &psb_cyc);
	if (psb_cyc && mtc_periods)
		perf_pmu__cap_u64(pmu, "psb_periods", 16, &psb_periods);
	if (psb_periods && intel_pt_has_term(pmu, "psb_period"))
		fits &= intel_pt_add_term(buf, size, &len, "psb_period=%d",
					  intel_pt_nearest_value(psb_periods, 3));
	if (intel_pt_has_term(pmu, "pt") && intel_pt_has_term(pmu, "branch"))
		fits &= intel_pt_add_term(buf, size, &len, "pt,branch");
	return fits ? len : -ENOSPC;
}

/* The kernel routes at most one aux_output event (PEBS via PT) into the trace. */
static int intel_pt_check_aux_output(struct evlist *evlist)
{
	struct evsel *evsel;
	int nr = 0;

	evlist__for_each_entry(evlist, evsel)
		nr += evsel__attr(evsel)->aux_output;
	if (nr <= 1)
		return 0;
	pr_err("intel_pt: %d events have aux-output, at most one may\n", nr);
	return -EINVAL;
}

/* Bytes between PSB packets: what a snapshot must exceed to hold a decodable start. */
static uint64_t intel_pt_psb_bytes(struct auxtrace_backend *be)
{
	uint64_t topa_multi, val;

	if (intel_pt_cap(be, "topa_multiple_entries", &topa_multi) || !topa_multi)
		return 256;
	val = auxtrace_backend__config_value(be, "psb_period", evsel__attr(be->evsel)->config);
	return val < 40 ? 1ULL << (val + 11) : UINT64_MAX;
}

/*
 * Bytes of the window that tells whether a snapshot buffer wrapped again since the last
 * snapshot (perf's rule): two PSB periods, at most 256 KiB. None, so that the sticky test
 * applies, when the snapshot size asked with -S is 64 KiB or less or was left to the
 * default, or when the window would not be smaller than the area and half a snapshot.
 */
static size_t intel_pt_snapshot_ref_size(struct auxtrace_backend *be, size_t asked,
					 size_t aux_bytes)
{
	uint64_t psb = intel_pt_psb_bytes(be);
	size_t ref = psb > (128 << 10) ? 256 << 10 : 2 * psb;

	if (asked <= 64 << 10 || ref >= aux_bytes || ref >= asked / 2)
		return 0;
	return ref;
}

static int intel_pt_recording_options(struct auxtrace_record *itr, struct evlist *evlist,
				      struct auxtrace_opts *opts)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	size_t asked_snapshot_size = opts->auxtrace_snapshot_size;
	const struct perf_event_attr *attr;
	bool switch_events;
	int err;

	if (opts->auxtrace_snapshot_mode && opts->auxtrace_sample_mode) {
		pr_err("intel_pt: snapshot mode (-S) and AUX area sampling cannot be used "
		       "together: choose one\n");
		return -EINVAL;
	}
	err = intel_pt_check_aux_output(evlist);
	if (!err)
		err = auxtrace_backend__options(be, evlist, opts, &intel_pt_sizes);
	if (!err)
		err = intel_pt_check_config(be);
	if (err)
		return err;

	if (opts->auxtrace_snapshot_mode &&
	    opts->auxtrace_snapshot_size <= intel_pt_psb_bytes(be) + 256)
		pr_warn("intel_pt: snapshot size %zu bytes may hold no PSB packet, so the "
			"snapshot may not decode: ask for more (-S<size>)\n",
			opts->auxtrace_snapshot_size);
	if (opts->auxtrace_snapshot_mode)
		be->snapshot_ref_size = intel_pt_snapshot_ref_size(be, asked_snapshot_size,
				(size_t)opts->auxtrace_mmap_pages * libauxtrace__page_size());

	/*
	 * With time stamps, per-CPU traces of user space need context switches to tell
	 * which task ran: CPU-wide ones when recording every task of the CPUs.
	 */
	attr = evsel__attr(be->evsel);
	switch_events = be->per_cpu && !attr->exclude_user &&
			(attr->config & auxtrace_backend__format_bit(be, "tsc"));
	if (!switch_events)
		be->have_sched_switch = 0;
	else if (perf_thread_map__pid(evlist__threads(evlist), 0) == -1)
		be->have_sched_switch = 3;
	else
		be->have_sched_switch = 2;
	return auxtrace_backend__add_tracking(be, evlist, switch_events);
}

/* Bytes of the filter string in priv: NUL-terminated, padded to 8; none without one. */
static size_t intel_pt_filter_bytes(const char *filter)
{
	size_t len = filter ? strlen(filter) : 0;

	return len ? (len + 1 + 7) & ~(size_t)7 : 0;
}

static size_t intel_pt_info_priv_size(struct auxtrace_record *itr, struct evlist *evlist)
{
	(void)evlist;
	return INTEL_PT_PRIV_NR * sizeof(uint64_t) +
	       intel_pt_filter_bytes(auxtrace_backend(itr)->filter);
}

/* CPUID leaf 0x15: the TSC / core crystal clock ratio that MTC packets need. */
static void intel_pt_tsc_ctc_ratio(uint64_t *n, uint64_t *d)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

#if defined(__x86_64__) || defined(__i386__)
	__get_cpuid(0x15, &eax, &ebx, &ecx, &edx);
#endif
	*n = ebx;
	*d = eax;
}

static int intel_pt_info_fill(struct auxtrace_record *itr, struct evlist *evlist,
			      struct perf_record_auxtrace_info *info, size_t priv_size)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	size_t filter_len = be->filter ? strlen(be->filter) : 0;
	struct auxtrace_time_conv tc;
	uint64_t *priv = info->priv;
	uint64_t ratio = 0;
	int err;

	err = auxtrace_backend__check_priv_size(be, intel_pt_info_priv_size(itr, evlist),
						priv_size);
	if (!err)
		err = be->time_conv(be, evlist, &tc);
	if (err)
		return err;
	perf_pmu__read_u64(itr->pmu, "max_nonturbo_ratio", 10, &ratio);

	info->type = PERF_AUXTRACE_INTEL_PT;
	priv[INTEL_PT_PMU_TYPE] = perf_pmu__type(itr->pmu);
	priv[INTEL_PT_TIME_SHIFT] = tc.time_shift;
	priv[INTEL_PT_TIME_MULT] = tc.time_mult;
	priv[INTEL_PT_TIME_ZERO] = tc.time_zero;
	priv[INTEL_PT_CAP_USER_TIME_ZERO] = tc.cap_user_time_zero;
	priv[INTEL_PT_TSC_BIT] = auxtrace_backend__format_bit(be, "tsc");
	priv[INTEL_PT_NORETCOMP_BIT] = auxtrace_backend__format_bit(be, "noretcomp");
	priv[INTEL_PT_HAVE_SCHED_SWITCH] = be->have_sched_switch;
	priv[INTEL_PT_SNAPSHOT_MODE] = be->snapshot_mode;
	priv[INTEL_PT_PER_CPU_MMAPS] = auxtrace_evlist__per_cpu(evlist);
	priv[INTEL_PT_MTC_BIT] = auxtrace_backend__format_bit(be, "mtc");
	priv[INTEL_PT_MTC_FREQ_BITS] = auxtrace_backend__format_mask(be, "mtc_period");
	intel_pt_tsc_ctc_ratio(&priv[INTEL_PT_TSC_CTC_N], &priv[INTEL_PT_TSC_CTC_D]);
	priv[INTEL_PT_CYC_BIT] = auxtrace_backend__format_bit(be, "cyc");
	priv[INTEL_PT_MAX_NONTURBO_RATIO] = ratio;
	priv[INTEL_PT_FILTER_STR_LEN] = filter_len;
	if (filter_len) {
		char *str = (char *)&priv[INTEL_PT_PRIV_NR];

		memset(str, 0, intel_pt_filter_bytes(be->filter));
		memcpy(str, be->filter, filter_len);
	}
	return 0;
}

const struct auxtrace_record intel_pt_record_ops = {
	.recording_options = intel_pt_recording_options,
	.info_priv_size = intel_pt_info_priv_size,
	.info_fill = intel_pt_info_fill,
	.find_snapshot = auxtrace_backend__find_snapshot_tail,
	.reference = auxtrace_reference__tsc,
	.default_aux_sample_size = 4096,
};
