// SPDX-License-Identifier: LGPL-2.1
/*
 * perf_machine: threads, comms and mappings from side-band records, and addresses named
 * as perf 6.1 names them: labels and aliases in code gcc builds at run time, PLT entries,
 * a separate debug file found by build ID, kallsyms with aliases and a module, a mapping
 * that hides part of another, fork.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <auxtrace/decode.h>
#include <auxtrace/machine.h>

#include "lib/asm-elf.h"
#include "lib/perf-data-testlib.h"
#include "lib/testlib.h"

#define BASE	0x7f1234500000ULL
#define PID	4242

union record {
	union perf_event ev;
	char bytes[sizeof(struct perf_record_mmap2)];
};

static void mmap2(struct perf_machine *m, int pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *file)
{
	union record r = { .ev.mmap2 = {
		.header = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, sizeof(r.ev.mmap2) },
		.pid = (uint32_t)pid, .tid = (uint32_t)pid, .start = start, .len = len,
		.pgoff = pgoff, .prot = PROT_READ | PROT_EXEC } };

	snprintf(r.ev.mmap2.filename, sizeof(r.ev.mmap2.filename), "%s", file);
	ck_assert_int_eq(perf_machine__process_event(m, &r.ev, NULL), 0);
}

static void kernel_mmap(struct perf_machine *m, uint64_t start, uint64_t len, const char *file)
{
	union record r = { .ev.mmap = {
		.header = { PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(r.ev.mmap) },
		.pid = (uint32_t)-1, .tid = 0, .start = start, .len = len, .pgoff = start } };

	snprintf(r.ev.mmap.filename, sizeof(r.ev.mmap.filename), "%s", file);
	ck_assert_int_eq(perf_machine__process_event(m, &r.ev, NULL), 0);
}

/* "sym+0xoff (dso)" of addr in pid, as perf script prints it. */
static const char *where(struct perf_machine *m, int pid, uint64_t addr)
{
	static char buf[512];
	struct perf_addr_location al = { .sz = sizeof(al) };

	perf_machine__resolve(m, pid, addr, &al);
	if (al.sym)
		snprintf(buf, sizeof(buf), "%s+0x%llx (%s)", al.sym,
			 (unsigned long long)al.sym_offset, al.dso ?: "[unknown]");
	else
		snprintf(buf, sizeof(buf), "[unknown] (%s)", al.dso ?: "[unknown]");
	return buf;
}

static void assert_where(struct perf_machine *m, int pid, uint64_t addr, const char *sym,
			 const char *dso)
{
	char want[512];

	snprintf(want, sizeof(want), "%s (%s)", sym, dso);
	ck_assert_str_eq(where(m, pid, addr), want);
}

/* Labels name the code after them; of two at one address, perf keeps the later. */
START_TEST(test_labels_and_aliases)
{
	struct perf_machine *m = perf_machine__new(NULL);
	struct asm_elf elf;
	char sym[64];

	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	mmap2(m, PID, elf.start, elf.len, elf.pgoff, elf.path);
	assert_where(m, PID, asm_elf__sym(&elf, "f_jz"), "f_jz+0x0", elf.path);
	assert_where(m, PID, asm_elf__sym(&elf, "f_jz") + 1, "f_jz+0x1", elf.path);
	assert_where(m, PID, asm_elf__sym(&elf, "f"), "f_xor+0x0", elf.path);
	assert_where(m, PID, asm_elf__sym(&elf, "g"), "g_nop+0x0", elf.path);
	/* the last label runs to the next page */
	snprintf(sym, sizeof(sym), "x_push+0x%llx",
		 (unsigned long long)(elf.start + elf.len - 1 - asm_elf__sym(&elf, "x_push")));
	assert_where(m, PID, elf.start + elf.len - 1, sym, elf.path);
	/* another process, or no mapping */
	assert_where(m, PID + 1, asm_elf__sym(&elf, "f_jz"), "[unknown]", "[unknown]");
	assert_where(m, PID, BASE - 0x1000, "[unknown]", "[unknown]");
	ck_assert(!perf_machine__kernel_ip(m, BASE));
	perf_machine__delete(m);
	asm_elf__remove(&elf);
}
END_TEST

