// SPDX-License-Identifier: LGPL-2.1
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fake-sysfs.h"

int fake_sysfs__create(struct fake_sysfs *fs)
{
	snprintf(fs->root, sizeof(fs->root), "/tmp/auxtrace-sysfs-XXXXXX");
	return mkdtemp(fs->root) ? 0 : -errno;
}

static int mkdir_p(char *path)
{
	for (char *s = strchr(path + 1, '/'); ; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		if (!s)
			return 0;
		*s = '/';
	}
}

int fake_sysfs__write(struct fake_sysfs *fs, const char *relpath, const char *content)
{
	char path[512], *slash;
	int fd, err;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", fs->root, relpath);
	if (!content)
		return mkdir_p(path);
	slash = strrchr(path, '/');
	*slash = '\0';
	err = mkdir_p(path);
	*slash = '/';
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	len = strlen(content);
	err = write(fd, content, len) == (ssize_t)len ? 0 : -EIO;
	close(fd);
	return err;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

void fake_sysfs__remove(struct fake_sysfs *fs)
{
	if (fs->root[0])
		nftw(fs->root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	fs->root[0] = '\0';
}

#define PMU "bus/event_source/devices/"

static const char *const standard[][2] = {
	{ "devices/system/cpu/online", "0-3\n" },

	{ PMU "intel_pt/type", "8\n" },
	{ PMU "intel_pt/format/pt", "config:0\n" },
	{ PMU "intel_pt/format/cyc", "config:1\n" },
	{ PMU "intel_pt/format/pwr_evt", "config:4\n" },
	{ PMU "intel_pt/format/fup_on_ptw", "config:5\n" },
	{ PMU "intel_pt/format/mtc", "config:9\n" },
	{ PMU "intel_pt/format/tsc", "config:10\n" },
	{ PMU "intel_pt/format/noretcomp", "config:11\n" },
	{ PMU "intel_pt/format/ptw", "config:12\n" },
	{ PMU "intel_pt/format/branch", "config:13\n" },
	{ PMU "intel_pt/format/mtc_period", "config:14-17\n" },
	{ PMU "intel_pt/format/cyc_thresh", "config:19-22\n" },
	{ PMU "intel_pt/format/psb_period", "config:24-27\n" },
	{ PMU "intel_pt/format/event", "config:31\n" },
	{ PMU "intel_pt/format/notnt", "config:55\n" },
	{ PMU "intel_pt/caps/psb_cyc", "1\n" },
	{ PMU "intel_pt/caps/mtc", "1\n" },
	{ PMU "intel_pt/caps/mtc_periods", "249\n" },
	{ PMU "intel_pt/caps/cycle_thresholds", "3fff\n" },
	{ PMU "intel_pt/caps/psb_periods", "003f\n" },
	{ PMU "intel_pt/caps/topa_multiple_entries", "1\n" },
	{ PMU "intel_pt/caps/ip_filtering", "1\n" },
	{ PMU "intel_pt/caps/num_address_ranges", "2\n" },
	{ PMU "intel_pt/max_nonturbo_ratio", "33\n" },
	{ PMU "intel_pt/nr_addr_filters", "2\n" },

	{ PMU "intel_bts/type", "9\n" },

	{ PMU "arm_spe_0/type", "10\n" },
	{ PMU "arm_spe_0/format/ts_enable", "config:0\n" },
	{ PMU "arm_spe_0/format/pa_enable", "config:1\n" },
	{ PMU "arm_spe_0/format/pct_enable", "config:2\n" },
	{ PMU "arm_spe_0/format/jitter", "config:16\n" },
	{ PMU "arm_spe_0/format/branch_filter", "config:32\n" },
	{ PMU "arm_spe_0/format/load_filter", "config:33\n" },
	{ PMU "arm_spe_0/format/store_filter", "config:34\n" },
	{ PMU "arm_spe_0/format/event_filter", "config1:0-63\n" },
	{ PMU "arm_spe_0/format/min_latency", "config2:0-11\n" },
	{ PMU "arm_spe_0/caps/min_interval", "1024\n" },
	{ PMU "arm_spe_0/caps/count_size", "12\n" },
	{ PMU "arm_spe_0/cpumask", "2-3\n" },

	{ PMU "cpu_core/type", "4\n" },
	{ PMU "cpu_core/format/event", "config:0-7\n" },
	{ PMU "cpu_core/format/umask", "config:8-15\n" },
	{ PMU "cpu_core/events/cycles", "event=0x3c\n" },
	{ PMU "cpu_core/cpus", "0-1\n" },

	{ PMU "uncore_split/type", "20\n" },
	{ PMU "uncore_split/format/event", "config:0-7,32-35\n" },
	{ PMU "uncore_split/format/umask", "config:8-15\n" },
	{ PMU "uncore_split/format/edge", "config:18\n" },
	{ PMU "uncore_split/format/wide", "config1:0-63\n" },
	{ PMU "uncore_split/format/ext", "config2:4-5,60-61\n" },
	{ PMU "uncore_split/format/far", "config3:7\n" },
	{ PMU "uncore_split/events/clockticks", "event=0xff,umask=0x00\n" },
	{ PMU "uncore_split/events/big", "event=0xabc,edge\n" },
	{ PMU "uncore_split/events/big.scale", "6.103515625e-5\n" },
	{ PMU "uncore_split/events/big.unit", "MiB\n" },
	{ PMU "uncore_split/cpumask", "0\n" },

	{ PMU "software/type", "1\n" },
	{ PMU "tracepoint/type", "2\n" },
};

int fake_sysfs__standard(struct fake_sysfs *fs)
{
	int err = fake_sysfs__create(fs);

	for (size_t i = 0; !err && i < sizeof(standard) / sizeof(standard[0]); i++)
		err = fake_sysfs__write(fs, standard[i][0], standard[i][1]);
	if (err)
		fake_sysfs__remove(fs);
	return err;
}

int fake_sysfs__aux_as_software(struct fake_sysfs *fs, const char *pmu)
{
	char path[256];
	int err = fake_sysfs__standard(fs);

	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/software/type", fs->root);
	if (unlink(path))
		return -errno;
	*strrchr(path, '/') = '\0';
	if (rmdir(path))
		return -errno;
	snprintf(path, sizeof(path), "bus/event_source/devices/%s/type", pmu);
	return fake_sysfs__write(fs, path, "1\n");
}
