// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat reader against trace-cmd report 3.1.6 (always under timeout): files the
 * trace.dat writer makes of a real workload on two CPUs, with and without overwritten
 * sub-buffers, come out with the same events, timestamps, CPUs and lost-event marks; the
 * file's description (CPUs, clock, options, recorded events) reads back; truncated and
 * damaged files give an error that says where, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <internal/lib.h>
#include <tracefs.h>
#include <tracefs/trace-dat.h>
#include <tracefs/trace-dat-reader.h>
#include "lib/log-capture.h"
#include "lib/testlib.h"

#define MAX_CPUS	64
#define MAX_ITEMS	20000

static char base_dir[64] = "/tmp/auxtrace-tdr-XXXXXX";

/* ---- recording a file with the writer ---- */

struct recording {
	char path[160];
	int nr_cpus;
	uint64_t lost;			/* what the tcpus counted as lost */
};

static void mark(int fd, int i, size_t len)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "tdr %d ", i);

	if (len < (size_t)n)
		len = (size_t)n;
	memset(buf + n, 'x', len - (size_t)n);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
}

/*
 * rounds x per_round markers of marker_len bytes, each followed by a getppid, the first half
 * of the rounds on CPU 0 and the rest on the last CPU, drained (read(2)) after each round
 * into a trace.dat at name in the test's directory. buffer_kb: per-CPU buffer (0: default).
 */
static void record(struct recording *rec, const char *name, int buffer_kb, int rounds,
		   int per_round, size_t marker_len)
{
	struct tracefs_cpu *tcpu[MAX_CPUS];
	struct ring_sink *sink[MAX_CPUS];
	struct tracefs_instance *inst;
	struct trace_dat_writer *w;
	char iname[128], filter[64];
	int marker;

	testlib_instance_name(iname, sizeof(iname));
	inst = tracefs_instance_create(iname);
	ck_assert_ptr_nonnull(inst);
	if (buffer_kb)
		ck_assert_int_eq(tracefs_instance_set_buffer_size(inst, buffer_kb, -1), 0);
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	ck_assert_int_gt(tracefs_instance_file_write(inst, "events/syscalls/sys_enter_getppid/filter",
						     filter), 0);
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", "sys_enter_getppid"), 0);
	marker = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY);
	ck_assert_int_ge(marker, 0);

	snprintf(rec->path, sizeof(rec->path), "%s/%s", base_dir, name);
	rec->nr_cpus = testlib_nr_online_cpus() < MAX_CPUS ? testlib_nr_online_cpus() : MAX_CPUS;
	rec->lost = 0;
	w = trace_dat_writer__new(rec->path, inst, NULL);
	ck_assert_ptr_nonnull(w);
	for (int cpu = 0; cpu < rec->nr_cpus; cpu++) {
		tcpu[cpu] = tracefs_cpu_open(inst, cpu, true);
		ck_assert_ptr_nonnull(tcpu[cpu]);
		sink[cpu] = trace_dat_writer__cpu_sink(w, cpu);
		ck_assert_ptr_nonnull(sink[cpu]);
	}
	for (int round = 0; round < rounds; round++) {
		ck_assert_int_eq(testlib_pin_cpu(round < rounds / 2 ? 0 : rec->nr_cpus - 1), 0);
		for (int i = 0; i < per_round; i++) {
			mark(marker, round * per_round + i, marker_len);
			syscall(SYS_getppid);
		}
		for (int cpu = 0; cpu < rec->nr_cpus; cpu++)
			ck_assert_int_ge(tracefs_cpu_drain(tcpu[cpu], sink[cpu]), 0);
	}
	ck_assert_int_eq(tracefs_event_disable(inst, NULL, NULL), 0);
	for (int cpu = 0; cpu < rec->nr_cpus; cpu++) {
		ck_assert_int_ge(tracefs_cpu_flush_drain(tcpu[cpu], sink[cpu]), 0);
		rec->lost += tracefs_cpu_stats(tcpu[cpu])->lost;
		tracefs_cpu_close(tcpu[cpu]);
	}
	ck_assert_int_eq(trace_dat_writer__finish(w), 0);
	trace_dat_writer__delete(w);
	close(marker);
	ck_assert_int_eq(tracefs_instance_destroy(inst), 0);
	tracefs_instance_free(inst);
	testlib_pin_cpu(-1);
}

/* ---- what each reader sees ---- */

