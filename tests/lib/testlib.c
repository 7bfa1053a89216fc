// SPDX-License-Identifier: LGPL-2.1
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/testlib.h"

static pid_t runner_pid;

bool testlib_is_root(void)
{
	return geteuid() == 0;
}

unsigned int testlib_sweep_step(void)
{
	return getenv("AUXTRACE_TEST_MEMCHECK") ? 16 : 1;
}

const char *testlib_tracefs(void)
{
	static char path[256];
	char dev[256], mnt[256], type[64];
	FILE *f;

	if (path[0])
		return path;
	f = fopen("/proc/mounts", "r");
	if (!f)
		return NULL;
	while (fscanf(f, "%255s %255s %63s %*[^\n]", dev, mnt, type) == 3) {
		if (!strcmp(type, "tracefs")) {
			snprintf(path, sizeof(path), "%s", mnt);
			break;
		}
	}
	fclose(f);
	return path[0] ? path : NULL;
}

const char *testlib_instance_prefix(void)
{
	static char prefix[64];

	const char *run = getenv("AUXTRACE_TEST_RUN");

	if (!runner_pid)
		runner_pid = getpid();
	/* scripts/run-tests names its run, so that it checks only its own leftovers */
	if (run && *run)
		snprintf(prefix, sizeof(prefix), "auxtrace-test-r%s-%d-", run, (int)runner_pid);
	else
		snprintf(prefix, sizeof(prefix), "auxtrace-test-%d-", (int)runner_pid);
	return prefix;
}

void testlib_instance_name(char *buf, size_t size)
{
	static unsigned int seq;

	snprintf(buf, size, "%s%d-%u", testlib_instance_prefix(), (int)getpid(), seq++);
}

int testlib_remove_instances(void)
{
	const char *t = testlib_tracefs();
	const char *prefix = testlib_instance_prefix();
	char dir[512], path[1024];
	struct dirent *d;
	int removed = 0;
	DIR *dp;

	if (!t)
		return 0;
	snprintf(dir, sizeof(dir), "%s/instances", t);
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		/* A crashed test may leave a mapping or fd only in a dead process: retry briefly. */
		for (int i = 0; i < 50; i++) {
			if (!rmdir(path)) {
				removed++;
				break;
			}
			if (errno != EBUSY)
				break;
			usleep(20000);
		}
	}
	closedir(dp);
	return removed;
}

int testlib_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

long long testlib_self_status(const char *field, int base)
{
	size_t len = strlen(field);
	long long val = -1;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':') {
			val = strtoll(line + len + 1, NULL, base);
			break;
		}
	}
	fclose(f);
	return val;
}

int testlib_nr_online_cpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

int testlib_run(Suite *s)
{
	SRunner *sr;
	int failed;

	runner_pid = getpid();
	testlib_instance_prefix();
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	testlib_remove_instances();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
