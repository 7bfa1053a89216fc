// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat writer against the real kernel and the real readers. A workload's
 * trace_marker lines and getppid calls, recorded through each tracefs_cpu path (splice,
 * mapped and read drains into the writer's sinks, tracefs_cpu_write() into its fds), must
 * come out of `trace-cmd report` 3.1.6 and libtracecmd's reader exactly, in order, with the
 * workload's comm; lost-event marks must survive with their counts; a short write, a full
 * disk, a bad directory or bad input must leave nothing behind that looks like a trace.dat.
 * Each test records in a tracefs instance of its own.
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <trace-dat.h>
#include <tracefs/trace-dat-internal.h>
#include <internal/lib.h>
#include <tracefs.h>
#include "lib/log-capture.h"
#include "lib/testlib.h"

#define MAX_CPUS	64
#define COMM		"tdw-workload"

/* The tracefs_cpu drains into the CPU's sink, or tracefs_cpu_write() into its fd. */
enum how { HOW_SPLICE, HOW_MAPPED, HOW_READ, HOW_WRITE_FD };
static const char *const how_names[] = { "splice", "mapped", "read", "tracefs_cpu_write" };

struct fixture {
	char name[128];
	struct tracefs_instance *inst;
	int marker;			/* <instance>/trace_marker */
	char dir[96];			/* the output directory */
	char path[160];			/* <dir>/trace.dat */
	char mnt[96];			/* a tmpfs mounted in our own mount namespace, or "" */
};

static struct fixture fx;
/* Every test's files live below it; main() removes it, also after a failed test. */
static char base_dir[64] = "/tmp/auxtrace-tdw-XXXXXX";

static bool fixture_setup(int buffer_kb, int subbuf_kb)
{
	if (!testlib_is_root() || !testlib_tracefs())
		return false;
	memset(&fx, 0, sizeof(fx));
	testlib_instance_name(fx.name, sizeof(fx.name));
	fx.inst = tracefs_instance_create(fx.name);
	ck_assert_ptr_nonnull(fx.inst);
	if (subbuf_kb)
		ck_assert_int_eq(tracefs_instance_set_subbuf_size(fx.inst, subbuf_kb), 0);
	if (buffer_kb)
		ck_assert_int_eq(tracefs_instance_set_buffer_size(fx.inst, buffer_kb, -1), 0);
	fx.marker = tracefs_instance_file_open(fx.inst, "trace_marker", O_WRONLY);
	ck_assert_int_ge(fx.marker, 0);
	snprintf(fx.dir, sizeof(fx.dir), "%s/out-XXXXXX", base_dir);
	ck_assert_ptr_nonnull(mkdtemp(fx.dir));
	snprintf(fx.path, sizeof(fx.path), "%s/trace.dat", fx.dir);
	return true;
}

#define SETUP(buffer_kb, subbuf_kb)					\
	do {								\
		if (!fixture_setup(buffer_kb, subbuf_kb))		\
			TEST_SKIP("needs root and a mounted tracefs");	\
	} while (0)

/* Names in dir (none: NULL), ", "-separated, for asserting what a test left there. */
static char *dir_list(const char *dir)
{
	char *list = NULL;
	size_t len = 0;
	struct dirent *d;
	FILE *f = open_memstream(&list, &len);
	DIR *dp = opendir(dir);
	int n = 0;

	ck_assert_ptr_nonnull(dp);
	while ((d = readdir(dp)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			fprintf(f, "%s%s", n++ ? ", " : "", d->d_name);
	closedir(dp);
	fclose(f);
	if (!n) {
		free(list);
		return NULL;
	}
	return list;
}

static void fixture_teardown(void)
{
	if (fx.mnt[0]) {
		umount2(fx.mnt, MNT_DETACH);
		rmdir(fx.mnt);
	}
	close(fx.marker);
	ck_assert_int_eq(tracefs_instance_destroy(fx.inst), 0);
	tracefs_instance_free(fx.inst);
}

/*
 * A tmpfs of size_kb (read-only if ro) in a mount namespace of this test process only: it
 * goes away with the process, even if the test dies.
 */
static void tmpfs_mount(int size_kb, bool ro)
{
	char opts[64];

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	snprintf(fx.mnt, sizeof(fx.mnt), "%s/mnt-XXXXXX", base_dir);
	ck_assert_ptr_nonnull(mkdtemp(fx.mnt));
	snprintf(opts, sizeof(opts), "size=%dk,mode=0755", size_kb);
	ck_assert_int_eq(mount("tmpfs", fx.mnt, "tmpfs", ro ? MS_RDONLY : 0, opts), 0);
	snprintf(fx.path, sizeof(fx.path), "%s/trace.dat", fx.mnt);
}

/* ---- recording through the tracefs layer ---- */

struct rec {
	enum how how;
	int nr;
	struct tracefs_cpu *tcpu[MAX_CPUS];
	struct ring_sink *sink[MAX_CPUS];
	int fd[MAX_CPUS];
	struct trace_dat_writer *w;
};

static void rec_open(struct rec *r, enum how how, const struct trace_dat_writer_opts *opts)
{
	r->how = how;
	r->nr = testlib_nr_online_cpus() < MAX_CPUS ? testlib_nr_online_cpus() : MAX_CPUS;
	r->w = trace_dat_writer__new(fx.path, fx.inst, opts);
	ck_assert_ptr_nonnull(r->w);
	for (int cpu = 0; cpu < r->nr; cpu++) {
		r->tcpu[cpu] = how == HOW_MAPPED ? tracefs_cpu_open_mapped(fx.inst, cpu, true)
						 : tracefs_cpu_open(fx.inst, cpu, true);
		ck_assert_ptr_nonnull(r->tcpu[cpu]);
		ck_assert(tracefs_cpu_is_mapped(r->tcpu[cpu]) == (how == HOW_MAPPED));
		r->sink[cpu] = trace_dat_writer__cpu_sink(r->w, cpu);
		ck_assert_ptr_nonnull(r->sink[cpu]);
		r->fd[cpu] = trace_dat_writer__cpu_fd(r->w, cpu);
		ck_assert_int_ge(r->fd[cpu], 0);
	}
}

static ssize_t rec_drain_cpu(struct rec *r, int cpu)
{
	switch (r->how) {
	case HOW_SPLICE:
		return tracefs_cpu_buffered_drain(r->tcpu[cpu], r->sink[cpu]);
	case HOW_WRITE_FD:
		return tracefs_cpu_write(r->tcpu[cpu], r->fd[cpu], true);
	default:
		return tracefs_cpu_drain(r->tcpu[cpu], r->sink[cpu]);
	}
}

static void rec_drain(struct rec *r)
{
	for (int cpu = 0; cpu < r->nr; cpu++)
		ck_assert_int_ge(rec_drain_cpu(r, cpu), 0);
}

static void events_off(void)
{
	ck_assert_int_eq(tracefs_event_disable(fx.inst, NULL, NULL), 0);
}

/* Take the rest of every CPU; sum what the tcpus counted as lost. */
static void rec_stop(struct rec *r, uint64_t *lost, uint64_t *reports, uint64_t *unknown)
{
	*lost = *reports = *unknown = 0;
	for (int cpu = 0; cpu < r->nr; cpu++) {
		const struct ring_stats *st;

		ck_assert_int_ge(r->how == HOW_WRITE_FD ?
				 tracefs_cpu_flush_write(r->tcpu[cpu], r->fd[cpu]) :
				 tracefs_cpu_flush_drain(r->tcpu[cpu], r->sink[cpu]), 0);
		st = tracefs_cpu_stats(r->tcpu[cpu]);
		*lost += st->lost;
		*reports += st->lost_reports;
		*unknown += st->lost_unknown;
	}
}

static void rec_close(struct rec *r)
{
	for (int cpu = 0; cpu < r->nr; cpu++)
		tracefs_cpu_close(r->tcpu[cpu]);
	trace_dat_writer__delete(r->w);
}

/* ---- what the readers see ---- */

/* Events of one pid in file order (a marker as its number, getppid as -1), and the losses. */
struct seen {
	int seq[4096];
	int len;
	int bad_comm;		/* events of the pid with another comm */
	int others;		/* events of any other pid */
	int dropped;		/* lost-event marks */
	int dropped_unknown;	/* ... without a count */
	int64_t dropped_sum;	/* the counts */
};

static void seen_add(struct seen *s, int v)
{
	ck_assert_int_lt(s->len, (int)ARRAY_SIZE(s->seq));
	s->seq[s->len++] = v;
}

static void seen_loss(struct seen *s, long long missed)
{
	s->dropped++;
	if (missed < 0)
		s->dropped_unknown++;
	else
		s->dropped_sum += missed;
}

/* `timeout 60 trace-cmd <args> -i path`: its output, and exit status 0 asserted. */
static char *trace_cmd(const char *args, const char *path)
{
	char cmd[512], *out = NULL;
	size_t len = 0;
	FILE *p, *o = open_memstream(&out, &len);
	char buf[4096];
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "timeout 60 trace-cmd %s -i '%s' 2>&1", args, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, o);
	status = pclose(p);
	fclose(o);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %d:\n%.2000s",
		      cmd, status, out);
	return out;
}

/* Parse `trace-cmd report` lines: "comm-pid [cpu] ts: event: fields", "CPU:n [... DROPPED]". */
static void seen_from_report(struct seen *s, const char *path, pid_t pid, const char *comm)
{
	char *out = trace_cmd("report", path), *save = NULL, want[64];

	memset(s, 0, sizeof(*s));
	snprintf(want, sizeof(want), "%s-%d", comm, (int)pid);
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char who[64], *dash, *text;
		long long n;
		int k, cpu;

		if (sscanf(line, "CPU:%d [%lld EVENTS DROPPED]", &cpu, &n) == 2) {
			seen_loss(s, n);
			continue;
		}
		if (strstr(line, "[EVENTS DROPPED]")) {
			seen_loss(s, -1);
			continue;
		}
		if (sscanf(line, " %63s [%d]", who, &cpu) != 2 || !(dash = strrchr(who, '-')))
			continue;	/* "cpus=2" and the like */
		if (atoi(dash + 1) != pid) {
			s->others++;
			continue;
		}
		s->bad_comm += strcmp(who, want) != 0;
		if ((text = strstr(line, " print: ")) && (text = strstr(text, "tdw ")) &&
		    sscanf(text, "tdw %d", &k) == 1)
			seen_add(s, k);
		else if (strstr(line, " sys_enter_getppid:"))
			seen_add(s, -1);
		else
			ck_abort_msg("unexpected report line: %s", line);
	}
	free(out);
}

