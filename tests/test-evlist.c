// SPDX-License-Identifier: LGPL-2.1
/*
 * evlist on a real kernel: map propagation, the mmap driver per thread and per CPU with
 * SET_OUTPUT sharing, sample IDs back to their evsel, backward rings, hooks, the error paths
 * of mmap, and which ring fds a ring set watches as bound to a task.
 *
 * Syscall tracepoints with sample_period 1 make exact counts: getpgid and getsid, which no
 * other test or benchmark of the project attaches BPF to (a BPF program on a tracepoint that
 * returns 0 silences every perf event there, system-wide).
 */
#include <errno.h>
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/ring-set.h>
#include "lib/fake-sysfs.h"
#include "lib/perf-testlib.h"
#include "lib/log-capture.h"
#include "lib/testlib.h"
#include "lib/unprivileged.h"

#define PAGE ((size_t)sysconf(_SC_PAGESIZE))

/* How many debug lines of the captured log are exactly this one. */
static int log_lines(const char *fmt, ...)
{
	char line[128];
	const char *p = log_text;
	va_list ap;
	int n = 0;

	line[0] = 'D';
	va_start(ap, fmt);
	vsnprintf(line + 1, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	while ((p = strstr(p, line)) != NULL) {
		n += (p == log_text || p[-1] == '\n') && p[strlen(line)] == '\n';
		p++;
	}
	return n;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_CPU)

struct sample {
	struct perf_event_header header;
	uint64_t id;
	uint32_t pid, tid;
	uint32_t cpu, res;
};

static struct evsel *tp_evsel(const char *event, bool backward)
{
	struct evsel *evsel = testlib_tracepoint_evsel("syscalls", event, SAMPLE_TYPE, backward);

	if (evsel)
		ck_assert_int_eq(evsel__set_name(evsel, event), 0);
	return evsel;
}

#define TP_EVSEL(var, event, backward)						\
	do {									\
		TEST_REQUIRE_ROOT();						\
		var = tp_evsel(event, backward);				\
		if (!var)							\
			TEST_SKIP("no syscalls:" event " tracepoint in tracefs"); \
	} while (0)

static struct evsel *sw_evsel(uint64_t config)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .config = config,
					.disabled = 1 };
	struct evsel *evsel = evsel__new(&attr);

	ck_assert_ptr_nonnull(evsel);
	return evsel;
}

static void calls(long nr, int n)
{
	while (n--)
		syscall(nr, 0);
}

/* Visit every sample of a ring with libperf's loop; returns the number of samples. */
static int for_each_sample(struct perf_mmap *map, void (*fn)(const struct sample *, void *),
			   void *ctx)
{
	union perf_event *ev;
	int n = 0;

	if (perf_mmap__read_init(map) < 0)
		return 0;
	while ((ev = perf_mmap__read_event(map)) != NULL) {
		if (ev->header.type == PERF_RECORD_SAMPLE) {
			ck_assert_uint_eq(ev->header.size, sizeof(struct sample));
			if (fn)
				fn((const struct sample *)ev, ctx);
			n++;
		}
		perf_mmap__consume(map);
	}
	perf_mmap__read_done(map);
	return n;
}

static struct perf_thread_map *self_thread(void)
{
	return perf_thread_map__new_tid(gettid_());
}

static struct perf_cpu_map *cpus_of(int nr, const int *cpus)
{
	struct perf_cpu_map *map = perf_cpu_map__new_array(nr, cpus);

	ck_assert_ptr_nonnull(map);
	return map;
}

