// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf.data reader: on files perf 6.1 writes here (file and pipe format), on files the
 * test builds (attrs with IDs, features, rounds out of order, every sample field), on their
 * byte-swapped twins, and on every truncation and many corruptions of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <zstd.h>

#include <auxtrace/auxtrace-index.h>
#include <auxtrace/session.h>

#include "lib/log-capture.h"
#include "lib/perf-data-file.h"
#include "lib/testlib.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* ---- records of the hand-built file: every attr has sample_type ST, sample_id_all ---- */

struct trailer {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t id;
};

static void put_sample(struct pd_file *f, uint64_t id, uint64_t time)
{
	struct {
		struct perf_event_header h;
		uint64_t id, ip;
		uint32_t pid, tid;
		uint64_t time;
		uint32_t cpu, res;
		uint64_t period;
	} r = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(r) },
		id, 0x400000 + time, 100, 101, time, (uint32_t)(id & 1), 0, 1000 + time };

	pd_file__record(f, &r);
}

static void put_comm(struct pd_file *f, const char *name, uint64_t time, uint64_t id)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		struct trailer t;
	} r = { { PERF_RECORD_COMM, 0, sizeof(r) }, 100, 101, "", { 100, 101, time, 0, 0, id } };

	snprintf(r.comm, sizeof(r.comm), "%s", name);
	pd_file__record(f, &r);
}

static void put_round(struct pd_file *f)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(h) };

	pd_file__record(f, &h);
}

static void put_features(struct pd_file *f)
{
	static const char cmdline[] = "\x04\0\0\0"
		"\x08\0\0\0" "auxrec\0\0" "\x08\0\0\0" "record\0\0"
		"\x04\0\0\0" "-e\0\0" "\x0c\0\0\0" "cpu-clock\0\0\0";
	static const char pmus[] = "\x02\0\0\0"
		"\x01\0\0\0" "\x0c\0\0\0" "software\0\0\0\0"
		"\x0a\0\0\0" "\x0c\0\0\0" "intel_bts\0\0\0";
	uint32_t nrcpus[2] = { 8, 4 };
	uint64_t clock_res = 1000, sample_time[2] = { 5, 40 };
	struct {
		struct perf_event_header h;
		int32_t pid;
		uint8_t build_id[24];
		char filename[16];
	} bid = { { PERF_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_USER |
		    PERF_RECORD_MISC_BUILD_ID_SIZE, sizeof(bid) }, 100,
		  { 0xde, 0xad, 0xbe, 0xef, [20] = 4 }, "/usr/bin/true" };
	unsigned char desc[4096], *p = desc;
	struct perf_event_attr attr = { .size = sizeof(attr) };
	uint32_t v;
	uint64_t ids[3] = { 10, 11, 20 };
	int i;

	pd_file__add_feature_string(f, HEADER_HOSTNAME, "fixture-host");
	pd_file__add_feature_string(f, HEADER_OSRELEASE, "6.1.0-test");
	pd_file__add_feature_string(f, HEADER_ARCH, "x86_64");
	pd_file__add_feature_string(f, HEADER_CPUID, "GenuineIntel,6,69,1");
	pd_file__add_feature(f, HEADER_NRCPUS, nrcpus, sizeof(nrcpus));
	pd_file__add_feature(f, HEADER_CMDLINE, cmdline, sizeof(cmdline) - 1);
	pd_file__add_feature(f, HEADER_PMU_MAPPINGS, pmus, sizeof(pmus) - 1);
	pd_file__add_feature(f, HEADER_CLOCKID, &clock_res, sizeof(clock_res));
	pd_file__add_feature(f, HEADER_SAMPLE_TIME, sample_time, sizeof(sample_time));
	pd_file__add_feature(f, HEADER_BUILD_ID, &bid, sizeof(bid));
	/* EVENT_DESC: the names "clk" (IDs 10, 11) and "side" (ID 20). */
	v = 2; memcpy(p, &v, 4); p += 4;
	v = sizeof(attr); memcpy(p, &v, 4); p += 4;
	for (i = 0; i < 2; i++) {
		uint32_t nr_ids = i ? 1 : 2, len = 8;

		memcpy(p, &attr, sizeof(attr)); p += sizeof(attr);
		memcpy(p, &nr_ids, 4); p += 4;
		memcpy(p, &len, 4); p += 4;
		memset(p, 0, len);
		strcpy((char *)p, i ? "side" : "clk"); p += len;
		memcpy(p, &ids[i ? 2 : 0], 8 * nr_ids); p += 8 * nr_ids;
	}
	pd_file__add_feature(f, HEADER_EVENT_DESC, desc, p - desc);
}

/*
 * Two events (cpu-clock with IDs 10 and 11, a dummy with ID 20), features, ID_INDEX,
 * TIME_CONV, a synthesized COMM, then samples in three rounds out of time order, and one
 * sample of an ID no attr has.
 */
static void build_file(int fd, bool pipe, bool rounds)
{
	struct perf_event_attr clk = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = ST, .sample_id_all = 1, .sample_period = 1000,
	};
	struct perf_event_attr side = clk;
	uint64_t clk_ids[] = { 10, 11 }, side_ids[] = { 20 };
	struct {
		struct perf_event_header h;
		uint64_t nr;
		struct perf_record_id_index_entry e[3];
	} ii = { { PERF_RECORD_ID_INDEX, 0, sizeof(ii) }, 3,
		 { { 10, 0, 0, -1 }, { 11, 1, 1, -1 }, { 20, 0, 0, -1 } } };
	struct perf_record_time_conv tc = {
		.header = { PERF_RECORD_TIME_CONV, 0, sizeof(tc) },
		.time_shift = 10, .time_mult = 2048, .time_zero = 1000,
	};
	struct pd_file *f = pd_file__new(fd, pipe);
	static const uint64_t times[] = { 30, 10, 20, 0, 25, 40, 5, 33, 0, 35, 28 };
	static const uint64_t ids[] = { 10, 11, 20, 0, 10, 11, 20, 99, 0, 10, 11 };
	size_t i;

	side.config = PERF_COUNT_SW_DUMMY;
	pd_file__add_attr(f, &clk, clk_ids, 2);
	pd_file__add_attr(f, &side, side_ids, 1);
	put_features(f);
	pd_file__start(f);
	pd_file__record(f, &ii);
	pd_file__record(f, &tc);
	put_comm(f, "fixture", 0, 0);
	pd_file__auxtrace(f, 0, 0, 101, 0, 77, "AUX data", 8);
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		if (!ids[i]) {
			if (rounds)
				put_round(f);
			continue;
		}
		put_sample(f, ids[i], times[i]);
	}
	pd_file__finish(f, true);
}

