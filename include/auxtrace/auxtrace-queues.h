/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The decode side's AUX data: one queue per mmap idx (a CPU's ring, or a thread's), each a
 * list of buffers, one per PERF_RECORD_AUXTRACE (or PERF_SAMPLE_AUX payload), in file
 * order; and a heap that orders queues by a timestamp, so that a decoder can merge its AUX
 * streams with the side-band in time order.
 *
 * A buffer of a mapped session holds only where its payload is: auxtrace_buffer__get_data()
 * points into the session's mapping of the file when the decoder gets to it, and
 * auxtrace_buffer__put_data() lets the session give its pages back (512 KiB of payloads
 * at a time), so memory follows the buffers being decoded, not the file's size. A buffer
 * read from a pipe holds a copy. Buffers read from their session's mapping: use them while
 * the session lives, get and put one session's buffers on one thread at a time (a decoder
 * frees its queues in its free(), which perf_session__delete calls).
 */
#ifndef AUXTRACE_AUXTRACE_QUEUES_H
#define AUXTRACE_AUXTRACE_QUEUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <auxtrace/core.h>
#include <auxtrace/event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_session;
struct perf_sample;

/* Allocated by the library only (fields may be added at the end); read its fields freely. */
struct auxtrace_buffer {
	struct auxtrace_buffer *next;	/* in its queue, NULL at the end */
	size_t size;			/* payload bytes */
	pid_t pid;			/* -1 */
	pid_t tid;
	int cpu;
	void *data;			/* the payload; NULL until auxtrace_buffer__get_data */
	uint64_t data_offset;		/* file offset of the payload (mapped session) */
	void *mmap_addr;		/* the pages data lies in (read-only), NULL while not got */
	size_t mmap_size;
	bool data_needs_freeing;	/* data is a copy (from a pipe or a swapped record) */
	bool consecutive;		/* continues the previous buffer's data */
	uint64_t offset;		/* AUX stream position of the first byte */
	uint64_t reference;		/* the recorder's cookie (TSC for PT and BTS) */
	uint64_t buffer_nr;		/* order of queueing, over all queues */
	size_t use_size;		/* a decoder may trim: what it uses of data */
	void *use_data;
	int fd;				/* the file that holds the payload, -1: none */
	struct perf_session *session;	/* whose mapping it lies in; NULL: data is a copy */
};

/* Allocated by the library only; stays at one address while the queues live. */
struct auxtrace_queue {
	struct auxtrace_buffer *head;	/* buffers in file order */
	struct auxtrace_buffer *tail;
	pid_t tid;			/* of its first buffer */
	int cpu;
	bool set;			/* it has had a buffer */
	void *priv;			/* the decoder's state for this queue */
};

struct auxtrace_queues;

/*
 * auxtrace_queues__new() returns 32 empty queues to start, more on demand; the caller's
 * (auxtrace_queues__delete). NULL + ENOMEM.
 */
AUXTRACE_API struct auxtrace_queues *auxtrace_queues__new(void);
/*
 * auxtrace_queues__delete() frees every buffer (unmapping or freeing its data) and queue
 * (NULL: nothing).
 */
AUXTRACE_API void auxtrace_queues__delete(struct auxtrace_queues *queues);

/* auxtrace_queues__nr() returns how many queues there is room for (32 or more). */
AUXTRACE_API unsigned int auxtrace_queues__nr(const struct auxtrace_queues *queues);
/*
 * auxtrace_queues__queue() returns queue nr (borrowed; allocated on first use), NULL past
 * auxtrace_queues__nr() or + ENOMEM.
 */
AUXTRACE_API struct auxtrace_queue *auxtrace_queues__queue(struct auxtrace_queues *queues,
							  unsigned int nr);
#define AUXTRACE_QUEUES_MAX (1u << 20)
/*
 * auxtrace_queues__grow() makes room for at least nr queues: the count doubles from 32
 * until it is enough. Existing queues keep their addresses. Returns 0, -ENOMEM, or -EINVAL
 * past AUXTRACE_QUEUES_MAX.
 */
AUXTRACE_API int auxtrace_queues__grow(struct auxtrace_queues *queues, unsigned int nr);

/*
 * auxtrace_queues__add_event() queues the payload of a PERF_RECORD_AUXTRACE (native byte order)
 * of session on queue event->auxtrace.idx. data_offset: the payload's file offset in a mapped
 * session; a stream session hands over the copy it read (and copies again if a second queue
 * asks). A buffer of a CPU outside the session's filter (opts.cpus) is not queued (0,
 * *buffer_ptr NULL). The first buffer of a queue sets its tid and cpu. *buffer_ptr (may be
 * NULL) gets the buffer (borrowed: the queues own it). Returns 0 or -errno (ENOMEM; EINVAL: the
 * payload is not inside the file, logged with its offset; or an idx of AUXTRACE_QUEUES_MAX or
 * more).
 */
AUXTRACE_API int auxtrace_queues__add_event(struct auxtrace_queues *queues,
					    struct perf_session *session,
					    const union perf_event *event, uint64_t data_offset,
					    struct auxtrace_buffer **buffer_ptr);
