/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the branch instruction at an address is, kept by address. A trace runs the same few
 * branches over and over: reading each one's code through libipt's locked section cache and
 * decoding it anew was a third of the BTS decoder's time. The entries hold for one image at
 * one generation (a new mapping may put other code at an address): a changed image empties
 * them. Each decoder has its own: decoders on several threads share the image.
 */
#ifndef AUXTRACE_INTERNAL_DECODE_INSN_CACHE_H
#define AUXTRACE_INTERNAL_DECODE_INSN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DECODE_INSN_CACHE_SLOTS	256
#define DECODE_INSN_MAX		15		/* an x86 instruction's longest */

struct auxtrace_image;

struct decode_insn {
	uint64_t ip;
	uint32_t flags;			/* x86_branch__flags: 0 for no branch */
	uint8_t len;			/* x86_branch__len: 0 for no branch */
	bool direct;			/* x86_branch__direct */
	uint8_t raw[DECODE_INSN_MAX];	/* its first len bytes are the branch */
	bool valid;
};

struct decode_insn_cache {
	const struct auxtrace_image *image;	/* what the entries were read from, */
	uint64_t generation;			/* at its generation */
	size_t hint;				/* its section read last */
	struct decode_insn slots[DECODE_INSN_CACHE_SLOTS];
};

/* The branch insn->raw[0..n) is (flags, len, direct), in 64-bit code or not. */
void decode_insn__classify(struct decode_insn *insn, size_t n, bool x86_64);

/*
 * decode_insn_cache__get() returns what the instruction at ip in image is (64-bit code),
 * from the cache or read and kept; NULL when image has no code at ip.
 */
const struct decode_insn *decode_insn_cache__get(struct decode_insn_cache *cache,
						 struct auxtrace_image *image, uint64_t ip);

#endif
