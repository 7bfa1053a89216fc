// SPDX-License-Identifier: LGPL-2.1
/*
 * Side-band synthesis against /proc and the running kernel: COMM and MMAP2 of this
 * process and its threads, the kernel's MMAP, BPF programs, each record with the tracking
 * evsel's sample_id trailer. (What perf makes of them: test-perf-data-perf.c.)
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/synthesize.h>
#include "lib/log-capture.h"
#include "lib/perf-data-testlib.h"
#include "lib/testlib.h"

static unsigned char buf[4 << 20];

/* What a pass of synthesized records held. */
struct seen {
	uint64_t tracking_id;
	pid_t tids[4];
	int nr_comm[4];
	int nr_exe_mmap;
	int nr_data_mmap;
	int nr_records;
	char exe[PATH_MAX];
	const union perf_event *kernel;
	bool bad_trailer;
};

/*
 * Every record ends with the dummy's trailer (TID, TIME, IDENTIFIER): its pid/tid, time
 * 0, the dummy's sample ID.
 */
static int seen__record(void *ctx, const union perf_event *ev)
{
	struct seen *s = ctx;
	const unsigned char *end = (const unsigned char *)ev + ev->header.size;
	uint64_t pidtid, time, id;

	memcpy(&pidtid, end - 24, 8);
	memcpy(&time, end - 16, 8);
	memcpy(&id, end - 8, 8);
	s->bad_trailer |= time != 0 || id != s->tracking_id;
	s->nr_records++;
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		s->bad_trailer |= pidtid != ((uint64_t)ev->comm.tid << 32 | ev->comm.pid);
		for (int i = 0; i < 4; i++)
			if (ev->comm.tid == (uint32_t)s->tids[i])
				s->nr_comm[i] += ev->comm.pid == (uint32_t)getpid();
		break;
	case PERF_RECORD_MMAP2:
		s->bad_trailer |= pidtid != ((uint64_t)ev->mmap2.pid << 32 | ev->mmap2.pid) ||
				  ev->mmap2.tid != ev->mmap2.pid;
		if (ev->mmap2.pid != (uint32_t)getpid())
			break;
		if (!strcmp(ev->mmap2.filename, s->exe) && (ev->mmap2.prot & PROT_EXEC))
			s->nr_exe_mmap++;
		if (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA)
			s->nr_data_mmap += !(ev->mmap2.prot & PROT_EXEC);
		break;
	case PERF_RECORD_MMAP:
		s->kernel = ev;
		break;
	}
	return 0;
}

static struct evlist *self_evlist(struct perf_thread_map *threads, struct seen *s)
{
	struct evlist *evlist = testlib_sampling_evlist(threads, 1000000000, true);
	ssize_t n;

	ck_assert_msg(evlist, "cpu-clock on this process: %s", strerror(errno));
	ck_assert_int_eq(evsel__id(evlist__next(evlist, evlist__first(evlist)), 0, 0,
				   &s->tracking_id), 0);
	n = readlink("/proc/self/exe", s->exe, sizeof(s->exe) - 1);
	ck_assert_int_gt(n, 0);
	s->exe[n] = '\0';
	return evlist;
}

static void walk(struct ring_sink_memory *mem, struct seen *s)
{
	ck_assert_int_gt(testlib_walk_records(mem->buf, mem->used, seen__record, s), 0);
	ck_assert_msg(!s->bad_trailer, "a record's pid/tid or sample_id trailer is wrong");
}

static bool helper_stop;

