// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel PT branch samples decoded on more threads than the caller's (opts.nr_threads).
 *
 * A stream is cut into pieces at PSBs (intel_pt_decoder__add_regions), each one libipt can
 * decode on its own. When the caller runs the decoder to a time that a piece ends before
 * (the TSC of the PSB after it is earlier: no pause can fall inside it), or to the end, the
 * piece goes to the workers: one decodes it from its PSB into a list of samples and errors,
 * with a decoder of its own (a copy of the caller's options, its own image copy and
 * instruction cache), and the caller's thread hands the list out in order when its turn
 * comes, then takes over where the worker's flow ended. A piece no worker has started yet
 * is decoded by the caller's thread itself, the usual way; while it waits for a piece a
 * worker decodes, it decodes a later one as a worker would.
 *
 * Why the samples are those of one thread: a piece that continues the previous one is
 * decoded, in order, by passing over what that one decoded up to the branch it waited on
 * (intel_pt_flow__open); a worker does not know that branch and starts with none. The two
 * differ only until the first block that ends in a branch, and only in what a trace stop
 * or an error then makes: a worker that met one before it, or never reached one, hands
 * nothing out, and the caller's thread decodes that piece in order instead. Memory: the
 * samples of at most two pieces per thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include <internal/intel-pt-decoder.h>
#include <internal/lib.h>

/*
 * Pieces given out ahead of the one the caller's thread is at: two per thread keep each
 * busy (on the test VM, 16 with two threads were 12% slower and held 6 MiB more).
 */
#define INTEL_PT_PAR_PER_THREAD	2
#define INTEL_PT_PAR_JOBS	16	/* at most */

enum intel_pt_job_state {
	INTEL_PT_JOB_FREE,
	INTEL_PT_JOB_QUEUED,	/* for a worker, or the caller's thread, to take */
	INTEL_PT_JOB_RUNNING,	/* a worker decodes it */
	INTEL_PT_JOB_DONE,	/* its list waits to be handed out */
	INTEL_PT_JOB_TAKEN,	/* the caller's thread decodes it itself */
};

struct intel_pt_job_error {
	size_t at;			/* samples made before it */
	struct auxtrace_decode_error e;
	char msg[256];
};

struct intel_pt_job {
	enum intel_pt_job_state state;
	unsigned int nr;		/* its region's index in dec->regions */
	struct intel_pt_region region;
	struct auxtrace_image *image;	/* the caller's when it was given out */
	struct auxtrace_sample *samples;
	size_t nr_samples, alloc_samples;
	struct intel_pt_job_error *errors;
	size_t nr_errors, alloc_errors;
	bool usable;			/* its list is what one thread would make */
	struct auxtrace_decode_stats stats;
	/* where the flow ended, for the piece after it */
	struct pt_insn prev;
	bool have_prev;
	uint64_t last_ip;
};

struct intel_pt_worker {
	struct intel_pt_par *par;
	struct intel_pt_decoder *dec;	/* its own, with the caller's options */
	struct intel_pt_job *job;	/* the one it decodes */
	pthread_t thread;
	bool started;
};

struct intel_pt_par {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	bool stop;
	struct intel_pt_job jobs[INTEL_PT_PAR_JOBS];	/* region r's in jobs[r % ahead] */
	unsigned int ahead;		/* jobs in use */
	unsigned int next_queued;	/* regions below it were looked at (this feed) */
	void (*dec_delete)(struct intel_pt_decoder *dec);
	/* the caller's thread, decoding as a worker while the piece it waits for is decoded */
	struct intel_pt_worker helper;
	unsigned int nr_workers;
	struct intel_pt_worker workers[];
};

static int intel_pt_job__sample(void *ctx, const struct auxtrace_sample *sample)
{
	struct intel_pt_worker *w = ctx;
	struct intel_pt_job *job = w->job;

	if (job->nr_samples == job->alloc_samples) {
		size_t n = job->alloc_samples ? 2 * job->alloc_samples : 4096;
		struct auxtrace_sample *s = reallocarray(job->samples, n, sizeof(*s));

		if (!s)
			return -ENOMEM;
		job->samples = s;
		job->alloc_samples = n;
	}
	job->samples[job->nr_samples++] = *sample;
	return 0;
}

static int intel_pt_job__error(void *ctx, const struct auxtrace_decode_error *err)
{
	struct intel_pt_worker *w = ctx;
	struct intel_pt_job *job = w->job;
	struct intel_pt_job_error *e;

	if (job->nr_errors == job->alloc_errors) {
		size_t n = job->alloc_errors ? 2 * job->alloc_errors : 8;

		e = reallocarray(job->errors, n, sizeof(*e));
		if (!e)
			return -ENOMEM;
		job->errors = e;
		job->alloc_errors = n;
	}
	e = &job->errors[job->nr_errors++];
	e->at = job->nr_samples;
	e->e = *err;
	e->e.msg = NULL;	/* at hand-out: the array may move as it grows */
	snprintf(e->msg, sizeof(e->msg), "%s", err->msg);
	return 0;
}

