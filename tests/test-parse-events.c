// SPDX-License-Identifier: LGPL-2.1
/*
 * Event strings: attrs checked bit by bit against a fake sysfs (Intel PT, SPE, split-range
 * PMUs) and a fake tracefs; every class of bad string with its message and offset; then
 * the real kernel: software events and a tracepoint that is opened and counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <auxtrace/parse-events.h>
#include "lib/fake-sysfs.h"
#include "lib/testlib.h"
#include "lib/unprivileged.h"

static struct fake_sysfs fs, tfs;
static struct parse_events_opts opts;

static void setup(void)
{
	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
	ck_assert_int_eq(fake_sysfs__create(&tfs), 0);
	ck_assert_int_eq(fake_sysfs__write(&tfs, "events/sched/sched_switch/id", "316\n"), 0);
	ck_assert_int_eq(fake_sysfs__write(&tfs, "events/my-sys/my.event/id", "7\n"), 0);
	opts = (struct parse_events_opts){ .sz = sizeof(opts), .sysfs_root = fs.root,
					   .tracefs_root = tfs.root };
}

static void teardown(void)
{
	fake_sysfs__remove(&fs);
	fake_sysfs__remove(&tfs);
}

static struct parse_events_event parse_ok(const char *str)
{
	struct parse_events_error err;
	struct parse_events_event ev;
	int ret = parse_events__attr(str, &opts, &ev, &err);

	ck_assert_msg(ret == 0, "\"%s\": %d, offset %d: %s", str, ret, err.idx, err.msg);
	ck_assert_uint_eq(ev.attr.size, sizeof(ev.attr));
	return ev;
}

#define PT_PT		(1ULL << 0)
#define PT_CYC		(1ULL << 1)
#define PT_MTC		(1ULL << 9)
#define PT_TSC		(1ULL << 10)
#define PT_NORETCOMP	(1ULL << 11)
#define PT_PTW		(1ULL << 12)
#define PT_BRANCH	(1ULL << 13)
#define PT_MTC_PERIOD(v)  ((uint64_t)(v) << 14)
#define PT_CYC_THRESH(v)  ((uint64_t)(v) << 19)
#define PT_PSB_PERIOD(v)  ((uint64_t)(v) << 24)

START_TEST(test_intel_pt_empty)
{
	struct parse_events_event ev = parse_ok("intel_pt//");

	ck_assert_uint_eq(ev.attr.type, 8);
	ck_assert(ev.attr.config == 0 && ev.attr.config1 == 0 && ev.attr.config2 == 0);
	ck_assert_str_eq(ev.name, "intel_pt//");
	ck_assert_str_eq(ev.pmu, "intel_pt");
	ck_assert(!ev.attr.exclude_user && !ev.attr.exclude_kernel && !ev.attr.exclude_hv);
	for (int i = 0; i < 4; i++)
		ck_assert(ev.user_config[i] == 0);
}
END_TEST

START_TEST(test_intel_pt_terms)
{
	const char *str = "intel_pt/cyc,mtc=0,tsc,noretcomp=1,mtc_period=3,cyc_thresh=15,"
			  "psb_period=0xa,branch=0,ptw/u";
	struct parse_events_event ev = parse_ok(str);
	uint64_t want = PT_CYC | PT_TSC | PT_NORETCOMP | PT_MTC_PERIOD(3) | PT_CYC_THRESH(15) |
			PT_PSB_PERIOD(0xa) | PT_PTW;
	uint64_t user = PT_CYC | PT_MTC | PT_TSC | PT_NORETCOMP | PT_MTC_PERIOD(0xf) |
			PT_CYC_THRESH(0xf) | PT_PSB_PERIOD(0xf) | PT_BRANCH | PT_PTW;

	ck_assert_msg(ev.attr.config == want, "config %#llx, want %#llx",
		      (unsigned long long)ev.attr.config, (unsigned long long)want);
	ck_assert_msg(ev.user_config[0] == user, "user %#llx", (unsigned long long)ev.user_config[0]);
	ck_assert(ev.user_config[1] == 0 && ev.user_config[2] == 0);
	/* "u": user space only */
	ck_assert(!ev.attr.exclude_user && ev.attr.exclude_kernel && ev.attr.exclude_hv);
	ck_assert_str_eq(ev.name, str);
}
END_TEST