static void *helper(void *arg)
{
	prctl(PR_SET_NAME, "pdw-helper");
	__atomic_store_n((pid_t *)arg, gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&helper_stop, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

/* A thread map of this thread and a helper: a COMM each, the mappings once. */
START_TEST(test_threads_of_a_map)
{
	struct seen s = { 0 };
	struct ring_sink_memory mem;
	struct perf_thread_map *threads;
	struct evlist *evlist;
	pthread_t th;

	helper_stop = false;
	s.tids[0] = getpid();
	ck_assert_int_eq(pthread_create(&th, NULL, helper, &s.tids[1]), 0);
	while (!__atomic_load_n(&s.tids[1], __ATOMIC_ACQUIRE))
		usleep(100);
	threads = perf_thread_map__new_array(2, s.tids);
	evlist = self_evlist(threads, &s);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_threads(evlist, NULL, &mem.sink), 0);
	walk(&mem, &s);
	ck_assert_int_eq(s.nr_comm[0], 1);
	ck_assert_int_eq(s.nr_comm[1], 1);
	ck_assert_int_eq(s.nr_exe_mmap, 1);
	ck_assert_int_eq(s.nr_data_mmap, 0);

	/* One thread, or its whole process. */
	memset(s.nr_comm, 0, sizeof(s.nr_comm));
	s.nr_exe_mmap = 0;
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, s.tids[1], false, NULL, &mem.sink),
			 0);
	walk(&mem, &s);
	ck_assert_int_eq(s.nr_comm[0], 0);
	ck_assert_int_eq(s.nr_comm[1], 1);
	ck_assert_int_eq(s.nr_exe_mmap, 1);
	memset(s.nr_comm, 0, sizeof(s.nr_comm));
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, s.tids[1], true, NULL, &mem.sink),
			 0);
	walk(&mem, &s);
	ck_assert_int_eq(s.nr_comm[0], 1);
	ck_assert_int_eq(s.nr_comm[1], 1);

	__atomic_store_n(&helper_stop, true, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
}
END_TEST

/* The COMM and MMAP2 payloads as /proc has them. */
START_TEST(test_comm_and_mmap2_fields)
{
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	AUXTRACE_OPTS(perf_synth_opts, opts, .mmap_data = true);
	struct seen s = { 0 };
	struct ring_sink_memory mem;
	struct evlist *evlist;
	char comm[32];
	const unsigned char *p;
	bool comm_ok = false, exe_ok = false;

	ck_assert_int_eq(prctl(PR_SET_NAME, "pdw-synth"), 0);
	evlist = self_evlist(threads, &s);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_threads(evlist, &opts, &mem.sink), 0);
	s.tids[0] = getpid();
	walk(&mem, &s);
	ck_assert_int_gt(s.nr_data_mmap, 0);		/* opts.mmap_data */
	for (p = buf; p < buf + mem.used; p += ((const struct perf_event_header *)p)->size) {
		const union perf_event *ev = (const void *)p;

		ck_assert_uint_eq(ev->header.size % 8, 0);
		if (ev->header.type == PERF_RECORD_COMM) {
			snprintf(comm, sizeof(comm), "%s", ev->comm.comm);
			comm_ok = !strcmp(comm, "pdw-synth") && ev->header.size == 8 + 8 + 16 + 24;
		}
		if (ev->header.type == PERF_RECORD_MMAP2 && !strcmp(ev->mmap2.filename, s.exe) &&
		    (ev->mmap2.prot & PROT_EXEC)) {
			/* The text of this program: where its functions are. */
			uint64_t here = (uint64_t)(uintptr_t)seen__record;

			exe_ok = ev->header.misc == PERF_RECORD_MISC_USER &&
				 ev->mmap2.start <= here && here < ev->mmap2.start + ev->mmap2.len &&
				 ev->mmap2.flags == MAP_PRIVATE && ev->mmap2.ino != 0 &&
				 (ev->mmap2.prot & PROT_READ);
		}
	}
	ck_assert(comm_ok);
	ck_assert(exe_ok);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
}
END_TEST

