// SPDX-License-Identifier: LGPL-2.1
/* PMUs from sysfs: a fake tree with Intel PT / SPE / split-range PMUs, and the real one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <auxtrace/pmu.h>
#include "lib/fake-sysfs.h"
#include "lib/testlib.h"

static struct fake_sysfs fs;

static void setup(void)
{
	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
}

static void teardown(void)
{
	fake_sysfs__remove(&fs);
}

static struct perf_pmu *pmu_new(const char *name)
{
	struct perf_pmu *pmu = perf_pmu__new(fs.root, name);

	ck_assert_msg(pmu, "PMU %s: %s", name, strerror(errno));
	return pmu;
}

START_TEST(test_intel_pt)
{
	struct perf_pmu *pmu = pmu_new("intel_pt");
	static const struct { const char *term; uint64_t bits; int first; } f[] = {
		{ "pt", 1ULL << 0, 0 }, { "cyc", 1ULL << 1, 1 }, { "mtc", 1ULL << 9, 9 },
		{ "tsc", 1ULL << 10, 10 }, { "noretcomp", 1ULL << 11, 11 },
		{ "ptw", 1ULL << 12, 12 }, { "branch", 1ULL << 13, 13 },
		{ "mtc_period", 0xfULL << 14, 14 }, { "cyc_thresh", 0xfULL << 19, 19 },
		{ "psb_period", 0xfULL << 24, 24 }, { "notnt", 1ULL << 55, 55 },
	};
	struct perf_pmu_format fmt;
	char buf[16];
	uint64_t v;

	ck_assert_str_eq(perf_pmu__name(pmu), "intel_pt");
	ck_assert_uint_eq(perf_pmu__type(pmu), 8);
	ck_assert_ptr_null(perf_pmu__cpus(pmu));
	ck_assert_uint_eq(perf_pmu__nr_addr_filters(pmu), 2);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		ck_assert_int_eq(perf_pmu__format(pmu, f[i].term, &fmt), 0);
		ck_assert_int_eq(fmt.config, 0);
		ck_assert_msg(fmt.bits == f[i].bits, "%s: bits %#llx", f[i].term,
			      (unsigned long long)fmt.bits);
		ck_assert_int_eq(perf_pmu__format_first_bit(pmu, f[i].term), f[i].first);
	}
	errno = 0;
	ck_assert_int_eq(perf_pmu__format(pmu, "nosuch", &fmt), -ENOENT);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(perf_pmu__format_first_bit(pmu, "nosuch"), -ENOENT);

	ck_assert_int_eq(perf_pmu__cap(pmu, "psb_cyc", buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "1");
	ck_assert_int_eq(perf_pmu__cap_u64(pmu, "mtc_periods", 16, &v), 0);
	ck_assert_uint_eq(v, 0x249);
	ck_assert_int_eq(perf_pmu__cap_u64(pmu, "cycle_thresholds", 16, &v), 0);
	ck_assert_uint_eq(v, 0x3fff);
	ck_assert_int_eq(perf_pmu__cap_u64(pmu, "cycle_thresholds", 10, &v), -EINVAL);
	ck_assert_int_eq(perf_pmu__cap(pmu, "nosuch", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(perf_pmu__read_u64(pmu, "max_nonturbo_ratio", 0, &v), 0);
	ck_assert_uint_eq(v, 33);
	perf_pmu__delete(pmu);
}
END_TEST

START_TEST(test_format_names_sorted)
{
	struct perf_pmu *pmu = pmu_new("intel_pt");
	const char *prev = NULL, *name;
	int n = 0;

	for (int i = 0; (name = perf_pmu__format_name(pmu, i)); i++, n++) {
		if (prev)
			ck_assert_int_lt(strcmp(prev, name), 0);
		prev = name;
	}
	ck_assert_int_eq(n, 14);
	ck_assert_ptr_null(perf_pmu__format_name(pmu, -1));
	perf_pmu__delete(pmu);
}
END_TEST

START_TEST(test_split_and_wide_formats)
{
	struct perf_pmu *pmu = pmu_new("uncore_split");
	struct perf_pmu_format fmt;
	uint64_t word;

	ck_assert_int_eq(perf_pmu__format(pmu, "event", &fmt), 0);
	ck_assert_int_eq(fmt.config, 0);
	ck_assert(fmt.bits == (0xffULL | 0xfULL << 32));
	ck_assert_int_eq(perf_pmu__format_width(&fmt), 12);
	/* 0xabc: low byte 0xbc to bits 0-7, high nibble 0xa to bits 32-35. */
	word = 0x100;	/* umask bit outside the format: must survive */
	ck_assert_int_eq(perf_pmu__format_encode(&fmt, 0xabc, &word), 0);
	ck_assert(word == (0xbcULL | 0x100 | 0xaULL << 32));
	ck_assert_uint_eq(perf_pmu__format_decode(&fmt, word), 0xabc);
	/* 13 bits do not fit 12; the word is untouched */
	ck_assert_int_eq(perf_pmu__format_encode(&fmt, 0x1000, &word), -ERANGE);
	ck_assert(word == (0xbcULL | 0x100 | 0xaULL << 32));
	/* re-encoding clears the old value first */
	ck_assert_int_eq(perf_pmu__format_encode(&fmt, 0x001, &word), 0);
	ck_assert(word == (0x1ULL | 0x100));

	ck_assert_int_eq(perf_pmu__format(pmu, "wide", &fmt), 0);
	ck_assert_int_eq(fmt.config, 1);
	ck_assert(fmt.bits == ~0ULL);
	ck_assert_int_eq(perf_pmu__format_width(&fmt), 64);
	word = 0;
	ck_assert_int_eq(perf_pmu__format_encode(&fmt, ~0ULL, &word), 0);
	ck_assert(word == ~0ULL);

	ck_assert_int_eq(perf_pmu__format(pmu, "ext", &fmt), 0);
	ck_assert_int_eq(fmt.config, 2);
	ck_assert(fmt.bits == (0x30ULL | 0x3ULL << 60));
	word = 0;
	ck_assert_int_eq(perf_pmu__format_encode(&fmt, 0x9, &word), 0);	/* 10 01 */
	ck_assert(word == (0x10ULL | 0x2ULL << 60));
	ck_assert_int_eq(perf_pmu__format_first_bit(pmu, "ext"), 4);

	ck_assert_int_eq(perf_pmu__format(pmu, "far", &fmt), 0);
	ck_assert_int_eq(fmt.config, 3);
	ck_assert(fmt.bits == 1ULL << 7);
	perf_pmu__delete(pmu);
}
END_TEST

