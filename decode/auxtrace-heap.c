// SPDX-License-Identifier: LGPL-2.1
/*
 * A min-heap of queues by timestamp (auxtrace/auxtrace-queues.h). Ties go in the order they
 * were added: the key is (ordinal, sequence of the add), so the order does not depend on
 * where an item happened to sit in the array.
 */
#include <stdlib.h>

#include <auxtrace/auxtrace-queues.h>

#include <internal/lib.h>

struct auxtrace_heap_entry {
	struct auxtrace_heap_item item;
	uint64_t seq;
};

struct auxtrace_heap {
	struct auxtrace_heap_entry *array;
	unsigned int nr, cap;
	uint64_t seq;
};

struct auxtrace_heap *auxtrace_heap__new(void)
{
	struct auxtrace_heap *heap = calloc(1, sizeof(*heap));

	return heap ? heap : libauxtrace__ptr_err(-ENOMEM);
}

void auxtrace_heap__delete(struct auxtrace_heap *heap)
{
	if (!heap)
		return;
	free(heap->array);
	free(heap);
}

static bool auxtrace_heap_entry__before(const struct auxtrace_heap_entry *a,
					const struct auxtrace_heap_entry *b)
{
	return a->item.ordinal < b->item.ordinal ||
	       (a->item.ordinal == b->item.ordinal && a->seq < b->seq);
}

int auxtrace_heap__add(struct auxtrace_heap *heap, unsigned int queue_nr, uint64_t ordinal)
{
	struct auxtrace_heap_entry e = { { queue_nr, ordinal }, heap->seq++ };
	unsigned int pos;

	if (queue_nr >= AUXTRACE_QUEUES_MAX)
		return libauxtrace__err(-EINVAL);
	if (heap->nr == heap->cap) {
		unsigned int cap = heap->cap ? heap->cap * 2 : 32;
		struct auxtrace_heap_entry *array = realloc(heap->array, cap * sizeof(*array));

		if (!array)
			return libauxtrace__err(-ENOMEM);
		heap->array = array;
		heap->cap = cap;
	}
	for (pos = heap->nr++; pos; ) {
		unsigned int parent = (pos - 1) / 2;

		if (!auxtrace_heap_entry__before(&e, &heap->array[parent]))
			break;
		heap->array[pos] = heap->array[parent];
		pos = parent;
	}
	heap->array[pos] = e;
	return 0;
}

const struct auxtrace_heap_item *auxtrace_heap__top(const struct auxtrace_heap *heap)
{
	return heap->nr ? &heap->array[0].item : NULL;
}

void auxtrace_heap__pop(struct auxtrace_heap *heap)
{
	struct auxtrace_heap_entry last;
	unsigned int pos = 0;

	if (!heap->nr)
		return;
	last = heap->array[--heap->nr];
	for (;;) {
		unsigned int child = 2 * pos + 1;

		if (child >= heap->nr)
			break;
		if (child + 1 < heap->nr &&
		    auxtrace_heap_entry__before(&heap->array[child + 1], &heap->array[child]))
			child++;
		if (!auxtrace_heap_entry__before(&heap->array[child], &last))
			break;
		heap->array[pos] = heap->array[child];
		pos = child;
	}
	if (heap->nr)
		heap->array[pos] = last;
}

unsigned int auxtrace_heap__nr(const struct auxtrace_heap *heap)
{
	return heap->nr;
}
