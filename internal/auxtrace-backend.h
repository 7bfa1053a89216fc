/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The AUX recording backend interface, its shared code in auxtrace-backend.c: what the
 * backends (auxtrace/intel-pt-record.c, intel-bts-record.c, arm-spe-record.c,
 * cs-etm-record.c) share: one state struct embedding struct auxtrace_record, the option
 * rules they have in common, the time conversion for AUXTRACE_INFO, and the two snapshot
 * wrap rules. Not installed.
 */
#ifndef AUXTRACE_INTERNAL_AUXTRACE_BACKEND_H
#define AUXTRACE_INTERNAL_AUXTRACE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/pmu.h>

#include <internal/lib.h>

/*
 * TSC to perf time conversion as the kernel publishes it in the control page (the
 * AUXTRACE_INFO fields, and for PERF_RECORD_TIME_CONV also the short-counter ones).
 */
struct auxtrace_time_conv {
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	bool cap_user_time_zero;
	bool cap_user_time_short;
};

/*
 * Intel PT's snapshot reference of one mmap idx: a copy of the ref_size bytes that lay
 * before head at the previous snapshot, and where they lie in the len-byte buffer.
 */
struct auxtrace_snapshot_ref {
	unsigned char *buf;
	size_t offset;
	size_t len;
};

struct auxtrace_backend {
	struct auxtrace_record itr;	/* hooks copied from the backend's template */
	struct evsel *evsel;		/* the AUX event, found by recording_options */
	bool snapshot_mode;
	bool per_cpu;			/* per-CPU mmaps (not per-thread) */
	bool user_disabled;		/* read_finish leaves the event alone */
	int have_sched_switch;		/* Intel PT: 0 none, 2 per-task, 3 CPU-wide switch records */
	char *filter;			/* Intel PT address filter for AUXTRACE_INFO */
	bool *wrapped;			/* per mmap idx: the overwrite buffer has wrapped (sticky) */
	int nr_wrapped;
	/* Intel PT: bytes of the per-idx snapshot reference (0: the sticky flag instead). */
	size_t snapshot_ref_size;
	struct auxtrace_snapshot_ref *refs;	/* [nr_refs] */
	int nr_refs;
	/* Where AUXTRACE_INFO's time conversion comes from: auxtrace_backend__time_conv,
	 * or a test's stand-in for a kernel that publishes one. */
	int (*time_conv)(struct auxtrace_backend *be, struct evlist *evlist,
			 struct auxtrace_time_conv *tc);
};

static inline struct auxtrace_backend *auxtrace_backend(struct auxtrace_record *itr)
{
	return container_of(itr, struct auxtrace_backend, itr);
}

/* Per-CPU mmaps: the user asked for CPUs, not just threads. */
static inline bool auxtrace_evlist__per_cpu(const struct evlist *evlist)
{
	return !perf_cpu_map__is_any_cpu_or_is_empty(evlist__user_cpus(evlist));
}

static inline const char *auxtrace_backend__name(const struct auxtrace_backend *be)
{
	return perf_pmu__name(be->itr.pmu);
}

/*
 * Each backend's own hooks (options, AUXTRACE_INFO, find_snapshot, reference, alignment);
 * auxtrace_record__init() copies one into a new backend and adds the shared hooks below.
 */
extern const struct auxtrace_record intel_pt_record_ops;
extern const struct auxtrace_record intel_bts_record_ops;
extern const struct auxtrace_record arm_spe_record_ops;
extern const struct auxtrace_record cs_etm_record_ops;

/*
 * The caller's opts (filled by auxtrace_opts__init()) into o, a whole struct of this
 * version, by the rule of libauxtrace__opts_copy: a call works on o and hands it back with
 * libauxtrace__opts_store only when it succeeds. 0 or -EINVAL (logged).
 */
int auxtrace_opts__load(const struct auxtrace_opts *opts, struct auxtrace_opts *o);

/* The backend's PMU name, or NULL: inline, so option parsing needs no record code. */
static inline const char *auxtrace_itr__pmu_name(const struct auxtrace_record *itr)
{
	return itr && itr->pmu ? perf_pmu__name(itr->pmu) : NULL;
}

/*
 * Options every backend applies. Sizes: AUX defaults and the minimum AUX bytes by mode.
 */
struct auxtrace_size_rules {
	size_t min_full;		/* full-trace mode */
	size_t min_overwrite;		/* snapshot and sample modes */
	size_t default_sample_size;	/* --aux-sample without a size */
};

/* Default and validate opts' AUX/data pages and snapshot size for the PMU `name`. */
int auxtrace_backend__sizes(const char *name, struct auxtrace_opts *opts,
			    const struct auxtrace_size_rules *rules);
/* be->evsel = the one event of the backend's PMU in evlist; -EINVAL (logged) for 0 or 2+. */
int auxtrace_backend__find_evsel(struct auxtrace_backend *be, struct evlist *evlist);
/*
 * The common part of recording_options: find the one AUX event of the backend's PMU, mark
 * it (needs_auxtrace_mmap, freq 0, sample_period 1, CPU sample bit per-CPU), sizes,
 * aux_watermark, move it to the front.
 */
int auxtrace_backend__options(struct auxtrace_backend *be, struct evlist *evlist,
			      struct auxtrace_opts *opts, const struct auxtrace_size_rules *rules);
