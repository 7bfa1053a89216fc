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
 * perf_pmu__new() loads the PMU <name> under sysfs_root (NULL: libauxtrace's default root):
 * its type, cpumask, formats, aliases. Returns it, the caller's (perf_pmu__delete), or NULL +
 * errno ENOENT if there is no such PMU, EINVAL if its type or a format file is malformed (the
 * cause is logged), ENOMEM.
 */
AUXTRACE_API struct perf_pmu *perf_pmu__new(const char *sysfs_root, const char *name);
/*
 * perf_pmu__delete() frees a PMU perf_pmu__new made (NULL: nothing); never one of a
 * perf_pmus, which owns its own.
 */
AUXTRACE_API void perf_pmu__delete(struct perf_pmu *pmu);

/* perf_pmu__name() returns its name ("intel_pt"), borrowed: valid while the PMU lives. */
AUXTRACE_API const char *perf_pmu__name(const struct perf_pmu *pmu);
/* perf_pmu__type() returns the value for perf_event_attr.type. */
AUXTRACE_API uint32_t perf_pmu__type(const struct perf_pmu *pmu);
/*
 * perf_pmu__cpus() returns the PMU's cpumask (or cpus) file as a map; NULL when it has none
 * (it counts on any CPU). Borrowed: valid while the PMU lives, perf_cpu_map__get() it to
 * keep it longer.
 */
AUXTRACE_API struct perf_cpu_map *perf_pmu__cpus(const struct perf_pmu *pmu);
/*
 * perf_pmu__nr_addr_filters() returns how many address filters the PMU takes; 0 when it
 * has no nr_addr_filters file.
 */
AUXTRACE_API unsigned int perf_pmu__nr_addr_filters(const struct perf_pmu *pmu);

/* Format terms (format/<term>), sorted by name. */
/* perf_pmu__format() fills *out with where term lives. Returns 0 or -ENOENT (unknown term). */
AUXTRACE_API int perf_pmu__format(const struct perf_pmu *pmu, const char *term,
				  struct perf_pmu_format *out);
/*
 * perf_pmu__format_first_bit() returns the lowest bit of term in its config word (what AUX
 * backends record in AUXTRACE_INFO, e.g. "tsc"), or -ENOENT.
 */
AUXTRACE_API int perf_pmu__format_first_bit(const struct perf_pmu *pmu, const char *term);
/*
 * perf_pmu__format_name() returns the idx-th term in name order (borrowed: valid while the
 * PMU lives), NULL past the end.
 */
AUXTRACE_API const char *perf_pmu__format_name(const struct perf_pmu *pmu, int idx);

/* perf_pmu__format_width() returns the number of set bits of the format: the widest value. */
AUXTRACE_API int perf_pmu__format_width(const struct perf_pmu_format *format);
/*
 * perf_pmu__format_encode() scatters value into the format's bits of *word (other bits
 * untouched). Returns 0, or -ERANGE when value does not fit the format's width.
 */
AUXTRACE_API int perf_pmu__format_encode(const struct perf_pmu_format *format,
					 uint64_t value, uint64_t *word);
/* perf_pmu__format_decode() returns the format's bits of word gathered back into a value. */
AUXTRACE_API uint64_t perf_pmu__format_decode(const struct perf_pmu_format *format,
					      uint64_t word);

/* Event aliases (events/<alias>), sorted by name. */
/*
 * perf_pmu__alias() returns alias's term list as sysfs has it, without the trailing
 * newline (borrowed: valid while the PMU lives), or NULL + ENOENT.
 */
AUXTRACE_API const char *perf_pmu__alias(const struct perf_pmu *pmu, const char *alias);
/*
 * perf_pmu__alias_name() returns the idx-th alias in name order (borrowed), NULL past the
 * end.
 */
AUXTRACE_API const char *perf_pmu__alias_name(const struct perf_pmu *pmu, int idx);

/*
 * perf_pmu__read() reads into buf any file of the PMU's directory, relative to it
 * ("max_nonturbo_ratio", "caps/psb_cyc"), NUL-terminated, without its trailing newline. Returns
 * the length or -errno (-ENOENT when absent, -EOVERFLOW when it does not fit in size bytes).
 */
AUXTRACE_API int perf_pmu__read(const struct perf_pmu *pmu, const char *file, char *buf,
				size_t size);
/*
 * perf_pmu__read_u64() reads a file holding one number in base into *val (as strtoull: 0 takes
 * decimal, 0x hex and 0 octal). Drivers differ: intel_pt's caps are hex without "0x" (base 16),
 * arm_spe's decimal (base 10 or 0). Returns 0 or -errno (-ENOENT absent, -EINVAL not a number
 * in that base).
 */
AUXTRACE_API int perf_pmu__read_u64(const struct perf_pmu *pmu, const char *file, int base,
				    uint64_t *val);
/* perf_pmu__cap() is perf_pmu__read of "caps/<name>", and returns as it. */
AUXTRACE_API int perf_pmu__cap(const struct perf_pmu *pmu, const char *name, char *buf,
			       size_t size);
/* perf_pmu__cap_u64() is perf_pmu__read_u64 of "caps/<name>", and returns as it. */
AUXTRACE_API int perf_pmu__cap_u64(const struct perf_pmu *pmu, const char *name, int base,
				   uint64_t *val);

/*
 * Every PMU of one sysfs tree, sorted by name, loaded at once. A PMU whose files are
 * malformed is skipped (and logged), not fatal.
 */
struct perf_pmus;

/*
 * perf_pmus__new() loads every PMU under sysfs_root (NULL: libauxtrace's default root).
 * Returns them, the caller's (perf_pmus__delete), or NULL + errno: ENOENT (no
 * bus/event_source/devices under the root), ENOMEM, opendir's.
 */
AUXTRACE_API struct perf_pmus *perf_pmus__new(const char *sysfs_root);
/* perf_pmus__delete() frees pmus and every PMU in it (NULL: nothing). */
AUXTRACE_API void perf_pmus__delete(struct perf_pmus *pmus);
/* perf_pmus__nr() returns how many PMUs it holds. */
AUXTRACE_API int perf_pmus__nr(const struct perf_pmus *pmus);
/*
 * perf_pmus__at() returns the idx-th PMU in name order, borrowed: valid while pmus lives;
 * NULL past the end.
 */
AUXTRACE_API struct perf_pmu *perf_pmus__at(const struct perf_pmus *pmus, int idx);
/*
 * perf_pmus__scan() returns the next PMU after prev (NULL: the first), borrowed; NULL after
 * the last (or when prev is not one of pmus).
 */
AUXTRACE_API struct perf_pmu *perf_pmus__scan(const struct perf_pmus *pmus,
					      const struct perf_pmu *prev);
/* perf_pmus__find() returns the PMU called name, borrowed; NULL + ENOENT when absent. */
AUXTRACE_API struct perf_pmu *perf_pmus__find(const struct perf_pmus *pmus, const char *name);
/*
 * perf_pmus__find_by_type() returns the PMU of attr.type type, borrowed; NULL + ENOENT when
 * absent.
 */
AUXTRACE_API struct perf_pmu *perf_pmus__find_by_type(const struct perf_pmus *pmus,
						      uint32_t type);

#define perf_pmus__for_each_pmu(pmus, pmu)				\
	for ((pmu) = perf_pmus__scan(pmus, NULL); (pmu);		\
	     (pmu) = perf_pmus__scan(pmus, pmu))

#ifdef __cplusplus
}
#endif
#endif