static int built_memfd(bool pipe, bool rounds)
{
	int fd = memfd_create("built.data", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	build_file(fd, pipe, rounds);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static void assert_sample_times(const struct pd_log *log, const uint64_t *want, int nr)
{
	int i, k = 0;

	for (i = 0; i < log->n; i++) {
		if (log->e[i].kind != 'S')
			continue;
		ck_assert_int_lt(k, nr);
		ck_assert_msg(log->e[i].time == want[k], "sample %d: time %llu, want %llu", k,
			      (unsigned long long)log->e[i].time, (unsigned long long)want[k]);
		ck_assert_str_eq(log->e[i].evsel, log->e[i].id == 20 ? "side" : "clk");
		k++;
	}
	ck_assert_int_eq(k, nr);
}

START_TEST(test_built_file_header_and_features)
{
	int fd = built_memfd(_i == 1, true);
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct perf_session *s = perf_session__new_fd(fd, &opts);
	const struct perf_env *env;
	struct evlist_sample_id where;
	struct evsel *evsel;
	const uint64_t *ids;
	size_t nr;

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(perf_session__is_pipe(s), _i == 1);
	ck_assert(perf_session__is_mapped(s) && !perf_session__needs_swap(s));
	ck_assert_int_eq(evlist__nr_entries(perf_session__evlist(s)), 2);
	evsel = evlist__first(perf_session__evlist(s));
	ck_assert_str_eq(evsel__name(evsel), "clk");
	ck_assert_uint_eq(evsel__attr(evsel)->sample_type, ST);
	ids = perf_session__evsel_ids(s, evsel, &nr);
	ck_assert(nr == 2 && ids[0] == 10 && ids[1] == 11);
	ck_assert_str_eq(evsel__name(evlist__next(perf_session__evlist(s), evsel)), "side");
	ck_assert_int_eq(perf_session__id_lookup(s, 20, &where), 0);
	ck_assert_ptr_eq(where.evsel, evlist__next(perf_session__evlist(s), evsel));
	ck_assert_int_eq(where.idx, -1);		/* ID_INDEX comes with the records */
	ck_assert_int_eq(perf_session__id_lookup(s, 99, &where), -ENOENT);

	env = perf_session__env(s);
	ck_assert_str_eq(env->hostname, "fixture-host");
	ck_assert_str_eq(env->os_release, "6.1.0-test");
	ck_assert_str_eq(env->arch, "x86_64");
	ck_assert_str_eq(env->cpuid, "GenuineIntel,6,69,1");
	ck_assert(env->nr_cpus_avail == 8 && env->nr_cpus_online == 4);
	ck_assert_uint_eq(env->nr_cmdline, 4);
	ck_assert_str_eq(env->cmdline[3], "cpu-clock");
	ck_assert_uint_eq(env->nr_pmu_mappings, 2);
	ck_assert(env->pmu_mappings[1].type == 10);
	ck_assert_str_eq(env->pmu_mappings[1].name, "intel_bts");
	ck_assert_uint_eq(env->clockid_res_ns, 1000);
	ck_assert(env->first_sample_time == 5 && env->last_sample_time == 40);
	ck_assert_uint_eq(env->nr_build_ids, 1);
	ck_assert(env->build_ids[0].size == 4 && env->build_ids[0].build_id[1] == 0xad &&
		  env->build_ids[0].pid == 100);
	ck_assert_str_eq(env->build_ids[0].filename, "/usr/bin/true");
	ck_assert(perf_session__has_feat(s, HEADER_HOSTNAME) &&
		  !perf_session__has_feat(s, HEADER_VERSION));
	ck_assert_ptr_null(perf_session__time_conv(s));	/* not read yet */
	if (_i == 0) {
		const struct auxtrace_index *index = perf_session__auxtrace_index(s);

		/* The index round trip: what the builder wrote with auxtrace_index__write. */
		ck_assert_uint_eq(auxtrace_index__nr(index), 1);
		ck_assert_uint_eq(auxtrace_index__entry(index, 0)->sz, 48);
		ck_assert_uint_eq(auxtrace_index__entry(index, 0)->file_offset,
				  perf_session__header(s)->data.offset + 112 + 56 + 64);
	} else {
		ck_assert_ptr_null(perf_session__auxtrace_index(s));	/* none in a pipe */
	}
	perf_session__delete(s);
	close(fd);
}
END_TEST

/*
 * A sample whose values cannot be true given the header (the file has 8 CPUs, samples from
 * time 5 to 40): counted as damage, said once with its offset, and not delivered.
 */
static const struct {
	size_t field;		/* offset in the sample record */
	uint64_t value;
	int width;
	const char *says;
} impossible[] = {
	{ 40, 1056964608, 4, "has CPU 1056964608, beyond the 8 CPUs of its header" },
	{ 24, 4194304, 4, "has pid/tid 4194304/101, beyond the kernel's limit" },
	{ 28, 0x7fffffff, 4, "has pid/tid 100/2147483647" },
	{ 32, 41, 8, "has time 41, outside the samples' span [5, 40]" },
	{ 32, 4, 8, "has time 4, outside" },
};

START_TEST(test_impossible_sample_is_damage)
{
	int fd = built_memfd(false, true), bad;
	struct perf_session_stats st;
	unsigned char *buf;
	struct pd_log log;
	char where[64];
	size_t size, at;

	buf = pd_read_all(fd, &size);
	/* the sample of time 25: its ip, 0x400000 + 25, follows its header and identifier */
	for (at = 16; at + 8 <= size && *(uint64_t *)(buf + at) != 0x400000 + 25; at += 8)
		;
	ck_assert_uint_lt(at + 8, size);
	at -= 16;
	ck_assert_uint_eq(((struct perf_event_header *)(buf + at))->type, PERF_RECORD_SAMPLE);
	memcpy(buf + at + impossible[_i].field, &impossible[_i].value, impossible[_i].width);
	bad = pd_memfd(buf, size);
	log_capture_start();
	ck_assert_int_eq(pd_log__read(&log, NULL, bad, true, NULL, &st), 0);
	log_capture_stop();
	ck_assert_uint_eq(st.nr_damaged_samples, 1);
	ck_assert_int_eq(pd_log__count(&log, 'S', PERF_RECORD_SAMPLE), 7);
	for (int i = 0; i < log.n; i++)
		ck_assert_uint_ne(log.e[i].time, 25);
	ck_assert_msg(log_captured(impossible[_i].says), "%s", log_text);
	snprintf(where, sizeof(where), "the sample at %#zx has", at);
	ck_assert_msg(log_captured(where), "no %s: %s", where, log_text);
	pd_log__exit(&log);
	close(bad);
	free(buf);
	close(fd);
}
END_TEST

/* perf's rounds: a round flushes what is not newer than the round before had. */
START_TEST(test_built_file_ordering)
{
	static const uint64_t ordered[] = { 5, 10, 20, 25, 30, 28, 35, 40 };
	static const uint64_t file_order[] = { 30, 10, 20, 25, 40, 5, 35, 28 };
	static const uint64_t sorted[] = { 5, 10, 20, 25, 28, 30, 35, 40 };
	bool pipe = _i == 1;
	struct perf_session_stats st;
	struct pd_log log;
	int fd = built_memfd(pipe, true);

	log_capture_start();
	ck_assert_int_eq(pd_log__read(&log, NULL, fd, true, NULL, &st), 0);
	log_capture_stop();
	assert_sample_times(&log, ordered, 8);
	ck_assert_uint_eq(st.nr_unordered_events, 1);		/* 28, after 30 went out */
	ck_assert_uint_eq(st.nr_unknown_id, 1);			/* ID 99 */
	ck_assert_uint_eq(st.nr_damaged_samples, 0);
	ck_assert_msg(log_captured("has a sample ID of no attr"), "%s", log_text);
	ck_assert_uint_eq(st.nr_events[PERF_RECORD_SAMPLE], 8);
	ck_assert_uint_eq(st.nr_events[PERF_RECORD_FINISHED_ROUND], 2);
	ck_assert_int_eq(pd_log__count(&log, 'A', PERF_RECORD_AUXTRACE), 1);
	ck_assert_uint_eq(st.auxtrace_bytes, 8);
	for (int i = 0; i < log.n; i++)
		if (log.e[i].kind == 'A')
			ck_assert(!memcmp(log.e[i].copy + 48, "AUX data", 8));
	ck_assert(st.first_time == 5 && st.last_time == 40);
	/* The synthesized COMM has time 0: it goes out at once, before every sample. */
	ck_assert_int_eq(log.e[2].kind, 'E');
	ck_assert_uint_eq(log.e[2].type, PERF_RECORD_COMM);
	ck_assert_str_eq(log.e[2].evsel, "clk");
	pd_log__exit(&log);

	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(pd_log__read(&log, NULL, fd, false, NULL, &st), 0);
	assert_sample_times(&log, file_order, 8);
	ck_assert_uint_eq(st.nr_unordered_events, 0);
	pd_log__exit(&log);
	close(fd);

	/* Without a FINISHED_ROUND everything waits for the end, then goes out sorted. */
	fd = built_memfd(pipe, false);
	ck_assert_int_eq(pd_log__read(&log, NULL, fd, true, NULL, &st), 0);
	assert_sample_times(&log, sorted, 8);
	pd_log__exit(&log);
	close(fd);
}
END_TEST

/* A tool built against an older, shorter struct perf_tool: what lies past its sz is not its. */
static int never_called(struct perf_tool *t, struct perf_session *s, union perf_event *e,
			struct perf_sample *sample, struct evsel *evsel)
{
	(void)t; (void)s; (void)e; (void)sample; (void)evsel;
	ck_abort_msg("a callback past the tool's sz was called");
	return -1;
}

struct counting_tool {
	struct perf_tool tool;
	int samples;
};

static int count_sample(struct perf_tool *t, struct perf_session *s, union perf_event *e,
			struct perf_sample *sample, struct evsel *evsel)
{
	(void)s; (void)e; (void)sample; (void)evsel;
	((struct counting_tool *)t)->samples++;
	return 0;
}

START_TEST(test_tool_sz)
{
	struct counting_tool t = { { .sz = offsetof(struct perf_tool, event), .ordered_events = true,
		  .sample = count_sample, .event = never_called }, 0 };
	int fd = built_memfd(false, true);
	struct perf_session *s = perf_session__new_fd(fd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) });

	ck_assert_int_eq(perf_session__process_events(s, &t.tool), 0);
	ck_assert_int_eq(t.samples, 8);
	ck_assert_int_eq(perf_session__process_events(s, &t.tool), -EBUSY);	/* once */
	perf_session__delete(s);
	close(fd);
}
END_TEST