START_TEST(test_system_wide_and_kernel)
{
	struct perf_event_attr tracking = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY, .mmap2 = 1, .comm = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.sample_id_all = 1,
	};
	struct seen s = { 0 };
	struct ring_sink_memory mem;
	struct evlist *evlist;
	uint64_t text = 0;
	char line[256], name[64], type;
	FILE *f;

	TEST_REQUIRE_ROOT();
	/* The dummy thread map: every process, this one among them. Not opened: no IDs. */
	evlist = evlist__new();
	ck_assert_int_eq(evlist__add(evlist, evsel__new(&tracking)), 0);
	ck_assert_int_eq(evlist__set_maps(evlist, NULL, NULL), 0);
	ck_assert_int_gt(readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1), 0);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_threads(evlist, NULL, &mem.sink), 0);
	s.tids[0] = getpid();
	walk(&mem, &s);
	ck_assert_int_eq(s.nr_exe_mmap, 1);
	ck_assert_int_ge(s.nr_comm[0], 1);
	ck_assert_int_gt(s.nr_records, 20);	/* init, kernel threads, this test... */

	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_kernel_mmap(evlist, NULL, &mem.sink), 0);
	f = fopen("/proc/kallsyms", "r");
	ck_assert_ptr_nonnull(f);
	while (!text && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %63s", &text, &type, name) == 3 && strcmp(name, "_text"))
			text = 0;
	fclose(f);
	s.kernel = NULL;
	ck_assert_int_eq(testlib_walk_records(mem.buf, mem.used, seen__record, &s), 1);
	ck_assert_ptr_nonnull(s.kernel);
	ck_assert_str_eq(s.kernel->mmap.filename, "[kernel.kallsyms]_text");
	ck_assert_uint_eq(s.kernel->header.misc, PERF_RECORD_MISC_KERNEL);
	ck_assert_uint_eq(s.kernel->mmap.start, text);
	ck_assert_uint_eq(s.kernel->mmap.pgoff, text);
	ck_assert_uint_eq(s.kernel->mmap.start + s.kernel->mmap.len, ~0ULL);
	ck_assert_int_eq((int32_t)s.kernel->mmap.pid, -1);
	evlist__delete(evlist);
}
END_TEST

/* The sink's error stops the synthesis and comes back; gone processes are errors alone. */
START_TEST(test_errors)
{
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct seen s = { 0 };
	struct ring_sink_memory mem;
	struct evlist *evlist = self_evlist(threads, &s);
	pid_t gone = fork();

	if (!gone)
		_exit(0);
	ck_assert_int_gt(gone, 0);
	waitpid(gone, NULL, 0);
	ring_sink_memory__init(&mem, buf, 100);		/* room for a COMM, not the mappings */
	ck_assert_int_eq(perf_event__synthesize_threads(evlist, NULL, &mem.sink), -ENOSPC);
	ck_assert_int_eq(errno, ENOSPC);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, gone, false, NULL, &mem.sink),
			 -ESRCH);
	log_capture_start();
	ck_assert_int_eq(perf_event__synthesize_threads(NULL, NULL, &mem.sink), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("give the session's evlist and a sink"), "%s", log_text);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
}
END_TEST

/* Without CAP_SYS_ADMIN the BPF programs cannot be listed: say so. */
START_TEST(test_bpf_needs_privilege)
{
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct seen s = { 0 };
	struct ring_sink_memory mem;
	struct evlist *evlist;

	TEST_REQUIRE_ROOT();
	evlist = self_evlist(threads, &s);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(setresuid(65534, 65534, 65534), 0);	/* this test's process only */
	log_capture_start();
	ck_assert_int_eq(perf_event__synthesize_bpf_events(evlist, NULL, &mem.sink), -EPERM);
	log_capture_stop();
	ck_assert_msg(log_captured("needs CAP_SYS_ADMIN; run as root") && log_text[0] == 'W', "%s", log_text);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("synthesize");
	TCase *tc = tcase_create("synthesize");

	tcase_add_test(tc, test_threads_of_a_map);
	tcase_add_test(tc, test_comm_and_mmap2_fields);
	tcase_add_test(tc, test_system_wide_and_kernel);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_bpf_needs_privilege);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