START_TEST(test_order_add_remove_front)
{
	struct evlist *evlist = evlist__new();
	struct evsel *a = sw_evsel(PERF_COUNT_SW_DUMMY), *b = sw_evsel(PERF_COUNT_SW_CPU_CLOCK);
	struct evsel *c = sw_evsel(PERF_COUNT_SW_TASK_CLOCK), *e;
	int i = 0;

	ck_assert_ptr_nonnull(evlist);
	ck_assert_ptr_null(evlist__first(evlist));
	evlist__add(evlist, a);
	evlist__add(evlist, b);
	evlist__add(evlist, c);
	ck_assert_int_eq(evlist__nr_entries(evlist), 3);
	evlist__move_to_front(evlist, c);
	evlist__for_each_entry(evlist, e) {
		ck_assert_int_eq(evsel__idx(e), i);
		ck_assert_ptr_eq(e, i == 0 ? c : i == 1 ? a : b);
		i++;
	}
	evlist__remove(evlist, a);
	ck_assert_int_eq(evsel__idx(a), -1);
	ck_assert_int_eq(evlist__nr_entries(evlist), 2);
	ck_assert_ptr_eq(evlist__first(evlist), c);
	ck_assert_ptr_eq(evlist__next(evlist, c), b);
	ck_assert_int_eq(evsel__idx(b), 1);
	ck_assert_ptr_null(evlist__next(evlist, b));
	evsel__delete(a);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_set_maps_propagation)
{
	struct evlist *evlist = evlist__new();
	struct evsel *plain = sw_evsel(PERF_COUNT_SW_CPU_CLOCK);
	struct evsel *on1 = sw_evsel(PERF_COUNT_SW_CPU_CLOCK);
	struct evsel *side = sw_evsel(PERF_COUNT_SW_DUMMY);
	struct evsel *uncore = sw_evsel(PERF_COUNT_SW_CPU_CLOCK), *late;
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	struct perf_cpu_map *cpu0 = cpus_of(1, (int[]){ 0 }), *cpu1 = cpus_of(1, (int[]){ 1 });
	struct perf_cpu_map *both = cpus_of(2, (int[]){ 0, 1 });
	struct perf_thread_map *self = self_thread();
	char buf[64];

	if (perf_cpu_map__nr(online) < 2)
		TEST_SKIP("needs two online CPUs");
	evsel__set_pmu_cpus(on1, cpu1);
	ck_assert_ptr_eq(evsel__pmu_cpus(on1), cpu1);
	evsel__set_system_wide(side, true);
	evsel__set_pmu_cpus(uncore, cpu0);
	evsel__set_requires_cpu(uncore, true);
	evlist__add(evlist, plain);
	evlist__add(evlist, on1);
	evlist__add(evlist, side);
	evlist__add(evlist, uncore);

	/* Any CPU: per-thread, except what must have a CPU. */
	ck_assert_int_eq(evlist__set_maps(evlist, NULL, self), 0);
	ck_assert(perf_cpu_map__has_any_cpu(evsel__cpus(plain)));
	ck_assert(perf_cpu_map__has_any_cpu(evsel__cpus(on1)));
	ck_assert(perf_cpu_map__equal(evsel__cpus(side), online));
	ck_assert_int_eq(perf_thread_map__pid(evsel__threads(side), 0), -1);
	ck_assert_ptr_eq(evsel__threads(plain), self);
	ck_assert(perf_cpu_map__equal(evsel__cpus(uncore), cpu0));
	perf_cpu_map__snprint(evlist__all_cpus(evlist), buf, sizeof(buf));
	ck_assert_int_eq(perf_cpu_map__nr(evlist__all_cpus(evlist)),
			 1 + perf_cpu_map__nr(online));
	ck_assert(perf_cpu_map__has_any_cpu(evlist__all_cpus(evlist)));
	ck_assert(evlist__per_thread(evlist));
	ck_assert_ptr_eq(evlist__threads(evlist), self);

	/*
	 * CPU 0 asked for: intersected with the PMUs; on1 has no CPU left and leaves the list,
	 * still the evlist's (freed by evlist__delete: the sanitizer run checks that).
	 */
	log_capture_start();
	ck_assert_int_eq(evlist__set_maps(evlist, cpu0, self), 0);
	ck_assert_ptr_eq(evlist__user_cpus(evlist), cpu0);
	ck_assert_int_eq(evlist__nr_entries(evlist), 3);
	ck_assert_msg(log_captured("counts on CPUs 1 only, none of them in the requested CPUs 0"),
		      "log: %s", log_text);
	ck_assert_int_eq(evsel__idx(on1), -1);
	ck_assert_ptr_eq(evlist__next(evlist, plain), side);
	ck_assert_int_eq(evsel__idx(side), 1);
	ck_assert_int_eq(evsel__idx(uncore), 2);
	ck_assert(perf_cpu_map__equal(evsel__cpus(plain), cpu0));
	ck_assert(perf_cpu_map__equal(evsel__cpus(side), online));
	ck_assert(perf_cpu_map__equal(evsel__cpus(uncore), cpu0));
	ck_assert(perf_cpu_map__equal(evlist__all_cpus(evlist), online));
	ck_assert(!evlist__per_thread(evlist));

	/* Added afterwards: propagated on add. */
	late = sw_evsel(PERF_COUNT_SW_TASK_CLOCK);
	evsel__set_pmu_cpus(late, both);
	ck_assert_int_eq(evlist__add(evlist, late), 0);
	ck_assert(perf_cpu_map__equal(evsel__cpus(late), cpu0));
	ck_assert_ptr_eq(evsel__threads(late), self);
	ck_assert_int_eq(evsel__idx(late), 3);

	evlist__delete(evlist);
	perf_cpu_map__put(online);
	perf_cpu_map__put(cpu0);
	perf_cpu_map__put(cpu1);
	perf_cpu_map__put(both);
	perf_thread_map__put(self);
}
END_TEST

/*
 * Dropped when added after set_maps: owned by the evlist, out of the list, handed back by
 * evlist__remove. A group member whose leader was dropped fails to open with a message,
 * without touching freed memory.
 */