/* The same records come out of the file format, the pipe format mapped, and a real pipe. */
static int pipe_from(const unsigned char *buf, size_t size, pid_t *pid)
{
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	*pid = fork();
	ck_assert_int_ge(*pid, 0);
	if (!*pid) {
		close(p[0]);
		_exit(write(p[1], buf, size) == (ssize_t)size ? 0 : 1);
	}
	close(p[1]);
	return p[0];
}

START_TEST(test_built_file_pipe_and_stream_agree)
{
	int file_fd = built_memfd(false, true), pipe_fd = built_memfd(true, true), fd, status;
	struct pd_log a, b, c;
	struct perf_session *s;
	unsigned char *buf;
	size_t size;
	pid_t pid;

	ck_assert_int_eq(pd_log__read(&a, NULL, file_fd, true, NULL, NULL), 0);
	ck_assert_int_eq(pd_log__read(&b, NULL, pipe_fd, true, NULL, NULL), 0);
	pd_log__assert_same(&a, &b, false);
	buf = pd_read_all(pipe_fd, &size);
	fd = pipe_from(buf, size, &pid);
	s = perf_session__new_fd(fd, &(struct perf_session_opts){ .sz = sizeof(struct perf_session_opts) });
	ck_assert_ptr_nonnull(s);
	ck_assert(perf_session__is_pipe(s) && !perf_session__is_mapped(s));
	ck_assert_str_eq(perf_session__env(s)->hostname, "fixture-host");
	perf_session__delete(s);
	close(fd);
	waitpid(pid, &status, 0);
	fd = pipe_from(buf, size, &pid);
	ck_assert_int_eq(pd_log__read(&c, NULL, fd, true, NULL, NULL), 0);
	pd_log__assert_same(&b, &c, true);	/* stream offsets are file offsets */
	close(fd);
	waitpid(pid, &status, 0);
	pd_log__exit(&a);
	pd_log__exit(&b);
	pd_log__exit(&c);
	free(buf);
	close(file_fd);
	close(pipe_fd);
}
END_TEST

/*
 * A file and its byte-swapped twin deliver the same records byte for byte, but for those
 * this reader cannot swap (THREAD_MAP, CPU_MAP): skipped and counted. Returns the twin's fd.
 */