START_TEST(test_cpus)
{
	struct perf_pmu *spe = pmu_new("arm_spe_0"), *core = pmu_new("cpu_core");
	struct perf_pmu *split = pmu_new("uncore_split");
	char buf[32];
	uint64_t v;

	ck_assert_uint_eq(perf_pmu__type(spe), 10);
	ck_assert_int_eq(perf_cpu_map__snprint(perf_pmu__cpus(spe), buf, sizeof(buf)), 3);
	ck_assert_str_eq(buf, "2-3");
	ck_assert_uint_eq(perf_pmu__nr_addr_filters(spe), 0);
	ck_assert_int_eq(perf_pmu__cap_u64(spe, "min_interval", 10, &v), 0);
	ck_assert_uint_eq(v, 1024);
	/* hybrid core PMUs name their CPUs in "cpus" */
	perf_cpu_map__snprint(perf_pmu__cpus(core), buf, sizeof(buf));
	ck_assert_str_eq(buf, "0-1");
	perf_cpu_map__snprint(perf_pmu__cpus(split), buf, sizeof(buf));
	ck_assert_str_eq(buf, "0");
	perf_pmu__delete(spe);
	perf_pmu__delete(core);
	perf_pmu__delete(split);
}
END_TEST

START_TEST(test_aliases)
{
	struct perf_pmu *pmu = pmu_new("uncore_split");

	ck_assert_str_eq(perf_pmu__alias(pmu, "clockticks"), "event=0xff,umask=0x00");
	ck_assert_str_eq(perf_pmu__alias(pmu, "big"), "event=0xabc,edge");
	/* side files describe an alias, they are none */
	assert_null_errno(perf_pmu__alias(pmu, "big.scale"), ENOENT);
	ck_assert_str_eq(perf_pmu__alias_name(pmu, 0), "big");
	ck_assert_str_eq(perf_pmu__alias_name(pmu, 1), "clockticks");
	ck_assert_ptr_null(perf_pmu__alias_name(pmu, 2));
	perf_pmu__delete(pmu);
}
END_TEST

START_TEST(test_absent_and_malformed)
{
	static const struct { const char *file, *content; } bad[] = {
		{ "format/x", "config:\n" },
		{ "format/x", "config4:0\n" },
		{ "format/x", "config:64\n" },
		{ "format/x", "config:7-3\n" },
		{ "format/x", "config:1,\n" },
		{ "format/x", "config:1 junk\n" },
		{ "format/x", "bits:1\n" },
		{ "type", "x\n" },
		{ "type", "4294967296\n" },
		{ "cpumask", "0-\n" },
	};
	char path[256];

	assert_null_errno(perf_pmu__new(fs.root, "nosuch"), ENOENT);
	assert_null_errno(perf_pmu__new(fs.root, "../intel_pt"), ENOENT);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "bus/event_source/devices/broken%zu/type", i);
		ck_assert_int_eq(fake_sysfs__write(&fs, path, "30\n"), 0);
		snprintf(path, sizeof(path), "bus/event_source/devices/broken%zu/%s", i,
			 bad[i].file);
		ck_assert_int_eq(fake_sysfs__write(&fs, path, bad[i].content), 0);
		snprintf(path, sizeof(path), "broken%zu", i);
		errno = 0;
		ck_assert_msg(!perf_pmu__new(fs.root, path), "%s=%s accepted", bad[i].file,
			      bad[i].content);
		ck_assert_int_eq(errno, EINVAL);
	}
}
END_TEST