START_TEST(test_dropped_evsel_stays_valid)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *cpu0 = cpus_of(1, (int[]){ 0 }), *cpu1 = cpus_of(1, (int[]){ 1 });
	struct evsel *plain = sw_evsel(PERF_COUNT_SW_CPU_CLOCK);
	struct evsel *leader = sw_evsel(PERF_COUNT_SW_CPU_CLOCK);
	struct evsel *member = sw_evsel(PERF_COUNT_SW_TASK_CLOCK);
	struct evsel *other = sw_evsel(PERF_COUNT_SW_DUMMY);

	TEST_REQUIRE_ROOT();
	ck_assert_int_eq(evlist__set_maps(evlist, cpu0, NULL), 0);
	ck_assert_int_eq(evlist__add(evlist, plain), 0);
	evsel__set_pmu_cpus(leader, cpu1);
	evsel__set_leader(member, leader);
	log_capture_start();
	ck_assert_int_eq(evlist__add(evlist, leader), 0);
	ck_assert_msg(log_captured("dropped"), "log: %s", log_text);
	ck_assert_int_eq(evsel__idx(leader), -1);
	ck_assert_int_eq(evlist__add(evlist, member), 0);
	ck_assert_int_eq(evsel__idx(member), 1);
	ck_assert_int_eq(evlist__nr_entries(evlist), 2);
	ck_assert(perf_cpu_map__equal(evlist__all_cpus(evlist), cpu0));
	log_capture_start();
	ck_assert_int_eq(evlist__open(evlist), -ENOTCONN);
	ck_assert_msg(log_captured("cpu-clock is not open"), "log: %s", log_text);
	ck_assert(!evsel__is_open(plain));

	/* Handed back, it is the caller's to free; another dropped one stays the evlist's. */
	evsel__set_pmu_cpus(other, cpu1);
	ck_assert_int_eq(evlist__add(evlist, other), 0);
	ck_assert_int_eq(evsel__idx(other), -1);
	evlist__remove(evlist, member);
	evsel__delete(member);
	evlist__remove(evlist, leader);
	evsel__delete(leader);
	ck_assert_int_eq(evlist__open(evlist), 0);
	evlist__delete(evlist);
	perf_cpu_map__put(cpu0);
	perf_cpu_map__put(cpu1);
}
END_TEST

/* parse_events after set_maps: an event no requested CPU can count is dropped, not fatal. */
START_TEST(test_parse_events_after_set_maps)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *cpu0 = cpus_of(1, (int[]){ 0 });
	struct fake_sysfs fs;

	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
	AUXTRACE_OPTS(parse_events_opts, opts, .sysfs_root = fs.root);
	ck_assert_int_eq(evlist__set_maps(evlist, cpu0, NULL), 0);
	log_capture_start();
	/* arm_spe_0 counts on CPUs 2-3 of the fake machine */
	ck_assert_int_eq(parse_events(evlist, "cpu-clock,arm_spe_0/ts_enable/,dummy", &opts, NULL),
			 0);
	ck_assert_msg(log_captured("arm_spe_0/ts_enable/ dropped"), "log: %s", log_text);
	ck_assert_int_eq(evlist__nr_entries(evlist), 2);
	ck_assert_str_eq(evsel__name(evlist__first(evlist)), "cpu-clock");
	ck_assert_str_eq(evsel__name(evlist__next(evlist, evlist__first(evlist))), "dummy");
	evlist__delete(evlist);
	perf_cpu_map__put(cpu0);
	fake_sysfs__remove(&fs);
}
END_TEST

START_TEST(test_open_needs_maps)
{
	struct evlist *evlist = evlist__new();

	evlist__add(evlist, sw_evsel(PERF_COUNT_SW_TASK_CLOCK));
	log_capture_start();
	ck_assert_int_eq(evlist__open(evlist), -EINVAL);
	ck_assert_msg(log_captured("evlist__set_maps"), "log: %s", log_text);
	evlist__delete(evlist);
}
END_TEST

/* A child that waits for a byte on a pipe, makes n getpgid calls and exits. */
struct child {
	pid_t pid;
	int go;
};

static void child_start(struct child *c, int n)
{
	int p[2];
	char b;

	ck_assert_int_eq(pipe(p), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			_exit(1);
		calls(SYS_getpgid, n);
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
}

static void child_run(struct child *c)
{
	int status;

	ck_assert_int_eq(write(c->go, "g", 1), 1);
	close(c->go);
	ck_assert_int_eq(waitpid(c->pid, &status, 0), c->pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Task-bound fds a ring set watches for the mapped evlist (nr_alive), or the add's -errno. */
static int ring_set_nr_alive(struct evlist *evlist)
{
	struct ring_set *set = ring_set__new(NULL);
	struct ring_sink_memory mem;
	char out[16];
	int err;

	ck_assert_ptr_nonnull(set);
	ring_sink_memory__init(&mem, out, sizeof(out));
	err = evlist__add_to_ring_set(evlist, set, &mem.sink);
	if (!err)
		err = ring_set__nr_alive(set);
	ring_set__delete(set);
	return err;
}

START_TEST(test_mmap_thread_exact_and_hangup)
{
	struct evlist *evlist = evlist__new();
	struct perf_thread_map *threads;
	struct perf_cpu_map *any = perf_cpu_map__new_any_cpu();
	struct evsel *evsel;
	struct perf_mmap *map;
	struct child child;

	TP_EVSEL(evsel, "sys_enter_getpgid", false);
	child_start(&child, 100);
	threads = perf_thread_map__new_tid(child.pid);
	evlist__add(evlist, evsel);
	ck_assert_int_eq(evlist__set_maps(evlist, any, threads), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 1);
	ck_assert_int_eq(log_lines("idx 0: mmapping fd %d", evsel__fd(evsel, 0, 0)), 1);
	ck_assert_uint_eq(evlist__mmap_len(evlist), 5 * PAGE);
	map = evlist__mmap_at(evlist, 0);
	ck_assert_ptr_nonnull(map);
	ck_assert_ptr_null(evlist__mmap_at(evlist, 1));
	ck_assert_ptr_null(evlist__mmap_ovw_at(evlist, 0));
	ck_assert_int_eq(perf_mmap__cpu(map).cpu, -1);
	ck_assert_int_eq(ring_set_nr_alive(evlist), 1);	/* its fd hangs up when it exits */
	ck_assert_int_eq(evlist__enable(evlist), 0);
	child_run(&child);
	/* The task is gone (test-ring-set sees its fd hang up): its ring keeps the data. */
	ck_assert_int_eq(for_each_sample(map, NULL, NULL), 100);
	ck_assert_uint_eq(perf_mmap__stats(map)->lost, 0);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
	perf_cpu_map__put(any);
}
END_TEST

static void sample_on_ring_cpu(const struct sample *s, void *ctx)
{
	int *counts = ctx;

	if ((pid_t)s->pid == getpid())
		counts[s->cpu]++;
}

START_TEST(test_mmap_cpus_exact_per_cpu)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	int nr = perf_cpu_map__nr(online), i, counts[1024];
	struct evsel *evsel;
	cpu_set_t saved;

	TP_EVSEL(evsel, "sys_enter_getpgid", false);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(saved), &saved), 0);
	evlist__add(evlist, evsel);
	ck_assert_int_eq(evlist__set_maps(evlist, online, NULL), 0);
	ck_assert(!evlist__per_thread(evlist));
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), nr);
	ck_assert_int_eq(evlist__enable(evlist), 0);
	for (i = 0; i < nr; i++) {
		ck_assert_int_eq(testlib_pin_cpu(perf_cpu_map__cpu(online, i).cpu), 0);
		calls(SYS_getpgid, 10 + i);
	}
	ck_assert_int_eq(sched_setaffinity(0, sizeof(saved), &saved), 0);
	ck_assert_int_eq(evlist__disable(evlist), 0);
	for (i = 0; i < nr; i++) {
		struct perf_mmap *map = evlist__mmap_at(evlist, i);
		int cpu = perf_cpu_map__cpu(online, i).cpu;

		ck_assert_int_eq(log_lines("idx %d: mmapping fd %d", i, evsel__fd(evsel, i, 0)), 1);
		ck_assert_int_eq(perf_mmap__cpu(map).cpu, cpu);
		memset(counts, 0, sizeof(counts));
		for_each_sample(map, sample_on_ring_cpu, counts);
		/* What this CPU produced, all of it in this CPU's ring. */
		ck_assert_int_eq(counts[cpu], 10 + i);
		for (int c = 0; c < nr; c++)
			ck_assert_int_eq(counts[perf_cpu_map__cpu(online, c).cpu], c == i ? 10 + i : 0);
	}
	evlist__delete(evlist);
	perf_cpu_map__put(online);
}
END_TEST

