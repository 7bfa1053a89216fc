/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The call depth of each thread, followed from the calls and returns the AUX decoders
 * synthesize, as perf keeps its thread stack for perf script's callindent field
 * (--call-trace, --call-ret-trace): a call pushes its return address; a return pops back to
 * the entry holding its target, and leaves the stack alone when none does.
 */
#ifndef AUXREC_SCRIPT_CALLS_H
#define AUXREC_SCRIPT_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct script_calls {
	struct script_thread_stack **buckets;	/* by tid, chained */
	size_t nr_buckets;
};

/* One branch of thread tid (flags: enum auxtrace_ip_flag). 0 or -ENOMEM. */
int script_calls__branch(struct script_calls *c, pid_t tid, uint32_t flags, uint64_t ip,
			 uint64_t addr, unsigned int insn_len);
/* The calls tid is in now. */
size_t script_calls__depth(const struct script_calls *c, pid_t tid);
void script_calls__exit(struct script_calls *c);

#endif