/* An event (name) or a lost-events mark (name "", missed -1 when uncounted). */
struct item {
	int cpu;
	uint64_t ts;
	char name[48];
	long long missed;
};

struct items {
	struct item v[MAX_ITEMS];
	int n;
};

static void items_add(struct items *it, int cpu, uint64_t ts, const char *name,
		      long long missed)
{
	ck_assert_int_lt(it->n, MAX_ITEMS);
	it->v[it->n++] = (struct item){ .cpu = cpu, .ts = ts, .missed = missed };
	snprintf(it->v[it->n - 1].name, sizeof(it->v[0].name), "%s", name);
}

static void items_from_reader(struct items *it, const char *path)
{
	struct trace_dat_reader *r = trace_dat_reader__open(path);
	const struct trace_dat_record *rec;
	struct trace_dat_cursor *c;

	ck_assert_ptr_nonnull(r);
	c = trace_dat_cursor__new(r, -1);
	ck_assert_ptr_nonnull(c);
	it->n = 0;
	while ((rec = trace_dat_cursor__next(c))) {
		if (rec->kind == TRACE_DAT_LOST)
			items_add(it, rec->cpu, rec->ts, "", rec->missed);
		else
			items_add(it, rec->cpu, rec->ts, rec->event ? rec->event->name : "?", 0);
	}
	ck_assert_int_eq(errno, 0);
	trace_dat_cursor__delete(c);
	trace_dat_reader__close(r);
}

/* `timeout 60 trace-cmd report -t`: "comm-pid [cpu] sec.nsec: name: ..." and drop marks. */
static void items_from_trace_cmd(struct items *it, const char *path)
{
	char cmd[256], line[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "timeout 60 trace-cmd report -t -i '%s' 2>&1", path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	it->n = 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long sec, nsec;
		char name[48];
		long long n;
		int cpu;
		char *at;

		if (sscanf(line, "CPU:%d [%lld EVENTS DROPPED]", &cpu, &n) == 2) {
			items_add(it, cpu, 0, "", n);
		} else if (sscanf(line, "CPU:%d [EVENTS DROPPED]", &cpu) == 1) {
			items_add(it, cpu, 0, "", -1);
		} else if ((at = strstr(line, "] ")) && at - line > 4 && at[-4] == '[' &&
			   sscanf(at - 3, "%d] %llu.%llu: %47[^:]:", &cpu, &sec, &nsec, name) == 4) {
			items_add(it, cpu, sec * 1000000000ull + nsec, name, 0);
		}
	}
	ck_assert_int_eq(pclose(p), 0);
}

/*
 * The same events in the same order with the same CPUs, times and names; the same marks on
 * each CPU before the same event. trace-cmd prints a mark with the event after it, so
 * marks are compared per CPU.
 */
static void assert_same_items(const struct items *ours, const struct items *theirs)
{
	int i = 0, j = 0;

	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		int a = 0, b = 0;

		for (;;) {
			while (a < ours->n && ours->v[a].cpu != cpu)
				a++;
			while (b < theirs->n && theirs->v[b].cpu != cpu)
				b++;
			if (a == ours->n || b == theirs->n)
				break;
			ck_assert_msg(!strcmp(ours->v[a].name, theirs->v[b].name) &&
				      ours->v[a].missed == theirs->v[b].missed &&
				      (!ours->v[a].name[0] || ours->v[a].ts == theirs->v[b].ts),
				      "CPU %d: item %d is '%s' at %" PRIu64 " (missed %lld), trace-cmd has '%s' at %" PRIu64 " (missed %lld)",
				      cpu, a, ours->v[a].name, ours->v[a].ts, ours->v[a].missed,
				      theirs->v[b].name, theirs->v[b].ts, theirs->v[b].missed);
			a++;
			b++;
		}
		ck_assert_msg(a == ours->n && b == theirs->n, "CPU %d: one reader has more", cpu);
	}
	/* the merge: events alone, in one order */
	for (;;) {
		while (i < ours->n && !ours->v[i].name[0])
			i++;
		while (j < theirs->n && !theirs->v[j].name[0])
			j++;
		if (i == ours->n || j == theirs->n)
			break;
		ck_assert_msg(ours->v[i].cpu == theirs->v[j].cpu && ours->v[i].ts == theirs->v[j].ts,
			      "merged event %d: ours CPU %d at %" PRIu64 ", trace-cmd CPU %d at %" PRIu64,
			      i, ours->v[i].cpu, ours->v[i].ts, theirs->v[j].cpu, theirs->v[j].ts);
		i++;
		j++;
	}
	ck_assert(i == ours->n && j == theirs->n);
}