struct reader {
	struct seen *s;
	pid_t pid;
	const char *comm;
};

static int reader__record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct reader *r = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	int pid = tep_data_pid(tep, rec), k;

	(void)cpu;
	if (rec->missed_events)
		seen_loss(r->s, rec->missed_events);
	ck_assert_ptr_nonnull(ev);
	if (pid != r->pid) {
		r->s->others++;
		return 0;
	}
	r->s->bad_comm += strcmp(tep_data_comm_from_pid(tep, pid), r->comm) != 0;
	if (!strcmp(ev->name, "print")) {
		struct tep_format_field *buf = tep_find_field(ev, "buf");

		ck_assert_ptr_nonnull(buf);
		ck_assert_int_eq(sscanf((char *)rec->data + buf->offset, "tdw %d", &k), 1);
		seen_add(r->s, k);
	} else {
		ck_assert_str_eq(ev->name, "sys_enter_getppid");
		seen_add(r->s, -1);
	}
	return 0;
}

/* The same through libtracecmd: tracecmd_open() and tracecmd_iterate_events(). */
static void seen_from_libtracecmd(struct seen *s, const char *path, pid_t pid, const char *comm)
{
	struct reader r = { .s = s, .pid = pid, .comm = comm };
	struct tracecmd_input *h;

	memset(s, 0, sizeof(*s));
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(tracecmd_iterate_events(h, NULL, 0, reader__record, &r), 0);
	tracecmd_close(h);
}

