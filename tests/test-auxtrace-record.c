// SPDX-License-Identifier: LGPL-2.1
/*
 * AUX recording backends against a fake sysfs (Intel PT type 8, BTS 9, arm_spe_0 10,
 * cs_etm 11): backend choice, recording options, snapshot wrap rules, AUXTRACE_INFO
 * layouts. Evsels are built by hand with the PMU's attr.type and never opened, except in
 * the real-kernel tests at the end, where a fake PMU of type 1 turns cpu-clock into an
 * "AUX" event so the stop/restart ioctls and the control page can be checked for real.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <auxtrace/auxtrace-record.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/mmap.h>
#include <auxtrace/parse-events.h>

#include <internal/auxtrace-backend.h>

#include "lib/fake-sysfs.h"
#include "lib/testlib.h"
#include "lib/log-capture.h"

#define PMU "bus/event_source/devices/"

enum { PT = 8, BTS = 9, SPE = 10, CS = 11 };

#define BIT(n) (1ULL << (n))

static struct fake_sysfs fs;

/* The standard tree plus CoreSight: CPU 0 ETMv4, CPU 1 ETE, CPU 2 ETMv3, CPU 3 none. */
static const char *const coresight[][2] = {
	{ PMU "cs_etm/type", "11\n" },
	{ PMU "cs_etm/format/branch_broadcast", "config:8\n" },
	{ PMU "cs_etm/format/cycacc", "config:12\n" },
	{ PMU "cs_etm/format/contextid1", "config:14\n" },
	{ PMU "cs_etm/format/contextid2", "config:15\n" },
	{ PMU "cs_etm/format/timestamp", "config:28\n" },
	{ PMU "cs_etm/format/retstack", "config:29\n" },
	{ PMU "cs_etm/format/sinkid", "config2:0-31\n" },
	{ PMU "cs_etm/cpu0/trcidr/trcidr0", "0x28000ea1\n" },
	{ PMU "cs_etm/cpu0/trcidr/trcidr1", "0x4100f424\n" },
	{ PMU "cs_etm/cpu0/trcidr/trcidr2", "0x20001088\n" },
	{ PMU "cs_etm/cpu0/trcidr/trcidr8", "0x0\n" },
	{ PMU "cs_etm/cpu0/mgmt/trcauthstatus", "0xcc\n" },
	{ PMU "cs_etm/cpu1/trcidr/trcidr0", "0x28000ea1\n" },
	{ PMU "cs_etm/cpu1/trcidr/trcidr1", "0x4100f424\n" },
	{ PMU "cs_etm/cpu1/trcidr/trcidr2", "0x20001088\n" },
	{ PMU "cs_etm/cpu1/trcidr/trcidr8", "0x1\n" },
	{ PMU "cs_etm/cpu1/mgmt/trcauthstatus", "0xcc\n" },
	{ PMU "cs_etm/cpu1/mgmt/trcdevarch", "0x47705a13\n" },	/* ARCHVER 5: ETE */
	{ PMU "cs_etm/cpu1/mgmt/trctraceid", "0x2a\n" },
	{ PMU "cs_etm/cpu2/mgmt/etmccer", "0x34c01ac2\n" },
	{ PMU "cs_etm/cpu2/mgmt/etmidr", "0x4114f253\n" },
	{ PMU "arm_spe_0/format/discard", "config:35\n" },
};

static void sysfs_setup(void)
{
	size_t i;

	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
	for (i = 0; i < sizeof(coresight) / sizeof(coresight[0]); i++)
		ck_assert_int_eq(fake_sysfs__write(&fs, coresight[i][0], coresight[i][1]), 0);
}