static int count_named(const struct items *it, const char *name)
{
	int n = 0;

	for (int i = 0; i < it->n; i++)
		n += !strcmp(it->v[i].name, name);
	return n;
}

static struct items ours, theirs;

#define REQUIRE_TRACING()							\
	do {									\
		if (!testlib_is_root() || !testlib_tracefs())			\
			TEST_SKIP("needs root and a mounted tracefs");		\
		if (system("timeout 60 trace-cmd -h >/dev/null 2>&1") == -1 ||	\
		    system("command -v trace-cmd >/dev/null"))			\
			TEST_SKIP("trace-cmd is not installed (trace-cmd)");	\
	} while (0)

/* A workload on two CPUs: every event of it, as trace-cmd report shows them. */
START_TEST(test_same_events_as_trace_cmd)
{
	struct recording rec;

	REQUIRE_TRACING();
	record(&rec, "workload.dat", 0, 4, 150, 16);
	items_from_reader(&ours, rec.path);
	items_from_trace_cmd(&theirs, rec.path);
	ck_assert_int_eq(count_named(&ours, "print"), 600);
	ck_assert_int_eq(count_named(&ours, "sys_enter_getppid"), 600);
	ck_assert_int_eq(ours.n, 1200);
	assert_same_items(&ours, &theirs);
}
END_TEST

/*
 * An 8 KiB buffer overwritten between drains: the marks and their counts are trace-cmd's,
 * and add up to what the recording's tcpus counted lost.
 */
START_TEST(test_lost_marks_as_trace_cmd)
{
	struct recording rec;
	long long sum = 0;
	int marks = 0;

	REQUIRE_TRACING();
	record(&rec, "lossy.dat", 8, 6, 300, 200);
	items_from_reader(&ours, rec.path);
	items_from_trace_cmd(&theirs, rec.path);
	for (int i = 0; i < ours.n; i++) {
		if (ours.v[i].name[0])
			continue;
		marks++;
		ck_assert_int_ge(ours.v[i].missed, 0);	/* 200-byte markers leave room for counts */
		sum += ours.v[i].missed;
	}
	ck_assert_int_gt(marks, 0);
	ck_assert_int_eq(sum, (long long)rec.lost);
	ck_assert_int_eq(count_named(&ours, "print") + sum, 2 * 6 * 300 - count_named(&ours,
		"sys_enter_getppid"));
	assert_same_items(&ours, &theirs);
}
END_TEST

/* What describes the data: CPUs and their sizes, clock, options, recorded events, tep. */
START_TEST(test_description)
{
	const struct trace_dat_cpu_data *d;
	const char *const *events;
	struct trace_dat_reader *r;
	struct recording rec;
	uint64_t total = 0;
	size_t nr;

	REQUIRE_TRACING();
	record(&rec, "desc.dat", 0, 2, 10, 16);
	r = trace_dat_reader__open(rec.path);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(trace_dat_reader__path(r), rec.path);
	ck_assert_int_eq(trace_dat_reader__nr_cpus(r), rec.nr_cpus);
	ck_assert_uint_eq(trace_dat_reader__page_size(r), (unsigned)getpagesize());
	ck_assert_str_eq(trace_dat_reader__clock(r), "local");
	ck_assert_ptr_nonnull(strstr(trace_dat_reader__version(r), "libauxtrace"));
	ck_assert_ptr_nonnull(trace_dat_reader__uname(r));
	ck_assert_ptr_nonnull(strstr(trace_dat_reader__cpustat(r, 0), "entries:"));
	ck_assert_ptr_null(trace_dat_reader__cpustat(r, rec.nr_cpus));
	events = trace_dat_reader__events(r, &nr);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(events[0], "syscalls:sys_enter_getppid");
	ck_assert_ptr_nonnull(tep_find_event_by_name(trace_dat_reader__tep(r), "ftrace", "print"));
	for (int cpu = 0; cpu < rec.nr_cpus; cpu++) {
		d = trace_dat_reader__cpu_data(r, cpu);
		ck_assert_ptr_nonnull(d);
		ck_assert_uint_eq(d->size % trace_dat_reader__page_size(r), 0);
		total += d->size;
	}
	ck_assert_uint_gt(total, 0);
	ck_assert_uint_le(total, trace_dat_reader__size(r));
	assert_null_errno(trace_dat_reader__cpu_data(r, rec.nr_cpus), EINVAL);
	assert_null_errno(trace_dat_reader__cpu_data(r, -1), EINVAL);
	assert_null_errno(trace_dat_cursor__new(r, rec.nr_cpus), EINVAL);
	assert_null_errno(trace_dat_cursor__new(r, -2), EINVAL);
	trace_dat_reader__close(r);
	trace_dat_reader__close(NULL);
	assert_null_errno(trace_dat_reader__open(NULL), EINVAL);
}
END_TEST

