/* SPDX-License-Identifier: LGPL-2.1 */
/* The perf data ring as the evlist mmap driver uses it. */
#ifndef AUXTRACE_INTERNAL_MMAP_H
#define AUXTRACE_INTERNAL_MMAP_H

#include <stdbool.h>
#include <auxtrace/mmap.h>

/*
 * perf_mmap__new without the log line: NULL + errno. The evlist logs the failure itself,
 * with every ring it asked for.
 */
struct perf_mmap *perf_mmap__map(int fd, struct perf_cpu cpu, unsigned int pages,
				 bool overwrite);

/*
 * Log why mapping nr_rings rings of `pages` data pages failed with -err, and the fix
 * (EPERM: the locked-memory budget, with the numbers).
 */
void perf_mmap__log_map_error(int err, int fd, unsigned int pages, int nr_rings);

/*
 * perf_mmap__push, and with flush also what the kernel writes while the drain runs (up to a
 * ring's worth): a final drain whose events may still be on.
 */
ssize_t perf_mmap__drain(struct perf_mmap *map, struct ring_sink *sink, bool flush);

/* Is pages a power of two (0 included: a control page alone)? */
static inline bool perf_mmap__pages_ok(unsigned int pages)
{
	return (pages & (pages - 1)) == 0;
}

#endif
