// SPDX-License-Identifier: LGPL-2.1
/*
 * The walk over a trace.dat's CPU data: each sub-buffer is checked the way the tracefs layer
 * checks one from the kernel (rb_page__check), and only then walked by libtraceevent's kbuffer,
 * the parser trace-cmd reads it with, so timestamps come out as trace-cmd report shows them.
 * Several CPUs merge by time as trace-cmd report merges them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <internal/lib.h>
#include "trace-dat-reader-internal.h"

struct td_walk {
	int cpu;
	const struct trace_dat_cpu_data *data;
	uint64_t next;			/* file offset of the next sub-buffer to load */
	uint64_t page;			/* file offset of the loaded one */
	struct kbuffer *kb;
	void *event;			/* kbuffer's current event on the page, NULL: none */
	unsigned long long ts;
	struct trace_dat_record rec;	/* the head: handed out or about to be */
	bool has_rec;
	uint64_t released;		/* file offset below which its pages were let go */
};

/* Walked sub-buffers are let go in steps of this much: bounded memory, few system calls. */
#define TD_RELEASE_STEP (4u << 20)

struct trace_dat_cursor {
	struct trace_dat_reader *r;
	struct td_walk *walks;
	int nr;
	struct td_walk *taken;		/* handed out by the last next(): refill it first */
	bool failed;
};

static int td_walk__damaged(const struct trace_dat_reader *r, const struct td_walk *w,
			    uint32_t commit)
{
	const struct rb_layout *l = &r->layout;

	if (rb_commit__check(commit, l))
		pr_err("%s: CPU %d: the sub-buffer at offset 0x%llx is damaged: its commit word 0x%08x says %u bytes of data%s, and it has room for %u\n",
		       r->path, w->cpu, (unsigned long long)w->page, commit, rb_commit__size(commit),
		       (commit & RB_MISSED_FLAGS) == RB_MISSED_FLAGS ? " and a lost-events count" : "",
		       rb_layout__capacity(l));
	else
		pr_err("%s: CPU %d: the sub-buffer at offset 0x%llx is damaged: a record runs past its %u bytes of data\n",
		       r->path, w->cpu, (unsigned long long)w->page, rb_commit__size(commit));
	return libauxtrace__err(-EINVAL);
}

static int td_walk__event_id(const struct trace_dat_reader *r, const void *data, uint32_t size)
{
	const unsigned char *p = (const unsigned char *)data + r->type_offset;

	if (!r->type_size || size < r->type_offset + r->type_size)
		return -1;
	switch (r->type_size) {
	case 1:
		return *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	default: {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return (int)(v & 0x7fffffff);
	}
	}
}

/* The event kbuffer is on, as a record. */
static void td_walk__take_event(struct td_walk *w, const struct trace_dat_reader *r)
{
	struct trace_dat_record *rec = &w->rec;

	*rec = (struct trace_dat_record){
		.kind = TRACE_DAT_EVENT,
		.cpu = w->cpu,
		.ts = w->ts + (uint64_t)r->ts_offset,
		.offset = w->page + (uint64_t)kbuffer_curr_offset(w->kb),
		.data = w->event,
		.size = (uint32_t)kbuffer_event_size(w->kb),
		.record_size = (uint32_t)kbuffer_curr_size(w->kb),
	};
	rec->id = td_walk__event_id(r, rec->data, rec->size);
	rec->event = rec->id < 0 ? NULL : tep_find_event(r->tep, rec->id);
	w->event = kbuffer_next_event(w->kb, &w->ts);
	w->has_rec = true;
}

/*
 * The mapping's pages of what w walked, before the sub-buffer it leaves now (no record of
 * them is valid any more), leave the process's memory: what a walk holds is bounded by
 * TD_RELEASE_STEP, not by the file. They are clean file pages: read again from the page
 * cache should anyone touch them.
 */
static void td_walk__release(struct td_walk *w, const struct trace_dat_reader *r)
{
	uint64_t psize = (uint64_t)sysconf(_SC_PAGESIZE);
	/* whole pages of this CPU's data only: a page it shares with the next is kept */
	uint64_t from = w->released ? w->released : (w->data->offset + psize - 1) / psize * psize;
	uint64_t to = w->next / psize * psize;

	if (to < from + TD_RELEASE_STEP)
		return;
	madvise((char *)r->data_map + from, (size_t)(to - from), MADV_DONTNEED);
	w->released = to;
}

