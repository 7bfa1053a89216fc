// SPDX-License-Identifier: LGPL-2.1
/*
 * Synthesized samples' lines formatted on several threads (script-par.h). One batch at a
 * time: the caller's thread publishes it, the workers and the caller's thread claim its
 * chunks until none is left, the caller's thread waits for the chunks others claimed and
 * writes every chunk's text in order. Between batches nobody but the caller's thread
 * touches the machine, so the side-band goes on applying to it as with one thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include <auxtrace/decode.h>
#include "script-par.h"
#include "script-print.h"

/*
 * Samples per batch: a batch's hand-over (a wakeup, a wait) is paid per many thousand lines
 * (on the test VM, BTS -j2 ran at 1.37x -j1 with batches of 4096, 1.54x with 16384), and two
 * batches with their text are some 6 MiB. A side-band record that changes a process ends a
 * batch early.
 */
#define SCRIPT_PAR_BATCH	16384
/* Samples per chunk: small enough that a thread the scheduler holds back holds up little. */
#define SCRIPT_PAR_CHUNK	256
#define SCRIPT_PAR_CHUNKS	(SCRIPT_PAR_BATCH / SCRIPT_PAR_CHUNK)
/*
 * How long a thread that ran out of work spins before it sleeps: the workers' last chunks
 * take tens of microseconds, and on the test VM a sleep and its wakeup cost about as much
 * per batch as formatting a thousand lines (bench-decode's -j2 was 0.95x -j1 on BTS).
 */
#define SCRIPT_PAR_SPIN_NS	100000

struct script_par_sample {
	struct auxtrace_sample sample;
	struct evsel *evsel;
};

/* A chunk's text, on cache lines of its own: the threads append to theirs line by line. */
struct script_par_text {
	_Alignas(64) struct script_text text;
};

struct script_par_batch {
	struct script_par_sample *samples;
	unsigned int nr;
	struct script_par_text texts[SCRIPT_PAR_CHUNKS];
};

struct script_par_worker {
	_Alignas(64) struct script_par *sp;
	struct script_print print;	/* its copy of the caller's printer */
	pthread_t thread;
	uint32_t seen;			/* the last batch it looked at */
};

/*
 * Two batches: while the workers format the one published, the caller's thread gathers the
 * next; it helps with the first and writes it when the second is full.
 */
struct script_par {
	struct script_print *print;	/* the caller's */
	struct script_par_batch batches[2];
	struct script_par_batch *gather;	/* the caller's thread fills it */
	struct script_par_batch *busy;		/* published, not written yet; NULL: none */
	/*
	 * The published batch's number (high half) and its next chunk to claim (low half) in
	 * one word, so that a worker late for a batch can never claim a chunk of the next one.
	 */
	_Atomic uint64_t claim;
	pthread_mutex_t machine_lock;	/* the copies' lookups in the machine */
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	/* under lock: */
	uint32_t gen;			/* the batch published last */
	struct script_par_batch *published;
	unsigned int nr_chunks;		/* of batch gen */
	_Atomic unsigned int chunks_done;	/* written under lock */
	int err;			/* a chunk's first failure (ENOMEM) */
	bool quit;
	/* workers[0] is the caller's thread's own copy (no thread): it formats too */
	unsigned int nr_copies;
	struct script_par_worker workers[];
};

/* Claim a chunk of batch gen: its number, or -1 when none is left (or gen is over). */
static int script_par__claim(struct script_par *sp, uint32_t gen, unsigned int nr_chunks)
{
	uint64_t v = atomic_load(&sp->claim);

	do {
		if ((uint32_t)(v >> 32) != gen || (uint32_t)v >= nr_chunks)
			return -1;
	} while (!atomic_compare_exchange_weak(&sp->claim, &v, v + 1));
	return (int)(uint32_t)v;
}

/* Format the chunks w claims of batch gen (b); count them done. */
static void script_par__format(struct script_par_worker *w, uint32_t gen,
			       struct script_par_batch *b, unsigned int nr_chunks)
{
	struct script_par *sp = w->sp;
	unsigned int done = 0;
	int err = 0, c;

