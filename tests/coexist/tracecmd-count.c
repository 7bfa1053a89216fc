// SPDX-License-Identifier: LGPL-2.1
/*
 * libtracecmd's own reader on a trace.dat: tracecmd-count FILE COMM prints how many
 * ftrace:print events, and sys_enter_getppid events after the first of them, of tasks named
 * COMM it reads, whether the
 * markers came in order, and the lost-events marks it was told about. Linked with
 * libtracecmd only (not libauxtrace-tracefs), so it is the system's reader all through.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

struct counts {
	const char *comm;
	struct tep_handle *tep;
	long markers, getppid, disorder, last;
};

static int count(struct tracecmd_input *handle, struct tep_record *record, int cpu, void *ctx)
{
	struct counts *c = ctx;
	int pid = tep_data_pid(c->tep, record);
	const char *comm = tep_data_comm_from_pid(c->tep, pid);
	struct tep_event *event = tep_find_event_by_record(c->tep, record);
	const char *marker;

	(void)handle;
	(void)cpu;
	if (!event || !comm || strcmp(comm, c->comm))
		return 0;
	/* after the markers only: a sanitizer's runtime makes calls of its own at start-up */
	if (!strcmp(event->name, "sys_enter_getppid")) {
		c->getppid += c->markers > 0;
	} else if (!strcmp(event->name, "print")) {
		marker = memmem(record->data, record->size, "auxtrace-marker ", 16);
		if (marker) {
			long i = atol(marker + 16);

			c->disorder += i != c->last + 1;
			c->last = i;
			c->markers++;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct counts c = { .last = -1 };
	struct tracecmd_input *handle;

	if (argc != 3)
		return 2;
	c.comm = argv[2];
	handle = tracecmd_open(argv[1], 0);
	if (!handle) {
		fprintf(stderr, "tracecmd_open %s failed\n", argv[1]);
		return 1;
	}
	c.tep = tracecmd_get_tep(handle);
	if (tracecmd_iterate_events(handle, NULL, 0, count, &c) < 0) {
		fprintf(stderr, "tracecmd_iterate_events failed\n");
		return 1;
	}
	printf("markers %ld getppid %ld disorder %ld\n", c.markers, c.getppid, c.disorder);
	tracecmd_close(handle);
	return 0;
}