struct id_tally {
	const struct evlist *evlist;
	struct evsel *a, *b;
	int na, nb, idx;
	int cpu;
	pid_t tid;
};

static void sample_by_id(const struct sample *s, void *ctx)
{
	struct id_tally *t = ctx;
	struct evlist_sample_id where;

	if ((pid_t)s->pid != getpid())
		return;
	ck_assert_int_eq(evlist__id_lookup(t->evlist, s->id, &where), 0);
	ck_assert_int_eq(where.idx, t->idx);
	ck_assert_int_eq(where.tid, t->tid);
	ck_assert_int_eq(where.cpu.cpu, t->cpu);
	if (where.evsel == t->a)
		t->na++;
	else if (where.evsel == t->b)
		t->nb++;
	else
		ck_abort_msg("sample id %llu maps to neither evsel", (unsigned long long)s->id);
}

/* perf's mmap-basic: two tracepoints, one ring through SET_OUTPUT, every ID maps back. */
START_TEST(test_shared_ring_ids_map_back)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *any = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *self = self_thread();
	struct evlist_sample_id where;
	struct id_tally t = { .evlist = evlist, .cpu = -1, .tid = gettid_() };
	int fa, fb;

	TP_EVSEL(t.a, "sys_enter_getpgid", false);
	TP_EVSEL(t.b, "sys_enter_getsid", false);
	evlist__add(evlist, t.a);
	evlist__add(evlist, t.b);
	ck_assert_int_eq(evlist__set_maps(evlist, any, self), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 8), 0);
	fa = evsel__fd(t.a, 0, 0);
	fb = evsel__fd(t.b, 0, 0);
	ck_assert_int_eq(log_lines("idx 0: mmapping fd %d", fa), 1);
	ck_assert_int_eq(log_lines("idx 0: set output fd %d -> %d", fb, fa), 1);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 1);
	ck_assert_int_eq(evlist__enable(evlist), 0);
	calls(SYS_getpgid, 37);
	calls(SYS_getsid, 91);
	calls(SYS_getpgid, 4);
	ck_assert_int_eq(evlist__disable(evlist), 0);
	ck_assert_int_eq(for_each_sample(evlist__mmap_at(evlist, 0), sample_by_id, &t), 132);
	ck_assert_int_eq(t.na, 41);
	ck_assert_int_eq(t.nb, 91);
	ck_assert_int_eq(evlist__id_lookup(evlist, 0xdeadbeefcafeull, &where), -ENOENT);
	/* Unmapped, the IDs no longer name a ring. */
	evlist__munmap(evlist);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 0);
	ck_assert_ptr_null(evlist__mmap_at(evlist, 0));
	evlist__delete(evlist);
	perf_cpu_map__put(any);
	perf_thread_map__put(self);
}
END_TEST

/*
 * Per-thread session plus a system-wide evsel: idx 0 is the thread's ring, then one idx
 * per CPU of the system-wide evsel, each owned by its fd on that CPU.
 */