/* ---- the workload: N markers and M getppid calls, interleaved, in a child ---- */

#define N_MARKERS	300
#define M_GETPPID	500

/* Event k of the workload: marker k while k < N, each followed by a getppid while k < M. */
static int expected_seq(int *seq)
{
	int len = 0;

	for (int k = 0; k < N_MARKERS || k < M_GETPPID; k++) {
		if (k < N_MARKERS)
			seq[len++] = k;
		if (k < M_GETPPID)
			seq[len++] = -1;
	}
	return len;
}

/*
 * Fork the workload, stopped until the getppid event of the instance is enabled and filtered
 * to its pid (other processes call getppid too). It runs its first half on CPU 0 and the
 * second on the last online CPU, so that the file has data of two CPUs to merge.
 */
static pid_t workload_start(int *go)
{
	int pipefd[2];
	pid_t pid;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int half = (N_MARKERS > M_GETPPID ? N_MARKERS : M_GETPPID) / 2;
		char c;

		prctl(PR_SET_NAME, COMM);
		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1 || testlib_pin_cpu(0))
			_exit(2);
		for (int k = 0; k < N_MARKERS || k < M_GETPPID; k++) {
			if (k == half && testlib_pin_cpu(testlib_nr_online_cpus() - 1))
				_exit(3);
			if (k < N_MARKERS) {
				char text[32];
				int len = snprintf(text, sizeof(text), "tdw %d", k);

				if (write(fx.marker, text, len) != len)
					_exit(4);
			}
			if (k < M_GETPPID)
				syscall(SYS_getppid);
		}
		_exit(0);
	}
	close(pipefd[0]);
	*go = pipefd[1];
	return pid;
}

static void workload_enable(pid_t pid)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "common_pid == %d", (int)pid);
	ck_assert_int_gt(tracefs_instance_file_write(fx.inst,
						     "events/syscalls/sys_enter_getppid/filter",
						     filter), 0);
	ck_assert_int_eq(tracefs_event_enable(fx.inst, "syscalls", "sys_enter_getppid"), 0);
}

/* Drain while the workload runs; returns when it has exited with status 0. */
static void workload_record(struct rec *r, pid_t pid, int go)
{
	int status;

	ck_assert_int_eq(write(go, "g", 1), 1);
	close(go);
	for (;;) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		ck_assert_int_ge(done, 0);
		rec_drain(r);
		if (done == pid)
			break;
		usleep(1000);
	}
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "workload status %d",
		      status);
}

static void assert_seen_workload(const struct seen *s, const char *reader)
{
	int want[N_MARKERS + M_GETPPID], n = expected_seq(want);

	ck_assert_msg(s->len == n, "%s: %d events of the workload, want %d", reader, s->len, n);
	for (int i = 0; i < n; i++)
		ck_assert_msg(s->seq[i] == want[i], "%s: event %d is %d, want %d", reader, i,
			      s->seq[i], want[i]);
	ck_assert_msg(s->bad_comm == 0, "%s: %d events without the comm " COMM, reader,
		      s->bad_comm);
	ck_assert_int_eq(s->others, 0);
	ck_assert_int_eq(s->dropped, 0);
}

static const struct {
	enum how how;
	int subbuf_kb;
	bool late;	/* the writer exists before the event is enabled, finishes before it is off */
} roundtrip_cases[] = {
	{ HOW_SPLICE, 0 }, { HOW_MAPPED, 0 }, { HOW_READ, 0 }, { HOW_WRITE_FD, 0 },
	{ HOW_SPLICE, 8 }, { HOW_MAPPED, 8 }, { HOW_WRITE_FD, 8 }, { HOW_SPLICE, 0, true },
};

