// SPDX-License-Identifier: LGPL-2.1
/* CPU maps: the list parser (good and every kind of bad), printing, set operations, refs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/cpumap.h>
#include "lib/log-capture.h"
#include "lib/testlib.h"

static char *map_str(const struct perf_cpu_map *map)
{
	static char buf[512];
	size_t n = perf_cpu_map__snprint(map, buf, sizeof(buf));

	ck_assert_uint_lt(n, sizeof(buf));
	ck_assert_uint_eq(n, strlen(buf));
	return buf;
}

static const struct {
	const char *list;
	const char *printed;
	int nr;
} good[] = {
	{ "0-3,7", "0-3,7", 5 },
	{ "4,2,1", "1-2,4", 3 },
	{ "7,0-3", "0-3,7", 5 },
	{ "1\n", "1", 1 },		/* sysfs writes a newline */
	{ "0-1\n", "0-1", 2 },
	{ "010", "8", 1 },		/* strtoul base 0: octal */
	{ "0x10", "16", 1 },		/* and hex */
	{ "0x2-0x4", "2-4", 3 },
	{ "32766", "32766", 1 },	/* the largest allowed */
	{ "5-5", "5", 1 },
	{ "0,2,4-6,8", "0,2,4-6,8", 6 },
	{ "10-20,0-9,21", "0-21", 22 },	/* ranges out of order that only touch */
	{ "32766,0", "0,32766", 2 },
	{ "0-32766", "0-32766", 32767 },	/* every CPU the limit allows */
};

START_TEST(test_parse_good)
{
	struct perf_cpu_map *map = perf_cpu_map__new(good[_i].list);

	ck_assert_msg(map, "\"%s\" rejected: %s", good[_i].list, strerror(errno));
	ck_assert_int_eq(perf_cpu_map__nr(map), good[_i].nr);
	ck_assert_str_eq(map_str(map), good[_i].printed);
	for (int i = 1; i < perf_cpu_map__nr(map); i++)
		ck_assert_int_lt(perf_cpu_map__cpu(map, i - 1).cpu, perf_cpu_map__cpu(map, i).cpu);
	perf_cpu_map__put(map);
}
END_TEST

static const char *const bad[] = {
	/* duplicates, also through overlapping ranges, in any order */
	"1,1", "1-3,2", "0-4,4-6", "0x1,1", "5-9,0-5", "2,0-3", "0-32766,32766",
	/* reversed ranges */
	"3-1", "10-0",
	/* junk */
	"x", "a-3", " 1", "+1", "-1", "1--3", "1- 3", "1-+3", "1-x", ",1", "1,,2", "1;2", "1 2",
	/* trailing junk: libperf would fall back to the online CPUs, we refuse */
	"1x", "1,", "1-", "0-3,7z", "1\n2", "1\n\n", "1 ", "0x", "1-3,",
	/* numbers >= 32767 and overflow */
	"32767", "0-32767", "0x8000", "99999999999999999999", "18446744073709551616",
	"1-99999999999999999999",
	/* make fuzz: repeats in many wide ranges (the old parser expanded them all first) */
	"7,60-322,76,4,7,06,60-32766,6,276,676,6,00-3272,76,4,7,06,60-32766,6,276,6,0-3272,76,"
	"4,7,06,60-32766,6,276,6,00-3276,60-32765,6,00-3276,60-32765,6,66",
};

