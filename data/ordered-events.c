// SPDX-License-Identifier: LGPL-2.1
/*
 * perf's ordered events: records are queued by time and go out at FINISHED_ROUND up to the
 * newest time of the round before. A recorder writes a round after reading every ring once,
 * and a ring read late in one round can still hold records older than another ring's newest
 * of the same round, but not older than what the round before had: so one round is held
 * back. A min-heap on (time, arrival) keeps equal times in file order.
 */
#include <stdlib.h>

#include <internal/session.h>

struct ordered_event {
	uint64_t timestamp;
	uint64_t seq;
	uint64_t offset;
	union perf_event *event;
	bool owned;		/* a copy: freed once delivered */
};

struct ordered_events {
	struct ordered_event *heap;
	size_t nr, cap;
	uint64_t seq;
	uint64_t max_timestamp;	/* newest time queued so far */
	uint64_t next_flush;	/* what the next round flushes up to */
	uint64_t last_flush;	/* time of the last event delivered */
};

struct ordered_events *ordered_events__new(void)
{
	return calloc(1, sizeof(struct ordered_events));
}

void ordered_events__delete(struct ordered_events *oe)
{
	size_t i;

	if (!oe)
		return;
	for (i = 0; i < oe->nr; i++)
		if (oe->heap[i].owned)
			free(oe->heap[i].event);
	free(oe->heap);
	free(oe);
}

static bool ordered_event__before(const struct ordered_event *a, const struct ordered_event *b)
{
	return a->timestamp < b->timestamp || (a->timestamp == b->timestamp && a->seq < b->seq);
}

static void ordered_events__sift_up(struct ordered_events *oe, size_t pos)
{
	struct ordered_event e = oe->heap[pos];

	while (pos) {
		size_t parent = (pos - 1) / 2;

		if (!ordered_event__before(&e, &oe->heap[parent]))
			break;
		oe->heap[pos] = oe->heap[parent];
		pos = parent;
	}
	oe->heap[pos] = e;
}

static void ordered_events__sift_down(struct ordered_events *oe, size_t pos)
{
	struct ordered_event e = oe->heap[pos];

	for (;;) {
		size_t child = 2 * pos + 1;

		if (child >= oe->nr)
			break;
		if (child + 1 < oe->nr &&
		    ordered_event__before(&oe->heap[child + 1], &oe->heap[child]))
			child++;
		if (!ordered_event__before(&oe->heap[child], &e))
			break;
		oe->heap[pos] = oe->heap[child];
		pos = child;
	}
	oe->heap[pos] = e;
}

int ordered_events__queue(struct ordered_events *oe, union perf_event *event,
			  uint64_t timestamp, uint64_t offset, bool copy)
{
	struct ordered_event *e;

	if (oe->nr == oe->cap) {
		size_t cap = oe->cap ? oe->cap * 2 : 1024;
		struct ordered_event *heap = realloc(oe->heap, cap * sizeof(*heap));

		if (!heap)
			return -ENOMEM;
		oe->heap = heap;
		oe->cap = cap;
	}
	e = &oe->heap[oe->nr];
	e->event = event;
	e->owned = copy;
	if (copy) {
		e->event = malloc(event->header.size);
		if (!e->event)
			return -ENOMEM;
		memcpy(e->event, event, event->header.size);
	}
	e->timestamp = timestamp;
	e->seq = oe->seq++;
	e->offset = offset;
	ordered_events__sift_up(oe, oe->nr++);
	if (timestamp > oe->max_timestamp)
		oe->max_timestamp = timestamp;
	return timestamp < oe->last_flush ? 1 : 0;
}

static int ordered_events__flush(struct ordered_events *oe, uint64_t limit,
				 ordered_events__deliver_t fn, void *ctx)
{
	while (oe->nr && oe->heap[0].timestamp <= limit) {
		struct ordered_event e = oe->heap[0];
		int err;

		oe->heap[0] = oe->heap[--oe->nr];
		if (oe->nr)
			ordered_events__sift_down(oe, 0);
		oe->last_flush = e.timestamp;
		err = fn(ctx, e.event, e.offset);
		if (e.owned)
			free(e.event);
		if (err)
			return err;
	}
	return 0;
}

int ordered_events__flush_round(struct ordered_events *oe, ordered_events__deliver_t fn,
				void *ctx)
{
	int err = oe->next_flush ? ordered_events__flush(oe, oe->next_flush, fn, ctx) : 0;

	if (!err)
		oe->next_flush = oe->max_timestamp;
	return err;
}

int ordered_events__flush_all(struct ordered_events *oe, ordered_events__deliver_t fn,
			      void *ctx)
{
	return ordered_events__flush(oe, UINT64_MAX, fn, ctx);
}

uint64_t ordered_events__min_offset(const struct ordered_events *oe)
{
	uint64_t min = UINT64_MAX;
	size_t i;

	for (i = 0; i < oe->nr; i++)
		if (!oe->heap[i].owned && oe->heap[i].offset < min)
			min = oe->heap[i].offset;
	return min;
}
