// SPDX-License-Identifier: LGPL-2.1
/*
 * CPU maps: sorted arrays of CPU numbers without duplicates, immutable once built and
 * shared by reference counting. -1 (any CPU) sorts first, which keeps the "is this the
 * any-CPU map" checks to one comparison.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/cpumap.h>
#include <internal/lib.h>
#include "refcount.h"

/* The largest CPU number plus one that a list may name: perf's limit, below 2^15. */
#define CPU_LIST_LIMIT 32767

struct perf_cpu_map {
	int refcnt;
	int nr;
	struct perf_cpu map[];
};

static struct perf_cpu_map *cpu_map__alloc(int nr)
{
	struct perf_cpu_map *map;

	map = malloc(sizeof(*map) + (size_t)nr * sizeof(map->map[0]));
	if (!map)
		return libauxtrace__ptr_err(ENOMEM);
	map->refcnt = 1;
	map->nr = nr;
	return map;
}

struct perf_cpu_map *perf_cpu_map__get(struct perf_cpu_map *map)
{
	if (map)
		refcount__get(&map->refcnt);
	return map;
}

void perf_cpu_map__put(struct perf_cpu_map *map)
{
	if (map && refcount__put(&map->refcnt))
		free(map);
}

static int cpu__cmp(const void *a, const void *b)
{
	const struct perf_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Sort map in place; a CPU named twice makes the whole map invalid. Returns 0 or -EINVAL. */
static int cpu_map__sort_unique(struct perf_cpu_map *map)
{
	int i = 1;

	/* Lists are nearly always written in order: then there is nothing to sort or check. */
	while (i < map->nr && map->map[i - 1].cpu < map->map[i].cpu)
		i++;
	if (i >= map->nr)
		return 0;
	qsort(map->map, map->nr, sizeof(map->map[0]), cpu__cmp);
	for (int i = 1; i < map->nr; i++) {
		if (map->map[i].cpu == map->map[i - 1].cpu) {
			pr_err("CPU array names CPU %d more than once: list each CPU once\n",
			       map->map[i].cpu);
			return libauxtrace__err(-EINVAL);
		}
	}
	return 0;
}

struct perf_cpu_map *perf_cpu_map__new_any_cpu(void)
{
	struct perf_cpu_map *map = cpu_map__alloc(1);

	if (map)
		map->map[0].cpu = -1;
	return map;
}

/* Messages quote at most this much of a list: a caller's list may be megabytes long. */
#define CPU_LIST_QUOTED 64

/* One line: the list (its start), then the cause and the fix. */
static void __printf(2, 3) cpu_list__error(const char *list, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pr_err("CPU list \"%.*s%s\": %s\n", CPU_LIST_QUOTED, list,
	       strnlen(list, CPU_LIST_QUOTED + 1) > CPU_LIST_QUOTED ? "..." : "", why);
}

/*
 * The CPUs a list named so far, one bit each. The parser's memory and work are bounded by
 * CPU_LIST_LIMIT, not by the list: a CPU named twice (also through overlapping ranges) is
 * refused when its range is added, before any range is expanded into the map.
 */
#define CPU_SET_WORD_BITS (8 * sizeof(unsigned long))

struct cpu_list_set {
	unsigned long bits[(CPU_LIST_LIMIT + CPU_SET_WORD_BITS - 1) / CPU_SET_WORD_BITS];
	int nr;
};

static bool cpu_list_set__test_and_set(struct cpu_list_set *set, int cpu)
{
	unsigned long mask = 1UL << (cpu % CPU_SET_WORD_BITS);
	unsigned long *word = &set->bits[cpu / CPU_SET_WORD_BITS];
	bool was = *word & mask;

	*word |= mask;
	return was;
}

/* Each CPU of start..end is new or the list is refused: at most CPU_LIST_LIMIT bits set. */
static int cpu_list_set__add_range(struct cpu_list_set *set, const char *list,
				   const char *range, int start, int end)
{
	for (int cpu = start; cpu <= end; cpu++) {
		if (cpu_list_set__test_and_set(set, cpu)) {
			cpu_list__error(list, "names CPU %d more than once (at offset %td): list each CPU once",
					cpu, range - list);
			return -EINVAL;
		}
	}
	set->nr += end - start + 1;
	return 0;
}

/* The set's CPUs in ascending order: the map comes out sorted without a sort. */
static struct perf_cpu_map *cpu_list_set__to_map(const struct cpu_list_set *set)
{
	struct perf_cpu_map *map = cpu_map__alloc(set->nr);
	int n = 0;

	if (!map)
		return NULL;
	for (size_t w = 0; w < ARRAY_SIZE(set->bits); w++) {
		for (unsigned long word = set->bits[w]; word; word &= word - 1)
			map->map[n++].cpu = (int)(w * CPU_SET_WORD_BITS) + __builtin_ctzl(word);
	}
	return map;
}

/*
 * One CPU number at *pos: digits only (strtoul alone would also take blanks and signs),
 * base 0 like perf, below CPU_LIST_LIMIT. Returns the number or -1 (message logged).
 */
static int cpu_list__number(const char *list, const char **pos)
{
	const char *s = *pos;
	unsigned long val;
	char *end;

	if (!isdigit((unsigned char)*s)) {
		cpu_list__error(list, "expected a CPU number at offset %td: write CPUs and ranges such as 0-3,7",
				s - list);
		return -1;
	}
	errno = 0;
	val = strtoul(s, &end, 0);
	if (errno == ERANGE || val >= CPU_LIST_LIMIT) {
		cpu_list__error(list, "CPU number at offset %td is not below %d", s - list,
				CPU_LIST_LIMIT);
		return -1;
	}
	*pos = end;
	return (int)val;
}

/*
 * "0-3,7" (a trailing newline allowed, as sysfs writes it). Anything else is rejected with
 * a message naming the offset: a list that is not understood is never replaced by a guess.
 */
static struct perf_cpu_map *cpu_map__parse(const char *list)
{
	struct cpu_list_set set = { .nr = 0 };
	const char *s = list;

	for (;;) {
		const char *range = s;
		int start, end;

		start = cpu_list__number(list, &s);
		if (start < 0)
			goto invalid;
		end = start;
		if (*s == '-') {
			s++;
			end = cpu_list__number(list, &s);
			if (end < 0)
				goto invalid;
			if (end < start) {
				cpu_list__error(list, "range %d-%d runs backwards: write %d-%d",
						start, end, end, start);
				goto invalid;
			}
		}
		if (cpu_list_set__add_range(&set, list, range, start, end))
			goto invalid;
		if (*s == ',') {
			s++;
			continue;
		}
		if ((*s == '\n' && s[1] == '\0') || *s == '\0')
			break;
		cpu_list__error(list, "unexpected '%c' at offset %td: separate CPUs with ',' and ranges with '-'",
				*s, s - list);
		goto invalid;
	}
	return cpu_list_set__to_map(&set);
invalid:
	return libauxtrace__ptr_err(EINVAL);
}

struct perf_cpu_map *perf_cpu_map__new(const char *cpu_list)
{
	if (!cpu_list)
		return perf_cpu_map__new_online_cpus();
	if (!*cpu_list)
		return perf_cpu_map__new_any_cpu();
	return cpu_map__parse(cpu_list);
}

/* Without sysfs, number the online CPUs 0..n-1: right unless CPUs were taken offline. */
static struct perf_cpu_map *cpu_map__from_sysconf(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	struct perf_cpu_map *map;

	if (online <= 0 || online > CPU_LIST_LIMIT)
		return libauxtrace__ptr_err(EINVAL);
	if (online != conf)
		pr_warn("No sysfs CPU list and %ld of %ld CPUs online: assuming CPUs 0-%ld; mount sysfs for the real list\n",
			online, conf, online - 1);
	map = cpu_map__alloc((int)online);
	if (!map)
		return NULL;
	for (int i = 0; i < map->nr; i++)
		map->map[i].cpu = i;
	return map;
}

struct perf_cpu_map *perf_cpu_map__new_online_cpus(void)
{
	char path[PATH_MAX], buf[4096];
	int n;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", libauxtrace__sysfs_root());
	n = libauxtrace__read_file(path, buf, sizeof(buf));
	if (n == -ENOENT)
		return cpu_map__from_sysconf();
	if (n < 0) {
		pr_err("Cannot read %s: %s\n", path, strerror(-n));
		return libauxtrace__ptr_err(n);
	}
	if (n == sizeof(buf) - 1) {
		pr_err("%s is longer than %zu bytes\n", path, sizeof(buf) - 1);
		return libauxtrace__ptr_err(EINVAL);
	}
	return cpu_map__parse(buf);
}

struct perf_cpu_map *perf_cpu_map__new_array(int nr, const int *cpus)
{
	struct perf_cpu_map *map;

	if (nr <= 0 || !cpus)
		return libauxtrace__ptr_err(EINVAL);
	map = cpu_map__alloc(nr);
	if (!map)
		return NULL;
	for (int i = 0; i < nr; i++) {
		if (cpus[i] < -1 || cpus[i] >= CPU_LIST_LIMIT) {
			pr_err("CPU %d is out of range: CPUs are -1 (any) or 0..%d\n",
			       cpus[i], CPU_LIST_LIMIT - 1);
			free(map);
			return libauxtrace__ptr_err(EINVAL);
		}
		map->map[i].cpu = cpus[i];
	}
	if (cpu_map__sort_unique(map)) {
		free(map);
		return libauxtrace__ptr_err(EINVAL);
	}
	return map;
}

int perf_cpu_map__nr(const struct perf_cpu_map *map)
{
	return map ? map->nr : 1;
}

struct perf_cpu perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx)
{
	struct perf_cpu any = { -1 };

