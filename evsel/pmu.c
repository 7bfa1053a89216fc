// SPDX-License-Identifier: LGPL-2.1
/*
 * PMUs from sysfs. What the event parser needs on every lookup (type, formats, aliases,
 * cpumask) is read once when the PMU is created; rarely used files (caps) are read on
 * demand, so a PMU costs a handful of small reads.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <auxtrace/pmu.h>
#include <internal/lib.h>

/* A format term or an event alias: a name and what it stands for. */
struct pmu_format {
	char *name;
	struct perf_pmu_format format;
};

struct pmu_alias {
	char *name;
	char *terms;
};

struct perf_pmu {
	char *name;
	char *dir;			/* <root>/bus/event_source/devices/<name> */
	uint32_t type;
	unsigned int nr_addr_filters;
	struct perf_cpu_map *cpus;
	struct pmu_format *formats;	/* sorted by name */
	int nr_formats;
	struct pmu_alias *aliases;	/* sorted by name */
	int nr_aliases;
	const struct perf_pmus *pmus;	/* the list holding it, for __scan */
	int idx;
};

struct perf_pmus {
	struct perf_pmu **pmu;		/* sorted by name */
	int nr;
};

#define PMU_FILE_MAX 4096

static const char *pmu__devices_dir(const char *sysfs_root, char *buf, size_t size)
{
	snprintf(buf, size, "%s/bus/event_source/devices",
		 sysfs_root ? sysfs_root : libauxtrace__sysfs_root());
	return buf;
}

int perf_pmu__read(const struct perf_pmu *pmu, const char *file, char *buf, size_t size)
{
	char path[PATH_MAX], *tmp;
	int n;

	if (!size || size > INT_MAX - 2)
		return libauxtrace__err(-EINVAL);
	snprintf(path, sizeof(path), "%s/%s", pmu->dir, file);
	/* Room for two bytes more than fit: "fits once the newline is gone" vs "too long". */
	tmp = malloc(size + 2);
	if (!tmp)
		return libauxtrace__err(-ENOMEM);
	n = libauxtrace__read_file(path, tmp, size + 2);
	if (n > 0 && tmp[n - 1] == '\n')
		tmp[--n] = '\0';
	if (n >= 0 && (size_t)n >= size)
		n = -EOVERFLOW;
	if (n >= 0)
		memcpy(buf, tmp, (size_t)n + 1);
	free(tmp);
	return libauxtrace__err(n);
}

int perf_pmu__read_u64(const struct perf_pmu *pmu, const char *file, int base, uint64_t *val)
{
	char text[64], *end;
	unsigned long long v;
	int n = perf_pmu__read(pmu, file, text, sizeof(text));

	if (n < 0)
		return n;
	errno = 0;
	v = strtoull(text, &end, base);
	/* strtoull alone would take "-1", blanks and an empty string. */
	if (errno || !n || !isxdigit((unsigned char)text[0]) || *end) {
		pr_debug("PMU %s: %s/%s holds \"%s\", not a base-%d number\n", pmu->name,
			 pmu->dir, file, text, base);
		return libauxtrace__err(-EINVAL);
	}
	*val = v;
	return 0;
}

int perf_pmu__cap(const struct perf_pmu *pmu, const char *name, char *buf, size_t size)
{
	char file[NAME_MAX + 8];

	snprintf(file, sizeof(file), "caps/%s", name);
	return perf_pmu__read(pmu, file, buf, size);
}

int perf_pmu__cap_u64(const struct perf_pmu *pmu, const char *name, int base, uint64_t *val)
{
	char file[NAME_MAX + 8];

	snprintf(file, sizeof(file), "caps/%s", name);
	return perf_pmu__read_u64(pmu, file, base, val);
}

/*
 * A format file: "config:0-7,32-35", "config1:0", "config2" up to "config3", a bit or an
 * inclusive range per item, bits 0..63. Returns 0 or -EINVAL.
 */
