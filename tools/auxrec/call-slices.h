/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The calls of each thread as slices over time, from the calls and returns the AUX decoders
 * synthesize (Intel PT, BTS): what auxrec convert writes as a thread's call track and the
 * HTML report draws as its flame chart. Streaming: a thread's open calls are all it keeps,
 * and each slice goes to the callback when it ends, innermost first.
 *
 * A call opens a frame (the function at its target, the return address after it); a return
 * to a frame's return address ends that frame and unwinds the frames inside it, whose
 * returns the trace did not show. Hardware trace starts and stops in the middle of a
 * program, so stacks are unbalanced both ways:
 *  - a return that no open frame expects leaves a function entered before the trace (or
 *    its thread's trace) began: a slice of the function returned from, from the thread's
 *    first branch to the return, around everything the thread did so far (PAST_START);
 *  - calls still open when the recording ends are ended at their thread's last branch
 *    (OPEN_AT_END).
 * A call to the next instruction (code reading its own address) is no call, as perf has it.
 */
#ifndef AUXREC_CALL_SLICES_H
#define AUXREC_CALL_SLICES_H

#include <stdint.h>
#include <sys/types.h>

struct auxtrace_sample;
struct perf_machine;

/* How a slice ended. */
enum call_slice_end {
	CALL_SLICE_RETURN,	/* its return */
	CALL_SLICE_UNWOUND,	/* a return to a frame further out */
	CALL_SLICE_PAST_START,	/* a return from a function entered before the trace */
	CALL_SLICE_OPEN_AT_END,	/* the recording ended inside it */
	CALL_SLICE_NR_ENDS
};

struct call_slice {
	pid_t pid, tid;
	uint64_t start, end;	/* ns on the recording's clock */
	unsigned int depth;	/* open frames outside it (a PAST_START slice: 0) */
	uint64_t addr;		/* the function: the call's target, or the ip returned from */
	const char *sym;	/* its symbol; NULL: none (the machine's, valid while it lives) */
	const char *dso;	/* its file; NULL: unmapped */
	enum call_slice_end how;
};

/* A slice ended: 0 to go on, or -errno that stops the walk. */
typedef int (*call_slice_fn)(void *ctx, const struct call_slice *slice);

struct call_slices_stats {
	uint64_t nr_calls, nr_returns;		/* branches followed */
	uint64_t nr_ends[CALL_SLICE_NR_ENDS];	/* slices, by how they ended */
	unsigned int max_depth;
};

struct call_slices;

/* Slices to fn(ctx, ...), symbols from m (borrowed; it follows the side-band). NULL: ENOMEM. */
struct call_slices *call_slices__new(struct perf_machine *m, call_slice_fn fn, void *ctx);
/*
 * One synthesized sample at time ns (its timeline time): calls open frames, returns end
 * them; other samples only move the thread's last time. 0 or -errno (ENOMEM, fn's).
 */
int call_slices__sample(struct call_slices *cs, const struct auxtrace_sample *sample,
			uint64_t time);
/* End every open frame at its thread's last time (OPEN_AT_END). 0 or fn's -errno. */
int call_slices__finish(struct call_slices *cs);
const struct call_slices_stats *call_slices__stats(const struct call_slices *cs);
void call_slices__delete(struct call_slices *cs);

#endif