START_TEST(test_read_overflow)
{
	struct perf_pmu *pmu = pmu_new("intel_pt");
	char buf[3];

	/* "33\n": the newline does not count, so three bytes hold it */
	ck_assert_int_eq(perf_pmu__read(pmu, "max_nonturbo_ratio", buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "33");
	ck_assert_int_eq(perf_pmu__read(pmu, "max_nonturbo_ratio", buf, 2), -EOVERFLOW);
	ck_assert_int_eq(perf_pmu__read(pmu, "caps/mtc_periods", buf, sizeof(buf)), -EOVERFLOW);
	perf_pmu__delete(pmu);
}
END_TEST

START_TEST(test_pmus_list)
{
	static const char *const names[] = {
		"arm_spe_0", "cpu_core", "intel_bts", "intel_pt", "software", "tracepoint",
		"uncore_split",
	};
	struct perf_pmus *pmus;
	struct perf_pmu *pmu;
	int n = 0;

	/* A broken PMU is skipped, not fatal. */
	ck_assert_int_eq(fake_sysfs__write(&fs, "bus/event_source/devices/zbroken/type", "?\n"), 0);
	pmus = perf_pmus__new(fs.root);
	ck_assert_ptr_nonnull(pmus);
	ck_assert_int_eq(perf_pmus__nr(pmus), 7);
	perf_pmus__for_each_pmu(pmus, pmu) {
		ck_assert_str_eq(perf_pmu__name(pmu), names[n]);
		ck_assert_ptr_eq(perf_pmus__at(pmus, n), pmu);
		n++;
	}
	ck_assert_int_eq(n, 7);
	ck_assert_ptr_null(perf_pmus__at(pmus, 7));
	ck_assert_uint_eq(perf_pmu__type(perf_pmus__find(pmus, "intel_pt")), 8);
	ck_assert_str_eq(perf_pmu__name(perf_pmus__find_by_type(pmus, 10)), "arm_spe_0");
	assert_null_errno(perf_pmus__find(pmus, "zbroken"), ENOENT);
	assert_null_errno(perf_pmus__find_by_type(pmus, 77), ENOENT);
	perf_pmus__delete(pmus);
	assert_null_errno(perf_pmus__new("/nonexistent-sysfs"), ENOENT);
}
END_TEST

START_TEST(test_env_root)
{
	struct perf_pmu *pmu;

	/* A NULL root means $AUXTRACE_SYSFS, else /sys. */
	ck_assert_int_eq(setenv("AUXTRACE_SYSFS", fs.root, 1), 0);
	pmu = perf_pmu__new(NULL, "intel_pt");
	ck_assert_ptr_nonnull(pmu);
	perf_pmu__delete(pmu);
	unsetenv("AUXTRACE_SYSFS");
}
END_TEST

/* The real machine: every PMU sysfs lists loads, and software/tracepoint have fixed types. */
START_TEST(test_real_sysfs)
{
	struct perf_pmus *pmus = perf_pmus__new("/sys");
	struct perf_pmu *pmu;
	int n = 0;

	if (!pmus && errno == ENOENT)
		TEST_SKIP("no /sys/bus/event_source/devices");
	ck_assert_ptr_nonnull(pmus);
	perf_pmus__for_each_pmu(pmus, pmu)
		n++;
	ck_assert_int_gt(n, 0);
	ck_assert_uint_eq(perf_pmu__type(perf_pmus__find(pmus, "software")), PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(perf_pmu__type(perf_pmus__find(pmus, "tracepoint")),
			  PERF_TYPE_TRACEPOINT);
	perf_pmus__delete(pmus);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pmu");
	TCase *fake = tcase_create("fake-sysfs");
	TCase *real = tcase_create("real-sysfs");

	tcase_add_checked_fixture(fake, setup, teardown);
	tcase_add_test(fake, test_intel_pt);
	tcase_add_test(fake, test_format_names_sorted);
	tcase_add_test(fake, test_split_and_wide_formats);
	tcase_add_test(fake, test_cpus);
	tcase_add_test(fake, test_aliases);
	tcase_add_test(fake, test_absent_and_malformed);
	tcase_add_test(fake, test_read_overflow);
	tcase_add_test(fake, test_pmus_list);
	tcase_add_test(fake, test_env_root);
	suite_add_tcase(s, fake);
	tcase_add_test(real, test_real_sysfs);
	suite_add_tcase(s, real);
	return testlib_run(s);
}
