/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The symbol tables address filters are resolved against: one file's ELF function symbols,
 * or the kernel's from kallsyms, both sorted by address with their sizes filled in.
 */
#ifndef AUXTRACE_INTERNAL_ADDR_FILTER_H
#define AUXTRACE_INTERNAL_ADDR_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct addr_sym {
	const char *name;
	const char *origin;	/* source file of a local ELF symbol, module of a kernel one */
	uint64_t value;		/* the address the table gives, for messages */
	uint64_t start;		/* what a filter uses: value, or its offset in the file */
	uint64_t size;		/* st_size, else up to the next symbol; 0: unknown */
	size_t seq;		/* position in the table, to keep equal addresses in order */
	char type;		/* kallsyms' type letter; ELF: g, l, w or u by binding */
	bool global;
	bool func;		/* only functions are looked up */
	bool mapped;		/* start is valid: the symbol lies in a loadable segment */
};

struct addr_syms {
	struct addr_sym *sym;	/* sorted by value */
	size_t nr, alloc;
	char *strings;		/* what name and origin point into */
	const char *where;	/* the file name, for messages */
	bool kernel;
};

/* A new entry at the end of syms (zeroed but for seq), or NULL (-ENOMEM). */
struct addr_sym *addr_syms__add(struct addr_syms *syms);
/* Sort by address and give every symbol without a size the distance to the next one. */
void addr_syms__sort(struct addr_syms *syms);
void addr_syms__exit(struct addr_syms *syms);

/* The function symbols of an ELF file: .symtab, else .dynsym. 0 or -errno, logged. */
int addr_syms__load_elf(struct addr_syms *syms, const char *path);
/* Every symbol of a kallsyms file; refused when kptr_restrict zeroed them. 0 or -errno. */
int addr_syms__load_kallsyms(struct addr_syms *syms, const char *path);

/*
 * The function named name: idx -1 the only one, 0 the only global one, N the N-th in
 * address order. 0, or -EINVAL with the reason logged (not found, or several candidates,
 * listed with how to choose).
 */
int addr_syms__find(const struct addr_syms *syms, const char *name, int idx,
		    const struct addr_sym **sym);

#endif
