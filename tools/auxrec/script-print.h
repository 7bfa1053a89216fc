/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One record of a recording into auxrec script's lines, as perf script prints it: a perf
 * sample (tracepoint fields through libtraceevent, callchains), a sample the AUX decoders
 * synthesized, a decode error. The caller feeds records in the order it wants them shown
 * (a perf_session's, or a merged stream's) and the machine their side-band.
 */
#ifndef AUXREC_SCRIPT_PRINT_H
#define AUXREC_SCRIPT_PRINT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <event-parse.h>

#include "script-calls.h"
#include "script-fields.h"
#include "script-addr-cache.h"
#include "script-line.h"

struct evlist;
struct evsel;
struct perf_machine;
struct perf_sample;
struct auxtrace_sample;
struct auxtrace_decode_error;

/* Lines gathered in memory, to be written later in their order (script-par.c). */
struct script_text {
	char *buf;
	size_t len, cap;
};

struct script_print {
	struct perf_machine *machine;	/* borrowed: comms, symbols */
	struct evlist *evlist;		/* borrowed: the width of the event names */
	struct tep_handle *tep;		/* script_print__set_tep; NULL: fields not shown */
	struct script_fields fields;
	bool ns;			/* --ns: times to the nanosecond */
	int dso_pad;			/* callindent's dso padded to this width (--call-trace) */
	FILE *out;
	/* A copy's (script_print__copy): synthesized samples' lines go here instead of out. */
	struct script_text *text;
	/* Set while copies format at once: the machine is looked up under it. */
	pthread_mutex_t *machine_lock;
	/* private */
	int name_width;
	int spacing;			/* callindent's column, as perf widens it */
	struct script_calls calls;
	struct trace_seq seq;
	struct script_line line;
	struct script_addr_cache addrs;	/* script_print__forget when the side-band changes */
	/* The last line's comm, pid/tid, [cpu] (at addrs.gen: the same side-band). */
	struct script_print_who {
		uint64_t gen;
		pid_t pid, tid;
		int cpu;
		unsigned int fields;
		bool chain;
		size_t len;		/* 0: none */
		char text[64];
	} who;
};

/* Set machine, evlist, fields, ns and out before; script_print__exit after. */
void script_print__init(struct script_print *p);
/*
 * The tracepoint formats (borrowed); with resolve, kernel addresses in their fields (%pS)
 * resolve through the machine's symbols, as perf's do in a file (perf 6.1 sets its resolver
 * up before a pipe's tracing data has come, and so shows a pipe's as numbers).
 */
void script_print__set_tep(struct script_print *p, struct tep_handle *tep, bool resolve);
void script_print__exit(struct script_print *p);
/*
 * dst prints as src (initialized) does, with caches of its own, its synthesized samples'
 * lines into dst->text (set before each use), looking the machine up under machine_lock:
 * copies format synthesized samples on threads of their own while nothing changes the
 * machine's processes. script_print__exit(dst) after.
 */
void script_print__copy(struct script_print *dst, struct script_print *src,
			pthread_mutex_t *machine_lock);
/* tid's comm, as perf_machine__comm, under p->machine_lock when set. */
const char *script_print__comm(struct script_print *p, pid_t tid);
/* A side-band record changed a process's mappings or name: what was printed may change. */
void script_print__forget(struct script_print *p);

/* A perf sample's line, and its callchain's. 0, or -errno from the write. */
int script_print__sample(struct script_print *p, struct evsel *evsel,
			 const struct perf_sample *sample);
/*
 * Follow a synthesized sample's branch into its thread's call depth (callindent): every one,
 * also those the selection or the branch filter leave out, as perf's thread stack sees
 * them. 0 or -ENOMEM.
 */
int script_print__follow(struct script_print *p, const struct auxtrace_sample *sample);
/*
 * An Intel BTS buffer of the AUX queue of cpu and tid starts at aux_offset: perf starts a
 * thread's call depth over with each (PT's go on across buffers). 0 or -ENOMEM.
 */
int script_print__bts_buffer(struct script_print *p, int cpu, pid_t tid, uint64_t aux_offset);
/* A synthesized branch or instruction sample of the AUX event evsel (p->text: its line there). */
int script_print__auxtrace_sample(struct script_print *p, struct evsel *evsel,
				  const struct auxtrace_sample *sample);
/* perf's line for PERF_RECORD_AUXTRACE_ERROR, and where in the AUX data it happened. */
int script_print__auxtrace_error(struct script_print *p,
				 const struct auxtrace_decode_error *err);

#endif