static int pmu_format__parse(const char *text, struct perf_pmu_format *out)
{
	const char *s = text;
	char *end;

	if (strncmp(s, "config", 6))
		return -EINVAL;
	s += 6;
	out->config = 0;
	if (*s >= '1' && *s <= '3')
		out->config = *s++ - '0';
	if (*s++ != ':')
		return -EINVAL;
	out->bits = 0;
	for (;;) {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		lo = hi = strtoul(s, &end, 10);
		s = end;
		if (*s == '-') {
			if (!isdigit((unsigned char)*++s))
				return -EINVAL;
			hi = strtoul(s, &end, 10);
			s = end;
		}
		if (hi > 63 || lo > hi)
			return -EINVAL;
		/* Bits lo..hi: all ones shifted, careful not to shift by 64. */
		out->bits |= (~0ULL >> (63 - hi)) & (~0ULL << lo);
		if (*s != ',')
			break;
		s++;
	}
	return (*s == '\0' || (*s == '\n' && s[1] == '\0')) ? 0 : -EINVAL;
}

static int format__cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_format *)a)->name, ((const struct pmu_format *)b)->name);
}

static int alias__cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_alias *)a)->name, ((const struct pmu_alias *)b)->name);
}

/*
 * Call fn for every regular entry of <pmu dir>/<sub> (a missing directory has none).
 * Returns 0 or the first error.
 */
static int pmu__for_each_file(struct perf_pmu *pmu, const char *sub,
			      int (*fn)(struct perf_pmu *pmu, const char *name,
					const char *path))
{
	char dir[PATH_MAX], path[PATH_MAX + NAME_MAX + 2];
	struct dirent *d;
	int err = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s", pmu->dir, sub);
	dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		err = fn(pmu, d->d_name, path);
	}
	closedir(dp);
	return err;
}

static int pmu__add_format(struct perf_pmu *pmu, const char *name, const char *path)
{
	struct pmu_format *formats, *f;
	char text[256];
	int n = libauxtrace__read_file(path, text, sizeof(text));

	if (n < 0)
		return n;
	formats = realloc(pmu->formats, (pmu->nr_formats + 1) * sizeof(*formats));
	if (!formats)
		return -ENOMEM;
	pmu->formats = formats;
	f = &formats[pmu->nr_formats];
	if (pmu_format__parse(text, &f->format)) {
		text[strcspn(text, "\n")] = '\0';
		pr_err("PMU %s: format file %s holds \"%s\", not configN:bits such as config:0-7,32-35\n",
		       pmu->name, path, text);
		return -EINVAL;
	}
	f->name = strdup(name);
	if (!f->name)
		return -ENOMEM;
	pmu->nr_formats++;
	return 0;
}

static int pmu__add_alias(struct perf_pmu *pmu, const char *name, const char *path)
{
	static const char *const side_files[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };
	struct pmu_alias *aliases, *a;
	char text[PMU_FILE_MAX];
	const char *dot = strrchr(name, '.');
	int n;

	/* energy-pkg.scale and friends describe an alias, they are not one. */
	for (size_t i = 0; dot && i < ARRAY_SIZE(side_files); i++)
		if (!strcmp(dot, side_files[i]))
			return 0;
	n = libauxtrace__read_file(path, text, sizeof(text));
	if (n < 0)
		return n == -EACCES ? 0 : n;
	text[strcspn(text, "\n")] = '\0';
	aliases = realloc(pmu->aliases, (pmu->nr_aliases + 1) * sizeof(*aliases));
	if (!aliases)
		return -ENOMEM;
	pmu->aliases = aliases;
	a = &aliases[pmu->nr_aliases];
	a->name = strdup(name);
	a->terms = strdup(text);
	if (!a->name || !a->terms) {
		free(a->name);
		free(a->terms);
		return -ENOMEM;
	}
	pmu->nr_aliases++;
	return 0;
}

/* cpumask (uncore, SPE) or cpus (hybrid core PMUs); neither means any CPU. */
static int pmu__load_cpus(struct perf_pmu *pmu)
{
	static const char *const files[] = { "cpumask", "cpus" };
	char text[PMU_FILE_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		int n = perf_pmu__read(pmu, files[i], text, sizeof(text));

		if (n == -ENOENT)
			continue;
		if (n < 0)
			return n;
		if (n == 0) {
			/* No CPU of this kind is online: nothing to pin the events to. */
			pr_debug("PMU %s: empty %s\n", pmu->name, files[i]);
			return 0;
		}
		pmu->cpus = perf_cpu_map__new(text);
		if (!pmu->cpus) {
			pr_err("PMU %s: cannot parse %s/%s (\"%s\")\n", pmu->name, pmu->dir,
			       files[i], text);
			return -errno;
		}
		return 0;
	}
	return 0;
}

