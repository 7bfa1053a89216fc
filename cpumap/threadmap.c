// SPDX-License-Identifier: LGPL-2.1
/* Thread maps: the threads an event is opened on, in the order given, refcounted. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/cpumap.h>
#include <internal/lib.h>
#include "refcount.h"

struct perf_thread_map {
	int refcnt;
	int nr;
	pid_t map[];
};

static struct perf_thread_map *thread_map__alloc(int nr)
{
	struct perf_thread_map *map;

	map = malloc(sizeof(*map) + (size_t)nr * sizeof(map->map[0]));
	if (!map)
		return libauxtrace__ptr_err(ENOMEM);
	map->refcnt = 1;
	map->nr = nr;
	return map;
}

struct perf_thread_map *perf_thread_map__new_array(int nr, const pid_t *tids)
{
	struct perf_thread_map *map;

	if (nr <= 0 || !tids)
		return libauxtrace__ptr_err(EINVAL);
	for (int i = 0; i < nr; i++) {
		if (tids[i] < -1) {
			pr_err("Thread id %d is invalid: use a tid, or -1 for any thread\n", tids[i]);
			return libauxtrace__ptr_err(EINVAL);
		}
	}
	map = thread_map__alloc(nr);
	if (map)
		memcpy(map->map, tids, (size_t)nr * sizeof(map->map[0]));
	return map;
}

struct perf_thread_map *perf_thread_map__new_dummy(void)
{
	pid_t any = -1;

	return perf_thread_map__new_array(1, &any);
}

struct perf_thread_map *perf_thread_map__new_tid(pid_t tid)
{
	return perf_thread_map__new_array(1, &tid);
}

static int pid__cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

struct perf_thread_map *perf_thread_map__new_pid(pid_t pid)
{
	struct perf_thread_map *map = NULL, *bigger;
	char path[64];
	struct dirent *d;
	int cap = 0, nr = 0;
	DIR *dir;

	if (pid <= 0)
		return libauxtrace__ptr_err(EINVAL);
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir) {
		int err = errno == ENOENT ? ESRCH : errno;

		pr_err("Cannot list the threads of process %d (%s): %s\n", pid, path, strerror(err));
		return libauxtrace__ptr_err(err);
	}
	while ((d = readdir(dir))) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);

		if (*end || end == d->d_name || tid <= 0 || tid > INT_MAX)
			continue;	/* "." and ".." */
		if (nr == cap) {
			cap = cap ? cap * 2 : 16;
			bigger = realloc(map, sizeof(*map) + (size_t)cap * sizeof(map->map[0]));
			if (!bigger) {
				closedir(dir);
				free(map);
				return libauxtrace__ptr_err(ENOMEM);
			}
			map = bigger;
		}
		map->map[nr++] = (pid_t)tid;
	}
	closedir(dir);
	if (!nr) {
		/* The process exited between opendir and readdir. */
		free(map);
		return libauxtrace__ptr_err(ESRCH);
	}
	map->refcnt = 1;
	map->nr = nr;
	qsort(map->map, nr, sizeof(map->map[0]), pid__cmp);
	return map;
}

struct perf_thread_map *perf_thread_map__get(struct perf_thread_map *map)
{
	if (map)
		refcount__get(&map->refcnt);
	return map;
}

void perf_thread_map__put(struct perf_thread_map *map)
{
	if (map && refcount__put(&map->refcnt))
		free(map);
}

int perf_thread_map__nr(const struct perf_thread_map *map)
{
	return map ? map->nr : 1;
}

pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->map[idx];
}

int perf_thread_map__idx(const struct perf_thread_map *map, pid_t pid)
{
	for (int i = 0; map && i < map->nr; i++)
		if (map->map[i] == pid)
			return i;
	return -1;
}
