// SPDX-License-Identifier: LGPL-2.1
#include <stdio.h>
#include <stdlib.h>

#include "lib/perf-testlib.h"
#include "lib/testlib.h"

long testlib_tracepoint_id(const char *system, const char *event)
{
	const char *t = testlib_tracefs();
	char path[512], buf[32];
	long id = -1;
	FILE *f;

	if (!t)
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", t, system, event);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		id = strtol(buf, NULL, 10);
	fclose(f);
	return id;
}

struct evsel *testlib_tracepoint_evsel(const char *system, const char *event,
				       uint64_t sample_type, bool backward)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.sample_period = 1,
		.sample_type = sample_type,
		.wakeup_events = 1,
		.disabled = 1,
		.write_backward = backward,
	};
	long id = testlib_tracepoint_id(system, event);

	if (id < 0)
		return NULL;
	attr.config = id;
	return evsel__new(&attr);
}
