// SPDX-License-Identifier: LGPL-2.1
/* What the AUX decoders hand to their callbacks, kept for tests (decode-collect.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode-collect.h"

static bool decode_collect__stop(struct decode_collect *c)
{
	return c->stop_after && c->nr_samples + c->nr_errors >= c->stop_after;
}

int decode_collect__sample(void *ctx, const struct auxtrace_sample *sample)
{
	struct decode_collect *c = ctx;
	struct auxtrace_sample *s;

	if (decode_collect__stop(c))
		return -ECANCELED;
	s = realloc(c->samples, (c->nr_samples + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	c->samples = s;
	c->samples[c->nr_samples++] = *sample;
	return 0;
}

int decode_collect__error(void *ctx, const struct auxtrace_decode_error *err)
{
	struct decode_collect *c = ctx;
	struct decode_collect_error *e;

	if (decode_collect__stop(c))
		return -ECANCELED;
	e = realloc(c->errors, (c->nr_errors + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	c->errors = e;
	e = &c->errors[c->nr_errors++];
	e->e = *err;
	e->e.msg = NULL;	/* the text is in msg: the array moves as it grows */
	snprintf(e->msg, sizeof(e->msg), "%s", err->msg);
	return 0;
}

int decode_collect__dump(void *ctx, const char *line)
{
	struct decode_collect *c = ctx;
	int n = snprintf(c->dump + c->dump_len, sizeof(c->dump) - c->dump_len, "%s\n", line);

	if (n < 0 || (size_t)n >= sizeof(c->dump) - c->dump_len)
		return -ENOSPC;
	c->dump_len += (size_t)n;
	return 0;
}

void decode_collect__opts(struct decode_collect *c, struct auxtrace_decode_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->sample_fn = decode_collect__sample;
	opts->error_fn = decode_collect__error;
	opts->ctx = c;
}

void decode_collect__free(struct decode_collect *c)
{
	free(c->samples);
	free(c->errors);
	memset(c, 0, sizeof(*c));
}
