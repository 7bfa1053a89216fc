// SPDX-License-Identifier: LGPL-2.1
/* Linked into every benchmark: measuring helpers and the plumbing every bench repeats. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <auxtrace/core.h>

#include "util.h"

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

uint64_t bench__now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t bench__thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

double bench__thread_cpu_s(uint64_t *nivcsw)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	if (nivcsw)
		*nivcsw = ru.ru_nivcsw;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench__median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench__pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static const char *print_name;

static int print_lib(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBAUXTRACE_WARN)
		return 0;
	fprintf(stderr, "%s: libauxtrace: ", print_name);
	return vfprintf(stderr, fmt, ap);
}

void bench__print_lib_warnings(const char *name)
{
	print_name = name;
	libauxtrace_set_print(print_lib);
}

struct bench_run bench__run(char *const argv[])
{
	return bench__run_copies(argv, 1);
}

struct bench_run bench__run_copies(char *const argv[], int copies)
{
	struct bench_run r = { .status = 0 };
	uint64_t t0 = bench__now_ns();
	pid_t pids[copies];
	int started = 0;

	for (; started < copies; started++) {
		pids[started] = fork();
		if (pids[started] == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			dup2(null, 2);
			execvp(argv[0], argv);
			_exit(127);
		}
		if (pids[started] < 0) {
			r.status = -1;
			break;
		}
	}
	/* Each copy by its pid: the loaded variant's CPU hogs are children too. */
	for (int i = 0; i < started; i++) {
		struct rusage ru;
		int status;

		if (wait4(pids[i], &status, 0, &ru) != pids[i]) {
			r.status = -1;
			continue;
		}
		r.status = r.status ?: status;
		r.cpu_seconds += ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
				 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
		if (ru.ru_maxrss > r.max_rss_kib)
			r.max_rss_kib = ru.ru_maxrss;
	}
	r.seconds = (bench__now_ns() - t0) / 1e9;
	return r;
}

/*
 * BENCH_LOAD=1: the loaded variant of a benchmark. A recorder runs beside the load it
 * records, so every CPU gets a CPU-bound process of its own (pinned, nice 0) beside the
 * benchmark's producer and consumer, from before main() until exit. Started here, in the
 * code every benchmark links, so that each needs no change; the variable is cleared, so
 * programs a benchmark starts do not add a load of their own.
 */
#define LOAD_MAX 64
static pid_t load_pids[LOAD_MAX];
static int nr_load;

static void load__stop(void)
{
	for (int i = 0; i < nr_load; i++)
		kill(load_pids[i], SIGKILL);
	for (int i = 0; i < nr_load; i++)
		waitpid(load_pids[i], NULL, 0);
	nr_load = 0;
}

__attribute__((constructor)) static void load__start(void)
{
	const char *v = getenv("BENCH_LOAD");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (!v || strcmp(v, "1"))
		return;
	unsetenv("BENCH_LOAD");
	for (int cpu = 0; cpu < cpus && nr_load < LOAD_MAX; cpu++) {
		pid_t pid = fork();

		if (pid == 0) {
			/* gone with the benchmark, however it ends */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (bench__pin_self(cpu) == 0)
				for (volatile unsigned long spin = 0;; spin++)
					;
			_exit(1);
		}
		if (pid > 0)
			load_pids[nr_load++] = pid;
	}
	atexit(load__stop);
	printf("loaded: a CPU-bound process on each of %d CPUs beside the benchmark\n", nr_load);
	fflush(stdout);
}

int bench__tracepoint_id(const char *sys_event)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		char path[256];
		int id = -ENOENT;
		FILE *f;

		snprintf(path, sizeof(path), "%s/events/%s/id", roots[i], sys_event);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%d", &id) != 1 || id <= 0)
			id = -ENOENT;
		fclose(f);
		return id;
	}
	return -ENOENT;
}
