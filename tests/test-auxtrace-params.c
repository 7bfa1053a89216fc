// SPDX-License-Identifier: LGPL-2.1
/*
 * auxtrace_mmap_params: the template (__init) and its completion per mmap idx (__set_idx),
 * as tables; then the same tables against the real evlist mmap driver, which decides which
 * evsel owns each idx.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include "lib/testlib.h"

#define PAGE ((size_t)sysconf(_SC_PAGESIZE))

START_TEST(test_init_table)
{
	static const struct {
		off_t offset;
		unsigned int pages;
		bool overwrite;
		size_t len_pages;	/* expected len in pages */
		bool pow2;
		int prot;
	} rows[] = {
		{ 0x81000, 0, false, 0, false, PROT_READ | PROT_WRITE },	/* no AUX area */
		{ 0x81000, 1, false, 1, true, PROT_READ | PROT_WRITE },
		{ 0x81000, 16, false, 16, true, PROT_READ | PROT_WRITE },
		{ 0x81000, 16, true, 16, true, PROT_READ },			/* snapshot/sample */
		{ 0x2000, 3, false, 3, false, PROT_READ | PROT_WRITE },	/* not 2^n: modulo */
		{ 0x2000, 1000, true, 1000, false, PROT_READ },
		{ 0x2000, 1024, true, 1024, true, PROT_READ },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct auxtrace_mmap_params mp;
		size_t len = rows[i].len_pages * PAGE;

		memset(&mp, 0x5a, sizeof(mp));
		auxtrace_mmap_params__init(&mp, rows[i].offset, rows[i].pages, rows[i].overwrite);
		ck_assert_msg(mp.len == len, "row %zu: len %zu", i, mp.len);
		ck_assert_msg(mp.mask == (rows[i].pow2 ? len - 1 : 0), "row %zu: mask %zx", i,
			      mp.mask);
		ck_assert_msg(mp.offset == rows[i].offset, "row %zu: offset", i);
		ck_assert_msg(mp.prot == rows[i].prot, "row %zu: prot %d", i, mp.prot);
		/* Nothing per-idx leaks from the template. */
		ck_assert_int_eq(mp.idx, -1);
		ck_assert_int_eq(mp.cpu.cpu, -1);
		ck_assert(!mp.mmap_needed);
	}
}
END_TEST

/* What a session looks like: its maps and evsels. */
struct session_case {
	const char *name;
	const char *user_cpus;		/* "" : any CPU (per-thread) */
	int nr_threads;			/* 0: the dummy thread map */
	bool aux_cpu0_only;		/* the AUX event's PMU counts on CPU 0 only */
	bool sideband;			/* a system-wide dummy after the AUX event */
	int min_cpus;			/* online CPUs the case needs */
	int nr_idx;
	struct {
		char owner;		/* 'A': the AUX event, 'D': the side-band dummy */
		bool mmap_needed;
		int cpu;
		int tid;		/* TID_ANY (-1), 0, or 1 + the thread map index */
	} idx[4];
};

#define TID_ANY -1
#define THREAD(n) (1 + (n))

static const struct session_case cases[] = {
	{ "per-CPU, system-wide", "0-1", 0, false, false, 2, 2,
	  { { 'A', true, 0, TID_ANY }, { 'A', true, 1, TID_ANY } } },
	{ "per-CPU, one thread", "0", 1, false, false, 1, 1,
	  { { 'A', true, 0, THREAD(0) } } },
	{ "per-CPU, two threads", "0", 2, false, false, 1, 1,
	  { { 'A', true, 0, 0 } } },
	{ "per-thread, one thread", "", 1, false, false, 1, 1,
	  { { 'A', true, -1, THREAD(0) } } },
	{ "per-thread, two threads", "", 2, false, false, 1, 2,
	  { { 'A', true, -1, THREAD(0) }, { 'A', true, -1, THREAD(1) } } },
	{ "a CPU the AUX event does not cover", "0-1", 0, true, true, 2, 2,
	  { { 'A', true, 0, TID_ANY }, { 'D', false, 1, TID_ANY } } },
	{ "per-thread with a side-band dummy on every CPU", "", 1, false, true, 2, 3,
	  { { 'A', true, -1, THREAD(0) }, { 'D', false, 0, TID_ANY },
	    { 'D', false, 1, TID_ANY } } },
};

