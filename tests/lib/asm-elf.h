/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Code with a known layout for decoder tests: assembly source built at run time by gcc into
 * a shared object, its executable segment mapped as an MMAP2 record would map it at a load
 * base, and its labels looked up in the ELF symbol table, so that no test hard-codes an
 * address the assembler chose.
 */
#ifndef TESTS_ASM_ELF_H
#define TESTS_ASM_ELF_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include <auxtrace/decode.h>

struct asm_elf {
	char dir[64];		/* temporary directory holding the source and the ELF */
	char path[PATH_MAX];	/* the ELF */
	uint64_t base;		/* load bias added to every ELF address */
	/* The executable PT_LOAD as MMAP2 says it: file page offset, length, address. */
	uint64_t pgoff;
	uint64_t len;
	uint64_t start;
};

/*
 * Assemble and link source (AT&T syntax) with `gcc -shared -nostdlib`. 0, or -1 when gcc
 * is missing or failed (a message was printed; the caller skips).
 */
int asm_elf__build(struct asm_elf *elf, const char *source, uint64_t base);

/*
 * A program around the assembly source: main_c and source linked by gcc into a position
 * independent executable (base 0 until the caller knows where it runs). 0, or -1 as
 * asm_elf__build.
 */
int asm_elf__build_program(struct asm_elf *elf, const char *source, const char *main_c);

/* The loaded address of a symbol (a label), or 0 when it has none. */
uint64_t asm_elf__sym(const struct asm_elf *elf, const char *name);

/* Add the executable segment to image as its MMAP2 record would. 0 or -errno. */
int asm_elf__map(const struct asm_elf *elf, struct auxtrace_image *image);

/* Remove the files. */
void asm_elf__remove(struct asm_elf *elf);

/*
 * A program of asm_elf_sample's code (f global) that says where f, libc's getppid and the
 * return address of its call of f are ("<f> <getppid> <after_f>\n", hex), waits for a
 * byte on stdin, calls f once (a 5-byte call right before after_f), and exits 0.
 */
struct traced_prog {
	struct asm_elf elf;	/* base: where the running program has it */
	pid_t pid;
	int to_fd;		/* its stdin */
	uint64_t getppid;	/* libc's getppid in it */
	uint64_t after_f;	/* inside main, without a symbol of its own */
};

/* Build and start it, and learn its addresses. 0, or -1 (a message was printed). */
int traced_prog__start(struct traced_prog *t);
/* The same program around other code (AT&T syntax), which defines f. */
int traced_prog__start_source(struct traced_prog *t, const char *code);
/* Let it run f and exit; 0 when it exited 0. The files stay until traced_prog__remove. */
int traced_prog__finish(struct traced_prog *t);
void traced_prog__remove(struct traced_prog *t);


/*
 * A sample program for the decoders. f: three rounds of a loop with a conditional jump
 * inside, a call to g, returns; a label on every instruction (f_top, f_jz, ...). Then
 * instructions that never run, one per kind of branch (x_syscall, x_iret, ...), for
 * classification.
 */
extern const char asm_elf_sample[];

#endif