	if (!map || idx < 0 || idx >= map->nr)
		return any;
	return map->map[idx];
}

int perf_cpu_map__idx(const struct perf_cpu_map *map, struct perf_cpu cpu)
{
	int lo = 0, hi = map ? map->nr : 0;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (map->map[mid].cpu == cpu.cpu)
			return mid;
		if (map->map[mid].cpu < cpu.cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

bool perf_cpu_map__has(const struct perf_cpu_map *map, struct perf_cpu cpu)
{
	return perf_cpu_map__idx(map, cpu) != -1;
}

bool perf_cpu_map__equal(const struct perf_cpu_map *a, const struct perf_cpu_map *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->nr != b->nr)
		return false;
	return !memcmp(a->map, b->map, (size_t)a->nr * sizeof(a->map[0]));
}

bool perf_cpu_map__is_subset(const struct perf_cpu_map *a, const struct perf_cpu_map *b)
{
	int i = 0;

	if (a == b || !b)
		return true;
	if (!a || b->nr > a->nr)
		return false;
	/* Both sorted: one walk of a finds every CPU of b or proves one missing. */
	for (int j = 0; j < b->nr; j++) {
		while (i < a->nr && a->map[i].cpu < b->map[j].cpu)
			i++;
		if (i == a->nr || a->map[i].cpu != b->map[j].cpu)
			return false;
		i++;
	}
	return true;
}

bool perf_cpu_map__has_any_cpu(const struct perf_cpu_map *map)
{
	return map && map->map[0].cpu == -1;
}

bool perf_cpu_map__is_any_cpu_or_is_empty(const struct perf_cpu_map *map)
{
	return !map || (map->nr == 1 && map->map[0].cpu == -1);
}

bool perf_cpu_map__is_empty(const struct perf_cpu_map *map)
{
	return !map;
}

struct perf_cpu perf_cpu_map__min(const struct perf_cpu_map *map)
{
	/* Sorted: -1 can only be first, so the lowest real CPU is at 0 or 1. */
	return perf_cpu_map__cpu(map, perf_cpu_map__has_any_cpu(map) ? 1 : 0);
}

struct perf_cpu perf_cpu_map__max(const struct perf_cpu_map *map)
{
	return perf_cpu_map__cpu(map, map ? map->nr - 1 : 0);
}

/*
 * Walk two sorted maps together; keep a CPU found in both (intersect) or in either
 * (union). The result is sorted and unique because the inputs are.
 */
static struct perf_cpu_map *cpu_map__combine(const struct perf_cpu_map *a,
					     const struct perf_cpu_map *b, bool intersect)
{
	struct perf_cpu_map *out = cpu_map__alloc(a->nr + b->nr);
	int i = 0, j = 0, n = 0;

	if (!out)
		return NULL;
	while (i < a->nr || j < b->nr) {
		int x = i < a->nr ? a->map[i].cpu : INT_MAX;
		int y = j < b->nr ? b->map[j].cpu : INT_MAX;
		bool both = x == y;

		if (!intersect || both)
			out->map[n++].cpu = x < y ? x : y;
		i += x <= y;
		j += y <= x;
	}
	out->nr = n;
	if (!n) {
		free(out);
		errno = 0;	/* an empty result, not a failure */
		return NULL;
	}
	return out;
}

int perf_cpu_map__merge(struct perf_cpu_map **orig, struct perf_cpu_map *other)
{
	struct perf_cpu_map *merged;

	if (perf_cpu_map__is_subset(*orig, other))
		return 0;
	if (perf_cpu_map__is_subset(other, *orig)) {
		perf_cpu_map__put(*orig);
		*orig = perf_cpu_map__get(other);
		return 0;
	}
	merged = cpu_map__combine(*orig, other, false);
	if (!merged)
		return libauxtrace__err(-ENOMEM);
	perf_cpu_map__put(*orig);
	*orig = merged;
	return 0;
}

struct perf_cpu_map *perf_cpu_map__intersect(struct perf_cpu_map *a, struct perf_cpu_map *b)
{
	if (perf_cpu_map__is_subset(a, b))
		return perf_cpu_map__get(b);
	if (perf_cpu_map__is_subset(b, a))
		return perf_cpu_map__get(a);
	return cpu_map__combine(a, b, true);
}

size_t perf_cpu_map__snprint(const struct perf_cpu_map *map, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; map && i < map->nr; i++) {
		int first = map->map[i].cpu, last = first;
		char piece[32];
		int n;

		/* -1 is "any", not the CPU before 0: it never starts a range. */
		while (first >= 0 && i + 1 < map->nr && map->map[i + 1].cpu == last + 1)
			last = map->map[++i].cpu;
		if (first == last)
			n = snprintf(piece, sizeof(piece), "%s%d", len ? "," : "", first);
		else
			n = snprintf(piece, sizeof(piece), "%s%d-%d", len ? "," : "", first, last);
		if (len < size)
			snprintf(buf + len, size - len, "%s", piece);
		len += (size_t)n;
	}
	return len;
}
