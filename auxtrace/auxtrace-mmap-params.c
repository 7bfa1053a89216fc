// SPDX-License-Identifier: LGPL-2.1
/* What to map for each mmap idx: the template of an evlist, completed per idx. */
#include <sys/mman.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include <internal/auxtrace-mmap-params.h>

void auxtrace_mmap_params__init(struct auxtrace_mmap_params *mp, off_t auxtrace_offset,
				unsigned int auxtrace_pages, bool auxtrace_overwrite)
{
	size_t len = (size_t)auxtrace_pages * (size_t)sysconf(_SC_PAGESIZE);

	*mp = (struct auxtrace_mmap_params){
		/* The kernel wants aux_offset at or past the end of the data ring. */
		.offset = auxtrace_offset,
		.len = len,
		/* Positions are reduced by mask when they can be, by modulo when they cannot. */
		.mask = len && !(len & (len - 1)) ? len - 1 : 0,
		/* A read-only AUX mapping is what tells the kernel to overwrite old data. */
		.prot = PROT_READ | (auxtrace_overwrite ? 0 : PROT_WRITE),
		.idx = -1,
		.cpu = { -1 },
		.first_tid = -1,
	};
}

/*
 * The mmap driver numbers idx as it maps: per CPU, idx i is all_cpus[i]; per thread, idx i
 * < nr_threads is thread i, and the idx after them are the per-CPU rings of system-wide
 * evsels (side-band) on all_cpus[1...] (all_cpus[0] is the "any CPU" entry there).
 */
void auxtrace_mmap_params__set_idx(struct auxtrace_mmap_params *mp, struct evlist *evlist,
				   struct evsel *evsel, int idx)
{
	struct perf_thread_map *threads = evlist__threads(evlist);
	int nr_threads = perf_thread_map__nr(threads);

	mp->idx = idx;
	mp->mmap_needed = evsel && evsel__needs_auxtrace_mmap(evsel);
	mp->first_tid = perf_thread_map__pid(threads, 0);
	if (!evlist__per_thread(evlist)) {
		mp->cpu = perf_cpu_map__cpu(evlist__all_cpus(evlist), idx);
		/* Several threads share a per-CPU ring: no single tid describes it. */
		mp->tid = nr_threads == 1 ? perf_thread_map__pid(threads, 0) : 0;
	} else if (idx < nr_threads) {
		mp->cpu.cpu = -1;
		mp->tid = perf_thread_map__pid(threads, idx);
	} else {
		mp->cpu = perf_cpu_map__cpu(evlist__all_cpus(evlist), idx - nr_threads + 1);
		mp->tid = -1;
	}
}

pid_t auxtrace_mmap_params__record_tid(const struct auxtrace_mmap_params *mp)
{
	/* In a record 0 would name the idle task: perf 6.1 writes the map's first thread. */
	return mp->cpu.cpu >= 0 && !mp->tid ? mp->first_tid : mp->tid;
}
