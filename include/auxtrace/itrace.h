/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * itrace options: what a decoder of AUX-area trace synthesizes, from perf's --itrace
 * string ("ibxwpe", "i100us,b", "cg32", "e-o-l", "d+e").
 *
 *	AUXTRACE_OPTS(itrace_synth_opts, opts, .default_no_sample = true);  (as perf script)
 *	char canon[128];
 *
 *	if (itrace_do_parse_synth_opts(&opts, optarg, 0))  (NULL optarg: plain --itrace)
 *		return -EINVAL;				   (the log says where and why)
 *	itrace_synth_opts__snprint(&opts, canon, sizeof(canon));
 *
 * The grammar is perf's. Letters, in any order, optionally separated by spaces or commas:
 *
 *	i  instructions [PERIOD]	y  cycles [PERIOD]	b  branches
 *	c  calls (and branches)		r  returns (and branches)
 *	x  transactions		w  ptwrites		p  power events
 *	o  other events (aux-output)	I  interrupt events
 *	e  errors [FLAGS]		d  debug log [FLAGS]
 *	f  first-level cache	m  last-level cache	t  TLB
 *	a  remote access	M  memory
 *	g  callchain [SIZE]		G  callchain on existing events [SIZE]
 *	l  last branch [SIZE]	L  last branch on existing events [SIZE]
 *	s  skip COUNT events	q  quicker decoding (qq: quicker still)
 *	A  approximate IPC	Z  timeless decoding	T  timestamps as kernel time
 *
 * PERIOD: a decimal number, optionally after spaces or commas, then optionally spaces or
 * commas and its unit: i (instructions), t (ticks), ns, us or ms. A number without unit
 * counts nanoseconds and must end the string: "i100,b" is refused, as perf refuses it, while
 * "i100us,b", "i100i" and "bi100" are fine. Without a number, i and y share the default
 * period of 100 us. A later period replaces an earlier one.
 *
 * SIZE: 1..1024; every g or G sets the callchain size to its number or to 16, every l or L
 * the last-branch size to its number or to 64 (so the last of them wins).
 *
 * FLAGS: '+' or '-' and a flag letter, repeated, spaces allowed. After e: o (overflow),
 * l (data lost), as in "e-o-l". After d: a (all perf events), e (only on error, keeping the
 * last log_on_error_size bytes, 16384 unless the caller changes it), o (to stdout).
 *
 * The library refuses, with -EINVAL and a message giving the byte offset and what is wrong,
 * what perf refuses and also what perf would silently take wrong: a period, size or count
 * that overflows, an unknown flag letter.
 */
#ifndef AUXTRACE_ITRACE_H
#define AUXTRACE_ITRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

enum itrace_period_type {
	PERF_ITRACE_PERIOD_INSTRUCTIONS,
	PERF_ITRACE_PERIOD_TICKS,
	PERF_ITRACE_PERIOD_NANOSECS,
};

#define PERF_ITRACE_DEFAULT_PERIOD_TYPE		PERF_ITRACE_PERIOD_NANOSECS
#define PERF_ITRACE_DEFAULT_PERIOD		100000		/* 100 us */
#define PERF_ITRACE_DEFAULT_CALLCHAIN_SZ	16
#define PERF_ITRACE_MAX_CALLCHAIN_SZ		1024
#define PERF_ITRACE_DEFAULT_LAST_BRANCH_SZ	64
#define PERF_ITRACE_MAX_LAST_BRANCH_SZ		1024
#define PERF_ITRACE_DEFAULT_LOG_ON_ERROR_SZ	16384

/* Flag bits of error_*_flags and log_*_flags: bit (letter - 'a'). */
#define AUXTRACE_ERR_FLG_OVERFLOW	(1U << ('o' - 'a'))
#define AUXTRACE_ERR_FLG_DATA_LOST	(1U << ('l' - 'a'))
#define AUXTRACE_LOG_FLG_ALL_PERF_EVTS	(1U << ('a' - 'a'))
#define AUXTRACE_LOG_FLG_ON_ERROR	(1U << ('e' - 'a'))
#define AUXTRACE_LOG_FLG_USE_STDOUT	(1U << ('o' - 'a'))