static int pmu__load(struct perf_pmu *pmu)
{
	uint64_t val;
	int err;

	err = perf_pmu__read_u64(pmu, "type", 10, &val);
	if (err == -ENOENT)
		return -ENOENT;
	if (err || val > UINT32_MAX) {
		pr_err("PMU %s: %s/type is not a 32-bit number\n", pmu->name, pmu->dir);
		return -EINVAL;
	}
	pmu->type = (uint32_t)val;
	err = perf_pmu__read_u64(pmu, "nr_addr_filters", 10, &val);
	if (err && err != -ENOENT)
		return err;
	pmu->nr_addr_filters = err || val > UINT_MAX ? 0 : (unsigned int)val;
	err = pmu__load_cpus(pmu);
	if (!err)
		err = pmu__for_each_file(pmu, "format", pmu__add_format);
	if (!err)
		err = pmu__for_each_file(pmu, "events", pmu__add_alias);
	if (err)
		return err;
	if (pmu->nr_formats)
		qsort(pmu->formats, pmu->nr_formats, sizeof(pmu->formats[0]), format__cmp);
	if (pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(pmu->aliases[0]), alias__cmp);
	return 0;
}

struct perf_pmu *perf_pmu__new(const char *sysfs_root, const char *name)
{
	char devices[PATH_MAX], dir[PATH_MAX + NAME_MAX + 2];
	struct perf_pmu *pmu;
	struct stat st;
	int err;

	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return libauxtrace__ptr_err(ENOENT);
	snprintf(dir, sizeof(dir), "%s/%s",
		 pmu__devices_dir(sysfs_root, devices, sizeof(devices)), name);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return libauxtrace__ptr_err(ENOENT);
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu)
		return libauxtrace__ptr_err(ENOMEM);
	pmu->idx = -1;
	pmu->name = strdup(name);
	pmu->dir = strdup(dir);
	err = pmu->name && pmu->dir ? pmu__load(pmu) : -ENOMEM;
	if (err) {
		perf_pmu__delete(pmu);
		return libauxtrace__ptr_err(err);
	}
	return pmu;
}

