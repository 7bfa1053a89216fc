// SPDX-License-Identifier: LGPL-2.1
/*
 * What the parser and the printer of --itrace strings share: the letters in canonical
 * order with the option each switches on, and the checked copy of a caller's options.
 */
#include <stddef.h>

#include <auxtrace/itrace.h>

#include <internal/itrace-letters.h>
#include <internal/lib.h>
#include <internal/opts.h>

int itrace_synth_opts__load(const struct itrace_synth_opts *opts,
			    struct itrace_synth_opts *copy)
{
	if (!opts) {
		pr_err("struct itrace_synth_opts: opts is NULL: declare one with "
		       "AUXTRACE_OPTS(itrace_synth_opts, name)\n");
		return libauxtrace__err(-EINVAL);
	}
	return opts__copy(itrace_synth_opts, copy, opts);
}

/* Every letter in canonical order; field is the bool it switches on (0: none). */
const struct itrace_letter itrace_letters[ITRACE_NR_LETTERS + 1] = {
	{ 'i', offsetof(struct itrace_synth_opts, instructions),	"instructions" },
	{ 'y', offsetof(struct itrace_synth_opts, cycles),		"cycles" },
	{ 'b', offsetof(struct itrace_synth_opts, branches),		"branches" },
	{ 'c', offsetof(struct itrace_synth_opts, calls),		"calls" },
	{ 'r', offsetof(struct itrace_synth_opts, returns),		"returns" },
	{ 'x', offsetof(struct itrace_synth_opts, transactions),	"transactions" },
	{ 'w', offsetof(struct itrace_synth_opts, ptwrites),		"ptwrites" },
	{ 'p', offsetof(struct itrace_synth_opts, pwr_events),		"power events" },
	{ 'o', offsetof(struct itrace_synth_opts, other_events),	"other events" },
	{ 'I', offsetof(struct itrace_synth_opts, intr_events),	"interrupt events" },
	{ 'e', offsetof(struct itrace_synth_opts, errors),		"errors" },
	{ 'd', offsetof(struct itrace_synth_opts, log),		"debug log" },
	{ 'f', offsetof(struct itrace_synth_opts, flc),		"first-level cache" },
	{ 'm', offsetof(struct itrace_synth_opts, llc),		"last-level cache" },
	{ 't', offsetof(struct itrace_synth_opts, tlb),		"TLB" },
	{ 'a', offsetof(struct itrace_synth_opts, remote_access),	"remote access" },
	{ 'M', offsetof(struct itrace_synth_opts, mem),		"memory" },
	{ 'g', offsetof(struct itrace_synth_opts, callchain),		"callchain" },
	{ 'G', offsetof(struct itrace_synth_opts, add_callchain),	"callchain on events" },
	{ 'l', offsetof(struct itrace_synth_opts, last_branch),	"last branch" },
	{ 'L', offsetof(struct itrace_synth_opts, add_last_branch),	"last branch on events" },
	{ 's', 0,							"skip" },
	{ 'q', 0,							"quicker" },
	{ 'A', offsetof(struct itrace_synth_opts, approx_ipc),		"approximate IPC" },
	{ 'Z', offsetof(struct itrace_synth_opts, timeless_decoding),	"timeless" },
	{ 'T', offsetof(struct itrace_synth_opts, use_timestamp),	"timestamp as kernel time" },
	{ 0, 0, NULL },
};

const struct itrace_letter *itrace_letter__find(char c)
{
	const struct itrace_letter *l;

	for (l = itrace_letters; c && l->letter; l++)
		if (l->letter == c)
			return l;
	return NULL;
}

bool *itrace_letter__flag(const struct itrace_letter *l, struct itrace_synth_opts *opts)
{
	return (bool *)((char *)opts + l->field);
}