START_TEST(test_term_order_and_overwrite)
{
	/* Later terms win; re-setting a field clears its old bits first. */
	struct parse_events_event ev = parse_ok("intel_pt/mtc_period=15,mtc_period=2,tsc,tsc=0/");

	ck_assert(ev.attr.config == PT_MTC_PERIOD(2));
	/* config= sets the whole word, format terms after it edit their bits */
	ev = parse_ok("intel_pt/config=0xffff,tsc=0/");
	ck_assert(ev.attr.config == (0xffff & ~PT_TSC));
	ck_assert(ev.user_config[0] == ~0ULL);
}
END_TEST

START_TEST(test_split_range)
{
	struct parse_events_event ev = parse_ok("uncore_split/event=0xabc,umask=0x12,edge/");

	ck_assert_uint_eq(ev.attr.type, 20);
	/* 0xabc: 0xbc in bits 0-7, 0xa in bits 32-35 */
	ck_assert_msg(ev.attr.config == (0xbcULL | 0x12ULL << 8 | 1ULL << 18 | 0xaULL << 32),
		      "config %#llx", (unsigned long long)ev.attr.config);
	ck_assert(ev.user_config[0] == (0xffULL | 0xfULL << 32 | 0xff00ULL | 1ULL << 18));

	ev = parse_ok("uncore_split/wide=0xffffffffffffffff,ext=0x9/");
	ck_assert(ev.attr.config == 0);
	ck_assert(ev.attr.config1 == ~0ULL);
	ck_assert(ev.attr.config2 == (0x10ULL | 0x2ULL << 60));	/* 0b1001 over bits 4,5,60,61 */
	ck_assert(ev.user_config[1] == ~0ULL);
	ck_assert(ev.user_config[2] == (0x30ULL | 0x3ULL << 60));
}
END_TEST

START_TEST(test_arm_spe)
{
	struct parse_events_event ev =
		parse_ok("arm_spe_0/ts_enable=1,pa_enable,load_filter,event_filter=0x42,min_latency=20/");

	ck_assert_uint_eq(ev.attr.type, 10);
	ck_assert(ev.attr.config == (1ULL | 2ULL | 1ULL << 33));
	ck_assert(ev.attr.config1 == 0x42);
	ck_assert(ev.attr.config2 == 20);
}
END_TEST

START_TEST(test_attr_terms)
{
	struct parse_events_event ev =
		parse_ok("intel_bts/config=0x123,config1=5,config2=7,period=1000/");

	ck_assert_uint_eq(ev.attr.type, 9);
	ck_assert(ev.attr.config == 0x123 && ev.attr.config1 == 5 && ev.attr.config2 == 7);
	ck_assert(ev.attr.sample_period == 1000 && !ev.attr.freq);
	ck_assert(ev.user_config[0] == ~0ULL && ev.user_config[1] == ~0ULL);

	ev = parse_ok("cpu-clock/freq=99/");
	ck_assert(ev.attr.freq && ev.attr.sample_freq == 99);
	ev = parse_ok("cpu-clock/freq=99,sample_period=5/");
	ck_assert(!ev.attr.freq && ev.attr.sample_period == 5);

	/* name= names the event; modifiers may follow the slash with or without ':' */
	ev = parse_ok("cpu-clock/period=10,name=my-clock/k");
	ck_assert_str_eq(ev.name, "my-clock");
	ck_assert(ev.attr.exclude_user && !ev.attr.exclude_kernel);
	ev = parse_ok("cpu-clock/name=123/:u");
	ck_assert_str_eq(ev.name, "123");
	ck_assert(ev.attr.exclude_kernel);
	/* a name of the limit (255 bytes) is kept whole; one byte more is refused, not cut */
	{
		char str[300], name[257];
		struct parse_events_error err;

		memset(name, 'n', 256);
		name[255] = 0;
		snprintf(str, sizeof(str), "cpu-clock/name=%s/", name);
		ev = parse_ok(str);
		ck_assert_str_eq(ev.name, name);
		name[255] = 'n';
		name[256] = 0;
		snprintf(str, sizeof(str), "cpu-clock/name=%s/", name);
		ck_assert_int_eq(parse_events__attr(str, &opts, &ev, &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, "name is longer than 255 bytes"), "%s", err.msg);
	}

	ev = parse_ok("dummy/aux-sample-size=4096,aux-output/");
	ck_assert_uint_eq(ev.attr.aux_sample_size, 4096);
	ck_assert(ev.attr.aux_output);
	ev = parse_ok("intel_pt/aux-output=0/");
	ck_assert(!ev.attr.aux_output);
	ev = parse_ok("software/config=9/");
	ck_assert(ev.attr.type == PERF_TYPE_SOFTWARE && ev.attr.config == PERF_COUNT_SW_DUMMY);
}
END_TEST

