// SPDX-License-Identifier: LGPL-2.1
/*
 * The feature sections of a perf.data file, in the layouts perf 6.1 reads: what machine,
 * kernel and command recorded it, the events' names and sample IDs, which PMU each attr
 * type is, the clock, and (from perf-data-build-id.c) the build IDs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <auxtrace/cpumap.h>
#include <auxtrace/pmu.h>
#include <internal/lib.h>
#include "perf-data-buf.h"
#include "perf-data-internal.h"

static int feature__string(struct perf_data_buf *buf, const char *s)
{
	perf_data_buf__add_string(buf, s);
	return 0;
}

static int feature__uname(struct perf_data_buf *buf, enum perf_header_feature feat)
{
	struct utsname u;

	if (uname(&u) < 0)
		return -errno;
	return feature__string(buf, feat == HEADER_HOSTNAME ? u.nodename :
				    feat == HEADER_OSRELEASE ? u.release : u.machine);
}

static int feature__version(struct perf_data_buf *buf)
{
	char v[64];

	snprintf(v, sizeof(v), "libauxtrace %s", libauxtrace_version());
	return feature__string(buf, v);
}

/* {u32 available (highest present CPU + 1), u32 online}: perf sizes its CPU tables by the first. */
static int feature__nrcpus(struct perf_data_buf *buf)
{
	char path[4096], list[4096];
	struct perf_cpu_map *present;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int avail;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/present", libauxtrace__sysfs_root());
	if (libauxtrace__read_file(path, list, sizeof(list)) < 0 || online < 1)
		return -ENOENT;
	list[strcspn(list, "\n")] = '\0';
	present = perf_cpu_map__new(list);
	if (!present)
		return -ENOENT;
	avail = perf_cpu_map__max(present).cpu + 1;
	perf_cpu_map__put(present);
	perf_data_buf__add_u32(buf, (uint32_t)avail);
	perf_data_buf__add_u32(buf, (uint32_t)online);
	return 0;
}

bool perf_data__cpuinfo_value(const char *cpuinfo, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	for (const char *line = cpuinfo; line && *line; line = strchr(line, '\n'), line += !!line) {
		const char *p = line + klen;
		size_t n = 0;

		if (strncmp(line, key, klen))
			continue;
		p += strspn(p, " \t");		/* "model" must not match "model name" */
		if (*p++ != ':')
			continue;
		p += strspn(p, " \t");
		for (; *p && *p != '\n' && n + 1 < size; p++) {
			if (isblank((unsigned char)*p) && (!n || out[n - 1] == ' '))
				continue;
			out[n++] = isblank((unsigned char)*p) ? ' ' : *p;
		}
		while (n && out[n - 1] == ' ')
			n--;
		out[n] = '\0';
		return true;
	}
	return false;
}

int perf_data__cpuid_from_cpuinfo(const char *cpuinfo, char *out, size_t size)
{
	char vendor[64], family[16], model[16], stepping[16];

	if (!perf_data__cpuinfo_value(cpuinfo, "vendor_id", vendor, sizeof(vendor)) ||
	    !perf_data__cpuinfo_value(cpuinfo, "cpu family", family, sizeof(family)) ||
	    !perf_data__cpuinfo_value(cpuinfo, "model", model, sizeof(model)) ||
	    !perf_data__cpuinfo_value(cpuinfo, "stepping", stepping, sizeof(stepping)))
		return -ENOENT;
	snprintf(out, size, "%s,%s,%s,%s", vendor, family, model, stepping);
	return 0;
}

