// SPDX-License-Identifier: LGPL-2.1
/*
 * perf.data written by the library, read by Debian's perf 6.1 (always under `timeout`):
 * samples and side-band of a real workload in the file and the pipe format, Intel BTS and
 * Intel PT recordings through the AUX layer with the test producer standing in for the
 * hardware, BPF side-band, and a file system that fills up.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/mmap.h>
#include <auxtrace/perf-data.h>
#include <auxtrace/ring-set.h>
#include <auxtrace/session.h>
#include <auxtrace/synthesize.h>
#include "lib/aux-payload.h"
#include "lib/aux-producer.h"
#include "lib/aux-session.h"
#include "lib/log-capture.h"
#include "lib/perf-data-testlib.h"
#include "lib/testlib.h"

#define SAMPLE_PERIOD_NS 50000
#define LOOPS "400000"

static char dir[64];

static void tmpdir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/auxtrace-pdperf-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void tmpdir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A path in the test's directory (kept until the next call with the same slot). */
static const char *path_in_dir(const char *name)
{
	static char paths[4][128];
	static int next;
	char *path = paths[next++ % 4];

	snprintf(path, sizeof(paths[0]), "%s/%s", dir, name);
	return path;
}

/* The writers one recording goes into: the same records, each written its own way. */
struct writers {
	struct ring_sink sink;	/* takes every push into each writer's data sink */
	struct perf_data_writer *w[3];
	int nr;
};

static ssize_t writers__push(struct ring_sink *sink, const struct iovec *iov, int iovcnt)
{
	struct writers *ws = (struct writers *)sink;
	ssize_t n = 0;

	for (int i = 0; i < ws->nr; i++) {
		struct ring_sink *data = perf_data_writer__data_sink(ws->w[i]);

		n = data->push(data, iov, iovcnt);
		ck_assert_int_ge(n, 0);
	}
	return n;
}

/* A round of the ring set ends: perf sorts the records before it. */
static void finished_round(void *ctx, size_t bytes)
{
	struct writers *ws = ctx;

	(void)bytes;
	for (int i = 0; i < ws->nr; i++)
		ck_assert_int_eq(perf_data_writer__write_finished_round(ws->w[i]), 0);
}

/*
 * Record getppid-loop as perf record would: events on its pid enabled at exec, its
 * pre-exec state synthesized, then a ring set drains the data rings into the writers (one
 * per fd, with its opts, its stats at the end in stats) until it exits.
 */
static void record_workload_into(struct perf_data_writer_opts *const *opts, const int *fds,
				 int nr, struct perf_data_writer_stats *stats)
{
	char *argv[] = { (char *)testlib_prog("getppid-loop"), LOOPS, NULL };
	struct writers ws = { .sink.push = writers__push, .nr = nr };
	struct perf_thread_map *threads;
	struct test_workload wl;
	struct ring_set *set;
	struct evlist *evlist;

	ck_assert_int_eq(test_workload__prepare(&wl, argv), 0);
	threads = perf_thread_map__new_tid(wl.pid);
	evlist = testlib_sampling_evlist(threads, SAMPLE_PERIOD_NS, true);
	ck_assert_msg(evlist, "cpu-clock on the workload: %s", strerror(errno));
	for (int i = 0; i < nr; i++) {
		ws.w[i] = perf_data_writer__new(fds[i], evlist, opts[i]);
		ck_assert_msg(ws.w[i], "writer: %s", strerror(errno));
		ck_assert_int_eq(perf_data_writer__write_prologue(ws.w[i], NULL), 0);
	}
	ck_assert_int_eq(perf_event__synthesize_threads(evlist, NULL, &ws.sink), 0);
	ck_assert_int_eq(perf_event__synthesize_kernel_mmap(evlist, NULL, &ws.sink), 0);
	for (int i = 0; i < nr; i++)
		ck_assert_int_eq(perf_data_writer__write_finished_init(ws.w[i]), 0);
	set = ring_set__new(&(struct ring_set_opts){ .sz = sizeof(struct ring_set_opts),
						     .pass_done = finished_round, .ctx = &ws });
	ck_assert_ptr_nonnull(set);
	ck_assert_int_eq(evlist__add_to_ring_set(evlist, set, &ws.sink), 0);
	test_workload__start(&wl);
	while (ring_set__nr_alive(set) > 0)
		ck_assert_int_ge(ring_set__poll(set, 100), 0);
	ck_assert_int_eq(test_workload__wait(&wl), 0);
	ck_assert_int_ge(ring_set__drain_all(set, true), 0);
	for (int i = 0; i < nr; i++) {
		ck_assert_int_eq(perf_data_writer__finish(ws.w[i]), 0);
		ck_assert_uint_gt(perf_data_writer__stats(ws.w[i])->ring_bytes, 0);
		stats[i] = *perf_data_writer__stats(ws.w[i]);
		perf_data_writer__delete(ws.w[i]);
	}
	ring_set__delete(set);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
}