/*
 * The caller declares it with AUXTRACE_OPTS (auxtrace/core.h), which sets sz and zeroes the
 * rest, so that fields added at the end later do not break programs built against this
 * header. Fields marked "caller" are not part of the string language: the tool sets them
 * from its own options.
 */
struct itrace_synth_opts {
	size_t sz;
	bool set;			/* an --itrace or --no-itrace was given */
	bool default_no_sample;		/* caller: plain --itrace means perf script's defaults */
	bool inject;			/* caller: decoding for perf inject */
	bool dont_decode;		/* --no-itrace */
	bool instructions;		/* i */
	bool cycles;			/* y */
	bool branches;			/* b, c, r */
	bool transactions;		/* x */
	bool ptwrites;			/* w */
	bool pwr_events;		/* p */
	bool other_events;		/* o */
	bool intr_events;		/* I */
	bool errors;			/* e */
	bool log;			/* d */
	bool calls;			/* c */
	bool returns;			/* r */
	bool callchain;			/* g */
	bool add_callchain;		/* G */
	bool thread_stack;		/* caller: keep a thread stack */
	bool last_branch;		/* l */
	bool add_last_branch;		/* L */
	bool approx_ipc;		/* A */
	bool flc;			/* f */
	bool llc;			/* m */
	bool tlb;			/* t */
	bool remote_access;		/* a */
	bool mem;			/* M */
	bool timeless_decoding;		/* Z */
	bool use_timestamp;		/* T */
	unsigned int callchain_sz;	/* g/G SIZE */
	unsigned int last_branch_sz;	/* l/L SIZE */
	uint64_t period;		/* i/y PERIOD, in period_type units */
	enum itrace_period_type period_type;
	uint64_t initial_skip;		/* s COUNT */
	unsigned long *cpu_bitmap;	/* caller: CPUs to decode (bit n: CPU n), NULL: all */
	unsigned int error_plus_flags;	/* e+x */
	unsigned int error_minus_flags;	/* e-x */
	unsigned int log_plus_flags;	/* d+x */
	unsigned int log_minus_flags;	/* d-x */
	unsigned int quick;		/* q, once per q */
	unsigned int log_on_error_size;	/* d+e: bytes of log kept for an error */
};

/*
 * itrace_synth_opts__set_default() sets what plain --itrace means: branches, transactions,
 * ptwrites, power, other and interrupt events, errors, the cache, TLB, memory and remote-access
 * events; then with no_sample (perf script) calls with a period of 1 instruction, without it
 * (perf report) instructions and cycles every 100 us. Sizes 16 and 64, no skip. Other fields
 * are left as they are. Returns 0, or -EINVAL when opts is NULL or the rule of option structs
 * (auxtrace/core.h) refuses it.
 */
AUXTRACE_API int itrace_synth_opts__set_default(struct itrace_synth_opts *opts,
						bool no_sample);

/*
 * itrace_do_parse_synth_opts() parses one --itrace option into opts, as perf does: set becomes
 * true; unset (--no-itrace) sets dont_decode; str NULL (--itrace without a string) applies the
 * defaults for opts->default_no_sample; otherwise the letters are added to what opts holds (""
 * adds none: decode, but synthesize nothing). Returns 0, or -EINVAL (a bad string, or opts
 * the rule of option structs in auxtrace/core.h refuses) with opts untouched and the cause
 * logged.
 */
AUXTRACE_API int itrace_do_parse_synth_opts(struct itrace_synth_opts *opts, const char *str,
					    int unset);

/*
 * itrace_synth_opts__snprint() writes the canonical string of opts into buf: the letters above
 * in that order, b only when neither c nor r says it, a period in the largest unit that divides
 * it, values other than the defaults. Parsed into zeroed options, it gives back exactly the
 * options any string parsed into zeroed options gave. Not part of it: dont_decode, the fields
 * marked "caller", and values no letter uses (the defaults' sizes without g or l, the
 * 1-instruction period of perf script's defaults without i or y). Returns as snprintf: the
 * length of the whole string (at most size bytes written, NUL included), or -EINVAL (opts
 * refused by the rule of option structs in auxtrace/core.h, a bad period_type).
 */
AUXTRACE_API int itrace_synth_opts__snprint(const struct itrace_synth_opts *opts, char *buf,
					    size_t size);

#ifdef __cplusplus
}
#endif
#endif
