// SPDX-License-Identifier: LGPL-2.1
/* Sample synthesis shared by the AUX decoders (see internal/decode-synth.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <internal/decode-synth.h>
#include <internal/lib.h>
#include <internal/opts.h>

/* Where x86-64 kernel space starts when the caller does not know better. */
#define X86_64_KERNEL_START 0xffff800000000000ULL

int decode_synth__init(struct decode_synth *synth, const struct auxtrace_decode_opts *opts,
		       const char *who)
{
	int err;

	memset(&synth->stats, 0, sizeof(synth->stats));
	synth->insn_count = 0;
	synth->tick_last = synth->tick_left = 0;
	synth->tick_continuous = false;
	if (!opts) {
		pr_err("%s: no decode options: give a struct auxtrace_decode_opts\n", who);
		return -EINVAL;
	}
	err = opts__copy(auxtrace_decode_opts, &synth->opts, opts);
	if (err)
		return err;
	opts = &synth->opts;
	/* perf samples at multiples of the largest power of 2 not above the period */
	synth->tick_period = opts->insn_period ? 1ULL << (63 - __builtin_clzll(opts->insn_period))
					       : 0;
	if ((opts->branches || opts->instructions) && !opts->sample_fn) {
		pr_err("%s: branches or instructions asked for but no sample_fn to take them\n",
		       who);
		return -EINVAL;
	}
	if (opts->instructions && !opts->insn_period) {
		pr_err("%s: instructions asked for with insn_period 0: give a period of at "
		       "least 1 instruction\n", who);
		return -EINVAL;
	}
	if (opts->errors && !opts->error_fn) {
		pr_err("%s: errors asked for but no error_fn to take them\n", who);
		return -EINVAL;
	}
	return 0;
}

bool decode_synth__is_kernel(const struct decode_synth *synth, uint64_t ip)
{
	return ip >= (synth->opts.kernel_start ? synth->opts.kernel_start : X86_64_KERNEL_START);
}

/* The conversion perf_event_mmap_page documents for time_zero/time_mult/time_shift, in two
 * halves so that tsc * mult cannot overflow. */
uint64_t auxtrace_tsc_conv__time(const struct auxtrace_tsc_conv *tc, uint64_t tsc)
{
	uint64_t quot, rem;

	if (!tc->time_mult || tc->time_shift > 63)
		return 0;
	quot = tsc >> tc->time_shift;
	rem = tsc & ((1ULL << tc->time_shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}

/* The inverse rounds: step to the first TSC value at or past time, so that a decoder
 * stopping at it never stops short of time (nor past it by more than a tick). */
uint64_t auxtrace_tsc_conv__tsc(const struct auxtrace_tsc_conv *tc, uint64_t time)
{
	uint64_t t, tsc;

	if (!tc->time_mult || tc->time_shift > 63)
		return UINT64_MAX;
	if (time <= tc->time_zero)
		return 0;
	t = time - tc->time_zero;
	tsc = ((t / tc->time_mult) << tc->time_shift) +
	      ((t % tc->time_mult) << tc->time_shift) / tc->time_mult;
	while (tsc && auxtrace_tsc_conv__time(tc, tsc - 1) >= time)
		tsc--;
	while (tsc < UINT64_MAX && auxtrace_tsc_conv__time(tc, tsc) < time)
		tsc++;
	return tsc;
}

static void decode_synth__fill(struct auxtrace_sample *s, const struct decode_where *where)
{
	s->time = where->time;
	s->cpu = where->data->cpu;
	s->pid = where->data->pid;
	s->tid = where->data->tid;
	s->aux_offset = where->data->offset + where->offset;
}

int decode_synth__branch(struct decode_synth *synth, const struct decode_where *where,
			 uint64_t from, uint64_t to, uint32_t flags, uint8_t insn_len)
{
	struct auxtrace_sample s = {
		.kind = AUXTRACE_SAMPLE_BRANCH,
		.ip = from,
		.addr = to,
		.period = 1,
		.flags = flags,
		.insn_len = insn_len,
	};

	if (!synth->opts.branches)
		return 0;
	synth->stats.branches++;
	decode_synth__fill(&s, where);
	return synth->opts.sample_fn(synth->opts.ctx, &s);
}

/*
 * How many instructions, counted from the one about to run at time now, until a sample:
 * perf's rule. The first boundary after a sync is the one just past now + 1; while the
 * trace goes on, a boundary the time jumped over (a timing packet) is due at once.
 */
static uint64_t decode_synth__ticks_to_sample(struct decode_synth *synth, uint64_t now)
{
	uint64_t mask = ~(synth->tick_period - 1), t = now, boundary;

	if (synth->tick_continuous) {
		if ((t & mask) > synth->tick_last)
			return 1;
	} else {
		t++;
		if ((t & mask) > synth->tick_last) {
			synth->tick_last = t & mask;
			synth->tick_continuous = true;
		}
	}
	boundary = t & mask;
	/* the last sample came before the boundary it counted from: a whole period */
	if (boundary < synth->tick_last)
		return synth->tick_period;
	return synth->tick_period - (t - boundary);
}

bool decode_synth__tick_due(struct decode_synth *synth, uint64_t now, bool branch)
{
	uint64_t boundary;
	bool due;

	synth->stats.instructions++;
	if (!synth->opts.instructions)
		return false;
	synth->insn_count++;
	if (!synth->tick_left)
		synth->tick_left = decode_synth__ticks_to_sample(synth, now);
	due = !--synth->tick_left;
	if (due) {
		/* the time after the instruction decides which boundary the sample is for */
		boundary = (now + 1) & ~(synth->tick_period - 1);
		synth->tick_last = boundary > synth->tick_last ? boundary
							       : synth->tick_last + synth->tick_period;
	}
	if (branch)
		synth->tick_left = 0;
	return due;
}

void decode_synth__tick_restart(struct decode_synth *synth, bool sync)
{
	synth->tick_left = 0;
	if (sync)
		synth->tick_continuous = false;
}

int decode_synth__insn_sample(struct decode_synth *synth, const struct decode_where *where,
			      uint64_t ip, uint8_t insn_len)
{
	struct auxtrace_sample s = {
		.kind = AUXTRACE_SAMPLE_INSTRUCTION,
		.ip = ip,
		.period = synth->insn_count,
		.insn_len = insn_len,
	};

	synth->insn_count = 0;
	synth->stats.insn_samples++;
	decode_synth__fill(&s, where);
	return synth->opts.sample_fn(synth->opts.ctx, &s);
}

int decode_synth__error(struct decode_synth *synth, const struct decode_where *where,
			enum auxtrace_decode_error_kind kind, int lib_code, uint64_t ip,
			const char *fmt, ...)
{
	struct auxtrace_decode_error e = {
		.kind = kind,
		.lib_code = lib_code,
		.offset = where->offset,
		.aux_offset = where->data->offset + where->offset,
		.ip = ip,
		.time = where->time,
		.cpu = where->data->cpu,
		.pid = where->data->pid,
		.tid = where->data->tid,
	};
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	e.msg = msg;
	synth->stats.errors++;
	pr_debug("AUX decode error at AUX offset %#llx (payload byte %#llx), ip %#llx: %s\n",
		 (unsigned long long)e.aux_offset, (unsigned long long)e.offset,
		 (unsigned long long)ip, msg);
	if (!synth->opts.errors)
		return 0;
	return synth->opts.error_fn(synth->opts.ctx, &e);
}

int decode_dump__line(auxtrace_dump_fn fn, void *ctx, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return fn(ctx, line);
}
