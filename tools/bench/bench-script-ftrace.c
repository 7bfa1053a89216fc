// SPDX-License-Identifier: LGPL-2.1
/*
 * Printing ftrace events: `auxrec script FILE` against trace-cmd 3.1.6's `trace-cmd report -i
 * FILE` on the same trace.dat, both to /dev/null, each run three times in turn: events per
 * second (the median run's), CPU time and peak RSS (the child's, from wait4) side by side.
 *
 * Two recordings, made by auxrec record system-wide from a workload that writes trace_marker
 * lines and calls getppid() (tests/progs/marker-getppid), with sched_switch and sched_wakeup:
 *  - syscalls: sys_enter_getppid and sys_exit_getppid, with a marker line every 8 calls;
 *  - markers: trace_marker lines only (print events).
 * Their print formats take auxrec's compiled path; the sched events go through
 * libtraceevent's plugin in both tools. CALLS (default 2M) getppid calls; a number as the first
 * argument changes it. Needs root (tracefs) and trace-cmd.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs/trace-dat-reader.h>
#include "util.h"

#define CALLS		(2u << 20)
#define RUNS		3

struct recording {
	const char *name;
	char dir[PATH_MAX];
	char path[PATH_MAX];
	uint64_t events, losses;
};

/* auxrec record of the workload: 0, or -1 (said why). */
static int record(struct recording *rec, const char *bin, const char *events, long markers,
		  long calls)
{
	char cmd[3 * PATH_MAX];

	snprintf(rec->dir, sizeof(rec->dir), "/tmp/bench-script-ftrace-%d-%s", getpid(),
		 rec->name);
	snprintf(rec->path, sizeof(rec->path), "%s/trace.dat", rec->dir);
	snprintf(cmd, sizeof(cmd),
		 "timeout 600 %s/auxrec record -o %s -a -e dummy --ftrace-buffer-kb 32768 "
		 "--ftrace sched:sched_switch --ftrace sched:sched_wakeup %s -- "
		 "%s/tests/progs/marker-getppid %ld %ld 40 >/dev/null 2>&1",
		 bin, rec->dir, events, bin, markers, calls);
	if (system(cmd)) {
		fprintf(stderr, "bench-script-ftrace: failed: %s\n", cmd);
		return -1;
	}
	return 0;
}

/* The events and loss marks the file holds, through the library's own reader. */
static int count(struct recording *rec)
{
	struct trace_dat_reader *r = trace_dat_reader__open(rec->path);
	struct trace_dat_cursor *c = r ? trace_dat_cursor__new(r, -1) : NULL;
	const struct trace_dat_record *t;
	int err;

	if (!c) {
		trace_dat_reader__close(r);
		return -1;
	}
	while ((t = trace_dat_cursor__next(c)))
		*(t->kind == TRACE_DAT_EVENT ? &rec->events : &rec->losses) += 1;
	err = errno ? -1 : 0;
	trace_dat_cursor__delete(c);
	trace_dat_reader__close(r);
	return err;
}

static int by_seconds(const void *a, const void *b)
{
	double x = ((const struct bench_run *)a)->seconds, y = ((const struct bench_run *)b)->seconds;

	return (x > y) - (x < y);
}

static void row(const char *name, const struct recording *rec, const struct bench_run *r)
{
	printf("  %-22s %7.2fs %12.2f M %8.2fs %8.1f MiB%s\n", name, r->seconds,
	       rec->events / r->seconds / 1e6, r->cpu_seconds, r->max_rss_kib / 1024.0,
	       r->status ? "  (failed)" : "");
}

static void compare(const struct recording *rec, const char *auxrec)
{
	char *ours[] = { (char *)auxrec, "script", (char *)rec->path, NULL };
	char *theirs[] = { "timeout", "600", "trace-cmd", "report", "-i", (char *)rec->path,
			   NULL };
	struct bench_run a[RUNS], t[RUNS];

	for (int i = 0; i < RUNS; i++) {
		a[i] = bench__run(ours);
		t[i] = bench__run(theirs);
	}
	qsort(a, RUNS, sizeof(a[0]), by_seconds);
	qsort(t, RUNS, sizeof(t[0]), by_seconds);
	printf("%s: %" PRIu64 " events, %" PRIu64 " loss marks\n", rec->name, rec->events,
	       rec->losses);
	printf("  %-22s %8s %14s %9s %12s\n", "", "time", "events/s", "CPU", "peak RSS");
	row("auxrec script", rec, &a[RUNS / 2]);
	row("trace-cmd report", rec, &t[RUNS / 2]);
	if (!a[RUNS / 2].status && !t[RUNS / 2].status)
		printf("  auxrec / trace-cmd: rate %.2fx (runs %.2f-%.2fx), CPU %.2fx, peak RSS %.2fx\n\n",
		       t[RUNS / 2].seconds / a[RUNS / 2].seconds, t[0].seconds / a[RUNS - 1].seconds,
		       t[RUNS - 1].seconds / a[0].seconds,
		       t[RUNS / 2].cpu_seconds / a[RUNS / 2].cpu_seconds,
		       (double)a[RUNS / 2].max_rss_kib / t[RUNS / 2].max_rss_kib);
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? strtol(argv[1], NULL, 0) : CALLS;
	struct recording recs[] = { { .name = "syscalls" }, { .name = "markers" } };
	const char *events[] = {
		"--ftrace syscalls:sys_enter_getppid --ftrace syscalls:sys_exit_getppid "
		"--ftrace ftrace:print",
		"--ftrace ftrace:print",
	};
	const long markers[] = { calls / 8, calls }, nr_calls[] = { calls, 0 };
	char self[PATH_MAX], auxrec[PATH_MAX + 8], cmd[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *bin;

	if (n <= 0)
		return 1;
	self[n] = '\0';
	bin = dirname(self);		/* $(B): auxrec and the workload are built there */
	if (getuid()) {
		printf("bench-script-ftrace: skipped: needs root (tracefs)\n");
		return 0;
	}
	if (system("command -v trace-cmd >/dev/null")) {
		printf("bench-script-ftrace: skipped: trace-cmd is not installed\n");
		return 0;
	}
	snprintf(auxrec, sizeof(auxrec), "%s/auxrec", bin);
	bench__print_lib_warnings("bench-script-ftrace");
	for (int i = 0; i < 2; i++) {
		if (!record(&recs[i], bin, events[i], markers[i], nr_calls[i]) &&
		    !count(&recs[i]))
			compare(&recs[i], auxrec);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", recs[i].dir);
		if (system(cmd))
			fprintf(stderr, "bench-script-ftrace: cannot remove %s\n", recs[i].dir);
	}
	return 0;
}
