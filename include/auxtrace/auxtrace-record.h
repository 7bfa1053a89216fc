/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Recording backends for the AUX area (struct auxtrace_record in auxtrace.h), and with
 * auxtrace-opts.h the options a perf-like recorder parses for them.
 *
 * A session picks its backend from the evlist, lets it complete the options, maps the
 * evlist, then writes PERF_RECORD_AUXTRACE_INFO:
 *
 *	struct auxtrace_opts opts;
 *	struct auxtrace_record *itr;
 *	int err;
 *
 *	auxtrace_opts__init(&opts);
 *	auxtrace_opts__parse_mmap_pages(&opts, ",1M");		// -m ,1M
 *	itr = auxtrace_record__init(evlist, NULL, &err);	// NULL, err 0: no AUX event
 *	if (!itr && err)
 *		fail();
 *	auxtrace_opts__parse_snapshot(itr, &opts, "e");		// -Se (optional)
 *	auxtrace_record__options(itr, evlist, &opts);		// sizes, AUX event first
 *	evlist__open(evlist), then map data rings and AUX areas (auxtrace.h);
 *	info = auxtrace_record__info_new(itr, evlist);		// PERF_RECORD_AUXTRACE_INFO
 *	...
 *	auxtrace_record__free(itr);
 *
 * Every auxtrace_record__* wrapper accepts itr == NULL (a session without AUX events) and
 * then does nothing and returns 0, except the AUXTRACE_INFO ones, which fail: there is
 * nothing to describe.
 */
