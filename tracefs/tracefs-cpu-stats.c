// SPDX-License-Identifier: LGPL-2.1
/*
 * The kernel's own counters of a CPU buffer, from per_cpu/cpuN/stats: how many events were
 * read, and how many were lost. The splice path needs the latter: its sub-buffers go from the
 * kernel's pages to the output without passing through our hands, so their lost-events
 * marks reach the file but not the stats unless the kernel's count says so.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

int tracefs_cpu__kernel_stats(struct tracefs_cpu *tcpu, const char *const *keys, uint64_t *v,
			      int nr)
{
	char buf[512];
	ssize_t len;

	if (tcpu->stats_fd < 0)
		return -ENOENT;
	len = pread(tcpu->stats_fd, buf, sizeof(buf) - 1, 0);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	for (int i = 0; i < nr; i++) {
		const char *p = strstr(buf, keys[i]);

		if (!p)
			return -EPROTO;
		v[i] = strtoull(p + strlen(keys[i]), NULL, 10);
	}
	return 0;
}

/* Events the kernel dropped on this CPU: overwritten, or refused when the buffer was full. */
static int tcpu__kernel_lost(struct tracefs_cpu *tcpu, uint64_t *lost)
{
	static const char *const keys[] = { "\noverrun:", "dropped events:" };
	uint64_t v[2];
	int err = tracefs_cpu__kernel_stats(tcpu, keys, v, 2);

	if (!err)
		*lost = v[0] + v[1];
	return err;
}

void tracefs_cpu__account_kernel_lost(struct tracefs_cpu *tcpu)
{
	uint64_t now = 0;

	if (tcpu__kernel_lost(tcpu, &now) < 0)
		return;
	/* a count below the last one: the buffer was reset, and counts from 0 again */
	if (now > tcpu->kernel_lost_seen)
		ring__account_loss(&tcpu->ring, (int64_t)(now - tcpu->kernel_lost_seen));
	tcpu->kernel_lost_seen = now;
}

void tracefs_cpu__sync_kernel_lost(struct tracefs_cpu *tcpu)
{
	uint64_t now = 0;

	if (tcpu__kernel_lost(tcpu, &now) == 0)
		tcpu->kernel_lost_seen = now;
}
