// SPDX-License-Identifier: LGPL-2.1
/*
 * AUX areas in the evlist mmap path, on the real kernel: the EOPNOTSUPP this machine gives
 * (no AUX-capable PMU) and what is left after it; then the same path with the test producer
 * plugged into the AUX mmap step (the data rings stay the kernel's).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/pmu.h>
#include <internal/auxtrace-mmap.h>
#include <internal/lib.h>
#include "lib/aux-payload.h"
#include "lib/aux-producer.h"
#include "lib/log-capture.h"
#include "lib/testlib.h"

#define PAGE ((size_t)sysconf(_SC_PAGESIZE))
#define DATA_PAGES 4
#define AUX_PAGES 16

static void log_expect(const char *what)
{
	ck_assert_msg(log_captured(what), "log lacks \"%s\": %s", what, log_text);
}

/* A cpu-clock event standing in for an AUX event: what a backend marks. */
static struct evsel *aux_like_evsel(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.disabled = 1,
		.exclude_kernel = 1,	/* per-thread tests need no privilege */
		.exclude_hv = 1,
	};
	struct evsel *evsel = evsel__new(&attr);

	ck_assert_ptr_nonnull(evsel);
	ck_assert_int_eq(evsel__set_name(evsel, "cpu-clock"), 0);
	evsel__set_needs_auxtrace_mmap(evsel, true);
	return evsel;
}

/* An evlist of evsel on cpus and threads (the evlist takes references), opened. */
static struct evlist *evlist_open_maps(struct perf_cpu_map *cpus,
				       struct perf_thread_map *threads, struct evsel *evsel,
				       bool sideband)
{
	struct evlist *evlist = evlist__new();

	evlist__add(evlist, evsel);
	if (sideband) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_DUMMY,
			.size = sizeof(attr),
		};
		struct evsel *dummy = evsel__new(&attr);

		evsel__set_system_wide(dummy, true);
		evlist__add(evlist, dummy);
	}
	ck_assert_int_eq(evlist__set_maps(evlist, cpus, threads), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	return evlist;
}

/* An evlist on cpus ("" per-thread on this thread), opened. */
static struct evlist *evlist_open(const char *cpus_str, struct evsel *evsel, bool sideband)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new(cpus_str);
	struct perf_thread_map *threads = *cpus_str ? perf_thread_map__new_dummy()
						    : perf_thread_map__new_tid(getpid());
	struct evlist *evlist = evlist_open_maps(cpus, threads, evsel, sideband);

	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return evlist;
}

/* Mappings of perf event fds (data rings, AUX areas) in this process. */
static int nr_perf_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "[perf_event]") != NULL;
	fclose(f);
	return n;
}

static bool machine_has_aux_pmu(void)
{
	struct perf_pmus *pmus = perf_pmus__new(NULL);
	struct perf_pmu *pmu;
	bool found = false;

	if (!pmus)
		return false;
	perf_pmus__for_each_pmu(pmus, pmu)
		found |= auxtrace_pmu__is_aux_capable(perf_pmu__name(pmu));
	perf_pmus__delete(pmus);
	return found;
}

START_TEST(test_eopnotsupp_names_the_pmu)
{
	bool per_thread = _i == 1;
	struct evlist *evlist;
	struct auxtrace_mmaps *aux;
	int before;

	if (!per_thread)
		TEST_REQUIRE_ROOT();
	evlist = evlist_open(per_thread ? "" : "0", aux_like_evsel(), false);
	aux = auxtrace_mmaps__new(evlist, NULL, AUX_PAGES, false);
	ck_assert_ptr_nonnull(aux);
	before = nr_perf_mappings();
	log_capture_start_at(LIBAUXTRACE_WARN);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)),
			 -EOPNOTSUPP);
	ck_assert_int_eq(errno, EOPNOTSUPP);
	log_capture_stop();
	log_expect("cpu-clock (PMU software) cannot produce AUX area data");
	log_expect("AUX-capable PMUs on this machine: ");
	if (!machine_has_aux_pmu())
		log_expect("AUX-capable PMUs on this machine: none. So record without an AUX "
			   "area (no ,AUX part in -m)");
	else
		log_expect("Trace with an event of one of them, or record without an AUX area");
	/* Nothing half-done: no ring, no AUX area, no mapping left behind. */
	ck_assert_int_eq(nr_perf_mappings(), before);
	ck_assert_int_eq(before, 0);
	ck_assert_ptr_null(evlist__mmap_at(evlist, 0));
	ck_assert_ptr_null(auxtrace_mmaps__at(aux, 0));
	ck_assert_int_eq(auxtrace_mmaps__read(aux, NULL), 0);
	/* And the evlist maps again without the AUX area. */
	ck_assert_int_eq(evlist__mmap(evlist, DATA_PAGES), 0);
	ck_assert_ptr_nonnull(evlist__mmap_at(evlist, 0));
	ck_assert_int_eq(nr_perf_mappings(), 1);	/* the count sees a ring */
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
}
END_TEST