static void sysfs_teardown(void)
{
	fake_sysfs__remove(&fs);
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static unsigned int kib_pages(size_t kib)
{
	return (unsigned int)((kib << 10) / page_size());
}

static struct evsel *add_evsel(struct evlist *evlist, uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct evsel *evsel = evsel__new(&attr);

	ck_assert_ptr_nonnull(evsel);
	evlist__add(evlist, evsel);
	return evsel;
}

/* cpus NULL: a per-thread session on this process; else per-CPU on those CPUs. */
static void set_maps(struct evlist *evlist, const char *cpus)
{
	struct perf_cpu_map *map = cpus ? perf_cpu_map__new(cpus) : NULL;
	struct perf_thread_map *threads = cpus ? NULL : perf_thread_map__new_tid(getpid());

	ck_assert_int_eq(evlist__set_maps(evlist, map, threads), 0);
	perf_cpu_map__put(map);
	perf_thread_map__put(threads);
}

/* An evlist of cpu-clock then one event of `type`, and the backend for it. */
static struct auxtrace_record *backend(uint32_t type, uint64_t config, const char *cpus,
				       struct evlist **evlist, struct evsel **aux)
{
	struct auxtrace_record *itr;
	int err;

	*evlist = evlist__new();
	ck_assert_ptr_nonnull(*evlist);
	add_evsel(*evlist, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	*aux = add_evsel(*evlist, type, config);
	set_maps(*evlist, cpus);
	itr = auxtrace_record__init(*evlist, fs.root, &err);
	ck_assert_msg(itr && !err, "no backend for type %u: %d", type, err);
	return itr;
}

/* Run the options: the result must be want, and the log must say `says` (NULL: anything). */
static void check_options(struct auxtrace_record *itr, struct evlist *evlist,
			  struct auxtrace_opts *opts, int want, const char *says)
{
	int err;

	log_capture_start();
	err = auxtrace_record__options(itr, evlist, opts);
	log_capture_stop();
	ck_assert_msg(err == want, "options: %d, want %d (log: %s)", err, want, log_text);
	if (says)
		ck_assert_msg(log_captured(says), "log \"%s\" lacks \"%s\"", log_text, says);
}

START_TEST(test_aux_capable_names)
{
	const struct { const char *name; enum auxtrace_type type; } cases[] = {
		{ "intel_pt", PERF_AUXTRACE_INTEL_PT },
		{ "intel_bts", PERF_AUXTRACE_INTEL_BTS },
		{ "arm_spe_0", PERF_AUXTRACE_ARM_SPE },
		{ "arm_spe_12", PERF_AUXTRACE_ARM_SPE },
		{ "cs_etm", PERF_AUXTRACE_CS_ETM },
		{ "arm_spe", PERF_AUXTRACE_UNKNOWN },
		{ "arm_spe_", PERF_AUXTRACE_UNKNOWN },
		{ "arm_spe_0x", PERF_AUXTRACE_UNKNOWN },
		{ "intel_pt2", PERF_AUXTRACE_UNKNOWN },
		{ "intel", PERF_AUXTRACE_UNKNOWN },
		{ "cpu", PERF_AUXTRACE_UNKNOWN },
		{ "", PERF_AUXTRACE_UNKNOWN },
		{ NULL, PERF_AUXTRACE_UNKNOWN },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(auxtrace_pmu__auxtrace_type(cases[i].name) == cases[i].type,
			      "%s", cases[i].name);
		ck_assert_msg(auxtrace_pmu__is_aux_capable(cases[i].name) ==
			      (cases[i].type != PERF_AUXTRACE_UNKNOWN), "%s", cases[i].name);
	}
}
END_TEST

START_TEST(test_init_picks_backend_by_type)
{
	const struct { uint32_t types[3]; const char *pmu; int err; const char *says; } cases[] = {
		{ { PERF_TYPE_SOFTWARE },		NULL,		0 },
		{ { PERF_TYPE_SOFTWARE, PT },		"intel_pt",	0 },
		{ { BTS, PERF_TYPE_SOFTWARE },		"intel_bts",	0 },
		{ { SPE },				"arm_spe_0",	0 },
		{ { CS },				"cs_etm",	0 },
		{ { PT, PT },				"intel_pt",	0 },	/* options rejects */
		{ { 77 },				NULL,		0 },	/* no such PMU */
		{ { 4 },				NULL,		0 },	/* cpu_core */
		{ { PT, BTS },	NULL, -EINVAL, "intel_pt and intel_bts may not be used together" },
		{ { BTS, PERF_TYPE_SOFTWARE, PT },
				NULL, -EINVAL, "intel_bts and intel_pt may not be used together" },
		{ { SPE, CS },	NULL, -EINVAL, "arm_spe_0 and cs_etm may not be used together" },
	};
	size_t i, j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct evlist *evlist = evlist__new();
		struct auxtrace_record *itr;
		int err = 1;

		for (j = 0; j < 3 && cases[i].types[j]; j++)
			add_evsel(evlist, cases[i].types[j], 0);
		log_capture_start();
		itr = auxtrace_record__init(evlist, fs.root, &err);
		log_capture_stop();
		ck_assert_msg(err == cases[i].err, "case %zu: err %d", i, err);
		ck_assert_msg(!cases[i].pmu == !itr, "case %zu: itr %p", i, (void *)itr);
		if (itr) {
			ck_assert_str_eq(auxtrace_record__pmu_name(itr), cases[i].pmu);
			ck_assert_ptr_eq(itr->evlist, evlist);
		}
		if (cases[i].says)
			ck_assert_msg(log_captured(cases[i].says), "case %zu: %s", i, log_text);
		auxtrace_record__free(itr);
		evlist__delete(evlist);
	}
}
END_TEST

START_TEST(test_init_empty_or_without_sysfs)
{
	struct evlist *evlist = evlist__new();
	int err = 1;

	ck_assert_ptr_null(auxtrace_record__init(evlist, fs.root, &err));
	ck_assert_int_eq(err, 0);
	add_evsel(evlist, PT, 0);
	err = 1;
	ck_assert_ptr_null(auxtrace_record__init(evlist, "/nonexistent-sysfs", &err));
	ck_assert_int_eq(err, 0);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_null_itr_wrappers)
{
	struct perf_record_auxtrace_info info = { 0 };
	AUXTRACE_OPTS(auxtrace_opts, opts, .mmap_pages = 3);
	struct evlist *evlist = evlist__new();
	uint64_t head = 5, old = 7;

	ck_assert_int_eq(auxtrace_record__options(NULL, evlist, &opts), 0);
	ck_assert_uint_eq(opts.mmap_pages, 3);
	ck_assert(!opts.full_auxtrace);
	ck_assert_uint_eq(auxtrace_record__info_priv_size(NULL, evlist), 0);
	log_capture_start();
	ck_assert_int_eq(auxtrace_record__info_fill(NULL, evlist, &info, 0), -EINVAL);
	ck_assert_ptr_null(auxtrace_record__info_new(NULL, evlist));
	ck_assert_int_eq(errno, EINVAL);
	log_capture_stop();
	ck_assert(log_captured("AUX area tracing is not supported"));
	ck_assert_int_eq(auxtrace_record__snapshot_start(NULL), 0);
	ck_assert_int_eq(auxtrace_record__snapshot_finish(NULL), 0);
	ck_assert_int_eq(auxtrace_record__find_snapshot(NULL, 0, NULL, NULL, &head, &old), 0);
	ck_assert(head == 5 && old == 7);
	ck_assert_uint_eq(auxtrace_record__reference(NULL), 0);
	ck_assert_int_eq(auxtrace_record__read_finish(NULL, 0), 0);
	ck_assert_uint_eq(auxtrace_record__alignment(NULL), 0);
	ck_assert_ptr_null(auxtrace_record__pmu_name(NULL));
	ck_assert_int_eq(auxtrace_record__set_filter(NULL, "x"), 0);
	auxtrace_record__set_user_disabled(NULL, true);
	auxtrace_record__free(NULL);
	evlist__delete(evlist);
}
END_TEST

/* A caller's own table: the wrappers call its hooks, the setters refuse it. */
static int own_snapshot_start(struct auxtrace_record *itr)
{
	(void)itr;
	return -EIO;
}

START_TEST(test_foreign_itr)
{
	struct auxtrace_record itr = { .snapshot_start = own_snapshot_start, .alignment = 8 };

	ck_assert_int_eq(auxtrace_record__snapshot_start(&itr), -EIO);
	ck_assert_int_eq(errno, EIO);
	ck_assert_int_eq(auxtrace_record__snapshot_finish(&itr), 0);
	ck_assert_uint_eq(auxtrace_record__alignment(&itr), 8);
	ck_assert_int_eq(auxtrace_record__set_filter(&itr, "x"), -EINVAL);
	auxtrace_record__set_user_disabled(&itr, true);	/* ignored, not a crash */
}
END_TEST

/* Sizes in KiB (0: unset / expect 0); data is the data ring. */
static const struct size_case {
	uint32_t type;
	const char *cpus;
	bool privileged, snapshot, sample;
	size_t snapshot_size;		/* bytes */
	size_t aux_kib, data_kib;	/* given */
	int err;
	size_t want_aux_kib, want_data_kib, want_snapshot, want_watermark_kib;
	const char *says;
} size_cases[] = {
	/* full trace */
	{ PT, NULL, true, false, false, 0, 0, 0, 0, 4096, 0, 0, 1024 },
	{ PT, NULL, false, false, false, 0, 0, 0, 0, 128, 256, 0, 32 },
	{ PT, NULL, false, false, false, 0, 0, 64, 0, 128, 64, 0, 32 },
	{ PT, NULL, false, false, false, 0, 16, 0, 0, 16, 0, 0, 4 },
	{ PT, "0", true, false, false, 0, 64, 0, 0, 64, 0, 0, 16 },
	{ PT, NULL, true, false, false, 0, 4, 0, -EINVAL, .says =
	  "Invalid AUX area size for intel_pt: 4096 bytes (1 pages) asked; it must be a power of 2 and at least 8 KiB in full-trace mode" },
	{ PT, NULL, true, false, false, 0, 24, 0, -EINVAL, .says = "must be a power of 2" },
	/* snapshot */
	{ PT, NULL, true, true, false, 0, 0, 0, 0, 4096, 0, 4096 << 10, 0 },
	{ PT, NULL, false, true, false, 0, 0, 0, 0, 128, 256, 128 << 10, 0 },
	{ PT, NULL, false, true, false, 0, 0, 32, 0, 128, 32, 128 << 10, 0 },
	{ PT, NULL, false, true, false, 0, 32, 0, 0, 32, 256, 32 << 10, 0 },
	{ PT, NULL, true, true, false, 0, 4, 0, 0, 4, 0, 4096, 0 },
	{ PT, NULL, true, true, false, 100000, 0, 0, 0, 128, 0, 100000, 0 },
	{ PT, NULL, true, true, false, 1 << 20, 64, 0, -EINVAL, .says =
	  "snapshot size 1048576 bytes is larger than the AUX area (65536 bytes)" },
	/* sample */
	{ PT, NULL, true, false, true, 0, 0, 0, 0, 4, 0, 0, 0 },
	{ PT, NULL, true, false, true, 10000, 8, 0, -EINVAL, .says =
	  "AUX sample size 10000 bytes does not fit the AUX area (8192 bytes)" },
	{ PT, NULL, true, true, true, 0, 0, 0, -EINVAL, .says =
	  "snapshot mode (-S) and AUX area sampling cannot be used together" },
	/* Intel BTS: per-thread only, no sampling */
	{ BTS, NULL, true, false, false, 0, 0, 0, 0, 4096, 0, 0, 1024 },
	{ BTS, NULL, true, true, false, 0, 4, 0, 0, 4, 0, 4096, 0 },
	{ BTS, "0", true, false, false, 0, 0, 0, -EINVAL, .says =
	  "intel_bts: per-CPU recording is not supported" },
	{ BTS, NULL, true, false, true, 0, 0, 0, -EINVAL, .says =
	  "intel_bts: AUX area sampling is not supported" },
	/* Arm SPE: 8 KiB in every mode */
	{ SPE, "0-1", true, false, false, 0, 0, 0, 0, 4096, 0, 0, 1024 },
	{ SPE, "0-1", false, true, false, 0, 8, 0, 0, 8, 256, 8192, 0 },
	{ SPE, "0-1", true, true, false, 0, 4, 0, -EINVAL, .says =
	  "Invalid AUX area size for arm_spe_0: 4096 bytes (1 pages) asked; it must be a power of 2 and at least 8 KiB in snapshot mode" },
	/* CoreSight */
	{ CS, "0-1", false, false, false, 0, 0, 0, 0, 128, 256, 0, 32 },
	{ CS, "0-1", true, false, true, 0, 0, 0, -EINVAL, .says =
	  "cs_etm: AUX area sampling is not supported" },
};

START_TEST(test_options_sizes)
{
	const struct size_case *c = &size_cases[_i];
	AUXTRACE_OPTS(auxtrace_opts, opts,
		      .privileged = c->privileged,
		      .auxtrace_snapshot_mode = c->snapshot,
		      .auxtrace_sample_mode = c->sample,
		      .auxtrace_snapshot_size = c->snapshot ? c->snapshot_size : 0,
		      .auxtrace_sample_size = c->sample ? c->snapshot_size : 0,
		      .auxtrace_mmap_pages = kib_pages(c->aux_kib),
		      .mmap_pages = kib_pages(c->data_kib));
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(c->type, 0, c->cpus, &evlist, &aux);
	check_options(itr, evlist, &opts, c->err, c->says);
	if (!c->err) {
		ck_assert_msg(opts.auxtrace_mmap_pages == kib_pages(c->want_aux_kib) &&
			      opts.mmap_pages == kib_pages(c->want_data_kib),
			      "case %d: aux %u data %u pages", _i, opts.auxtrace_mmap_pages,
			      opts.mmap_pages);
		ck_assert_msg(opts.auxtrace_snapshot_size == c->want_snapshot,
			      "case %d: snapshot %zu", _i, opts.auxtrace_snapshot_size);
		ck_assert_msg(evsel__attr(aux)->aux_watermark == c->want_watermark_kib << 10,
			      "case %d: watermark %u", _i, evsel__attr(aux)->aux_watermark);
		ck_assert(opts.full_auxtrace);
		ck_assert(evsel__needs_auxtrace_mmap(aux));
		ck_assert_ptr_eq(evlist__first(evlist), aux);
		ck_assert(!evsel__attr(aux)->freq);
		ck_assert_uint_eq(evsel__attr(aux)->sample_period, c->type == SPE ? 1024 : 1);
		ck_assert(!(evsel__attr(aux)->sample_type & PERF_SAMPLE_CPU) == !c->cpus);
	}
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_options_tracking_event)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct perf_event_attr *t;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux, *tracking;

	itr = backend(BTS, 0, NULL, &evlist, &aux);
	evsel__attr(aux)->exclude_kernel = 1;
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	ck_assert_int_eq(evlist__nr_entries(evlist), 3);
	tracking = evlist__next(evlist, evlist__next(evlist, evlist__first(evlist)));
	t = evsel__attr(tracking);
	ck_assert_str_eq(evsel__name(tracking), "dummy:u");
	ck_assert(t->type == PERF_TYPE_SOFTWARE && t->config == PERF_COUNT_SW_DUMMY);
	ck_assert(t->mmap && t->mmap2 && t->comm && t->task && t->sample_id_all);
	/* JITed BPF programs loaded while recording: a decoder needs their addresses */
	ck_assert(t->ksymbol && t->bpf_event);
	ck_assert(t->exclude_kernel && !t->context_switch);
	ck_assert(t->sample_type & PERF_SAMPLE_TIME);
	ck_assert(!(t->sample_type & PERF_SAMPLE_CPU));
	ck_assert(!evsel__needs_auxtrace_mmap(tracking));
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_options_one_event_per_pmu)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(PT, 0, NULL, &evlist, &aux);
	add_evsel(evlist, PT, BIT(10));
	check_options(itr, evlist, &opts, -EINVAL,
		      "There may be only one intel_pt event, the evlist has 2");
	ck_assert(!opts.full_auxtrace);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_options_aux_output_once)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(PT, 0, NULL, &evlist, &aux);
	evsel__attr(evlist__first(evlist))->aux_output = 1;
	evsel__attr(add_evsel(evlist, PERF_TYPE_HARDWARE, 0))->aux_output = 1;
	check_options(itr, evlist, &opts, -EINVAL, "2 events have aux-output, at most one may");
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

