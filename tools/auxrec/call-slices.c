// SPDX-License-Identifier: LGPL-2.1
/* The calls of each thread as slices over time (call-slices.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <auxtrace/decode.h>
#include <auxtrace/machine.h>
#include "call-slices.h"

#define CALL_SLICES_BUCKETS 1024

/* An open call: what its slice will say, and the address its return goes to. */
struct call_frame {
	uint64_t ret, addr, start;
	const char *sym, *dso;
};

struct call_thread {
	struct call_thread *next;
	pid_t pid, tid;
	uint64_t first, last;		/* its first and last branch */
	struct call_frame *frames;	/* innermost last */
	size_t depth, cap;
};

struct call_slices {
	struct perf_machine *machine;
	call_slice_fn fn;
	void *ctx;
	struct call_thread *buckets[CALL_SLICES_BUCKETS];
	struct call_slices_stats stats;
};

struct call_slices *call_slices__new(struct perf_machine *m, call_slice_fn fn, void *ctx)
{
	struct call_slices *cs = calloc(1, sizeof(*cs));

	if (cs) {
		cs->machine = m;
		cs->fn = fn;
		cs->ctx = ctx;
	}
	return cs;
}

static struct call_thread *call_slices__thread(struct call_slices *cs, pid_t pid, pid_t tid,
					       uint64_t time)
{
	struct call_thread **b = &cs->buckets[(unsigned int)tid % CALL_SLICES_BUCKETS], *t;

	for (t = *b; t && t->tid != tid; t = t->next)
		;
	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	*t = (struct call_thread){ .next = *b, .pid = pid, .tid = tid, .first = time,
				   .last = time };
	*b = t;
	return t;
}

/* The function at addr in pid's address space, as the slice will name it. */
static void call_slices__resolve(struct call_slices *cs, pid_t pid, uint64_t addr,
				 struct call_frame *f)
{
	struct perf_addr_location al = { .sz = sizeof(al) };

	perf_machine__resolve(cs->machine, pid, addr, &al);
	f->addr = addr;
	f->sym = al.sym;
	f->dso = al.dso;
}

static int call_slices__emit(struct call_slices *cs, const struct call_thread *t,
			     const struct call_frame *f, unsigned int depth, uint64_t end,
			     enum call_slice_end how)
{
	struct call_slice s = {
		.pid = t->pid, .tid = t->tid, .start = f->start, .end = end, .depth = depth,
		.addr = f->addr, .sym = f->sym, .dso = f->dso, .how = how,
	};

	cs->stats.nr_ends[how]++;
	return cs->fn(cs->ctx, &s);
}

/* End the frames from the innermost out to (and with) frame i: frame i how, those inside inner. */
static int call_thread__end(struct call_slices *cs, struct call_thread *t, size_t i,
			    uint64_t end, enum call_slice_end inner, enum call_slice_end how)
{
	int err = 0;

	while (!err && t->depth > i) {
		t->depth--;
		err = call_slices__emit(cs, t, &t->frames[t->depth], (unsigned int)t->depth, end,
					t->depth == i ? how : inner);
	}
	return err;
}

static int call_thread__call(struct call_slices *cs, struct call_thread *t,
			     const struct auxtrace_sample *sample, uint64_t time)
{
	struct call_frame *f;

	if (t->depth == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		struct call_frame *grown = reallocarray(t->frames, cap, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		t->frames = grown;
		t->cap = cap;
	}
	f = &t->frames[t->depth++];
	f->ret = sample->ip + sample->insn_len;
	f->start = time;
	call_slices__resolve(cs, sample->pid, sample->addr, f);
	if (t->depth > cs->stats.max_depth)
		cs->stats.max_depth = (unsigned int)t->depth;
	return 0;
}

/*
 * A return ends the innermost frame expecting its target; none does: the function it leaves
 * was entered before the thread's trace, and its slice holds all the thread did so far.
 */
static int call_thread__return(struct call_slices *cs, struct call_thread *t,
			       const struct auxtrace_sample *sample, uint64_t time)
{
	struct call_frame outer = { .start = t->first };
	int err;

	for (size_t i = t->depth; i > 0; i--)
		if (t->frames[i - 1].ret == sample->addr)
			return call_thread__end(cs, t, i - 1, time, CALL_SLICE_UNWOUND,
					       CALL_SLICE_RETURN);
	err = call_thread__end(cs, t, 0, time, CALL_SLICE_UNWOUND, CALL_SLICE_UNWOUND);
	if (err)
		return err;
	call_slices__resolve(cs, sample->pid, sample->ip, &outer);
	return call_slices__emit(cs, t, &outer, 0, time, CALL_SLICE_PAST_START);
}

int call_slices__sample(struct call_slices *cs, const struct auxtrace_sample *sample,
			uint64_t time)
{
	struct call_thread *t = call_slices__thread(cs, sample->pid, sample->tid, time);

	if (!t)
		return -ENOMEM;
	if (time > t->last)
		t->last = time;
	time = t->last;		/* a slice never ends before it starts */
	if (sample->kind != AUXTRACE_SAMPLE_BRANCH)
		return 0;
	if (sample->flags & AUXTRACE_IP_FLAG_CALL) {
		/* a call to the next instruction (getting the ip) is no call */
		if (!sample->addr || sample->ip + sample->insn_len == sample->addr)
			return 0;
		cs->stats.nr_calls++;
		return call_thread__call(cs, t, sample, time);
	}
	if (!(sample->flags & AUXTRACE_IP_FLAG_RETURN) || !sample->ip)
		return 0;
	cs->stats.nr_returns++;
	return call_thread__return(cs, t, sample, time);
}

int call_slices__finish(struct call_slices *cs)
{
	int err = 0;

	for (size_t b = 0; !err && b < CALL_SLICES_BUCKETS; b++)
		for (struct call_thread *t = cs->buckets[b]; !err && t; t = t->next)
			err = call_thread__end(cs, t, 0, t->last, CALL_SLICE_OPEN_AT_END,
					      CALL_SLICE_OPEN_AT_END);
	return err;
}

const struct call_slices_stats *call_slices__stats(const struct call_slices *cs)
{
	return &cs->stats;
}

void call_slices__delete(struct call_slices *cs)
{
	if (!cs)
		return;
	for (size_t b = 0; b < CALL_SLICES_BUCKETS; b++) {
		while (cs->buckets[b]) {
			struct call_thread *t = cs->buckets[b];

			cs->buckets[b] = t->next;
			free(t->frames);
			free(t);
		}
	}
	free(cs);
}