/* N markers and M getppid calls come out of both readers exactly, in order, with the comm. */
START_TEST(test_workload_roundtrip)
{
	enum how how = roundtrip_cases[_i].how;
	const bool late = roundtrip_cases[_i].late;
	uint64_t lost, reports, unknown, records = 0;
	struct seen s;
	struct rec r;
	struct stat st;
	int go;
	pid_t pid;

	SETUP(0, roundtrip_cases[_i].subbuf_kb);
	printf("%s, %d KiB sub-buffers%s\n", how_names[how], roundtrip_cases[_i].subbuf_kb ?: 4,
	       late ? ", event enabled after the writer was made" : "");
	pid = workload_start(&go);
	if (late)
		rec_open(&r, how, NULL);	/* opts NULL: finish looks at set_event again */
	workload_enable(pid);
	if (!late)
		rec_open(&r, how, NULL);	/* opts NULL takes the enabled events */
	workload_record(&r, pid, go);
	if (!late)
		events_off();
	rec_stop(&r, &lost, &reports, &unknown);
	ck_assert_uint_eq(lost + reports, 0);
	for (int cpu = 0; cpu < r.nr; cpu++)
		records += tracefs_cpu_stats(r.tcpu[cpu])->records;
	ck_assert_uint_eq(records, N_MARKERS + M_GETPPID);
	ck_assert_int_eq(access(fx.path, F_OK), -1);	/* no name before it is whole */
	ck_assert_int_eq(trace_dat_writer__finish(r.w), 0);
	events_off();
	rec_close(&r);

	ck_assert_int_eq(stat(fx.path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	seen_from_report(&s, fx.path, pid, COMM);
	assert_seen_workload(&s, "trace-cmd report");
	seen_from_libtracecmd(&s, fx.path, pid, COMM);
	assert_seen_workload(&s, "libtracecmd");
	fixture_teardown();
}
END_TEST

/* ---- losses ---- */

/* "overrun: N" of the instance's CPU stats: events the kernel overwrote. */
static long long kernel_overrun(int cpu)
{
	char file[64], *stats, *p;
	long long n;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(fx.inst, file, NULL);
	ck_assert_ptr_nonnull(stats);
	p = strstr(stats, "overrun:");
	ck_assert_ptr_nonnull(p);
	n = atoll(p + 8);
	free(stats);
	return n;
}

#define LOST_ROUNDS	5
#define LOST_PER_ROUND	400

/* Marker "tdw <i>" padded to len bytes. */
static void mark(int i, size_t len)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "tdw %d ", i);

	memset(buf + n, 'x', len - n);
	ck_assert_int_eq(write(fx.marker, buf, len), (ssize_t)len);
}

static const struct {
	enum how how;
	size_t marker;		/* 200 bytes leave room on a page for the kernel to store a count */
} lost_cases[] = {
	{ HOW_SPLICE, 200 }, { HOW_MAPPED, 200 }, { HOW_READ, 200 }, { HOW_WRITE_FD, 200 },
	{ HOW_SPLICE, 26 }, { HOW_MAPPED, 26 }, { HOW_READ, 26 }, { HOW_WRITE_FD, 26 },
};

/*
 * An 8 KiB buffer overwritten between drains: every lost-events mark reaches both readers
 * once, with the kernel's count where it stored one, adding up to what tracefs_cpu_stats()
 * counted and to the kernel's overrun; every event not overwritten is in the file, in order.
 * (Spliced, the stats see no marks: they count what the kernel says it lost.)
 */
START_TEST(test_lost_events_are_reported)
{
	enum how how = lost_cases[_i].how;
	const bool stored = lost_cases[_i].marker == 200;
	uint64_t lost, reports, unknown;
	long long overrun;
	const char *readers[] = { "trace-cmd report", "libtracecmd" };
	struct seen s[2];
	struct rec r;

	SETUP(8, 0);
	printf("%s, %zu-byte markers\n", how_names[how], lost_cases[_i].marker);
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	rec_open(&r, how, NULL);
	for (int round = 0; round < LOST_ROUNDS; round++) {
		for (int i = 0; i < LOST_PER_ROUND; i++)
			mark(round * LOST_PER_ROUND + i, lost_cases[_i].marker);
		rec_drain(&r);
	}
	rec_stop(&r, &lost, &reports, &unknown);
	overrun = kernel_overrun(0);
	ck_assert_int_eq(trace_dat_writer__finish(r.w), 0);
	rec_close(&r);

	ck_assert_int_gt(overrun, 0);
	seen_from_report(&s[0], fx.path, getpid(), "<...>");
	seen_from_libtracecmd(&s[1], fx.path, getpid(), "<...>");
	for (int i = 0; i < 2; i++) {
		int prev = -1;

		ck_assert_msg(s[i].dropped >= 1, "%s: no lost-events mark", readers[i]);
		for (int k = 0; k < s[i].len; k++) {
			ck_assert_int_gt(s[i].seq[k], prev);
			prev = s[i].seq[k];
		}
		ck_assert_int_eq(s[i].len + overrun, LOST_ROUNDS * LOST_PER_ROUND);
		if (stored) {
			ck_assert_int_eq(s[i].dropped_unknown, 0);
			ck_assert_int_eq(s[i].dropped_sum, overrun);
		}
		if (how == HOW_SPLICE || how == HOW_WRITE_FD) {
			/* spliced, the marks go by unseen: the stats take the kernel's own count */
			ck_assert_int_eq(lost, overrun);
			continue;
		}
		ck_assert_msg(s[i].dropped == (int)reports, "%s: %d marks, the tcpus reported %llu",
			      readers[i], s[i].dropped, (unsigned long long)reports);
		if (how != HOW_MAPPED || stored) {	/* mapped knows counts the page has not */
			ck_assert_int_eq(s[i].dropped_sum, lost);
			ck_assert_int_eq(s[i].dropped_unknown, unknown);
		}
	}
	fixture_teardown();
}
END_TEST

/* ---- failing writes ---- */