/*
 * auxtrace_queues__add_sample() queues a PERF_SAMPLE_AUX payload on the queue of the
 * sample's ring: its ID must be known and have an mmap idx from PERF_RECORD_ID_INDEX.
 * Mapped from the file when sample->aux_sample.data points into the session's mapping,
 * else copied. Returns 0 (also for a CPU outside the session's filter: not queued) or
 * -errno: EINVAL (ID 0), ENOENT (unknown ID), ENOMEM.
 */
AUXTRACE_API int auxtrace_queues__add_sample(struct auxtrace_queues *queues,
					     struct perf_session *session,
					     const struct perf_sample *sample, uint64_t reference);
/*
 * auxtrace_queues__sample_queue() returns the queue of a sample's ring (borrowed), NULL
 * when its ID or idx is unknown or has no queue yet.
 */
AUXTRACE_API struct auxtrace_queue *auxtrace_queues__sample_queue(struct auxtrace_queues *q,
								  struct perf_session *session,
								  const struct perf_sample *sample);

/*
 * auxtrace_queues__populate() queues every AUXTRACE record of a mapped session before its
 * stream is processed: from the HEADER_AUXTRACE index when there is one (each entry checked: an
 * AUXTRACE record of its size at its offset, its payload inside the data section), else from a
 * walk of the data section, which also queues PERF_SAMPLE_AUX payloads. After it,
 * auxtrace_queues__data_queued() is true and a decoder ignores the AUXTRACE records the stream
 * brings again. A stream session has nothing to queue in advance: 0, and the records come
 * through process_auxtrace_event. Returns the buffers queued or -errno.
 */
AUXTRACE_API int auxtrace_queues__populate(struct auxtrace_queues *queues,
					   struct perf_session *session);
/* auxtrace_queues__data_queued() returns whether auxtrace_queues__populate() queued the data. */
AUXTRACE_API bool auxtrace_queues__data_queued(const struct auxtrace_queues *queues);
/*
 * auxtrace_queues__take_new_data() returns whether a buffer was queued since the last call
 * (perf's new_data), and clears it.
 */
AUXTRACE_API bool auxtrace_queues__take_new_data(struct auxtrace_queues *queues);

/*
 * auxtrace_buffer__next() returns the buffer after buffer in queue (the first when buffer
 * is NULL; borrowed), NULL at the end.
 */
AUXTRACE_API struct auxtrace_buffer *auxtrace_buffer__next(struct auxtrace_queue *queue,
							   struct auxtrace_buffer *buffer);
/*
 * auxtrace_buffer__get_data() returns the payload (borrowed: until put_data or drop_data),
 * read-only, in place in the session's mapping of the file. NULL + errno ENODATA when
 * there is none (no file, or dropped).
 */
AUXTRACE_API void *auxtrace_buffer__get_data(struct auxtrace_buffer *buffer);
/*
 * auxtrace_buffer__put_data() says the decoder is done with a payload of the file for now
 * (a copy stays): its pages are given back with those of the payloads put before it, once
 * they make 512 KiB, and come back from the page cache when get_data is called again.
 */
AUXTRACE_API void auxtrace_buffer__put_data(struct auxtrace_buffer *buffer);
/* auxtrace_buffer__drop_data() puts or frees the payload for good: size becomes 0. */
AUXTRACE_API void auxtrace_buffer__drop_data(struct auxtrace_buffer *buffer);

/* A min-heap of queue numbers by ordinal (a timestamp); equal ordinals pop in the order
 * they were added. Each queue should be in it at most once. */
struct auxtrace_heap_item {
	unsigned int queue_nr;
	uint64_t ordinal;
};

struct auxtrace_heap;

/* auxtrace_heap__new() returns an empty heap (auxtrace_heap__delete); NULL + ENOMEM. */
AUXTRACE_API struct auxtrace_heap *auxtrace_heap__new(void);
/* auxtrace_heap__delete() frees heap (NULL: nothing). */
AUXTRACE_API void auxtrace_heap__delete(struct auxtrace_heap *heap);
/*
 * auxtrace_heap__add() adds queue_nr at ordinal. Returns 0, -ENOMEM, or -EINVAL for a
 * queue_nr of AUXTRACE_QUEUES_MAX or more.
 */
AUXTRACE_API int auxtrace_heap__add(struct auxtrace_heap *heap, unsigned int queue_nr,
				    uint64_t ordinal);
/*
 * auxtrace_heap__top() returns the item with the lowest ordinal (borrowed: until the heap
 * changes), NULL when empty.
 */
AUXTRACE_API const struct auxtrace_heap_item *auxtrace_heap__top(const struct auxtrace_heap *h);
/* auxtrace_heap__pop() removes the top item (nothing when empty). */
AUXTRACE_API void auxtrace_heap__pop(struct auxtrace_heap *heap);
/* auxtrace_heap__nr() returns how many items the heap holds. */
AUXTRACE_API unsigned int auxtrace_heap__nr(const struct auxtrace_heap *heap);

#ifdef __cplusplus
}
#endif
#endif
