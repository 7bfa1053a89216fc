/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The priv[] words of PERF_RECORD_AUXTRACE_INFO as perf 6.1 lays them out, shared by the
 * recording backends that write them and the decoders that read them back.
 */
#ifndef AUXTRACE_INTERNAL_AUXTRACE_INFO_H
#define AUXTRACE_INTERNAL_AUXTRACE_INFO_H

/* PERF_AUXTRACE_INTEL_BTS. perf reads a record with at least the first five. */
enum {
	INTEL_BTS_PMU_TYPE,
	INTEL_BTS_TIME_SHIFT,
	INTEL_BTS_TIME_MULT,
	INTEL_BTS_TIME_ZERO,
	INTEL_BTS_CAP_USER_TIME_ZERO,
	INTEL_BTS_SNAPSHOT_MODE,
	INTEL_BTS_PRIV_NR,
};

/* PERF_AUXTRACE_INTEL_PT, then the address filter string (FILTER_STR_LEN bytes, NUL, padded
 * to 8). perf reads a record with at least the words before PER_CPU_MMAPS, and each later
 * one that is there. */
enum {
	INTEL_PT_PMU_TYPE,
	INTEL_PT_TIME_SHIFT,
	INTEL_PT_TIME_MULT,
	INTEL_PT_TIME_ZERO,
	INTEL_PT_CAP_USER_TIME_ZERO,
	INTEL_PT_TSC_BIT,		/* config masks of these terms, not bit numbers */
	INTEL_PT_NORETCOMP_BIT,
	INTEL_PT_HAVE_SCHED_SWITCH,
	INTEL_PT_SNAPSHOT_MODE,
	INTEL_PT_PER_CPU_MMAPS,
	INTEL_PT_MTC_BIT,
	INTEL_PT_MTC_FREQ_BITS,
	INTEL_PT_TSC_CTC_N,
	INTEL_PT_TSC_CTC_D,
	INTEL_PT_CYC_BIT,
	INTEL_PT_MAX_NONTURBO_RATIO,
	INTEL_PT_FILTER_STR_LEN,
	INTEL_PT_PRIV_NR,
};

#endif
