// SPDX-License-Identifier: LGPL-2.1
/*
 * A program written for libtracefs' ring-buffer mapping API, nothing else: it must build
 * against libauxtrace's <tracefs.h> and libtraceevent with only the include path and the link
 * line changed. It maps one CPU buffer of an instance, prints every event there with
 * libtraceevent, flushes what is left, and closes.
 *
 *   tracefs-cpu-map INSTANCE CPU
 *
 * Prints "mapped" or "not mapped" on stderr, then one line per event on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <tracefs.h>

static void print_events(struct tep_handle *tep, struct kbuffer *kbuf, int cpu)
{
	struct tep_record record = { .cpu = cpu };
	unsigned long long ts;
	struct trace_seq seq;

	trace_seq_init(&seq);
	for (record.data = kbuffer_read_event(kbuf, &ts); record.data;
	     record.data = kbuffer_next_event(kbuf, &ts)) {
		record.ts = ts;
		record.size = kbuffer_event_size(kbuf);
		trace_seq_reset(&seq);
		tep_print_event(tep, &seq, &record, "%6.1000d [%03d] %s-%d %s: %s\n",
				TEP_PRINT_TIME, TEP_PRINT_CPU, TEP_PRINT_COMM, TEP_PRINT_PID,
				TEP_PRINT_NAME, TEP_PRINT_INFO);
		trace_seq_do_printf(&seq);
	}
	trace_seq_destroy(&seq);
}

int main(int argc, char **argv)
{
	struct tracefs_instance *instance;
	struct tracefs_cpu *tcpu;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	bool mapped;
	int cpu;

	if (argc != 3) {
		fprintf(stderr, "usage: %s INSTANCE CPU\n", argv[0]);
		return 2;
	}
	cpu = atoi(argv[2]);
	instance = tracefs_instance_create(argv[1]);
	if (!instance) {
		perror("tracefs_instance_create");
		return 1;
	}
	tep = tracefs_local_events(NULL);
	if (!tep) {
		perror("tracefs_local_events");
		return 1;
	}
	tracefs_load_cmdlines(NULL, tep);

	tcpu = tracefs_cpu_open_mapped(instance, cpu, true);
	if (!tcpu) {
		perror("tracefs_cpu_open_mapped");
		return 1;
	}
	mapped = tracefs_cpu_is_mapped(tcpu);
	fprintf(stderr, "%s\n", mapped ? "mapped" : "not mapped");

	for (;;) {
		kbuf = mapped ? tracefs_cpu_read_buf(tcpu, true)
			      : tracefs_cpu_buffered_read_buf(tcpu, true);
		if (!kbuf)
			break;
		print_events(tep, kbuf, cpu);
	}
	while ((kbuf = tracefs_cpu_flush_buf(tcpu)))
		print_events(tep, kbuf, cpu);

	tracefs_cpu_close(tcpu);
	tracefs_instance_free(instance);
	tep_free(tep);
	return 0;
}