START_TEST(test_per_thread_with_system_wide_extra_idx)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *any = perf_cpu_map__new_any_cpu();
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	struct perf_thread_map *self = self_thread();
	struct id_tally t = { .evlist = evlist, .cpu = -1, .tid = gettid_() };
	int nr = perf_cpu_map__nr(online), i;
	cpu_set_t saved;

	TP_EVSEL(t.a, "sys_enter_getpgid", false);
	TP_EVSEL(t.b, "sys_enter_getsid", false);
	evsel__set_system_wide(t.b, true);
	evlist__add(evlist, t.a);
	evlist__add(evlist, t.b);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(saved), &saved), 0);
	ck_assert_int_eq(evlist__set_maps(evlist, any, self), 0);
	ck_assert(evlist__per_thread(evlist));
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 1 + nr);
	ck_assert_int_eq(log_lines("idx 0: mmapping fd %d", evsel__fd(t.a, 0, 0)), 1);
	for (i = 0; i < nr; i++) {
		ck_assert_int_eq(log_lines("idx %d: mmapping fd %d", 1 + i, evsel__fd(t.b, i, 0)), 1);
		ck_assert_int_eq(perf_mmap__cpu(evlist__mmap_at(evlist, 1 + i)).cpu,
				 perf_cpu_map__cpu(online, i).cpu);
	}
	ck_assert_msg(!log_captured("set output"), "log: %s", log_text);
	ck_assert_int_eq(evlist__enable(evlist), 0);
	calls(SYS_getpgid, 5);
	for (i = 0; i < nr; i++) {
		ck_assert_int_eq(testlib_pin_cpu(perf_cpu_map__cpu(online, i).cpu), 0);
		calls(SYS_getsid, 3 + i);
	}
	ck_assert_int_eq(sched_setaffinity(0, sizeof(saved), &saved), 0);
	ck_assert_int_eq(evlist__disable(evlist), 0);
	for_each_sample(evlist__mmap_at(evlist, 0), sample_by_id, &t);
	ck_assert_int_eq(t.na, 5);
	ck_assert_int_eq(t.nb, 0);
	for (i = 0; i < nr; i++) {
		struct id_tally u = { .evlist = evlist, .a = t.a, .b = t.b, .idx = 1 + i,
				      .cpu = perf_cpu_map__cpu(online, i).cpu, .tid = -1 };

		for_each_sample(evlist__mmap_at(evlist, 1 + i), sample_by_id, &u);
		ck_assert_int_eq(u.na, 0);
		ck_assert_int_eq(u.nb, 3 + i);
	}
	evlist__delete(evlist);
	perf_cpu_map__put(any);
	perf_cpu_map__put(online);
	perf_thread_map__put(self);
}
END_TEST

/* perf record's layout: threads that run on given CPUs and make exact calls on cue. */
#define LAYOUT_THREADS 3

struct layout_thread {
	pthread_t th;
	pid_t tid;
	int k;
	pthread_barrier_t *barrier;
	const struct perf_cpu_map *cpus;
};

/* Thread k makes 2 + 3k + i getpgid calls on the i-th CPU: each (thread, CPU) its own count. */
static int layout_calls(int k, int i)
{
	return 2 + 3 * k + i;
}

static void layout_thread__calls(struct layout_thread *w)
{
	for (int i = 0; i < perf_cpu_map__nr(w->cpus); i++) {
		ck_assert_int_eq(testlib_pin_cpu(perf_cpu_map__cpu(w->cpus, i).cpu), 0);
		calls(SYS_getpgid, layout_calls(w->k, i));
	}
}

/* Known (its tid), then on cue its calls, then done: one barrier wait for each. */
static void *layout_thread__run(void *arg)
{
	struct layout_thread *w = arg;

	w->tid = gettid_();
	pthread_barrier_wait(w->barrier);
	pthread_barrier_wait(w->barrier);
	layout_thread__calls(w);
	pthread_barrier_wait(w->barrier);
	return NULL;
}

struct layout_tally {
	const struct evlist *evlist;
	struct evsel *task, *side;
	const struct layout_thread *w;
	int idx, cpu;
	int task_calls[LAYOUT_THREADS], side_calls;
};

static void layout_sample(const struct sample *s, void *ctx)
{
	struct layout_tally *t = ctx;
	struct evlist_sample_id where;
	int k;

	if ((pid_t)s->pid != getpid())
		return;
	ck_assert_int_eq(evlist__id_lookup(t->evlist, s->id, &where), 0);
	ck_assert_int_eq(where.idx, t->idx);
	ck_assert_int_eq(where.cpu.cpu, t->cpu);
	ck_assert_int_eq((int)s->cpu, t->cpu);
	if (where.evsel == t->side) {
		ck_assert_int_eq(where.tid, -1);	/* the CPU-wide fd */
		t->side_calls++;
		return;
	}
	ck_assert_ptr_eq(where.evsel, t->task);
	ck_assert_int_eq(where.tid, (pid_t)s->tid);	/* the fd of the thread that called */
	for (k = 0; k < LAYOUT_THREADS && t->w[k].tid != where.tid; k++)
		;
	ck_assert_int_lt(k, LAYOUT_THREADS);
	t->task_calls[k]++;
}

/*
 * perf record's own layout: a per-CPU session of a process with several threads (every
 * thread's fd on every CPU) plus a system-wide side-band evsel (one CPU-wide fd per CPU).
 * Each CPU's ring is owned by the first thread's fd and takes every other fd of that CPU;
 * each sample lands in the ring of the CPU it happened on and maps back to its fd.
 */