/*
 * Load the next sub-buffer: checked first, since kbuffer trusts every length in it. A
 * lost-events mark becomes a record of its own, before the page's first event.
 */
static int td_walk__load(struct td_walk *w, const struct trace_dat_reader *r)
{
	const struct rb_layout *l = &r->layout;
	const void *page = r->data_map + w->next;
	uint32_t commit = rb_page__commit(page, l);
	uint64_t page_ts;
	int64_t lost;

	td_walk__release(w, r);
	w->page = w->next;
	w->next += l->subbuf_size;
	if (rb_page__check(page, l, commit))
		return td_walk__damaged(r, w, commit);
	/* kbuffer only reads the page, whatever its prototype says */
	if (kbuffer_load_subbuffer(w->kb, (void *)page)) {
		pr_err("%s: CPU %d: libtraceevent refuses the sub-buffer at offset 0x%llx\n",
		       r->path, w->cpu, (unsigned long long)w->page);
		return libauxtrace__err(-EINVAL);
	}
	w->event = kbuffer_read_event(w->kb, &w->ts);
	lost = rb_page__lost(page, l, commit);
	if (lost) {
		memcpy(&page_ts, page, sizeof(page_ts));
		w->rec = (struct trace_dat_record){
			.kind = TRACE_DAT_LOST, .cpu = w->cpu, .id = -1, .missed = lost,
			.ts = page_ts + (uint64_t)r->ts_offset, .offset = w->page,
		};
		w->has_rec = true;
	}
	return 0;
}

/* Make w's next record its head: 0 with has_rec false at the end, or -errno. */
static int td_walk__fill(struct td_walk *w, const struct trace_dat_reader *r)
{
	w->has_rec = false;
	while (!w->has_rec) {
		int err;

		if (w->event) {
			td_walk__take_event(w, r);
			break;
		}
		if (w->next >= w->data->offset + w->data->size)
			break;
		err = td_walk__load(w, r);
		if (err)
			return err;
	}
	return 0;
}

struct trace_dat_cursor *trace_dat_cursor__new(struct trace_dat_reader *r, int cpu)
{
	struct trace_dat_cursor *c;
	int first = cpu < 0 ? 0 : cpu;

	if (!r || cpu < -1 || cpu >= r->nr_cpus)
		return libauxtrace__ptr_err(EINVAL);
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->r = r;
	c->nr = cpu < 0 ? r->nr_cpus : 1;
	c->walks = calloc((size_t)c->nr, sizeof(*c->walks));
	if (!c->walks)
		goto fail;
	for (int i = 0; i < c->nr; i++) {
		struct td_walk *w = &c->walks[i];

		w->cpu = first + i;
		w->data = &r->cpus[w->cpu];
		w->next = w->data->offset;
		w->kb = kbuffer_alloc(r->layout.long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				      KBUFFER_ENDIAN_SAME_AS_HOST);
		if (!w->kb)
			goto fail;
	}
	/* every walk's first head, so that the merge can compare them */
	for (int i = 0; i < c->nr; i++)
		if (td_walk__fill(&c->walks[i], r))
			c->failed = true;
	return c;
fail:
	trace_dat_cursor__delete(c);
	return libauxtrace__ptr_err(ENOMEM);
}

const struct trace_dat_record *trace_dat_cursor__next(struct trace_dat_cursor *c)
{
	struct td_walk *best = NULL;

	if (c->taken && !c->failed && td_walk__fill(c->taken, c->r))
		c->failed = true;
	c->taken = NULL;
	if (c->failed) {
		errno = EINVAL;
		return NULL;
	}
	for (int i = 0; i < c->nr; i++) {
		struct td_walk *w = &c->walks[i];

		if (w->has_rec && (!best || w->rec.ts < best->rec.ts))
			best = w;
	}
	errno = 0;
	if (!best)
		return NULL;
	c->taken = best;
	return &best->rec;
}

void trace_dat_cursor__delete(struct trace_dat_cursor *c)
{
	if (!c)
		return;
	for (int i = 0; c->walks && i < c->nr; i++)
		kbuffer_free(c->walks[i].kb);
	free(c->walks);
	free(c);
}
