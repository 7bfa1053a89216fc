// SPDX-License-Identifier: LGPL-2.1
/* The call depth of each thread (script-calls.h). */
#include <errno.h>
#include <stdlib.h>

#include <auxtrace/decode.h>
#include "script-calls.h"

#define SCRIPT_CALLS_BUCKETS 1024

struct script_thread_stack {
	struct script_thread_stack *next;
	pid_t tid;
	size_t depth, cap;
	uint64_t *ret;			/* return addresses, innermost last */
	size_t buffer;			/* the AUX buffer of its last branch, 1-based; 0: none */
};

/* One AUX queue's buffers, by where they start in its AUX stream (ascending). */
struct script_aux_queue {
	int cpu;
	pid_t tid;
	uint64_t *starts;
	size_t nr;
};

static struct script_aux_queue *script_calls__queue(const struct script_calls *c, int cpu,
						   pid_t tid)
{
	for (size_t i = 0; i < c->nr_queues; i++)
		if (c->queues[i].cpu == cpu && c->queues[i].tid == tid)
			return &c->queues[i];
	return NULL;
}

int script_calls__buffer(struct script_calls *c, int cpu, pid_t tid, uint64_t aux_offset)
{
	struct script_aux_queue *q = script_calls__queue(c, cpu, tid);
	uint64_t *starts;

	if (!q) {
		q = reallocarray(c->queues, c->nr_queues + 1, sizeof(*q));
		if (!q)
			return -ENOMEM;
		c->queues = q;
		q = &c->queues[c->nr_queues++];
		*q = (struct script_aux_queue){ .cpu = cpu, .tid = tid };
	}
	if (q->nr && aux_offset <= q->starts[q->nr - 1])
		return 0;	/* the stream only grows: a repeat (the pipe, a snapshot) */
	starts = reallocarray(q->starts, q->nr + 1, sizeof(*starts));
	if (!starts)
		return -ENOMEM;
	q->starts = starts;
	q->starts[q->nr++] = aux_offset;
	return 0;
}

/* Which buffer (1-based) of its queue the sample came from; 0 when no buffer is known. */
static size_t script_calls__buffer_of(const struct script_calls *c,
				      const struct auxtrace_sample *sample)
{
	const struct script_aux_queue *q = script_calls__queue(c, sample->cpu, sample->tid);
	size_t lo = 0, hi = q ? q->nr : 0;

	while (lo < hi) {	/* buffers starting at or before the sample */
		size_t mid = lo + (hi - lo) / 2;

		if (q->starts[mid] <= sample->aux_offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct script_thread_stack *script_calls__find(const struct script_calls *c, pid_t tid)
{
	struct script_thread_stack *s;

	if (!c->buckets)
		return NULL;
	for (s = c->buckets[(unsigned int)tid % c->nr_buckets]; s && s->tid != tid; s = s->next)
		;
	return s;
}

static struct script_thread_stack *script_calls__findnew(struct script_calls *c, pid_t tid)
{
	struct script_thread_stack *s = script_calls__find(c, tid);
	size_t b;

	if (s)
		return s;
	if (!c->buckets) {
		c->buckets = calloc(SCRIPT_CALLS_BUCKETS, sizeof(*c->buckets));
		if (!c->buckets)
			return NULL;
		c->nr_buckets = SCRIPT_CALLS_BUCKETS;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	b = (unsigned int)tid % c->nr_buckets;
	s->tid = tid;
	s->next = c->buckets[b];
	c->buckets[b] = s;
	return s;
}

static int script_thread_stack__push(struct script_thread_stack *s, uint64_t ret)
{
	if (s->depth == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		uint64_t *grown = reallocarray(s->ret, cap, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		s->ret = grown;
		s->cap = cap;
	}
	s->ret[s->depth++] = ret;
	return 0;
}

/* Back to below the innermost entry that returns to addr, if there is one. */
static void script_thread_stack__pop(struct script_thread_stack *s, uint64_t addr)
{
	for (size_t i = s->depth; i > 0; i--) {
		if (s->ret[i - 1] == addr) {
			s->depth = i - 1;
			return;
		}
	}
}

int script_calls__branch(struct script_calls *c, const struct auxtrace_sample *sample)
{
	struct script_thread_stack *s = script_calls__findnew(c, sample->tid);
	size_t buffer = script_calls__buffer_of(c, sample);

	if (!s)
		return -ENOMEM;
	if (buffer != s->buffer) {
		s->depth = 0;		/* a new trace: perf flushes the thread's stack */
		s->buffer = buffer;
	}
	if (sample->flags & AUXTRACE_IP_FLAG_CALL) {
		/* a call to the next instruction (getting the ip) is no call */
		if (sample->addr && sample->ip + sample->insn_len != sample->addr)
			return script_thread_stack__push(s, sample->ip + sample->insn_len);
	} else if ((sample->flags & AUXTRACE_IP_FLAG_RETURN) && sample->ip) {
		script_thread_stack__pop(s, sample->addr);
	}
	return 0;
}

size_t script_calls__depth(const struct script_calls *c, pid_t tid)
{
	const struct script_thread_stack *s = script_calls__find(c, tid);

	return s ? s->depth : 0;
}

void script_calls__exit(struct script_calls *c)
{
	for (size_t b = 0; c->buckets && b < c->nr_buckets; b++) {
		while (c->buckets[b]) {
			struct script_thread_stack *s = c->buckets[b];

			c->buckets[b] = s->next;
			free(s->ret);
			free(s);
		}
	}
	free(c->buckets);
	c->buckets = NULL;
	for (size_t i = 0; i < c->nr_queues; i++)
		free(c->queues[i].starts);
	free(c->queues);
	c->queues = NULL;
	c->nr_queues = 0;
}