/* The start of /proc/cpuinfo: the first CPU's block holds every key used here. */
static char *cpuinfo__read(void)
{
	size_t size = 16384;
	char *text = malloc(size);

	if (text && libauxtrace__read_file("/proc/cpuinfo", text, size) < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* arm64: MIDR_EL1 of the first CPU that shows it, as perf writes it. */
static int feature__cpuid_midr(char *out, size_t size)
{
	struct perf_cpu_map *online = perf_cpu_map__new_online_cpus();
	unsigned long long midr;
	struct perf_cpu cpu;
	char path[4096];
	int idx, err = -ENOENT;

	perf_cpu_map__for_each_cpu(cpu, idx, online) {
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/regs/identification/midr_el1",
			 libauxtrace__sysfs_root(), cpu.cpu);
		if (libauxtrace__read_u64(path, &midr) == 0) {
			snprintf(out, size, "0x%016llx", midr);
			err = 0;
			break;
		}
	}
	perf_cpu_map__put(online);
	return err;
}

static int feature__cpuinfo(struct perf_data_buf *buf, enum perf_header_feature feat)
{
	static const char *const desc_keys[] = { "model name", "Processor", "cpu model", "cpu" };
	char *cpuinfo = cpuinfo__read();
	char value[256];
	int err = -ENOENT;

	if (!cpuinfo)
		return -ENOENT;
	if (feat == HEADER_CPUID) {
		err = perf_data__cpuid_from_cpuinfo(cpuinfo, value, sizeof(value));
		if (err)
			err = feature__cpuid_midr(value, sizeof(value));
	} else {
		for (size_t i = 0; err && i < ARRAY_SIZE(desc_keys); i++)
			if (perf_data__cpuinfo_value(cpuinfo, desc_keys[i], value, sizeof(value)))
				err = 0;
	}
	free(cpuinfo);
	if (err) {
		pr_debug("perf.data: no %s for this CPU in /proc/cpuinfo or sysfs\n",
			 feat == HEADER_CPUID ? "cpuid" : "description");
		return err;
	}
	return feature__string(buf, value);
}

/* u64 kB, /proc/meminfo's MemTotal. */
static int feature__total_mem(struct perf_data_buf *buf)
{
	char text[4096], value[64];

	if (libauxtrace__read_file("/proc/meminfo", text, sizeof(text)) < 0 ||
	    !perf_data__cpuinfo_value(text, "MemTotal", value, sizeof(value)))
		return -ENOENT;
	perf_data_buf__add_u64(buf, strtoull(value, NULL, 10));
	return 0;
}

/* u32 nr, then nr strings: the caller's argv, or this process's command line. */
static int feature__cmdline(struct perf_data_writer *w, struct perf_data_buf *buf)
{
	char text[8192];
	int n, nr = 0;

	if (w->argv) {
		perf_data_buf__add_u32(buf, (uint32_t)w->argc);
		for (int i = 0; i < w->argc; i++)
			perf_data_buf__add_string(buf, w->argv[i]);
		return 0;
	}
	n = libauxtrace__read_file("/proc/self/cmdline", text, sizeof(text));
	if (n <= 0)
		return -ENOENT;
	for (int i = 0; i < n; i += (int)strlen(text + i) + 1)
		nr++;
	perf_data_buf__add_u32(buf, (uint32_t)nr);
	for (int i = 0; i < n; i += (int)strlen(text + i) + 1)
		perf_data_buf__add_string(buf, text + i);
	return 0;
}

/* u32 nr, u32 attr size, then per evsel: attr, u32 nr_ids, name, ids. */
static int feature__event_desc(struct perf_data_writer *w, struct perf_data_buf *buf)
{
	perf_data_buf__add_u32(buf, (uint32_t)w->nr_attrs);
	perf_data_buf__add_u32(buf, sizeof(struct perf_event_attr));
	for (int i = 0; i < w->nr_attrs; i++) {
		const struct perf_data_attr *a = &w->attrs[i];

		perf_data_buf__add(buf, &a->attr, sizeof(a->attr));
		perf_data_buf__add_u32(buf, (uint32_t)a->nr_ids);
		perf_data_buf__add_string(buf, evsel__name(a->evsel));
		perf_data_buf__add(buf, a->ids, a->nr_ids * sizeof(uint64_t));
	}
	return 0;
}

/* u32 nr, then {u32 type, name}: which PMU each attr.type is. */
static int feature__pmu_mappings(struct perf_data_writer *w, struct perf_data_buf *buf)
{
	struct perf_pmus *pmus = perf_pmus__new(w->sysfs_root);
	struct perf_pmu *pmu;

	if (!pmus) {
		pr_debug("perf.data: no PMUs under %s: no pmu mappings\n",
			 w->sysfs_root ? w->sysfs_root : libauxtrace__sysfs_root());
		return -ENOENT;
	}
	perf_data_buf__add_u32(buf, (uint32_t)perf_pmus__nr(pmus));
	perf_pmus__for_each_pmu(pmus, pmu) {
		perf_data_buf__add_u32(buf, perf_pmu__type(pmu));
		perf_data_buf__add_string(buf, perf_pmu__name(pmu));
	}
	perf_pmus__delete(pmus);
	return 0;
}

static const struct perf_event_attr *perf_data_writer__clockid_attr(struct perf_data_writer *w)
{
	for (int i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].attr.use_clockid)
			return &w->attrs[i].attr;
	return NULL;
}

/*
 * CLOCKID: u64 resolution of the events' clock in ns. CLOCK_DATA: u32 version 1, u32
 * clockid, u64 wall-clock and u64 clockid time of one moment, so perf can print
 * sample times as dates (--clock-data / -F +tod). Events on perf's default clock: the
 * moment the writer's user measured (perf_data_writer_opts.clock_ref_ns), no CLOCKID.
 */