START_TEST(test_zero_aux_pages_maps_rings_only)
{
	struct evlist *evlist;
	struct auxtrace_mmaps *aux;

	TEST_REQUIRE_ROOT();
	evlist = evlist_open("0", aux_like_evsel(), false);
	aux = auxtrace_mmaps__new(evlist, NULL, 0, false);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)), 0);
	ck_assert_ptr_nonnull(evlist__mmap_at(evlist, 0));
	ck_assert_int_eq(auxtrace_mmaps__nr(aux), 1);
	ck_assert_ptr_null(auxtrace_mmaps__at(aux, 0));
	ck_assert_uint_eq(perf_mmap__userpg(evlist__mmap_at(evlist, 0))->aux_size, 0);
	evlist__munmap(evlist);
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
}
END_TEST

START_TEST(test_eperm_gives_the_budget)
{
	struct aux_producer_config cfg = { .mmap_errno = EPERM };
	struct aux_producer *p = aux_producer__new(&cfg);
	unsigned long long mlock_kb = 0;
	struct auxtrace_mmaps *aux;
	struct evlist *evlist;
	char want[256];
	struct rlimit rl;
	FILE *f;

	/* Per-thread on ourselves: no privilege needed to get this far. */
	evlist = evlist_open("", aux_like_evsel(), false);
	aux = auxtrace_mmaps__new(evlist, NULL, AUX_PAGES, false);
	aux_producer__route_mmaps(p, aux);
	log_capture_start_at(LIBAUXTRACE_WARN);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)), -EPERM);
	log_capture_stop();
	snprintf(want, sizeof(want), "Asked per mmap: %zu KiB data + %zu KiB AUX; for 1 mmaps up "
		 "to %zu KiB", (DATA_PAGES + 1) * PAGE / 1024, AUX_PAGES * PAGE / 1024,
		 (DATA_PAGES + 1 + AUX_PAGES) * PAGE / 1024);
	log_expect(want);
	f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%llu", &mlock_kb), 1);
	fclose(f);
	snprintf(want, sizeof(want), "perf_event_mlock_kb = %llu KiB per CPU", mlock_kb);
	log_expect(want);
	ck_assert_int_eq(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(want, sizeof(want), "RLIMIT_MEMLOCK = unlimited");
	else
		snprintf(want, sizeof(want), "RLIMIT_MEMLOCK = %llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
	log_expect(want);
	ck_assert_ptr_null(evlist__mmap_at(evlist, 0));
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
}
END_TEST

/* Frames check: idx/cpu/tid of idx 0, contiguous offsets, the payload is the stream. */
struct stream_check {
	uint64_t next;
	int cpu;
	pid_t tid;
	bool bad;
};

static int stream_check__frame(void *ctx, const struct perf_record_auxtrace *ev,
			       const unsigned char *payload)
{
	struct stream_check *sc = ctx;
	uint64_t n = ev->size;

	while (n && !payload[n - 1])
		n--;		/* stream bytes are never zero: the rest is padding */
	sc->bad |= ev->idx != 0 || (int)ev->cpu != sc->cpu || (pid_t)ev->tid != sc->tid ||
		   ev->offset != sc->next || ev->size - n > 7;
	for (uint64_t i = 0; i < n; i++)
		sc->bad |= payload[i] != aux_stream__byte(sc->next + i);
	sc->next += n;
	return sc->bad;
}

/* A backend double whose read_finish is what re-enables the producer. */
struct finish_itr {
	struct auxtrace_record itr;
	struct aux_producer *p;
	int finishes;
};

static int finish_itr__read_finish(struct auxtrace_record *itr, int idx)
{
	struct finish_itr *t = container_of(itr, struct finish_itr, itr);

	ck_assert_int_eq(idx, 0);
	t->finishes++;
	aux_producer__enable(t->p);
	return 0;
}

/* The whole evlist path with the producer behind the AUX mmap step. */
START_TEST(test_producer_through_evlist)
{
	bool per_thread = _i == 1;
	struct aux_producer *p = aux_producer__new(&(struct aux_producer_config){ 0 });
	struct aux_producer_run run = { .fill = aux_stream__fill, .chunk = 5000, .vary = true,
					.limit = 4 << 20 };
	struct finish_itr t = { .itr.read_finish = finish_itr__read_finish, .p = p };
	struct stream_check sc = { .cpu = per_thread ? -1 : 0,
				   .tid = per_thread ? getpid() : -1 };
	size_t cap = 8 << 20;
	unsigned char *out = malloc(cap);
	struct ring_sink_memory mem;
	struct auxtrace_mmaps *aux;
	struct ring_stats st;
	struct evlist *evlist;
	ssize_t n;

	if (!per_thread)
		TEST_REQUIRE_ROOT();
	ck_assert_ptr_nonnull(out);
	evlist = evlist_open(per_thread ? "" : "0", aux_like_evsel(), false);
	aux = auxtrace_mmaps__new(evlist, &t.itr, AUX_PAGES, false);
	aux_producer__route_mmaps(p, aux);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)), 0);
	ck_assert_ptr_nonnull(auxtrace_mmaps__at(aux, 0));
	ck_assert_int_eq(aux_producer__nr_maps(p), 1);
	/* The AUX area sits right after the kernel's data ring. */
	ck_assert_uint_eq(perf_mmap__userpg(evlist__mmap_at(evlist, 0))->aux_offset,
			  evlist__mmap_len(evlist));
	ck_assert_uint_eq(aux_producer__len(p), AUX_PAGES * PAGE);

	ring_sink_memory__init(&mem, out, cap);
	ck_assert_int_eq(aux_producer__start(p, &run), 0);
	do {
		n = auxtrace_mmaps__read(aux, &mem.sink);
		ck_assert_int_ge(n, 0);
		if (!n)
			sched_yield();
	} while (n || aux_producer__head(p) < run.limit ||
		 auxtrace_mmap__prev(auxtrace_mmaps__at(aux, 0)) < run.limit);
	ck_assert_uint_eq(aux_producer__stop(p), run.limit);
	ck_assert_int_gt(aux_frames__walk(out, mem.used, stream_check__frame, &sc), 0);
	ck_assert(!sc.bad);
	ck_assert_uint_eq(sc.next, run.limit);
	ck_assert_int_gt(t.finishes, 0);
	ck_assert_int_eq(auxtrace_mmaps__stats(aux, 0, &st), 0);
	ck_assert_uint_eq(st.bytes, mem.used);
	ck_assert_uint_eq(st.overruns, 0);
	ck_assert_int_eq(auxtrace_mmaps__stats(aux, 7, &st), -ENOENT);

	evlist__munmap(evlist);
	ck_assert_int_eq(aux_producer__nr_maps(p), 0);	/* the munmap hook ran */
	ck_assert_ptr_null(auxtrace_mmaps__at(aux, 0));
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
	free(out);
}
END_TEST

