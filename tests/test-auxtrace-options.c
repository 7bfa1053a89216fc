// SPDX-License-Identifier: LGPL-2.1
/* The recorder's AUX options: -m DATA[,AUX], -S[e][SIZE], and who is privileged. */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>

#include "lib/fake-sysfs.h"
#include "lib/testlib.h"
#include "lib/log-capture.h"
#include "lib/unprivileged.h"

static unsigned int page_kib(void)
{
	return (unsigned int)(sysconf(_SC_PAGESIZE) >> 10);
}

/* Pages for a size in KiB on this machine. */
static unsigned int kib_pages(unsigned long long kib)
{
	return (unsigned int)(kib / page_kib());
}

START_TEST(test_parse_pages_table)
{
	const struct {
		const char *arg;
		unsigned int pages;	/* 0: rejected */
		const char *says;	/* part of the log, or NULL for none */
	} cases[] = {
		{ "16",		16,			NULL },
		{ "1",		1,			NULL },
		{ "3",		4,			"3 pages is not a power of 2, rounding up to 4" },
		{ "1000",	1024,			"rounding up to 1024 pages" },
		{ "64K",	kib_pages(64),		NULL },
		{ "64k",	kib_pages(64),		NULL },
		{ "1M",		kib_pages(1024),	NULL },
		{ "2G",		kib_pages(2 << 20),	NULL },
		{ "1B",		1,			NULL },
		{ "4097B",	2,			NULL },	/* rounded up to whole pages */
		{ "12K",	kib_pages(16),		"rounding up" },
		{ "0",		0,			"'0' is zero" },
		{ "0K",		0,			"'0K' is zero" },
		{ "",		0,			"is not a number" },
		{ "abc",	0,			"'abc' is not a number" },
		{ "-1",		0,			"'-1' is not a number" },
		{ " 16",	0,			"is not a number" },
		{ "1x",		0,			"'1x' has an unknown unit" },
		{ "16KB",	0,			"has an unknown unit" },
		{ "16 ",	0,			"has an unknown unit" },
		{ "4294967296",	0,			"is too large" },
		{ "2147483649",	0,			"is too large" },	/* its power of 2 is 2^32 */
		{ "99999999999999999999", 0,		"is out of range" },
		{ "17179869184G", 0,			"is out of range" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int pages = 12345;
		int err;

		log_capture_start();
		err = auxtrace__parse_pages(cases[i].arg, &pages);
		log_capture_stop();
		if (cases[i].pages) {
			ck_assert_msg(err == 0 && pages == cases[i].pages,
				      "'%s': err %d pages %u, want %u", cases[i].arg, err, pages,
				      cases[i].pages);
		} else {
			ck_assert_msg(err == -EINVAL && errno == EINVAL && pages == 12345,
				      "'%s': err %d pages %u", cases[i].arg, err, pages);
			ck_assert_msg(log_captured("Invalid argument for -m/--mmap-pages") &&
				      log_captured("B/K/M/G"), "'%s': %s", cases[i].arg, log_text);
		}
		if (cases[i].says)
			ck_assert_msg(log_captured(cases[i].says), "'%s': log \"%s\"", cases[i].arg,
				      log_text);
		else
			ck_assert_msg(!log_text[0], "'%s': unexpected log \"%s\"", cases[i].arg,
				      log_text);
	}
}
END_TEST

START_TEST(test_parse_mmap_pages_table)
{
	const struct {
		const char *arg;
		int err;
		unsigned int data, aux;	/* after parsing into {7, 9} */
	} cases[] = {
		{ "16",		0,	 16, 9 },
		{ "16,32",	0,	 16, 32 },
		{ ",32",	0,	 7, 32 },	/* empty DATA: AUX only */
		{ ",3",		0,	 7, 4 },
		{ "5,64K",	0,	 8, 0 },	/* aux filled below: page dependent */
		{ "",		-EINVAL, 7, 9 },
		{ ",",		-EINVAL, 7, 9 },
		{ "16,",	-EINVAL, 7, 9 },
		{ "x,16",	-EINVAL, 7, 9 },	/* nothing changes on error */
		{ "16,0",	-EINVAL, 7, 9 },
		{ "16,32,64",	-EINVAL, 7, 9 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		AUXTRACE_OPTS(auxtrace_opts, opts, .mmap_pages = 7, .auxtrace_mmap_pages = 9);
		unsigned int aux = cases[i].aux ? cases[i].aux : kib_pages(64);
		int err;

		log_capture_start();
		err = auxtrace_opts__parse_mmap_pages(&opts, cases[i].arg);
		log_capture_stop();
		ck_assert_msg(err == cases[i].err, "'%s': err %d", cases[i].arg, err);
		ck_assert_msg(opts.mmap_pages == cases[i].data && opts.auxtrace_mmap_pages == aux,
			      "'%s': %u,%u", cases[i].arg, opts.mmap_pages,
			      opts.auxtrace_mmap_pages);
		if (err)
			ck_assert_msg(log_captured("Invalid argument for -m"), "'%s': %s",
				      cases[i].arg, log_text);
	}
}
END_TEST

START_TEST(test_parse_mmap_pages_null)
{
	AUXTRACE_OPTS(auxtrace_opts, opts);

	log_capture_start();
	ck_assert_int_eq(auxtrace_opts__parse_mmap_pages(&opts, NULL), -EINVAL);
	log_capture_stop();
	ck_assert(log_captured("names no size"));
}
END_TEST

/* An Intel PT backend on a fake sysfs (intel_pt is type 8): -S belongs to a backend. */
static struct auxtrace_record *pt_backend(struct fake_sysfs *fs, struct evlist **evlist)
{
	struct perf_event_attr attr = { .type = 8 };
	struct auxtrace_record *itr;
	int err;

	ck_assert_int_eq(fake_sysfs__standard(fs), 0);
	*evlist = evlist__new();
	ck_assert_ptr_nonnull(*evlist);
	evlist__add(*evlist, evsel__new(&attr));
	itr = auxtrace_record__init(*evlist, fs->root, &err);
	ck_assert_msg(itr, "no backend: %d", err);
	return itr;
}

START_TEST(test_parse_snapshot_table)
{
	const struct {
		const char *arg;
		int err;
		bool on_exit;
		size_t size;
		const char *says;
	} cases[] = {
		{ NULL,		0,	 false,	0,	NULL },	/* -S alone */
		{ "",		0,	 false,	0,	NULL },
		{ "e",		0,	 true,	0,	NULL },
		{ "4096",	0,	 false,	4096,	NULL },
		{ "e4096",	0,	 true,	4096,	NULL },
		{ "0x10000",	0,	 false,	65536,	NULL },
		{ "e0x10000",	0,	 true,	65536,	NULL },
		{ "010",	0,	 false,	8,	NULL },	/* base 0, as perf: octal */
		{ "0",		0,	 false,	0,	NULL },	/* 0: the default */
		{ "x",		-EINVAL, false,	0,	"invalid snapshot size 'x'" },
		{ "ee",		-EINVAL, false,	0,	"invalid snapshot size 'e'" },
		{ "e-1",	-EINVAL, false,	0,	"invalid snapshot size '-1'" },
		{ "4096k",	-EINVAL, false,	0,	"invalid snapshot size '4096k'" },
		{ " 4096",	-EINVAL, false,	0,	"invalid snapshot size" },
		{ "18446744073709551616", -EINVAL, false, 0, "invalid snapshot size" },
	};
	struct fake_sysfs fs;
	struct evlist *evlist;
	struct auxtrace_record *itr = pt_backend(&fs, &evlist);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		AUXTRACE_OPTS(auxtrace_opts, opts);
		int err;

		log_capture_start();
		err = auxtrace_opts__parse_snapshot(itr, &opts, cases[i].arg);
		log_capture_stop();
		ck_assert_msg(err == cases[i].err, "'%s': err %d", cases[i].arg, err);
		ck_assert_msg(opts.auxtrace_snapshot_mode == !err &&
			      opts.auxtrace_snapshot_on_exit == cases[i].on_exit &&
			      opts.auxtrace_snapshot_size == cases[i].size,
			      "'%s': mode %d on_exit %d size %zu", cases[i].arg,
			      opts.auxtrace_snapshot_mode, opts.auxtrace_snapshot_on_exit,
			      opts.auxtrace_snapshot_size);
		if (cases[i].says)
			ck_assert_msg(log_captured(cases[i].says) && log_captured("intel_pt"),
				      "'%s': log \"%s\"", cases[i].arg, log_text);
	}
	auxtrace_record__free(itr);
	evlist__delete(evlist);
	fake_sysfs__remove(&fs);
}
END_TEST

START_TEST(test_parse_snapshot_without_aux)
{
	AUXTRACE_OPTS(auxtrace_opts, opts);

	log_capture_start();
	ck_assert_int_eq(auxtrace_opts__parse_snapshot(NULL, &opts, "e4096"), -EINVAL);
	log_capture_stop();
	ck_assert(log_captured("No AUX area tracing to snapshot"));
	ck_assert(!opts.auxtrace_snapshot_mode && !opts.auxtrace_snapshot_on_exit);
}
END_TEST

START_TEST(test_parse_snapshot_backend_without_hook)
{
	struct auxtrace_record itr = { 0 };
	AUXTRACE_OPTS(auxtrace_opts, opts);

	ck_assert_int_eq(auxtrace_opts__parse_snapshot(&itr, &opts, ""), -EINVAL);
	ck_assert(!opts.auxtrace_snapshot_mode);
}
END_TEST

START_TEST(test_opts_init_privileged)
{
	struct auxtrace_opts opts;

	memset(&opts, 0xff, sizeof(opts));
	auxtrace_opts__init(&opts);
	ck_assert_uint_eq(opts.mmap_pages, 0);
	ck_assert_uint_eq(opts.auxtrace_mmap_pages, 0);
	ck_assert(!opts.auxtrace_snapshot_mode && !opts.full_auxtrace);
	/* Root has CAP_SYS_ADMIN; others depend on perf_event_paranoid. */
	if (testlib_is_root())
		ck_assert(opts.privileged);
}
END_TEST

/*
 * Who counts as privileged, decided in a child with exactly these capabilities: CAP_PERFMON
 * or CAP_SYS_ADMIN, else only perf_event_paranoid -1. Being uid 0 is not enough.
 */
static const struct privilege_row {
	uint64_t caps;		/* 0: uid nobody, no capabilities */
	bool privileged;	/* whatever perf_event_paranoid says */
} privilege_rows[] = {
	{ 0, false },
	{ TESTLIB_CAP(CAP_PERFMON), true },
	{ TESTLIB_CAP(CAP_SYS_ADMIN), true },
	{ TESTLIB_CAP(CAP_IPC_LOCK) | TESTLIB_CAP(CAP_SETUID), false },	/* uid 0 still */
};

static void opts_init_privileged(void *ctx)
{
	const struct privilege_row *row = ctx;
	struct auxtrace_opts opts;

	auxtrace_opts__init(&opts);
	ck_assert_msg(opts.privileged == (row->privileged || testlib_perf_paranoid() <= -1),
		      "caps %#llx, perf_event_paranoid %d: privileged %d",
		      (unsigned long long)row->caps, testlib_perf_paranoid(), opts.privileged);
}

START_TEST(test_opts_init_without_privileges)
{
	TEST_REQUIRE_ROOT();
	testlib_run_unprivileged(privilege_rows[_i].caps, opts_init_privileged,
				 (void *)&privilege_rows[_i]);
}
END_TEST

struct default_sizes {
	const char *sysfs;
	unsigned int data_kib, aux_kib;
};

/* An intel_pt session sized by auxtrace_record__options from auxtrace_opts__init's opts. */
static void default_sizes(void *ctx)
{
	struct perf_event_attr attr = { .type = 8 };	/* the fake sysfs's intel_pt */
	struct default_sizes *out = ctx;
	struct evlist *evlist = evlist__new();
	struct auxtrace_record *itr;
	struct auxtrace_opts opts;
	int err;

	ck_assert_int_eq(evlist__add(evlist, evsel__new(&attr)), 0);
	itr = auxtrace_record__init(evlist, out->sysfs, &err);
	ck_assert_msg(itr, "no backend: %d", err);
	auxtrace_opts__init(&opts);
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	out->data_kib = opts.mmap_pages * page_kib();
	out->aux_kib = opts.auxtrace_mmap_pages * page_kib();
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}

static void default_sizes_unprivileged(void *ctx)
{
	struct default_sizes *sizes = ctx;

	default_sizes(sizes);
	/* perf's sizes for a user without privileges: within perf_event_mlock_kb (516 KiB). */
	ck_assert_uint_eq(sizes->aux_kib, 128);
	ck_assert_uint_eq(sizes->data_kib, 256);
}

/* The defaults an ordinary user gets, next to root's, from the same calls. */
START_TEST(test_default_sizes_without_privileges)
{
	struct fake_sysfs fs;
	struct default_sizes sizes = { 0 };

	TEST_REQUIRE_ROOT();
	if (testlib_perf_paranoid() <= -1)
		TEST_SKIP("perf_event_paranoid is -1: every user gets the privileged sizes");
	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
	ck_assert_int_eq(chmod(fs.root, 0755), 0);	/* readable by nobody */
	sizes.sysfs = fs.root;
	default_sizes(&sizes);
	ck_assert_uint_eq(sizes.aux_kib, 4096);
	ck_assert_uint_eq(sizes.data_kib, 0);		/* 0: the evlist's own default */
	testlib_run_unprivileged(0, default_sizes_unprivileged, &sizes);
	fake_sysfs__remove(&fs);
}
END_TEST

/* opts carry the caller's size: init sets it, and an opts without it is refused. */
START_TEST(test_opts_carry_their_size)
{
	struct auxtrace_opts opts;
	char small[sizeof(size_t) + 4];

	memset(&opts, 0xff, sizeof(opts));
	auxtrace_opts__init(&opts);
	ck_assert_uint_eq(opts.sz, sizeof(opts));
	ck_assert_uint_eq(opts.mmap_pages, 0);
	ck_assert_int_eq(auxtrace_opts__parse_mmap_pages(&opts, "16"), 0);

	opts = (struct auxtrace_opts){ .mmap_pages = 4 };	/* no sz */
	log_capture_start();
	ck_assert_int_eq(auxtrace_opts__parse_mmap_pages(&opts, "16"), -EINVAL);
	ck_assert_msg(log_captured("struct auxtrace_opts: sz is 0"), "log: %s", log_text);
	ck_assert_uint_eq(opts.mmap_pages, 4);

	/* an older, smaller caller's struct: nothing past its end is written */
	memset(small, 0x5a, sizeof(small));
	auxtrace_opts__init_sz((struct auxtrace_opts *)small, sizeof(size_t));
	for (size_t i = sizeof(size_t); i < sizeof(small); i++)
		ck_assert_int_eq(small[i], 0x5a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("auxtrace-options");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, test_parse_pages_table);
	tcase_add_test(tc, test_parse_mmap_pages_table);
	tcase_add_test(tc, test_parse_mmap_pages_null);
	tcase_add_test(tc, test_parse_snapshot_table);
	tcase_add_test(tc, test_parse_snapshot_without_aux);
	tcase_add_test(tc, test_parse_snapshot_backend_without_hook);
	tcase_add_test(tc, test_opts_init_privileged);
	tcase_add_loop_test(tc, test_opts_init_without_privileges, 0,
			    sizeof(privilege_rows) / sizeof(privilege_rows[0]));
	tcase_add_test(tc, test_default_sizes_without_privileges);
	tcase_add_test(tc, test_opts_carry_their_size);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
