/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * PMUs as sysfs describes them, under <root>/bus/event_source/devices/<name>/: the type
 * number for perf_event_attr.type, format/<term> ("config:0-7,32-35": where a term's value
 * goes in config..config3), events/<alias> (a term list such as "event=0x3c"), caps/<cap>,
 * nr_addr_filters and cpumask (or cpus).
 *
 * There is no global cache: every call names its sysfs root (NULL: the real one, or the
 * fake tree in $AUXTRACE_SYSFS), so a test can point the library at a tree it built. A
 * perf_pmu is a snapshot taken when it was created; caps and other files are read when
 * asked for.
 */
#ifndef AUXTRACE_PMU_H
#define AUXTRACE_PMU_H

#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>
#include <auxtrace/cpumap.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_pmu;

/* Where a format term lives: attr config word and the bits of it (possibly scattered). */
struct perf_pmu_format {
	int config;		/* 0: config, 1: config1, 2: config2, 3: config3 */
	uint64_t bits;		/* mask in that word; value bit i goes to the i-th set bit */
};

/*
 * The PMU <name> under sysfs_root (NULL: libauxtrace's default root). NULL with errno
 * ENOENT if there is no such PMU, EINVAL if its type or a format file is malformed (the
 * cause is logged), ENOMEM.
 */
AUXTRACE_API struct perf_pmu *perf_pmu__new(const char *sysfs_root, const char *name);
AUXTRACE_API void perf_pmu__delete(struct perf_pmu *pmu);

AUXTRACE_API const char *perf_pmu__name(const struct perf_pmu *pmu);
/* The value for perf_event_attr.type. */
AUXTRACE_API uint32_t perf_pmu__type(const struct perf_pmu *pmu);
/* The PMU's cpumask (or cpus) file; NULL when it has none (it counts on any CPU).
 * Borrowed: valid while the PMU lives, perf_cpu_map__get() it to keep it longer. */
AUXTRACE_API struct perf_cpu_map *perf_pmu__cpus(const struct perf_pmu *pmu);
/* How many address filters the PMU takes; 0 when it has no nr_addr_filters file. */
AUXTRACE_API unsigned int perf_pmu__nr_addr_filters(const struct perf_pmu *pmu);

/*
 * Format terms. __format: 0 or -ENOENT (unknown term). __format_first_bit: the lowest bit
 * of the term in its config word (what AUX backends record in AUXTRACE_INFO, e.g. "tsc"),
 * or -ENOENT. __format_name: the idx-th term in name order, NULL past the end.
 */
AUXTRACE_API int perf_pmu__format(const struct perf_pmu *pmu, const char *term,
				  struct perf_pmu_format *out);
AUXTRACE_API int perf_pmu__format_first_bit(const struct perf_pmu *pmu, const char *term);
AUXTRACE_API const char *perf_pmu__format_name(const struct perf_pmu *pmu, int idx);

/* Number of set bits of the format: the widest value it holds. */
AUXTRACE_API int perf_pmu__format_width(const struct perf_pmu_format *format);
/*
 * Scatter value into the format's bits of *word (other bits untouched). -ERANGE when value
 * does not fit the format's width.
 */
AUXTRACE_API int perf_pmu__format_encode(const struct perf_pmu_format *format,
					 uint64_t value, uint64_t *word);
/* Gather the format's bits of word back into a value. */
AUXTRACE_API uint64_t perf_pmu__format_decode(const struct perf_pmu_format *format,
					      uint64_t word);

/*
 * Event aliases (events/<alias>): the term list as sysfs has it, without the trailing
 * newline, or NULL (errno ENOENT). __alias_name: the idx-th alias in name order.
 */
AUXTRACE_API const char *perf_pmu__alias(const struct perf_pmu *pmu, const char *alias);
AUXTRACE_API const char *perf_pmu__alias_name(const struct perf_pmu *pmu, int idx);

/*
 * Any file of the PMU's directory, relative to it ("max_nonturbo_ratio", "caps/psb_cyc"),
 * NUL-terminated, without its trailing newline. Returns the length or -errno (-ENOENT when
 * absent, -EOVERFLOW when it does not fit in size bytes).
 */
AUXTRACE_API int perf_pmu__read(const struct perf_pmu *pmu, const char *file, char *buf,
				size_t size);
/*
 * One number in base (as strtoull: 0 takes decimal, 0x hex and 0 octal). Drivers differ:
 * intel_pt's caps are hex without "0x" (base 16), arm_spe's decimal (base 10 or 0).
 * 0 or -errno (-ENOENT absent, -EINVAL not a number in that base).
 */
AUXTRACE_API int perf_pmu__read_u64(const struct perf_pmu *pmu, const char *file, int base,
				    uint64_t *val);
/* caps/<name>: the same as __read / __read_u64 of "caps/<name>". */
AUXTRACE_API int perf_pmu__cap(const struct perf_pmu *pmu, const char *name, char *buf,
			       size_t size);
AUXTRACE_API int perf_pmu__cap_u64(const struct perf_pmu *pmu, const char *name, int base,
				   uint64_t *val);

/*
 * Every PMU of one sysfs tree, sorted by name, loaded at once. A PMU whose files are
 * malformed is skipped (and logged), not fatal. NULL + errno (ENOENT: no
 * bus/event_source/devices under the root).
 */
struct perf_pmus;

AUXTRACE_API struct perf_pmus *perf_pmus__new(const char *sysfs_root);
AUXTRACE_API void perf_pmus__delete(struct perf_pmus *pmus);
AUXTRACE_API int perf_pmus__nr(const struct perf_pmus *pmus);
/* Borrowed, valid while pmus lives; NULL past the end. */
AUXTRACE_API struct perf_pmu *perf_pmus__at(const struct perf_pmus *pmus, int idx);
/* The next PMU after prev (NULL: the first), NULL after the last. */
AUXTRACE_API struct perf_pmu *perf_pmus__scan(const struct perf_pmus *pmus,
					      const struct perf_pmu *prev);
/* NULL + errno ENOENT when absent. */
AUXTRACE_API struct perf_pmu *perf_pmus__find(const struct perf_pmus *pmus, const char *name);
AUXTRACE_API struct perf_pmu *perf_pmus__find_by_type(const struct perf_pmus *pmus,
						      uint32_t type);

#define perf_pmus__for_each_pmu(pmus, pmu)				\
	for ((pmu) = perf_pmus__scan(pmus, NULL); (pmu);		\
	     (pmu) = perf_pmus__scan(pmus, pmu))

#ifdef __cplusplus
}
#endif
#endif