void perf_pmu__delete(struct perf_pmu *pmu)
{
	if (!pmu)
		return;
	for (int i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (int i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
	}
	free(pmu->formats);
	free(pmu->aliases);
	perf_cpu_map__put(pmu->cpus);
	free(pmu->name);
	free(pmu->dir);
	free(pmu);
}

const char *perf_pmu__name(const struct perf_pmu *pmu)
{
	return pmu->name;
}

uint32_t perf_pmu__type(const struct perf_pmu *pmu)
{
	return pmu->type;
}

struct perf_cpu_map *perf_pmu__cpus(const struct perf_pmu *pmu)
{
	return pmu->cpus;
}

unsigned int perf_pmu__nr_addr_filters(const struct perf_pmu *pmu)
{
	return pmu->nr_addr_filters;
}

int perf_pmu__format(const struct perf_pmu *pmu, const char *term, struct perf_pmu_format *out)
{
	struct pmu_format key = { .name = (char *)term }, *f;

	f = pmu->nr_formats ? bsearch(&key, pmu->formats, pmu->nr_formats,
				      sizeof(key), format__cmp) : NULL;
	if (!f)
		return libauxtrace__err(-ENOENT);
	*out = f->format;
	return 0;
}

int perf_pmu__format_first_bit(const struct perf_pmu *pmu, const char *term)
{
	struct perf_pmu_format f;
	int err = perf_pmu__format(pmu, term, &f);

	return err ? err : __builtin_ctzll(f.bits);
}

const char *perf_pmu__format_name(const struct perf_pmu *pmu, int idx)
{
	return idx >= 0 && idx < pmu->nr_formats ? pmu->formats[idx].name : NULL;
}

int perf_pmu__format_width(const struct perf_pmu_format *format)
{
	return __builtin_popcountll(format->bits);
}

int perf_pmu__format_encode(const struct perf_pmu_format *format, uint64_t value,
			    uint64_t *word)
{
	int width = perf_pmu__format_width(format);
	uint64_t out = 0, bits = format->bits;

	if (width < 64 && value >> width)
		return libauxtrace__err(-ERANGE);
	/* Value bit i goes to the i-th lowest set bit of the mask. */
	for (; bits; bits &= bits - 1, value >>= 1)
		if (value & 1)
			out |= bits & -bits;
	*word = (*word & ~format->bits) | out;
	return 0;
}

uint64_t perf_pmu__format_decode(const struct perf_pmu_format *format, uint64_t word)
{
	uint64_t value = 0, bits = format->bits;

	for (int i = 0; bits; bits &= bits - 1, i++)
		if (word & bits & -bits)
			value |= 1ULL << i;
	return value;
}

const char *perf_pmu__alias(const struct perf_pmu *pmu, const char *alias)
{
	struct pmu_alias key = { .name = (char *)alias }, *a;

	a = pmu->nr_aliases ? bsearch(&key, pmu->aliases, pmu->nr_aliases,
				      sizeof(key), alias__cmp) : NULL;
	if (!a)
		return libauxtrace__ptr_err(ENOENT);
	return a->terms;
}

const char *perf_pmu__alias_name(const struct perf_pmu *pmu, int idx)
{
	return idx >= 0 && idx < pmu->nr_aliases ? pmu->aliases[idx].name : NULL;
}

static int pmu__cmp(const void *a, const void *b)
{
	return strcmp((*(struct perf_pmu *const *)a)->name, (*(struct perf_pmu *const *)b)->name);
}

struct perf_pmus *perf_pmus__new(const char *sysfs_root)
{
	char devices[PATH_MAX];
	struct perf_pmus *pmus;
	struct dirent *d;
	DIR *dp;

	dp = opendir(pmu__devices_dir(sysfs_root, devices, sizeof(devices)));
	if (!dp) {
		int err = errno;

		pr_err("Cannot list PMUs in %s: %s (is sysfs mounted?)\n", devices, strerror(err));
		return libauxtrace__ptr_err(err);
	}
	pmus = calloc(1, sizeof(*pmus));
	if (!pmus)
		goto nomem;
	while ((d = readdir(dp))) {
		struct perf_pmu *pmu, **bigger;

		if (d->d_name[0] == '.')
			continue;
		pmu = perf_pmu__new(sysfs_root, d->d_name);
		if (!pmu) {
			if (errno == ENOMEM)
				goto nomem;
			pr_debug("Skipping PMU %s: %s\n", d->d_name, strerror(errno));
			continue;
		}
		bigger = realloc(pmus->pmu, (pmus->nr + 1) * sizeof(*bigger));
		if (!bigger) {
			perf_pmu__delete(pmu);
			goto nomem;
		}
		pmus->pmu = bigger;
		pmus->pmu[pmus->nr++] = pmu;
	}
	closedir(dp);
	if (pmus->nr)
		qsort(pmus->pmu, pmus->nr, sizeof(pmus->pmu[0]), pmu__cmp);
	for (int i = 0; i < pmus->nr; i++) {
		pmus->pmu[i]->pmus = pmus;
		pmus->pmu[i]->idx = i;
	}
	return pmus;
nomem:
	closedir(dp);
	perf_pmus__delete(pmus);
	return libauxtrace__ptr_err(ENOMEM);
}

void perf_pmus__delete(struct perf_pmus *pmus)
{
	if (!pmus)
		return;
	for (int i = 0; i < pmus->nr; i++)
		perf_pmu__delete(pmus->pmu[i]);
	free(pmus->pmu);
	free(pmus);
}

int perf_pmus__nr(const struct perf_pmus *pmus)
{
	return pmus->nr;
}

struct perf_pmu *perf_pmus__at(const struct perf_pmus *pmus, int idx)
{
	return idx >= 0 && idx < pmus->nr ? pmus->pmu[idx] : NULL;
}

struct perf_pmu *perf_pmus__scan(const struct perf_pmus *pmus, const struct perf_pmu *prev)
{
	if (!prev)
		return perf_pmus__at(pmus, 0);
	return prev->pmus == pmus ? perf_pmus__at(pmus, prev->idx + 1) : NULL;
}

struct perf_pmu *perf_pmus__find(const struct perf_pmus *pmus, const char *name)
{
	struct perf_pmu key = { .name = (char *)name }, *keyp = &key, **found;

	found = pmus->nr ? bsearch(&keyp, pmus->pmu, pmus->nr, sizeof(keyp), pmu__cmp) : NULL;
	if (!found)
		return libauxtrace__ptr_err(ENOENT);
	return *found;
}

struct perf_pmu *perf_pmus__find_by_type(const struct perf_pmus *pmus, uint32_t type)
{
	for (int i = 0; i < pmus->nr; i++)
		if (pmus->pmu[i]->type == type)
			return pmus->pmu[i];
	return libauxtrace__ptr_err(ENOENT);
}
