// SPDX-License-Identifier: LGPL-2.1
/*
 * The events/header_page parser (rb_layout__parse), which sizes every sub-buffer the
 * tracefs layer allocates, reads and bounds-checks. A layout it accepts is one the rest can
 * trust: a kernel long, the data right after the commit word, a sub-buffer that is a power
 * of two from RB_SUBBUF_MIN to RB_SUBBUF_MAX.
 */
#include <tracefs/tracefs-internal.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz__string(data, size);
	struct rb_layout l;

	if (!text)
		return 0;
	fuzz__log_quietly();
	if (!rb_layout__parse(&l, text)) {
		fuzz__check(l.long_size == 4 || l.long_size == 8);
		fuzz__check(l.data_off == 8 + l.long_size);
		fuzz__check(l.subbuf_size >= RB_SUBBUF_MIN && l.subbuf_size <= RB_SUBBUF_MAX);
		fuzz__check(!(l.subbuf_size & (l.subbuf_size - 1)));
		fuzz__check(rb_layout__capacity(&l) < l.subbuf_size);
	}
	free(text);
	return 0;
}
