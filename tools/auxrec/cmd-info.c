// SPDX-License-Identifier: LGPL-2.1
/* auxrec info: what this machine can record, and what stands in the way. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <auxtrace/auxtrace-record.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/pmu.h>
#include <tracefs.h>
#include "cmd.h"
#include "error.h"

static long read_long(const char *path, long fallback)
{
	FILE *f = fopen(path, "r");
	long v = fallback;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = fallback;
		fclose(f);
	}
	return v;
}

static const char *paranoid_meaning(long p)
{
	if (p <= -1)
		return "no restrictions";
	if (p == 0)
		return "CPU-wide and kernel events allowed, no raw tracepoints for users";
	if (p == 1)
		return "users: no CPU-wide events";
	return "users: only their own tasks in user space";
}

static void info_system(void)
{
	struct utsname u;
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	char cpus[256] = "?";
	struct rlimit rl;
	long paranoid = read_long("/proc/sys/kernel/perf_event_paranoid", 2);
	long mlock_kb = read_long("/proc/sys/kernel/perf_event_mlock_kb", -1);

	if (!uname(&u))
		printf("kernel:               %s %s %s\n", u.sysname, u.release, u.machine);
	if (online)
		perf_cpu_map__snprint(online, cpus, sizeof(cpus));
	printf("online CPUs:          %s (%d)\n", cpus, perf_cpu_map__nr(online));
	perf_cpu_map__put(online);
	printf("running as:           %s\n", geteuid() == 0 ? "root" : "unprivileged user");
	printf("perf_event_paranoid:  %ld (%s%s)\n", paranoid, paranoid_meaning(paranoid),
	       geteuid() == 0 ? "; root is not restricted" : "");
	if (mlock_kb >= 0)
		printf("perf_event_mlock_kb:  %ld KiB per CPU for perf rings and AUX areas\n",
		       mlock_kb);
	if (!getrlimit(RLIMIT_MEMLOCK, &rl)) {
		if (rl.rlim_cur == RLIM_INFINITY)
			printf("RLIMIT_MEMLOCK:       unlimited\n");
		else
			printf("RLIMIT_MEMLOCK:       %llu KiB%s\n",
			       (unsigned long long)rl.rlim_cur / 1024,
			       geteuid() == 0 ? " (root has CAP_IPC_LOCK: not enforced)" : "");
	}
}

static void info_pmus(void)
{
	struct perf_pmus *pmus = perf_pmus__new(NULL);
	struct perf_pmu *pmu;
	int nr_aux = 0;

	if (!pmus) {
		printf("PMUs:                 cannot read /sys/bus/event_source/devices (%s)\n",
		       strerror(errno));
		return;
	}
	printf("PMUs:\n");
	perf_pmus__for_each_pmu(pmus, pmu) {
		bool aux = auxtrace_pmu__is_aux_capable(perf_pmu__name(pmu));
		unsigned int filters = perf_pmu__nr_addr_filters(pmu);

		nr_aux += aux;
		printf("  %-20s type %u%s", perf_pmu__name(pmu), perf_pmu__type(pmu),
		       aux ? ", AUX area" : "");
		if (filters)
			printf(", %u address filters", filters);
		printf("\n");
	}
	if (nr_aux)
		printf("AUX-capable PMUs:     %d\n", nr_aux);
	else
		printf("AUX-capable PMUs:     none (no intel_pt, intel_bts, arm_spe or cs_etm): "
		       "hardware trace cannot be recorded here\n");
	perf_pmus__delete(pmus);
}

static void info_tracefs(void)
{
	const char *dir = tracefs_tracing_dir();

	if (!dir) {
		printf("tracefs:              %s\n", errno == EACCES ?
		       "mounted, not readable by this user (needs root)" :
		       "not mounted (as root: mount -t tracefs nodev /sys/kernel/tracing)");
		return;
	}
	printf("tracefs:              %s\n", dir);
	printf("ring-buffer mapping:  %s\n", tracefs_mapped_is_supported() ?
	       "supported (trace_pipe_raw can be memory-mapped, Linux 6.10+)" :
	       "not available (read/splice of trace_pipe_raw only)");
}

int cmd_info(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "-h") && strcmp(argv[1], "--help")) {
			auxrec_error("info takes no arguments");
			return 2;
		}
		printf("usage: auxrec info\n");
		return 0;
	}
	info_system();
	info_pmus();
	info_tracefs();
	return 0;
}
