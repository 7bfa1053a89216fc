// SPDX-License-Identifier: LGPL-2.1
/*
 * The recorder's own cost: auxrec record against perf record on one tracepoint load, side
 * by side in one run.
 *
 * Each recorder records syscalls:sys_enter_getppid on CPU 0 (-C 0, the same ring size,
 * -m 1024) into /dev/shm for as long as `sleep` runs; meanwhile this bench runs a getppid()
 * loop pinned to CPU 0. Then the recording is read back with libauxtrace's perf.data reader:
 * samples of the loop captured per call made, and PERF_RECORD_LOST. The recorder's CPU time
 * (user + system, from wait4; `sleep` costs it nothing worth counting) per captured sample is
 * the figure: the target is at most 0.2x perf record's.
 *
 * Then once more each with -z (zstd level 1): the file's size against the bytes of records
 * it holds, and the recorder's CPU per MB of records, auxrec -z against perf record -z.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/session.h>
#include "util.h"

#define CALLS	2000000L	/* about 2-3 s of getppid() with the tracepoint on */
#define REPS	3

struct result {
	double cpu_s;		/* the recorder's user + system time */
	uint64_t captured;	/* samples of the loop in the file */
	uint64_t lost;		/* PERF_RECORD_LOST counts */
	long calls;
	uint64_t record_bytes;	/* of the records the reader delivered (decompressed) */
	uint64_t file_size;
};

struct count_ctx {
	struct perf_tool tool;
	pid_t tid;
	uint64_t captured;
	uint64_t bytes;
};

static int count_sample(struct perf_tool *tool, struct perf_session *session,
			union perf_event *event, struct perf_sample *sample, struct evsel *evsel)
{
	struct count_ctx *c = (struct count_ctx *)tool;

	(void)session;
	(void)evsel;
	c->captured += sample->tid == (uint32_t)c->tid;
	c->bytes += event->header.size;
	return 0;
}

/* Samples of tid and the losses in the recording at path, read with our reader. */
static int count_file(const char *path, pid_t tid, struct result *r)
{
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct count_ctx c = { .tool = { .sz = sizeof(c.tool), .sample = count_sample },
			       .tid = tid };
	struct perf_session *session = perf_session__new(path, &opts);
	int err;

	if (!session)
		return -errno;
	err = perf_session__process_events(session, &c.tool);
	r->captured = c.captured;
	r->record_bytes = c.bytes;
	r->lost = perf_session__stats(session)->total_lost;
	perf_session__delete(session);
	return err;
}

static pid_t spawn(char *const argv[], bool quiet)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* The load: CALLS getppid() calls pinned to CPU 0, in a child of ours. */
static pid_t start_loop(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		bench__pin_self(0);
		for (long i = 0; i < CALLS; i++)
			getppid();
		_exit(0);
	}
	return pid;
}

static int run(char *const recorder[], const char *path, struct result *r)
{
	struct stat st;
	struct rusage ru;
	int status;
	pid_t rec, loop;

	rec = spawn(recorder, true);
	if (rec < 0)
		return -errno;
	usleep(500000);		/* the recorder is set up and recording */
	loop = start_loop();
	if (loop < 0 || waitpid(loop, &status, 0) != loop)
		return -ECHILD;
	if (wait4(rec, &status, 0, &ru) != rec || !WIFEXITED(status) || WEXITSTATUS(status))
		return -EPROTO;
	r->cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		   ru.ru_stime.tv_usec / 1e6;
	r->calls = CALLS;
	r->file_size = stat(path, &st) ? 0 : (uint64_t)st.st_size;
	return count_file(path, loop, r);
}

static void print(const char *name, const struct result *r)
{
	printf("  %-14s captured %9llu of %ld calls (%.4f)  lost %8llu  CPU %6.3f s  "
	       "%7.1f ns/sample\n", name, (unsigned long long)r->captured, r->calls,
	       (double)r->captured / r->calls, (unsigned long long)r->lost, r->cpu_s,
	       r->captured ? r->cpu_s * 1e9 / r->captured : 0.0);
}

static void print_z(const char *name, const struct result *r)
{
	double mb = r->record_bytes / 1048576.0;

	printf("  %-17s %7.1f MiB of records in %6.2f MiB (%5.1fx)  lost %6llu  CPU %6.3f s  "
	       "%6.1f ms/MB\n", name, mb, r->file_size / 1048576.0,
	       r->file_size ? (double)r->record_bytes / r->file_size : 0.0,
	       (unsigned long long)r->lost, r->cpu_s, mb ? r->cpu_s * 1e3 / mb : 0.0);
}