static int feature__clock(struct perf_data_writer *w, enum perf_header_feature feat,
			  struct perf_data_buf *buf)
{
	const struct perf_event_attr *attr = perf_data_writer__clockid_attr(w);
	struct timespec res, tod, ref;

	if (!attr && feat == HEADER_CLOCK_DATA && w->clock_ref_ns) {
		perf_data_buf__add_u32(buf, 1);
		perf_data_buf__add_u32(buf, PERF_CLOCK_DEFAULT_ID);
		perf_data_buf__add_u64(buf, w->wall_ref_ns);
		perf_data_buf__add_u64(buf, w->clock_ref_ns);
		return 0;
	}
	if (!attr)
		return -ENOENT;
	if (feat == HEADER_CLOCKID) {
		if (clock_getres(attr->clockid, &res) < 0)
			return -errno;
		perf_data_buf__add_u64(buf, (uint64_t)res.tv_sec * 1000000000 + res.tv_nsec);
		return 0;
	}
	if (clock_gettime(CLOCK_REALTIME, &tod) < 0 || clock_gettime(attr->clockid, &ref) < 0)
		return -errno;
	perf_data_buf__add_u32(buf, 1);
	perf_data_buf__add_u32(buf, (uint32_t)attr->clockid);
	perf_data_buf__add_u64(buf, (uint64_t)tod.tv_sec * 1000000000 + tod.tv_nsec);
	perf_data_buf__add_u64(buf, (uint64_t)ref.tv_sec * 1000000000 + ref.tv_nsec);
	return 0;
}

const char *perf_data_feature__name(enum perf_header_feature feat)
{
	static const char *const names[HEADER_LAST_FEATURE] = {
		[HEADER_TRACING_DATA] = "tracing_data", [HEADER_BUILD_ID] = "build_id",
		[HEADER_HOSTNAME] = "hostname", [HEADER_OSRELEASE] = "osrelease",
		[HEADER_VERSION] = "version", [HEADER_ARCH] = "arch",
		[HEADER_NRCPUS] = "nrcpus", [HEADER_CPUDESC] = "cpudesc",
		[HEADER_CPUID] = "cpuid", [HEADER_TOTAL_MEM] = "total_mem",
		[HEADER_CMDLINE] = "cmdline", [HEADER_EVENT_DESC] = "event_desc",
		[HEADER_PMU_MAPPINGS] = "pmu_mappings", [HEADER_AUXTRACE] = "auxtrace",
		[HEADER_CLOCKID] = "clockid", [HEADER_CLOCK_DATA] = "clock_data",
		[HEADER_COMPRESSED] = "compressed",
	};

	return feat < HEADER_LAST_FEATURE && names[feat] ? names[feat] : "(another)";
}

int perf_data_feature__build(struct perf_data_writer *w, enum perf_header_feature feat,
			     struct perf_data_buf *buf)
{
	int err;

	switch (feat) {
	case HEADER_TRACING_DATA:
		/* in a pipe it went out as a record of its own, before the samples */
		if (w->pipe || !w->tracing_data)
			return -ENOENT;
		perf_data_buf__add(buf, w->tracing_data, w->tracing_data_size);
		err = 0;
		break;
	case HEADER_BUILD_ID:
		err = w->pipe || w->no_build_ids ? -ENOENT : perf_data_build_ids__build(w, buf);
		break;
	case HEADER_HOSTNAME:
	case HEADER_OSRELEASE:
	case HEADER_ARCH:
		err = feature__uname(buf, feat);
		break;
	case HEADER_VERSION:
		err = feature__version(buf);
		break;
	case HEADER_NRCPUS:
		err = feature__nrcpus(buf);
		break;
	case HEADER_CPUDESC:
	case HEADER_CPUID:
		err = feature__cpuinfo(buf, feat);
		break;
	case HEADER_TOTAL_MEM:
		err = feature__total_mem(buf);
		break;
	case HEADER_CMDLINE:
		err = feature__cmdline(w, buf);
		break;
	case HEADER_EVENT_DESC:
		err = feature__event_desc(w, buf);
		break;
	case HEADER_PMU_MAPPINGS:
		err = feature__pmu_mappings(w, buf);
		break;
	case HEADER_CLOCKID:
	case HEADER_CLOCK_DATA:
		err = feature__clock(w, feat, buf);
		break;
	case HEADER_COMPRESSED:
		err = perf_data_compressor__feature(w->compressor, buf);
		break;
	default:
		return -ENOENT;
	}
	return err ? err : buf->err;
}
