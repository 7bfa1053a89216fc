// SPDX-License-Identifier: LGPL-2.1
/*
 * The session decoders' common part (internal/decode-session.h): what perf's intel-bts.c
 * and intel-pt.c do alike around their decoders. Queues go on a heap by the time their
 * trace is at; before a kernel record reaches the tool, every queue whose trace is older is
 * decoded up to the record's time, so synthesized samples and records reach the tool in one
 * time order, and the record's side-band (a new mapping, a context switch) applies to the
 * trace after it only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>

#include <internal/auxtrace-info.h>
#include <internal/decode-session.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include <internal/session.h>

/* perf's synthesized events sample what the AUX event does, but for the AUX area itself. */
#define DECODE_SAMPLE_MASK	(~(uint64_t)PERF_SAMPLE_AUX & (PERF_SAMPLE_MAX - 1))

static struct decode_session *decode_session(struct auxtrace *aux)
{
	return container_of(aux, struct decode_session, aux);
}

struct evsel *decode_session__aux_evsel(struct perf_session *session, uint32_t pmu_type)
{
	struct evlist *evlist = perf_session__evlist(session);
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		if (evsel__attr(evsel)->type == pmu_type)
			return evsel;
	return NULL;
}

/* perf's event name modifiers: ":u" for an event that excludes the kernel and the hypervisor. */
static void decode_session__modifiers(const struct perf_event_attr *attr, char *buf, size_t size)
{
	bool guest_default = false;
	size_t n = 0;

	buf[0] = '\0';
#define MOD(excluded, c)							\
	do {									\
		if (!(excluded) && n + 2 < size) {				\
			if (!n)							\
				buf[n++] = ':';					\
			buf[n++] = (c);						\
			buf[n] = '\0';						\
		}								\
	} while (0)
	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		MOD(attr->exclude_kernel, 'k');
		MOD(attr->exclude_user, 'u');
		MOD(attr->exclude_hv, 'h');
		guest_default = true;
	}
	if (attr->exclude_host || attr->exclude_guest == guest_default) {
		MOD(attr->exclude_host, 'H');
		MOD(attr->exclude_guest, 'G');
	}
#undef MOD
}

/*
 * One event perf synthesizes for the samples of a kind, added to the session's evlist as
 * perf adds it to its own: a hardware event of the AUX event's exclusions, named as perf
 * names it ("branches:u").
 */
static struct evsel *decode_session__synth_evsel(struct decode_session *ds, uint64_t config,
						 const char *name, uint64_t period,
						 uint64_t extra_type)
{
	const struct perf_event_attr *aux = evsel__attr(ds->aux_evsel);
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(attr), .config = config,
		.sample_period = period, .read_format = aux->read_format,
		.exclude_user = aux->exclude_user, .exclude_kernel = aux->exclude_kernel,
		.exclude_hv = aux->exclude_hv, .exclude_host = aux->exclude_host,
		.exclude_guest = aux->exclude_guest, .sample_id_all = aux->sample_id_all,
	};
	char full[64], mods[16];
	struct evsel *evsel;

	attr.sample_type = (aux->sample_type & DECODE_SAMPLE_MASK) | PERF_SAMPLE_IP |
			   PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | extra_type;
	attr.sample_type &= ~(uint64_t)(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	attr.sample_type |= (ds->timeless || ds->untimed_samples ? 0 : PERF_SAMPLE_TIME) |
			    (ds->per_cpu ? PERF_SAMPLE_CPU : 0);
	decode_session__modifiers(&attr, mods, sizeof(mods));
	snprintf(full, sizeof(full), "%s%s", name, mods);
	evsel = evsel__new(&attr);
	if (!evsel || evsel__set_name(evsel, full) ||
	    evlist__add(perf_session__evlist(ds->session), evsel)) {
		evsel__delete(evsel);
		return NULL;
	}
	return evsel;
}

