/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * sched_switch's fields through libtraceevent, for every command that follows which task ran
 * on a CPU: in a trace.dat's formats, or in the one format perf.data's tracing data holds for
 * its sched:sched_switch samples (their raw data).
 */
#ifndef AUXREC_SCHED_SWITCH_H
#define AUXREC_SCHED_SWITCH_H

#include <stddef.h>
#include <stdint.h>

struct tep_event;
struct tep_format_field;
struct tep_handle;

/* sched_switch's fields, found once in its format. */
struct switch_fields {
	struct tep_event *event;	/* NULL: not looked up yet, or not there */
	struct tep_format_field *prev_comm, *prev_pid, *next_comm, *next_pid;
};

/* sched_switch's fields in tep's formats; sw->event stays NULL without all four. */
void switch_fields__find(struct switch_fields *sw, struct tep_handle *tep);
/*
 * perf.data's tracing data (size bytes; NULL: none) holds each tracepoint's format as a u64
 * size and the text: sched_switch's, parsed alone into *tep (the caller's: tep_free), fills
 * sw. 0 (sw->event NULL when there is none), or -ENOMEM.
 */
int switch_fields__perf(struct switch_fields *sw, struct tep_handle **tep, const void *data,
			size_t size);

/* A field of a payload of size bytes as a number; -1 when it does not fit in the payload. */
long long tep_field__num(const struct tep_format_field *f, const void *data, uint32_t size);
/* A char[] field (comm) of a payload into buf, NUL-terminated. */
const char *tep_field__str(const struct tep_format_field *f, const void *data, uint32_t size,
			   char *buf, size_t bufsize);

#endif
