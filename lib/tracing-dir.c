// SPDX-License-Identifier: LGPL-2.1
/*
 * Where tracefs is mounted: the perf side needs it for tracepoint IDs, and the tracefs
 * library builds on it, so it lives here, below both.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <internal/lib.h>

static char tracing_dir[PATH_MAX];
static int tracing_dir_err = -ENODEV;	/* why there is none: -EACCES when one is not ours */
static pthread_once_t tracing_dir_once = PTHREAD_ONCE_INIT;

static bool is_tracing_dir(const char *dir)
{
	char path[PATH_MAX + sizeof("/trace")];
	struct stat st;

	snprintf(path, sizeof(path), "%s/trace", dir);
	if (stat(path, &st) == 0)
		return true;
	if (errno == EACCES)	/* mounted, but this user may not enter it (mode 0700) */
		tracing_dir_err = -EACCES;
	return false;
}

/* tracefs itself first, then the tracing directory inside an old-style debugfs. */
static bool find_in_mounts(const char *want_type, const char *suffix)
{
	char dev[256], mnt[PATH_MAX - sizeof("/tracing")], type[64];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return false;
	while (!found && fscanf(f, "%255s %4086s %63s %*[^\n]", dev, mnt, type) == 3) {
		if (strcmp(type, want_type))
			continue;
		snprintf(tracing_dir, sizeof(tracing_dir), "%s%s", mnt, suffix);
		found = is_tracing_dir(tracing_dir);
	}
	fclose(f);
	return found;
}

static void tracing_dir__find(void)
{
	static const char *const fallbacks[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	if (find_in_mounts("tracefs", "") || find_in_mounts("debugfs", "/tracing"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++) {
		if (is_tracing_dir(fallbacks[i])) {
			snprintf(tracing_dir, sizeof(tracing_dir), "%s", fallbacks[i]);
			return;
		}
	}
	tracing_dir[0] = '\0';
}

const char *libauxtrace__tracing_dir(void)
{
	pthread_once(&tracing_dir_once, tracing_dir__find);
	return tracing_dir[0] ? tracing_dir : libauxtrace__ptr_err(tracing_dir_err);
}

const char *libauxtrace__no_tracing_dir_why(int err)
{
	return err == EACCES || err == -EACCES ?
	       "tracefs is mounted, but this user may not read it (permission denied): run as root" :
	       "tracefs is not mounted: as root, mount -t tracefs nodev /sys/kernel/tracing";
}