/* A duration in ns as TSC ticks, with the recording's TSC conversion: perf's rule. */
static uint64_t decode_session__ns_to_ticks(const struct decode_session *ds, uint64_t ns)
{
	/* no conversion: perf takes a tick for a nanosecond */
	uint64_t mult = ds->tc.time_mult ? ds->tc.time_mult : 1;
	unsigned int shift = ds->tc.time_mult ? ds->tc.time_shift : 0;

	return ((ns / mult) << shift) + ((ns % mult) << shift) / mult;
}

/*
 * The instruction period as perf's decoders take it: instructions, or ticks of the trace's
 * TSC (a time period converted to them); none (i0ns, or less than a tick) is every
 * instruction. A decoder without instruction samples ignores i, as perf's BTS does.
 */
static void decode_session__insn_period(struct decode_session *ds)
{
	struct itrace_synth_opts *synth = &ds->synth;

	if (synth->instructions && !ds->ops->instructions) {
		pr_info("%s decoder: the trace has branches only, no instruction samples (i): "
			"ignored, as perf does\n", ds->ops->name);
		synth->instructions = false;
	}
	ds->insn_period = synth->period;
	ds->insn_period_ticks = synth->period_type != PERF_ITRACE_PERIOD_INSTRUCTIONS;
	if (synth->period_type == PERF_ITRACE_PERIOD_NANOSECS)
		ds->insn_period = decode_session__ns_to_ticks(ds, synth->period);
	if (!ds->insn_period) {
		ds->insn_period = 1;
		ds->insn_period_ticks = false;
	}
}

/* Which options apply, as perf sets them up: the caller's when set, else only defaults. */
static int decode_session__synth_opts(struct decode_session *ds, struct perf_session *s)
{
	const struct itrace_synth_opts *o = s->opts.itrace_synth_opts;
	struct itrace_synth_opts *synth = &ds->synth;
	int err = opts__copy(itrace_synth_opts, synth, o);
	bool no_sample = o ? synth->default_no_sample : true;

	if (err)
		return err;
	if (!synth->set) {
		*synth = (struct itrace_synth_opts){ .sz = sizeof(*synth) };
		itrace_synth_opts__set_default(synth, no_sample);
	}
	if (synth->calls)
		ds->branches_filter |= AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_ASYNC |
				       AUXTRACE_IP_FLAG_TRACE_END;
	if (synth->returns)
		ds->branches_filter |= AUXTRACE_IP_FLAG_RETURN | AUXTRACE_IP_FLAG_TRACE_BEGIN;
	decode_session__insn_period(ds);
	return 0;
}

static void decode_session__free_queues(struct decode_session *ds)
{
	for (unsigned int i = 0; ds->queues && i < auxtrace_queues__nr(ds->queues); i++) {
		struct auxtrace_queue *queue = auxtrace_queues__queue(ds->queues, i);
		struct decode_queue *q = queue ? queue->priv : NULL;

		if (!q)
			continue;
		if (q->dec)
			ds->ops->dec_free(q->dec);
		free(q);
		queue->priv = NULL;
	}
	auxtrace_queues__delete(ds->queues);
	ds->queues = NULL;
}

static void decode_session__free_events(struct auxtrace *aux, struct perf_session *s)
{
	(void)s;
	decode_session__free_queues(decode_session(aux));
}

static void decode_session__free(struct auxtrace *aux, struct perf_session *s)
{
	struct decode_session *ds = decode_session(aux);

	(void)s;
	decode_session__free_queues(ds);
	auxtrace_heap__delete(ds->heap);
	perf_machine__delete(ds->machine);
	free(ds->cpu_threads);
	free(ds);
}

/* ---- queues ---- */

static struct auxtrace_buffer *decode_queue__candidate(struct decode_queue *q)
{
	return auxtrace_buffer__next(q->queue, q->buffer);
}

static void decode_queue__thread(struct decode_queue *q)
{
	struct decode_session *ds = q->ds;

	if (q->cpu >= 0 && ds->per_cpu && (unsigned int)q->cpu < ds->nr_cpu_threads &&
	    ds->cpu_threads[q->cpu].tid != -1) {
		q->pid = ds->cpu_threads[q->cpu].pid;
		q->tid = ds->cpu_threads[q->cpu].tid;
		return;
	}
	q->tid = q->queue->tid;
	q->pid = perf_machine__pid(ds->machine, q->tid);
	if (q->pid == -1)
		q->pid = q->tid;	/* a main thread: its tid is its process */
}