/* Limit the size of files this process writes to bytes; *old to restore it. */
static void fsize_limit(struct rlimit *old, rlim_t bytes)
{
	struct rlimit lim;

	signal(SIGXFSZ, SIG_IGN);	/* the write fails with EFBIG instead */
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, old), 0);
	lim = *old;
	lim.rlim_cur = bytes;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
}

/*
 * A write cut short (RLIMIT_FSIZE) keeps no part of the push: the ring offers the same
 * sub-buffer again, and once the limit is lifted every marker is in the file exactly once.
 * Spliced by tracefs_cpu_write(), the part stays in the file and the next call finishes it.
 */
START_TEST(test_short_write_keeps_nothing_twice)
{
	enum how how = _i;
	uint64_t lost, reports, unknown;
	struct rlimit old;
	struct seen s;
	struct rec r;
	ssize_t n;
	int total = 0;

	SETUP(0, 0);
	printf("%s\n", how_names[how]);
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	rec_open(&r, how, NULL);
	fsize_limit(&old, 3 * 4096 + 100);	/* the fourth sub-buffer fits only in part */
	for (; total < 200; total++)
		mark(total, 100);
	log_capture_start();
	n = rec_drain_cpu(&r, 0);
	log_capture_stop();
	if (how == HOW_SPLICE || how == HOW_WRITE_FD) {
		ck_assert_int_ne(n, 0);
	} else {
		ck_assert_int_eq(n, -EFBIG);
		ck_assert_msg(log_captured("writing its data: File too large"), "log: %s",
			      log_text);
		ck_assert_uint_ge(tracefs_cpu_stats(r.tcpu[0])->sink_errors, 1);
	}
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	rec_drain(&r);
	for (; total < 300; total++)
		mark(total, 100);
	rec_stop(&r, &lost, &reports, &unknown);
	ck_assert_int_eq(trace_dat_writer__finish(r.w), 0);
	rec_close(&r);

	seen_from_libtracecmd(&s, fx.path, getpid(), "<...>");
	ck_assert_int_eq(s.len, total);
	for (int k = 0; k < total; k++)
		ck_assert_int_eq(s.seq[k], k);
	fixture_teardown();
}
END_TEST

/*
 * A sub-buffer that a cut-short tracefs_cpu_write() left unfinished is left out, with a
 * warning: the file holds the whole ones before it.
 */
START_TEST(test_unfinished_splice_is_left_out)
{
	struct rlimit old;
	struct seen s;
	struct rec r;

	SETUP(0, 0);
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	rec_open(&r, HOW_WRITE_FD, NULL);
	fsize_limit(&old, 3 * 4096 + 100);
	for (int i = 0; i < 200; i++)
		mark(i, 100);
	ck_assert_int_gt(rec_drain_cpu(&r, 0), 3 * 4096);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	log_capture_start();
	ck_assert_int_eq(trace_dat_writer__finish(r.w), 0);
	log_capture_stop();
	ck_assert_msg(log_captured("CPU 0: leaving out the last 100 bytes"), "log: %s", log_text);
	rec_close(&r);

	seen_from_libtracecmd(&s, fx.path, getpid(), "<...>");
	ck_assert_int_gt(s.len, 0);
	for (int k = 0; k < s.len; k++)
		ck_assert_int_eq(s.seq[k], k);
	fixture_teardown();
}
END_TEST

/*
 * A full disk: the sink says -ENOSPC and why; finish fails too, and the directory holds
 * nothing at all afterwards. Case 0: 64 KiB, full while recording; case 1: 2 MiB, enough
 * for the data but not for the description (kallsyms alone is larger).
 */
START_TEST(test_full_disk_leaves_nothing)
{
	const int size_kb = _i ? 2048 : 64;
	bool sink_full = false;
	struct rec r;
	char *left;

	SETUP(1024, 0);
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	tmpfs_mount(size_kb, false);
	rec_open(&r, HOW_READ, NULL);
	log_capture_start();
	for (int i = 0; i < 3000; i++) {
		mark(i, 100);
		if (i % 100 == 99 && rec_drain_cpu(&r, 0) == -ENOSPC)
			sink_full = true;
	}
	ck_assert(sink_full == (_i == 0));
	if (sink_full)
		ck_assert_msg(log_captured("no space left on the device after"), "log: %s",
			      log_text);
	ck_assert_int_eq(tracefs_cpu_flush_drain(r.tcpu[0], r.sink[0]) == -ENOSPC, sink_full);
	ck_assert_int_eq(trace_dat_writer__finish(r.w), -ENOSPC);
	ck_assert_int_eq(errno, ENOSPC);
	log_capture_stop();
	ck_assert_msg(log_captured("no space left in ") && log_captured(fx.mnt), "log: %s",
		      log_text);
	ck_assert_msg(log_captured("this recording is lost"), "log: %s", log_text);
	rec_close(&r);
	left = dir_list(fx.mnt);
	ck_assert_msg(!left, "left behind: %s", left);
	fixture_teardown();
}
END_TEST

static long long file_length(const char *path)
{
	char buf[65536];
	long long len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		len += n;
	close(fd);
	return len;
}

/*
 * finish needs room for the file and a little, not for a second copy of the data: the
 * data moves into the file a piece at a time and each piece's room is given back at once.
 * The disk holds the description (kallsyms and some), 8 MiB of data and 3 MiB more; two
 * copies of the data would need 5 MiB more than that.
 */
