/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the itrace parser and printer share, defined in itrace-letters.c: the letter table
 * and the sz-checked copy.
 */
#ifndef AUXTRACE_INTERNAL_ITRACE_LETTERS_H
#define AUXTRACE_INTERNAL_ITRACE_LETTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <auxtrace/itrace.h>

struct itrace_letter {
	char letter;
	size_t field;		/* offset of the bool the letter switches on; 0: none */
	const char *meaning;	/* for messages: "instructions", "callchain" */
};

/* Every letter, in the canonical order; ends with letter 0. */
#define ITRACE_NR_LETTERS 26
extern const struct itrace_letter itrace_letters[ITRACE_NR_LETTERS + 1];

const struct itrace_letter *itrace_letter__find(char c);
/* The bool of opts that l switches on (l->field must not be 0). */
bool *itrace_letter__flag(const struct itrace_letter *l, struct itrace_synth_opts *opts);

/*
 * Copy the caller's opts into copy, a whole struct of this version, by the rule of
 * libauxtrace__opts_copy (hand it back with libauxtrace__opts_store). 0, or -EINVAL
 * (logged) when opts is NULL or refused by that rule.
 */
int itrace_synth_opts__load(const struct itrace_synth_opts *opts,
			    struct itrace_synth_opts *copy);

#endif