	while ((c = script_par__claim(sp, gen, nr_chunks)) >= 0) {
		unsigned int end = ((unsigned int)c + 1) * SCRIPT_PAR_CHUNK;

		w->print.text = &b->texts[c].text;
		w->print.text->len = 0;
		for (unsigned int i = (unsigned int)c * SCRIPT_PAR_CHUNK;
		     i < end && i < b->nr && !err; i++)
			err = script_print__auxtrace_sample(&w->print, b->samples[i].evsel,
							    &b->samples[i].sample);
		done++;
	}
	if (!done)
		return;
	pthread_mutex_lock(&sp->lock);
	if (err && !sp->err)
		sp->err = err;
	if (atomic_fetch_add(&sp->chunks_done, done) + done == sp->nr_chunks)
		pthread_cond_signal(&sp->done);
	pthread_mutex_unlock(&sp->lock);
}

static uint64_t script_par__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* Spin up to SCRIPT_PAR_SPIN_NS until done(sp, arg): whether it came. */
static bool script_par__spin(struct script_par *sp, bool (*done)(struct script_par *sp,
								  uint32_t arg), uint32_t arg)
{
	uint64_t until = 0;

	for (unsigned int i = 0; !done(sp, arg); i++) {
		__builtin_ia32_pause();
		if (i % 64)
			continue;
		if (!until)
			until = script_par__now() + SCRIPT_PAR_SPIN_NS;
		else if (script_par__now() > until)
			return false;
	}
	return true;
}

/* A batch after the one numbered seen was published (or none claimable is left). */
static bool script_par__published(struct script_par *sp, uint32_t seen)
{
	return (uint32_t)(atomic_load(&sp->claim) >> 32) != seen;
}

static bool script_par__all_done(struct script_par *sp, uint32_t nr_chunks)
{
	return atomic_load(&sp->chunks_done) >= nr_chunks;
}

static void *script_par__worker(void *arg)
{
	struct script_par_worker *w = arg;
	struct script_par *sp = w->sp;

	for (;;) {
		struct script_par_batch *b;
		unsigned int nr_chunks;
		uint32_t gen;
		bool quit;

		script_par__spin(sp, script_par__published, w->seen);
		pthread_mutex_lock(&sp->lock);
		while (sp->gen == w->seen && !sp->quit)
			pthread_cond_wait(&sp->work, &sp->lock);
		gen = w->seen = sp->gen;
		b = sp->published;
		nr_chunks = sp->nr_chunks;
		quit = sp->quit;
		pthread_mutex_unlock(&sp->lock);
		if (quit)
			return NULL;
		script_par__format(w, gen, b, nr_chunks);
	}
}

struct script_par *script_par__new(struct script_print *print, unsigned int nr_workers)
{
	struct script_par *sp = calloc(1, sizeof(*sp) + (nr_workers + 1) * sizeof(sp->workers[0]));
	int err = 0;

	if (!sp)
		return NULL;
	sp->print = print;
	for (int i = 0; i < 2; i++) {
		sp->batches[i].samples = malloc(SCRIPT_PAR_BATCH * sizeof(struct script_par_sample));
		if (!sp->batches[i].samples)
			err = ENOMEM;
	}
	sp->gather = &sp->batches[0];
	pthread_mutex_init(&sp->machine_lock, NULL);
	pthread_mutex_init(&sp->lock, NULL);
	pthread_cond_init(&sp->work, NULL);
	pthread_cond_init(&sp->done, NULL);
	for (unsigned int i = 0; i <= nr_workers && !err; i++) {
		struct script_par_worker *w = &sp->workers[i];

		w->sp = sp;
		script_print__copy(&w->print, print, &sp->machine_lock);
		sp->nr_copies = i + 1;
		if (i)
			err = pthread_create(&w->thread, NULL, script_par__worker, w);
		if (err) {
			script_print__exit(&w->print);
			sp->nr_copies = i;
		}
	}
	if (err) {
		script_par__delete(sp);
		errno = err;
		return NULL;
	}
	print->machine_lock = &sp->machine_lock;
	return sp;
}

void script_par__delete(struct script_par *sp)
{
	if (!sp)
		return;
	sp->print->machine_lock = NULL;
	pthread_mutex_lock(&sp->lock);
	sp->quit = true;
	pthread_cond_broadcast(&sp->work);
	pthread_mutex_unlock(&sp->lock);
	for (unsigned int i = 0; i < sp->nr_copies; i++) {
		if (i)
			pthread_join(sp->workers[i].thread, NULL);
		script_print__exit(&sp->workers[i].print);
	}
	for (int i = 0; i < 2; i++) {
		for (unsigned int c = 0; c < SCRIPT_PAR_CHUNKS; c++)
			free(sp->batches[i].texts[c].text.buf);
		free(sp->batches[i].samples);
	}
	pthread_cond_destroy(&sp->done);
	pthread_cond_destroy(&sp->work);
	pthread_mutex_destroy(&sp->lock);
	pthread_mutex_destroy(&sp->machine_lock);
	free(sp);
}

