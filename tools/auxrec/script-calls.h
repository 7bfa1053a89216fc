/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The call depth of each thread, followed from the calls and returns the AUX decoders
 * synthesize, as perf keeps its thread stack for perf script's callindent field
 * (--call-trace, --call-ret-trace): a call pushes its return address; a return pops back to
 * the entry holding its target, and leaves the stack alone when none does. With BTS, perf
 * starts a thread's stack over with each AUX buffer (its trace number is the buffer's):
 * script_calls__buffer tells where buffers start.
 */
#ifndef AUXREC_SCRIPT_CALLS_H
#define AUXREC_SCRIPT_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct script_aux_queue;

struct script_calls {
	struct script_thread_stack **buckets;	/* by tid, chained */
	size_t nr_buckets;
	struct script_aux_queue *queues;	/* buffer starts, when the stacks follow them */
	size_t nr_queues;
};

struct auxtrace_sample;

/* An AUX buffer of the queue of cpu and tid starts at aux_offset. 0 or -ENOMEM. */
int script_calls__buffer(struct script_calls *c, int cpu, pid_t tid, uint64_t aux_offset);
/* One synthesized branch: its thread's stack follows it. 0 or -ENOMEM. */
int script_calls__branch(struct script_calls *c, const struct auxtrace_sample *sample);
/* The calls tid is in now. */
size_t script_calls__depth(const struct script_calls *c, pid_t tid);
void script_calls__exit(struct script_calls *c);

#endif