/* A side-band dummy owns the ring of a CPU the AUX event does not cover: no AUX there. */
START_TEST(test_sideband_idx_has_no_aux_area)
{
	struct aux_producer *p = aux_producer__new(&(struct aux_producer_config){ 0 });
	struct perf_cpu_map *cpu0 = perf_cpu_map__new("0");
	struct evsel *evsel = aux_like_evsel();
	struct auxtrace_mmaps *aux;
	struct evlist *evlist;
	struct ring_stats st;

	TEST_REQUIRE_ROOT();
	if (testlib_nr_online_cpus() < 2)
		TEST_SKIP("needs 2 online CPUs");
	evsel__set_pmu_cpus(evsel, cpu0);
	perf_cpu_map__put(cpu0);
	evlist = evlist_open("0-1", evsel, true);
	aux = auxtrace_mmaps__new(evlist, NULL, AUX_PAGES, false);
	aux_producer__route_mmaps(p, aux);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)), 0);
	ck_assert_int_eq(auxtrace_mmaps__nr(aux), 2);
	ck_assert_ptr_nonnull(auxtrace_mmaps__at(aux, 0));
	ck_assert_ptr_null(auxtrace_mmaps__at(aux, 1));
	ck_assert_ptr_nonnull(evlist__mmap_at(evlist, 1));
	ck_assert_uint_eq(perf_mmap__userpg(evlist__mmap_at(evlist, 1))->aux_size, 0);
	ck_assert_int_eq(aux_producer__nr_maps(p), 1);
	/* idx 1 has a data ring, so it has statistics too. */
	ck_assert_int_eq(auxtrace_mmaps__stats(aux, 1, &st), 0);
	ck_assert_uint_eq(st.bytes, 0);
	evlist__delete(evlist);
	ck_assert_int_eq(aux_producer__nr_maps(p), 0);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
}
END_TEST

