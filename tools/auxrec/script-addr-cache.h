/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The text auxrec script printed for an address ("%16llx sym+0xoff (dso)"), kept by (pid,
 * address, fields): a trace branches between the same few addresses over and over, and
 * resolving and formatting each anew was a third of a decode's time. Direct-mapped, bounded;
 * everything is forgotten whenever the processes' mappings or names may have changed.
 */
#ifndef AUXREC_SCRIPT_ADDR_CACHE_H
#define AUXREC_SCRIPT_ADDR_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SCRIPT_ADDR_TEXT	112	/* longer texts are not kept */

struct script_addr_slot {
	uint64_t addr;
	uint64_t gen;			/* the cache's gen when kept; 0: empty */
	pid_t pid;
	unsigned int fields;
	size_t len;
	char text[SCRIPT_ADDR_TEXT];
};

struct script_addr_cache {
	struct script_addr_slot *slots;	/* allocated at the first add */
	uint64_t gen;			/* from 1 on: 0 marks an empty slot */
};

/* The text kept for (pid, addr, fields), NULL when none. */
const struct script_addr_slot *script_addr_cache__find(const struct script_addr_cache *c,
						       pid_t pid, uint64_t addr,
						       unsigned int fields);
/* Keep text[0..len) for (pid, addr, fields), in place of what the slot held. */
void script_addr_cache__add(struct script_addr_cache *c, pid_t pid, uint64_t addr,
			    unsigned int fields, const char *text, size_t len);
/* Forget everything: the side-band changed a process. */
void script_addr_cache__forget(struct script_addr_cache *c);
void script_addr_cache__exit(struct script_addr_cache *c);

#endif
