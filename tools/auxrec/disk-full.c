// SPDX-License-Identifier: LGPL-2.1
/*
 * A recording stopped by a full disk names the filesystem that filled (its mount point and
 * type, which the user has to free or enlarge) and how much of each file made it: for
 * perf.data, the samples perf reads in it, counted in the finished file itself, or that
 * perf cannot read it at all.
 */
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <auxtrace/perf-data.h>
#include <auxtrace/session.h>
#include "disk-full.h"
#include "error.h"

/* The mount point of path (climbing while the device stays the same) into mnt. */
static void mount_point(const char *path, char *mnt, size_t len)
{
	char *real = realpath(path, NULL), *slash;
	struct stat st, up;

	snprintf(mnt, len, "%s", real ? real : path);
	if (!real || stat(mnt, &st) < 0) {
		free(real);
		return;
	}
	free(real);
	while ((slash = strrchr(mnt, '/')) && slash != mnt) {
		*slash = '\0';
		if (stat(mnt, &up) < 0 || up.st_dev != st.st_dev) {
			*slash = '/';	/* the parent is another filesystem: this is the mount */
			return;
		}
	}
	if (slash == mnt && stat("/", &up) == 0 && up.st_dev == st.st_dev)
		snprintf(mnt, len, "/");
}

static void mount_type(const char *mnt, char *type, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;

	snprintf(type, len, "?");
	while (f && (m = getmntent(f)))
		if (!strcmp(m->mnt_dir, mnt))
			snprintf(type, len, "%s", m->mnt_type);	/* the last mount there wins */
	if (f)
		endmntent(f);
}

void disk_full__say(const char *dir, const char *const *files, int nr)
{
	char mnt[PATH_MAX], type[64];
	struct statvfs vfs;
	struct stat st;

	mount_point(dir, mnt, sizeof(mnt));
	mount_type(mnt, type, sizeof(type));
	fprintf(stderr, "auxrec: the filesystem mounted at %s (%s", mnt, type);
	if (statvfs(dir, &vfs) == 0)
		fprintf(stderr, ", %.1f MiB", (double)vfs.f_blocks * vfs.f_frsize / (1 << 20));
	fprintf(stderr, ") is full: the recording stopped there;");
	for (int i = 0; i < nr; i++)
		if (files[i] && stat(files[i], &st) == 0)
			fprintf(stderr, " %s holds %.1f KiB;", files[i], st.st_size / 1024.0);
	fprintf(stderr, " free space or record elsewhere\n");
}

/* The samples of the perf.data at path, as the library's reader finds them; -1: unreadable. */
static long long perf_data__count_samples(const char *path)
{
	struct perf_tool tool = { .sz = sizeof(tool) };
	struct perf_session *s = perf_session__new(path, NULL);
	long long n = -1;

	if (s && perf_session__process_events(s, &tool) == 0)
		n = (long long)perf_session__stats(s)->nr_events[PERF_RECORD_SAMPLE];
	perf_session__delete(s);
	return n;
}

void disk_full__say_perf_data(const char *path, const struct perf_data_writer_stats *st,
			      int err)
{
	long long samples = st->unreadable ? -1 : perf_data__count_samples(path);

	if (!st->finished) {
		auxrec_error("perf cannot read %s: its header could not be rewritten (the log "
			     "above says why), so the sections perf needs for these events (the "
			     "tracepoints' formats, -z's parameters) are missing: free space or "
			     "record elsewhere (-o), then record again", path);
		return;
	}
	if (st->unreadable) {
		auxrec_error("perf cannot read %s: the sections it needs for these events (the "
			     "tracepoints' formats, -z's parameters: %.1f KiB) did not fit on the "
			     "disk, not even in place of its records; it keeps %.1f KiB of records "
			     "that no reader uses without them: free space or record elsewhere "
			     "(-o), then record again", path, st->needed_bytes / 1024.0,
			     st->data_size / 1024.0);
		return;
	}
	fprintf(stderr, "auxrec: %s is incomplete (%s): ", path, auxrec_strerror(-err));
	if (samples < 0)
		fprintf(stderr, "it holds what was written before the error, the log above says "
			"how far\n");
	else
		fprintf(stderr, "perf reads the %lld samples it keeps (%.1f KiB of records)%s\n",
			samples, st->data_size / 1024.0, st->cut_records ?
			", the newest cut off to make room for what perf needs to read them (the "
			"log above says how many)" : "");
}