/* C++ names as perf prints them: demangled, without parameters or qualifiers. */
START_TEST(test_cxx_names)
{
	static const char code[] =
		"	.text\n"
		"_ZN2ns3fooEi:	nop\n"			/* ns::foo(int) */
		"_ZNK1A3barEv:	nop\n"			/* A::bar() const */
		"_ZN1AclEi:	nop\n"			/* A::operator()(int) */
		"_ZN2ns1tIiE3getEv:	nop\n"		/* ns::t<int>::get() */
		"_Zbad:	nop\n"				/* not a name: kept as it is */
		"plain:	ret\n";
	static const char *const mangled[] = { "_ZN2ns3fooEi", "_ZNK1A3barEv", "_ZN1AclEi",
					       "_ZN2ns1tIiE3getEv", "_Zbad", "plain" };
	static const char *const want[] = { "ns::foo", "A::bar", "A::operator()",
					    "ns::t<int>::get", "_Zbad", "plain" };
	struct perf_machine *m = perf_machine__new(NULL);
	struct asm_elf elf;
	char full[128];

	if (asm_elf__build(&elf, code, BASE))
		TEST_SKIP("gcc cannot build the test code");
	mmap2(m, PID, elf.start, elf.len, elf.pgoff, elf.path);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(full, sizeof(full), "%s+0x0", want[i]);
		assert_where(m, PID, asm_elf__sym(&elf, mangled[i]), full, elf.path);
	}
	perf_machine__delete(m);
	asm_elf__remove(&elf);
}
END_TEST

/* "name@plt" for a PLT entry, as perf synthesizes them. */
START_TEST(test_plt_entries)
{
	struct perf_machine *m = perf_machine__new(NULL);
	unsigned long long plt = 0;
	char cmd[PATH_MAX + 200], prog[PATH_MAX];
	FILE *p;

	/* absolute, as the kernel names mapped files */
	ck_assert_ptr_nonnull(realpath(testlib_prog("getppid-loop"), prog));
	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt %s 2>/dev/null | "
		 "sed -n 's/^0*\\([0-9a-f]*\\) <getppid@plt>:$/\\1/p'", prog);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	if (fscanf(p, "%llx", &plt) != 1)
		plt = 0;
	pclose(p);
	if (!plt)
		TEST_SKIP("objdump finds no getppid@plt in %s", prog);
	/* the whole file at BASE: its first segments have addresses equal to offsets */
	mmap2(m, PID, BASE, 1 << 20, 0, prog);
	assert_where(m, PID, BASE + plt, "getppid@plt+0x0", prog);
	assert_where(m, PID, BASE + plt + 6, "getppid@plt+0x6", prog);
	perf_machine__delete(m);
}
END_TEST

/* A stripped file names its code through the separate debug file of its build ID. */
START_TEST(test_debug_file)
{
	AUXTRACE_OPTS(perf_machine_opts, opts);
	struct perf_machine *m, *no_debug;
	char dir[] = "/tmp/auxtrace-machine-XXXXXX", cmd[3 * PATH_MAX], id[64] = "", path[256];
	struct asm_elf elf;
	uint64_t f_jz;
	FILE *p;

	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	f_jz = asm_elf__sym(&elf, "f_jz");	/* before the symbols go */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "readelf -n %s | sed -n 's/.*Build ID: //p'", elf.path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	if (!fgets(id, sizeof(id), p))
		id[0] = '\0';
	pclose(p);
	id[strcspn(id, "\n")] = '\0';
	if (strlen(id) < 4) {
		asm_elf__remove(&elf);
		rmdir(dir);
		TEST_SKIP("gcc wrote no build ID");
	}
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", dir, id, id + 2);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/.build-id/%.2s && cp %s %s && strip %s", dir,
		 id, elf.path, path, elf.path);
	ck_assert_int_eq(system(cmd), 0);

	opts.debug_dir = dir;
	m = perf_machine__new(&opts);
	opts.debug_dir = "";
	no_debug = perf_machine__new(&opts);
	mmap2(m, PID, elf.start, elf.len, elf.pgoff, elf.path);
	mmap2(no_debug, PID, elf.start, elf.len, elf.pgoff, elf.path);
	assert_where(m, PID, f_jz, "f_jz+0x0", elf.path);
	assert_where(no_debug, PID, f_jz, "[unknown]", elf.path);
	perf_machine__delete(m);
	perf_machine__delete(no_debug);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	asm_elf__remove(&elf);
}
END_TEST

/*
 * kallsyms: of aliases the last has a size and wins (as perf fixes up ends before it
 * chooses), module symbols belong to the module's mapping.
 */