static int assert_swapped_reads_same(int fd)
{
	struct perf_session_stats st;
	struct pd_log a, b;
	unsigned char *buf;
	size_t size;
	int sfd, i, k;

	buf = pd_read_all(fd, &size);
	pd_swap_file(buf, size);
	sfd = pd_memfd(buf, size);
	free(buf);
	ck_assert_int_eq(pd_log__read(&a, NULL, fd, true, NULL, NULL), 0);
	ck_assert_int_eq(pd_log__read(&b, NULL, sfd, true, NULL, &st), 0);
	ck_assert_uint_eq(st.nr_unknown_events, pd_log__count(&a, 'U', PERF_RECORD_THREAD_MAP) +
			  pd_log__count(&a, 'U', PERF_RECORD_CPU_MAP));
	for (i = 0, k = 0; i < a.n; i++) {
		if (a.e[i].type == PERF_RECORD_THREAD_MAP || a.e[i].type == PERF_RECORD_CPU_MAP)
			continue;
		ck_assert_int_lt(k, b.n);
		ck_assert_msg(a.e[i].kind == b.e[k].kind && a.e[i].time == b.e[k].time &&
			      a.e[i].offset == b.e[k].offset && a.e[i].size == b.e[k].size &&
			      !memcmp(a.e[i].copy, b.e[k].copy, a.e[i].size),
			      "record %d (type %u) differs", i, a.e[i].type);
		k++;
	}
	ck_assert_int_eq(k, b.n);
	pd_log__exit(&a);
	pd_log__exit(&b);
	return sfd;
}

/* A file from a machine of the other byte order reads as the same records. */
START_TEST(test_built_file_swapped)
{
	int fd = built_memfd(false, true), sfd = assert_swapped_reads_same(fd);
	struct perf_session *s = perf_session__new_fd(sfd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) });
	const struct perf_file_header *h;
	struct evsel *first;

	ck_assert_ptr_nonnull(s);
	ck_assert(perf_session__needs_swap(s));
	h = perf_session__header(s);
	ck_assert_uint_eq(h->data.offset, h->attrs.offset + 2 * h->attr_size + 3 * 8);
	ck_assert_str_eq(perf_session__env(s)->hostname, "fixture-host");
	ck_assert_uint_eq(perf_session__env(s)->nr_cpus_avail, 8);
	ck_assert_str_eq(perf_session__env(s)->cmdline[1], "record");
	ck_assert_uint_eq(auxtrace_index__entry(perf_session__auxtrace_index(s), 0)->sz, 48);
	first = evlist__first(perf_session__evlist(s));
	ck_assert_str_eq(evsel__name(first), "clk");
	ck_assert_uint_eq(evsel__attr(first)->sample_type, ST);
	ck_assert_int_eq(evsel__attr(first)->sample_id_all, 1);	/* a bit-field */
	perf_session__delete(s);
	close(fd);
	close(sfd);
}
END_TEST

/* ---- every sample field ---- */

struct fields_tool {
	struct perf_tool tool;
	int n;
};

static int check_fields(struct perf_tool *t, struct perf_session *s, union perf_event *e,
			struct perf_sample *q, struct evsel *evsel)
{
	(void)s; (void)e; (void)evsel;
	((struct fields_tool *)t)->n++;
	ck_assert(q->id == 0x11 && q->ip == 0x401000 && q->pid == 100 && q->tid == 101 &&
		  q->time == 1000 && q->addr == 0xdead0 && q->stream_id == 0x22 && q->cpu == 3 &&
		  q->period == 4000);
	ck_assert(q->read.nr == 2 && q->read.time_enabled == 111 && q->read.time_running == 222 &&
		  q->read.entry_words == 3 && q->read.values[3] == 2 && q->read.values[5] == 5);
	ck_assert(q->callchain->nr == 3 && q->callchain->ips[2] == 0xc);
	ck_assert(q->raw_size == 12 && !memcmp(q->raw_data, "raw-data-123", 12));
	ck_assert(q->branch_nr == 2 && q->branch_hw_idx == 7 &&
		  q->branch_entries[1].from == 0x3000 && q->branch_entries[1].to == 0x4000);
	ck_assert(q->user_regs.abi == 2 && q->user_regs.mask == 7 && q->user_regs.regs[2] == 3);
	ck_assert(q->user_stack.size == 16 && q->user_stack.dyn_size == 8 &&
		  ((const uint64_t *)q->user_stack.data)[1] == 0x6666);
	ck_assert(q->weight == 77 && q->data_src == 88 && q->transaction == 99);
	ck_assert(q->intr_regs.abi == 2 && q->intr_regs.regs[1] == 5);
	ck_assert(q->phys_addr == 0x1000 && q->cgroup == 5 && q->data_page_size == 4096 &&
		  q->code_page_size == 8192);
	ck_assert(q->aux_sample.size == 16 && ((const uint64_t *)q->aux_sample.data)[1] == 0x8888);
	ck_assert_uint_eq(q->cpumode, 0);
	return 0;
}

