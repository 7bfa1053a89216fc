// SPDX-License-Identifier: LGPL-2.1
/* Code with a known layout for decoder tests (asm-elf.h). */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm-elf.h"

static int asm_elf__load_segment(struct asm_elf *elf)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(elf->path, O_RDONLY | O_CLOEXEC), found = -1;
	GElf_Phdr ph;
	size_t i, n;
	Elf *e;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && !elf_getphdrnum(e, &n)) {
		for (i = 0; i < n && found < 0; i++) {
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X))
				continue;
			/* mmap rounds down to the page, as the loader asks for it */
			elf->pgoff = ph.p_offset & ~(uint64_t)(page - 1);
			elf->start = elf->base + (ph.p_vaddr & ~(uint64_t)(page - 1));
			elf->len = ph.p_offset + ph.p_filesz - elf->pgoff;
			found = 0;
		}
	}
	elf_end(e);
	close(fd);
	return found;
}

int asm_elf__build(struct asm_elf *elf, const char *source, uint64_t base)
{
	char src[PATH_MAX], cmd[3 * PATH_MAX];
	FILE *f;

	memset(elf, 0, sizeof(*elf));
	elf->base = base;
	strcpy(elf->dir, "/tmp/auxtrace-asm-XXXXXX");
	if (!mkdtemp(elf->dir))
		return -1;
	snprintf(src, sizeof(src), "%s/code.S", elf->dir);
	snprintf(elf->path, sizeof(elf->path), "%s/code.so", elf->dir);
	f = fopen(src, "w");
	if (!f || fputs(source, f) < 0 || fclose(f)) {
		asm_elf__remove(elf);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "gcc -shared -nostdlib -o %s %s", elf->path, src);
	if (system(cmd) || asm_elf__load_segment(elf)) {
		fprintf(stderr, "asm-elf: '%s' failed or made no executable segment\n", cmd);
		asm_elf__remove(elf);
		return -1;
	}
	return 0;
}

uint64_t asm_elf__sym(const struct asm_elf *elf, const char *name)
{
	int fd = open(elf->path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	uint64_t addr = 0;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf *e;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !addr && (scn = elf_nextscn(e, scn)) != NULL) {
		Elf_Data *data;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize && !addr; i++) {
			const char *s;

			if (!gelf_getsym(data, (int)i, &sym))
				continue;
			s = elf_strptr(e, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name))
				addr = elf->base + sym.st_value;
		}
	}
	elf_end(e);
	close(fd);
	return addr;
}

int asm_elf__map(const struct asm_elf *elf, struct auxtrace_image *image)
{
	return auxtrace_image__add_file(image, elf->path, elf->pgoff, elf->len, elf->start);
}

void asm_elf__remove(struct asm_elf *elf)
{
	char path[PATH_MAX];

	if (!elf->dir[0])
		return;
	snprintf(path, sizeof(path), "%s/code.S", elf->dir);
	unlink(path);
	unlink(elf->path);
	rmdir(elf->dir);
	elf->dir[0] = '\0';
}

const char asm_elf_sample[] =
	"	.text\n"
	"f:\n"
	"f_xor:	xor %eax, %eax\n"
	"f_mov:	mov $3, %ecx\n"
	"f_top:	add %ecx, %eax\n"
	"f_test:	test $1, %ecx\n"
	"f_jz:	jz f_even\n"
	"f_inc:	inc %eax\n"
	"f_even:	dec %ecx\n"
	"f_jnz:	jnz f_top\n"
	"f_call:	call g\n"
	"f_ret:	ret\n"
	"g:\n"
	"g_nop:	nop\n"
	"g_ret:	ret\n"
	"x_syscall:	syscall\n"
	"x_sysret:	sysretq\n"
	"x_sysenter:	sysenter\n"
	"x_int3:	int3\n"
	"x_int80:	int $0x80\n"
	"x_iret:	iretq\n"
	"x_jmp_ind:	jmp *%rax\n"
	"x_jmp_r11:	jmp *%r11\n"
	"x_call_ind:	call *(%rax)\n"
	"x_call_far:	lcall *(%rax)\n"
	"x_loop:	loop x_loop\n"
	"x_jrcxz:	jrcxz x_loop\n"
	"x_jcc32:	jz.d32 x_loop\n"
	"x_ret_imm:	ret $8\n"
	"x_ret_far:	lretq\n"
	"x_bnd_ret:	bnd ret\n"
	"x_vmlaunch:	vmlaunch\n"
	"x_vmcall:	vmcall\n"
	"x_mov:	mov %eax, %ebx\n"
	"x_push:	push %rax\n";
