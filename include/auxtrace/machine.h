/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The processes of a recording as its side-band describes them, perf's `struct machine`:
 * threads with their comm and process, the file mappings of each process (MMAP, MMAP2, a
 * child's copy of its parent's at FORK) and of the kernel (pid -1), and addresses resolved to
 * the mapped file, the symbol and the offset in it, as perf script prints them
 * ("main+0x1a (/usr/bin/ls)").
 *
 * Symbols come from the files the mappings name, as perf 6.1 finds them: the separate
 * debug file of the file's build ID (<debug_dir>/.build-id/xx/yyyy.debug) when it has a
 * .symtab, else the file's .symtab, else its .dynsym; the kernel's and its modules' from
 * kallsyms. Each table is read on first use and kept. The decoders' process images
 * (auxtrace/decode.h) come from the same mappings.
 *
 *	struct perf_machine *m = perf_machine__new(NULL);
 *	struct perf_addr_location al = { .sz = sizeof(al) };
 *
 *	(each side-band record, in time order:)  perf_machine__process_event(m, event, sample);
 *	(a sample:) perf_machine__resolve(m, sample->pid, sample->ip, &al);
 *	printf("%s+0x%llx (%s)\n", al.sym ?: "[unknown]", al.sym_offset, al.dso ?: "[unknown]");
 */
#ifndef AUXTRACE_MACHINE_H
#define AUXTRACE_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <auxtrace/core.h>
#include <auxtrace/event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_machine;
struct perf_sample;
struct auxtrace_image;

/* Declare with AUXTRACE_OPTS (auxtrace/core.h): sz set, the fields not given 0. */
struct perf_machine_opts {
	size_t sz;
	const char *kallsyms;	/* kernel symbols: NULL /proc/kallsyms, "" none */
	const char *debug_dir;	/* separate debug files: NULL /usr/lib/debug, "" none */
	size_t :0;
};

/*
 * perf_machine__new() returns an empty machine (perf_machine__delete); opts may be NULL
 * (copied; its strings are borrowed: they must outlive the machine). NULL + errno: ENOMEM,
 * EINVAL for opts that set unknown fields.
 */
AUXTRACE_API struct perf_machine *perf_machine__new(const struct perf_machine_opts *opts);
/* perf_machine__delete() frees m with its threads, images and symbol tables (NULL: nothing). */
AUXTRACE_API void perf_machine__delete(struct perf_machine *m);

/*
 * perf_machine__process_event() follows one record (native byte order, as a perf_session hands
 * it out): MMAP and MMAP2 add a mapping to the process (to the kernel's when the record's
 * cpumode is kernel), a later one hiding what it overlaps; COMM names a thread; FORK starts a
 * thread, and a process with a copy of its parent's mappings; KSYMBOL maps a BPF program's code
 * in the kernel, a dso and a symbol of its name (its unregistering is not followed). Other
 * records are ignored.
 * sample may be NULL. Returns 0, or -ENOMEM.
 */
AUXTRACE_API int perf_machine__process_event(struct perf_machine *m,
					     const union perf_event *event,
					     const struct perf_sample *sample);

/*
 * perf_machine__comm() returns tid's comm as the last COMM said; ":<tid>" when none did
 * ("swapper" for the idle task, tid 0), as perf prints it. Borrowed: valid while the machine lives.
 */
AUXTRACE_API const char *perf_machine__comm(struct perf_machine *m, pid_t tid);
/* perf_machine__pid() returns tid's process, -1 when no record said. */
AUXTRACE_API pid_t perf_machine__pid(const struct perf_machine *m, pid_t tid);
/*
 * perf_machine__kernel_ip() returns whether ip is a kernel address: at or above the
 * kernel's first mapping (x86-64's split when no record mapped the kernel).
 */
AUXTRACE_API bool perf_machine__kernel_ip(const struct perf_machine *m, uint64_t ip);

/* Filled by perf_machine__resolve; the caller sets sz = sizeof(struct perf_addr_location). */
struct perf_addr_location {
	size_t sz;
	const char *dso;	/* the mapped file, "[kernel.kallsyms]", "[xfs]"; NULL: unmapped */
	const char *sym;	/* NULL: no symbol holds the address */
	uint64_t sym_offset;	/* from the symbol's start */
	uint64_t map_start;	/* the mapping: [map_start, map_end), its file offset */
	uint64_t map_end;
	uint64_t map_pgoff;
	bool kernel;		/* a kernel address */
};

/*
 * perf_machine__resolve() fills *al with where addr is in pid's address space (in the kernel's
 * for a kernel address). Strings stay valid while the machine lives. Returns 0, -ENOENT when
 * nothing is mapped there (al says so: dso NULL), -EINVAL when al->sz is too small.
 */
AUXTRACE_API int perf_machine__resolve(struct perf_machine *m, pid_t pid, uint64_t addr,
				       struct perf_addr_location *al);

/*
 * perf_machine__image() returns the code pid has mapped (its executable file mappings), as an
 * image for the AUX decoders. Borrowed, owned by the machine: one object per pid for the
 * machine's life, brought up to date with pid's mappings by each call, so call it again before
 * each decode. A mapped file that cannot be read is logged once and left out. NULL with errno
 * ENOMEM.
 */
AUXTRACE_API struct auxtrace_image *perf_machine__image(struct perf_machine *m, pid_t pid);

#ifdef __cplusplus
}
#endif
#endif