#ifndef AUXTRACE_AUXTRACE_RECORD_H
#define AUXTRACE_AUXTRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-opts.h>
#include <auxtrace/auxtrace-pmu.h>
#include <auxtrace/event.h>
#include <auxtrace/evlist.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * auxtrace_pmu__default_terms() returns perf's default terms for the events of an AUX PMU, in
 * the shape of parse_events_opts.default_terms (auxtrace/parse-events.h): the event string's
 * own terms come after them and override them, so "intel_pt//u" records what perf records and
 * "intel_pt/cyc,mtc=0/u" changes just those two. Intel PT: "tsc,mtc,mtc_period=M,
 * psb_period=P,pt,branch", each term only where the PMU has its format file and caps offer it
 * (M and P the caps' values nearest 3); Arm SPE: its minimum interval as the period
 * ("period=1024"). NULL for the other PMUs: Intel BTS has no defaults, and CoreSight's
 * (timestamp, contextid) and SPE's ts_enable depend on the session, so auxtrace_record__options
 * sets them where the string left them alone. ctx must point to a struct auxtrace_pmu_terms,
 * which holds the returned string until the next call:
 *
 *	struct auxtrace_pmu_terms terms;
 *	AUXTRACE_OPTS(parse_events_opts, opts, .default_terms = auxtrace_pmu__default_terms,
 *		      .ctx = &terms);
 *
 * (A caller with a new_evsel hook and a ctx of its own calls this from its own default_terms
 * hook.)
 */
struct auxtrace_pmu_terms {
	char str[128];
};
/*
 * auxtrace_pmu__default_terms() (see above) returns the terms in ctx's str (borrowed until
 * the next call with ctx), or NULL: no defaults for pmu, or pmu or ctx NULL. Cannot fail.
 */
AUXTRACE_API const char *auxtrace_pmu__default_terms(const struct perf_pmu *pmu, void *ctx);

/*
 * auxtrace_record__init() returns the backend for the AUX events of evlist (borrowed: it
 * must outlive the backend), the caller's (auxtrace_record__free). Their attr.type is
 * looked up among the PMUs of sysfs_root (NULL: the real sysfs, or $AUXTRACE_SYSFS). No
 * AUX event: NULL with *err = 0.
 * Events of two AUX PMUs ("intel_pt and intel_bts may not be used together"), or a PMU
 * that cannot be read: NULL with *err = -errno (and errno), the cause logged.
 */
AUXTRACE_API struct auxtrace_record *auxtrace_record__init(struct evlist *evlist,
							   const char *sysfs_root, int *err);
/* auxtrace_record__free() frees the backend (NULL: nothing). */
AUXTRACE_API void auxtrace_record__free(struct auxtrace_record *itr);
/*
 * auxtrace_record__pmu_name() returns the backend's PMU name ("intel_pt", "arm_spe_0"),
 * borrowed; NULL for itr == NULL.
 */
AUXTRACE_API const char *auxtrace_record__pmu_name(const struct auxtrace_record *itr);

/*
 * auxtrace_record__options() validates and completes opts and the evlist for recording: the one
 * AUX event of the PMU gets needs_auxtrace_mmap, sample_period 1 (SPE: its minimum interval),
 * the AUX sizes (defaults: 4 MiB when privileged; else 128 KiB AUX and a 256 KiB data ring),
 * the wakeup watermark (a quarter of the AUX area in full-trace mode), a side-band tracking
 * event, and moves to the front of the evlist. Made by parse_events(), it gets the PMU's
 * default terms (auxtrace_pmu__default_terms) in the config bits its string did not set, as
 * perf's parser gives them; made from an attr, its config stays the caller's. In a per-CPU
 * session it also gets what decoding several tasks of a CPU needs, unless its event string
 * (parse_events) set the term itself: CoreSight timestamp and contextid, Arm SPE ts_enable.
 * Returns 0 or -errno (-EINVAL with the rule logged).
 */
AUXTRACE_API int auxtrace_record__options(struct auxtrace_record *itr, struct evlist *evlist,
					  struct auxtrace_opts *opts);

/*
 * PERF_RECORD_AUXTRACE_INFO as perf 6.1 reads it. The time conversion comes from the
 * control page of the evlist's first data ring, so map the evlist first. -EINVAL when
 * nothing is mapped or the kernel offers no TSC conversion (time_mult 0 would make perf
 * divide by zero). __info_new allocates the whole record (free() it); NULL + errno.
 */
/* auxtrace_record__info_priv_size() returns the bytes of its priv[] (0 for itr NULL). */
AUXTRACE_API size_t auxtrace_record__info_priv_size(struct auxtrace_record *itr,
						    struct evlist *evlist);
/*
 * auxtrace_record__info_fill() fills info's type and priv (priv_size bytes, as
 * __info_priv_size gave). Returns 0 or -EINVAL (itr NULL, a priv_size mismatch, see above).
 */
AUXTRACE_API int auxtrace_record__info_fill(struct auxtrace_record *itr, struct evlist *evlist,
					    struct perf_record_auxtrace_info *info,
					    size_t priv_size);
/*
 * auxtrace_record__info_new() returns the whole record, the caller's (free() it); NULL +
 * errno: EINVAL (see above), E2BIG (over 64 KiB), ENOMEM.
 */
AUXTRACE_API struct perf_record_auxtrace_info *
auxtrace_record__info_new(struct auxtrace_record *itr, struct evlist *evlist);

/*
 * auxtrace_record__set_filter() sets the Intel PT address filter string to record in
 * AUXTRACE_INFO (the one applied to the event with evsel__apply_filter; copied); NULL
 * clears it. Returns 0 or -errno: ENOMEM, EINVAL for an itr auxtrace_record__init did not make.
 */
AUXTRACE_API int auxtrace_record__set_filter(struct auxtrace_record *itr, const char *filter);

/*
 * Snapshot trigger: __snapshot_start stops the AUX event (ioctls only: callable from a
 * signal handler, which should save and restore errno around it), __snapshot_finish
 * restarts it after the copy.
 */
/* auxtrace_record__snapshot_start() stops the AUX event. Returns 0 or the ioctl's -errno. */
AUXTRACE_API int auxtrace_record__snapshot_start(struct auxtrace_record *itr);
/* auxtrace_record__snapshot_finish() restarts it. Returns 0 or the ioctl's -errno. */
AUXTRACE_API int auxtrace_record__snapshot_finish(struct auxtrace_record *itr);
/*
 * auxtrace_record__find_snapshot() normalises *head and *old, overwrite-mode positions of
 * mm's data, with the backend's wrap rule (struct auxtrace_record); untouched without
 * one. Returns 0 or the backend's -errno.
 */
AUXTRACE_API int auxtrace_record__find_snapshot(struct auxtrace_record *itr, int idx,
						struct auxtrace_mmap *mm, unsigned char *data,
						uint64_t *head, uint64_t *old);
/*
 * auxtrace_record__reference() returns the 64-bit cookie for the next PERF_RECORD_AUXTRACE
 * (the TSC for PT/BTS; 0 without one).
 */
AUXTRACE_API uint64_t auxtrace_record__reference(struct auxtrace_record *itr);
/* auxtrace_record__alignment() returns the record granularity (BTS: 24); 0: none. */
AUXTRACE_API unsigned int auxtrace_record__alignment(const struct auxtrace_record *itr);

/*
 * auxtrace_record__read_finish(), after a full-trace read of mmap idx, enables the AUX
 * event again on that idx (the CPU of
 * a per-CPU session, the thread of a per-thread one), since drivers stop it when the
 * area fills up. Not while the user has it disabled (__set_user_disabled). Returns 0 or
 * the ioctl's -errno.
 */
AUXTRACE_API int auxtrace_record__read_finish(struct auxtrace_record *itr, int idx);
/*
 * auxtrace_record__set_user_disabled() says whether the user disabled the AUX event:
 * read_finish leaves it disabled while so.
 */
AUXTRACE_API void auxtrace_record__set_user_disabled(struct auxtrace_record *itr,
						     bool disabled);

#ifdef __cplusplus
}
#endif
#endif