START_TEST(test_finish_needs_room_for_one_copy)
{
	const long long data = 8 << 20;
	uint64_t lost, reports, unknown;
	struct rec r;
	char *stat;
	int i = 0;

	SETUP(1024, 0);
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	tmpfs_mount((file_length("/proc/kallsyms") + data) / 1024 + 3072, false);
	rec_open(&r, HOW_SPLICE, NULL);
	while (tracefs_cpu_stats(r.tcpu[0])->bytes < (uint64_t)data) {
		mark(i++, 200);
		if (i % 1000 == 0)
			rec_drain(&r);
	}
	rec_stop(&r, &lost, &reports, &unknown);
	ck_assert_uint_eq(lost + reports, 0);
	ck_assert_int_eq(trace_dat_writer__finish(r.w), 0);
	rec_close(&r);
	stat = trace_cmd("report --stat", fx.path);
	ck_assert_msg(strstr(stat, "CPU0 data recorded at offset="), "%s", stat);
	free(stat);
	fixture_teardown();
}
END_TEST

/* A directory the file cannot go in fails at once, says why, and creates nothing. */
START_TEST(test_bad_directory)
{
	char path[160];

	SETUP(0, 0);
	snprintf(path, sizeof(path), "%s/missing/trace.dat", fx.dir);
	log_capture_start();
	assert_null_errno(trace_dat_writer__new(path, fx.inst, NULL), ENOENT);
	ck_assert_msg(log_captured("does not exist: create it first"), "log: %s", log_text);

	snprintf(path, sizeof(path), "%s/", fx.dir);
	assert_null_errno(trace_dat_writer__new(path, fx.inst, NULL), EINVAL);
	ck_assert_msg(log_captured("names no file"), "log: %s", log_text);

	tmpfs_mount(64, true);
	assert_null_errno(trace_dat_writer__new(fx.path, fx.inst, NULL), EROFS);
	log_capture_stop();
	ck_assert_msg(log_captured("is on a read-only filesystem"), "log: %s", log_text);
	ck_assert_ptr_null(dir_list(fx.dir));
	fixture_teardown();
}
END_TEST

/* A writer of fx.path, and its CPU 0 sink in *sink. */
static struct trace_dat_writer *writer_cpu0(struct ring_sink **sink)
{
	struct trace_dat_writer *w = trace_dat_writer__new(fx.path, fx.inst, NULL);

	ck_assert_ptr_nonnull(w);
	*sink = trace_dat_writer__cpu_sink(w, 0);
	ck_assert_ptr_nonnull(*sink);
	return w;
}

/* Finish w: the file must hold exactly one sub-buffer of CPU 0. */
static void finish_one_subbuf(struct trace_dat_writer *w)
{
	char *report;

	ck_assert_int_eq(trace_dat_writer__finish(w), 0);
	trace_dat_writer__delete(w);
	report = trace_cmd("report --stat", fx.path);
	ck_assert_msg(strstr(report, "CPU0 data recorded at offset=") &&
		      strstr(report, "    4096 bytes in size"), "%s", report);
	free(report);
}

/* Pushes that are not whole sub-buffers of the instance are refused and keep nothing. */
START_TEST(test_bad_push_is_refused)
{
	_Alignas(8) unsigned char page[4096] = { 0 };
	struct trace_dat_writer *w;
	struct ring_sink *sink;
	struct iovec iov[2] = { { page, 100 }, { page, 4096 } };
	uint32_t commit = 4096;		/* more data than a 4096-byte sub-buffer has room for */

	SETUP(0, 0);
	w = writer_cpu0(&sink);
	log_capture_start();
	ck_assert_int_eq(sink->push(sink, iov, 1), -EINVAL);
	ck_assert_msg(log_captured("not a whole number of 4096-byte sub-buffers"), "log: %s",
		      log_text);
	memcpy(page + 8, &commit, sizeof(commit));
	ck_assert_int_eq(sink->push(sink, iov + 1, 1), -EINVAL);
	ck_assert_msg(log_captured("claims 4096 bytes of data"), "log: %s", log_text);
	commit = 4096 - 16 + 1;		/* one byte beyond the data after the 16-byte header */
	memcpy(page + 8, &commit, sizeof(commit));
	ck_assert_int_eq(sink->push(sink, iov + 1, 1), -EINVAL);
	ck_assert_msg(log_captured("claims 4081 bytes of data, more than the 4080"), "log: %s",
		      log_text);
	commit = 0;			/* an empty sub-buffer is fine */
	memcpy(page + 8, &commit, sizeof(commit));
	ck_assert_int_eq(sink->push(sink, iov + 1, 1), 4096);
	log_capture_stop();
	finish_one_subbuf(w);
	fixture_teardown();
}
END_TEST

/*
 * A push of three sub-buffers that the disk takes only two and a bit of is taken back whole,
 * also when nothing as long follows: the file has only what later pushes brought.
 */
START_TEST(test_failed_push_is_taken_back)
{
	static _Alignas(8) unsigned char pages[3 * 4096];	/* empty sub-buffers */
	struct iovec three = { pages, sizeof(pages) }, one = { pages, 4096 };
	struct trace_dat_writer *w;
	struct ring_sink *sink;
	struct rlimit old;

	SETUP(0, 0);
	w = writer_cpu0(&sink);
	fsize_limit(&old, 2 * 4096 + 100);
	ck_assert_int_eq(sink->push(sink, &three, 1), -EFBIG);
	ck_assert_int_eq(sink->push(sink, &one, 1), 4096);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	finish_one_subbuf(w);
	fixture_teardown();
}
END_TEST