static void record_workload(struct perf_data_writer_opts *opts, int fd)
{
	struct perf_data_writer_stats stats;

	record_workload_into(&opts, &fd, 1, &stats);
}

/* perf script's sample lines: all of the workload, some in its main(). */
static void check_script(const char *out)
{
	int samples = testlib_count_lines(out, "cpu-clock:u:");

	ck_assert_msg(samples > 10, "perf script shows %d samples:\n%.2000s", samples, out);
	ck_assert_msg(testlib_count_lines(out, "getppid-loop ") >= samples,
		      "samples without the workload's comm:\n%.2000s", out);
	ck_assert_msg(testlib_count_lines(out, " main+") > 0 &&
		      strstr(out, "(" ) && strstr(out, "getppid-loop)"),
		      "no sample resolved to main in getppid-loop:\n%.3000s", out);
}

/* -D walks every record: no "failed to process", and the whole data size was read. */
static void check_dump(const char *file)
{
	char *out;
	int rc = testlib_perf(&out, "report -D -i %s", file);

	ck_assert_msg(rc == 0, "perf report -D: exit %d\n%.2000s", rc, out);
	ck_assert_msg(!strstr(out, "failed") && !strstr(out, "Error") && !strstr(out, "WARNING"),
		      "perf report -D complains:\n%.3000s", strstr(out, "failed") ?
		      strstr(out, "failed") - (strstr(out, "failed") - out > 500 ? 500 : 0) : out);
	free(out);
}

START_TEST(test_software_event_file)
{
	AUXTRACE_OPTS(perf_data_writer_opts, opts);
	const char *file = path_in_dir("perf.data");
	char *out, want[PATH_MAX + 64], id[64] = "", real[PATH_MAX];
	struct utsname u;
	FILE *f;
	int fd, rc;

	REQUIRE_PERF();
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	record_workload(&opts, fd);
	close(fd);
	check_dump(file);

	rc = testlib_perf(&out, "script -i %s", file);
	ck_assert_msg(rc == 0, "perf script: exit %d\n%.2000s", rc, out);
	check_script(out);
	free(out);

	rc = testlib_perf(&out, "report --header-only -i %s", file);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(uname(&u), 0);
	snprintf(want, sizeof(want), "# hostname : %s\n", u.nodename);
	ck_assert_msg(strstr(out, want), "no %s in:\n%s", want, out);
	snprintf(want, sizeof(want), "# os release : %s\n", u.release);
	ck_assert_msg(strstr(out, want), "no %s in:\n%s", want, out);
	snprintf(want, sizeof(want), "# arch : %s\n", u.machine);
	ck_assert_msg(strstr(out, want), "no %s in:\n%s", want, out);
	snprintf(want, sizeof(want), "# nrcpus online : %d\n", testlib_nr_online_cpus());
	ck_assert_msg(strstr(out, want), "no %s in:\n%s", want, out);
	ck_assert_msg(strstr(out, "# cpuid : "), "no cpuid in:\n%s", out);
	ck_assert_msg(strstr(out, "# cmdline : "), "no cmdline in:\n%s", out);
	ck_assert_msg(strstr(out, "# event : name = cpu-clock:u") &&
		      strstr(out, "# event : name = dummy:u"), "no event names in:\n%s", out);
	ck_assert_msg(strstr(out, "# pmu mappings: ") && strstr(out, "software = 1"),
		      "no pmu mappings in:\n%s", out);
	ck_assert_msg(strstr(out, "# perf version : libauxtrace "), "no version in:\n%s", out);
	free(out);

	/* The workload's build ID, as binutils reads it from the binary. */
	snprintf(want, sizeof(want), "readelf -n %s | sed -n 's/.*Build ID: //p'",
		 testlib_prog("getppid-loop"));
	f = popen(want, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(id, sizeof(id), f));
	pclose(f);
	id[strcspn(id, "\n")] = '\0';
	ck_assert_int_eq(strlen(id), 40);
	rc = testlib_perf(&out, "buildid-list -i %s", file);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(realpath(testlib_prog("getppid-loop"), real));
	snprintf(want, sizeof(want), "%s %s\n", id, real);
	ck_assert_msg(strstr(out, want), "no \"%s\" in:\n%s", want, out);
	ck_assert_msg(strstr(out, " [kernel.kallsyms]"), "no kernel build ID in:\n%s", out);
	free(out);
}
END_TEST

