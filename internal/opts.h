/* SPDX-License-Identifier: LGPL-2.1 */
/* The one rule for a caller's option structs, in lib/opts.c. Not installed. */
#ifndef AUXTRACE_INTERNAL_OPTS_H
#define AUXTRACE_INTERNAL_OPTS_H

#include <stddef.h>
#include <auxtrace/core.h>

/*
 * libauxtrace__opts_copy() applies the rule for a caller's option struct (AUXTRACE_OPTS in
 * auxtrace/core.h): it copies src, the caller's struct `type` of src->sz bytes (borrowed),
 * into dst, this build's, of dst_sz bytes. The fields an older caller lacks are 0; dst->sz
 * becomes dst_sz. NULL src: dst all 0 but sz. Returns 0, or -EINVAL when src->sz does not
 * hold sz itself or a byte past dst_sz is not 0 (a newer caller's field): logged at error
 * level naming the struct and the fix, and put in why[why_size] when why is not NULL (for
 * an API with an error message of its own).
 */
AUXTRACE_PRIVATE int libauxtrace__opts_copy(const char *type, void *dst, size_t dst_sz,
					    const void *src, char *why, size_t why_size);
/* The usual call: opts__copy(ring_set_opts, &set->opts, opts), both pointers type-checked. */
#define opts__copy(TYPE, dst, src)						\
	libauxtrace__opts_copy(#TYPE, (struct TYPE *){ dst }, sizeof(struct TYPE),	\
			       (const struct TYPE *){ src }, NULL, 0)
/*
 * libauxtrace__opts_store() hands a full copy (src, src_sz bytes, from opts__copy) back to
 * the caller's struct dst, for the options a call fills in: as many bytes as both know,
 * dst->sz kept, so nothing past an older caller's struct is written.
 */
void libauxtrace__opts_store(void *dst, const void *src, size_t src_sz);

#endif