START_TEST(test_per_cpu_threads_with_system_wide)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	struct perf_thread_map *threads;
	struct layout_thread w[LAYOUT_THREADS];
	pthread_barrier_t barrier;
	struct evsel *task, *side;
	int nr = perf_cpu_map__nr(online), i, k;
	cpu_set_t saved;

	TP_EVSEL(task, "sys_enter_getpgid", false);
	TP_EVSEL(side, "sys_enter_getsid", false);
	evsel__set_system_wide(side, true);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(saved), &saved), 0);
	ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, LAYOUT_THREADS), 0);
	for (k = 0; k < LAYOUT_THREADS; k++) {
		w[k] = (struct layout_thread){ .k = k, .barrier = &barrier, .cpus = online };
		if (k)
			ck_assert_int_eq(pthread_create(&w[k].th, NULL, layout_thread__run, &w[k]), 0);
	}
	w[0].tid = gettid_();
	pthread_barrier_wait(&barrier);			/* every tid known */
	threads = perf_thread_map__new_pid(getpid());	/* perf record -p: all of them */
	ck_assert_ptr_nonnull(threads);
	ck_assert_int_eq(perf_thread_map__nr(threads), LAYOUT_THREADS);

	evlist__add(evlist, task);
	evlist__add(evlist, side);
	ck_assert_int_eq(evlist__set_maps(evlist, online, threads), 0);
	ck_assert(!evlist__per_thread(evlist));
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	log_capture_stop();
	ck_assert_int_eq(evlist__nr_mmaps(evlist), nr);
	for (i = 0; i < nr; i++) {
		int owner = evsel__fd(task, i, 0);

		ck_assert_int_eq(log_lines("idx %d: mmapping fd %d", i, owner), 1);
		for (int t = 1; t < LAYOUT_THREADS; t++)
			ck_assert_int_eq(log_lines("idx %d: set output fd %d -> %d", i,
						   evsel__fd(task, i, t), owner), 1);
		ck_assert_int_eq(log_lines("idx %d: set output fd %d -> %d", i,
					   evsel__fd(side, i, 0), owner), 1);
		ck_assert_int_eq(perf_mmap__cpu(evlist__mmap_at(evlist, i)).cpu,
				 perf_cpu_map__cpu(online, i).cpu);
	}
	/* Every thread's fd can hang up; the side-band's CPU-wide fds never do. */
	ck_assert_int_eq(ring_set_nr_alive(evlist), nr * LAYOUT_THREADS);

	ck_assert_int_eq(evlist__enable(evlist), 0);
	pthread_barrier_wait(&barrier);			/* go */
	layout_thread__calls(&w[0]);
	for (i = 0; i < nr; i++) {
		ck_assert_int_eq(testlib_pin_cpu(perf_cpu_map__cpu(online, i).cpu), 0);
		calls(SYS_getsid, 7 + i);
	}
	pthread_barrier_wait(&barrier);			/* every call made */
	ck_assert_int_eq(evlist__disable(evlist), 0);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(saved), &saved), 0);
	for (k = 1; k < LAYOUT_THREADS; k++)
		ck_assert_int_eq(pthread_join(w[k].th, NULL), 0);

	for (i = 0; i < nr; i++) {
		struct layout_tally t = { .evlist = evlist, .task = task, .side = side, .w = w,
					  .idx = i, .cpu = perf_cpu_map__cpu(online, i).cpu };

		for_each_sample(evlist__mmap_at(evlist, i), layout_sample, &t);
		for (k = 0; k < LAYOUT_THREADS; k++)
			ck_assert_msg(t.task_calls[k] == layout_calls(k, i),
				      "CPU %d, thread %d: %d samples, want %d", t.cpu, k,
				      t.task_calls[k], layout_calls(k, i));
		ck_assert_int_eq(t.side_calls, 7 + i);
	}
	pthread_barrier_destroy(&barrier);
	evlist__delete(evlist);
	perf_cpu_map__put(online);
	perf_thread_map__put(threads);
}
END_TEST

START_TEST(test_backward_ring_of_its_own)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *any = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *self = self_thread();
	struct perf_mmap *fwd, *bwd;
	struct evsel *f, *b;

	TP_EVSEL(f, "sys_enter_getpgid", false);
	TP_EVSEL(b, "sys_enter_getpgid", true);
	evlist__add(evlist, f);
	evlist__add(evlist, b);
	ck_assert_int_eq(evlist__set_maps(evlist, any, self), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	ck_assert_int_eq(log_lines("idx 0: mmapping fd %d", evsel__fd(f, 0, 0)), 1);
	ck_assert_int_eq(log_lines("idx 0: mmapping fd %d", evsel__fd(b, 0, 0)), 1);
	fwd = evlist__mmap_at(evlist, 0);
	bwd = evlist__mmap_ovw_at(evlist, 0);
	ck_assert_int_eq(perf_mmap__fd(fwd), evsel__fd(f, 0, 0));
	ck_assert_int_eq(perf_mmap__fd(bwd), evsel__fd(b, 0, 0));
	ck_assert(!perf_mmap__overwrite(fwd));
	ck_assert(perf_mmap__overwrite(bwd));
	ck_assert_int_eq(evlist__enable(evlist), 0);
	calls(SYS_getpgid, 33);
	ck_assert_int_eq(perf_mmap__pause(bwd, true), 0);
	ck_assert_int_eq(for_each_sample(bwd, NULL, NULL), 33);
	ck_assert_int_eq(for_each_sample(fwd, NULL, NULL), 33);
	evlist__delete(evlist);
	perf_cpu_map__put(any);
	perf_thread_map__put(self);
}
END_TEST