/* The pipe format through real pipes: the writer into `perf script -i -` as it records. */
START_TEST(test_software_event_pipe)
{
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .pipe = true);
	const char *file = path_in_dir("pipe.data"), *out_file = path_in_dir("script.out");
	char cmd[512], *out;
	size_t len;
	FILE *p;
	int rc;

	REQUIRE_PERF();
	snprintf(cmd, sizeof(cmd), "tee %s | timeout 60 perf script -i - > %s 2>&1", file,
		 out_file);
	p = popen(cmd, "w");
	ck_assert_ptr_nonnull(p);
	record_workload(&opts, fileno(p));
	rc = pclose(p);
	out = testlib_slurp(out_file, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(rc == 0, "tee | perf script -i -: status %d\n%.2000s", rc, out);
	check_script(out);
	free(out);

	snprintf(cmd, sizeof(cmd), "version >/dev/null && cat %s | timeout 60 perf report -D -i -",
		 file);
	rc = testlib_perf(&out, "%s", cmd);
	ck_assert_msg(rc == 0 && !strstr(out, "failed") && !strstr(out, "Error"),
		      "cat | perf report -D -i -: exit %d\n%.3000s", rc, out);
	ck_assert_int_gt(testlib_count_lines(out, "PERF_RECORD_ATTR"), 1);
	ck_assert_int_gt(testlib_count_lines(out, "PERF_RECORD_FEATURE"), 5);
	ck_assert_int_gt(testlib_count_lines(out, "PERF_RECORD_SAMPLE"), 10);
	free(out);
}
END_TEST

/* What the library's reader hands out of a file: kernel records, counted and summed. */
struct record_digest {
	struct perf_tool tool;
	uint64_t nr, sum;
};

static int digest_record(struct perf_tool *tool, struct perf_session *session,
			 union perf_event *event, struct perf_sample *sample, struct evsel *evsel)
{
	struct record_digest *d = (struct record_digest *)tool;
	const unsigned char *p = (const unsigned char *)event;

	(void)session, (void)sample, (void)evsel;
	d->nr++;
	for (unsigned i = 0; i < event->header.size; i++)
		d->sum = d->sum * 131 + p[i];
	return 0;
}

static struct record_digest digest_file(const char *file, uint64_t *nr_compressed)
{
	struct record_digest d = { .tool = { .sz = sizeof(d.tool), .sample = digest_record,
					     .event = digest_record } };
	struct perf_session *s = perf_session__new(file, NULL);

	ck_assert_msg(s, "%s: %s", file, strerror(errno));
	ck_assert_int_eq(perf_session__process_events(s, &d.tool), 0);
	*nr_compressed = perf_session__stats(s)->nr_events[PERF_RECORD_COMPRESSED];
	perf_session__delete(s);
	return d;
}

/*
 * -z: one recording written plain and compressed at levels 1 and 3 (the same records into
 * each writer): perf reads every record of the compressed files and script prints what it
 * prints for the plain one; so does the library's reader.
 */
