/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Sample synthesis shared by the AUX decoders: the decoders say what the trace shows (a
 * branch, an instruction, an error), and this decides what becomes a sample, as perf's
 * --itrace letters b, i<period> and e do, and fills it in.
 */
#ifndef AUXTRACE_INTERNAL_DECODE_SYNTH_H
#define AUXTRACE_INTERNAL_DECODE_SYNTH_H

#include <auxtrace/decode.h>

struct decode_synth {
	struct auxtrace_decode_opts opts;
	struct auxtrace_decode_stats stats;
	uint64_t insn_count;		/* instructions since the last instruction sample */
	/* periods in ticks (opts.insn_period_ticks), kept as perf's decoder keeps them */
	uint64_t tick_period;		/* insn_period rounded down to a power of 2 */
	uint64_t tick_last;		/* the period boundary the last sample counts from */
	uint64_t tick_left;		/* instructions to the next sample; 0: count afresh */
	bool tick_continuous;		/* tick_last is from this stretch of trace */
};

/* Copy opts (sz-checked) and check they are consistent; who names the decoder in messages.
 * 0 or -EINVAL (logged). */
int decode_synth__init(struct decode_synth *synth, const struct auxtrace_decode_opts *opts,
		       const char *who);

/* x86-64's split unless opts.kernel_start says otherwise. */
bool decode_synth__is_kernel(const struct decode_synth *synth, uint64_t ip);

/* Perf time of a TSC value; 0 without a conversion. */
uint64_t auxtrace_tsc_conv__time(const struct auxtrace_tsc_conv *tc, uint64_t tsc);
/* The first TSC value whose perf time is time or later (0 for times before time_zero);
 * UINT64_MAX without a conversion, so that no trace time reaches it. */
uint64_t auxtrace_tsc_conv__tsc(const struct auxtrace_tsc_conv *tc, uint64_t time);

static inline uint64_t decode_synth__time(const struct decode_synth *synth, uint64_t tsc)
{
	return auxtrace_tsc_conv__time(&synth->opts.tsc, tsc);
}

/* Where a sample or error comes from: the payload and the AUX offset of the trace. */
struct decode_where {
	const struct auxtrace_aux_data *data;
	uint64_t offset;		/* in the payload */
	uint64_t time;
};

/* A taken branch (from = 0: trace begin, to = 0: trace end). 0 or the callback's error. */
int decode_synth__branch(struct decode_synth *synth, const struct decode_where *where,
			 uint64_t from, uint64_t to, uint32_t flags, uint8_t insn_len);

/* One instruction executed: true when it completes a period of opts.instructions, and
 * decode_synth__insn_sample should make its sample. Inline: it runs for every instruction. */
static inline bool decode_synth__insn_due(struct decode_synth *synth)
{
	synth->stats.instructions++;
	return synth->opts.instructions && ++synth->insn_count >= synth->opts.insn_period;
}

/*
 * One instruction executed, with periods in ticks: true when it completes a period. now is
 * the trace's time as it was before the instruction, in TSC ticks, estimated as perf does
 * (the last timing packet's time plus one tick per instruction since); branch says the
 * instruction may branch, which ends the straight run of code perf counts in one go.
 */
bool decode_synth__tick_due(struct decode_synth *synth, uint64_t now, bool branch);
/*
 * The flow of instructions broke (an event, an error): the distance to the next sample is
 * counted afresh from the next instruction's time; after a sync point or the end of the
 * trace (sync), the next boundary is found afresh as well.
 */
void decode_synth__tick_restart(struct decode_synth *synth, bool sync);

/* The sample of a completed period. 0 or the callback's error. */
int decode_synth__insn_sample(struct decode_synth *synth, const struct decode_where *where,
			      uint64_t ip, uint8_t insn_len);

/* A decode error: counted, logged at debug level, and reported when opts.errors. */
int decode_synth__error(struct decode_synth *synth, const struct decode_where *where,
			enum auxtrace_decode_error_kind kind, int lib_code, uint64_t ip,
			const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/*
 * Format one dump line and hand it to fn. The line buffer is per call on the stack, so
 * dumps are reentrant. 0 or fn's negative value.
 */
int decode_dump__line(auxtrace_dump_fn fn, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