/* Calls out of order or out of range fail with EINVAL and a message; nothing crashes. */
START_TEST(test_misuse)
{
	AUXTRACE_OPTS(trace_dat_writer_opts, opts);
	const char *unknown[] = { "syscalls:nosuchevent", NULL };
	const char *unknown_sys[] = { "nosuchsys", NULL };
	const char *bad_spec[] = { "syscalls:", NULL };
	struct trace_dat_writer *w;
	struct ring_sink *sink;
	struct iovec iov = { (char[4096]){ 0 }, 4096 };

	SETUP(0, 0);
	log_capture_start();
	assert_null_errno(trace_dat_writer__new(NULL, fx.inst, NULL), EINVAL);
	opts = (struct trace_dat_writer_opts){ .sz = sizeof(opts), .events = unknown };
	assert_null_errno(trace_dat_writer__new(fx.path, fx.inst, &opts), ENOENT);
	ck_assert_msg(log_captured("no event syscalls:nosuchevent"), "log: %s", log_text);
	opts.events = unknown_sys;
	assert_null_errno(trace_dat_writer__new(fx.path, fx.inst, &opts), ENOENT);
	ck_assert_msg(log_captured("no event system 'nosuchsys'"), "log: %s", log_text);
	opts.events = bad_spec;
	assert_null_errno(trace_dat_writer__new(fx.path, fx.inst, &opts), EINVAL);
	ck_assert_msg(log_captured("names no event"), "log: %s", log_text);
	opts = (struct trace_dat_writer_opts){ .sz = sizeof(opts), .mode = 010000 };
	assert_null_errno(trace_dat_writer__new(fx.path, fx.inst, &opts), EINVAL);

	opts = (struct trace_dat_writer_opts){ .sz = sizeof(opts), .nr_cpus = 1 };
	w = trace_dat_writer__new(fx.path, fx.inst, &opts);
	ck_assert_ptr_nonnull(w);
	assert_null_errno(trace_dat_writer__cpu_sink(w, -1), EINVAL);
	assert_null_errno(trace_dat_writer__cpu_sink(w, 1), EINVAL);
	ck_assert_msg(log_captured("CPU 1 is outside the 1 CPUs"), "log: %s", log_text);
	assert_null_errno(trace_dat_writer__cpu_sink(NULL, 0), EINVAL);
	ck_assert_int_eq(trace_dat_writer__cpu_fd(w, 1), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(trace_dat_writer__cpu_fd(NULL, 0), -EINVAL);
	sink = trace_dat_writer__cpu_sink(w, 0);
	ck_assert_ptr_nonnull(sink);
	ck_assert_int_eq(trace_dat_writer__finish(w), 0);
	ck_assert_int_eq(sink->push(sink, &iov, 1), -EINVAL);
	ck_assert_msg(log_captured("pushed after trace_dat_writer__finish()"), "log: %s",
		      log_text);
	assert_null_errno(trace_dat_writer__cpu_sink(w, 0), EINVAL);
	ck_assert_int_eq(trace_dat_writer__cpu_fd(w, 0), -EINVAL);
	ck_assert_int_eq(trace_dat_writer__finish(w), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(log_captured("called twice"), "log: %s", log_text);
	ck_assert_int_eq(trace_dat_writer__finish(NULL), -EINVAL);
	log_capture_stop();
	trace_dat_writer__delete(w);
	trace_dat_writer__delete(NULL);
	fixture_teardown();
}
END_TEST

/* "[Kallsyms, N bytes]" of `trace-cmd dump --summary`. */
static long kallsyms_bytes(const char *path)
{
	char *dump = trace_cmd("dump --summary", path), *p = strstr(dump, "[Kallsyms, ");
	long n;

	ck_assert_msg(p, "%s", dump);
	n = atol(p + strlen("[Kallsyms, "));
	free(dump);
	return n;
}

static void write_empty(const struct trace_dat_writer_opts *opts, const char *path)
{
	struct trace_dat_writer *w = trace_dat_writer__new(path, fx.inst, opts);

	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(trace_dat_writer__finish(w), 0);
	trace_dat_writer__delete(w);
}

/*
 * Options reach the file: mode, version, CPU count, the events named; an existing file is
 * replaced whole, and no temporary name is left.
 */
START_TEST(test_opts_reach_the_file)
{
	const char *events[] = { "syscalls:sys_enter_getppid", "sched", NULL };
	AUXTRACE_OPTS(trace_dat_writer_opts, opts, .events = events, .nr_cpus = 1,
		      .version = "tdw-test 1.2", .mode = 0640);
	struct utsname u;
	struct stat st;
	char *dump, *left, *clock;
	int fd;

	SETUP(0, 0);
	ck_assert_int_eq(tracefs_instance_set_clock(fx.inst, "mono"), 0);
	ck_assert_int_eq(uname(&u), 0);
	fd = open(fx.path, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "junk", 4), 4);
	close(fd);
	write_empty(&opts, fx.path);
	ck_assert_int_eq(stat(fx.path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	left = dir_list(fx.dir);
	ck_assert_str_eq(left, "trace.dat");
	free(left);
	dump = trace_cmd("dump --summary --options", fx.path);
	ck_assert_msg(strstr(dump, "1 [CPUs with tracing data]"), "%s", dump);
	ck_assert_msg(strstr(dump, "[Events format, 2 systems]"), "%s", dump);
	/* the instance's clock after the table; an empty string in the option, see meta.c */
	ck_assert_msg(strstr(dump, "[Option TRACECLOCK, 1 bytes]"), "%s", dump);
	clock = strstr(dump, "[Tracing clock]");
	ck_assert_msg(clock && strstr(clock, "[mono] "), "%s", dump);
	ck_assert_msg(strstr(dump, "[Option VERSION") && strstr(dump, "tdw-test 1.2"), "%s", dump);
	ck_assert_msg(strstr(dump, "[Option UNAME") && strstr(dump, u.release), "%s", dump);
	ck_assert_msg(strstr(dump, "[Option CPUSTAT") && strstr(dump, "CPU: 0\nentries:"), "%s",
		      dump);
	free(dump);
	dump = trace_cmd("dump --events", fx.path);
	ck_assert_msg(strstr(dump, "sys_enter_getppid") && strstr(dump, "sched_switch") &&
		      !strstr(dump, "sys_enter_getpid\n"), "%s", dump);
	free(dump);
	fixture_teardown();
}
END_TEST

/*
 * The file goes on for at least 10 bytes after the trace clock, where trace-cmd dump looks
 * for another section, even when no CPU has data and the clock ends just short of the
 * alignment: with the clock ending 0..12 bytes before a page boundary.
 */
START_TEST(test_room_after_the_clock)
{
	static struct td_out out;
	const char *clock = "[local] global\n";
	const size_t trailer = 10 + 16 + 8 + strlen(clock);
	uint64_t size = 0, offset, end;

	for (size_t short_of = 0; short_of <= 12; short_of++) {
		td_out__init(&out, -1);
		out.pos = 3 * 4096 - trailer - short_of;	/* as if the head were written */
		end = td_meta__write_flyrecord(&out, clock, &size, 1, 4096, &offset);
		ck_assert_uint_eq(out.pos, 3 * 4096 - short_of);
		ck_assert_msg(end >= out.pos + 10 && end % 4096 == 0 && offset == end,
			      "clock ends at %llu, CPU 0 at %llu, file ends at %llu",
			      (unsigned long long)out.pos, (unsigned long long)offset,
			      (unsigned long long)end);
	}
}
END_TEST

/* Drop CAP_SYSLOG: with perf_event_paranoid > 1, /proc/kallsyms then shows zeros. */
static int drop_cap_syslog(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_SYSLOG / 32].effective &= ~(1u << (CAP_SYSLOG % 32));
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* kallsyms goes in whole; when the kernel hides its addresses, not at all, with a warning. */
START_TEST(test_kallsyms_hidden_is_said)
{
	char hidden_path[160];
	pid_t pid;
	int status;

	SETUP(0, 0);
	write_empty(NULL, fx.path);
	ck_assert_int_gt(kallsyms_bytes(fx.path), 1000);

	snprintf(hidden_path, sizeof(hidden_path), "%s/hidden.dat", fx.dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct trace_dat_writer *w;
		char head[32] = "";
		FILE *f;

		if (drop_cap_syslog())
			_exit(10);
		f = fopen("/proc/kallsyms", "r");
		if (!f || !fgets(head, sizeof(head), f) || strncmp(head, "0000000000000000", 16))
			_exit(77);	/* addresses still visible: nothing to test here */
		fclose(f);
		log_capture_start();
		w = trace_dat_writer__new(hidden_path, fx.inst, NULL);
		if (!w || trace_dat_writer__finish(w))
			_exit(11);
		trace_dat_writer__delete(w);
		log_capture_stop();
		_exit(log_captured("/proc/kallsyms hides kernel addresses (kernel.kptr_restrict=") ?
		      0 : 12);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		fixture_teardown();
		TEST_SKIP("/proc/kallsyms shows addresses even without CAP_SYSLOG (perf_event_paranoid <= 1)");
	}
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(kallsyms_bytes(hidden_path), 0);
	fixture_teardown();
}
END_TEST

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path) ? -errno : 0;
}

int main(void)
{
	Suite *s = suite_create("trace-dat");
	TCase *data = tcase_create("data"), *errors = tcase_create("errors");
	int ret;

	tcase_set_timeout(data, 120);
	tcase_add_loop_test(data, test_workload_roundtrip, 0, ARRAY_SIZE(roundtrip_cases));
	tcase_add_loop_test(data, test_lost_events_are_reported, 0, ARRAY_SIZE(lost_cases));
	tcase_add_loop_test(data, test_short_write_keeps_nothing_twice, 0, ARRAY_SIZE(how_names));
	tcase_add_test(data, test_unfinished_splice_is_left_out);
	tcase_add_test(data, test_opts_reach_the_file);
	tcase_add_test(data, test_room_after_the_clock);
	tcase_add_test(data, test_kallsyms_hidden_is_said);
	suite_add_tcase(s, data);

	tcase_add_loop_test(errors, test_full_disk_leaves_nothing, 0, 2);
	tcase_add_test(errors, test_finish_needs_room_for_one_copy);
	tcase_add_test(errors, test_bad_directory);
	tcase_add_test(errors, test_bad_push_is_refused);
	tcase_add_test(errors, test_failed_push_is_taken_back);
	tcase_add_test(errors, test_misuse);
	suite_add_tcase(s, errors);
	if (!mkdtemp(base_dir)) {
		perror(base_dir);
		return EXIT_FAILURE;
	}
	ret = testlib_run(s);
	nftw(base_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
