/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Side-band that existed before recording started, as the records the kernel would have
 * written: COMM and MMAP2 for the processes in scope (from /proc), the kernel's MMAP, and
 * KSYMBOL and BPF_EVENT for the BPF programs already loaded (from libbpf's program info),
 * so that a decoder can name the code at every address. perf record does the same at start.
 *
 * Every record goes whole to a ring_sink (one iovec per push): the writer's data sink
 * (perf_data_writer__data_sink), a ring_sink_callback of your own, or memory. Each carries
 * the sample_id trailer of the session's tracking evsel (its sample_type: pid/tid, time 0,
 * its first sample ID, CPU), so perf files it under that evsel.
 */
#ifndef AUXTRACE_SYNTHESIZE_H
#define AUXTRACE_SYNTHESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <auxtrace/core.h>
#include <auxtrace/evlist.h>
#include <auxtrace/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Declare with AUXTRACE_OPTS (auxtrace/core.h): sz set, the fields not given 0. */
struct perf_synth_opts {
	size_t sz;
	/* Whose sample_id trailer the records carry; NULL: the first evsel of the evlist that
	 * tracks mmap/comm/task, else the first evsel. */
	struct evsel *tracking;
	/* Also the mappings that are not executable (perf record -d), as MMAP2 with
	 * PERF_RECORD_MISC_MMAP_DATA. */
	bool mmap_data;
	size_t :0;
};

/*
 * perf_event__synthesize_threads() pushes to sink the records of the processes in the
 * evlist's scope: each thread of its thread map (a COMM per thread,
 * the executable mappings of its process once), or every process of the system when the
 * map is the dummy thread (system-wide and CPU-list sessions). A process that exits
 * meanwhile is skipped. Returns 0 or -errno (EINVAL for bad opts, ENOMEM; the sink's
 * error stops it).
 */
AUXTRACE_API int perf_event__synthesize_threads(struct evlist *evlist,
						const struct perf_synth_opts *opts,
						struct ring_sink *sink);
/*
 * perf_event__synthesize_thread() pushes the records of one thread (pid is a thread id): its
 * COMM, or with whole_process the COMM of every thread of its process; then the process's
 * mappings. Returns 0 or -errno: ESRCH when it is gone, the sink's.
 */
AUXTRACE_API int perf_event__synthesize_thread(struct evlist *evlist, pid_t pid,
					       bool whole_process,
					       const struct perf_synth_opts *opts,
					       struct ring_sink *sink);
/*
 * perf_event__synthesize_kernel_mmap() pushes the kernel's text as perf names it: MMAP
 * "[kernel.kallsyms]_text" from _text (in /proc/kallsyms) to the end of the address space, pid
 * -1, so that kernel addresses resolve. Returns 0 or -errno: ENOENT when /proc/kallsyms hides
 * the addresses (kptr_restrict: run as root; logged as a warning, since a recording can go on
 * without it), the read's, the sink's.
 */
AUXTRACE_API int perf_event__synthesize_kernel_mmap(struct evlist *evlist,
						    const struct perf_synth_opts *opts,
						    struct ring_sink *sink);
/*
 * perf_event__synthesize_bpf_events() pushes every loaded BPF program (bpf_prog_get_next_id):
 * one KSYMBOL per JITed function ("bpf_prog_<tag>_<name>", its address and length), then one
 * BPF_EVENT PROG_LOAD with the program's id and tag. A program that vanished meanwhile, or
 * whose JIT addresses the kernel hides (kernel.kptr_restrict, bpf_jit_harden), is skipped
 * (debug log). Needs CAP_SYS_ADMIN to walk the programs. Returns 0 or -errno: EPERM without it
 * (logged as a warning with the fix: a recording can go on without it), the sink's.
 */
AUXTRACE_API int perf_event__synthesize_bpf_events(struct evlist *evlist,
						   const struct perf_synth_opts *opts,
						   struct ring_sink *sink);

#ifdef __cplusplus
}
#endif
#endif