struct auxtrace_image *decode_queue__image(struct decode_queue *q)
{
	decode_queue__thread(q);
	return perf_machine__image(q->ds->machine, q->pid);
}

const void *decode_queue__buffer_data(struct decode_queue *q, struct auxtrace_aux_data *data)
{
	struct auxtrace_buffer *b = q->buffer;
	const void *p = auxtrace_buffer__get_data(b);

	if (!p) {
		pr_err("%s decoder: the %zu-byte AUX buffer at file offset %#" PRIx64 " cannot be "
		       "mapped: %s\n", q->ds->ops->name, b->size, b->data_offset, strerror(errno));
		return NULL;
	}
	*data = (struct auxtrace_aux_data){ .data = p, .size = b->size, .offset = b->offset,
					    .cpu = q->cpu, .pid = q->pid, .tid = q->tid };
	return p;
}

struct auxtrace_buffer *decode_queue__next_buffer(struct decode_queue *q,
						  struct auxtrace_aux_data *data, bool *final)
{
	struct auxtrace_buffer *next = decode_queue__candidate(q);

	*final = auxtrace_queues__data_queued(q->ds->queues) || q->ds->flushing;
	if (q->buffer)
		auxtrace_buffer__drop_data(q->buffer);
	errno = 0;
	if (!next)
		return NULL;
	q->buffer = next;
	decode_queue__thread(q);
	return decode_queue__buffer_data(q, data) ? next : NULL;
}

static struct decode_queue *decode_session__queue(struct decode_session *ds, unsigned int nr)
{
	struct auxtrace_queue *queue = auxtrace_queues__queue(ds->queues, nr);
	struct decode_queue *q;

	if (!queue || !queue->head)
		return NULL;
	if (queue->priv)
		return queue->priv;
	q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->ds = ds;
	q->queue = queue;
	q->nr = nr;
	q->cpu = queue->cpu;
	q->pid = q->tid = -1;
	queue->priv = q;
	return q;
}

static int decode_queue__make_decoder(struct decode_queue *q)
{
	struct auxtrace_decode_opts opts;

	if (q->dec)
		return 0;
	decode_queue__decode_opts(q, &opts);
	if (!opts.image)
		return -errno;
	q->dec = q->ds->ops->dec_new(q, &opts);
	return q->dec ? 0 : -errno;
}

/*
 * Queues that have something to decode go on the heap at the time their trace starts; at
 * the end, every queue not done does, to decode what it kept for data that did not come.
 * Without timestamps the heap serves only the end, in queue order.
 */
static int decode_session__setup_queues(struct decode_session *ds)
{
	bool new_data = auxtrace_queues__take_new_data(ds->queues);

	if ((!new_data || ds->timeless) && !ds->flushing)
		return 0;
	for (unsigned int i = 0; i < auxtrace_queues__nr(ds->queues); i++) {
		struct auxtrace_queue *queue = auxtrace_queues__queue(ds->queues, i);
		struct decode_queue *q;
		bool next;
		int err;

		if (!queue || !queue->head)
			continue;
		q = decode_session__queue(ds, i);
		if (!q)
			return -ENOMEM;
		if (q->on_heap || q->done)
			continue;
		next = decode_queue__candidate(q) != NULL;
		if (!next && !ds->flushing)
			continue;
		err = auxtrace_heap__add(ds->heap, i, next && !ds->timeless ?
					 ds->ops->start_time(q) : 0);
		if (err)
			return err;
		q->on_heap = true;
	}
	return 0;
}

/* Decode q until its trace reaches until: 1 (and *next) when it stopped there. */
static int decode_session__run_queue(struct decode_session *ds, struct decode_queue *q,
				     uint64_t until, uint64_t *next)
{
	int err = decode_queue__make_decoder(q);

	if (!err)
		err = ds->ops->run(q, until, next);
	if (err < 0)
		q->done = true;		/* a decoder that failed is not asked again */
	return err;
}