struct hook_log {
	char calls[512];
	struct evsel *owner[64];
	int fail_mmap_at;
};

static int hook_idx(struct evlist *evlist, struct evsel *evsel, int idx, void *ctx)
{
	struct hook_log *h = ctx;
	size_t n = strlen(h->calls);

	/* Before the ring: nothing mapped at idx yet, the ring size is known. */
	ck_assert_ptr_null(evlist__mmap_at(evlist, idx));
	ck_assert_uint_gt(evlist__mmap_len(evlist), 0);
	h->owner[idx] = evsel;
	snprintf(h->calls + n, sizeof(h->calls) - n, "idx%d ", idx);
	return 0;
}

static int hook_mmap(struct evlist *evlist, struct evsel *evsel, struct perf_mmap *map, int idx,
		     void *ctx)
{
	struct hook_log *h = ctx;
	size_t n = strlen(h->calls);

	ck_assert_ptr_eq(evlist__mmap_at(evlist, idx), map);
	ck_assert_ptr_eq(h->owner[idx], evsel);
	ck_assert_int_eq(perf_mmap__fd(map), evsel__fd(evsel, idx, 0));
	snprintf(h->calls + n, sizeof(h->calls) - n, "mmap%d ", idx);
	return idx == h->fail_mmap_at ? -EOPNOTSUPP : 0;
}

static void hook_munmap(struct evlist *evlist, struct perf_mmap *map, int idx, void *ctx)
{
	struct hook_log *h = ctx;
	size_t n = strlen(h->calls);

	ck_assert_ptr_eq(evlist__mmap_at(evlist, idx), map);
	snprintf(h->calls + n, sizeof(h->calls) - n, "munmap%d ", idx);
}

START_TEST(test_hooks_and_failure_unmaps_all)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	struct evsel *a = sw_evsel(PERF_COUNT_SW_DUMMY), *b = sw_evsel(PERF_COUNT_SW_DUMMY);
	struct hook_log h = { .fail_mmap_at = -1 };
	struct evlist_mmap_hooks hooks = {
		.sz = sizeof(hooks),
		.idx = hook_idx, .mmap = hook_mmap, .munmap = hook_munmap, .ctx = &h,
	};

	TEST_REQUIRE_ROOT();
	if (perf_cpu_map__nr(online) < 2)
		TEST_SKIP("needs two online CPUs");
	evlist__add(evlist, a);
	evlist__add(evlist, b);
	evlist__move_to_front(evlist, b);	/* b now owns every ring */
	ck_assert_int_eq(evlist__set_maps(evlist, online, NULL), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);

	ck_assert_int_eq(evlist__mmap_ex(evlist, 1, &hooks), 0);
	ck_assert_str_eq(h.calls, "idx0 mmap0 idx1 mmap1 ");
	ck_assert_ptr_eq(h.owner[0], b);
	ck_assert_ptr_eq(h.owner[1], b);
	h.calls[0] = '\0';
	evlist__munmap(evlist);
	ck_assert_str_eq(h.calls, "munmap0 munmap1 ");

	/* Hooks without their size are refused before anything is mapped. */
	hooks.sz = 0;
	h.calls[0] = '\0';
	ck_assert_int_eq(evlist__mmap_ex(evlist, 1, &hooks), -EINVAL);
	ck_assert_str_eq(h.calls, "");
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 0);
	hooks.sz = sizeof(hooks);

	/* The second idx's hook fails: the first idx is undone, nothing stays mapped. */
	h.calls[0] = '\0';
	h.fail_mmap_at = 1;
	ck_assert_int_eq(evlist__mmap_ex(evlist, 1, &hooks), -EOPNOTSUPP);
	ck_assert_str_eq(h.calls, "idx0 mmap0 idx1 mmap1 munmap0 ");
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 0);
	ck_assert_ptr_null(evlist__mmap_at(evlist, 0));
	log_capture_start();
	ck_assert_int_eq(ring_set_nr_alive(evlist), -ENOENT);	/* no ring fd left over */
	log_capture_stop();
	ck_assert_msg(log_captured("call evlist__mmap first"), "log: %s", log_text);

	/* And the evlist maps again cleanly, its fds redirected anew. */
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 1), 0);
	ck_assert_int_eq(log_lines("idx 1: set output fd %d -> %d", evsel__fd(a, 1, 0),
				   evsel__fd(b, 1, 0)), 1);
	ck_assert_int_eq(ring_set_nr_alive(evlist), 2 * perf_cpu_map__nr(online));
	ck_assert_int_eq(evlist__mmap(evlist, 1), -EBUSY);
	evlist__delete(evlist);
	perf_cpu_map__put(online);
}
END_TEST

