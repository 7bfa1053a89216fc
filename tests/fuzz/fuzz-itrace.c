// SPDX-License-Identifier: LGPL-2.1
/*
 * libFuzzer target: --itrace strings. Whatever the bytes, the parser must not crash or
 * read past the string, a refused string must leave the options untouched, and the
 * canonical string of accepted options must parse back into the same options.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/itrace.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct itrace_synth_opts opts, before, again;
	char *str = malloc(size + 1), canon[4096];
	int len;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';		/* an embedded NUL just ends the string early */

	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	before = opts;
	if (itrace_do_parse_synth_opts(&opts, str, 0)) {
		if (memcmp(&opts, &before, sizeof(opts)))
			abort();
		free(str);
		return 0;
	}
	len = itrace_synth_opts__snprint(&opts, canon, sizeof(canon));
	if (len < 0)
		abort();
	if ((size_t)len < sizeof(canon)) {
		memset(&again, 0, sizeof(again));
		again.sz = sizeof(again);
		if (itrace_do_parse_synth_opts(&again, canon, 0) ||
		    memcmp(&again, &opts, sizeof(opts)))
			abort();
	}
	free(str);
	return 0;
}
