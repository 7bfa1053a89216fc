// SPDX-License-Identifier: LGPL-2.1
/* The branch instructions a decoder met, by address (decode-insn-cache.h). */
#include <string.h>

#include <auxtrace/decode.h>

#include <internal/decode-image.h>
#include <internal/decode-insn-cache.h>
#include <internal/x86-branch.h>

void decode_insn__classify(struct decode_insn *insn, size_t n, bool x86_64)
{
	insn->flags = x86_branch__flags(insn->raw, n, x86_64);
	insn->len = (uint8_t)x86_branch__len(insn->raw, n, x86_64);
	insn->direct = x86_branch__direct(insn->raw, n, x86_64);
}

const struct decode_insn *decode_insn_cache__get(struct decode_insn_cache *cache,
						 struct auxtrace_image *image, uint64_t ip)
{
	struct decode_insn *slot;
	ssize_t n;

	if (!image)
		return NULL;
	if (image != cache->image || image->generation != cache->generation) {
		memset(cache->slots, 0, sizeof(cache->slots));
		cache->image = image;
		cache->generation = image->generation;
	}
	slot = &cache->slots[(ip ^ (ip >> 8)) % DECODE_INSN_CACHE_SLOTS];
	if (slot->valid && slot->ip == ip)
		return slot;
	n = auxtrace_image__read_hint(image, ip, slot->raw, sizeof(slot->raw), &cache->hint);
	if (n <= 0) {
		slot->valid = false;
		return NULL;
	}
	slot->ip = ip;
	decode_insn__classify(slot, (size_t)n, true);
	slot->valid = true;
	return slot;
}
