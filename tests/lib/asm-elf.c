// SPDX-License-Identifier: LGPL-2.1
/* Code with a known layout for decoder tests (asm-elf.h). */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

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

static int asm_elf__write(const struct asm_elf *elf, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", elf->dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fputs(text, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* Write the sources to a fresh directory and run gcc (flags, then the files) on them. */
static int asm_elf__compile(struct asm_elf *elf, const char *source, const char *main_c,
			    const char *out, const char *flags)
{
	char cmd[3 * PATH_MAX];

	strcpy(elf->dir, "/tmp/auxtrace-asm-XXXXXX");
	if (!mkdtemp(elf->dir))
		return -1;
	snprintf(elf->path, sizeof(elf->path), "%s/%s", elf->dir, out);
	snprintf(cmd, sizeof(cmd), "cd %s && gcc %s -o %s code.S%s", elf->dir, flags, out,
		 main_c ? " main.c" : "");
	if (asm_elf__write(elf, "code.S", source) ||
	    (main_c && asm_elf__write(elf, "main.c", main_c)) || system(cmd) ||
	    asm_elf__load_segment(elf)) {
		fprintf(stderr, "asm-elf: '%s' failed or made no executable segment\n", cmd);
		asm_elf__remove(elf);
		return -1;
	}
	return 0;
}

int asm_elf__build(struct asm_elf *elf, const char *source, uint64_t base)
{
	memset(elf, 0, sizeof(*elf));
	elf->base = base;
	return asm_elf__compile(elf, source, NULL, "code.so", "-shared -nostdlib");
}

int asm_elf__build_program(struct asm_elf *elf, const char *source, const char *main_c)
{
	memset(elf, 0, sizeof(*elf));
	return asm_elf__compile(elf, source, main_c, "prog", "-pie -fPIE -O0");
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
	static const char *const names[] = { "code.S", "main.c" };
	char path[PATH_MAX];

	if (!elf->dir[0])
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", elf->dir, names[i]);
		unlink(path);
	}
	unlink(elf->path);
	rmdir(elf->dir);
	elf->dir[0] = '\0';
}

static const char traced_prog_main[] =
	"#include <stdio.h>\n"
	"#include <unistd.h>\n"
	"void f(void);\n"
	"int main(void)\n"
	"{\n"
	"	unsigned long after;\n"
	"	char c;\n"
	"\n"
	"	__asm__(\"lea .Lafter_f(%%rip), %0\" : \"=r\"(after));\n"
	"	printf(\"%lx %lx %lx\\n\", (unsigned long)f, (unsigned long)getppid, after);\n"
	"	fflush(stdout);\n"
	"	if (read(0, &c, 1) < 0)\n"
	"		return 1;\n"
	"	__asm__ volatile(\"call f\\n.Lafter_f:\\n\" ::: \"rax\", \"rcx\", \"memory\");\n"
	"	return 0;\n"
	"}\n";

int traced_prog__start(struct traced_prog *t)
{
	return traced_prog__start_source(t, asm_elf_sample);
}

int traced_prog__start_source(struct traced_prog *t, const char *code)
{
	static const char globl[] = "	.section .note.GNU-stack, \"\", @progbits\n"
				    "	.globl f\n	.type f, @function\n";
	char *source = malloc(sizeof(globl) + strlen(code));
	int to[2], from[2];
	unsigned long f = 0, getppid = 0, after = 0;
	FILE *out;
	int err;

	memset(t, 0, sizeof(*t));
	t->pid = -1;
	if (!source)
		return -1;
	strcpy(stpcpy(source, globl), code);
	err = asm_elf__build_program(&t->elf, source, traced_prog_main);
	free(source);
	if (err || pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
		return -1;
	t->pid = fork();
	if (t->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		execl(t->elf.path, t->elf.path, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	t->to_fd = to[1];
	out = fdopen(from[0], "r");
	if (t->pid < 0 || !out || fscanf(out, "%lx %lx %lx", &f, &getppid, &after) != 3 || !f) {
		fprintf(stderr, "traced_prog: %s did not say where it runs\n", t->elf.path);
		if (out)
			fclose(out);
		return -1;
	}
	fclose(out);
	t->getppid = getppid;
	t->after_f = after;
	t->elf.base = 0;
	t->elf.base = f - asm_elf__sym(&t->elf, "f");
	return 0;
}

int traced_prog__finish(struct traced_prog *t)
{
	int status = -1;

	if (t->pid <= 0)
		return -1;
	if (write(t->to_fd, "g", 1) != 1)
		kill(t->pid, SIGKILL);
	close(t->to_fd);
	waitpid(t->pid, &status, 0);
	t->pid = -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

void traced_prog__remove(struct traced_prog *t)
{
	if (t->pid > 0) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, NULL, 0);
		close(t->to_fd);
		t->pid = -1;
	}
	asm_elf__remove(&t->elf);
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
