/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Event strings, perf's syntax:
 *
 *   list     := item (',' item)*
 *   item     := event | '{' event (',' event)* '}' [':'] [modifiers]
 *   event    := pmu '/' [term (',' term)*] '/' [[':'] modifiers]
 *             | named ['/' [term (',' term)*] '/'] [':' modifiers]     cpu-clock, dummy, cycles
 *             | sys ':' event [':' modifiers]                          a tracepoint
 *             | sysglob ':' eventglob [':' modifiers]      every tracepoint that matches
 *   term     := name ['=' number]        a flag term alone means 1; numbers as strtoull base 0
 *   modifiers: u k h (count only these privilege levels: "u" sets exclude_kernel and
 *              exclude_hv), G H (guest / host only), p (precise_ip, up to 3), D (pinned),
 *              I (exclude_idle), e (exclusive).
 *
 * Terms of a PMU event are the PMU's sysfs format terms (their value is scattered into the
 * bits "config:0-7,32-35" names; a value wider than those bits is an error), its sysfs
 * event aliases (events/<alias>, itself a term list), and these attr terms: config,
 * config1, config2, config3 (the whole word), period / sample_period, freq, name,
 * aux-sample-size, aux-output, call-graph=fp|dwarf|lbr|no and stack-size=BYTES (perf's
 * per-event callchain). Named events and tracepoints take the attr terms only.
 * A group's leader is its first event; a group modifier applies to every member.
 * A tracepoint whose system or event has a glob character (* ? [) is every tracepoint that
 * tracepoints__for_each() matches, each an event of its own named "sys:event" (in a group,
 * each a member); none matching is an error naming the closest (tracepoints__closest()).
 *
 * The attr gets only what the string says, plus: type/config of the event, size, and for
 * a tracepoint sample_period 1 with PERF_SAMPLE_RAW (every hit is a sample with its
 * fields). Unlike perf, no exclude_guest by default: it comes from the H modifier only.
 */
#ifndef AUXTRACE_PARSE_EVENTS_H
#define AUXTRACE_PARSE_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <auxtrace/callchain.h>
#include <auxtrace/core.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What went wrong and where: msg names the cause and what would be valid. */
struct parse_events_error {
	int idx;		/* byte offset into the string; -1 when no position applies */
	char msg[512];
};

/* One parsed event. */
struct parse_events_event {
	struct perf_event_attr attr;
	char name[256];		/* the name= term, else the event as written (with modifiers) */
	char pmu[64];		/* its PMU; "" for named events and tracepoints */
	uint64_t user_config[4];	/* bits of config..config3 the string set itself */
	/*
	 * call-graph= and stack-size= terms: the callchain of this event, whatever a global
	 * one says; with has_callchain the attr is already configured for it
	 * (callchain_param__config, auxtrace/callchain.h). A stack-size= alone sets only
	 * callchain.dump_size, for a global dwarf callchain to use.
	 */
	struct callchain_param callchain;
	bool has_callchain;
};

struct parse_events_opts {
	size_t sz;			/* set by AUXTRACE_OPTS (auxtrace/core.h) */
	const char *sysfs_root;		/* NULL: libauxtrace's default (/sys, $AUXTRACE_SYSFS) */
	const char *tracefs_root;	/* NULL: where tracefs is mounted */
	/*
	 * A PMU's default terms, applied before the string's own, which override them; NULL
	 * or "" for none. Optional. auxtrace_pmu__default_terms (auxtrace/auxtrace-record.h)
	 * gives perf's for AUX PMUs ("tsc,mtc,mtc_period=3,psb_period=3,pt,branch").
	 */
	const char *(*default_terms)(const struct perf_pmu *pmu, void *ctx);
	/* Told about every evsel parse_events() made, before it is added. Optional; a
	 * negative return aborts the parse with that error. */
	int (*new_evsel)(struct evsel *evsel, const struct parse_events_event *event,
			 void *ctx);
	void *ctx;
};

/*
 * parse_events() parses str and adds its events to evlist (which owns them) as new evsels
 * (names set, PMU cpumask passed to evsel__set_pmu_cpus(), groups led by their first event;
 * each keeps the config bits its string set, which auxtrace_record__options' session defaults
 * leave alone). All or nothing: on an error no evsel is added. opts and err may be NULL.
 * Returns 0 or -errno: -EINVAL for a bad string, an unknown PMU or tracepoint (err filled
 * and the message logged at debug level) or opts the rule of option structs refuses
 * (auxtrace/core.h; err filled with idx -1), -ENOMEM, or a new_evsel hook's error.
 */
AUXTRACE_API int parse_events(struct evlist *evlist, const char *str,
			      const struct parse_events_opts *opts,
			      struct parse_events_error *err);

/*
 * parse_events__attr() parses one event (no list, no group) into *event, no evlist needed.
 * Returns 0 or -errno as parse_events.
 */
AUXTRACE_API int parse_events__attr(const char *str, const struct parse_events_opts *opts,
				    struct parse_events_event *event,
				    struct parse_events_error *err);

#ifdef __cplusplus
}
#endif
#endif
