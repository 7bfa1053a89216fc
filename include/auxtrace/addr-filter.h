/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Address filters of AUX PMUs (Intel PT, CoreSight): trace only inside, or start and stop
 * tracing at, code ranges given by address or by symbol, as perf record --filter does.
 *
 * struct addr_filters filts;
 *
 * addr_filters__init(&filts); err = addr_filters__parse_bare_filter(&filts, "filter main
 * @/bin/ls"); if (!err) err = addr_filters__resolve(&filts, NULL);    (symbols: ELF,
 * /proc/kallsyms) ... evlist__open(evlist) ... if (!err) err = addr_filters__apply(&filts,
 * evsel, NULL);           ("filter 0x4f10/0x2c5@/usr/bin/ls") addr_filters__exit(&filts);
 *
 * The grammar is perf's: filters separated by spaces and/or commas, each
 *
 * ACTION START [/ END-OR-SIZE] [@FILE]
 *
 * ACTION is filter (trace only inside the range), start or stop (start or stop tracing when the
 * address executes) or tracestop (stop when the range executes; "stop" in the kernel's string).
 * START and END-OR-SIZE are a number (anything starting with a digit: decimal, 0x hex, 0 octal)
 * or a function symbol, optionally followed by #N (the N-th symbol of that name in address
 * order), #0, #g or #G (the global one). A symbol ends at a space, ',', '/', '@' or '#' (perf
 * ends it at a space only, which makes "main,stop foo" one symbol that can never resolve).
 * START "*" is the whole file (or, without @FILE, the whole kernel). FILE runs up to a space or
 * ','. Spaces may surround '/', '@' and '#'. Without FILE the addresses are kernel addresses;
 * with FILE they are offsets in it.
 *
 * A number given for START or SIZE is used as it is; a symbol is resolved by
 * addr_filters__resolve() from the file's ELF symbol table (.symtab, or .dynsym in a stripped
 * file) into the file offset the kernel wants, or from /proc/kallsyms.
 */
#ifndef AUXTRACE_ADDR_FILTER_H
#define AUXTRACE_ADDR_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/evsel.h>
#include <auxtrace/pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One filter. The library allocates it; every string points into memory the filter owns.
 * Fields may be added at the end: do not allocate or copy one yourself.
 */
struct addr_filter {
	struct addr_filter *next;	/* the next filter of the list, in input order */
	const char *action;		/* "filter", "start" or "stop" (tracestop: "stop") */
	bool range;			/* filter, tracestop, or a '/' given: addr and size */
	bool start;			/* filter and start: tracing starts at the address */
	bool resolved;			/* addr and size are final: no symbol, or resolved */
	const char *sym_from;		/* START as a symbol, "*", or NULL for a number */
	const char *sym_to;		/* END as a symbol, or NULL */
	int sym_from_idx;		/* -1: must be unique, 0: the global one, N: the N-th */
	int sym_to_idx;
	uint64_t addr;			/* START: a kernel address or an offset in filename */
	uint64_t size;			/* for a range */
	const char *filename;		/* @FILE as given, NULL for the kernel */
	size_t pos;			/* byte offset of the filter in the parsed string */
	char *str;			/* the memory the strings above live in */
};

/* A list of filters. Its layout is fixed: it will not grow. */
struct addr_filters {
	struct addr_filter *head;
	int cnt;
};

#define addr_filters__for_each_entry(filts, filt) \
	for ((filt) = (filts)->head; (filt); (filt) = (filt)->next)

/* addr_filters__init() makes filts (the caller's memory) an empty list. */
AUXTRACE_API void addr_filters__init(struct addr_filters *filts);
/* addr_filters__exit() frees every filter; filts is then empty, as after __init. */
AUXTRACE_API void addr_filters__exit(struct addr_filters *filts);

/*
 * addr_filters__parse_bare_filter() parses filter (several filters, or none: "" or only
 * separators) and appends them to filts, which owns them. Returns 0, or -EINVAL with filts
 * emptied (as perf does) and a message giving the byte offset and what is wrong there, then the
 * format; -ENOMEM.
 */
AUXTRACE_API int addr_filters__parse_bare_filter(struct addr_filters *filts,
						 const char *filter);

/*
 * addr_filters__resolve() turns the symbols of every filter into addresses: from FILE's ELF
 * symbol table (function symbols; a size from st_size, else up to the next function; the
 * address as an offset in the file, through the program headers), or for kernel filters from
 * kallsyms (NULL: /proc/kallsyms; function symbols, t T w W; a size up to the next symbol). "*"
 * is the whole file, or the kernel from its first function to a page past its last one. A name
 * that several symbols share lists them and asks for #N. Returns 0 or -errno, the filter and
 * the cause logged: -EINVAL (no such function, ambiguous, no size, not ELF, stripped), -ENOENT
 * (no such file), -EACCES (every kallsyms address is 0: kernel.kptr_restrict). Filters resolved
 * before the failing one stay resolved.
 */
AUXTRACE_API int addr_filters__resolve(struct addr_filters *filts, const char *kallsyms);

/*
 * addr_filters__to_str() returns the string PERF_EVENT_IOC_SET_FILTER takes, as perf builds it:
 * filters joined by ',', each "ACTION 0xADDR/0xSIZE@/real/path" for a range or "ACTION
 * 0xADDR@/real/path" (no "@..." for the kernel). Every filter must be resolved. malloc()ed
 * (free() it), or NULL with errno (EINVAL: unresolved filter or zero-sized "filter"; ENOENT:
 * FILE gone).
 */
AUXTRACE_API char *addr_filters__to_str(const struct addr_filters *filts);

/*
 * addr_filters__check_pmu() says whether pmu can take filts. Returns 0, or -EOPNOTSUPP when it
 * takes no address filters (no nr_addr_filters in sysfs), -EINVAL when there are more filters
 * than its nr_addr_filters.
 */
AUXTRACE_API int addr_filters__check_pmu(const struct addr_filters *filts,
					 const struct perf_pmu *pmu);

/*
 * addr_filters__apply() sets filts on every fd of the open evsel: __check_pmu against its PMU
 * (pmu, or NULL to find the PMU of the evsel's attr.type in the default sysfs), a kernel filter
 * on an event that excludes the kernel is refused, then __to_str and evsel__apply_filter(). An
 * empty list sets nothing. Returns 0 or -errno, the cause logged (the kernel's refusal as
 * well).
 */
AUXTRACE_API int addr_filters__apply(const struct addr_filters *filts, struct evsel *evsel,
				     const struct perf_pmu *pmu);

#ifdef __cplusplus
}
#endif
#endif