static struct evsel *sw_evsel(uint64_t config, const char *name)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.size = sizeof(attr),
		.disabled = 1,
	};
	struct evsel *evsel = evsel__new(&attr);

	ck_assert_ptr_nonnull(evsel);
	ck_assert_int_eq(evsel__set_name(evsel, name), 0);
	return evsel;
}

/* The evlist of case c over the given tids; *aux and *dummy are its evsels. */
static struct evlist *session_new(const struct session_case *c, const pid_t *tids,
				  struct evsel **aux, struct evsel **dummy)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *cpus = perf_cpu_map__new(c->user_cpus);
	struct perf_thread_map *threads = c->nr_threads ?
		perf_thread_map__new_array(c->nr_threads, tids) : perf_thread_map__new_dummy();

	ck_assert_ptr_nonnull(evlist);
	ck_assert_ptr_nonnull(cpus);
	ck_assert_ptr_nonnull(threads);
	*aux = sw_evsel(PERF_COUNT_SW_CPU_CLOCK, "aux-like");
	evsel__set_needs_auxtrace_mmap(*aux, true);
	if (c->aux_cpu0_only) {
		struct perf_cpu_map *cpu0 = perf_cpu_map__new("0");

		evsel__set_pmu_cpus(*aux, cpu0);
		perf_cpu_map__put(cpu0);
	}
	evlist__add(evlist, *aux);
	*dummy = NULL;
	if (c->sideband) {
		*dummy = sw_evsel(PERF_COUNT_SW_DUMMY, "sideband");
		evsel__set_system_wide(*dummy, true);
		evlist__add(evlist, *dummy);
	}
	ck_assert_int_eq(evlist__set_maps(evlist, cpus, threads), 0);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return evlist;
}

static void check_params(const struct session_case *c, int i,
			 const struct auxtrace_mmap_params *mp, const pid_t *tids)
{
	int want_tid = c->idx[i].tid >= THREAD(0) ? tids[c->idx[i].tid - 1] : c->idx[i].tid;

	ck_assert_msg(mp->idx == i, "%s: idx %d: idx %d", c->name, i, mp->idx);
	ck_assert_msg(mp->mmap_needed == c->idx[i].mmap_needed, "%s: idx %d: mmap_needed %d",
		      c->name, i, mp->mmap_needed);
	ck_assert_msg(mp->cpu.cpu == c->idx[i].cpu, "%s: idx %d: cpu %d, want %d", c->name, i,
		      mp->cpu.cpu, c->idx[i].cpu);
	ck_assert_msg(mp->tid == want_tid, "%s: idx %d: tid %d, want %d", c->name, i,
		      (int)mp->tid, want_tid);
	/* The template's part is untouched by __set_idx. */
	ck_assert_uint_eq(mp->len, 16 * PAGE);
	ck_assert_uint_eq(mp->mask, 16 * PAGE - 1);
	ck_assert_int_eq(mp->prot, PROT_READ | PROT_WRITE);
}