/* Intel PT config terms against the fake CPU's caps (mtc_periods 249: 0,3,6,9, ...). */
static const struct pt_config_case {
	const char *cap, *cap_value;	/* a caps file changed for this case */
	uint64_t config;
	int err;
	const char *says;
} pt_config_cases[] = {
	{ NULL, NULL, BIT(0) | 3ULL << 14, 0 },				/* mtc_period=3 */
	{ NULL, NULL, BIT(0) | 9ULL << 14, 0 },
	{ NULL, NULL, BIT(0) | 5ULL << 14, -EINVAL,
	  "intel_pt: mtc_period=5 is not valid on this CPU; valid values (caps/mtc_periods): 0,3,6,9" },
	{ NULL, NULL, BIT(0) | 13ULL << 19, 0 },				/* cyc_thresh=13 */
	{ NULL, NULL, BIT(0) | 15ULL << 19, -EINVAL,
	  "cyc_thresh=15 is not valid on this CPU; valid values (caps/cycle_thresholds): 0,1,2,3,4,5,6,7,8,9,10,11,12,13" },
	{ NULL, NULL, BIT(0) | 5ULL << 24, 0 },				/* psb_period=5 */
	{ NULL, NULL, BIT(0) | 6ULL << 24, -EINVAL, "psb_period=6 is not valid" },
	{ "psb_cyc", "0\n", BIT(0) | BIT(1), -EINVAL,
	  "intel_pt: cyc is not supported by this CPU (caps/psb_cyc is 0): remove it from the event" },
	{ "psb_cyc", "0\n", BIT(0) | 2ULL << 24, -EINVAL, "psb_period is not supported" },
	{ "psb_cyc", "0\n", BIT(0), 0 },
	{ "mtc", "0\n", BIT(0) | BIT(9), -EINVAL, "mtc is not supported by this CPU" },
	{ "mtc", "0\n", BIT(0) | BIT(10), 0 },
	{ "mtc_periods", "1\n", BIT(0) | 3ULL << 14, -EINVAL, "valid values (caps/mtc_periods): 0\n" },
	{ NULL, NULL, BIT(10), 0, "pt=0 makes no sense, recording with pt=1" },
};

START_TEST(test_options_pt_config)
{
	const struct pt_config_case *c = &pt_config_cases[_i];
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;
	char file[128];

	if (c->cap) {
		snprintf(file, sizeof(file), PMU "intel_pt/caps/%s", c->cap);
		ck_assert_int_eq(fake_sysfs__write(&fs, file, c->cap_value), 0);
	}
	itr = backend(PT, c->config, NULL, &evlist, &aux);
	check_options(itr, evlist, &opts, c->err, c->says);
	if (!c->err)
		ck_assert_uint_eq(evsel__attr(aux)->config, c->config | BIT(0));
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_options_pt_small_snapshot_warns)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true, .auxtrace_snapshot_mode = true,
		      .auxtrace_snapshot_size = 4096);
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	/* psb_period=1: a PSB every 2^12 bytes, more than a 4 KiB snapshot can be sure of. */
	itr = backend(PT, BIT(0) | 1ULL << 24, NULL, &evlist, &aux);
	check_options(itr, evlist, &opts, 0,
		      "Wintel_pt: snapshot size 4096 bytes may hold no PSB packet");
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