/* One -z run of each: sizes and CPU per MB of records. */
static int compare_compressed(const char *auxrec, const char *out_auxrec, const char *perf_path,
			      const char *out_perf)
{
	char *const a[] = { (char *)auxrec, "record", "-z", "-e", "syscalls:sys_enter_getppid",
			    "-C", "0", "-m", "1024", "-o", (char *)out_auxrec, "--", "sleep", "4",
			    NULL };
	char *const p[] = { "perf", "record", "-z", "-e", "syscalls:sys_enter_getppid", "-C", "0",
			    "-m", "1024", "-o", (char *)out_perf, "--", "sleep", "4", NULL };
	struct result ra = { 0 }, rp = { 0 };
	int err = run(a, perf_path, &ra);

	if (!err)
		err = run(p, out_perf, &rp);
	if (err)
		return err;
	printf("-z (zstd level 1), the same load:\n");
	print_z("auxrec -z", &ra);
	print_z("perf record -z", &rp);
	printf("CPU per MB of records: auxrec -z %.1f ms, perf record -z %.1f ms: %.2fx\n",
	       ra.cpu_s * 1e3 / (ra.record_bytes / 1048576.0),
	       rp.cpu_s * 1e3 / (rp.record_bytes / 1048576.0),
	       (ra.cpu_s / ra.record_bytes) / (rp.cpu_s / rp.record_bytes));
	return 0;
}

int main(void)
{
	char self[PATH_MAX], auxrec[PATH_MAX + 16], dir[] = "/dev/shm/bench-record-XXXXXX";
	char out_auxrec[64], out_perf[64], perf_path[96];
	double aux_ns[REPS], perf_ns[REPS];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0 || !mkdtemp(dir)) {
		perror("bench-record");
		return 1;
	}
	self[n] = '\0';
	snprintf(auxrec, sizeof(auxrec), "%.*s/auxrec", (int)(strrchr(self, '/') - self), self);
	snprintf(out_auxrec, sizeof(out_auxrec), "%s/auxrec", dir);
	snprintf(out_perf, sizeof(out_perf), "%s/perf.data", dir);
	snprintf(perf_path, sizeof(perf_path), "%s/perf.data", out_auxrec);
	printf("bench-record: syscalls:sys_enter_getppid on CPU 0, %ld pinned getppid() calls, "
	       "-m 1024, into /dev/shm\n", CALLS);
	for (int i = 0; i < REPS; i++) {
		char *const a[] = { auxrec, "record", "-e", "syscalls:sys_enter_getppid", "-C", "0",
				    "-m", "1024", "-o", out_auxrec, "--", "sleep", "4", NULL };
		char *const p[] = { "perf", "record", "-e", "syscalls:sys_enter_getppid", "-C", "0",
				    "-m", "1024", "-o", out_perf, "--", "sleep", "4", NULL };
		struct result ra = { 0 }, rp = { 0 };
		int err = run(a, perf_path, &ra);

		if (!err)
			err = run(p, out_perf, &rp);
		if (err) {
			fprintf(stderr, "bench-record: run %d failed: %s\n", i, strerror(-err));
			return 1;
		}
		printf("run %d\n", i + 1);
		print("auxrec", &ra);
		print("perf record", &rp);
		aux_ns[i] = ra.cpu_s * 1e9 / (ra.captured ? ra.captured : 1);
		perf_ns[i] = rp.cpu_s * 1e9 / (rp.captured ? rp.captured : 1);
	}
	printf("median CPU per captured sample: auxrec %.1f ns, perf record %.1f ns: %.2fx "
	       "(target <= 0.2x)\n", bench__median(aux_ns, REPS), bench__median(perf_ns, REPS),
	       bench__median(aux_ns, REPS) / bench__median(perf_ns, REPS));
	n = compare_compressed(auxrec, out_auxrec, perf_path, out_perf);
	if (n)
		fprintf(stderr, "bench-record: the -z runs failed: %s\n", strerror((int)-n));
	if (system(NULL)) {
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "bench-record: could not remove %s\n", dir);
	}
	return 0;
}