/*
 * A worker decodes job's piece from its PSB with its own decoder. Anything that goes wrong
 * (no memory) leaves the list unusable: the caller's thread decodes the piece then, and
 * meets the trouble itself.
 */
static void intel_pt_worker__decode(struct intel_pt_worker *w, struct intel_pt_job *job)
{
	struct intel_pt_decoder *dec = w->dec;
	struct intel_pt_flow *flow = &dec->flow;
	int err;

	job->nr_samples = job->nr_errors = 0;
	w->job = job;
	memset(&dec->synth.stats, 0, sizeof(dec->synth.stats));
	dec->synth.opts.image = job->image;
	flow->have_prev = false;		/* it knows nothing of the piece before */
	err = intel_pt_decoder__refresh_image(dec);
	if (!err)
		err = intel_pt_flow__open(flow, &job->region);
	if (!err)
		err = intel_pt_flow__run(flow, UINT64_MAX);
	job->usable = !err && !flow->in_head && !flow->head_unsure;
	job->stats = dec->synth.stats;
	job->prev = flow->prev;
	job->have_prev = flow->have_prev;
	job->last_ip = flow->last_ip;
	intel_pt_flow__close(flow);
}

/* The queued job of the lowest region, NULL when none (under par->lock). */
static struct intel_pt_job *intel_pt_par__queued(struct intel_pt_par *par)
{
	struct intel_pt_job *job = NULL;

	for (unsigned int i = 0; i < par->ahead; i++) {
		struct intel_pt_job *j = &par->jobs[i];

		if (j->state == INTEL_PT_JOB_QUEUED && (!job || j->nr < job->nr))
			job = j;
	}
	return job;
}

/* w decodes the queued job, outside par->lock (held on entry and on return). */
static void intel_pt_worker__run(struct intel_pt_worker *w, struct intel_pt_job *job)
{
	struct intel_pt_par *par = w->par;

	job->state = INTEL_PT_JOB_RUNNING;
	pthread_mutex_unlock(&par->lock);
	intel_pt_worker__decode(w, job);
	pthread_mutex_lock(&par->lock);
	job->state = INTEL_PT_JOB_DONE;
	pthread_cond_broadcast(&par->done);
}

static void *intel_pt_worker__main(void *arg)
{
	struct intel_pt_worker *w = arg;
	struct intel_pt_par *par = w->par;

	pthread_mutex_lock(&par->lock);
	while (!par->stop) {
		struct intel_pt_job *job = intel_pt_par__queued(par);

		if (!job) {
			pthread_cond_wait(&par->work, &par->lock);
			continue;
		}
		intel_pt_worker__run(w, job);
	}
	pthread_mutex_unlock(&par->lock);
	return NULL;
}

void intel_pt_par__delete(struct intel_pt_par *par)
{
	if (!par)
		return;
	pthread_mutex_lock(&par->lock);
	par->stop = true;
	pthread_cond_broadcast(&par->work);
	pthread_mutex_unlock(&par->lock);
	for (unsigned int i = 0; i < par->nr_workers; i++) {
		if (par->workers[i].started)
			pthread_join(par->workers[i].thread, NULL);
		par->dec_delete(par->workers[i].dec);
	}
	par->dec_delete(par->helper.dec);
	for (unsigned int i = 0; i < par->ahead; i++) {
		free(par->jobs[i].samples);
		free(par->jobs[i].errors);
	}
	pthread_cond_destroy(&par->work);
	pthread_cond_destroy(&par->done);
	pthread_mutex_destroy(&par->lock);
	free(par);
}

/* w's decoder: the caller's options, its lists for callbacks. */
static int intel_pt_worker__init(struct intel_pt_worker *w, struct intel_pt_par *par,
				 const struct auxtrace_decode_opts *opts,
				 struct intel_pt_decoder *(*dec_new)(
					 const struct auxtrace_decode_opts *opts))
{
	struct auxtrace_decode_opts o = *opts;

	o.nr_threads = 1;
	o.sample_fn = intel_pt_job__sample;
	o.error_fn = intel_pt_job__error;
	o.ctx = w;
	w->par = par;
	w->dec = dec_new(&o);
	return w->dec ? 0 : -1;
}

struct intel_pt_par *intel_pt_par__new(const struct auxtrace_decode_opts *opts,
				       struct intel_pt_decoder *(*dec_new)(
					       const struct auxtrace_decode_opts *opts),
				       void (*dec_delete)(struct intel_pt_decoder *dec))
{
	unsigned int nr = opts->nr_threads - 1;
	struct intel_pt_par *par = calloc(1, sizeof(*par) + nr * sizeof(par->workers[0]));

	if (!par)
		return NULL;
	pthread_mutex_init(&par->lock, NULL);
	pthread_cond_init(&par->work, NULL);
	pthread_cond_init(&par->done, NULL);
	par->nr_workers = nr;
	par->ahead = opts->nr_threads * INTEL_PT_PAR_PER_THREAD;
	if (par->ahead > INTEL_PT_PAR_JOBS)
		par->ahead = INTEL_PT_PAR_JOBS;
	par->dec_delete = dec_delete;
	if (intel_pt_worker__init(&par->helper, par, opts, dec_new)) {
		intel_pt_par__delete(par);
		return NULL;
	}
	for (unsigned int i = 0; i < nr; i++) {
		struct intel_pt_worker *w = &par->workers[i];

		/* it decodes beside the caller's thread: on sections of its own */
		if (intel_pt_worker__init(w, par, opts, dec_new) ||
		    !(w->dec->iscache = pt_iscache_alloc(NULL)) ||
		    pthread_create(&w->thread, NULL, intel_pt_worker__main, w)) {
			intel_pt_par__delete(par);
			return NULL;
		}
		w->started = true;
	}
	return par;
}