/* Decode every queue whose trace is older than time, oldest first. */
static int decode_session__process_queues(struct decode_session *ds, uint64_t time)
{
	int err = decode_session__setup_queues(ds);

	while (!err) {
		const struct auxtrace_heap_item *top = auxtrace_heap__top(ds->heap);
		struct decode_queue *q;
		uint64_t until = time, next = time;

		if (!top || (top->ordinal >= time && !ds->flushing))
			break;
		q = auxtrace_queues__queue(ds->queues, top->queue_nr)->priv;
		auxtrace_heap__pop(ds->heap);
		/* Not past the next queue's trace: their samples interleave in time. */
		top = auxtrace_heap__top(ds->heap);
		if (top && !ds->timeless && top->ordinal < until - 1)
			until = top->ordinal + 1;
		err = decode_session__run_queue(ds, q, until, &next);
		if (err == 1)
			err = auxtrace_heap__add(ds->heap, q->nr, next);
		else
			q->on_heap = false;
	}
	return err;
}

/* A thread exits: without timestamps, its trace is decoded now, while its maps hold. */
static int decode_session__thread_exit(struct decode_session *ds, pid_t tid)
{
	for (unsigned int i = 0; i < auxtrace_queues__nr(ds->queues); i++) {
		struct auxtrace_queue *queue = auxtrace_queues__queue(ds->queues, i);
		struct decode_queue *q;
		uint64_t next;
		int err = 0;

		if (!queue || !queue->head || queue->tid != tid || queue->cpu != -1)
			continue;
		q = decode_session__queue(ds, i);
		if (!q)
			return -ENOMEM;
		while (!q->done && (err = decode_session__run_queue(ds, q, UINT64_MAX, &next)) == 1)
			;
		if (err < 0)
			return err;
	}
	return 0;
}