START_TEST(test_compressed_equals_plain)
{
	AUXTRACE_OPTS(perf_data_writer_opts, plain);
	AUXTRACE_OPTS(perf_data_writer_opts, fast, .compression_level = 1);
	AUXTRACE_OPTS(perf_data_writer_opts, slow, .compression_level = 3);
	struct perf_data_writer_opts *opts[3] = { &plain, &fast, &slow };
	const char *names[3] = { "plain.data", "z1.data", "z3.data" };
	struct perf_data_writer_stats stats[3];
	struct record_digest d[3];
	uint64_t ncomp[3];
	char *out[3];
	struct stat st[3];
	int fds[3], rc;

	REQUIRE_PERF();
	for (int i = 0; i < 3; i++) {
		fds[i] = open(path_in_dir(names[i]), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		ck_assert_int_ge(fds[i], 0);
	}
	record_workload_into(opts, fds, 3, stats);
	ck_assert_uint_eq(stats[1].stored_uncompressed, 0);
	for (int i = 0; i < 3; i++) {
		const char *file = path_in_dir(names[i]);

		close(fds[i]);
		ck_assert_int_eq(stat(file, &st[i]), 0);
		rc = testlib_perf(&out[i], "script -i %s", file);
		ck_assert_int_eq(rc, 0);
		d[i] = digest_file(file, &ncomp[i]);
		ck_assert_uint_eq(d[i].nr, d[0].nr);
		ck_assert_msg(d[i].sum == d[0].sum, "the reader decodes other records from %s "
			      "(%llu records)", names[i], (unsigned long long)d[i].nr);
		ck_assert_msg(!strcmp(out[i], out[0]), "perf script differs:\n--- plain\n%.1500s"
			      "\n--- %s\n%.1500s", out[0], names[i], out[i]);
		if (!i)
			continue;
		check_dump(file);
		ck_assert_uint_gt(ncomp[i], 0);
		free(out[i]);
	}
	check_script(out[0]);
	free(out[0]);
	ck_assert_uint_eq(ncomp[0], 0);
	ck_assert_msg(st[1].st_size * 3 < st[0].st_size, "compressed %lld bytes, plain %lld",
		      (long long)st[1].st_size, (long long)st[0].st_size);
	rc = testlib_perf(&out[1], "report --header-only -i %s", path_in_dir(names[1]));
	ck_assert_msg(rc == 0 && strstr(out[1], "# compressed : Zstd, level = 1, ratio = "),
		      "no compression header:\n%s", out[1]);
	free(out[1]);
}
END_TEST

/* AUX sessions without AUX hardware: the test producer plays the AUX PMU (aux-session.h). */
static void aux_session_start(struct aux_session *s, const char *pmu, bool snapshot,
			      const char *file)
{
	struct aux_session_opts opts = { .pmu = pmu, .snapshot = snapshot };

	ck_assert_int_eq(aux_session__start(s, &opts, file), 0);
}

/*
 * BTS records of branches first..first + nr - 1, then a zero record: perf 6.1 never
 * decodes the last record of a buffer, and skips zero ones.
 */
static void bts_write(struct aux_session *s, int first, int nr)
{
	struct bts_record recs[64];

	ck_assert_int_lt(nr, 64);
	for (int i = 0; i < nr; i++)
		bts_record__make(&recs[i], (uint64_t)(first + i));
	memset(&recs[nr], 0, sizeof(recs[nr]));
	ck_assert_uint_eq(aux_producer__write(s->p, recs, (nr + 1) * sizeof(recs[0])),
			  (nr + 1) * sizeof(recs[0]));
}

/* `perf script --itrace=b` prints exactly branches first..first + nr - 1, in order. */
static void check_bts_branches(const char *file, int first, int nr)
{
	char *out, *line;
	int rc = testlib_perf(&out, "script --itrace=b -F ip,addr -i %s", file), n = 0;

	ck_assert_msg(rc == 0, "perf script --itrace=b: exit %d\n%.2000s", rc, out);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long from, to;
		struct bts_record r;

		if (sscanf(line, " %llx => %llx", &from, &to) != 2)
			continue;
		bts_record__make(&r, (uint64_t)(first + n));
		ck_assert_msg(n < nr && from == r.from && to == r.to,
			      "branch %d: %s, want %llx => %llx", n, line,
			      (unsigned long long)r.from, (unsigned long long)r.to);
		n++;
	}
	ck_assert_int_eq(n, nr);
	free(out);
}

