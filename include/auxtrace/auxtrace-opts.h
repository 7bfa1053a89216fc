/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The options of an AUX recording (struct auxtrace_opts in auxtrace.h) as a perf-like
 * recorder takes them from its command line: -m and -S. auxtrace-record.h includes it.
 */
#ifndef AUXTRACE_AUXTRACE_OPTS_H
#define AUXTRACE_AUXTRACE_OPTS_H

#include <stddef.h>
#include <auxtrace/core.h>
#include <auxtrace/auxtrace.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * auxtrace_opts__init_sz() zeroes opts (sz: the caller's sizeof, which it stores in opts->sz;
 * use auxtrace_opts__init) and sets privileged (CAP_PERFMON or CAP_SYS_ADMIN, or
 * perf_event_paranoid -1): it decides the default sizes. Nothing past sz bytes is written.
 */
AUXTRACE_API void auxtrace_opts__init_sz(struct auxtrace_opts *opts, size_t sz);
#define auxtrace_opts__init(opts) auxtrace_opts__init_sz((opts), sizeof(*(opts)))

/*
 * auxtrace__parse_pages() parses one -m part into *pages: a page count ("16") or a size with a
 * B/K/M/G suffix ("64K", rounded up to whole pages). A count that is not a power of two is
 * rounded up (logged as info). 0, junk and sizes past UINT_MAX pages are -EINVAL, logged.
 * Returns 0 or -EINVAL.
 */
AUXTRACE_API int auxtrace__parse_pages(const char *str, unsigned int *pages);
/*
 * auxtrace_opts__parse_mmap_pages() parses -m DATA[,AUX] into opts->mmap_pages and
 * opts->auxtrace_mmap_pages; ",AUX" sets AUX only. Returns 0 or -EINVAL (logged; opts
 * unchanged).
 */
AUXTRACE_API int auxtrace_opts__parse_mmap_pages(struct auxtrace_opts *opts, const char *str);
/*
 * auxtrace_opts__parse_snapshot() parses -S[e][SIZE] into opts: snapshot mode; "e" also
 * snapshots at exit; SIZE bytes per snapshot (strtoull base 0; 0 or absent: the backend's
 * default). itr == NULL is -EINVAL ("No AUX area tracing to snapshot"). Returns 0 or -EINVAL
 * (logged).
 */
AUXTRACE_API int auxtrace_opts__parse_snapshot(struct auxtrace_record *itr,
					       struct auxtrace_opts *opts, const char *str);

#ifdef __cplusplus
}
#endif
#endif
