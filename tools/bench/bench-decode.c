// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding AUX data to branch samples: `auxrec script --itrace=b` on one, two and three
 * threads (-j1, -j2, -j3), and two -j1 runs at once (the most this machine gives two
 * threads), against perf 6.1's `perf script --itrace=b` on the same recordings, all
 * printing to /dev/null: branches per second and peak RSS (the child's, from wait4) side
 * by side, the median of runs taken in turns.
 *
 * The recordings are made the way the tests make them (tests/lib/aux-f-calls.h): a program
 * built here runs, its side-band is written, and the AUX test producer stands in for the
 * hardware, drained through the library's AUX layer into its perf.data writer: Intel BTS
 * and Intel PT traces of its calls of f, over and over, in AUX buffers of 64 and 512 KiB
 * (below).
 * BRANCHES (default 8M) per recording; a number as the first argument changes it.
 * BENCH_DECODE_KEEP=1 keeps the recordings and their programs (their paths printed), to
 * profile the tools on them.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/core.h>

#include "util.h"
#include "tests/lib/aux-f-calls.h"

#define BRANCHES	(8u << 20)
/*
 * The AUX buffers the recordings are drained in: BTS in 64 KiB; PT in 512 KiB, what a
 * wakeup at half of the test producer's 1 MiB AUX area gives (perf's default for PT, a
 * 4 MiB area, gives 2 MiB), or BENCH_DECODE_PT_BUFFER bytes (at most 1 MiB less 64).
 */
#define BTS_BUFFER_BYTES	(64u << 10)
#define PT_BUFFER_BYTES		(512u << 10)

struct recording {
	const char *name;
	struct traced_prog prog;	/* its code, read by both decoders */
	char path[PATH_MAX];
	struct aux_f_calls rec;
	off_t size;
};

static int make_recording(struct recording *rec, const char *pmu, uint64_t branches,
			  size_t buffer_bytes)
{
	struct stat st;

	snprintf(rec->path, sizeof(rec->path), "/tmp/auxtrace-bench-decode-%s-%d.data", pmu,
		 getpid());
	if (traced_prog__start(&rec->prog) ||
	    aux_f_calls__record(rec->path, pmu, &rec->prog, branches, buffer_bytes, &rec->rec))
		return -1;
	if (!stat(rec->path, &st))
		rec->size = st.st_size;
	return 0;
}

/*
 * Each row, taking turns: the median and the range. Five, since this VM's speed moves
 * 1.5x within minutes and a ratio of two medians of three moved with it.
 */
#define RUNS	5

/* auxrec script -j1, -j2, -j3, two -j1 at once, and perf script */
enum { ROW_J1, ROW_J2, ROW_J3, ROW_TWO_J1, ROW_PERF, NR_ROWS };

struct runs {
	char name[40];
	int copies;			/* of the command run at once */
	double seconds[RUNS];		/* sorted */
	double cpu[RUNS];		/* user + system of the run, sorted */
	long max_rss_kib;
	bool failed;
};

static int seconds_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median rate, in units of the recording's branches per second. */
static double runs__rate(const struct runs *r)
{
	return r->copies / r->seconds[RUNS / 2];
}

/*
 * A row's rate over -j1's, round by round (the two ran a second apart): the median and
 * range of those ratios say less about the VM's moods than a ratio of two medians does.
 */
struct speedup {
	double v[RUNS];		/* sorted once all rounds are in */
};

static void speedup__add(struct speedup *s, int round, const struct runs *r,
			 const struct runs *j1)
{
	s->v[round] = r->copies * j1->seconds[round] / r->seconds[round];
}

static void speedup__print(struct speedup *s, const char *name)
{
	qsort(s->v, RUNS, sizeof(double), seconds_cmp);
	printf("%s %.2fx (%.2f-%.2f)", name, s->v[RUNS / 2], s->v[0], s->v[RUNS - 1]);
}

static void runs__print(const struct runs *r, uint64_t branches)
{
	double n = (double)branches * r->copies;

	printf("  %-30s %7.2fs %6.2fs %8.2f M (%.2f-%.2f) %8.1f MiB%s\n", r->name,
	       r->seconds[RUNS / 2], r->cpu[RUNS / 2], n / r->seconds[RUNS / 2] / 1e6,
	       n / r->seconds[RUNS - 1] / 1e6, n / r->seconds[0] / 1e6,
	       r->max_rss_kib / 1024.0, r->failed ? "  (failed)" : "");
}

/*
 * auxrec script on one, two and three threads (-j2: the walk and the decode on a thread of
 * their own, the lines formatted on two, written on the caller's), two -j1 runs at once
 * (what this machine gives two threads that share nothing: the ceiling for -j2), and perf
 * script, taking turns RUNS times.
 */
static void compare(const struct recording *rec, const char *auxrec)
{
	static const char *const threads[] = { "1", "2", "3", "1" };
	char *argv[NR_ROWS][8];
	char *perf[] = { "timeout", "600", "perf", "script", "--itrace=b", "-i",
			 (char *)rec->path, NULL };
	struct runs r[NR_ROWS] = {
		[ROW_J1 ... ROW_J3] = { .copies = 1 },
		[ROW_TWO_J1] = { .name = "two auxrec script -j1 at once", .copies = 2 },
		[ROW_PERF] = { .name = "perf script --itrace=b", .copies = 1 },
	};
	const struct runs *p = &r[ROW_PERF], *j1 = &r[ROW_J1];
	struct speedup over_j1[NR_ROWS];	/* of -j2, -j3 and two -j1 at once */
	bool failed = false;

	for (int t = ROW_J1; t <= ROW_TWO_J1; t++) {
		char *one[] = { (char *)auxrec, "script", "--itrace=b", "-j", (char *)threads[t],
				"-i", (char *)rec->path, NULL };

		memcpy(argv[t], one, sizeof(one));
		if (t != ROW_TWO_J1)
			snprintf(r[t].name, sizeof(r[t].name), "auxrec script --itrace=b -j%s",
				 threads[t]);
	}
	memcpy(argv[ROW_PERF], perf, sizeof(perf));
	for (int i = 0; i < RUNS; i++) {
		for (int t = 0; t < NR_ROWS; t++) {
			struct bench_run b = bench__run_copies(argv[t], r[t].copies);

			r[t].seconds[i] = b.seconds;
			r[t].cpu[i] = b.cpu_seconds;
			r[t].failed |= b.status != 0;
			if (b.max_rss_kib > r[t].max_rss_kib)
				r[t].max_rss_kib = b.max_rss_kib;
		}
		for (int t = ROW_J2; t <= ROW_TWO_J1; t++)
			speedup__add(&over_j1[t], i, &r[t], j1);
	}
	printf("%s: %" PRIu64 " branches in %" PRIu64 " AUX buffers, a %.1f MiB file; median "
	       "of %d runs (range)\n", rec->name, rec->rec.branches, rec->rec.buffers,
	       rec->size / 1048576.0, RUNS);
	printf("  %-30s %8s %7s %25s %12s\n", "", "time", "CPU", "branches/s", "peak RSS");
	for (int t = 0; t < NR_ROWS; t++) {
		qsort(r[t].seconds, RUNS, sizeof(double), seconds_cmp);
		qsort(r[t].cpu, RUNS, sizeof(double), seconds_cmp);
		runs__print(&r[t], rec->rec.branches);
		failed |= r[t].failed;
	}
	if (failed)
		return;
	printf("  rate over -j1's in the same round, median (range):");
	speedup__print(&over_j1[ROW_J2], " -j2");
	speedup__print(&over_j1[ROW_J3], ", -j3");
	speedup__print(&over_j1[ROW_TWO_J1], "; two -j1 at once, the ceiling for two threads");
	printf("\n");
	printf("  auxrec / perf: rate -j1 %.2fx, -j2 %.2fx, -j3 %.2fx; peak RSS %.2fx, %.2fx, "
	       "%.2fx\n\n", runs__rate(j1) / runs__rate(p), runs__rate(&r[ROW_J2]) / runs__rate(p),
	       runs__rate(&r[ROW_J3]) / runs__rate(p), (double)j1->max_rss_kib / p->max_rss_kib,
	       (double)r[ROW_J2].max_rss_kib / p->max_rss_kib,
	       (double)r[ROW_J3].max_rss_kib / p->max_rss_kib);
}

int main(int argc, char **argv)
{
	uint64_t branches = argc > 1 ? strtoull(argv[1], NULL, 0) : BRANCHES;
	struct recording recs[] = { { .name = "Intel BTS" }, { .name = "Intel PT" } };
	static const char *const pmus[] = { "intel_bts", "intel_pt" };
	const char *pt_buffer = getenv("BENCH_DECODE_PT_BUFFER");
	size_t buffers[] = { BTS_BUFFER_BYTES,
			     pt_buffer ? strtoul(pt_buffer, NULL, 0) : PT_BUFFER_BYTES };
	char self[PATH_MAX], auxrec[PATH_MAX + 8];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	snprintf(auxrec, sizeof(auxrec), "%s/auxrec", dirname(self));
	for (int i = 0; i < 2; i++) {
		int err;

		/* The stand-in for the AUX PMU says what it stands in for; nothing to see here. */
		libauxtrace_set_print(NULL);
		err = make_recording(&recs[i], pmus[i], branches, buffers[i]);
		bench__print_lib_warnings("bench-decode");
		if (err)
			fprintf(stderr, "bench-decode: cannot record %s\n", recs[i].name);
		else
			compare(&recs[i], auxrec);
		if (getenv("BENCH_DECODE_KEEP")) {
			printf("kept: %s (its program: %s)\n\n", recs[i].path,
			       recs[i].prog.elf.path);
			continue;
		}
		unlink(recs[i].path);
		traced_prog__remove(&recs[i].prog);
	}
	return 0;
}