/* A kernel function's address from /proc/kallsyms (0: the kernel hides them). */
static unsigned long long kernel_text_address(void)
{
	unsigned long long addr = 0;
	char line[512], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	ck_assert_ptr_nonnull(f);
	while (!addr && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c", &addr, &type) != 2 || (type != 'T' && type != 't'))
			addr = 0;
	fclose(f);
	return addr;
}

/* no_kallsyms: the formats and the data as before, the kernel's symbols left out of tep. */
START_TEST(test_no_kallsyms)
{
	AUXTRACE_OPTS(trace_dat_reader_opts, no_ksyms, .no_kallsyms = true);
	unsigned long long addr = kernel_text_address();
	struct trace_dat_reader *r, *lean;
	struct recording rec;
	size_t nr;

	REQUIRE_TRACING();
	if (!addr)
		return;		/* nothing to look up: the kernel hides its addresses */
	record(&rec, "ksyms.dat", 0, 2, 10, 16);
	r = trace_dat_reader__open_opts(rec.path, NULL);
	lean = trace_dat_reader__open_opts(rec.path, &no_ksyms);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(lean);
	ck_assert_ptr_nonnull(tep_find_function(trace_dat_reader__tep(r), addr));
	ck_assert_ptr_null(tep_find_function(trace_dat_reader__tep(lean), addr));
	trace_dat_reader__events(lean, &nr);
	ck_assert_uint_eq(nr, 1);
	ck_assert_ptr_nonnull(tep_find_event_by_name(trace_dat_reader__tep(lean), "ftrace",
						     "print"));
	ck_assert_int_eq(trace_dat_reader__nr_cpus(lean), trace_dat_reader__nr_cpus(r));
	trace_dat_reader__close(lean);
	trace_dat_reader__close(r);
}
END_TEST

/* ---- damaged files ---- */

static void *slurp(const char *path, size_t *len)
{
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(read(fd, buf, *len), (ssize_t)*len);
	close(fd);
	return buf;
}

static void spill(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* Open and walk every CPU: 0, or -errno from wherever it failed. */
static int read_all(const char *path, int *events)
{
	struct trace_dat_reader *r = trace_dat_reader__open(path);
	const struct trace_dat_record *rec;
	struct trace_dat_cursor *c;
	int err;

	*events = 0;
	if (!r)
		return -errno;
	c = trace_dat_cursor__new(r, -1);
	ck_assert_ptr_nonnull(c);
	while ((rec = trace_dat_cursor__next(c)))
		*events += rec->kind == TRACE_DAT_EVENT;
	err = -errno;
	trace_dat_cursor__delete(c);
	trace_dat_reader__close(r);
	return err;
}

/*
 * A small recording (2 rounds of 20 markers and getppid calls) as bytes, and its first CPU
 * with data and where that data starts, for a test to damage.
 */
static unsigned char *recorded_bytes(struct recording *rec, const char *name, size_t *len,
				     int *cpu, size_t *data_at)
{
	unsigned char *buf;
	struct trace_dat_reader *r;

	record(rec, name, 0, 2, 20, 16);
	buf = slurp(rec->path, len);
	r = trace_dat_reader__open(rec->path);
	ck_assert_ptr_nonnull(r);
	for (*cpu = 0; !trace_dat_reader__cpu_data(r, *cpu)->size; ++*cpu)
		ck_assert_int_lt(*cpu + 1, trace_dat_reader__nr_cpus(r));
	*data_at = (size_t)trace_dat_reader__cpu_data(r, *cpu)->offset;
	trace_dat_reader__close(r);
	return buf;
}

/*
 * Cut anywhere, the file fails with EINVAL and says where: every length of the head, of the
 * flyrecord table and the clock after it, every few bytes of the options, and a spread
 * through the rest (each cut past kallsyms costs a whole parse of it). A cut inside the CPU
 * data leaves the table pointing past the end of the file.
 */
static bool cut_here(size_t n, size_t opts, size_t fly, size_t len)
{
	if (n < 4096 || (n >= fly && n < fly + 200) || n == len - 1 || n == len - 4096)
		return true;
	if (n + 16 >= opts && n < fly)
		return n % 7 == 0;
	return n % (1 + n / 16) == 0;
}

START_TEST(test_truncated)
{
	struct recording rec;
	char cut[200];
	size_t len, opts, fly, data_at;
	unsigned char *buf;
	int events, cuts = 0, cpu;
	unsigned int step = testlib_sweep_step(), seen = 0;

	REQUIRE_TRACING();
	buf = recorded_bytes(&rec, "whole.dat", &len, &cpu, &data_at);
	opts = (size_t)((unsigned char *)memmem(buf, len, "options  ", 10) - buf);
	fly = (size_t)((unsigned char *)memmem(buf, len, "flyrecord", 10) - buf);
	ck_assert_uint_lt(opts, fly);
	snprintf(cut, sizeof(cut), "%s/cut.dat", base_dir);
	log_capture_start();
	for (size_t n = 0; n < len; n++) {
		if (!cut_here(n, opts, fly, len) || seen++ % step)
			continue;
		spill(cut, buf, n);
		ck_assert_msg(read_all(cut, &events) == -EINVAL, "cut at %zu of %zu read", n, len);
		cuts++;
	}
	log_capture_stop();
	printf("%d cuts\n", cuts);
	/* what the messages say: where, and what did not fit */
	spill(cut, buf, fly + 20);
	log_capture_start();
	ck_assert_int_eq(read_all(cut, &events), -EINVAL);
	ck_assert_msg(log_captured("at offset 0x") && log_captured("the flyrecord table needs 8 bytes, the file has"),
		      "%s", log_text);
	spill(cut, buf, len - 1);
	log_capture_start();
	ck_assert_int_eq(read_all(cut, &events), -EINVAL);
	ck_assert_msg(log_captured("runs past the end of the file"), "%s", log_text);
	log_capture_stop();
	ck_assert_int_eq(read_all("/nonexistent/trace.dat", &events), -ENOENT);
	free(buf);
}
END_TEST

/* Bytes of the description flipped: an error or a file read, never a crash (ASan watches). */
START_TEST(test_flipped_description)
{
	struct recording rec;
	char bad[200];
	size_t len, data_at;
	unsigned char *buf;
	int events, refused = 0, cpu;
	unsigned int step = testlib_sweep_step(), seen = 0;

	REQUIRE_TRACING();
	buf = recorded_bytes(&rec, "flip.dat", &len, &cpu, &data_at);
	snprintf(bad, sizeof(bad), "%s/bad.dat", base_dir);
	log_capture_start();
	for (size_t at = 0; at < data_at; at += 1 + at / 8) {
		unsigned char was = buf[at];

		if (seen++ % step)
			continue;
		buf[at] ^= 0xff;
		spill(bad, buf, len);
		refused += read_all(bad, &events) != 0;
		buf[at] = was;
	}
	log_capture_stop();
	ck_assert_int_gt(refused, 5 / (int)step);	/* memcheck flips one in step */
	free(buf);
}
END_TEST

/* A sub-buffer whose commit word claims more than the page: refused, with CPU and offset. */
START_TEST(test_damaged_subbuffer)
{
	struct recording rec;
	char bad[200], want[128];
	unsigned char *buf;
	uint32_t commit = 0x7ffffff;
	size_t len, data_at;
	int events, cpu;

	REQUIRE_TRACING();
	buf = recorded_bytes(&rec, "sub.dat", &len, &cpu, &data_at);
	memcpy(buf + data_at + 8, &commit, sizeof(commit));
	snprintf(want, sizeof(want), "CPU %d: the sub-buffer at offset 0x%zx is damaged", cpu,
		 data_at);
	snprintf(bad, sizeof(bad), "%s/badpage.dat", base_dir);
	spill(bad, buf, len);
	log_capture_start();
	ck_assert_int_eq(read_all(bad, &events), -EINVAL);
	ck_assert_msg(log_captured(want), "no '%s' in the log", want);
	log_capture_stop();
	free(buf);
}
END_TEST

/* Replace the first "from" in buf with "to" of the same length. */
static void patch(unsigned char *buf, size_t len, const char *from, const char *to)
{
	unsigned char *at = memmem(buf, len, from, strlen(from));

	ck_assert_msg(at, "no '%s' in the file", from);
	ck_assert_uint_eq(strlen(from), strlen(to));
	memcpy(at, to, strlen(to));
}

/*
 * Formats that crash libtraceevent 1.7's parser (an unclosed bracket in a field; a print
 * fmt that divides by a string or a bare "sizeof", which it folds to a division by 0) or
 * that it leaks on (a declaration with a ':' or '>' outside brackets, or of one name: a token
 * of it is never freed, and a tool under LeakSanitizer exits 1) are left out with a warning,
 * by our check, before libtraceevent sees them: the file reads, its events without those
 * formats.
 */
START_TEST(test_hostile_formats_left_out)
{
	static const char *const cases[][2] = {
		{ "args[];", "args[\xa2;" },
		{ "(void *)REC->ip, REC->buf", "1%\"\"           , REC->buf" },
		{ "(void *)REC->ip, REC->buf", "REC->ip/sizeof , REC->buf" },
		{ "unsigned short common_type;", "unsign:d short common_type;" },
		{ "unsigned char common_flags;", "un>igned char common_flags;" },
		{ "int common_pid;", "intxcommon_pid;" },
	};
	struct recording rec;
	char bad[200];
	unsigned char *whole, *buf;
	size_t len, data_at;
	int events, cpu;

	REQUIRE_TRACING();
	whole = recorded_bytes(&rec, "hostile.dat", &len, &cpu, &data_at);
	snprintf(bad, sizeof(bad), "%s/hostile-bad.dat", base_dir);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		buf = malloc(len);
		ck_assert_ptr_nonnull(buf);
		memcpy(buf, whole, len);
		patch(buf, len, cases[i][0], cases[i][1]);
		spill(bad, buf, len);
		log_capture_start();
		ck_assert_int_eq(read_all(bad, &events), 0);
		ck_assert_msg(log_captured("left out, its events have no name"), "%s", log_text);
		ck_assert_msg(!log_captured("libtraceevent cannot parse"), "case %zu reached "
			      "libtraceevent: %s", i, log_text);
		log_capture_stop();
		ck_assert_int_eq(events, 80);
		free(buf);
	}
	free(whole);
}
END_TEST

/* Not a trace.dat, another version, another byte order: said so. */
START_TEST(test_not_trace_dat)
{
	static const char v8[] = "\x17\x08\x44tracing8";
	static const char be[] = "\x17\x08\x44tracing6\0\x01\x08\0\0\0\x10";
	char path[200];
	int events;

	snprintf(path, sizeof(path), "%s/other.dat", base_dir);
	log_capture_start();
	spill(path, "PERFILE2 and then some bytes", 28);
	ck_assert_int_eq(read_all(path, &events), -EINVAL);
	ck_assert(log_captured("no trace.dat magic"));
	spill(path, v8, sizeof(v8));
	ck_assert_int_eq(read_all(path, &events), -EOPNOTSUPP);
	ck_assert(log_captured("reads versions 6 and 7"));
	spill(path, be, sizeof(be) - 1);
	ck_assert_int_eq(read_all(path, &events), -EOPNOTSUPP);
	ck_assert(log_captured("big-endian"));
	log_capture_stop();
	ck_assert_int_eq(read_all(base_dir, &events), -EINVAL);
}
END_TEST

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path) ? -errno : 0;
}

int main(void)
{
	Suite *s = suite_create("trace-dat-reader");
	TCase *tc = tcase_create("reader");
	int ret;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_same_events_as_trace_cmd);
	tcase_add_test(tc, test_lost_marks_as_trace_cmd);
	tcase_add_test(tc, test_description);
	tcase_add_test(tc, test_no_kallsyms);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_flipped_description);
	tcase_add_test(tc, test_damaged_subbuffer);
	tcase_add_test(tc, test_hostile_formats_left_out);
	tcase_add_test(tc, test_not_trace_dat);
	suite_add_tcase(s, tc);
	if (!mkdtemp(base_dir)) {
		perror(base_dir);
		return EXIT_FAILURE;
	}
	ret = testlib_run(s);
	nftw(base_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