static unsigned int script_par_batch__chunks(const struct script_par_batch *b)
{
	return (b->nr + SCRIPT_PAR_CHUNK - 1) / SCRIPT_PAR_CHUNK;
}

/* The gathered batch to the workers; the next is gathered in the other. */
static void script_par__publish(struct script_par *sp)
{
	struct script_par_batch *b = sp->gather;
	unsigned int nr_chunks = script_par_batch__chunks(b);

	pthread_mutex_lock(&sp->lock);
	sp->published = b;
	sp->nr_chunks = nr_chunks;
	atomic_store(&sp->chunks_done, 0);
	atomic_store(&sp->claim, (uint64_t)++sp->gen << 32);
	pthread_cond_broadcast(&sp->work);
	pthread_mutex_unlock(&sp->lock);
	sp->busy = b;
	sp->gather = &sp->batches[b == &sp->batches[0]];
}

/* The published batch: format what nobody claimed, wait for the rest. 0 or -ENOMEM. */
static int script_par__wait(struct script_par *sp)
{
	struct script_par_batch *b = sp->busy;
	unsigned int nr_chunks = script_par_batch__chunks(b);
	int err;

	script_par__format(&sp->workers[0], sp->gen, b, nr_chunks);
	script_par__spin(sp, script_par__all_done, nr_chunks);
	pthread_mutex_lock(&sp->lock);
	while (atomic_load(&sp->chunks_done) < nr_chunks)
		pthread_cond_wait(&sp->done, &sp->lock);
	err = sp->err;
	pthread_mutex_unlock(&sp->lock);
	sp->busy = NULL;
	return err;
}

/*
 * A formatted batch's texts, in order, straight to out's file (after what out holds): not
 * copied once more into its buffer. It is then free to gather into. 0 or -errno.
 */
static int script_par__write(struct script_par *sp, struct script_par_batch *b)
{
	unsigned int nr_chunks = script_par_batch__chunks(b);
	struct iovec iov[SCRIPT_PAR_CHUNKS];
	int fd = fileno(sp->print->out), n = 0;

	b->nr = 0;
	if (fflush(sp->print->out))
		return -(errno ? errno : EIO);
	for (unsigned int c = 0; c < nr_chunks; c++)
		iov[n++] = (struct iovec){ b->texts[c].text.buf, b->texts[c].text.len };
	for (int i = 0; i < n;) {
		ssize_t done = writev(fd, iov + i, n - i);

		if (done < 0 && errno == EINTR)
			continue;
		if (done < 0)
			return -errno;
		for (; i < n && (size_t)done >= iov[i].iov_len; i++)
			done -= (ssize_t)iov[i].iov_len;
		if (i < n) {
			iov[i].iov_base = (char *)iov[i].iov_base + done;
			iov[i].iov_len -= (size_t)done;
		}
	}
	return 0;
}

/*
 * The batch in the workers' hands is done: the gathered one goes to them before the done
 * one is written, so that they format while this thread writes.
 */
static int script_par__next(struct script_par *sp)
{
	struct script_par_batch *done = sp->busy;
	int err = done ? script_par__wait(sp) : 0;

	if (!err && sp->gather->nr)
		script_par__publish(sp);
	if (!err && done)
		err = script_par__write(sp, done);
	return err;
}

int script_par__flush(struct script_par *sp)
{
	int err = script_par__next(sp);

	if (!err && sp->busy) {
		struct script_par_batch *last = sp->busy;

		err = script_par__wait(sp) ?: script_par__write(sp, last);
	}
	return err;
}

int script_par__add(struct script_par *sp, const struct auxtrace_sample *sample,
		    struct evsel *evsel)
{
	struct script_par_batch *b = sp->gather;

	b->samples[b->nr++] = (struct script_par_sample){ *sample, evsel };
	return b->nr < SCRIPT_PAR_BATCH ? 0 : script_par__next(sp);
}

void script_par__forget(struct script_par *sp)
{
	for (unsigned int i = 0; i < sp->nr_copies; i++)
		script_print__forget(&sp->workers[i].print);
}