/* A new feed numbers its regions from 0: nothing of the last one is given out. */
void intel_pt_par__restart(struct intel_pt_par *par)
{
	if (par)
		par->next_queued = 0;
}

/*
 * Give the workers the regions from the one the caller's thread is at that end before
 * until_tsc (the trace time a run stops at; UINT64_MAX: none), up to par->ahead.
 */
void intel_pt_par__give_out(struct intel_pt_decoder *dec, uint64_t until_tsc)
{
	struct intel_pt_par *par = dec->par;
	unsigned int r = par->next_queued > dec->next_region ? par->next_queued
							      : dec->next_region;
	bool given = false;

	pthread_mutex_lock(&par->lock);
	for (; r < dec->nr_regions && r < dec->next_region + par->ahead; r++) {
		const struct intel_pt_region *region = &dec->regions[r];
		struct intel_pt_job *job = &par->jobs[r % par->ahead];

		if (until_tsc != UINT64_MAX && (!region->next_tsc || region->next_tsc >= until_tsc))
			break;
		if (job->state != INTEL_PT_JOB_FREE)
			break;
		job->state = INTEL_PT_JOB_QUEUED;
		job->nr = r;
		job->region = *region;
		job->image = dec->synth.opts.image;
		given = true;
	}
	par->next_queued = r;
	if (given)
		pthread_cond_broadcast(&par->work);
	pthread_mutex_unlock(&par->lock);
}

/* Hand out job's list in order, as the caller's decoder would have made it. */
static int intel_pt_par__hand_out(struct intel_pt_decoder *dec, const struct intel_pt_job *job)
{
	const struct auxtrace_decode_opts *o = &dec->synth.opts;
	struct auxtrace_decode_stats *st = &dec->synth.stats;
	size_t e = 0;
	int err = 0;

	for (size_t i = 0; i <= job->nr_samples && !err; i++) {
		for (; e < job->nr_errors && job->errors[e].at == i && !err; e++) {
			struct auxtrace_decode_error out = job->errors[e].e;

			out.msg = job->errors[e].msg;
			err = o->error_fn(o->ctx, &out);
		}
		if (i < job->nr_samples && !err)
			err = o->sample_fn(o->ctx, &job->samples[i]);
	}
	st->branches += job->stats.branches;
	st->instructions += job->stats.instructions;
	st->errors += job->stats.errors;
	st->worker_pieces++;
	dec->flow.prev = job->prev;
	dec->flow.have_prev = job->have_prev;
	dec->flow.last_ip = job->last_ip;
	return err;
}

int intel_pt_par__take(struct intel_pt_decoder *dec, unsigned int region)
{
	struct intel_pt_par *par = dec->par;
	struct intel_pt_job *job = &par->jobs[region % par->ahead];
	bool usable;

	int err = 0;

	pthread_mutex_lock(&par->lock);
	if (job->state == INTEL_PT_JOB_FREE || job->nr != region) {
		pthread_mutex_unlock(&par->lock);
		return 0;
	}
	while (job->state == INTEL_PT_JOB_RUNNING) {
		/* rather than wait, decode a later piece as a worker would */
		struct intel_pt_job *other = intel_pt_par__queued(par);

		if (!other) {
			pthread_cond_wait(&par->done, &par->lock);
			continue;
		}
		intel_pt_worker__run(&par->helper, other);
	}
	/* still queued, or not usable: the caller's thread decodes it the usual way */
	usable = job->state == INTEL_PT_JOB_DONE && job->usable;
	pthread_mutex_unlock(&par->lock);
	if (usable)
		err = intel_pt_par__hand_out(dec, job);
	pthread_mutex_lock(&par->lock);
	job->state = INTEL_PT_JOB_FREE;
	pthread_mutex_unlock(&par->lock);
	return err < 0 ? err : usable;
}

void intel_pt_par__cancel(struct intel_pt_decoder *dec)
{
	struct intel_pt_par *par = dec->par;

	if (!par)
		return;
	pthread_mutex_lock(&par->lock);
	for (unsigned int i = 0; i < par->ahead; i++) {
		struct intel_pt_job *job = &par->jobs[i];

		while (job->state == INTEL_PT_JOB_RUNNING)
			pthread_cond_wait(&par->done, &par->lock);
		job->state = INTEL_PT_JOB_FREE;
	}
	par->next_queued = dec->next_region;
	pthread_mutex_unlock(&par->lock);
}