START_TEST(test_aliases)
{
	struct parse_events_event ev = parse_ok("cpu_core/cycles/");

	ck_assert_uint_eq(ev.attr.type, 4);
	ck_assert(ev.attr.config == 0x3c);
	ck_assert(ev.user_config[0] == 0xff);
	ev = parse_ok("cpu_core/cycles,umask=0x2/");
	ck_assert(ev.attr.config == 0x23c);
	ev = parse_ok("uncore_split/clockticks/");
	ck_assert(ev.attr.config == 0xff);
	ev = parse_ok("uncore_split/big/");
	ck_assert(ev.attr.config == (0xbcULL | 1ULL << 18 | 0xaULL << 32));
}
END_TEST

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} named[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

START_TEST(test_named)
{
	struct parse_events_event ev = parse_ok(named[_i].name);

	ck_assert_uint_eq(ev.attr.type, named[_i].type);
	ck_assert(ev.attr.config == named[_i].config);
	ck_assert_str_eq(ev.name, named[_i].name);
	ck_assert_str_eq(ev.pmu, "");
}
END_TEST

/* exclude bits: user kernel hv guest host, then precise_ip, pinned, exclude_idle, exclusive */
static const struct {
	const char *str;
	int eu, ek, eh, eg, eH, precise, pinned, idle, excl;
} mods[] = {
	{ "cpu-clock",		0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:u",	0, 1, 1, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:k",	1, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:h",	1, 1, 0, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:uk",	0, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:ku",	0, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:ukh",	0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:G",	0, 0, 0, 0, 1, 0, 0, 0, 0 },
	{ "cpu-clock:H",	0, 0, 0, 1, 0, 0, 0, 0, 0 },
	{ "cpu-clock:GH",	0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "cpu-clock:uH",	0, 1, 1, 1, 0, 0, 0, 0, 0 },
	{ "cpu-clock:p",	0, 0, 0, 0, 0, 1, 0, 0, 0 },
	{ "cpu-clock:ppp",	0, 0, 0, 0, 0, 3, 0, 0, 0 },
	{ "cpu-clock:D",	0, 0, 0, 0, 0, 0, 1, 0, 0 },
	{ "cpu-clock:I",	0, 0, 0, 0, 0, 0, 0, 1, 0 },
	{ "cpu-clock:e",	0, 0, 0, 0, 0, 0, 0, 0, 1 },
	{ "intel_pt//k",	1, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "intel_pt//:k",	1, 0, 1, 0, 0, 0, 0, 0, 0 },
	{ "sched:sched_switch:u", 0, 1, 1, 0, 0, 0, 0, 0, 0 },
};

START_TEST(test_modifiers)
{
	struct parse_events_event ev = parse_ok(mods[_i].str);
	struct perf_event_attr *a = &ev.attr;

	ck_assert_msg(a->exclude_user == mods[_i].eu && a->exclude_kernel == mods[_i].ek &&
		      a->exclude_hv == mods[_i].eh && a->exclude_guest == mods[_i].eg &&
		      a->exclude_host == mods[_i].eH, "%s: u%d k%d h%d guest%d host%d", mods[_i].str,
		      a->exclude_user, a->exclude_kernel, a->exclude_hv, a->exclude_guest,
		      a->exclude_host);
	ck_assert_uint_eq(a->precise_ip, mods[_i].precise);
	ck_assert_uint_eq(a->pinned, mods[_i].pinned);
	ck_assert_uint_eq(a->exclude_idle, mods[_i].idle);
	ck_assert_uint_eq(a->exclusive, mods[_i].excl);
	ck_assert_str_eq(ev.name, mods[_i].str);
}
END_TEST

START_TEST(test_tracepoint_fake)
{
	struct parse_events_event ev = parse_ok("sched:sched_switch");

	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_TRACEPOINT);
	ck_assert(ev.attr.config == 316);
	ck_assert(ev.attr.sample_period == 1);
	ck_assert(ev.attr.sample_type & PERF_SAMPLE_RAW);
	ck_assert_str_eq(ev.pmu, "");
	ev = parse_ok("my-sys:my.event");
	ck_assert(ev.attr.config == 7);
}
END_TEST

/* A bad string: the error says what and where. */
static const struct {
	const char *str;
	int idx;
	const char *says[3];
} bad[] = {
	/* unknown PMU: named, with what exists */
	{ "nosuch/tsc/", 0, { "unknown PMU 'nosuch'", "intel_pt", "arm_spe_0" } },
	/* unknown term: named, with the PMU's terms */
	{ "intel_pt/tsc,bogus=1/", 13, { "unknown term 'bogus' for PMU intel_pt", "cyc_thresh",
					 "psb_period" } },
	{ "cpu-clock/config=1/", 10, { "unknown term 'config'", "period" } },
	/* value out of range: term, value, width */
	{ "intel_pt/mtc_period=16/", 9, { "mtc_period", "0x10", "4 bits" } },
	{ "intel_pt/tsc=2/", 9, { "term 'tsc'", "0x2", "1 bit " } },
	{ "uncore_split/event=0x1000/", 13, { "'event'", "0x1000", "12 bits" } },
	{ "intel_pt/tsc=99999999999999999999/", 13, { "does not fit 64 bits" } },
	{ "dummy/aux-sample-size=0x100000000/", 6, { "aux-sample-size", "32 bits" } },
	{ "dummy/aux-output=2/", 6, { "aux-output is a flag" } },
	/* not a number */
	{ "intel_pt/tsc=x/", 13, { "term 'tsc' takes a number, not 'x'" } },
	{ "intel_pt/mtc_period=3x/", 20, { "takes a number, not '3x'" } },
	/* unknown event */
	{ "nosuchevent", 0, { "unknown event 'nosuchevent'" } },
	{ "cpu-clocks", 0, { "unknown event 'cpu-clocks'" } },
	/* bad modifiers */
	{ "cpu-clock:ux", 11, { "bad modifier 'x'" } },
	{ "intel_pt//uq", 11, { "bad modifier 'q'" } },
	{ "cpu-clock:pppp", 13, { "more than three 'p'" } },
	{ "cpu-clock:", 10, { "expected modifiers" } },
	/* syntax, with the position */
	{ "", 0, { "expected an event name" } },
	{ "intel_pt/tsc", 12, { "missing the closing '/'" } },
	{ "intel_pt/tsc=/", 13, { "expected a value after '='" } },
	{ "intel_pt/,/", 9, { "expected a term name" } },
	{ "intel_pt/tsc;cyc/", 12, { "unexpected ';'" } },
	{ "cpu-clock task-clock", 9, { "unexpected ' '" } },
	{ "cpu-clock:u:k", 11, { "unexpected ':'" } },
	{ "/tsc/", 0, { "unexpected '/'" } },
	{ "name=x", 0, { "unknown event 'name'" } },
	{ "cpu-clock=1", 9, { "unexpected '=' after event 'cpu-clock'" } },
	/* tracepoints */
	{ "sched:nosuch", 6, { "unknown tracepoint 'nosuch' in system 'sched'" } },
	{ "nosys:x", 0, { "unknown tracepoint system 'nosys'" } },
	{ "sched:", 6, { "expected a tracepoint name" } },
	/* aliases */
	{ "cpu_core/cycles=1/", 9, { "event alias of PMU cpu_core", "takes no value" } },
	/* config3 needs a newer attr */
	{ "uncore_split/far/", 13, { "config3" } },
	/* a list or a group is not one event */
	{ "cpu-clock,dummy", 9, { "one event expected" } },
	{ "{cpu-clock}", 0, { "parse_events()" } },
};

START_TEST(test_bad)
{
	struct parse_events_error err;
	struct parse_events_event ev;

	memset(&err, 0x55, sizeof(err));
	errno = 0;
	ck_assert_int_eq(parse_events__attr(bad[_i].str, &opts, &ev, &err), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	for (int k = 0; k < 3 && bad[_i].says[k]; k++)
		ck_assert_msg(strstr(err.msg, bad[_i].says[k]), "\"%s\": message \"%s\" lacks \"%s\"",
			      bad[_i].str, err.msg, bad[_i].says[k]);
	ck_assert_msg(err.idx == bad[_i].idx, "\"%s\": offset %d, want %d (%s)", bad[_i].str,
		      err.idx, bad[_i].idx, err.msg);
}
END_TEST

static const char *pt_defaults(const struct perf_pmu *pmu, void *ctx)
{
	(void)ctx;
	return strcmp(perf_pmu__name(pmu), "intel_pt") ? NULL : "pt,tsc,mtc,mtc_period=3,branch";
}

START_TEST(test_default_terms)
{
	struct parse_events_event ev;

	opts.default_terms = pt_defaults;
	ev = parse_ok("intel_pt/mtc=0,cyc/");
	ck_assert(ev.attr.config == (PT_PT | PT_TSC | PT_MTC_PERIOD(3) | PT_BRANCH | PT_CYC));
	/* only what the string itself set counts as the user's */
	ck_assert(ev.user_config[0] == (PT_MTC | PT_CYC));
	ev = parse_ok("uncore_split/umask=1/");
	ck_assert(ev.attr.config == 0x100);
}
END_TEST

static const char *broken_defaults(const struct perf_pmu *pmu, void *ctx)
{
	(void)pmu, (void)ctx;
	return "pt,bogus";
}

START_TEST(test_default_terms_broken)
{
	struct parse_events_error err;
	struct parse_events_event ev;

	opts.default_terms = broken_defaults;
	ck_assert_int_eq(parse_events__attr("intel_pt//", &opts, &ev, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "default terms of PMU intel_pt") &&
		      strstr(err.msg, "unknown term 'bogus'"), "%s", err.msg);
}
END_TEST

/* The sysfs root may also come from the environment. */
START_TEST(test_env_sysfs)
{
	struct parse_events_event ev;

	ck_assert_int_eq(setenv("AUXTRACE_SYSFS", fs.root, 1), 0);
	ck_assert_int_eq(parse_events__attr("intel_pt/tsc/", NULL, &ev, NULL), 0);
	ck_assert(ev.attr.type == 8 && ev.attr.config == PT_TSC);
	unsetenv("AUXTRACE_SYSFS");
}
END_TEST

static char *evsel_names(struct evlist *evlist)
{
	static char buf[512];
	struct evsel *evsel;

	buf[0] = '\0';
	evlist__for_each_entry(evlist, evsel)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", buf[0] ? " " : "",
			 evsel__name(evsel));
	return buf;
}

START_TEST(test_evlist)
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;
	struct evsel *e[6];
	char cpus[32];
	int n = 0;

	ck_assert_ptr_nonnull(evlist);
	ck_assert_msg(parse_events(evlist, "intel_pt/cyc,mtc_period=2/u,arm_spe_0/ts_enable/,"
					   "{cpu-clock,task-clock:k}:u,dummy", &opts, &err) == 0,
		      "offset %d: %s", err.idx, err.msg);
	ck_assert_int_eq(evlist__nr_entries(evlist), 5);
	ck_assert_str_eq(evsel_names(evlist), "intel_pt/cyc,mtc_period=2/u arm_spe_0/ts_enable/ "
			 "cpu-clock:u task-clock:ku dummy");
	for (struct evsel *evsel = evlist__first(evlist); evsel; evsel = evlist__next(evlist, evsel))
		e[n++] = evsel;
	ck_assert(evsel__attr(e[0])->config == (PT_CYC | PT_MTC_PERIOD(2)));
	ck_assert(evsel__attr(e[0])->exclude_kernel);
	/* a PMU with a cpumask hands it to its evsels; one without leaves them free */
	ck_assert_ptr_null(evsel__pmu_cpus(e[0]));
	perf_cpu_map__snprint(evsel__pmu_cpus(e[1]), cpus, sizeof(cpus));
	ck_assert_str_eq(cpus, "2-3");
	/* the group: led by its first member, its modifier on every member */
	ck_assert_ptr_eq(evsel__leader(e[2]), e[2]);
	ck_assert_ptr_eq(evsel__leader(e[3]), e[2]);
	ck_assert_ptr_eq(evsel__leader(e[4]), e[4]);
	ck_assert(evsel__attr(e[2])->exclude_kernel && !evsel__attr(e[2])->exclude_user);
	/* task-clock:k inside {}:u counts both user and kernel */
	ck_assert(!evsel__attr(e[3])->exclude_kernel && !evsel__attr(e[3])->exclude_user &&
		  evsel__attr(e[3])->exclude_hv);
	ck_assert(!evsel__attr(e[4])->exclude_kernel);

	/* a second call appends */
	ck_assert_int_eq(parse_events(evlist, "cs", &opts, NULL), 0);
	ck_assert_int_eq(evlist__nr_entries(evlist), 6);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_evlist_all_or_nothing)
{
	static const struct { const char *str; int idx; const char *says; } cases[] = {
		{ "cpu-clock,nosuch", 10, "unknown event 'nosuch'" },
		{ "cpu-clock,", 10, "expected an event after ','" },
		{ "{cpu-clock,dummy", 0, "not closed" },
		{ "{cpu-clock}/", 11, "unexpected '/' after a group" },
		{ "{cpu-clock}x", 11, "bad modifier 'x'" },
		{ "{cpu-clock}:", 12, "expected modifiers" },
		{ "{cpu-clock}:uz", 13, "bad modifier 'z'" },
		{ "cpu-clock}", 9, "'}' without an opening '{'" },
		{ "{{cpu-clock}}", 1, "unexpected '{'" },
		{ "dummy,intel_pt/tsc=3/", 15, "1 bit" },
		{ "", 0, "empty event list" },
	};
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;

	ck_assert_int_eq(parse_events(evlist, "dummy", &opts, NULL), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(parse_events(evlist, cases[i].str, &opts, &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, cases[i].says), "\"%s\": %s", cases[i].str, err.msg);
		ck_assert_msg(err.idx == cases[i].idx, "\"%s\": offset %d, want %d (%s)",
			      cases[i].str, err.idx, cases[i].idx, err.msg);
		ck_assert_int_eq(evlist__nr_entries(evlist), 1);
	}
	evlist__delete(evlist);
}
END_TEST

