/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the session decoders (struct auxtrace of Intel BTS and Intel PT) share: their AUX
 * queues and the heap that merges them with the side-band in time order, the processes
 * the side-band describes (images to decode with), the events perf synthesizes, and the
 * delivery of samples and errors to the tool, filtered as perf's itrace options say.
 * Each decoder brings its queue callbacks.
 */
#ifndef AUXTRACE_INTERNAL_DECODE_SESSION_H
#define AUXTRACE_INTERNAL_DECODE_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/auxtrace-queues.h>
#include <auxtrace/decode.h>
#include <auxtrace/itrace.h>
#include <auxtrace/machine.h>
#include <auxtrace/session.h>

struct decode_session;

/* One AUX queue (an mmap idx): queue->priv. */
struct decode_queue {
	struct decode_session *ds;
	struct auxtrace_queue *queue;
	unsigned int nr;
	struct auxtrace_buffer *buffer;	/* the one being decoded, or the last one decoded */
	bool buffer_used;		/* buffer is decoded: the next one comes next */
	bool on_heap;
	bool ended;			/* its decoder was told the trace ends */
	bool done;
	int cpu;			/* -1: a thread's ring */
	pid_t pid, tid;			/* who runs the traced code now; -1 unknown */
	void *dec;			/* the decoder's, made on first use */
};

struct decode_session_ops {
	const char *name;		/* "intel_pt", in messages */
	/* It synthesizes instruction samples (i): perf's Intel PT does, its BTS does not. */
	bool instructions;
	/* The decoder of a queue, opts filled in by the caller. NULL with errno. */
	void *(*dec_new)(struct decode_queue *q, const struct auxtrace_decode_opts *opts);
	void (*dec_free)(void *dec);
	/*
	 * Decode q until its trace reaches time until: 1 with *next the time it is at when it
	 * stopped there; 0 when everything queued so far is decoded (decode_queue__next_buffer
	 * says whether more may come); -errno.
	 */
	int (*run)(struct decode_queue *q, uint64_t until, uint64_t *next);
	/* Where the trace of q's next buffer starts in time, for the heap. */
	uint64_t (*start_time)(struct decode_queue *q);
	/* perf's error codes, by enum auxtrace_decode_error_kind. */
	int perf_codes[AUXTRACE_DECODE_ERR_LOST + 1];
};

struct decode_session {
	struct auxtrace aux;
	struct perf_session *session;
	const struct decode_session_ops *ops;
	struct auxtrace_queues *queues;
	struct auxtrace_heap *heap;
	struct perf_machine *machine;
	struct itrace_synth_opts synth;
	struct auxtrace_tsc_conv tc;
	uint32_t pmu_type;
	struct evsel *aux_evsel;	/* the AUX event of the recording */
	struct evsel *branches;		/* the events perf synthesizes, in the session's evlist */
	struct evsel *instructions;
	uint32_t branches_filter;	/* c and r: the branch kinds kept; 0 all */
	uint64_t insn_period;		/* in instructions, or in TSC ticks: */
	bool insn_period_ticks;
	bool timeless;			/* decode at thread exit and at the end, not in time */
	bool untimed_samples;		/* samples carry no time, even decoded in time (BTS) */
	bool per_cpu;			/* queues are CPUs: threads come from the side-band */
	bool flushing;			/* the end: every queue is decoded to its end */
	uint64_t skipped;		/* of synth.initial_skip */
	/* The thread on each CPU, from ITRACE_START and context switches. */
	struct decode_cpu_thread { pid_t pid, tid; } *cpu_threads;
	unsigned int nr_cpu_threads;
};

/* The session decoders this library has (auxtrace_decoders__builtin). */
extern const struct auxtrace_decoder intel_bts_auxtrace_decoder;
extern const struct auxtrace_decoder intel_pt_auxtrace_decoder;

/*
 * A decoder for the AUXTRACE_INFO info, which must hold at least min_words words of
 * parameters (what perf requires): they begin, in the Intel layouts, with the PMU type and
 * the TSC conversion, read here. NULL with errno (EINVAL logged, ENOMEM).
 */
struct decode_session *decode_session__new(const struct perf_record_auxtrace_info *info,
					   const struct decode_session_ops *ops,
					   size_t min_words);
/*
 * Set ds up for session: itrace options, the events perf synthesizes (their sample_type
 * with TIME unless timeless or untimed_samples, CPU when per_cpu, which the caller set),
 * the machine, queues (all of a file's data queued now) and heap. Its struct auxtrace, or
 * NULL with errno, ds freed.
 */
struct auxtrace *decode_session__start(struct decode_session *ds, struct perf_session *session);
/* The AUX event: the session's first evsel of type pmu_type, NULL when none. */
struct evsel *decode_session__aux_evsel(struct perf_session *session, uint32_t pmu_type);

/* Decoder options for a queue: what to synthesize, its callbacks (to the tool), tsc. */
void decode_queue__decode_opts(struct decode_queue *q, struct auxtrace_decode_opts *opts);
/* The image of the process q's code runs in now (perf_machine__image). NULL with errno. */
struct auxtrace_image *decode_queue__image(struct decode_queue *q);
/*
 * Done with q->buffer: its data goes (memory follows what is being decoded), and the next
 * buffer becomes q->buffer, mapped, with *data describing it. NULL when there is none yet,
 * with *final telling whether none will come (a file's data is all queued; the session
 * ends), or with errno set when the payload cannot be mapped.
 */
struct auxtrace_buffer *decode_queue__next_buffer(struct decode_queue *q,
						  struct auxtrace_aux_data *data, bool *final);
/* The payload of q->buffer (mapping it), NULL with errno. */
const void *decode_queue__buffer_data(struct decode_queue *q, struct auxtrace_aux_data *data);

#endif