static int fake_time_conv(struct auxtrace_backend *be, struct evlist *evlist,
			  struct auxtrace_time_conv *tc)
{
	(void)be, (void)evlist;
	*tc = (struct auxtrace_time_conv){ .time_shift = 10, .time_mult = 123456,
					   .time_zero = 987654321, .cap_user_time_zero = true };
	return 0;
}

static struct perf_record_auxtrace_info *info_of(struct auxtrace_record *itr,
						 struct evlist *evlist, size_t nr_priv)
{
	struct perf_record_auxtrace_info *info;

	auxtrace_backend(itr)->time_conv = fake_time_conv;
	info = auxtrace_record__info_new(itr, evlist);
	ck_assert_msg(info, "info_new: %s", strerror(errno));
	ck_assert_uint_eq(info->header.type, PERF_RECORD_AUXTRACE_INFO);
	ck_assert_uint_eq(info->header.misc, 0);
	ck_assert_uint_eq(info->header.size, sizeof(*info) + nr_priv * 8);
	ck_assert_uint_eq(info->reserved__, 0);
	return info;
}

static void assert_priv(const struct perf_record_auxtrace_info *info, const uint64_t *want,
			size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		ck_assert_msg(info->priv[i] == want[i], "priv[%zu] = %#llx, want %#llx", i,
			      (unsigned long long)info->priv[i], (unsigned long long)want[i]);
}

static void tsc_ctc_ratio(uint64_t *n, uint64_t *d)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

#if defined(__x86_64__) || defined(__i386__)
	__get_cpuid(0x15, &eax, &ebx, &ecx, &edx);
#endif
	*n = ebx;	/* TSC = crystal * EBX / EAX */
	*d = eax;
}

START_TEST(test_info_intel_pt)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct perf_record_auxtrace_info *info;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;
	uint64_t want[17] = {
		PT, 10, 123456, 987654321, 1, BIT(10), BIT(11), 3, 0, 1, BIT(9), 0xfULL << 14,
		0, 0, BIT(1), 33, 0,
	};

	/* Per-CPU, all tasks, TSC on: CPU-wide switch events (HAVE_SCHED_SWITCH 3). */
	itr = backend(PT, BIT(0) | BIT(10), "0-1", &evlist, &aux);
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	ck_assert(evsel__attr(evlist__next(evlist, evlist__next(evlist, aux)))->context_switch);
	tsc_ctc_ratio(&want[12], &want[13]);
	ck_assert_uint_eq(auxtrace_record__info_priv_size(itr, evlist), 17 * 8);
	info = info_of(itr, evlist, 17);
	ck_assert_uint_eq(info->type, PERF_AUXTRACE_INTEL_PT);
	assert_priv(info, want, 17);
	free(info);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_info_intel_pt_per_thread_snapshot)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true, .auxtrace_snapshot_mode = true);
	struct perf_record_auxtrace_info *info;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(PT, BIT(0) | BIT(10), NULL, &evlist, &aux);
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	info = info_of(itr, evlist, 17);
	ck_assert_uint_eq(info->priv[7], 0);	/* HAVE_SCHED_SWITCH: none per-thread */
	ck_assert_uint_eq(info->priv[8], 1);	/* SNAPSHOT_MODE */
	ck_assert_uint_eq(info->priv[9], 0);	/* PER_CPU_MMAPS */
	free(info);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

/* The filter string follows the 17 words, NUL-terminated and zero-padded to 8. */
START_TEST(test_info_intel_pt_filter)
{
	const char *filters[] = { "1234567", "12345678", "filter main @ /bin/ls" };
	const size_t bytes[] = { 8, 16, 24 };
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;
	size_t i;

	itr = backend(PT, BIT(0), NULL, &evlist, &aux);
	auxtrace_backend(itr)->time_conv = fake_time_conv;
	for (i = 0; i < 3; i++) {
		size_t len = strlen(filters[i]), priv_size;
		unsigned char buf[sizeof(struct perf_record_auxtrace_info) + 17 * 8 + 24];
		struct perf_record_auxtrace_info *info = (void *)buf;
		const unsigned char *str = (const unsigned char *)&info->priv[17];
		size_t j;

		ck_assert_int_eq(auxtrace_record__set_filter(itr, filters[i]), 0);
		priv_size = auxtrace_record__info_priv_size(itr, evlist);
		ck_assert_uint_eq(priv_size, 17 * 8 + bytes[i]);
		memset(buf, 0xff, sizeof(buf));	/* padding must be written, not assumed */
		ck_assert_int_eq(auxtrace_record__info_fill(itr, evlist, info, priv_size), 0);
		ck_assert_uint_eq(info->priv[16], len);
		ck_assert(!memcmp(str, filters[i], len));
		for (j = len; j < bytes[i]; j++)
			ck_assert_msg(str[j] == 0, "filter %zu: byte %zu = %#x", i, j, str[j]);
	}
	/* Cleared: no string at all. */
	ck_assert_int_eq(auxtrace_record__set_filter(itr, NULL), 0);
	ck_assert_uint_eq(auxtrace_record__info_priv_size(itr, evlist), 17 * 8);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_info_priv_size_mismatch)
{
	unsigned char buf[sizeof(struct perf_record_auxtrace_info) + 32 * 8];
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(BTS, 0, NULL, &evlist, &aux);
	auxtrace_backend(itr)->time_conv = fake_time_conv;
	log_capture_start();
	ck_assert_int_eq(auxtrace_record__info_fill(itr, evlist, (void *)buf, 5 * 8), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("intel_bts: AUXTRACE_INFO private data is 48 bytes, 40 given"),
		      "%s", log_text);
	ck_assert_int_eq(auxtrace_record__info_fill(itr, evlist, (void *)buf, 6 * 8), 0);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_info_intel_bts)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true, .auxtrace_snapshot_mode = true);
	const uint64_t want[6] = { BTS, 10, 123456, 987654321, 1, 1 };
	struct perf_record_auxtrace_info *info;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(BTS, 0, NULL, &evlist, &aux);
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	info = info_of(itr, evlist, 6);
	ck_assert_uint_eq(info->type, PERF_AUXTRACE_INTEL_BTS);
	assert_priv(info, want, 6);
	free(info);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_info_arm_spe)
{
	const char *cpus[] = { "0-1", NULL };
	size_t i;

	for (i = 0; i < 2; i++) {
		const uint64_t want[2] = { SPE, cpus[i] != NULL };
		struct perf_record_auxtrace_info *info;
		struct auxtrace_record *itr;
		struct evlist *evlist;
		struct evsel *aux;

		itr = backend(SPE, 0, cpus[i], &evlist, &aux);
		info = info_of(itr, evlist, 2);
		ck_assert_uint_eq(info->type, PERF_AUXTRACE_ARM_SPE);
		assert_priv(info, want, 2);
		free(info);
		auxtrace_record__free(itr);
		evlist__delete(evlist);
	}
}
END_TEST

