// SPDX-License-Identifier: LGPL-2.1
/*
 * libFuzzer target: address filter strings, parsed only (no ELF file or kallsyms is
 * read). The parser must not crash, leak or read past the string, a refused string must
 * leave an empty list, and numeric kernel filters must come back from their kernel string.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/addr-filter.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool addr_filters__kernel_only(const struct addr_filters *filts)
{
	const struct addr_filter *filt;

	addr_filters__for_each_entry(filts, filt)
		if (!filt->resolved || filt->filename)
			return false;
	return true;
}

/* The kernel's string of numeric kernel filters parses back into the same filters. */
static void check_round_trip(const struct addr_filters *filts)
{
	const struct addr_filter *a, *b;
	struct addr_filters again;
	char *str = addr_filters__to_str(filts);

	if (!str)
		return;		/* a zero-sized "filter": refused, and rightly */
	addr_filters__init(&again);
	if (addr_filters__parse_bare_filter(&again, str) || again.cnt != filts->cnt)
		abort();
	for (a = filts->head, b = again.head; a && b; a = a->next, b = b->next)
		if (strcmp(a->action, b->action) || a->range != b->range ||
		    a->start != b->start || a->addr != b->addr ||
		    (a->range && a->size != b->size))
			abort();
	addr_filters__exit(&again);
	free(str);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct addr_filters filts;
	char *str = malloc(size + 1);

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	addr_filters__init(&filts);
	if (addr_filters__parse_bare_filter(&filts, str)) {
		if (filts.cnt || filts.head)	/* a refused string leaves an empty list */
			abort();
	} else if (addr_filters__kernel_only(&filts)) {
		check_round_trip(&filts);
	}
	addr_filters__exit(&filts);
	free(str);
	return 0;
}