START_TEST(test_parse_bad)
{
	struct perf_cpu_map *map;

	errno = 0;
	map = perf_cpu_map__new(bad[_i]);
	ck_assert_msg(!map, "\"%s\" accepted as %s", bad[_i], map ? map_str(map) : "");
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* The log names the cause. */
START_TEST(test_parse_bad_messages)
{
	static const struct { const char *list, *says; } cases[] = {
		{ "1-3,2", "names CPU 2 more than once (at offset 4)" },
		{ "5-9,0-5", "names CPU 5 more than once (at offset 4)" },
		{ "3-1", "range 3-1 runs backwards" },
		{ "1x", "unexpected 'x' at offset 1" },
		{ "0,40000", "not below 32767" },
		{ "1,,2", "expected a CPU number at offset 2" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		log_capture_start();
		ck_assert_ptr_null(perf_cpu_map__new(cases[i].list));
		log_capture_stop();
		ck_assert_msg(log_captured(cases[i].says), "\"%s\": got \"%s\"",
			      cases[i].list, log_text);
	}
}
END_TEST

/* Peak resident set size (VmHWM) in KiB since the last peak_rss_reset(). */
static long peak_rss_kib(void)
{
	long long kib = testlib_self_status("VmHWM", 10);

	ck_assert_int_ge(kib, 0);
	return (long)kib;
}

/* Start a new peak at the current RSS (clear_refs 5, Linux 4.0+). */
static void peak_rss_reset(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs("5", f), 1);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * A list can name at most 32767 CPUs: its map is 128 KiB. Whatever the input, parsing may
 * touch little more than that (2 MiB leaves room for the sanitizers' own bookkeeping).
 */
#define PARSE_PEAK_RSS_KIB 2048

/* "0-32766,0-32766,...,0-32766" of about size bytes: each range names every CPU again. */
static char *overlapping_ranges(size_t size)
{
	static const char range[] = "0-32766,";
	size_t n = size / (sizeof(range) - 1);
	char *list = malloc(n * (sizeof(range) - 1) + 1), *p = list;

	ck_assert_ptr_nonnull(list);
	for (size_t i = 0; i < n; i++, p += sizeof(range) - 1)
		memcpy(p, range, sizeof(range) - 1);
	p[-1] = '\0';		/* no trailing comma */
	return list;
}

/*
 * Issue 11's reproducers: overlapping ranges were expanded before the duplicate check
 * (16 KB cost 513 MB), and from about 525 KB the int sizes wrapped and the expansion
 * wrote past its buffer. Now the second range is refused before anything grows.
 */
static const size_t overlap_sizes[] = { 16 << 10, 525 << 10, 1 << 20 };

START_TEST(test_parse_overlap_bounded)
{
	char *list = overlapping_ranges(overlap_sizes[_i]);
	long peak;

	peak_rss_reset();
	peak = peak_rss_kib();
	log_capture_start();
	assert_null_errno(perf_cpu_map__new(list), EINVAL);
	log_capture_stop();
	peak = peak_rss_kib() - peak;
	ck_assert_msg(peak < PARSE_PEAK_RSS_KIB, "%zu-byte list: peak RSS grew %ld KiB",
		      strlen(list), peak);
	/* The message quotes the start of the list only, and names the first repeat. */
	ck_assert_msg(log_captured("\"0-32766,0-32766,") && log_captured("...\"") &&
		      log_captured("names CPU 0 more than once (at offset 8)"), "%s", log_text);
	ck_assert_uint_lt(strlen(log_text), 512);
	free(list);
}
END_TEST

/* Long lists that are valid: accepted and correct, with the same bound on memory. */
START_TEST(test_parse_long_valid)
{
	size_t zeros = 1 << 20;
	char *reversed = malloc(6 * 32767 + 1), *padded = malloc(zeros + 2), *p = reversed;
	struct perf_cpu_map *map;
	long peak;

	ck_assert_ptr_nonnull(reversed);
	ck_assert_ptr_nonnull(padded);
	for (int cpu = 32766; cpu >= 0; cpu--)	/* every CPU, one at a time, backwards */
		p += sprintf(p, "%d,", cpu);
	p[-1] = '\0';
	memset(padded, '0', zeros);		/* a 1 MiB octal 7 */
	strcpy(padded + zeros, "7");

	peak_rss_reset();
	peak = peak_rss_kib();
	map = perf_cpu_map__new(reversed);
	ck_assert_ptr_nonnull(map);
	ck_assert_int_eq(perf_cpu_map__nr(map), 32767);
	ck_assert_str_eq(map_str(map), "0-32766");
	perf_cpu_map__put(map);
	map = perf_cpu_map__new(padded);
	ck_assert_ptr_nonnull(map);
	ck_assert_str_eq(map_str(map), "7");
	perf_cpu_map__put(map);
	peak = peak_rss_kib() - peak;
	ck_assert_msg(peak < PARSE_PEAK_RSS_KIB, "peak RSS grew %ld KiB", peak);
	free(reversed);
	free(padded);
}
END_TEST

/* perf's "Cpu map print" list: parse then print must give the same string. */
static const char *const round_trips[] = {
	"1", "1,5", "1,3,5,7,9,11,13,15,17,19,21-40", "2-5", "1,3-6,8-10,24,35-37",
	"1-10,12-20,22-30,32-40",
};

START_TEST(test_print_round_trip)
{
	struct perf_cpu_map *map = perf_cpu_map__new(round_trips[_i]);

	ck_assert_ptr_nonnull(map);
	ck_assert_str_eq(map_str(map), round_trips[_i]);
	perf_cpu_map__put(map);
}
END_TEST

START_TEST(test_print_edges)
{
	struct perf_cpu_map *any = perf_cpu_map__new(""), *map = perf_cpu_map__new("1-2,4-5,7");
	int with_any[] = { 2, -1, 0, 1 };
	struct perf_cpu_map *mixed = perf_cpu_map__new_array(4, with_any);
	char small[6];

	ck_assert_str_eq(map_str(any), "-1");
	ck_assert_str_eq(map_str(NULL), "");
	/* -1 is not the CPU before 0: it never joins a range. */
	ck_assert_str_eq(map_str(mixed), "-1,0-2");
	/* snprintf semantics: the full length is returned, the buffer holds what fits. */
	memset(small, 'X', sizeof(small));
	ck_assert_uint_eq(perf_cpu_map__snprint(map, small, sizeof(small)), strlen("1-2,4-5,7"));
	ck_assert_str_eq(small, "1-2,4");
	ck_assert_uint_eq(perf_cpu_map__snprint(map, NULL, 0), strlen("1-2,4-5,7"));
	perf_cpu_map__put(any);
	perf_cpu_map__put(map);
	perf_cpu_map__put(mixed);
}
END_TEST

START_TEST(test_any_cpu)
{
	struct perf_cpu_map *any = perf_cpu_map__new(""), *any2 = perf_cpu_map__new_any_cpu();
	struct perf_cpu_map *map = perf_cpu_map__new("0-1");

	ck_assert_int_eq(perf_cpu_map__nr(any), 1);
	ck_assert_int_eq(perf_cpu_map__cpu(any, 0).cpu, -1);
	ck_assert(perf_cpu_map__equal(any, any2));
	ck_assert(perf_cpu_map__has_any_cpu(any));
	ck_assert(perf_cpu_map__is_any_cpu_or_is_empty(any));
	ck_assert(!perf_cpu_map__is_empty(any));
	ck_assert(!perf_cpu_map__has_any_cpu(map));
	ck_assert(!perf_cpu_map__is_any_cpu_or_is_empty(map));
	ck_assert(!perf_cpu_map__has_any_cpu(NULL));
	ck_assert(perf_cpu_map__is_any_cpu_or_is_empty(NULL));
	ck_assert(perf_cpu_map__is_empty(NULL));
	ck_assert_int_eq(perf_cpu_map__min(any).cpu, -1);
	ck_assert_int_eq(perf_cpu_map__max(any).cpu, -1);
	perf_cpu_map__put(any);
	perf_cpu_map__put(any2);
	perf_cpu_map__put(map);
}
END_TEST

START_TEST(test_accessors)
{
	struct perf_cpu_map *map = perf_cpu_map__new("1,3-5,9");
	int with_any[] = { 6, -1, 2 };
	struct perf_cpu_map *mixed = perf_cpu_map__new_array(3, with_any);
	static const struct { int cpu, idx; } idx[] = {
		{ 1, 0 }, { 3, 1 }, { 4, 2 }, { 5, 3 }, { 9, 4 },
		{ 0, -1 }, { 2, -1 }, { 6, -1 }, { 10, -1 }, { -1, -1 },
	};
	struct perf_cpu cpu;
	int i, n = 0;

	ck_assert_int_eq(perf_cpu_map__nr(map), 5);
	ck_assert_int_eq(perf_cpu_map__nr(NULL), 1);
	for (size_t k = 0; k < sizeof(idx) / sizeof(idx[0]); k++) {
		struct perf_cpu c = { idx[k].cpu };

		ck_assert_int_eq(perf_cpu_map__idx(map, c), idx[k].idx);
		ck_assert(perf_cpu_map__has(map, c) == (idx[k].idx >= 0));
	}
	ck_assert_int_eq(perf_cpu_map__idx(NULL, (struct perf_cpu){ 0 }), -1);
	ck_assert_int_eq(perf_cpu_map__cpu(map, -1).cpu, -1);
	ck_assert_int_eq(perf_cpu_map__cpu(map, 5).cpu, -1);
	ck_assert_int_eq(perf_cpu_map__cpu(NULL, 0).cpu, -1);
	ck_assert_int_eq(perf_cpu_map__min(map).cpu, 1);
	ck_assert_int_eq(perf_cpu_map__max(map).cpu, 9);
	ck_assert_int_eq(perf_cpu_map__min(mixed).cpu, 2);	/* skips -1 */
	ck_assert_int_eq(perf_cpu_map__max(mixed).cpu, 6);
	ck_assert_int_eq(perf_cpu_map__min(NULL).cpu, -1);
	ck_assert_int_eq(perf_cpu_map__max(NULL).cpu, -1);
	perf_cpu_map__for_each_cpu(cpu, i, map) {
		ck_assert_int_eq(cpu.cpu, perf_cpu_map__cpu(map, i).cpu);
		n++;
	}
	ck_assert_int_eq(n, 5);
	perf_cpu_map__put(map);
	perf_cpu_map__put(mixed);
}
END_TEST

START_TEST(test_new_array)
{
	int cpus[] = { 5, 1, 3 }, dup[] = { 1, 2, 1 }, neg[] = { -2 }, big[] = { 32767 };
	struct perf_cpu_map *map = perf_cpu_map__new_array(3, cpus);

	ck_assert_str_eq(map_str(map), "1,3,5");
	perf_cpu_map__put(map);
	assert_null_errno(perf_cpu_map__new_array(3, dup), EINVAL);
	assert_null_errno(perf_cpu_map__new_array(1, neg), EINVAL);
	assert_null_errno(perf_cpu_map__new_array(1, big), EINVAL);
	assert_null_errno(perf_cpu_map__new_array(0, cpus), EINVAL);
}
END_TEST

START_TEST(test_merge)
{
	struct perf_cpu_map *a = perf_cpu_map__new("4,2,1"), *b = perf_cpu_map__new("4,5,7");
	struct perf_cpu_map *sub = perf_cpu_map__new("2,4"), *orig;

	/* perf's "Cpu map merge" */
	ck_assert_int_eq(perf_cpu_map__merge(&a, b), 0);
	ck_assert_int_eq(perf_cpu_map__nr(a), 5);
	ck_assert_str_eq(map_str(a), "1-2,4-5,7");
	ck_assert_str_eq(map_str(b), "4-5,7");		/* other is untouched */

	/* other is a subset: *orig keeps its identity */
	orig = a;
	ck_assert_int_eq(perf_cpu_map__merge(&a, sub), 0);
	ck_assert_ptr_eq(a, orig);
	ck_assert_int_eq(perf_cpu_map__merge(&a, NULL), 0);
	ck_assert_ptr_eq(a, orig);

	/* *orig is a subset: it becomes a reference to other */
	ck_assert_int_eq(perf_cpu_map__merge(&sub, a), 0);
	ck_assert_ptr_eq(sub, a);
	perf_cpu_map__put(sub);	/* the reference merge took */

	/* NULL *orig */
	orig = NULL;
	ck_assert_int_eq(perf_cpu_map__merge(&orig, b), 0);
	ck_assert_ptr_eq(orig, b);
	perf_cpu_map__put(orig);
	perf_cpu_map__put(a);
	perf_cpu_map__put(b);
}
END_TEST

START_TEST(test_intersect)
{
	static const struct { const char *a, *b, *want; } cases[] = {
		{ "1-5", "3-8", "3-5" },
		{ "0,2,4,6", "1,3,5", NULL },
		{ "0-7", "2,5", "2,5" },
		{ "2,5", "0-7", "2,5" },
		{ "1,3,5,7,9", "3-7,9-12", "3,5,7,9" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_cpu_map *a = perf_cpu_map__new(cases[i].a);
		struct perf_cpu_map *b = perf_cpu_map__new(cases[i].b);
		struct perf_cpu_map *r = perf_cpu_map__intersect(a, b);

		if (!cases[i].want)
			ck_assert_ptr_null(r);
		else
			ck_assert_str_eq(map_str(r), cases[i].want);
		perf_cpu_map__put(r);
		perf_cpu_map__put(a);
		perf_cpu_map__put(b);
	}
}
END_TEST

START_TEST(test_intersect_subset_shares)
{
	struct perf_cpu_map *all = perf_cpu_map__new("0-7"), *some = perf_cpu_map__new("2,5");
	struct perf_cpu_map *r = perf_cpu_map__intersect(all, some);

	/* A subset needs no new map: the result is another reference to it. */
	ck_assert_ptr_eq(r, some);
	perf_cpu_map__put(r);
	ck_assert_ptr_null(perf_cpu_map__intersect(all, NULL));
	perf_cpu_map__put(all);
	perf_cpu_map__put(some);
}
END_TEST

START_TEST(test_subset_equal)
{
	static const struct { const char *a, *b; bool subset; } cases[] = {
		{ "0-7", "2,5", true },
		{ "2,5", "0-7", false },
		{ "1-3", "1-3", true },
		{ "1,3", "1-3", false },
		{ "0-3", "3-4", false },
		{ "0,4", "5", false },
		{ "", "", true },
		{ "0-3", "", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_cpu_map *a = perf_cpu_map__new(cases[i].a);
		struct perf_cpu_map *b = perf_cpu_map__new(cases[i].b);

		ck_assert_msg(perf_cpu_map__is_subset(a, b) == cases[i].subset,
			      "is_subset(%s, %s)", cases[i].a, cases[i].b);
		ck_assert(perf_cpu_map__equal(a, b) == !strcmp(cases[i].a, cases[i].b));
		ck_assert(perf_cpu_map__is_subset(a, NULL));
		ck_assert(!perf_cpu_map__is_subset(NULL, a));
		perf_cpu_map__put(a);
		perf_cpu_map__put(b);
	}
	ck_assert(perf_cpu_map__equal(NULL, NULL));
	ck_assert(perf_cpu_map__is_subset(NULL, NULL));
}
END_TEST

START_TEST(test_get_put_balance)
{
	struct perf_cpu_map *map = perf_cpu_map__new_any_cpu();

	/* Ten more references, ten puts: the map must still be alive and unchanged
	 * (ASan reports a use after free if a put freed it early). */
	for (int i = 0; i < 10; i++)
		ck_assert_ptr_eq(perf_cpu_map__get(map), map);
	for (int i = 0; i < 10; i++)
		perf_cpu_map__put(map);
	ck_assert_int_eq(perf_cpu_map__cpu(map, 0).cpu, -1);
	perf_cpu_map__put(map);
	ck_assert_ptr_null(perf_cpu_map__get(NULL));
	perf_cpu_map__put(NULL);
}
END_TEST

/* A fake sysfs tree with only devices/system/cpu/online, used through AUXTRACE_SYSFS. */
static char *fake_sysfs(const char *online)
{
	static char root[] = "/tmp/auxtrace-cpumap-XXXXXX";
	char path[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/devices", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/devices/system", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/devices/system/cpu", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	if (online) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(online, f);
		fclose(f);
	}
	ck_assert_int_eq(setenv("AUXTRACE_SYSFS", root, 1), 0);
	return root;
}

static void fake_sysfs_remove(const char *root)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
	unsetenv("AUXTRACE_SYSFS");
}

START_TEST(test_online_fake_sysfs)
{
	char *root = fake_sysfs("0-2,5,8-9\n");
	struct perf_cpu_map *map = perf_cpu_map__new(NULL);
	struct perf_cpu_map *map2 = perf_cpu_map__new_online_cpus();

	ck_assert_ptr_nonnull(map);
	ck_assert_str_eq(map_str(map), "0-2,5,8-9");
	ck_assert(perf_cpu_map__equal(map, map2));
	perf_cpu_map__put(map);
	perf_cpu_map__put(map2);
	fake_sysfs_remove(root);
}
END_TEST

START_TEST(test_online_fake_sysfs_bad)
{
	char *root = fake_sysfs("0-2,garbage\n");

	assert_null_errno(perf_cpu_map__new(NULL), EINVAL);
	fake_sysfs_remove(root);
}
END_TEST

START_TEST(test_online_without_sysfs_file)
{
	char *root = fake_sysfs(NULL);
	struct perf_cpu_map *map = perf_cpu_map__new(NULL);
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	/* No online file: sysconf's count, numbered from 0. */
	ck_assert_ptr_nonnull(map);
	ck_assert_int_eq(perf_cpu_map__nr(map), n);
	ck_assert_int_eq(perf_cpu_map__min(map).cpu, 0);
	ck_assert_int_eq(perf_cpu_map__max(map).cpu, n - 1);
	perf_cpu_map__put(map);
	fake_sysfs_remove(root);
}
END_TEST

START_TEST(test_online_real)
{
	struct perf_cpu_map *map = perf_cpu_map__new(NULL);
	char want[512];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int i;
	struct perf_cpu cpu;

	ck_assert_ptr_nonnull(map);
	ck_assert_int_eq(perf_cpu_map__nr(map), testlib_nr_online_cpus());
	if (!f)
		TEST_SKIP("no /sys/devices/system/cpu/online");
	ck_assert_ptr_nonnull(fgets(want, sizeof(want), f));
	fclose(f);
	want[strcspn(want, "\n")] = '\0';
	/* The kernel prints the shortest form too, so the strings must agree. */
	ck_assert_str_eq(map_str(map), want);
	/* Every CPU of the map is real: we can run on it. */
	perf_cpu_map__for_each_cpu(cpu, i, map)
		ck_assert_int_eq(testlib_pin_cpu(cpu.cpu), 0);
	perf_cpu_map__put(map);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpumap");
	TCase *parse = tcase_create("parse");
	TCase *ops = tcase_create("ops");
	TCase *online = tcase_create("online");

	tcase_add_loop_test(parse, test_parse_good, 0, sizeof(good) / sizeof(good[0]));
	tcase_add_loop_test(parse, test_parse_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(parse, test_parse_bad_messages);
	tcase_add_loop_test(parse, test_parse_overlap_bounded, 0,
			    sizeof(overlap_sizes) / sizeof(overlap_sizes[0]));
	tcase_add_test(parse, test_parse_long_valid);
	tcase_add_loop_test(parse, test_print_round_trip, 0,
			    sizeof(round_trips) / sizeof(round_trips[0]));
	tcase_add_test(parse, test_print_edges);
	suite_add_tcase(s, parse);

	tcase_add_test(ops, test_any_cpu);
	tcase_add_test(ops, test_accessors);
	tcase_add_test(ops, test_new_array);
	tcase_add_test(ops, test_merge);
	tcase_add_test(ops, test_intersect);
	tcase_add_test(ops, test_intersect_subset_shares);
	tcase_add_test(ops, test_subset_equal);
	tcase_add_test(ops, test_get_put_balance);
	suite_add_tcase(s, ops);

	tcase_add_test(online, test_online_fake_sysfs);
	tcase_add_test(online, test_online_fake_sysfs_bad);
	tcase_add_test(online, test_online_without_sysfs_file);
	tcase_add_test(online, test_online_real);
	suite_add_tcase(s, online);
	return testlib_run(s);
}