START_TEST(test_info_cs_etm)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	const uint64_t cfg4 = BIT(4) | BIT(11);		/* TRCCONFIGR: cycacc, timestamp */
	const uint64_t want[] = {
		1, (uint64_t)CS << 32 | 3, 0,
		/* CPU 0, ETMv4 */
		0x4040404040404040ULL, 0, 7, cfg4, 0x10,
		0x28000ea1, 0x4100f424, 0x20001088, 0x0, 0xcc,
		/* CPU 1, ETE: its own trace ID from sysfs, TRCDEVARCH last */
		0x5050505050505050ULL, 1, 8, cfg4, 0x2a,
		0x28000ea1, 0x4100f424, 0x20001088, 0x1, 0xcc, 0x47705a13,
		/* CPU 2, ETMv3: ETMCR takes the event's bits as they are */
		0x3030303030303030ULL, 2, 4, BIT(12) | BIT(28), 0x14, 0x34c01ac2, 0x4114f253,
	};
	const size_t nr = sizeof(want) / sizeof(want[0]);
	struct perf_record_auxtrace_info *info;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	/* cycacc asked; per-CPU adds timestamp. */
	itr = backend(CS, BIT(12), "0-2", &evlist, &aux);
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	ck_assert_uint_eq(evsel__attr(aux)->config, BIT(12) | BIT(28));
	ck_assert_uint_eq(auxtrace_record__info_priv_size(itr, evlist), nr * 8);
	info = info_of(itr, evlist, nr);
	ck_assert_uint_eq(info->type, PERF_AUXTRACE_CS_ETM);
	assert_priv(info, want, nr);
	free(info);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_info_cs_etm_cpu_without_tracer)
{
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	/* Per-thread: every online CPU of the fake machine (0-3); CPU 3 has no tracer. */
	setenv("AUXTRACE_SYSFS", fs.root, 1);
	itr = backend(CS, 0, NULL, &evlist, &aux);
	log_capture_start();
	ck_assert_ptr_null(auxtrace_record__info_new(itr, evlist));
	log_capture_stop();
	ck_assert_msg(log_captured("cs_etm: CPU 3: cannot read ETMv3 register cpu3/mgmt/etmccer"),
		      "%s", log_text);
	ck_assert_int_eq(fake_sysfs__write(&fs, PMU "cs_etm/cpu3/mgmt/etmccer", "1\n"), 0);
	ck_assert_int_eq(fake_sysfs__write(&fs, PMU "cs_etm/cpu3/mgmt/etmidr", "2\n"), 0);
	free(info_of(itr, evlist, 3 + 10 + 11 + 7 + 7));
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_options_arm_spe)
{
	const struct {
		const char *cpus;
		uint64_t config, period;
		bool freq;
		int err;
		uint64_t want_config, want_period, want_sample;
		const char *says;
	} cases[] = {
		{ "0-1", 0, 0, false, 0, BIT(0), 1024,
		  PERF_SAMPLE_CPU | PERF_SAMPLE_TIME | PERF_SAMPLE_DATA_SRC },
		{ NULL, BIT(1), 4096, false, 0, BIT(1), 4096,
		  PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR },
		{ NULL, 0, 100, false, 0, 0, 1024, PERF_SAMPLE_DATA_SRC },
		{ NULL, 0, 4000, true, -EINVAL, .says =
		  "arm_spe_0: a sampling frequency is not supported" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
		struct auxtrace_record *itr;
		struct evlist *evlist;
		struct evsel *aux;

		itr = backend(SPE, cases[i].config, cases[i].cpus, &evlist, &aux);
		evsel__attr(aux)->sample_period = cases[i].period;
		evsel__attr(aux)->freq = cases[i].freq;
		check_options(itr, evlist, &opts, cases[i].err, cases[i].says);
		if (!cases[i].err) {
			const struct perf_event_attr *attr = evsel__attr(aux);
			const struct perf_event_attr *t = evsel__attr(evlist__next(evlist,
						evlist__next(evlist, aux)));

			ck_assert_uint_eq(attr->config, cases[i].want_config);
			ck_assert_uint_eq(attr->sample_period, cases[i].want_period);
			ck_assert_uint_eq(attr->sample_type, cases[i].want_sample);
			ck_assert(t->context_switch == (cases[i].cpus != NULL));
		}
		auxtrace_record__free(itr);
		evlist__delete(evlist);
	}
}
END_TEST

START_TEST(test_options_arm_spe_discard)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = backend(SPE, BIT(35), "1", &evlist, &aux);
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	ck_assert(!evsel__needs_auxtrace_mmap(aux));
	ck_assert(!opts.full_auxtrace);
	ck_assert_uint_eq(opts.auxtrace_mmap_pages, 0);
	ck_assert_int_eq(evlist__nr_entries(evlist), 2);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_backend_hooks)
{
	const struct {
		uint32_t type;
		unsigned int alignment;
		bool head_rule;
	} cases[] = {
		{ PT, 0, false }, { BTS, 24, false }, { SPE, 0, true }, { CS, 0, true },
	};
	size_t i;

	for (i = 0; i < 4; i++) {
		struct auxtrace_record *itr;
		struct evlist *evlist;
		struct evsel *aux;

		itr = backend(cases[i].type, 0, "0", &evlist, &aux);
		ck_assert_uint_eq(auxtrace_record__alignment(itr), cases[i].alignment);
		ck_assert_ptr_eq(itr->find_snapshot, cases[i].head_rule ?
				 auxtrace_backend__find_snapshot_head :
				 auxtrace_backend__find_snapshot_tail);
		ck_assert_ptr_nonnull(itr->snapshot_start);
		ck_assert_ptr_nonnull(itr->read_finish);
		ck_assert_uint_ne(auxtrace_record__reference(itr), 0);
		ck_assert_uint_eq(itr->default_aux_sample_size, cases[i].type == PT ? 4096 : 0);
		/* Before recording_options there is no event to stop. */
		ck_assert_int_eq(auxtrace_record__snapshot_start(itr), -EINVAL);
		auxtrace_record__free(itr);
		evlist__delete(evlist);
	}
}
END_TEST

/*
 * Snapshot wrap rules on a plain buffer of LEN bytes: `fill` marks a non-zero u64 at that
 * offset (-1: none). Each row runs on its idx; rows sharing an idx see its sticky flag.
 */
#define LEN (16 << 10)

static const struct snap_case {
	int idx;
	long fill;
	uint64_t head, old;
	uint64_t want_head, want_old;
} tail_cases[] = {
	/* nothing at the end: only the fresh bytes */
	{ 0, -1, 100, 0, 100, 0 },
	{ 0, 0, 300, 2 * LEN + 50, 300, 50 },		/* old reduced modulo len */
	{ 0, -1, 100, LEN + 200, LEN + 100, 200 },	/* old past head: head moves up a lap */
	{ 0, LEN - 4096, 100, 0, 100 + LEN, 100 },	/* first u64 of the last 4 KiB */
	{ 0, -1, 500, 100 + LEN, 500 + LEN, 500 },	/* sticky: zeroed, still wrapped */
	{ 1, LEN - 4104, 100, 0, 100, 0 },		/* just before the last 4 KiB */
	{ 1, LEN - 8, 40, 0, 40 + LEN, 40 },		/* last u64 */
	{ 7, -1, 0, 0, 0, 0 },				/* a far idx grows the flags */
}, head_cases[] = {
	{ 0, -1, 100, 0, 100, 0 },			/* not wrapped: untouched */
	{ 0, -1, 300, 100, 300, 100 },
	{ 0, LEN - 520, 100, 0, 100, 0 },		/* before the last 512 bytes */
	{ 0, LEN - 512, 100, 0, 100 + LEN, 100 },	/* in them */
	{ 0, -1, 200, 100 + LEN, 200 + LEN, 200 },	/* sticky */
	{ 1, -1, LEN + 300, 0, LEN + 300, 300 },	/* head past len: wrapped */
	{ 2, LEN - 264, LEN - 256, 0, LEN - 256, 0 },	/* fresh data right before head */
	{ 3, LEN - 256, LEN - 260, 0, 2 * LEN - 260, LEN - 260 }, /* data from head on */
	{ 4, LEN - 248, LEN - 256, 0, 2 * LEN - 256, LEN - 256 },
	{ 9, -1, 0, 0, 0, 0 },
};