static bool helper_stop;

static void *helper_thread(void *arg)
{
	__atomic_store_n((pid_t *)arg, (pid_t)gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&helper_stop, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

/*
 * A CPU's ring shared by two threads: the params say tid 0, the records say what perf 6.1
 * writes there, the first thread of the map (its decoders find the process by it).
 */
START_TEST(test_per_cpu_threads_record_first_tid)
{
	struct aux_producer *p = aux_producer__new(&(struct aux_producer_config){ 0 });
	unsigned char payload[100], out[4096];
	pid_t tids[2] = { getpid(), 0 };
	struct stream_check sc = { .cpu = 0, .tid = getpid() };
	struct perf_thread_map *threads;
	struct perf_cpu_map *cpus;
	struct ring_sink_memory mem;
	struct auxtrace_mmaps *aux;
	struct evlist *evlist;
	pthread_t helper;

	TEST_REQUIRE_ROOT();
	helper_stop = false;
	ck_assert_int_eq(pthread_create(&helper, NULL, helper_thread, &tids[1]), 0);
	while (!__atomic_load_n(&tids[1], __ATOMIC_ACQUIRE))
		usleep(100);
	cpus = perf_cpu_map__new("0");
	threads = perf_thread_map__new_array(2, tids);
	evlist = evlist_open_maps(cpus, threads, aux_like_evsel(), false);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	aux = auxtrace_mmaps__new(evlist, NULL, AUX_PAGES, false);
	aux_producer__route_mmaps(p, aux);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)), 0);
	ck_assert_int_eq(auxtrace_mmaps__nr(aux), 1);
	ck_assert_int_eq(auxtrace_mmap__tid(auxtrace_mmaps__at(aux, 0)), getpid());

	aux_stream__fill(NULL, 0, payload, sizeof(payload));
	ck_assert_uint_eq(aux_producer__write(p, payload, sizeof(payload)), sizeof(payload));
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_gt(auxtrace_mmaps__read(aux, &mem.sink), 0);
	ck_assert_int_eq(aux_frames__walk(out, mem.used, stream_check__frame, &sc), 1);
	ck_assert(!sc.bad);
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
	__atomic_store_n(&helper_stop, true, __ATOMIC_RELEASE);
	pthread_join(helper, NULL);
}
END_TEST

/* Snapshot mode: read-only AUX areas, read by snapshot only. */
START_TEST(test_overwrite_session)
{
	struct aux_producer *p = aux_producer__new(&(struct aux_producer_config){ 0 });
	unsigned char payload[3000], out[8192];
	struct ring_sink_memory mem;
	struct stream_check sc = { .cpu = -1, .tid = getpid() };
	struct auxtrace_mmaps *aux;
	struct evlist *evlist;

	evlist = evlist_open("", aux_like_evsel(), false);
	aux = auxtrace_mmaps__new(evlist, NULL, AUX_PAGES, true);
	aux_producer__route_mmaps(p, aux);
	ck_assert_int_eq(evlist__mmap_ex(evlist, DATA_PAGES, auxtrace_mmaps__hooks(aux)), 0);
	ck_assert(aux_producer__overwrite(p));
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(auxtrace_mmaps__read(aux, &mem.sink), -EINVAL);
	aux_stream__fill(NULL, 0, payload, sizeof(payload));
	ck_assert_uint_eq(aux_producer__write(p, payload, sizeof(payload)), sizeof(payload));
	ck_assert_int_eq(auxtrace_mmaps__read_snapshot(aux, &mem.sink, 1000),
			 sizeof(struct perf_record_auxtrace) + 1000);
	sc.next = 2000;		/* the newest 1000 bytes */
	ck_assert_int_eq(aux_frames__walk(out, mem.used, stream_check__frame, &sc), 1);
	ck_assert(!sc.bad);
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
}
END_TEST

static Suite *auxtrace_evlist_suite(void)
{
	Suite *s = suite_create("auxtrace-evlist");
	TCase *tc = tcase_create("evlist");

	tcase_add_loop_test(tc, test_eopnotsupp_names_the_pmu, 0, 2);
	tcase_add_test(tc, test_zero_aux_pages_maps_rings_only);
	tcase_add_test(tc, test_eperm_gives_the_budget);
	tcase_add_loop_test(tc, test_producer_through_evlist, 0, 2);
	tcase_add_test(tc, test_sideband_idx_has_no_aux_area);
	tcase_add_test(tc, test_per_cpu_threads_record_first_tid);
	tcase_add_test(tc, test_overwrite_session);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return testlib_run(auxtrace_evlist_suite());
}