/* A machine reading kallsyms from text (in file, a mkstemp template), the kernel mapped. */
static struct perf_machine *machine_with_kallsyms(const char *text, char *file)
{
	AUXTRACE_OPTS(perf_machine_opts, opts);
	struct perf_machine *m;
	int fd = mkstemp(file);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	opts.kallsyms = file;	/* read on first use: the caller unlinks it at the end */
	m = perf_machine__new(&opts);
	ck_assert_ptr_nonnull(m);
	kernel_mmap(m, 0xffffffff81000000ULL, 0 - 0xffffffff81000000ULL,
		    "[kernel.kallsyms]_text");
	return m;
}

START_TEST(test_kallsyms)
{
	static const char kallsyms[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81001000 t __do_sys_getx\n"
		"ffffffff81001000 T __ia32_sys_getx\n"
		"ffffffff81001000 T __x64_sys_getx\n"
		"ffffffff81002000 T strong_fn\n"
		"ffffffff81002000 W weak_fn\n"
		"ffffffff81003000 D some_data\n"
		"ffffffffc0001000 t mod_fn\t[my_mod]\n"
		"ffffffffc0001100 t mod_fn2\t[my_mod]\n";
	char file[] = "/tmp/auxtrace-kallsyms-XXXXXX";
	struct perf_machine *m = machine_with_kallsyms(kallsyms, file);

	kernel_mmap(m, 0xffffffffc0001000ULL, 0x2000, "/lib/modules/6.1.0/kernel/my-mod.ko");
	assert_where(m, PID, 0xffffffff81000010ULL, "_text+0x10", "[kernel.kallsyms]");
	assert_where(m, PID, 0xffffffff81001008ULL, "__x64_sys_getx+0x8", "[kernel.kallsyms]");
	assert_where(m, PID, 0xffffffff81002000ULL, "weak_fn+0x0", "[kernel.kallsyms]");
	assert_where(m, PID, 0xffffffffc0001104ULL, "mod_fn2+0x4", "[my_mod]");
	ck_assert(perf_machine__kernel_ip(m, 0xffffffff81000000ULL));
	ck_assert(!perf_machine__kernel_ip(m, 0xffffffff80ffffffULL));
	perf_machine__delete(m);
	unlink(file);
}
END_TEST

/*
 * A BPF program's KSYMBOL, inside the kernel's mapping: its own dso and symbol, named by the
 * record, as perf shows them; the kernel around it stays the kernel's.
 */
START_TEST(test_ksymbol)
{
	static const char kallsyms[] = "ffffffff81000000 T _text\n";
	union perf_event ev = { .ksymbol = {
		.header = { PERF_RECORD_KSYMBOL, 0, sizeof(ev.ksymbol) },
		.addr = 0xffffffffc0023800ULL, .len = 0x100,
		.name = "bpf_prog_a5b0b9c259490c9f_bench_getppid" } };
	char file[] = "/tmp/auxtrace-kallsyms-XXXXXX";
	struct perf_machine *m = machine_with_kallsyms(kallsyms, file);

	ck_assert_int_eq(perf_machine__process_event(m, &ev, NULL), 0);
	assert_where(m, PID, 0xffffffffc002381cULL, "bpf_prog_a5b0b9c259490c9f_bench_getppid+0x1c",
		     "bpf_prog_a5b0b9c259490c9f_bench_getppid");
	assert_where(m, PID, 0xffffffff81000010ULL, "_text+0x10", "[kernel.kallsyms]");
	ev.ksymbol.flags = PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;	/* not followed */
	ck_assert_int_eq(perf_machine__process_event(m, &ev, NULL), 0);
	assert_where(m, PID, 0xffffffffc002381cULL, "bpf_prog_a5b0b9c259490c9f_bench_getppid+0x1c",
		     "bpf_prog_a5b0b9c259490c9f_bench_getppid");
	perf_machine__delete(m);
	unlink(file);
}
END_TEST

/* A later mapping hides what it overlaps; the rest keeps its file offsets. */
START_TEST(test_mapping_hides)
{
	struct perf_machine *m = perf_machine__new(NULL);
	struct perf_addr_location al = { .sz = sizeof(al) };

	mmap2(m, PID, 0x10000, 0x10000, 0, "/a");
	mmap2(m, PID, 0x14000, 0x1000, 0x3000, "/b");
	ck_assert_int_eq(perf_machine__resolve(m, PID, 0x13fff, &al), 0);
	ck_assert_str_eq(al.dso, "/a");
	ck_assert_int_eq(perf_machine__resolve(m, PID, 0x14800, &al), 0);
	ck_assert_str_eq(al.dso, "/b");
	ck_assert_uint_eq(al.map_pgoff, 0x3000);
	ck_assert_int_eq(perf_machine__resolve(m, PID, 0x16000, &al), 0);
	ck_assert_str_eq(al.dso, "/a");
	ck_assert_uint_eq(al.map_start, 0x15000);
	ck_assert_uint_eq(al.map_end, 0x20000);
	ck_assert_uint_eq(al.map_pgoff, 0x5000);
	ck_assert_int_eq(perf_machine__resolve(m, PID, 0x20000, &al), -ENOENT);
	ck_assert_ptr_null(al.dso);
	al.sz = 8;
	ck_assert_int_eq(perf_machine__resolve(m, PID, 0x16000, &al), -EINVAL);
	perf_machine__delete(m);
}
END_TEST

/* Threads: comm, process, fork of a process (maps copied) or of a thread. */
START_TEST(test_threads)
{
	struct perf_machine *m = perf_machine__new(NULL);
	union perf_event comm = { .comm = {
		.header = { PERF_RECORD_COMM, 0, sizeof(comm.comm) },
		.pid = PID, .tid = PID, .comm = "parent" } };
	union perf_event fork = { .fork = {
		.header = { PERF_RECORD_FORK, 0, sizeof(fork.fork) },
		.pid = PID + 1, .ppid = PID, .tid = PID + 1, .ptid = PID } };
	union perf_event thread = { .fork = {
		.header = { PERF_RECORD_FORK, 0, sizeof(thread.fork) },
		.pid = PID, .ppid = PID, .tid = PID + 2, .ptid = PID } };
	struct perf_addr_location al = { .sz = sizeof(al) };

	ck_assert_str_eq(perf_machine__comm(m, 99), ":99");
	ck_assert_str_eq(perf_machine__comm(m, 0), "swapper");	/* the idle task, as perf */
	ck_assert_int_eq(perf_machine__pid(m, 99), -1);
	ck_assert_int_eq(perf_machine__process_event(m, &comm, NULL), 0);
	mmap2(m, PID, 0x10000, 0x1000, 0, "/parent");
	ck_assert_int_eq(perf_machine__process_event(m, &fork, NULL), 0);
	ck_assert_int_eq(perf_machine__process_event(m, &thread, NULL), 0);
	mmap2(m, PID, 0x20000, 0x1000, 0, "/after-fork");
	ck_assert_str_eq(perf_machine__comm(m, PID + 1), "parent");
	ck_assert_int_eq(perf_machine__pid(m, PID + 1), PID + 1);
	ck_assert_int_eq(perf_machine__pid(m, PID + 2), PID);
	ck_assert_int_eq(perf_machine__resolve(m, PID + 1, 0x10010, &al), 0);
	ck_assert_str_eq(al.dso, "/parent");
	ck_assert_int_eq(perf_machine__resolve(m, PID + 1, 0x20010, &al), -ENOENT);
	comm.comm.pid = comm.comm.tid = PID + 1;
	strcpy(comm.comm.comm, "child");
	ck_assert_int_eq(perf_machine__process_event(m, &comm, NULL), 0);
	ck_assert_str_eq(perf_machine__comm(m, PID + 1), "child");
	ck_assert_str_eq(perf_machine__comm(m, PID), "parent");
	perf_machine__delete(m);
}
END_TEST

/* The decode image of a process: its executable file mappings, kept up to date. */
START_TEST(test_image)
{
	struct perf_machine *m = perf_machine__new(NULL);
	struct auxtrace_image *image;
	struct asm_elf elf;
	unsigned char byte;

	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	image = perf_machine__image(m, PID);
	ck_assert_ptr_nonnull(image);
	ck_assert_int_eq(auxtrace_image__read(image, asm_elf__sym(&elf, "f_ret"), &byte, 1),
			 -ENOENT);
	mmap2(m, PID, elf.start, elf.len, elf.pgoff, elf.path);
	ck_assert_ptr_eq(perf_machine__image(m, PID), image);	/* one object for the pid */
	ck_assert_int_eq(auxtrace_image__read(image, asm_elf__sym(&elf, "f_ret"), &byte, 1), 1);
	ck_assert_uint_eq(byte, 0xc3);		/* ret */
	perf_machine__delete(m);
	asm_elf__remove(&elf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("machine");

	tcase_add_test(tc, test_labels_and_aliases);
	tcase_add_test(tc, test_cxx_names);
	tcase_add_test(tc, test_plt_entries);
	tcase_add_test(tc, test_debug_file);
	tcase_add_test(tc, test_kallsyms);
	tcase_add_test(tc, test_ksymbol);
	tcase_add_test(tc, test_mapping_hides);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_image);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
