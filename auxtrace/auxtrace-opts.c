// SPDX-License-Identifier: LGPL-2.1
/*
 * The recorder options of the AUX area: -m DATA[,AUX] ring sizes and -S[e][SIZE] snapshot
 * mode, plus who counts as privileged for the default sizes.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/auxtrace-opts.h>

#include <internal/auxtrace-backend.h>
#include <internal/lib.h>
#include <internal/opts.h>

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

/* Effective capabilities from /proc/self/status: no libcap needed for two bits. */
static uint64_t auxtrace__cap_effective(void)
{
	char buf[4096], *p;

	if (libauxtrace__read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\nCapEff:");
	return p ? strtoull(p + strlen("\nCapEff:"), NULL, 16) : 0;
}

void auxtrace_opts__init_sz(struct auxtrace_opts *opts, size_t sz)
{
	uint64_t caps = auxtrace__cap_effective();
	struct auxtrace_opts o = {
		.sz = sizeof(o),
		/* perf_event_paranoid -1 lifts the limits for everyone. */
		.privileged = (caps & (1ULL << CAP_SYS_ADMIN_BIT)) ||
			      (caps & (1ULL << CAP_PERFMON_BIT)) ||
			      libauxtrace__perf_paranoid() <= -1,
	};

	/* the caller's sz bytes, no more: an older caller's struct is smaller than o */
	memset(opts, 0, sz);
	if (sz < sizeof(opts->sz))
		return;
	opts->sz = sz;
	libauxtrace__opts_store(opts, &o, sizeof(o));
}

int auxtrace_opts__load(const struct auxtrace_opts *opts, struct auxtrace_opts *o)
{
	if (!opts) {
		pr_err("struct auxtrace_opts: opts is NULL: fill one with auxtrace_opts__init()\n");
		return libauxtrace__err(-EINVAL);
	}
	return opts__copy(auxtrace_opts, o, opts);
}

static int auxtrace__invalid_pages(const char *str, const char *why)
{
	pr_err("Invalid argument for -m/--mmap-pages: '%s' %s; give a page count or a size "
	       "with a B/K/M/G suffix (e.g. 16 or 64K)\n", str, why);
	return libauxtrace__err(-EINVAL);
}

int auxtrace__parse_pages(const char *str, unsigned int *pages)
{
	static const struct { char suffix; unsigned int shift; } units[] = {
		{ 'B', 0 }, { 'K', 10 }, { 'M', 20 }, { 'G', 30 },
	};
	size_t page = libauxtrace__page_size();
	unsigned long long val, count;
	unsigned int rounded;
	char *end;
	size_t i;

	if (!str || *str < '0' || *str > '9')
		return auxtrace__invalid_pages(str ? str : "", "is not a number");
	errno = 0;
	val = strtoull(str, &end, 10);
	if (errno)
		return auxtrace__invalid_pages(str, "is out of range");
	if (!*end) {
		count = val;
	} else {
		for (i = 0; i < ARRAY_SIZE(units); i++) {
			if ((*end == units[i].suffix || *end == units[i].suffix + 'a' - 'A') &&
			    !end[1])
				break;
		}
		if (i == ARRAY_SIZE(units))
			return auxtrace__invalid_pages(str, "has an unknown unit");
		if (val > ULLONG_MAX >> units[i].shift)
			return auxtrace__invalid_pages(str, "is out of range");
		val <<= units[i].shift;
		count = val / page + !!(val % page);
	}
	if (!count)
		return auxtrace__invalid_pages(str, "is zero");
	if (count > UINT_MAX || count > SIZE_MAX / page)
		return auxtrace__invalid_pages(str, "is too large");
	rounded = libauxtrace__roundup_pow2(count);
	if (!rounded)
		return auxtrace__invalid_pages(str, "is too large");
	if (rounded != count)
		/* a warning, so that it is seen: the ring is not the size that was asked for */
		pr_warn("-m %s: %llu pages is not a power of 2, rounding up to %u pages "
			"(%zu KiB)\n", str, count, rounded, (size_t)rounded * (page >> 10));
	*pages = rounded;
	return 0;
}

int auxtrace_opts__parse_mmap_pages(struct auxtrace_opts *opts, const char *str)
{
	const char *comma = str ? strchr(str, ',') : NULL;
	struct auxtrace_opts o;
	unsigned int data, aux;
	char part[64];
	int err = auxtrace_opts__load(opts, &o);

	if (err)
		return err;
	data = o.mmap_pages;
	aux = o.auxtrace_mmap_pages;

	if (!str || !*str || (comma && !comma[1]))
		return auxtrace__invalid_pages(str ? str : "", "names no size");
	if (comma != str) {
		size_t len = comma ? (size_t)(comma - str) : strlen(str);

		if (len >= sizeof(part))
			return auxtrace__invalid_pages(str, "is too long");
		memcpy(part, str, len);
		part[len] = '\0';
		err = auxtrace__parse_pages(part, &data);
	}
	if (!err && comma)
		err = auxtrace__parse_pages(comma + 1, &aux);
	if (err)
		return err;
	o.mmap_pages = data;
	o.auxtrace_mmap_pages = aux;
	libauxtrace__opts_store(opts, &o, sizeof(o));
	return 0;
}

int auxtrace_backend__parse_snapshot_options(struct auxtrace_record *itr,
					     struct auxtrace_opts *opts, const char *str)
{
	unsigned long long size = 0;
	char *end;

	if (str && *str) {
		errno = 0;
		size = strtoull(str, &end, 0);
		if (*str < '0' || *str > '9' || *end || errno || size > SIZE_MAX) {
			pr_err("%s: invalid snapshot size '%s': give a byte count (e.g. -S65536 or "
			       "-Se0x10000), or none for the default\n",
			       auxtrace_itr__pmu_name(itr), str);
			return -EINVAL;
		}
	}
	opts->auxtrace_snapshot_mode = true;
	opts->auxtrace_snapshot_size = (size_t)size;
	return 0;
}

int auxtrace_opts__parse_snapshot(struct auxtrace_record *itr, struct auxtrace_opts *opts,
				  const char *str)
{
	bool on_exit = str && *str == 'e';
	struct auxtrace_opts o;
	int err = auxtrace_opts__load(opts, &o);

	if (err)
		return err;
	if (!itr) {
		pr_err("No AUX area tracing to snapshot: -S needs an AUX event (e.g. -e "
		       "intel_pt//u)\n");
		return libauxtrace__err(-EINVAL);
	}
	if (!itr->parse_snapshot_options) {
		pr_err("%s: this backend has no snapshot mode: record without -S\n",
		       auxtrace_itr__pmu_name(itr) ?: "AUX PMU");
		return libauxtrace__err(-EINVAL);
	}
	err = itr->parse_snapshot_options(itr, &o, on_exit ? str + 1 : str);
	if (err)
		return libauxtrace__err(err);
	o.auxtrace_snapshot_on_exit = on_exit;
	libauxtrace__opts_store(opts, &o, sizeof(o));
	return 0;
}