struct seen {
	int calls;
	uint64_t user_config0;
	int fail_at;
};

static int on_new_evsel(struct evsel *evsel, const struct parse_events_event *ev, void *ctx)
{
	struct seen *seen = ctx;

	ck_assert_str_eq(evsel__name(evsel), ev->name);
	if (!strcmp(ev->pmu, "intel_pt"))
		seen->user_config0 = ev->user_config[0];
	return ++seen->calls == seen->fail_at ? -EPERM : 0;
}

START_TEST(test_new_evsel_callback)
{
	struct evlist *evlist = evlist__new();
	struct seen seen = { 0 };

	opts.new_evsel = on_new_evsel;
	opts.ctx = &seen;
	ck_assert_int_eq(parse_events(evlist, "dummy,intel_pt/psb_period=0/", &opts, NULL), 0);
	ck_assert_int_eq(seen.calls, 2);
	/* what a backend needs to know: the user set psb_period, even to 0 */
	ck_assert(seen.user_config0 == PT_PSB_PERIOD(0xf));

	/* a failing callback aborts with its error, and nothing is added */
	seen = (struct seen){ .fail_at = 2 };
	ck_assert_int_eq(parse_events(evlist, "cpu-clock,{task-clock,dummy}", &opts, NULL), -EPERM);
	ck_assert_int_eq(evlist__nr_entries(evlist), 2);
	evlist__delete(evlist);
}
END_TEST