START_TEST(test_every_sample_field)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW, .sample_type = (PERF_SAMPLE_MAX - 1) & ~PERF_SAMPLE_WEIGHT_STRUCT,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			       PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
		.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_ANY,
		.sample_regs_user = 0x7, .sample_regs_intr = 0x3, .sample_stack_user = 16,
	};
	uint64_t rec[64] = { 0 }, id = 0x11;
	unsigned int n = 1, i;
	struct perf_session_stats st;
	struct pd_log log;
	struct pd_file *f;
	int fd = memfd_create("fields", MFD_CLOEXEC);

	rec[n++] = id;				/* IDENTIFIER */
	rec[n++] = 0x401000;			/* IP */
	rec[n++] = 100 | (101ull << 32);	/* TID */
	rec[n++] = 1000;			/* TIME */
	rec[n++] = 0xdead0;			/* ADDR */
	rec[n++] = id;				/* ID */
	rec[n++] = 0x22;			/* STREAM_ID */
	rec[n++] = 3;				/* CPU */
	rec[n++] = 4000;			/* PERIOD */
	rec[n++] = 2; rec[n++] = 111; rec[n++] = 222;	/* READ: nr, enabled, running */
	rec[n++] = 1; rec[n++] = 0x11; rec[n++] = 0;
	rec[n++] = 2; rec[n++] = 0x12; rec[n++] = 5;
	rec[n++] = 3; rec[n++] = 0xa; rec[n++] = 0xb; rec[n++] = 0xc;	/* CALLCHAIN */
	memcpy(&rec[n], "\x0c\0\0\0raw-data-123", 16); n += 2;		/* RAW */
	rec[n++] = 2; rec[n++] = 7;					/* BRANCH: nr, hw_idx */
	rec[n++] = 0x1000; rec[n++] = 0x2000; rec[n++] = 1;
	rec[n++] = 0x3000; rec[n++] = 0x4000; rec[n++] = 0;
	rec[n++] = 2; rec[n++] = 1; rec[n++] = 2; rec[n++] = 3;		/* REGS_USER */
	rec[n++] = 16; rec[n++] = 0x5555; rec[n++] = 0x6666; rec[n++] = 8;	/* STACK_USER */
	rec[n++] = 77; rec[n++] = 88; rec[n++] = 99;	/* WEIGHT DATA_SRC TRANSACTION */
	rec[n++] = 2; rec[n++] = 4; rec[n++] = 5;	/* REGS_INTR */
	rec[n++] = 0x1000; rec[n++] = 5; rec[n++] = 4096; rec[n++] = 8192;
	rec[n++] = 16; rec[n++] = 0x7777; rec[n++] = 0x8888;		/* AUX */
	rec[0] = PERF_RECORD_SAMPLE | (uint64_t)(8 * n) << 48;
	f = pd_file__new(fd, false);
	pd_file__add_attr(f, &attr, &id, 1);
	pd_file__start(f);
	pd_file__record(f, rec);
	pd_file__finish(f, false);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);

	ck_assert_int_eq(pd_log__read(&log, NULL, fd, false, NULL, &st), 0);
	ck_assert_int_eq(log.n, 1);
	{
		/* Parse it again through a tool that looks at the fields. */
		struct perf_session *s = perf_session__new_fd(fd, &(struct perf_session_opts){
			.sz = sizeof(struct perf_session_opts) });
		struct fields_tool ft = { .tool = { .sz = sizeof(ft.tool), .sample = check_fields } };

		ck_assert_ptr_nonnull(s);
		ck_assert_int_eq(perf_session__process_events(s, &ft.tool), 0);
		ck_assert_int_eq(ft.n, 1);
		perf_session__delete(s);
	}
	pd_log__exit(&log);

	/* The same record cut at each u64: the error names the field it ends in. */
	for (i = 2; i < n; i++) {
		int cut_fd = memfd_create("cut", MFD_CLOEXEC), err;

		rec[0] = PERF_RECORD_SAMPLE | (uint64_t)(8 * i) << 48;
		f = pd_file__new(cut_fd, false);
		pd_file__add_attr(f, &attr, &id, 1);
		pd_file__start(f);
		pd_file__record(f, rec);
		pd_file__finish(f, false);
		ck_assert_int_eq(lseek(cut_fd, 0, SEEK_SET), 0);
		log_capture_start();
		err = pd_log__read(&log, NULL, cut_fd, false, NULL, NULL);
		log_capture_stop();
		ck_assert_msg(err == -EINVAL && log.n == 0, "cut at %u: %d", i, err);
		ck_assert_msg(log_captured("ends inside its") || log_captured("not whole u64s") ||
			      log_captured("does not end on a u64"), "cut at %u: %s", i, log_text);
		ck_assert_msg(log_captured("at file offset 0x"), "%s", log_text);
		pd_log__exit(&log);
		close(cut_fd);
	}
	close(fd);
}
END_TEST

/* Fixed fields and strings of side-band records are checked before anyone reads them. */
START_TEST(test_record_layouts_checked)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .sample_type = PERF_SAMPLE_IP };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[8];
	} comm = { { PERF_RECORD_COMM, 0, sizeof(comm) }, 1, 1, "12345678" };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start;
	} mmap = { { PERF_RECORD_MMAP, 0, sizeof(mmap) }, 1, 1, 0 };
	struct {
		struct perf_event_header h;
		uint64_t size;
	} aux = { { PERF_RECORD_AUXTRACE, 0, sizeof(aux) }, 0 };
	const struct {
		const void *rec;
		const char *says;
	} cases[] = {
		{ &comm, "the string of a COMM record of 24 bytes has no terminating NUL" },
		{ &mmap, "a MMAP record of 24 bytes is shorter than its fields (40 bytes)" },
		{ &aux, "a AUXTRACE record of 16 bytes is shorter than its fields (48 bytes)" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = memfd_create("layout", MFD_CLOEXEC), err;
		struct pd_file *f = pd_file__new(fd, false);
		struct pd_log log;

		pd_file__add_attr(f, &attr, NULL, 0);
		pd_file__start(f);
		pd_file__record(f, cases[i].rec);
		pd_file__finish(f, false);
		ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
		log_capture_start();
		err = pd_log__read(&log, NULL, fd, false, NULL, NULL);
		log_capture_stop();
		ck_assert_int_eq(err, -EINVAL);
		ck_assert_int_eq(log.n, 0);
		ck_assert_msg(log_captured(cases[i].says), "case %zu: %s", i, log_text);
		pd_log__exit(&log);
		close(fd);
	}
}
END_TEST

/* Rss of this process's mapping of a memfd named name, in KiB (smaps). */
static long mapping_rss_kb(const char *name)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;
	long kb = -1;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' '))
			in = strstr(line, name) != NULL;	/* a mapping's first line */
		else if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/*
 * A 64 MiB file read in order: the pages of records already delivered are given back, so
 * the mapping's resident size stays near the 32 MiB step, not the file's size.
 */
START_TEST(test_mapping_given_back)
{
	const size_t nr = (64 << 20) / 24, round = 10000;
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME };
	uint64_t *recs = malloc(nr * 24 + (nr / round + 1) * 8), *p = recs;
	int fd = memfd_create("big.data", MFD_CLOEXEC);
	struct perf_tool tool = { .sz = sizeof(tool), .ordered_events = _i == 0 };
	struct perf_session *s;
	struct pd_file *f;
	size_t i;
	long rss;

	for (i = 0; i < nr; i++) {
		*p++ = PERF_RECORD_SAMPLE | (uint64_t)24 << 48;
		*p++ = 0x400000;
		*p++ = i + 1;
		if (i % round == round - 1)
			*p++ = PERF_RECORD_FINISHED_ROUND | (uint64_t)8 << 48;
	}
	f = pd_file__new(fd, false);
	pd_file__add_attr(f, &attr, NULL, 0);
	pd_file__start(f);
	pd_file__bytes(f, recs, (p - recs) * 8);
	pd_file__finish(f, false);
	free(recs);
	s = perf_session__new_fd(fd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) });
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(perf_session__process_events(s, &tool), 0);
	ck_assert_uint_eq(perf_session__stats(s)->nr_events[PERF_RECORD_SAMPLE], nr);
	rss = mapping_rss_kb("big.data");
	ck_assert_msg(rss >= 0 && rss < 40 * 1024, "the mapping holds %ld KiB", rss);
	perf_session__delete(s);
	close(fd);
}
END_TEST

/* ---- damaged files: every truncation, many corruptions ---- */

