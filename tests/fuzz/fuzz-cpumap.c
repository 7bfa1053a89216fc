// SPDX-License-Identifier: LGPL-2.1
/*
 * CPU lists (perf_cpu_map__new, what -C passes): any string is refused with EINVAL or gives
 * a sorted map without duplicates below the CPU limit, whose printed form parses back to
 * the same map.
 */
#include <errno.h>
#include <auxtrace/cpumap.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *list = fuzz__string(data, size), *printed;
	struct perf_cpu_map *map, *again;
	size_t len;

	if (!list)
		return 0;
	fuzz__log_quietly();
	errno = 0;
	map = perf_cpu_map__new(list);
	if (!map) {
		fuzz__check(errno == EINVAL);
		free(list);
		return 0;
	}
	fuzz__check(perf_cpu_map__nr(map) >= 1 && perf_cpu_map__nr(map) <= 32767);
	for (int i = 1; i < perf_cpu_map__nr(map); i++)
		fuzz__check(perf_cpu_map__cpu(map, i - 1).cpu < perf_cpu_map__cpu(map, i).cpu);
	fuzz__check(perf_cpu_map__max(map).cpu < 32767);

	len = perf_cpu_map__snprint(map, NULL, 0);
	printed = malloc(len + 1);
	fuzz__check(printed && perf_cpu_map__snprint(map, printed, len + 1) == len);
	fuzz__check(strlen(printed) == len);
	/* "" prints as "-1", which is no list: the any-CPU map has its own spelling. */
	if (!perf_cpu_map__has_any_cpu(map)) {
		again = perf_cpu_map__new(printed);
		fuzz__check(again && perf_cpu_map__equal(map, again));
		perf_cpu_map__put(again);
	}
	free(printed);
	perf_cpu_map__put(map);
	free(list);
	return 0;
}
