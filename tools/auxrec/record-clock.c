// SPDX-License-Identifier: LGPL-2.1
/*
 * Where perf's default clock stands against the wall clock, for perf.data's CLOCK_DATA.
 *
 * perf's default clock (the kernel's local_clock) has no clock_gettime() id, so it cannot be
 * read beside CLOCK_REALTIME as a -k clock is. Instead auxrec makes the kernel stamp a record
 * of its own: with a dummy event counting its own thread's comm changes, it renames itself
 * to its own name (PR_SET_NAME always reports a COMM, changed or not) between two readings of
 * CLOCK_REALTIME. The COMM record's time is the perf clock at a moment between the readings:
 * their middle is the reference, off by at most half their distance (microseconds).
 */
#include <errno.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>

#include "record.h"

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* The COMM record's time in the dummy event's ring, 0 when none came. */
static uint64_t comm_time(struct evlist *evlist)
{
	union perf_event *event;
	uint64_t t = 0;

	for (int idx = 0; idx < evlist__nr_mmaps(evlist); idx++) {
		struct perf_mmap *map = evlist__mmap_at(evlist, idx);

		if (!map || perf_mmap__read_init(map) < 0)
			continue;
		while ((event = perf_mmap__read_event(map)) != NULL) {
			/* sample_id_all with PERF_SAMPLE_TIME alone: the trailer is the time */
			if (event->header.type == PERF_RECORD_COMM &&
			    event->header.size >= sizeof(event->header) + sizeof(uint64_t))
				t = *(const uint64_t *)((const char *)event + event->header.size -
							sizeof(uint64_t));
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
	return t;
}

int record__clock_ref(uint64_t *clock_ns, uint64_t *wall_ns)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *threads = perf_thread_map__new_tid(gettid());
	struct evlist *evlist = evlist__new();
	struct parse_events_error perr;
	struct evsel *evsel;
	char name[17] = "";
	uint64_t before, after;
	int err = -ENOMEM;

	*clock_ns = *wall_ns = 0;
	if (!cpus || !threads || !evlist)
		goto out;
	/* user only: as nobody with perf_event_paranoid 2 that is all a thread may have, and
	 * the COMM record comes all the same */
	err = parse_events(evlist, "dummy:u", NULL, &perr);
	if (err < 0)
		goto out;
	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *attr = evsel__attr(evsel);

		attr->comm = 1;
		attr->sample_id_all = 1;
		attr->sample_type = PERF_SAMPLE_TIME;
		attr->disabled = 0;
	}
	err = evlist__set_maps(evlist, cpus, threads);
	err = err ?: evlist__open(evlist);
	err = err ?: evlist__mmap(evlist, 1);
	if (err < 0 || prctl(PR_GET_NAME, name) < 0)
		goto out;
	before = realtime_ns();
	prctl(PR_SET_NAME, name);
	after = realtime_ns();
	*clock_ns = comm_time(evlist);
	*wall_ns = *clock_ns ? before + (after - before) / 2 : 0;
	err = *clock_ns ? 0 : -ENODATA;
out:
	evlist__delete(evlist);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return err;
}
