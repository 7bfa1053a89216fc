/* SPDX-License-Identifier: LGPL-2.1 */
/* What the AUX decoders hand to their callbacks, kept for tests to compare. */
#ifndef TESTS_DECODE_COLLECT_H
#define TESTS_DECODE_COLLECT_H

#include <auxtrace/decode.h>

struct decode_collect_error {
	struct auxtrace_decode_error e;
	char msg[160];
};

struct decode_collect {
	struct auxtrace_sample *samples;
	size_t nr_samples;
	struct decode_collect_error *errors;
	size_t nr_errors;
	char dump[16384];	/* dump lines, each ended by \n */
	size_t dump_len;
	size_t stop_after;	/* a callback returns -ECANCELED past this many calls; 0: never */
};

/* auxtrace_sample_fn, auxtrace_error_fn and auxtrace_dump_fn that append to a collect. */
int decode_collect__sample(void *ctx, const struct auxtrace_sample *sample);
int decode_collect__error(void *ctx, const struct auxtrace_decode_error *err);
int decode_collect__dump(void *ctx, const char *line);

/* Options with sz set and every callback pointing at c, nothing asked for yet. */
void decode_collect__opts(struct decode_collect *c, struct auxtrace_decode_opts *opts);

void decode_collect__free(struct decode_collect *c);

#endif
