// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline's hand-over between two threads (timeline_opts.nr_threads >= 2): a library
 * thread walks the recording (reads perf.data, decodes the AUX queues, pulls the streams)
 * and the caller's thread runs the callback, so that decoding and what the caller does with
 * each record (formatting a line, most of a script's time) overlap.
 *
 * The records the decoders synthesize (TIMELINE_AUX_SAMPLE), the many, and the short
 * side-band and user records between them (one or two per AUX buffer: waiting for each
 * would drain the pipe every few thousand samples) are copied into a bounded ring and go
 * on without waiting; every other record (a perf sample, whose fields point into it; a
 * stream's head) points into buffers that live only until the walker moves on, so the
 * walker hands it over and waits until the callback has taken it (after everything before
 * it). The callback thus sees the same records in the same order as in one thread, always
 * on the caller's thread, and memory stays bounded by the ring. The lock is taken once per
 * batch of records, not per record.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/decode.h>
#include <auxtrace/session.h>
#include <internal/lib.h>
#include "timeline-internal.h"

#define TL_PIPE_SLOTS	4096		/* records in flight: ~2.4 MiB */
#define TL_PIPE_BATCH	128		/* the walker publishes this many at a time */
/*
 * A side that sleeps is woken only when this much waits for it (records to deliver, slots
 * to fill), or for a hand-over, a stop or the end: a wakeup per record or per batch would
 * cost more than the records.
 */
#define TL_PIPE_WAKE	1024
#define TL_PIPE_CHUNK	(TL_PIPE_WAKE / 2)	/* delivered between two looks at the lock */

#define TL_PIPE_EVENT	192		/* bytes of a perf record copied; longer ones wait */

struct tl_pipe_slot {
	struct timeline_record rec;
	union {
		struct auxtrace_sample sample;	/* rec.aux.sample's copy */
		struct {
			struct perf_sample sample;	/* rec.perf.sample's, when it has one */
			uint64_t event[TL_PIPE_EVENT / sizeof(uint64_t)];	/* rec.perf.event's */
		} perf;
	};
};

struct tl_pipe {
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* both sides sleep on it, each for its condition */
	struct tl_pipe_slot *slots;
	/* under lock: */
	uint64_t head;			/* published by the walker */
	uint64_t tail;			/* delivered by the caller's thread */
	const struct timeline_record *sync;	/* a record handed over, waiting for the callback */
	int stop;			/* the callback's negative return: the walk stops */
	bool done;			/* the walker returned */
	bool walker_sleeps, caller_sleeps;
	/* the walker's own: */
	uint64_t w_head;		/* written, not all published */
	uint64_t w_tail;		/* the tail it last saw */
	pthread_t thread;
	struct timeline *tl;
	void (*walk)(struct timeline *tl);
	int (*hand)(struct timeline *tl, const struct timeline_record *rec);
};

/* Under lock: wake the side that sleeps when it has a reason. */
static void tl_pipe__wake(struct tl_pipe *p, bool *sleeps, bool reason)
{
	if (*sleeps && reason) {
		*sleeps = false;
		pthread_cond_broadcast(&p->cond);
	}
}

static void tl_pipe__sleep(struct tl_pipe *p, bool *sleeps)
{
	*sleeps = true;
	pthread_cond_wait(&p->cond, &p->lock);
}

/* Walker, under lock: what it wrote goes to the caller's thread; urgent: wake it anyway. */
static void tl_pipe__publish(struct tl_pipe *p, bool urgent)
{
	p->head = p->w_head;
	p->w_tail = p->tail;
	tl_pipe__wake(p, &p->caller_sleeps, urgent || p->head - p->tail >= TL_PIPE_WAKE);
}

/*
 * A record that can be copied whole: an AUX sample, or a short side-band or user record whose
 * sample fields point nowhere (only a PERF_RECORD_SAMPLE's point into the record).
 */
static bool tl_pipe__copies(const struct timeline_record *rec)
{
	const struct perf_sample *s = rec->perf.sample;

	if (rec->kind == TIMELINE_AUX_SAMPLE)
		return true;
	if ((rec->kind != TIMELINE_PERF_EVENT && rec->kind != TIMELINE_PERF_USER) ||
	    rec->perf.event->header.size > TL_PIPE_EVENT)
		return false;
	return !s || (!s->read.values && !s->callchain && !s->raw_data && !s->branch_entries &&
		      !s->user_regs.regs && !s->intr_regs.regs && !s->user_stack.data &&
		      !s->aux_sample.data);
}

static void tl_pipe_slot__fill(struct tl_pipe_slot *slot, const struct timeline_record *rec)
{
	slot->rec = *rec;
	if (rec->kind == TIMELINE_AUX_SAMPLE) {
		slot->sample = *rec->aux.sample;
		return;
	}
	memcpy(slot->perf.event, rec->perf.event, rec->perf.event->header.size);
	if (rec->perf.sample)
		slot->perf.sample = *rec->perf.sample;
}

/* Caller's thread: the record points to the slot's copies. */
static const struct timeline_record *tl_pipe_slot__record(struct tl_pipe_slot *slot)
{
	if (slot->rec.kind == TIMELINE_AUX_SAMPLE) {
		slot->rec.aux.sample = &slot->sample;
	} else {
		slot->rec.perf.event = (union perf_event *)slot->perf.event;
		if (slot->rec.perf.sample)
			slot->rec.perf.sample = &slot->perf.sample;
	}
	return &slot->rec;
}

/* Walker: a record copied; waits only while the ring is full. The callback's stop. */
static int tl_pipe__put_copy(struct tl_pipe *p, const struct timeline_record *rec)
{
	struct tl_pipe_slot *slot;
	int stop = 0;

	if (p->w_head - p->w_tail == TL_PIPE_SLOTS || p->w_head % TL_PIPE_BATCH == 0) {
		pthread_mutex_lock(&p->lock);
		tl_pipe__publish(p, false);
		if (p->w_head - p->tail == TL_PIPE_SLOTS) {	/* full: wait for room */
			while (!p->stop && p->w_head - p->tail > TL_PIPE_SLOTS - TL_PIPE_WAKE)
				tl_pipe__sleep(p, &p->walker_sleeps);
		}
		p->w_tail = p->tail;
		stop = p->stop;
		pthread_mutex_unlock(&p->lock);
		if (stop)
			return stop;
	}
	slot = &p->slots[p->w_head % TL_PIPE_SLOTS];
	tl_pipe_slot__fill(slot, rec);
	p->w_head++;
	return 0;
}

/* Walker: any other record, delivered by the callback before this returns. Its stop. */
static int tl_pipe__put_sync(struct tl_pipe *p, const struct timeline_record *rec)
{
	int stop;

	pthread_mutex_lock(&p->lock);
	if (!p->stop) {
		p->sync = rec;
		tl_pipe__publish(p, true);
		while (p->sync && !p->stop)
			tl_pipe__sleep(p, &p->walker_sleeps);
	}
	p->sync = NULL;
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

int tl_pipe__put(struct tl_pipe *p, const struct timeline_record *rec)
{
	if (tl_pipe__copies(rec))
		return tl_pipe__put_copy(p, rec);
	return tl_pipe__put_sync(p, rec);
}

static void *tl_pipe__walker(void *arg)
{
	struct tl_pipe *p = arg;

	p->walk(p->tl);
	pthread_mutex_lock(&p->lock);
	p->done = true;
	tl_pipe__publish(p, true);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Caller's thread: the callback's return; the first stop is kept and told to the walker. */
static void tl_pipe__hand(struct tl_pipe *p, const struct timeline_record *rec)
{
	int stop = p->hand(p->tl, rec);

	if (stop && !p->stop) {
		pthread_mutex_lock(&p->lock);
		p->stop = stop;
		tl_pipe__wake(p, &p->walker_sleeps, true);
		pthread_mutex_unlock(&p->lock);
	}
}

/*
 * Caller's thread: hand out what the walker publishes, in its order, until it is done:
 * after a stop, records are dropped and hand-overs answered at once, and the walker,
 * seeing the stop at its next record, returns.
 */
static void tl_pipe__deliver(struct tl_pipe *p)
{
	uint64_t tail = 0, head;
	const struct timeline_record *sync;
	bool done;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		p->tail = tail;
		/* a walker waiting for its hand-over is not woken for room */
		tl_pipe__wake(p, &p->walker_sleeps, !p->sync &&
			      TL_PIPE_SLOTS - (p->head - tail) >= TL_PIPE_WAKE);
		while (p->head == tail && !p->sync && !p->done)
			tl_pipe__sleep(p, &p->caller_sleeps);
		head = p->head - tail > TL_PIPE_CHUNK ? tail + TL_PIPE_CHUNK : p->head;
		/* a record handed over goes after everything published before it */
		sync = head == p->head && head == tail ? p->sync : NULL;
		done = head == p->head && head == tail && !sync && p->done;
		pthread_mutex_unlock(&p->lock);
		if (done)
			break;
		for (; tail != head && !p->stop; tail++)
			tl_pipe__hand(p, tl_pipe_slot__record(&p->slots[tail % TL_PIPE_SLOTS]));
		tail = head;
		if (sync) {
			if (!p->stop)
				tl_pipe__hand(p, sync);
			pthread_mutex_lock(&p->lock);
			p->sync = NULL;
			tl_pipe__wake(p, &p->walker_sleeps, true);
			pthread_mutex_unlock(&p->lock);
		}
	}
}

int tl_pipe__run(struct timeline *tl, void (*walk)(struct timeline *tl),
		 int (*hand)(struct timeline *tl, const struct timeline_record *rec))
{
	struct tl_pipe p = { .tl = tl, .walk = walk, .hand = hand };
	int err;

	p.slots = malloc(TL_PIPE_SLOTS * sizeof(*p.slots));
	if (!p.slots)
		return -ENOMEM;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	tl->pipe = &p;
	err = -pthread_create(&p.thread, NULL, tl_pipe__walker, &p);
	if (!err) {
		tl_pipe__deliver(&p);
		pthread_join(p.thread, NULL);
	}
	tl->pipe = NULL;
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	free(p.slots);
	return err;
}