START_TEST(test_intel_bts_full_trace)
{
	const char *file = path_in_dir("bts.data");
	struct aux_session s;
	char *out;

	REQUIRE_PERF();
	aux_session_start(&s, "intel_bts", false, file);
	/* Two drain passes, so two AUXTRACE records and two index entries. */
	bts_write(&s, 0, 10);
	ck_assert_int_gt(auxtrace_mmaps__read(s.aux, perf_data_writer__aux_sink(s.w)), 0);
	ck_assert_int_eq(perf_data_writer__write_finished_round(s.w), 0);
	bts_write(&s, 10, 7);
	ck_assert_int_gt(auxtrace_mmaps__read(s.aux, perf_data_writer__aux_sink(s.w)), 0);
	ck_assert_uint_eq(perf_data_writer__stats(s.w)->aux_frames, 2);
	ck_assert_int_eq(aux_session__finish(&s), 0);

	check_dump(file);
	check_bts_branches(file, 0, 17);
	ck_assert_int_eq(testlib_perf(&out, "report --header-only -i %s", file), 0);
	ck_assert_msg(strstr(out, "# contains AUX area data"), "no AUXTRACE index:\n%s", out);
	free(out);
}
END_TEST

START_TEST(test_intel_bts_snapshot)
{
	const char *file = path_in_dir("bts-snap.data");
	struct aux_session s;

	REQUIRE_PERF();
	aux_session_start(&s, "intel_bts", true, file);
	bts_write(&s, 100, 12);
	ck_assert_int_gt(auxtrace_mmaps__read_snapshot(s.aux, perf_data_writer__aux_sink(s.w), 0),
			 0);
	ck_assert_int_eq(aux_session__finish(&s), 0);
	check_dump(file);
	check_bts_branches(file, 100, 12);
}
END_TEST

/* Intel PT packets from libipt's encoder: perf report -D decodes every one of them. */
START_TEST(test_intel_pt_packets)
{
	const char *file = path_in_dir("pt.data");
	unsigned char payload[3000];
	struct aux_session s;
	ssize_t used;
	char *out;
	int psb, rc;

	REQUIRE_PERF();
	used = pt_payload__fill(payload, sizeof(payload), 1000, 0x400100);
	ck_assert_int_gt(used, 0);
	psb = pt_payload__count_psb(payload, (size_t)used);
	ck_assert_int_gt(psb, 10);
	aux_session_start(&s, "intel_pt", false, file);
	ck_assert_uint_eq(aux_producer__write(s.p, payload, (size_t)used), (size_t)used);
	ck_assert_int_gt(auxtrace_mmaps__read(s.aux, perf_data_writer__aux_sink(s.w)), 0);
	ck_assert_int_eq(aux_session__finish(&s), 0);
	check_dump(file);
	rc = testlib_perf(&out, "report -D -i %s", file);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(out, "Intel Processor Trace data: size"), "%.3000s", out);
	ck_assert_int_eq(testlib_count_lines(out, " PSBEND"), psb);
	ck_assert_int_eq(testlib_count_lines(out, " PSB") - psb, psb);
	ck_assert_int_eq(testlib_count_lines(out, " TIP.PGE 0x400100"), psb);
	ck_assert_int_eq(testlib_count_lines(out, " TNT TNTTNT (6)"), psb);
	free(out);
}
END_TEST

/* "r0 = 0; exit": the smallest program the verifier takes. fd, or -errno. */
static int bpf_tiny_prog(const char *name)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", prog, 2, NULL);

	return fd < 0 ? -errno : fd;
}

struct ksym_find {
	char name[PERF_RECORD_KSYMBOL_NAME_LEN];
	uint32_t id;
	const struct perf_record_ksymbol *ksym;
	const struct perf_record_bpf_event *bpf;
	uint64_t identifier;		/* the trailer's last u64 */
};

