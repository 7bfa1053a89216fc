// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading a big recording back (issue 17's targets): `auxrec report` and `auxrec script`
 * against `trace-cmd report` and `perf script` on the same files, in one run, every output to
 * /dev/null.
 *
 * The recording: `auxrec record -a -e cpu-clock` with ftrace's syscalls:sys_enter_getppid,
 * sys_exit_getppid and sched:sched_switch, into /dev/shm, of this program run as a getppid()
 * loop (CALLS calls, default 5 M: about 10 M ftrace events in a few seconds; a number as the
 * first argument changes it), so trace.dat holds ~10 M events and perf.data the cpu-clock
 * samples of both CPUs.
 *
 * Measured per reader: wall time, peak RSS (wait4's ru_maxrss: the child's largest, file pages
 * of its mappings included) and, for auxrec's, the peak of its anonymous memory (RssAnon,
 * sampled every 5 ms): what the reader holds itself, apart from the pages of the mapped files,
 * which the kernel may drop. Rates: ftrace events per second of `auxrec script trace.dat`
 * against `trace-cmd report` (target >= 5x), perf samples per second of `auxrec script
 * perf.data` against `perf script` (target >= 1x); peak RSS of auxrec report and script
 * (target <= 64 MB). And `auxrec script DIR`, both files as one time-ordered stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/session.h>
#include <tracefs/trace-dat-reader.h>

#include "util.h"

#define CALLS		5000000L
#define RSS_TARGET_KIB	(64 * 1024)

struct run {
	double seconds;
	long max_rss_kib;
	long max_anon_kib;	/* -1: not sampled */
	int status;
};

/* RssAnon of pid in KiB, -1 when gone. */
static long anon_kib(pid_t pid)
{
	char path[64], line[128];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "RssAnon: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * Run argv with stdout and stderr to /dev/null: wall time, peak RSS, and (not under timeout,
 * whose own would be sampled) peak anonymous memory.
 */
static struct run run_child(char *const argv[])
{
	bool sample = strcmp(argv[0], "timeout");
	struct run r = { .status = -1, .max_anon_kib = -1 };
	uint64_t t0 = bench__now_ns();
	struct rusage ru;
	pid_t pid = fork(), got;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0)
		return r;
	while ((got = wait4(pid, &r.status, WNOHANG, &ru)) == 0) {
		long kib = sample ? anon_kib(pid) : -1;

		if (kib > r.max_anon_kib)
			r.max_anon_kib = kib;
		usleep(5000);
	}
	if (got == pid) {
		r.seconds = (bench__now_ns() - t0) / 1e9;
		r.max_rss_kib = ru.ru_maxrss;
	}
	return r;
}

static bool run__ok(const struct run *r)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

/* The recording's counts, read with the library's readers. */
struct counts {
	uint64_t ftrace_events;
	uint64_t perf_samples;
};

static int count_sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			struct perf_sample *sample, struct evsel *evsel)
{
	(void)s, (void)ev, (void)sample, (void)evsel;
	(*(uint64_t *)(tool + 1))++;
	return 0;
}

static int count(const char *dir, struct counts *c)
{
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct { struct perf_tool tool; uint64_t n; } t = {
		.tool = { .sz = sizeof(struct perf_tool), .sample = count_sample } };
	char path[PATH_MAX];
	struct perf_session *s;
	struct trace_dat_reader *r;
	struct trace_dat_cursor *cur;
	const struct trace_dat_record *rec;
	int err;

	snprintf(path, sizeof(path), "%s/perf.data", dir);
	s = perf_session__new(path, &opts);
	if (!s)
		return -errno;
	err = perf_session__process_events(s, &t.tool);
	perf_session__delete(s);
	c->perf_samples = t.n;
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	r = err ? NULL : trace_dat_reader__open(path);
	cur = r ? trace_dat_cursor__new(r, -1) : NULL;
	if (!cur)
		err = err ?: -errno;
	while (cur && (rec = trace_dat_cursor__next(cur)))
		c->ftrace_events += rec->kind == TRACE_DAT_EVENT;
	trace_dat_cursor__delete(cur);
	trace_dat_reader__close(r);
	return err;
}

static void print_run(const char *name, const struct run *r, uint64_t items, const char *unit)
{
	if (!run__ok(r)) {
		printf("  %-34s failed (exit %d)\n", name,
		       WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1);
		return;
	}
	printf("  %-34s %7.2f s %9.2f M %s/s  peak RSS %7.1f MiB", name, r->seconds,
	       items / r->seconds / 1e6, unit, r->max_rss_kib / 1024.0);
	if (r->max_anon_kib >= 0)
		printf(" (anon %.1f MiB)", r->max_anon_kib / 1024.0);
	putchar('\n');
}

static void print_ratio(const char *what, const struct run *ours, const struct run *theirs,
			double target)
{
	if (!run__ok(ours) || !run__ok(theirs))
		printf("  %s: no ratio (a run failed)\n", what);
	else
		printf("  %s: auxrec %.2fx the rate (target >= %.0fx)\n", what,
		       theirs->seconds / ours->seconds, target);
}

static void print_rss(const char *name, const struct run *r)
{
	if (run__ok(r))
		printf("  %s peak RSS %.1f MiB, anonymous %.1f MiB (target <= %d MiB)\n", name,
		       r->max_rss_kib / 1024.0, r->max_anon_kib / 1024.0, RSS_TARGET_KIB / 1024);
}