START_TEST(test_set_idx_table)
{
	static const pid_t tids[] = { 1001, 1002 };
	const struct session_case *c = &cases[_i];
	struct evsel *aux, *dummy;
	struct evlist *evlist;

	if (testlib_nr_online_cpus() < c->min_cpus)
		TEST_SKIP("%s needs %d online CPUs", c->name, c->min_cpus);
	evlist = session_new(c, tids, &aux, &dummy);
	for (int i = 0; i < c->nr_idx; i++) {
		struct auxtrace_mmap_params mp;

		auxtrace_mmap_params__init(&mp, 0x41000, 16, false);
		auxtrace_mmap_params__set_idx(&mp, evlist, c->idx[i].owner == 'A' ? aux : dummy, i);
		check_params(c, i, &mp, tids);
	}
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_set_idx_without_owner_or_pages)
{
	static const pid_t tids[] = { 1001 };
	struct auxtrace_mmap_params mp;
	struct evsel *aux, *dummy;
	struct evlist *evlist = session_new(&cases[1], tids, &aux, &dummy);

	auxtrace_mmap_params__init(&mp, 0x41000, 16, false);
	auxtrace_mmap_params__set_idx(&mp, evlist, NULL, 0);
	ck_assert(!mp.mmap_needed);

	/* Zero AUX pages: the owner still needs one, but len 0 maps nothing. */
	auxtrace_mmap_params__init(&mp, 0x41000, 0, false);
	auxtrace_mmap_params__set_idx(&mp, evlist, aux, 0);
	ck_assert(mp.mmap_needed);
	ck_assert_uint_eq(mp.len, 0);
	evlist__delete(evlist);
}
END_TEST

/* The real driver: record who owns each idx and what __set_idx made of it. */
struct driver_seen {
	int nr;
	struct evsel *owner[4];
	struct auxtrace_mmap_params mp[4];
};

static int record_idx(struct evlist *evlist, struct evsel *evsel, int idx, void *ctx)
{
	struct driver_seen *seen = ctx;

	ck_assert_int_lt(idx, 4);
	seen->owner[idx] = evsel;
	auxtrace_mmap_params__init(&seen->mp[idx], evlist__mmap_len(evlist), 16, false);
	auxtrace_mmap_params__set_idx(&seen->mp[idx], evlist, evsel, idx);
	seen->nr = idx + 1 > seen->nr ? idx + 1 : seen->nr;
	return 0;
}

static bool thread_stop;

static void *idle_thread(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	while (!__atomic_load_n(&thread_stop, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

START_TEST(test_set_idx_from_driver)
{
	const struct session_case *c = &cases[_i];
	struct driver_seen seen = { 0 };
	struct evlist_mmap_hooks hooks = { .sz = sizeof(hooks), .idx = record_idx, .ctx = &seen };
	pid_t tids[2] = { getpid(), 0 };
	struct evsel *aux, *dummy;
	struct evlist *evlist;
	pthread_t helper;

	TEST_REQUIRE_ROOT();
	if (testlib_nr_online_cpus() < c->min_cpus)
		TEST_SKIP("%s needs %d online CPUs", c->name, c->min_cpus);
	thread_stop = false;
	ck_assert_int_eq(pthread_create(&helper, NULL, idle_thread, &tids[1]), 0);
	while (!__atomic_load_n(&tids[1], __ATOMIC_ACQUIRE))
		usleep(100);
	evlist = session_new(c, tids, &aux, &dummy);
	ck_assert_int_eq(evlist__open(evlist), 0);
	ck_assert_int_eq(evlist__mmap_ex(evlist, 1, &hooks), 0);
	ck_assert_int_eq(seen.nr, c->nr_idx);
	for (int i = 0; i < c->nr_idx; i++) {
		ck_assert_msg(seen.owner[i] == (c->idx[i].owner == 'A' ? aux : dummy),
			      "%s: idx %d owned by %s", c->name, i, evsel__name(seen.owner[i]));
		/* AUX right after the data ring: control page + 1 data page. */
		ck_assert_int_eq(seen.mp[i].offset, 2 * PAGE);
		check_params(c, i, &seen.mp[i], tids);
	}
	evlist__delete(evlist);
	__atomic_store_n(&thread_stop, true, __ATOMIC_RELEASE);
	pthread_join(helper, NULL);
}
END_TEST

static Suite *auxtrace_params_suite(void)
{
	Suite *s = suite_create("auxtrace-params");
	TCase *tc = tcase_create("params");
	int nr = sizeof(cases) / sizeof(cases[0]);

	tcase_add_test(tc, test_init_table);
	tcase_add_loop_test(tc, test_set_idx_table, 0, nr);
	tcase_add_test(tc, test_set_idx_without_owner_or_pages);
	tcase_add_loop_test(tc, test_set_idx_from_driver, 0, nr);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return testlib_run(auxtrace_params_suite());
}
