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
};

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

int script_calls__branch(struct script_calls *c, pid_t tid, uint32_t flags, uint64_t ip,
			 uint64_t addr, unsigned int insn_len)
{
	struct script_thread_stack *s = script_calls__findnew(c, tid);

	if (!s)
		return -ENOMEM;
	if (flags & AUXTRACE_IP_FLAG_CALL) {
		/* a call to the next instruction (getting the ip) is no call */
		if (addr && ip + insn_len != addr)
			return script_thread_stack__push(s, ip + insn_len);
	} else if ((flags & AUXTRACE_IP_FLAG_RETURN) && ip) {
		script_thread_stack__pop(s, addr);
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
}