/*
 * Add the side-band event decoders need: mmap, comm and task records, time stamped, and
 * context switches when switch_events. Follows the AUX event's kernel/user exclusion.
 */
int auxtrace_backend__add_tracking(struct auxtrace_backend *be, struct evlist *evlist,
				   bool switch_events);
/* Mask of a format term's lowest bit ("tsc" -> 1 << 10); 0 when the PMU lacks it. */
uint64_t auxtrace_backend__format_bit(const struct auxtrace_backend *be, const char *term);
/* Mask of all bits of a format term; 0 when the PMU lacks it. */
uint64_t auxtrace_backend__format_mask(const struct auxtrace_backend *be, const char *term);
/* The value of term in config (0 when the PMU lacks it). */
uint64_t auxtrace_backend__config_value(const struct auxtrace_backend *be, const char *term,
					uint64_t config);
/*
 * A default that depends on the session: term (a term of config) of the AUX event set to
 * value, unless its event string set any of the term's bits. Nothing when the PMU lacks it.
 */
void auxtrace_backend__set_config_if_unset(struct auxtrace_backend *be, const char *term,
					   uint64_t value);
/* The same for evsel of pmu, before a backend has taken it. */
void auxtrace_evsel__set_config_if_unset(const struct perf_pmu *pmu, struct evsel *evsel,
					 const char *term, uint64_t value);

/*
 * perf's default terms for the events of an Intel PT or Arm SPE PMU, as a term list into
 * buf: its length (0: none), or -ENOSPC when size is too small.
 */
int intel_pt_default_terms(const struct perf_pmu *pmu, char *buf, size_t size);
int arm_spe_default_terms(const struct perf_pmu *pmu, char *buf, size_t size);

/* A consistent copy of pc's time fields (the page's seqlock). -EINVAL when time_mult is 0. */
int auxtrace_time_conv__from_userpg(const struct perf_event_mmap_page *pc,
				    struct auxtrace_time_conv *tc);
/* The same from the first data ring of evlist; errors name the PMU and the fix. */
int auxtrace_backend__time_conv(struct auxtrace_backend *be, struct evlist *evlist,
				struct auxtrace_time_conv *tc);
/* info_fill's guard: -EINVAL (logged) when the caller's priv_size is not the expected one. */
int auxtrace_backend__check_priv_size(struct auxtrace_backend *be, size_t expected,
				      size_t priv_size);

/* Shared hooks. parse_snapshot_options takes -S's SIZE (after the generic 'e'). */
int auxtrace_backend__parse_snapshot_options(struct auxtrace_record *itr,
					     struct auxtrace_opts *opts, const char *str);
void auxtrace_backend__free(struct auxtrace_record *itr);
int auxtrace_backend__snapshot_start(struct auxtrace_record *itr);
int auxtrace_backend__snapshot_finish(struct auxtrace_record *itr);
int auxtrace_backend__read_finish(struct auxtrace_record *itr, int idx);
uint64_t auxtrace_reference__tsc(struct auxtrace_record *itr);
uint64_t auxtrace_reference__monotonic_raw(struct auxtrace_record *itr);

/*
 * Snapshot wrap rules on a plain buffer of len bytes (the AUX area of mmap idx). Without a
 * reference the flag per idx is sticky: once a buffer wrapped, every later snapshot takes
 * it whole.
 *
 * Tail rule (Intel PT, BTS): wrapped when a u64 in the last min(4 KiB, len) bytes is not
 * zero (the kernel hands out zeroed pages). Wrapped: old = head, head += len. Else old is
 * reduced modulo len, and head += len if old > head.
 * With be->snapshot_ref_size (Intel PT with large snapshots, smaller than len) the test is
 * made afresh each time against a reference window, the buffer's last ref_size bytes at
 * first (zeroed, as the kernel hands them out), then the ref_size bytes before the head of
 * the previous snapshot: wrapped since that snapshot when head is now strictly inside the
 * window or its bytes changed, as the writer came round to it again. After the test the
 * window moves to the ref_size bytes before head.
 *
 * Head rule (Arm SPE, CoreSight): wrapped when head >= len (a driver whose head keeps
 * counting), or a u64 in the last 512 bytes, from head on if head is inside them, is not
 * zero. Not wrapped: untouched. Wrapped: head >= len gives old = head - len; else
 * head += len and old = head - len.
 */
int auxtrace_snapshot__tail_rule(struct auxtrace_backend *be, int idx,
				 const unsigned char *data, size_t len,
				 uint64_t *head, uint64_t *old);
int auxtrace_snapshot__head_rule(struct auxtrace_backend *be, int idx,
				 const unsigned char *data, size_t len,
				 uint64_t *head, uint64_t *old);
/* The find_snapshot hooks: the rules above on mm's AUX area. */
int auxtrace_backend__find_snapshot_tail(struct auxtrace_record *itr, int idx,
					 struct auxtrace_mmap *mm, unsigned char *data,
					 uint64_t *head, uint64_t *old);
int auxtrace_backend__find_snapshot_head(struct auxtrace_record *itr, int idx,
					 struct auxtrace_mmap *mm, unsigned char *data,
					 uint64_t *head, uint64_t *old);

#endif