/* Offsets where records start in a pipe-format file (a cut there is a shorter stream). */
static bool pipe_boundary(const unsigned char *buf, size_t size, size_t cut)
{
	size_t pos = 16;

	while (pos < size) {
		struct perf_event_header h;
		uint64_t payload = 0;

		if (pos == cut)
			return true;
		memcpy(&h, buf + pos, sizeof(h));
		if (h.type == PERF_RECORD_AUXTRACE)
			memcpy(&payload, buf + pos + 8, 8);
		pos += h.size + payload;
	}
	return pos == cut;
}

static void assert_damage_reported(const unsigned char *buf, size_t size, size_t cut,
				   bool pipe)
{
	int fd = pd_memfd(buf, cut), err;
	struct pd_log log;

	log_capture_start();
	err = pd_log__read(&log, NULL, fd, true, NULL, NULL);
	log_capture_stop();
	if (pipe && cut >= 16 && pipe_boundary(buf, size, cut)) {
		ck_assert_msg(err == 0, "pipe cut at record boundary %zu: %d %s", cut, err,
			      log_text);
	} else {
		ck_assert_msg(err == -EINVAL, "cut at %zu of %zu: %d", cut, size, err);
		ck_assert_msg(log_captured("at file offset 0x"), "cut at %zu: %s", cut, log_text);
	}
	pd_log__exit(&log);
	close(fd);
}

START_TEST(test_every_truncation)
{
	bool pipe = _i == 1;
	int fd = built_memfd(pipe, true);
	unsigned char *buf;
	size_t size, cut;

	buf = pd_read_all(fd, &size);
	for (cut = 0; cut < size; cut++)
		assert_damage_reported(buf, size, cut, pipe);
	free(buf);
	close(fd);
}
END_TEST

/* Any byte set to any of these values: an error that says where, or a file that still
 * reads; never a crash or a read out of bounds (run it under SANITIZE=1). */
START_TEST(test_corruption_never_crashes)
{
	static const unsigned char values[] = { 0x00, 0xff, 0x80, 0x07 };
	bool pipe = _i == 1;
	int fd = built_memfd(pipe, true);
	unsigned char *buf, *bad;
	size_t size, at, v;
	int failed = 0;

	buf = pd_read_all(fd, &size);
	bad = malloc(size);
	for (at = 0; at < size; at++) {
		for (v = 0; v < sizeof(values); v++) {
			int bfd, err;
			struct pd_log log;

			memcpy(bad, buf, size);
			if (bad[at] == values[v])
				continue;
			bad[at] = values[v];
			bfd = pd_memfd(bad, size);
			log_capture_start();
			err = pd_log__read(&log, NULL, bfd, true, NULL, NULL);
			log_capture_stop();
			ck_assert_msg(err == 0 || err == -EINVAL || err == -EOPNOTSUPP,
				      "byte %zu = %#x: %d", at, values[v], err);
			if (err) {
				failed++;
				ck_assert_msg(log_text[0] == 'E' || strstr(log_text, "\nE"),
					      "byte %zu = %#x: error without a message: %s", at,
					      values[v], log_text);
			}
			pd_log__exit(&log);
			close(bfd);
		}
	}
	ck_assert_int_gt(failed, 0);
	free(buf);
	free(bad);
	close(fd);
}
END_TEST

START_TEST(test_header_damage_named)
{
	int fd = built_memfd(false, true);
	struct perf_file_header *h;
	unsigned char *buf, *bad;
	size_t size;
	const struct {
		size_t field;
		uint64_t value;
		const char *says;
	} cases[] = {
		{ offsetof(struct perf_file_header, magic), 0x1234, "not a perf.data file" },
		{ offsetof(struct perf_file_header, magic), 0x454c494646524550ULL, "version 1" },
		{ offsetof(struct perf_file_header, size), 96, "header size 96" },
		{ offsetof(struct perf_file_header, attr_size), 7, "attr_size 7" },
		{ offsetof(struct perf_file_header, attr_size), 144 + 8, "not whole 152-byte entries" },
		{ offsetof(struct perf_file_header, attrs.offset), 1 << 20, "the attrs section" },
		{ offsetof(struct perf_file_header, data.size), 1 << 20, "ends past the end" },
		{ offsetof(struct perf_file_header, data.offset), 8, "inside the header" },
		{ offsetof(struct perf_file_header, adds_features[1]), ~0ull, "feature sections" },
	};
	size_t i;

	buf = pd_read_all(fd, &size);
	bad = malloc(size);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int bfd;

		memcpy(bad, buf, size);
		h = (struct perf_file_header *)bad;
		memcpy(bad + cases[i].field, &cases[i].value, 8);
		(void)h;
		bfd = pd_memfd(bad, size);
		log_capture_start();
		assert_null_errno(perf_session__new_fd(bfd, &(struct perf_session_opts){
			.sz = sizeof(struct perf_session_opts) }), EINVAL);
		log_capture_stop();
		ck_assert_msg(log_captured(cases[i].says), "case %zu: %s", i, log_text);
		close(bfd);
	}
	free(buf);
	free(bad);
	close(fd);
}
END_TEST

/* A file-format file cannot come through a pipe; the log says how to get one that can. */
START_TEST(test_file_format_through_a_pipe)
{
	int fd = built_memfd(false, true), pfd, status;
	unsigned char *buf;
	size_t size;
	pid_t pid;

	buf = pd_read_all(fd, &size);
	pfd = pipe_from(buf, size, &pid);
	log_capture_start();
	assert_null_errno(perf_session__new_fd(pfd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) }), EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("record with `-o -` for a pipe"), "%s", log_text);
	close(pfd);
	waitpid(pid, &status, 0);
	free(buf);
	close(fd);
}
END_TEST

/*
 * The same samples as plain records and as perf record -z writes them, the zstd stream cut
 * into COMPRESSED records of 500 and 65000 bytes by turns, so that records straddle them
 * and one decodes to more than the reader's buffer, with a FINISHED_ROUND between every two
 * (perf's stream keeps bytes in zstd across pushes, and its rounds come between the
 * halves of a record): both read the same samples, mapped and through a pipe.
 */
