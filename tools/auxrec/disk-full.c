// SPDX-License-Identifier: LGPL-2.1
/*
 * A recording stopped by a full disk names the filesystem that filled (its mount point and
 * type, which the user has to free or enlarge) and how much of each file made it.
 */
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "disk-full.h"

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
	fprintf(stderr, " they read up to what was written: free space or record elsewhere\n");
}