static void run_snap_cases(const struct snap_case *cases, size_t nr, bool head_rule)
{
	static unsigned char buf[LEN];
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;
	size_t i;

	itr = backend(head_rule ? SPE : PT, 0, "0", &evlist, &aux);
	for (i = 0; i < nr; i++) {
		uint64_t head = cases[i].head, old = cases[i].old, one = 1;
		int err;

		memset(buf, 0, sizeof(buf));
		if (cases[i].fill >= 0)
			memcpy(buf + cases[i].fill, &one, sizeof(one));
		err = (head_rule ? auxtrace_snapshot__head_rule : auxtrace_snapshot__tail_rule)
			(auxtrace_backend(itr), cases[i].idx, buf, LEN, &head, &old);
		ck_assert_int_eq(err, 0);
		ck_assert_msg(head == cases[i].want_head && old == cases[i].want_old,
			      "%s row %zu: head %llu old %llu, want %llu %llu",
			      head_rule ? "head" : "tail", i, (unsigned long long)head,
			      (unsigned long long)old, (unsigned long long)cases[i].want_head,
			      (unsigned long long)cases[i].want_old);
	}
	ck_assert_int_gt(auxtrace_backend(itr)->nr_wrapped, cases[nr - 1].idx);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}

START_TEST(test_snapshot_tail_rule)
{
	run_snap_cases(tail_cases, sizeof(tail_cases) / sizeof(tail_cases[0]), false);
}
END_TEST

START_TEST(test_snapshot_head_rule)
{
	run_snap_cases(head_cases, sizeof(head_cases) / sizeof(head_cases[0]), true);
}
END_TEST

/* A buffer smaller than 4 KiB is checked whole by the tail rule. */
START_TEST(test_snapshot_small_buffers)
{
	unsigned char buf[1024] = { 0 };
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;
	uint64_t head = 10, old = 0;

	itr = backend(BTS, 0, NULL, &evlist, &aux);
	buf[0] = 1;
	ck_assert_int_eq(auxtrace_snapshot__tail_rule(auxtrace_backend(itr), 0, buf, 1024,
						      &head, &old), 0);
	ck_assert(head == 1034 && old == 10);
	ck_assert_int_eq(auxtrace_snapshot__tail_rule(auxtrace_backend(itr), -1, buf, 1024,
						      &head, &old), -EINVAL);
	ck_assert_int_eq(auxtrace_snapshot__tail_rule(auxtrace_backend(itr), 0, buf, 0,
						      &head, &old), -EINVAL);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_time_conv_from_userpg)
{
	struct perf_event_mmap_page pc = { 0 };
	struct auxtrace_time_conv tc;

	pc.time_shift = 31;
	pc.time_mult = 0x12345;
	pc.time_zero = 0xabcdef;
	pc.cap_user_time_zero = 1;
	pc.lock = 4;
	ck_assert_int_eq(auxtrace_time_conv__from_userpg(&pc, &tc), 0);
	ck_assert(tc.time_shift == 31 && tc.time_mult == 0x12345 && tc.time_zero == 0xabcdef &&
		  tc.cap_user_time_zero);
	pc.lock = 5;		/* the kernel is in the middle of an update, for ever */
	ck_assert_int_eq(auxtrace_time_conv__from_userpg(&pc, &tc), -EAGAIN);
	pc.lock = 6;
	pc.time_mult = 0;	/* perf would divide by it */
	ck_assert_int_eq(auxtrace_time_conv__from_userpg(&pc, &tc), -EINVAL);
}
END_TEST

/* A real per-thread cpu-clock evlist on this process, opened (and mapped if asked). */
static struct evlist *real_evlist(bool mapped)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	struct evlist *evlist = evlist__new();
	int err;

	evlist__add(evlist, evsel__new(&attr));
	set_maps(evlist, NULL);
	err = evlist__open(evlist);
	if (!err && mapped)
		err = evlist__mmap(evlist, 1);
	if (err) {
		evlist__delete(evlist);
		return NULL;
	}
	return evlist;
}

START_TEST(test_info_real_control_page)
{
	unsigned char buf[sizeof(struct perf_record_auxtrace_info) + 6 * 8];
	struct perf_record_auxtrace_info *info = (void *)buf;
	struct perf_event_mmap_page *pc;
	struct evlist *real, *unmapped;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;
	int err;

	real = real_evlist(true);
	unmapped = real_evlist(false);
	if (!real || !unmapped)
		TEST_SKIP("perf_event_open/mmap of cpu-clock refused (%s)", strerror(errno));
	itr = backend(BTS, 0, NULL, &evlist, &aux);

	log_capture_start();
	ck_assert_int_eq(auxtrace_record__info_fill(itr, unmapped, info, 48), -EINVAL);
	ck_assert_msg(log_captured("intel_bts: AUXTRACE_INFO needs the time conversion of a "
				   "mapped data ring: map the evlist"), "%s", log_text);

	pc = perf_mmap__userpg(evlist__mmap_at(real, 0));
	log_text[0] = '\0';
	err = auxtrace_record__info_fill(itr, real, info, 48);
	log_capture_stop();
	if (!pc->time_mult) {
		/* This kernel's clock has no TSC conversion: refuse, never write 0. */
		ck_assert_int_eq(err, -EINVAL);
		ck_assert_msg(log_captured("time_mult 0") && log_captured("TSC clock source"),
			      "%s", log_text);
	} else {
		ck_assert_int_eq(err, 0);
		ck_assert_uint_eq(info->priv[1], pc->time_shift);
		ck_assert_uint_eq(info->priv[2], pc->time_mult);
		ck_assert_uint_eq(info->priv[4], pc->cap_user_time_zero);
	}
	auxtrace_record__free(itr);
	evlist__delete(evlist);
	evlist__delete(real);
	evlist__delete(unmapped);
}
END_TEST

/* Enabled time of the first fd of evsel: frozen while the event is disabled. */
static uint64_t enabled_ns(struct evsel *evsel)
{
	struct perf_counts_values c;

	ck_assert_int_eq(evsel__read(evsel, 0, 0, &c), 0);
	return c.ena;
}

static bool runs(struct evsel *evsel)
{
	uint64_t before = enabled_ns(evsel);
	int i;

	/* Bounded: an enabled event's time moves within a few syscalls. */
	for (i = 0; i < 10000; i++) {
		getppid();
		if (enabled_ns(evsel) != before)
			return true;
	}
	return false;
}

/*
 * The stop/restart ioctls on a real event: a fake sysfs where the PMU `name` has type 1
 * makes cpu-clock the session's "AUX" event (intel_bts per-thread, arm_spe_0 per-CPU).
 */
static struct auxtrace_record *real_backend(const char *name, const char *cpus,
					    struct evlist **evlist, struct evsel **aux)
{
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true);
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	struct auxtrace_record *itr;
	char path[256];
	int err;

	snprintf(path, sizeof(path), "%s/" PMU "software/type", fs.root);
	ck_assert_int_eq(unlink(path), 0);
	*strrchr(path, '/') = '\0';
	ck_assert_int_eq(rmdir(path), 0);
	snprintf(path, sizeof(path), PMU "%s/type", name);
	ck_assert_int_eq(fake_sysfs__write(&fs, path, "1\n"), 0);
	*evlist = evlist__new();
	*aux = evsel__new(&attr);
	evlist__add(*evlist, *aux);
	set_maps(*evlist, cpus);
	itr = auxtrace_record__init(*evlist, fs.root, &err);
	ck_assert_ptr_nonnull(itr);
	ck_assert_str_eq(auxtrace_record__pmu_name(itr), name);
	ck_assert_int_eq(auxtrace_record__options(itr, *evlist, &opts), 0);
	return itr;
}