static void build_samples(int fd, bool compressed, bool pipe)
{
	struct perf_event_attr clk = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = ST, .sample_id_all = 1, .sample_period = 1000,
	};
	uint64_t ids[] = { 10 };
	struct pd_file *f = pd_file__new(fd, pipe);
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	static struct { struct perf_event_header h; unsigned char b[65000]; } z;
	int plain = memfd_create("plain", MFD_CLOEXEC);
	struct pd_file *raw = pd_file__new(plain, true);
	unsigned char *in, *out;
	size_t in_len, out_len;

	pd_file__add_attr(f, &clk, ids, 1);
	pd_file__start(f);
	pd_file__start(raw);
	put_comm(f, "fixture", 1, 10);
	for (uint64_t t = 0; t < 50000; t++)
		put_sample(compressed ? raw : f, 10, 100 + t * 1000 + (t * 2654435761u) % 997);
	if (compressed) {
		/* the pipe format's records, past its 16-byte header, are the bytes to compress */
		in = pd_read_all(plain, &in_len);
		out = malloc(ZSTD_compressBound(in_len));
		out_len = ZSTD_compress2(cctx, out, ZSTD_compressBound(in_len), in + 16, in_len - 16);
		ck_assert(!ZSTD_isError(out_len));
		for (size_t at = 0, n, i = 0; at < out_len; at += n, i++) {
			n = i % 2 ? sizeof(z.b) : 500;
			n = out_len - at < n ? out_len - at : n;

			z.h = (struct perf_event_header){ PERF_RECORD_COMPRESSED, 0,
							  (uint16_t)(sizeof(z.h) + n) };
			memcpy(z.b, out + at, n);
			pd_file__bytes(f, &z, z.h.size);
			put_round(f);
		}
		free(in);
		free(out);
	}
	put_round(f);
	pd_file__finish(f, false);
	pd_file__finish(raw, false);
	ZSTD_freeCCtx(cctx);
	close(plain);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
}

/* The samples of both logs, in order, byte for byte (the rounds between them aside). */
static void assert_same_samples(const struct pd_log *a, const struct pd_log *b)
{
	int i = 0, k = 0;

	for (;; i++, k++) {
		while (i < a->n && a->e[i].kind != 'S')
			i++;
		while (k < b->n && b->e[k].kind != 'S')
			k++;
		if (i == a->n || k == b->n)
			break;
		ck_assert_msg(a->e[i].size == b->e[k].size &&
			      !memcmp(a->e[i].copy, b->e[k].copy, a->e[i].size),
			      "sample %d differs", i);
	}
	ck_assert_int_eq(i, a->n);
	ck_assert_int_eq(k, b->n);
}

START_TEST(test_compressed_straddling)
{
	int pfd = memfd_create("p", MFD_CLOEXEC), zfd = memfd_create("z", MFD_CLOEXEC), sfd;
	int zpipe = memfd_create("zp", MFD_CLOEXEC);
	struct perf_session_stats st;
	struct pd_log a, b, c;
	unsigned char *buf;
	size_t size;
	int status;
	pid_t pid;

	build_samples(pfd, false, false);
	build_samples(zfd, true, false);
	build_samples(zpipe, true, true);
	ck_assert_int_eq(pd_log__read(&a, NULL, pfd, true, NULL, NULL), 0);
	ck_assert_int_eq(pd_log__read(&b, NULL, zfd, true, NULL, &st), 0);
	ck_assert_uint_ge(st.nr_events[PERF_RECORD_COMPRESSED], 4);
	ck_assert_int_eq(pd_log__count(&b, 'S', PERF_RECORD_SAMPLE), 50000);
	assert_same_samples(&a, &b);
	buf = pd_read_all(zpipe, &size);
	sfd = pipe_from(buf, size, &pid);
	ck_assert_int_eq(pd_log__read(&c, NULL, sfd, true, NULL, NULL), 0);
	assert_same_samples(&b, &c);
	waitpid(pid, &status, 0);
	close(sfd);
	free(buf);
	pd_log__exit(&a);
	pd_log__exit(&b);
	pd_log__exit(&c);
	close(pfd);
	close(zfd);
	close(zpipe);
}
END_TEST

/* COMPRESSED records whose bytes are no zstd stream: refused with where, not guessed at. */
START_TEST(test_compressed_damaged)
{
	int fd = memfd_create("z", MFD_CLOEXEC), err;
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .sample_type = PERF_SAMPLE_IP };
	struct { struct perf_event_header h; uint64_t data; } z = {
		{ PERF_RECORD_COMPRESSED, 0, sizeof(z) }, 0 };
	struct pd_file *f = pd_file__new(fd, false);
	struct pd_log log;

	pd_file__add_attr(f, &attr, NULL, 0);
	pd_file__start(f);
	pd_file__record(f, &z);
	pd_file__finish(f, false);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	log_capture_start();
	err = pd_log__read(&log, NULL, fd, true, NULL, NULL);
	log_capture_stop();
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_msg(log_captured("a COMPRESSED record does not decompress"), "%s", log_text);
	pd_log__exit(&log);
	close(fd);
}
END_TEST

/* ---- files perf 6.1 writes here ---- */

static char perf_dir[64];

static bool have_perf(void)
{
	return system("perf --version >/dev/null 2>&1") == 0;
}

/* A recording of a short shell loop: many cpu-clock samples in a few milliseconds. */
static void perf_record_opts(const char *out, bool pipe, const char *opts)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "timeout 60 perf record -q %s -e cpu-clock -c 50000 -o %s -- "
		 "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' > %s 2>/dev/null",
		 opts, pipe ? "-" : out, pipe ? out : "/dev/null");
	ck_assert_msg(system(cmd) == 0, "%s", cmd);
}

static void perf_record(const char *out, bool pipe)
{
	perf_record_opts(out, pipe, "");
}

static int perf_script_samples(const char *path, bool pipe)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), pipe ? "cat %s | timeout 60 perf script -i - 2>/dev/null | wc -l"
					: "timeout 60 perf script -i %s 2>/dev/null | wc -l", path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