/* The real kernel: software events and a tracepoint whose id comes from tracefs. */
START_TEST(test_real_software)
{
	static const char *const names[] = { "cpu-clock", "dummy", "bpf-output", "task-clock:u" };
	struct parse_events_event ev;
	struct parse_events_error err;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int fd;

		ck_assert_int_eq(parse_events__attr(names[i], NULL, &ev, &err), 0);
		ck_assert_uint_eq(ev.attr.type, PERF_TYPE_SOFTWARE);
		ev.attr.disabled = 1;
		/* The kernel takes the attr as is: the proof it is well formed. */
		fd = syscall(SYS_perf_event_open, &ev.attr, 0, -1, -1, 0);
		ck_assert_msg(fd >= 0, "%s: perf_event_open: %s", names[i], strerror(errno));
		close(fd);
	}
}
END_TEST

/* The id in tracefs for sys:event, or 0 when the kernel lacks it. */
static unsigned long long tracefs_id(const char *sys, const char *event)
{
	char path[512], id[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", testlib_tracefs(), sys, event);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ck_assert_ptr_nonnull(fgets(id, sizeof(id), f));
	fclose(f);
	return strtoull(id, NULL, 10);
}

START_TEST(test_real_tracepoint)
{
	struct parse_events_event ev;
	struct parse_events_error err;
	unsigned long long id;

	TEST_REQUIRE_ROOT();
	if (!testlib_tracefs())
		TEST_SKIP("tracefs is not mounted");
	id = tracefs_id("syscalls", "sys_enter_getppid");
	if (!id)
		TEST_SKIP("no syscalls:sys_enter_getppid tracepoint");
	ck_assert_msg(parse_events__attr("syscalls:sys_enter_getppid", NULL, &ev, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_eq(ev.attr.config, id);
	ck_assert_str_eq(ev.name, "syscalls:sys_enter_getppid");

	ck_assert_int_eq(parse_events__attr("syscalls:sys_enter_nosuchcall", NULL, &ev, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "unknown tracepoint 'sys_enter_nosuchcall'"), "%s", err.msg);
}
END_TEST

static void tracepoint_unprivileged(void *ctx)
{
	/* The real mount named: tracefs_tracing_dir() cannot look inside it as this user. */
	AUXTRACE_OPTS(parse_events_opts, real, .tracefs_root = ctx);
	struct parse_events_event ev;
	struct parse_events_error err;

	ck_assert_int_eq(parse_events__attr("syscalls:sys_enter_getppid", &real, &ev, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "cannot read the id of tracepoint syscalls:sys_enter_getppid") &&
		      strstr(err.msg, "Permission denied") &&
		      strstr(err.msg, "run as root or make tracefs readable"), "%s", err.msg);
	ck_assert_int_eq(err.idx, 0);
	/* found by the library: mounted but closed to this user is not "not mounted" */
	ck_assert_int_eq(parse_events__attr("syscalls:sys_enter_getppid", NULL, &ev, &err),
			 -EINVAL);
	ck_assert_msg(strcasestr(err.msg, "permission denied") && strstr(err.msg, "root") &&
		      !strstr(err.msg, "not mounted"), "%s", err.msg);
}

/* tracefs is root's alone (mode 0700): an ordinary user is told so, not "unknown event". */
START_TEST(test_real_tracepoint_without_privileges)
{
	struct stat st;

	TEST_REQUIRE_ROOT();
	if (!testlib_tracefs() || stat(testlib_tracefs(), &st))
		TEST_SKIP("tracefs is not mounted");
	if (st.st_mode & S_IXOTH)
		TEST_SKIP("tracefs is open to every user here (mode %o)", st.st_mode & 07777);
	testlib_run_unprivileged(0, tracepoint_unprivileged, (void *)testlib_tracefs());
}
END_TEST

/*
 * The kernel counts with the parsed attr: exactly our five calls. Not getppid: the
 * benchmarks attach a BPF program there, and while one runs, a program that returns 0
 * hides the tracepoint from every perf event on the machine.
 */
START_TEST(test_real_tracepoint_counts)
{
	struct parse_events_event ev;
	struct parse_events_error err;
	uint64_t count = 0;
	int fd;

	TEST_REQUIRE_ROOT();
	if (!testlib_tracefs() || !tracefs_id("syscalls", "sys_enter_getpgid"))
		TEST_SKIP("no syscalls:sys_enter_getpgid tracepoint");
	ck_assert_msg(parse_events__attr("syscalls:sys_enter_getpgid", NULL, &ev, &err) == 0,
		      "%s", err.msg);
	ev.attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &ev.attr, 0, -1, -1, 0);
	ck_assert_msg(fd >= 0, "perf_event_open: %s", strerror(errno));
	ck_assert_int_eq(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getpgid, 0);
	ck_assert_int_eq(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ck_assert_int_eq(read(fd, &count, sizeof(count)), sizeof(count));
	ck_assert_uint_eq(count, 5);
	close(fd);
}
END_TEST

/* Every alias of every real PMU parses against that PMU's real format files. */
START_TEST(test_real_pmu_aliases)
{
	struct perf_pmus *pmus = perf_pmus__new(NULL);
	struct perf_pmu *pmu;
	int n = 0;

	if (!pmus)
		TEST_SKIP("no PMUs in sysfs");
	perf_pmus__for_each_pmu(pmus, pmu) {
		const char *alias;

		for (int i = 0; (alias = perf_pmu__alias_name(pmu, i)); i++) {
			char str[256];
			struct parse_events_event ev;
			struct parse_events_error err;

			snprintf(str, sizeof(str), "%s/%s/", perf_pmu__name(pmu), alias);
			ck_assert_msg(parse_events__attr(str, NULL, &ev, &err) == 0, "%s: %s",
				      str, err.msg);
			ck_assert_uint_eq(ev.attr.type, perf_pmu__type(pmu));
			n++;
		}
	}
	perf_pmus__delete(pmus);
	if (!n)
		TEST_SKIP("no PMU here has event aliases");
}
END_TEST

START_TEST(test_real_unknown_pmu_lists)
{
	struct parse_events_event ev;
	struct parse_events_error err;

	ck_assert_int_eq(parse_events__attr("nosuchpmu//", NULL, &ev, &err), -EINVAL);
	/* software and tracepoint exist on every kernel with perf events */
	ck_assert_msg(strstr(err.msg, "software") && strstr(err.msg, "tracepoint"), "%s", err.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parse-events");
	TCase *fake = tcase_create("fake-sysfs");
	TCase *real = tcase_create("real-kernel");

	tcase_add_checked_fixture(fake, setup, teardown);
	tcase_add_test(fake, test_intel_pt_empty);
	tcase_add_test(fake, test_intel_pt_terms);
	tcase_add_test(fake, test_term_order_and_overwrite);
	tcase_add_test(fake, test_split_range);
	tcase_add_test(fake, test_arm_spe);
	tcase_add_test(fake, test_attr_terms);
	tcase_add_test(fake, test_aliases);
	tcase_add_loop_test(fake, test_named, 0, sizeof(named) / sizeof(named[0]));
	tcase_add_loop_test(fake, test_modifiers, 0, sizeof(mods) / sizeof(mods[0]));
	tcase_add_test(fake, test_tracepoint_fake);
	tcase_add_loop_test(fake, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(fake, test_default_terms);
	tcase_add_test(fake, test_default_terms_broken);
	tcase_add_test(fake, test_env_sysfs);
	tcase_add_test(fake, test_evlist);
	tcase_add_test(fake, test_evlist_all_or_nothing);
	tcase_add_test(fake, test_new_evsel_callback);
	suite_add_tcase(s, fake);

	tcase_add_test(real, test_real_software);
	tcase_add_test(real, test_real_tracepoint);
	tcase_add_test(real, test_real_tracepoint_without_privileges);
	tcase_add_test(real, test_real_tracepoint_counts);
	tcase_add_test(real, test_real_pmu_aliases);
	tcase_add_test(real, test_real_unknown_pmu_lists);
	suite_add_tcase(s, real);
	return testlib_run(s);
}