START_TEST(test_snapshot_start_finish_read_finish_real)
{
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	itr = real_backend("intel_bts", NULL, &evlist, &aux);
	if (evlist__open(evlist))
		TEST_SKIP("perf_event_open of cpu-clock refused (%s)", strerror(errno));
	ck_assert(runs(aux));

	ck_assert_int_eq(auxtrace_record__snapshot_start(itr), 0);
	ck_assert(!runs(aux));
	ck_assert_int_eq(auxtrace_record__snapshot_finish(itr), 0);
	ck_assert(runs(aux));

	/* A driver stopped it (here: we did): read_finish of idx 0 (thread 0) restarts it. */
	ck_assert_int_eq(evsel__disable(aux), 0);
	ck_assert_int_eq(auxtrace_record__read_finish(itr, 0), 0);
	ck_assert(runs(aux));

	/* Not when the user disabled it. */
	ck_assert_int_eq(evsel__disable(aux), 0);
	auxtrace_record__set_user_disabled(itr, true);
	ck_assert_int_eq(auxtrace_record__read_finish(itr, 0), 0);
	ck_assert(!runs(aux));
	auxtrace_record__set_user_disabled(itr, false);
	ck_assert_int_eq(auxtrace_record__read_finish(itr, 1), -EINVAL);	/* no thread 1 */
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_read_finish_per_cpu_real)
{
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	TEST_REQUIRE_ROOT();
	itr = real_backend("arm_spe_0", "0", &evlist, &aux);
	if (evlist__open(evlist))
		TEST_SKIP("perf_event_open of cpu-clock on CPU 0 refused (%s)", strerror(errno));
	ck_assert_int_eq(evsel__disable(aux), 0);
	ck_assert(!runs(aux));
	ck_assert_int_eq(auxtrace_record__read_finish(itr, 0), 0);
	ck_assert(runs(aux));
	log_capture_start();
	ck_assert_int_eq(auxtrace_record__read_finish(itr, 1), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("mmap idx 1 (CPU -1) is not one of the event's CPUs"), "%s",
		      log_text);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

/*
 * Default terms: perf's, per AUX PMU, from its format files and caps. Each row changes the
 * standard fake intel_pt (pt, tsc, mtc, branch, mtc_period, psb_period terms; caps mtc 1,
 * mtc_periods 0x249, psb_cyc 1, psb_periods 0x3f): a file written, or removed (NULL).
 */
static const struct default_terms_case {
	const char *file;
	const char *content;
	const char *want;		/* NULL: no defaults */
} pt_default_cases[] = {
	{ NULL, NULL, "tsc,mtc,mtc_period=3,psb_period=3,pt,branch" },
	{ "caps/mtc", "0\n", "tsc,pt,branch" },		/* no MTC: no psb_period either */
	{ "caps/mtc", NULL, "tsc,mtc,mtc_period=3,psb_period=3,pt,branch" },	/* absent: on */
	{ "caps/mtc_periods", "0\n", "tsc,pt,branch" },
	{ "caps/mtc_periods", "1\n", "tsc,mtc,mtc_period=0,psb_period=3,pt,branch" },
	{ "caps/mtc_periods", "30\n", "tsc,mtc,mtc_period=4,psb_period=3,pt,branch" },
	{ "caps/mtc_periods", "203\n", "tsc,mtc,mtc_period=1,psb_period=3,pt,branch" },
	{ "caps/psb_cyc", "0\n", "tsc,mtc,mtc_period=3,pt,branch" },
	{ "caps/psb_periods", "0\n", "tsc,mtc,mtc_period=3,pt,branch" },
	{ "caps/psb_periods", "6\n", "tsc,mtc,mtc_period=3,psb_period=2,pt,branch" },
	{ "format/tsc", NULL, "mtc,mtc_period=3,psb_period=3,pt,branch" },
	{ "format/mtc_period", NULL, "tsc,psb_period=3,pt,branch" },
	{ "format/psb_period", NULL, "tsc,mtc,mtc_period=3,pt,branch" },
	{ "format/branch", NULL, "tsc,mtc,mtc_period=3,psb_period=3" },
	{ "format/pt", NULL, "tsc,mtc,mtc_period=3,psb_period=3" },
};

static void sysfs_change(const char *pmu, const char *file, const char *content)
{
	char path[256];

	snprintf(path, sizeof(path), PMU "%s/%s", pmu, file);
	if (content) {
		ck_assert_int_eq(fake_sysfs__write(&fs, path, content), 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/" PMU "%s/%s", fs.root, pmu, file);
	ck_assert_int_eq(unlink(path), 0);
}

/* The default terms auxtrace_pmu__default_terms gives the PMU name (NULL: none). */
static const char *default_terms_of(const char *name, struct auxtrace_pmu_terms *terms)
{
	struct perf_pmu *pmu = perf_pmu__new(fs.root, name);
	const char *str;

	ck_assert_ptr_nonnull(pmu);
	str = auxtrace_pmu__default_terms(pmu, terms);
	perf_pmu__delete(pmu);
	return str;
}

static void assert_str(const char *got, const char *want, const char *what)
{
	ck_assert_msg(want ? got && !strcmp(got, want) : !got, "%s: \"%s\", want \"%s\"", what,
		      got ? got : "(none)", want ? want : "(none)");
}

START_TEST(test_default_terms_intel_pt)
{
	const struct default_terms_case *c = &pt_default_cases[_i];
	struct auxtrace_pmu_terms terms;

	if (c->file)
		sysfs_change("intel_pt", c->file, c->content);
	assert_str(default_terms_of("intel_pt", &terms), c->want, c->file ? c->file : "standard");
}
END_TEST

START_TEST(test_default_terms_other_pmus)
{
	struct auxtrace_pmu_terms terms;

	assert_str(default_terms_of("arm_spe_0", &terms), "period=1024", "arm_spe_0");
	sysfs_change("arm_spe_0", "caps/min_interval", NULL);
	assert_str(default_terms_of("arm_spe_0", &terms), "period=4096", "arm_spe_0 no caps");
	assert_str(default_terms_of("intel_bts", &terms), NULL, "intel_bts");
	assert_str(default_terms_of("cs_etm", &terms), NULL, "cs_etm");
	assert_str(default_terms_of("cpu_core", &terms), NULL, "cpu_core");
	ck_assert_ptr_null(auxtrace_pmu__default_terms(NULL, &terms));
}
END_TEST

/*
 * str parsed on cpus as auxrec does (defaults, then the user's terms), or with hook false as
 * a caller that knows no default_terms hook, and its backend.
 */
static struct auxtrace_record *parsed_backend_hook(const char *str, const char *cpus, bool hook,
						   struct evlist **evlist, struct evsel **aux)
{
	struct auxtrace_pmu_terms terms;
	AUXTRACE_OPTS(parse_events_opts, opts, .sysfs_root = fs.root,
		      .default_terms = hook ? auxtrace_pmu__default_terms : NULL, .ctx = &terms);
	struct parse_events_error err;
	struct auxtrace_record *itr;
	int ret;

	*evlist = evlist__new();
	ck_assert_msg(parse_events(*evlist, str, &opts, &err) == 0, "%s: %s", str, err.msg);
	*aux = evlist__first(*evlist);
	set_maps(*evlist, cpus);
	itr = auxtrace_record__init(*evlist, fs.root, &ret);
	ck_assert_msg(itr, "%s: no backend (%d)", str, ret);
	return itr;
}

static struct auxtrace_record *parsed_backend(const char *str, const char *cpus,
					      struct evlist **evlist, struct evsel **aux)
{
	return parsed_backend_hook(str, cpus, true, evlist, aux);
}

#define PT_DEFAULT (BIT(0) | BIT(9) | BIT(10) | BIT(13) | 3ULL << 14 | 3ULL << 24)

/* What recording options leave in config after parsing with the defaults. */
static const struct config_case {
	const char *str;
	const char *cpus;		/* NULL: per-thread */
	const char *add_format;		/* written to the PMU first: "name=config:N" */
	uint64_t want;
	const char *says;		/* the log must say it (NULL: must not warn about pt) */
} config_cases[] = {
	/* perf's 0x300e601: pt, mtc, tsc, branch, mtc_period=3, psb_period=3 */
	{ "intel_pt//u", "0", NULL, PT_DEFAULT },
	{ "intel_pt//u", NULL, NULL, PT_DEFAULT },
	{ "intel_pt/cyc,mtc=0,psb_period=1/u", NULL, NULL,
	  (PT_DEFAULT & ~(BIT(9) | 3ULL << 24)) | BIT(1) | 1ULL << 24 },
	{ "intel_pt/tsc=0,branch=0/", NULL, NULL, PT_DEFAULT & ~(BIT(10) | BIT(13)) },
	{ "intel_pt/pt=0/", NULL, NULL, PT_DEFAULT, "pt=0 makes no sense, recording with pt=1" },
	{ "intel_bts//u", NULL, NULL, 0 },
	/* SPE: time stamps on a CPU's samples unless the string said otherwise */
	{ "arm_spe_0//", "2", NULL, BIT(0) },
	{ "arm_spe_0//", NULL, NULL, 0 },
	{ "arm_spe_0/ts_enable=0,pa_enable/", "2", NULL, BIT(1) },
	{ "arm_spe_0/pct_enable/", "2", NULL, BIT(0) | BIT(2) },
	/* CoreSight: time stamps and context IDs on a CPU's trace, where the PMU has them */
	{ "cs_etm//", "0", NULL, BIT(28) },
	{ "cs_etm//", "0", "contextid=config:14", BIT(28) | BIT(14) },
	{ "cs_etm//", NULL, "contextid=config:14", 0 },
	{ "cs_etm/timestamp=0/", "0", "contextid=config:14", BIT(14) },
	{ "cs_etm/contextid1=0,cycacc/", "0", "contextid=config:14", BIT(28) | BIT(12) },
	{ "cs_etm/contextid2/", "0", "contextid=config:15", BIT(28) | BIT(15) },
};

/* Every case twice: parsed with the default_terms hook, and without it (the same config). */
START_TEST(test_default_config_after_options)
{
	const struct config_case *c = &config_cases[_i / 2];
	bool hook = _i % 2 == 0;
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true, .per_thread = !c->cpus);
	struct auxtrace_record *itr;
	struct evlist *evlist;
	struct evsel *aux;

	if (c->add_format) {
		char name[32];
		const char *eq = strchr(c->add_format, '=');

		snprintf(name, sizeof(name), "format/%.*s", (int)(eq - c->add_format),
			 c->add_format);
		sysfs_change("cs_etm", name, eq + 1);
	}
	itr = parsed_backend_hook(c->str, c->cpus, hook, &evlist, &aux);
	log_capture_start();
	ck_assert_int_eq(auxtrace_record__options(itr, evlist, &opts), 0);
	log_capture_stop();
	ck_assert_msg(evsel__attr(aux)->config == c->want,
		      "%s on %s%s: config %#llx, want %#llx", c->str, c->cpus ? c->cpus : "threads",
		      hook ? "" : ", parsed without the default_terms hook",
		      (unsigned long long)evsel__attr(aux)->config, (unsigned long long)c->want);
	if (c->says)
		ck_assert_msg(log_captured(c->says), "%s: log \"%s\"", c->str, log_text);
	else
		ck_assert_msg(!log_captured("pt=0"), "%s: log \"%s\"", c->str, log_text);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
}
END_TEST

/* SPE's default period keeps a recorder's frequency default away (SPE refuses one). */
START_TEST(test_default_period_arm_spe)
{
	static const struct { const char *str; uint64_t period; } cases[] = {
		{ "arm_spe_0//", 1024 },
		{ "arm_spe_0/period=8192/", 8192 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct auxtrace_record *itr;
		struct evlist *evlist;
		struct evsel *aux;

		itr = parsed_backend(cases[i].str, "2", &evlist, &aux);
		ck_assert_uint_eq(evsel__attr(aux)->sample_period, cases[i].period);
		ck_assert(!evsel__attr(aux)->freq);
		auxtrace_record__free(itr);
		evlist__delete(evlist);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("auxtrace-record");
	TCase *sel = tcase_create("selection");
	TCase *opt = tcase_create("options");
	TCase *snap = tcase_create("snapshot");
	TCase *info = tcase_create("info");
	TCase *real = tcase_create("real-kernel");
	TCase *all[] = { sel, opt, snap, info, real };
	size_t i;

	tcase_add_test(sel, test_aux_capable_names);
	tcase_add_test(sel, test_init_picks_backend_by_type);
	tcase_add_test(sel, test_init_empty_or_without_sysfs);
	tcase_add_test(sel, test_null_itr_wrappers);
	tcase_add_test(sel, test_foreign_itr);
	tcase_add_test(sel, test_backend_hooks);
	tcase_add_loop_test(opt, test_options_sizes, 0, sizeof(size_cases) / sizeof(size_cases[0]));
	tcase_add_test(opt, test_options_tracking_event);
	tcase_add_test(opt, test_options_one_event_per_pmu);
	tcase_add_test(opt, test_options_aux_output_once);
	tcase_add_loop_test(opt, test_options_pt_config, 0,
			    sizeof(pt_config_cases) / sizeof(pt_config_cases[0]));
	tcase_add_test(opt, test_options_pt_small_snapshot_warns);
	tcase_add_test(opt, test_options_arm_spe);
	tcase_add_test(opt, test_options_arm_spe_discard);
	tcase_add_loop_test(opt, test_default_terms_intel_pt, 0, ARRAY_SIZE(pt_default_cases));
	tcase_add_test(opt, test_default_terms_other_pmus);
	tcase_add_loop_test(opt, test_default_config_after_options, 0, 2 * ARRAY_SIZE(config_cases));
	tcase_add_test(opt, test_default_period_arm_spe);
	tcase_add_test(snap, test_snapshot_tail_rule);
	tcase_add_test(snap, test_snapshot_head_rule);
	tcase_add_test(snap, test_snapshot_small_buffers);
	tcase_add_test(info, test_time_conv_from_userpg);
	tcase_add_test(info, test_info_intel_pt);
	tcase_add_test(info, test_info_intel_pt_per_thread_snapshot);
	tcase_add_test(info, test_info_intel_pt_filter);
	tcase_add_test(info, test_info_priv_size_mismatch);
	tcase_add_test(info, test_info_intel_bts);
	tcase_add_test(info, test_info_arm_spe);
	tcase_add_test(info, test_info_cs_etm);
	tcase_add_test(info, test_info_cs_etm_cpu_without_tracer);
	tcase_add_test(real, test_info_real_control_page);
	tcase_add_test(real, test_snapshot_start_finish_read_finish_real);
	tcase_add_test(real, test_read_finish_per_cpu_real);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		tcase_add_checked_fixture(all[i], sysfs_setup, sysfs_teardown);
		suite_add_tcase(s, all[i]);
	}
	return testlib_run(s);
}