static void assert_real_recording(const char *path, bool pipe)
{
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct perf_session *s = perf_session__new(path, &opts);
	const struct perf_env *env;
	struct perf_session_stats st;
	struct utsname u;
	struct pd_log log;
	uint64_t last = 0;
	int i, samples = 0, comm = 0;
	bool found_sw = false;

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(perf_session__is_pipe(s), pipe);
	ck_assert_int_eq(uname(&u), 0);
	env = perf_session__env(s);
	ck_assert_str_eq(env->hostname, u.nodename);
	ck_assert_str_eq(env->os_release, u.release);
	ck_assert_str_eq(env->arch, u.machine);
	ck_assert_int_eq(env->nr_cpus_online, sysconf(_SC_NPROCESSORS_ONLN));
	ck_assert_ptr_nonnull(strstr(env->version, "6.1"));
	ck_assert_uint_ge(env->nr_cmdline, 3);
	ck_assert_str_eq(env->cmdline[1], "record");
	for (i = 0; i < (int)env->nr_pmu_mappings; i++)
		found_sw |= env->pmu_mappings[i].type == PERF_TYPE_SOFTWARE &&
			    !strcmp(env->pmu_mappings[i].name, "software");
	ck_assert(found_sw);
	ck_assert_int_eq(evlist__nr_entries(perf_session__evlist(s)), 1);
	ck_assert_str_eq(evsel__name(evlist__first(perf_session__evlist(s))), "cpu-clock");
	perf_session__delete(s);

	ck_assert_int_eq(pd_log__read(&log, path, -1, true, NULL, &st), 0);
	for (i = 0; i < log.n; i++) {
		if (log.e[i].kind == 'S') {
			samples++;
			ck_assert_str_eq(log.e[i].evsel, "cpu-clock");
		}
		if (log.e[i].kind == 'E' && log.e[i].type == PERF_RECORD_COMM &&
		    strstr((const char *)log.e[i].copy + 16, "sh"))
			comm++;
		if (log.e[i].time != (uint64_t)-1 && log.e[i].time) {
			ck_assert_uint_ge(log.e[i].time, last);	/* time order */
			last = log.e[i].time;
		}
	}
	ck_assert_int_gt(samples, 0);
	ck_assert_int_gt(comm, 0);
	ck_assert_uint_eq(st.nr_events[PERF_RECORD_SAMPLE], samples);
	ck_assert_uint_eq(st.nr_unknown_id, 0);
	ck_assert_int_eq(samples, perf_script_samples(path, pipe));
	pd_log__exit(&log);
}

START_TEST(test_perf_record_file)
{
	char path[128];

	if (!have_perf())
		TEST_SKIP("perf is not installed");
	snprintf(path, sizeof(path), "%s/file.data", perf_dir);
	perf_record(path, false);
	assert_real_recording(path, false);
}
END_TEST

START_TEST(test_perf_record_pipe)
{
	char path[128];
	struct pd_log mapped, streamed;
	unsigned char *buf;
	size_t size;
	int fd, pfd, status;
	pid_t pid;

	if (!have_perf())
		TEST_SKIP("perf is not installed");
	snprintf(path, sizeof(path), "%s/pipe.data", perf_dir);
	perf_record(path, true);
	assert_real_recording(path, true);
	/* Through a real pipe: the same records as from the file. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	buf = pd_read_all(fd, &size);
	pfd = pipe_from(buf, size, &pid);
	ck_assert_int_eq(pd_log__read(&mapped, NULL, fd, true, NULL, NULL), 0);
	ck_assert_int_eq(pd_log__read(&streamed, NULL, pfd, true, NULL, NULL), 0);
	pd_log__assert_same(&mapped, &streamed, true);
	waitpid(pid, &status, 0);
	pd_log__exit(&mapped);
	pd_log__exit(&streamed);
	free(buf);
	close(pfd);
	close(fd);
}
END_TEST

/* perf record -z: the samples come out of its zstd stream, as many as perf script shows. */
START_TEST(test_perf_record_compressed)
{
	const struct perf_session_stats *st;
	struct perf_session *s;
	char path[128];

	if (!have_perf())
		TEST_SKIP("perf is not installed");
	snprintf(path, sizeof(path), "%s/z.data", perf_dir);
	perf_record_opts(path, false, "-z");
	assert_real_recording(path, false);
	s = perf_session__new(path, NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(perf_session__process_events(s, &(struct perf_tool){
		.sz = sizeof(struct perf_tool) }), 0);
	st = perf_session__stats(s);
	ck_assert_uint_gt(st->nr_events[PERF_RECORD_COMPRESSED], 0);
	ck_assert_uint_gt(st->nr_events[PERF_RECORD_SAMPLE], 0);
	perf_session__delete(s);
}
END_TEST

/* perf's own file, byte-swapped. */
START_TEST(test_perf_record_swapped)
{
	char path[128];
	int fd;

	if (!have_perf())
		TEST_SKIP("perf is not installed");
	snprintf(path, sizeof(path), "%s/swap.data", perf_dir);
	perf_record(path, false);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	close(assert_swapped_reads_same(fd));
	close(fd);
}
END_TEST

START_TEST(test_not_a_file)
{
	AUXTRACE_OPTS(perf_session_opts, opts);

	log_capture_start();
	assert_null_errno(perf_session__new("/nonexistent/perf.data", &opts), ENOENT);
	log_capture_stop();
	ck_assert_msg(log_captured("/nonexistent/perf.data: cannot open it"), "%s", log_text);
	log_capture_start();
	assert_null_errno(perf_session__new("/etc/hostname", &opts), EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("not a perf.data file") ||
		      log_captured("less than any perf.data header"), "%s", log_text);
}
END_TEST

static void setup_dir(void)
{
	snprintf(perf_dir, sizeof(perf_dir), "/tmp/auxtrace-pdr-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(perf_dir));
}

static void teardown_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", perf_dir);
	ck_assert_int_eq(system(cmd), 0);
}

int main(void)
{
	Suite *s = suite_create("perf-data-reader");
	TCase *tc = tcase_create("built");
	TCase *damage = tcase_create("damage");
	TCase *perf = tcase_create("perf");

	tcase_add_loop_test(tc, test_built_file_header_and_features, 0, 2);
	tcase_add_loop_test(tc, test_built_file_ordering, 0, 2);
	tcase_add_loop_test(tc, test_impossible_sample_is_damage, 0,
			    sizeof(impossible) / sizeof(impossible[0]));
	tcase_add_test(tc, test_built_file_pipe_and_stream_agree);
	tcase_add_test(tc, test_built_file_swapped);
	tcase_add_test(tc, test_every_sample_field);
	tcase_add_test(tc, test_file_format_through_a_pipe);
	tcase_add_test(tc, test_compressed_straddling);
	tcase_add_test(tc, test_compressed_damaged);
	tcase_add_test(tc, test_record_layouts_checked);
	tcase_add_test(tc, test_tool_sz);
	tcase_add_loop_test(tc, test_mapping_given_back, 0, 2);
	tcase_add_test(tc, test_not_a_file);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(damage, test_every_truncation, 0, 2);
	tcase_add_loop_test(damage, test_corruption_never_crashes, 0, 2);
	tcase_add_test(damage, test_header_damage_named);
	tcase_set_timeout(damage, 120);
	suite_add_tcase(s, damage);
	tcase_add_checked_fixture(perf, setup_dir, teardown_dir);
	tcase_add_test(perf, test_perf_record_file);
	tcase_add_test(perf, test_perf_record_pipe);
	tcase_add_test(perf, test_perf_record_compressed);
	tcase_add_test(perf, test_perf_record_swapped);
	tcase_set_timeout(perf, 120);
	suite_add_tcase(s, perf);
	return testlib_run(s);
}
