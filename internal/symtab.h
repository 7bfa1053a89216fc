/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Symbol tables as perf script names code with them: one mapped file's (ELF) or the
 * kernel's (kallsyms), each address covered by at most the one symbol perf would pick.
 */
#ifndef AUXTRACE_INTERNAL_SYMTAB_H
#define AUXTRACE_INTERNAL_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symtab_sym {
	uint64_t start;		/* ELF: st_value; kallsyms: the address */
	uint64_t end;		/* exclusive; == start: the symbol holds start only */
	const char *name;
};

/* A PT_LOAD segment of the mapped file: how a file offset becomes an ELF address. */
struct symtab_seg {
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
};

struct symtab {
	struct symtab_sym *syms;	/* sorted by start, one per start */
	size_t nr;
	char *strings;			/* what the names point into */
	char *plt_strings;		/* and the PLT entries' ("name@plt") */
	char *demangled;		/* and C++ names as perf shows them ("ns::f") */
	struct symtab_seg *segs;
	size_t nr_segs;
};

/*
 * The symbols perf 6.1 reads for path: those of its separate debug file
 * (<debug_dir>/.build-id/xx/yyyy.debug, by the file's build ID; debug_dir NULL: none) when
 * it has a .symtab, else path's .symtab, else its .dynsym, and "name@plt" for its PLT
 * entries; C++ names demangled without their parameters, as perf prints them (through
 * libstdc++'s demangler, when it can be loaded). Functions, objects and labels in text
 * sections; a symbol without a size runs to
 * the next one; of several at one address the one perf keeps (sized, not weak, global,
 * fewer leading underscores, longer name).
 * Also path's PT_LOAD segments. 0, or -errno (logged at debug level: a file without symbols
 * is no error for its callers).
 */
int symtab__load_elf(struct symtab *st, const char *path, const char *debug_dir);
/*
 * The text and data symbols of kallsyms at path: the kernel's own (module NULL) or one
 * module's ("[xfs]", as kallsyms writes it). 0 or -errno (logged).
 */
int symtab__load_kallsyms(struct symtab *st, const char *path, const char *module);
/*
 * A table of one symbol, name over [start, start + size): what a PERF_RECORD_KSYMBOL says of
 * a BPF program or trampoline, whose code no file describes. 0 or -ENOMEM.
 */
int symtab__load_one(struct symtab *st, const char *name, uint64_t start, uint64_t size);
void symtab__exit(struct symtab *st);

/* The symbol holding addr, NULL when none does. */
const struct symtab_sym *symtab__find(const struct symtab *st, uint64_t addr);
/* The ELF address at file offset off, through the segment holding it; false when none. */
bool symtab__offset_to_vaddr(const struct symtab *st, uint64_t off, uint64_t *vaddr);

#endif
