// SPDX-License-Identifier: LGPL-2.1
/* auxrec script's selection (script-filter.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/cpumap.h>
#include "script-filter.h"

int script_filter__parse_cpus(struct script_filter *f, const char *str)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new(str);

	if (!cpus)
		return -errno;
	perf_cpu_map__put(f->cpus);
	f->cpus = cpus;
	return 0;
}

static int int__cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* "1,42,7": sorted, for bsearch; a list given twice is the union, as perf's intlist. */
static int int_list__parse(int **list, size_t *nr, const char *str)
{
	const char *p = str;

	if (!*str)
		return -EINVAL;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		int *grown;

		if (end == p || v < INT_MIN || v > INT_MAX || (*end && *end != ','))
			return -EINVAL;
		grown = reallocarray(*list, *nr + 1, sizeof(**list));
		if (!grown)
			return -ENOMEM;
		*list = grown;
		(*list)[(*nr)++] = (int)v;
		p = *end ? end + 1 : end;
	}
	qsort(*list, *nr, sizeof(**list), int__cmp);
	return 0;
}

int script_filter__parse_pids(struct script_filter *f, const char *str)
{
	return int_list__parse(&f->pids, &f->nr_pids, str);
}

int script_filter__parse_tids(struct script_filter *f, const char *str)
{
	return int_list__parse(&f->tids, &f->nr_tids, str);
}

int script_filter__parse_comms(struct script_filter *f, const char *str)
{
	const char *p = str;

	while (*p) {
		size_t len = strcspn(p, ",");
		char **grown = reallocarray(f->comms, f->nr_comms + 1, sizeof(*f->comms));

		if (!grown)
			return -ENOMEM;
		f->comms = grown;
		if (len) {
			f->comms[f->nr_comms] = strndup(p, len);
			if (!f->comms[f->nr_comms++])
				return -ENOMEM;
		}
		p += len + (p[len] == ',');
	}
	return f->nr_comms ? 0 : -EINVAL;
}

/* "123.456" seconds into ns, in [s, end); up to 9 decimals, as perf takes them. */
static int time__parse(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (s == end || *s == '.')
		return -EINVAL;
	for (; s < end && *s != '.'; s++) {
		if (*s < '0' || *s > '9' || sec > UINT64_MAX / 10 / 1000000000)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (s < end)
		s++;	/* the point */
	for (; s < end; s++, digits++) {
		if (*s < '0' || *s > '9' || digits == 9)
			return -EINVAL;
		frac = frac * 10 + (uint64_t)(*s - '0');
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}

int script_filter__parse_time(struct script_filter *f, const char *str)
{
	const char *comma = strchr(str, ','), *end = str + strlen(str);
	uint64_t start = 0, stop = UINT64_MAX;

	if (!comma)
		return -EINVAL;
	if (comma > str && time__parse(str, comma, &start))
		return -EINVAL;
	if (comma + 1 < end && time__parse(comma + 1, end, &stop))
		return -EINVAL;
	if (start > stop)
		return -EINVAL;
	f->time_start = start;
	f->time_end = stop;
	return 0;
}

static bool int_list__has(const int *list, size_t nr, int v)
{
	return bsearch(&v, list, nr, sizeof(*list), int__cmp) != NULL;
}

bool script_filter__match_cpu(const struct script_filter *f, int cpu)
{
	return !f->cpus || perf_cpu_map__has(f->cpus, (struct perf_cpu){ cpu });
}

bool script_filter__match_span(const struct script_filter *f, int cpu, uint64_t time)
{
	return time >= f->time_start && time <= f->time_end && script_filter__match_cpu(f, cpu);
}

bool script_filter__match(const struct script_filter *f, int cpu, pid_t pid, pid_t tid,
			  const char *comm, uint64_t time)
{
	if (!script_filter__match_span(f, cpu, time))
		return false;
	if (f->pids && !int_list__has(f->pids, f->nr_pids, pid))
		return false;
	if (f->tids && !int_list__has(f->tids, f->nr_tids, tid))
		return false;
	if (f->comms) {
		size_t i;

		for (i = 0; i < f->nr_comms && strcmp(f->comms[i], comm ?: ""); i++)
			;
		if (i == f->nr_comms)
			return false;
	}
	return true;
}

void script_filter__exit(struct script_filter *f)
{
	perf_cpu_map__put(f->cpus);
	free(f->pids);
	free(f->tids);
	for (size_t i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	*f = (struct script_filter)SCRIPT_FILTER_INIT;
}