START_TEST(test_mmap_pages_and_errors)
{
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *cpu0 = cpus_of(1, (int[]){ 0 });
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_DUMMY);
	unsigned long long kb = 512;
	size_t pages;
	FILE *f;

	TEST_REQUIRE_ROOT();
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), -EINVAL);	/* nothing to map */
	evlist__add(evlist, evsel);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), -EINVAL);	/* no maps */
	ck_assert_msg(log_captured("call evlist__set_maps"), "log: %s", log_text);
	ck_assert_int_eq(evlist__set_maps(evlist, cpu0, NULL), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 4), -EBADF);	/* not open */
	ck_assert_msg(log_captured("open the evlist"), "log: %s", log_text);
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 3), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(log_captured("3 pages is not a power of two; use 2 or 4"), "log: %s", log_text);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 0);

	/* 0: perf's default, from perf_event_mlock_kb less the control page. */
	f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
	if (f) {
		ck_assert_int_eq(fscanf(f, "%llu", &kb), 1);
		fclose(f);
	}
	pages = (kb - PAGE / 1024) * 1024 / PAGE;
	while (pages & (pages - 1))
		pages &= pages - 1;
	ck_assert_int_eq(evlist__mmap(evlist, 0), 0);
	ck_assert_uint_eq(evlist__mmap_len(evlist), (pages + 1) * PAGE);
	ck_assert_uint_eq(perf_mmap__data_size(evlist__mmap_at(evlist, 0)), pages * PAGE);
	evlist__delete(evlist);
	perf_cpu_map__put(cpu0);
}
END_TEST

/* Without CAP_IPC_LOCK and with a small RLIMIT_MEMLOCK, a big ring is an EPERM. */
START_TEST(test_mmap_eperm_names_the_budget)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[2];
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	struct evlist *evlist = evlist__new();
	struct perf_cpu_map *cpu0 = cpus_of(1, (int[]){ 0 });

	TEST_REQUIRE_ROOT();
	evlist__add(evlist, sw_evsel(PERF_COUNT_SW_DUMMY));
	ck_assert_int_eq(evlist__set_maps(evlist, cpu0, NULL), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	ck_assert_int_eq(syscall(SYS_capget, &hdr, caps), 0);
	caps[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
	ck_assert_int_eq(syscall(SYS_capset, &hdr, caps), 0);
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 1024), -EPERM);
	ck_assert_msg(log_captured("/proc/sys/kernel/perf_event_mlock_kb"), "log: %s", log_text);
	ck_assert_msg(log_captured("RLIMIT_MEMLOCK (64 KiB)"), "log: %s", log_text);
	ck_assert_msg(log_captured("1024+1 pages"), "log: %s", log_text);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 0);
	evlist__delete(evlist);
	perf_cpu_map__put(cpu0);
}
END_TEST

/* An ordinary user with RLIMIT_MEMLOCK 64 KiB: what perf_event_mlock_kb allows maps, more does not. */
static void mmap_unprivileged(void *ctx)
{
	struct evlist *evlist = evlist__new();
	struct perf_thread_map *self = self_thread();
	struct evsel *evsel = sw_evsel(PERF_COUNT_SW_DUMMY);
	struct rlimit rl = { 64 * 1024, 64 * 1024 };

	(void)ctx;
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	evsel__attr(evsel)->exclude_kernel = 1;
	evlist__add(evlist, evsel);
	ck_assert_int_eq(evlist__set_maps(evlist, NULL, self), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	log_capture_start();
	ck_assert_int_eq(evlist__mmap(evlist, 1024), -EPERM);
	log_capture_stop();
	ck_assert_msg(log_captured("Permission error mapping 1 data ring(s) of 1024+1 pages") &&
		      log_captured("/proc/sys/kernel/perf_event_mlock_kb") &&
		      log_captured("RLIMIT_MEMLOCK (64 KiB)") && log_captured("ulimit -l"),
		      "log: %s", log_text);
	ck_assert_int_eq(evlist__nr_mmaps(evlist), 0);
	ck_assert_int_eq(evlist__mmap(evlist, 4), 0);
	evlist__delete(evlist);
	perf_thread_map__put(self);
}

START_TEST(test_mmap_budget_without_privileges)
{
	TEST_REQUIRE_ROOT();
	if (testlib_perf_paranoid() <= -1)
		TEST_SKIP("perf_event_paranoid is -1: locked memory is not limited");
	testlib_run_unprivileged(0, mmap_unprivileged, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evlist");
	TCase *tc = tcase_create("list and maps");

	tcase_add_test(tc, test_order_add_remove_front);
	tcase_add_test(tc, test_set_maps_propagation);
	tcase_add_test(tc, test_dropped_evsel_stays_valid);
	tcase_add_test(tc, test_parse_events_after_set_maps);
	tcase_add_test(tc, test_open_needs_maps);
	suite_add_tcase(s, tc);
	tc = tcase_create("mmap driver");
	tcase_add_test(tc, test_mmap_thread_exact_and_hangup);
	tcase_add_test(tc, test_mmap_cpus_exact_per_cpu);
	tcase_add_test(tc, test_shared_ring_ids_map_back);
	tcase_add_test(tc, test_per_thread_with_system_wide_extra_idx);
	tcase_add_test(tc, test_per_cpu_threads_with_system_wide);
	tcase_add_test(tc, test_backward_ring_of_its_own);
	tcase_add_test(tc, test_hooks_and_failure_unmaps_all);
	tcase_add_test(tc, test_mmap_pages_and_errors);
	tcase_add_test(tc, test_mmap_eperm_names_the_budget);
	tcase_add_test(tc, test_mmap_budget_without_privileges);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