static int record(const char *auxrec, const char *self, const char *dir, long calls)
{
	char n[32];
	char *const argv[] = { (char *)auxrec, "record", "-a", "-e", "cpu-clock",
			       "--ftrace", "syscalls:sys_enter_getppid",
			       "--ftrace", "syscalls:sys_exit_getppid",
			       "--ftrace", "sched:sched_switch", "--ftrace-buffer-kb", "16384",
			       "-o", (char *)dir, "--", (char *)self, "--loop", n, NULL };
	struct run r;

	snprintf(n, sizeof(n), "%ld", calls);
	r = run_child(argv);
	if (!run__ok(&r)) {
		fprintf(stderr, "bench-read: auxrec record failed (exit %d)\n",
			WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1);
		return -1;
	}
	printf("recorded %ld getppid() calls in %.2f s\n", calls, r.seconds);
	return 0;
}

/*
 * The report page of the same recording: its size (bounded: <= 2 MB) and the time to write
 * it, and, with chromium, how soon it draws its lanes (report-tasks-check.py --paint).
 */
static void bench_page(const char *auxrec, const char *dir, uint64_t records)
{
	char page[PATH_MAX], bin[PATH_MAX + 16], check[PATH_MAX + 64], cmd[3 * PATH_MAX];
	char *html[] = { (char *)auxrec, "report", "--html", "-o", page, (char *)dir, NULL };
	struct run r;
	struct stat st;

	snprintf(page, sizeof(page), "%s/page.html", dir);
	/* the source tree's check script, beside build/ where auxrec and this program live */
	snprintf(bin, sizeof(bin), "%s", auxrec);
	snprintf(check, sizeof(check), "%s/../tests/scripts/report-tasks-check.py", dirname(bin));
	r = run_child(html);
	print_run("auxrec report --html DIR", &r, records, "records");
	if (!run__ok(&r) || stat(page, &st))
		return;
	printf("report page: %.2f MB for %" PRIu64 " records (bound: 2 MB)\n",
	       st.st_size / 1e6, records);
	print_rss("auxrec report --html:", &r);
	snprintf(cmd, sizeof(cmd), "timeout 120 python3 %s --chromium chromium --paint %s", check,
		 page);
	fflush(stdout);
	if (access(check, R_OK) || system("command -v chromium >/dev/null") || system(cmd))
		printf("report page: no chromium (or source tree) to time its first paint\n");
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], auxrec[PATH_MAX + 8], dir[] = "/dev/shm/bench-read-XXXXXX";
	char perf_path[PATH_MAX], trace_path[PATH_MAX], cmd[PATH_MAX + 16];
	long calls = argc > 1 ? atol(argv[1]) : CALLS;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct counts c = { 0 };
	struct stat pst, tst;

	if (argc == 3 && !strcmp(argv[1], "--loop")) {	/* the workload */
		for (long i = atol(argv[2]); i > 0; i--)
			getppid();
		return 0;
	}
	bench__print_lib_warnings("bench-read");
	if (len < 0 || calls <= 0 || !mkdtemp(dir)) {
		perror("bench-read");
		return 1;
	}
	self[len] = '\0';
	snprintf(auxrec, sizeof(auxrec), "%s/auxrec", dirname(strdup(self)));
	if (rmdir(dir) || record(auxrec, self, dir, calls) || count(dir, &c)) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 1;
		return 1;
	}
	snprintf(perf_path, sizeof(perf_path), "%s/perf.data", dir);
	snprintf(trace_path, sizeof(trace_path), "%s/trace.dat", dir);
	stat(perf_path, &pst);
	stat(trace_path, &tst);
	printf("bench-read: %" PRIu64 " ftrace events (trace.dat %.0f MiB), %" PRIu64
	       " perf samples (perf.data %.1f MiB), read to /dev/null\n", c.ftrace_events,
	       tst.st_size / 1048576.0, c.perf_samples, pst.st_size / 1048576.0);
	{
		char *report[] = { auxrec, "report", dir, NULL };
		char *script_tr[] = { auxrec, "script", trace_path, NULL };
		char *script_pd[] = { auxrec, "script", "-i", perf_path, NULL };
		char *script_dir[] = { auxrec, "script", dir, NULL };	/* both, one stream */
		char *tc[] = { "timeout", "600", "trace-cmd", "report", "-i", trace_path, NULL };
		char *ps[] = { "timeout", "600", "perf", "script", "-i", perf_path, NULL };
		struct run r_report = run_child(report);
		struct run r_str = run_child(script_tr), r_tc = run_child(tc);
		struct run r_spd = run_child(script_pd), r_ps = run_child(ps);
		struct run r_sdir = run_child(script_dir);

		print_run("auxrec report DIR", &r_report, c.ftrace_events + c.perf_samples,
			  "records");
		print_run("auxrec script trace.dat", &r_str, c.ftrace_events, "events");
		print_run("trace-cmd report", &r_tc, c.ftrace_events, "events");
		print_run("auxrec script perf.data", &r_spd, c.perf_samples, "samples");
		print_run("perf script", &r_ps, c.perf_samples, "samples");
		print_run("auxrec script DIR (merged)", &r_sdir, c.ftrace_events + c.perf_samples,
			  "records");
		print_ratio("ftrace part", &r_str, &r_tc, 5);
		print_ratio("perf part", &r_spd, &r_ps, 1);
		print_rss("auxrec report:", &r_report);
		print_rss("auxrec script trace.dat:", &r_str);
		print_rss("auxrec script perf.data:", &r_spd);
		print_rss("auxrec script DIR (merged):", &r_sdir);
		bench_page(auxrec, dir, c.ftrace_events + c.perf_samples);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? 1 : 0;
}