static int decode_session__set_cpu_thread(struct decode_session *ds, int cpu, pid_t pid,
					  pid_t tid)
{
	if (cpu < 0 || cpu >= 1 << 20)
		return 0;
	if ((unsigned int)cpu >= ds->nr_cpu_threads) {
		unsigned int nr = ((unsigned int)cpu + 64) & ~63u;
		struct decode_cpu_thread *t = reallocarray(ds->cpu_threads, nr, sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (unsigned int i = ds->nr_cpu_threads; i < nr; i++)
			t[i] = (struct decode_cpu_thread){ -1, -1 };
		ds->cpu_threads = t;
		ds->nr_cpu_threads = nr;
	}
	ds->cpu_threads[cpu] = (struct decode_cpu_thread){ pid, tid };
	return 0;
}

/* The side-band a decoder follows: processes and their maps, who runs on which CPU. */
static int decode_session__side_band(struct decode_session *ds, const union perf_event *event,
				     const struct perf_sample *sample)
{
	int err = perf_machine__process_event(ds->machine, event, sample);

	if (err)
		return err;
	switch (event->header.type) {
	case PERF_RECORD_ITRACE_START:
		return decode_session__set_cpu_thread(ds, (int)sample->cpu,
						      (pid_t)event->itrace_start.pid,
						      (pid_t)event->itrace_start.tid);
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_SWITCH:
		/* Out: a CPU-wide record names the next thread; in: the record's own runs. */
		if (!(event->header.misc & PERF_RECORD_MISC_SWITCH_OUT))
			return decode_session__set_cpu_thread(ds, (int)sample->cpu,
							      (pid_t)sample->pid,
							      (pid_t)sample->tid);
		if (event->header.type == PERF_RECORD_SWITCH)
			return 0;
		return decode_session__set_cpu_thread(ds, (int)sample->cpu,
						      (pid_t)event->context_switch.next_prev_pid,
						      (pid_t)event->context_switch.next_prev_tid);
	default:
		return 0;
	}
}

/* What the kernel lost (PERF_RECORD_AUX TRUNCATED) is an error, as perf reports it. */
static int decode_session__lost(struct decode_session *ds, const struct perf_sample *sample)
{
	struct perf_session *s = ds->session;
	struct auxtrace_decode_error e = {
		.kind = AUXTRACE_DECODE_ERR_LOST, .msg = "Lost trace data",
		.perf_code = ds->ops->perf_codes[AUXTRACE_DECODE_ERR_LOST],
		.time = sample->time == (uint64_t)-1 ? 0 : sample->time,
		.cpu = (int)sample->cpu, .pid = (int)sample->pid, .tid = (int)sample->tid,
	};

	if (!ds->synth.errors || (ds->synth.error_minus_flags & AUXTRACE_ERR_FLG_DATA_LOST) ||
	    !s->tool_ops.auxtrace_error)
		return 0;
	return s->tool_ops.auxtrace_error(s->tool, s, &e, ds->aux_evsel);
}

static int decode_session__process_event(struct auxtrace *aux, struct perf_session *s,
					 union perf_event *event, struct perf_sample *sample,
					 struct evsel *evsel)
{
	struct decode_session *ds = decode_session(aux);
	bool timed = sample->time && sample->time != (uint64_t)-1;
	int err = 0;

	(void)s;
	(void)evsel;
	if (!ds->timeless && timed)
		err = decode_session__process_queues(ds, sample->time);
	if (!err && ds->timeless && event->header.type == PERF_RECORD_EXIT)
		err = decode_session__thread_exit(ds, (pid_t)event->fork.tid);
	if (!err)
		err = decode_session__side_band(ds, event, sample);
	if (!err && event->header.type == PERF_RECORD_AUX &&
	    (event->aux.flags & PERF_AUX_FLAG_TRUNCATED))
		err = decode_session__lost(ds, sample);
	return libauxtrace__err(err);
}

static int decode_session__process_auxtrace_event(struct auxtrace *aux, struct perf_session *s,
						  union perf_event *event, uint64_t data_offset)
{
	struct decode_session *ds = decode_session(aux);

	if (auxtrace_queues__data_queued(ds->queues))
		return 0;	/* queued from the index or a walk already */
	return auxtrace_queues__add_event(ds->queues, s, event, data_offset, NULL);
}

static int decode_session__flush(struct auxtrace *aux, struct perf_session *s)
{
	struct decode_session *ds = decode_session(aux);

	(void)s;
	ds->flushing = true;
	return libauxtrace__err(decode_session__process_queues(ds, UINT64_MAX));
}

/* ---- samples and errors to the tool ---- */

static int decode_queue__sample(void *ctx, const struct auxtrace_sample *sample)
{
	struct decode_queue *q = ctx;
	struct decode_session *ds = q->ds;
	struct perf_session *s = ds->session;
	struct auxtrace_sample out = *sample;
	struct evsel *evsel = sample->kind == AUXTRACE_SAMPLE_BRANCH ? ds->branches
								     : ds->instructions;

	if (sample->kind == AUXTRACE_SAMPLE_BRANCH && ds->branches_filter &&
	    !(sample->flags & ds->branches_filter))
		return 0;
	if (ds->skipped < ds->synth.initial_skip) {
		ds->skipped++;
		return 0;
	}
	out.pid = q->pid;
	out.tid = q->tid;
	if (!evsel || !s->tool_ops.auxtrace_sample)
		return 0;
	return s->tool_ops.auxtrace_sample(s->tool, s, &out, evsel);
}

static int decode_queue__error(void *ctx, const struct auxtrace_decode_error *err)
{
	struct decode_queue *q = ctx;
	struct decode_session *ds = q->ds;
	struct perf_session *s = ds->session;
	struct auxtrace_decode_error out = *err;

	if (err->kind == AUXTRACE_DECODE_ERR_OVERFLOW &&
	    (ds->synth.error_minus_flags & AUXTRACE_ERR_FLG_OVERFLOW))
		return 0;
	out.pid = q->pid;
	out.tid = q->tid;
	if ((unsigned int)err->kind < ARRAY_SIZE(ds->ops->perf_codes))
		out.perf_code = ds->ops->perf_codes[err->kind];
	if (!s->tool_ops.auxtrace_error)
		return 0;
	return s->tool_ops.auxtrace_error(s->tool, s, &out, ds->aux_evsel);
}

void decode_queue__decode_opts(struct decode_queue *q, struct auxtrace_decode_opts *opts)
{
	const struct decode_session *ds = q->ds;

	*opts = (struct auxtrace_decode_opts){
		.sz = sizeof(*opts),
		.branches = ds->synth.branches,
		.instructions = ds->synth.instructions,
		.insn_period = ds->insn_period,
		.insn_period_ticks = ds->insn_period_ticks,
		.errors = ds->synth.errors,
		.sample_fn = decode_queue__sample,
		.error_fn = decode_queue__error,
		.ctx = q,
		.image = decode_queue__image(q),
		.tsc = ds->tc,
		.nr_threads = ds->session->opts.decode_threads,
	};
}

struct decode_session *decode_session__new(const struct perf_record_auxtrace_info *info,
					   const struct decode_session_ops *ops,
					   size_t min_words)
{
	size_t nr = (info->header.size - sizeof(*info)) / sizeof(uint64_t);
	struct decode_session *ds;

	if (nr < min_words) {
		pr_err("%s decoder: AUXTRACE_INFO has %zu words of parameters, perf writes at "
		       "least %zu: the file is damaged\n", ops->name, nr, min_words);
		return libauxtrace__ptr_err(EINVAL);
	}
	ds = calloc(1, sizeof(*ds));
	if (!ds)
		return libauxtrace__ptr_err(ENOMEM);
	ds->ops = ops;
	ds->pmu_type = (uint32_t)info->priv[INTEL_PT_PMU_TYPE];
	ds->tc = (struct auxtrace_tsc_conv){
		.time_shift = (uint16_t)info->priv[INTEL_PT_TIME_SHIFT],
		.time_mult = (uint32_t)info->priv[INTEL_PT_TIME_MULT],
		.time_zero = info->priv[INTEL_PT_TIME_ZERO],
	};
	return ds;
}

static int decode_session__init(struct decode_session *ds, struct perf_session *session)
{
	int err;

	ds->session = session;
	ds->aux_evsel = decode_session__aux_evsel(session, ds->pmu_type);
	if (!ds->aux_evsel) {
		pr_err("%s decoder: no event of PMU type %u in the recording, whose AUX data "
		       "this is: the file is damaged\n", ds->ops->name, ds->pmu_type);
		return -EINVAL;
	}
	err = decode_session__synth_opts(ds, session);
	if (err)
		return err;
	ds->machine = perf_machine__new(NULL);
	ds->queues = auxtrace_queues__new();
	ds->heap = auxtrace_heap__new();
	if (!ds->machine || !ds->queues || !ds->heap)
		return -ENOMEM;
	if (ds->synth.branches &&
	    !(ds->branches = decode_session__synth_evsel(ds, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
							 "branches", 1, PERF_SAMPLE_ADDR)))
		return -ENOMEM;
	if (ds->synth.instructions &&
	    !(ds->instructions = decode_session__synth_evsel(ds, PERF_COUNT_HW_INSTRUCTIONS,
							     "instructions", ds->insn_period, 0)))
		return -ENOMEM;
	err = auxtrace_queues__populate(ds->queues, session);
	return err < 0 ? err : 0;
}

struct auxtrace *decode_session__start(struct decode_session *ds, struct perf_session *session)
{
	int err;

	ds->aux = (struct auxtrace){
		.sz = sizeof(ds->aux),
		.process_event = decode_session__process_event,
		.process_auxtrace_event = decode_session__process_auxtrace_event,
		.flush_events = decode_session__flush,
		.free_events = decode_session__free_events,
		.free = decode_session__free,
	};
	err = decode_session__init(ds, session);
	if (err) {
		decode_session__free(&ds->aux, session);
		return libauxtrace__ptr_err(err);
	}
	return &ds->aux;
}