static int ksym_find__record(void *ctx, const union perf_event *ev)
{
	struct ksym_find *k = ctx;

	if (ev->header.type == PERF_RECORD_KSYMBOL && !strcmp(ev->ksymbol.name, k->name))
		k->ksym = &ev->ksymbol;
	if (ev->header.type == PERF_RECORD_BPF_EVENT && ev->bpf.id == k->id)
		k->bpf = &ev->bpf;
	if (ev->header.type == PERF_RECORD_KSYMBOL || ev->header.type == PERF_RECORD_BPF_EVENT)
		memcpy(&k->identifier, (const char *)ev + ev->header.size - 8, 8);
	return 0;
}

/* A BPF program loaded before recording: its KSYMBOL and BPF_EVENT, as perf reads them. */
START_TEST(test_bpf_side_band)
{
	AUXTRACE_OPTS(perf_data_writer_opts, opts);
	const char *file = path_in_dir("bpf.data");
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	static unsigned char buf[1 << 20];
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	struct ring_sink_memory mem;
	struct ksym_find k = { 0 };
	struct perf_data_writer *w;
	struct evlist *evlist;
	char want[PERF_RECORD_KSYMBOL_NAME_LEN + 128], *out;
	uint64_t id;
	int prog, fd, n;

	REQUIRE_PERF();
	prog = bpf_tiny_prog("pdw_tiny");
	if (prog < 0)
		TEST_SKIP("cannot load a BPF program (%s)", strerror(-prog));
	ck_assert_int_eq(bpf_obj_get_info_by_fd(prog, &info, &len), 0);
	if (!info.nr_jited_ksyms)
		TEST_SKIP("the BPF JIT is off (net.core.bpf_jit_enable = 0)");
	k.id = info.id;
	n = snprintf(k.name, sizeof(k.name), "bpf_prog_");
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		n += snprintf(k.name + n, sizeof(k.name) - n, "%02x", info.tag[i]);
	snprintf(k.name + n, sizeof(k.name) - n, "_pdw_tiny");

	evlist = testlib_sampling_evlist(threads, 10000000, false);
	ck_assert_ptr_nonnull(evlist);
	ring_sink_memory__init(&mem, buf, sizeof(buf));
	ck_assert_int_eq(perf_event__synthesize_bpf_events(evlist, NULL, &mem.sink), 0);
	ck_assert_int_gt(testlib_walk_records(buf, mem.used, ksym_find__record, &k), 0);
	ck_assert_msg(k.ksym, "no KSYMBOL %s among the synthesized records", k.name);
	ck_assert_uint_ne(k.ksym->addr, 0);
	ck_assert_uint_gt(k.ksym->len, 0);
	ck_assert_uint_eq(k.ksym->ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	ck_assert_ptr_nonnull(k.bpf);
	ck_assert_uint_eq(k.bpf->type, PERF_BPF_EVENT_PROG_LOAD);
	ck_assert_mem_eq(k.bpf->tag, info.tag, BPF_TAG_SIZE);
	/* Filed under the tracking evsel (the dummy) by its sample ID. */
	ck_assert_int_eq(evsel__id(evlist__next(evlist, evlist__first(evlist)), 0, 0, &id), 0);
	ck_assert_uint_eq(k.identifier, id);

	fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	w = perf_data_writer__new(fd, evlist, &opts);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_event__synthesize_bpf_events(evlist, NULL,
							   perf_data_writer__data_sink(w)), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	perf_data_writer__delete(w);
	close(fd);
	close(prog);
	check_dump(file);
	ck_assert_int_eq(testlib_perf(&out, "report -D -i %s", file), 0);
	snprintf(want, sizeof(want), "PERF_RECORD_KSYMBOL addr %llx len %u type 1 flags 0x0 name %s",
		 (unsigned long long)k.ksym->addr, k.ksym->len, k.name);
	ck_assert_msg(strstr(out, want), "no \"%s\" in:\n%.3000s", want, out);
	snprintf(want, sizeof(want), "PERF_RECORD_BPF_EVENT type 1, flags 0, id %u", info.id);
	ck_assert_msg(strstr(out, want), "no \"%s\" in:\n%.3000s", want, out);
	free(out);
	evlist__delete(evlist);
	perf_thread_map__put(threads);
}
END_TEST

/*
 * After a write error the file must be what finish says: a header whose data section
 * holds only whole records, feature sections all inside the file (or none, and nothing
 * after the data), and perf reading every record without a complaint. Returns how many
 * feature sections it has.
 */
static int check_after_error(const char *file, const struct perf_data_writer_stats *st)
{
	struct perf_file_header hdr;
	unsigned char *buf;
	size_t len;
	int nr = 0;

	buf = testlib_slurp(file, &len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_ge(len, sizeof(hdr));
	memcpy(&hdr, buf, sizeof(hdr));
	ck_assert_uint_eq(hdr.magic, PERF_DATA_MAGIC);
	ck_assert_uint_eq(hdr.data.offset, st->data_offset);
	ck_assert_uint_eq(hdr.data.size, st->data_size);
	ck_assert_uint_gt(hdr.data.size, 0);
	ck_assert_uint_le(hdr.data.offset + hdr.data.size, len);
	ck_assert_int_gt(testlib_walk_records(buf + hdr.data.offset, hdr.data.size, NULL, NULL),
			 0);
	for (int w = 0; w < PERF_DATA_FEATURE_WORDS; w++)
		nr += __builtin_popcountll(hdr.adds_features[w]);
	if (nr) {
		const struct perf_file_section *sec = (const void *)(buf + hdr.data.offset +
								      hdr.data.size);

		for (int i = 0; i < nr; i++)
			ck_assert_uint_le(sec[i].offset + sec[i].size, len);
	} else {
		ck_assert_uint_eq(len, hdr.data.offset + hdr.data.size);
	}
	free(buf);
	check_dump(file);
	return nr;
}

/* A writer of side-band for this process into file, on a session of our own. */
static struct perf_data_writer *writer_on(const char *file, struct evlist **evlist, int *fd)
{
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct perf_data_writer *w;

	*evlist = testlib_sampling_evlist(threads, 10000000, false);
	perf_thread_map__put(threads);
	ck_assert_ptr_nonnull(*evlist);
	*fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(*fd, 0);
	w = perf_data_writer__new(*fd, *evlist, NULL);
	ck_assert_ptr_nonnull(w);
	return w;
}

/*
 * A file system that fills up while recording: the write fails with ENOSPC and says so,
 * later writes fail the same way, and finish leaves a file that perf reads to the last
 * whole record. The tmpfs lives in a mount namespace of this test's own, so it goes away
 * with the test process even when the test fails.
 */
START_TEST(test_full_file_system)
{
	const char *mnt = path_in_dir("small"), *file = path_in_dir("small/perf.data");
	const struct perf_data_writer_stats *st;
	struct stat sb;
	struct perf_data_writer *w;
	struct evlist *evlist;
	int fd, err = 0, passes = 0;

	REQUIRE_PERF();
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		TEST_SKIP("no mount namespace of our own (%s)", strerror(errno));
	ck_assert_int_eq(mkdir(mnt, 0700), 0);
	ck_assert_int_eq(mount("tmpfs", mnt, "tmpfs", 0, "size=64k"), 0);
	w = writer_on(file, &evlist, &fd);
	st = perf_data_writer__stats(w);

	log_capture_start_at(LIBAUXTRACE_WARN);
	while (!err && passes++ < 10000)
		err = perf_event__synthesize_thread(evlist, getpid(), false, NULL,
						    perf_data_writer__data_sink(w));
	ck_assert_int_eq(err, -ENOSPC);
	ck_assert_int_eq(st->error, -ENOSPC);
	ck_assert_msg(log_captured("No space left on device") &&
		      log_captured("the output's file system is full"), "%s", log_text);
	/* The torn record is cut off at once, even if finish never comes. */
	ck_assert_int_eq(stat(file, &sb), 0);
	ck_assert_uint_eq(sb.st_size, st->data_offset + st->data_size);
	/* Nothing more goes out, and the data section keeps its whole records. */
	ck_assert_int_eq(perf_data_writer__write_finished_round(w), -ENOSPC);
	ck_assert_int_eq(perf_data_writer__finish(w), -ENOSPC);
	log_capture_stop();
	ck_assert_msg(log_captured("the file is valid and incomplete"), "%s", log_text);
	ck_assert(st->finished);
	check_after_error(file, st);	/* the features may fit in the last page, or not */
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
	ck_assert_int_eq(umount(mnt), 0);
}
END_TEST

/* Records all written, but the features do not fit: the file goes without them. */
START_TEST(test_features_do_not_fit)
{
	const char *file = path_in_dir("fsize.data");
	const struct perf_data_writer_stats *st;
	struct perf_data_writer *w;
	struct evlist *evlist;
	struct rlimit rl;
	int fd;

	REQUIRE_PERF();
	w = writer_on(file, &evlist, &fd);
	st = perf_data_writer__stats(w);
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, getpid(), false, NULL,
						       perf_data_writer__data_sink(w)), 0);
	signal(SIGXFSZ, SIG_IGN);	/* the write fails with EFBIG instead */
	rl.rlim_cur = rl.rlim_max = st->data_offset + st->data_size;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	log_capture_start_at(LIBAUXTRACE_WARN);
	ck_assert_int_eq(perf_data_writer__finish(w), -EFBIG);
	log_capture_stop();
	ck_assert_msg(log_captured("writing the feature sections failed") &&
		      log_captured("ulimit -f") && log_captured("the file is valid with all"),
		      "%s", log_text);
	ck_assert_int_eq(st->error, 0);
	ck_assert_int_eq(check_after_error(file, st), 0);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* The clock records and features perf prints: TIME_CONV and a clockid of the events'. */
START_TEST(test_clock_records)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
	};
	const char *file = path_in_dir("clock.data"), *file2 = path_in_dir("tc.data");
	struct perf_event_mmap_page *pc;
	struct perf_data_writer *w;
	struct evlist *evlist = evlist__new();
	char *out, want[64];
	int fd, rc;

	REQUIRE_PERF();
	ck_assert_int_eq(evlist__add(evlist, evsel__new(&attr)), 0);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
	rc = testlib_perf(&out, "report --header-only -i %s", file);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(out, "# clockid frequency: 1000 MHz") &&
		      strstr(out, "# clockid: monotonic (1)"), "%s", out);
	free(out);

	/* TIME_CONV from a control page that publishes a conversion (played when it does not). */
	w = writer_on(file2, &evlist, &fd);
	pc = perf_mmap__userpg(evlist__mmap_at(evlist, 0));
	ck_assert_int_eq(evlist__disable(evlist), 0);
	if (!pc->cap_user_time_zero) {
		pc->time_shift = 31;
		pc->time_mult = 0x12345;
		pc->time_zero = 0xabcdef;
		pc->cap_user_time_zero = 1;
	}
	ck_assert_int_eq(perf_data_writer__write_time_conv(w), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	perf_data_writer__delete(w);
	close(fd);
	check_dump(file2);
	rc = testlib_perf(&out, "report -D -i %s", file2);
	snprintf(want, sizeof(want), "... Time Muliplier  %u\n", pc->time_mult);
	ck_assert_msg(testlib_count_lines(out, "PERF_RECORD_TIME_CONV") == 1 &&
		      strstr(out, want), "%.3000s", out);
	free(out);
	evlist__delete(evlist);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perf-data-perf");
	TCase *tc = tcase_create("perf");

	tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_software_event_file);
	tcase_add_test(tc, test_software_event_pipe);
	tcase_add_test(tc, test_compressed_equals_plain);
	tcase_add_test(tc, test_intel_bts_full_trace);
	tcase_add_test(tc, test_intel_bts_snapshot);
	tcase_add_test(tc, test_intel_pt_packets);
	tcase_add_test(tc, test_bpf_side_band);
	tcase_add_test(tc, test_full_file_system);
	tcase_add_test(tc, test_features_do_not_fit);
	tcase_add_test(tc, test_clock_records);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
