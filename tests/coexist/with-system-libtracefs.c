// SPDX-License-Identifier: LGPL-2.1
/*
 * One program, two libraries: libauxtrace for a perf tracepoint event, and the system's own
 * libtracefs (not libauxtrace-tracefs) for an ftrace instance, both counting the same
 * getppid() calls. It links only if libauxtrace exports no tracefs_* name, and counts right
 * only if each call reaches the library its header belongs to.
 *
 * with-system-libtracefs INSTANCE N: prints "perf N ftrace N" and exits 0 when both saw N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <tracefs.h>			/* the system's: pkg-config libtracefs */
#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>

static int count_event(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	(void)record;
	(void)cpu;
	*(int *)ctx += event != NULL;
	return 0;
}

static int perf_samples(struct evlist *evlist)
{
	union perf_event *event;
	int samples = 0;

	for (int idx = 0; idx < evlist__nr_mmaps(evlist); idx++) {
		struct perf_mmap *map = evlist__mmap_at(evlist, idx);

		if (!map || perf_mmap__read_init(map) < 0)
			continue;
		while ((event = perf_mmap__read_event(map)) != NULL) {
			samples += event->header.type == PERF_RECORD_SAMPLE;
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
	return samples;
}

int main(int argc, char **argv)
{
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct evsel *evsel;
	int n, ftrace = 0, perf;
	char filter[64];

	if (argc != 3)
		return 2;
	n = atoi(argv[2]);
	inst = tracefs_instance_create(argv[1]);
	tep = tracefs_local_events(NULL);
	/* our calls only: other processes make getppid calls too */
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	if (!inst || !tep ||
	    tracefs_event_file_write(inst, "syscalls", "sys_enter_getppid", "filter", filter) < 0 ||
	    tracefs_event_enable(inst, "syscalls", "sys_enter_getppid")) {
		perror("libtracefs");
		return 1;
	}
	if (parse_events(evlist, "syscalls:sys_enter_getppid", NULL, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	evlist__for_each_entry(evlist, evsel) {
		evsel__attr(evsel)->sample_period = 1;
		evsel__attr(evsel)->sample_type = PERF_SAMPLE_TID;
		evsel__attr(evsel)->disabled = 1;
	}
	if (evlist__set_maps(evlist, cpus, threads) < 0 || evlist__open(evlist) < 0 ||
	    evlist__mmap(evlist, 4) < 0) {
		perror("libauxtrace");
		return 1;
	}
	tracefs_trace_on(inst);
	evlist__enable(evlist);
	for (int i = 0; i < n; i++)
		getppid();
	evlist__disable(evlist);
	tracefs_trace_off(inst);

	perf = perf_samples(evlist);
	tracefs_iterate_raw_events(tep, inst, NULL, 0, count_event, &ftrace);
	printf("perf %d ftrace %d\n", perf, ftrace);
	tracefs_event_disable(inst, NULL, NULL);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	tep_free(tep);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	evlist__delete(evlist);
	return perf == n && ftrace == n ? 0 : 1;
}
