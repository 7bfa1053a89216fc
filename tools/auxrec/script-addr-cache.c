// SPDX-License-Identifier: LGPL-2.1
/* The printed text of addresses, by pid and address (script-addr-cache.h). */
#include <stdlib.h>
#include <string.h>

#include "script-addr-cache.h"

#define SCRIPT_ADDR_SLOTS	4096		/* ~0.5 MiB */

static struct script_addr_slot *script_addr_cache__slot(const struct script_addr_cache *c,
							pid_t pid, uint64_t addr)
{
	uint64_t h = (addr ^ (addr >> 13) ^ ((uint64_t)(uint32_t)pid << 7)) *
		     0x9e3779b97f4a7c15ULL;

	return &c->slots[h >> 52];	/* the top 12 bits: SCRIPT_ADDR_SLOTS */
}

const struct script_addr_slot *script_addr_cache__find(const struct script_addr_cache *c,
						       pid_t pid, uint64_t addr,
						       unsigned int fields)
{
	const struct script_addr_slot *s;

	if (!c->slots)
		return NULL;
	s = script_addr_cache__slot(c, pid, addr);
	if (s->gen != c->gen || s->addr != addr || s->pid != pid || s->fields != fields)
		return NULL;
	return s;
}

void script_addr_cache__add(struct script_addr_cache *c, pid_t pid, uint64_t addr,
			    unsigned int fields, const char *text, size_t len)
{
	struct script_addr_slot *s;

	if (len > SCRIPT_ADDR_TEXT)
		return;
	if (!c->slots) {
		c->slots = calloc(SCRIPT_ADDR_SLOTS, sizeof(*c->slots));
		if (!c->slots)
			return;		/* no cache: every address is resolved */
	}
	s = script_addr_cache__slot(c, pid, addr);
	*s = (struct script_addr_slot){ .addr = addr, .gen = c->gen, .pid = pid,
					.fields = fields, .len = len };
	memcpy(s->text, text, len);
}

void script_addr_cache__forget(struct script_addr_cache *c)
{
	c->gen++;
}

void script_addr_cache__exit(struct script_addr_cache *c)
{
	free(c->slots);
	c->slots = NULL;
}
