// SPDX-License-Identifier: LGPL-2.1
/*
 * One live ftrace consumer loop written against the libtracefs API only, built twice by the
 * Makefile: against libauxtrace-tracefs (tracefs-loop-ours) and against the system's
 * libtracefs (tracefs-loop-sys). The two libraries export the same tracefs_* names, so they
 * never share a binary; bench-tracefs runs both, round after round, in one run.
 *
 *   tracefs-loop read|splice SECONDS BUFFER_KB PERCENT PROD_CPU CONS_CPU SPLICE_FILE
 *
 * A thread pinned to PROD_CPU calls getppid() for SECONDS with syscalls:sys_enter_getppid
 * enabled in an instance of our own; this thread (pinned to CONS_CPU) reads PROD_CPU's
 * buffer with blocking tracefs_cpu_read() and walks every event with kbuffer, or splices it
 * with tracefs_cpu_write() into SPLICE_FILE (walked after the clock stopped); both end with
 * the flush calls once the producer stopped them. One line on stdout:
 *   events=N cpu_ns=N calls=N lost=N prod_cpu_ns=N elapsed_ns=N
 * (lost: the kernel's overrun + dropped events). Exit 0, or 1 with the reason on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <kbuffer.h>
#include <tracefs.h>

#include "../bpf-getppid.h"
#include "../util.h"

struct loop {
	struct tracefs_instance *inst;
	struct tracefs_cpu *tcpu;
	struct kbuffer *kb;
	int prod_cpu;
	uint64_t events;
};

static int fail(const char *what)
{
	fprintf(stderr, "tracefs-loop: %s: %s\n", what, strerror(errno));
	return 1;
}

static void walk(struct loop *l, void *subbuf)
{
	unsigned long long ts;

	kbuffer_load_subbuffer(l->kb, subbuf);
	for (void *rec = kbuffer_read_event(l->kb, &ts); rec; rec = kbuffer_next_event(l->kb, &ts))
		l->events++;
}

/* The sub-buffers the splice wrote, walked after the clock stopped. */
static int walk_file(struct loop *l, int fd, int size)
{
	struct stat st;
	char *map;

	if (fstat(fd, &st))
		return -1;
	if (!st.st_size)
		return 0;
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	for (off_t off = 0; off + size <= st.st_size; off += size)
		walk(l, map + off);
	munmap(map, st.st_size);
	return 0;
}

/* In the producer thread when its loop ends: no more events, then wake the consumer. */
static void producer_done(void *arg)
{
	struct loop *l = arg;

	tracefs_trace_off(l->inst);
	tracefs_cpu_stop(l->tcpu);
}

/* "overrun: N" + "dropped events: N" of the producer CPU's stats. */
static uint64_t kernel_lost(struct loop *l)
{
	static const char *const keys[] = { "overrun:", "dropped events:" };
	char file[64], *text, *at;
	uint64_t lost = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", l->prod_cpu);
	text = tracefs_instance_file_read(l->inst, file, NULL);
	for (size_t i = 0; text && i < sizeof(keys) / sizeof(keys[0]); i++) {
		at = strstr(text, keys[i]);
		if (at)
			lost += strtoull(at + strlen(keys[i]), NULL, 10);
	}
	free(text);
	return lost;
}

static int setup(struct loop *l, const char *kb, const char *percent)
{
	char name[64], pid[32];

	snprintf(name, sizeof(name), "auxtrace-bench-%d-loop", (int)getpid());
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	l->inst = tracefs_instance_create(name);
	if (!l->inst)
		return fail("creating an instance");
	/* set_event_pid with event-fork: only this process's getppid() calls */
	if (tracefs_trace_off(l->inst) < 0 ||
	    tracefs_instance_file_write(l->inst, "buffer_size_kb", kb) < 0 ||
	    tracefs_instance_file_write(l->inst, "buffer_percent", percent) < 0 ||
	    tracefs_instance_file_write(l->inst, "options/event-fork", "1") < 0 ||
	    tracefs_instance_file_write(l->inst, "set_event_pid", pid) < 0 ||
	    tracefs_event_enable(l->inst, "syscalls", "sys_enter_getppid") < 0)
		return fail("setting up the instance");
	l->tcpu = tracefs_cpu_open(l->inst, l->prod_cpu, false);
	if (!l->tcpu)
		return fail("tracefs_cpu_open");
	l->kb = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			      KBUFFER_ENDIAN_SAME_AS_HOST);
	return l->kb ? 0 : fail("kbuffer_alloc");
}

/* Until the producer stops us, then the flush. Calls made, or -1. */
static long consume(struct loop *l, bool spliced, int out, char *buf)
{
	long calls = 0;
	int n;

	do {
		calls++;
		n = spliced ? tracefs_cpu_write(l->tcpu, out, false)
			    : tracefs_cpu_read(l->tcpu, buf, false);
		if (n > 0 && !spliced)
			walk(l, buf);
	} while (n > 0 || (n < 0 && errno == EINTR));
	do {
		calls++;
		n = spliced ? tracefs_cpu_flush_write(l->tcpu, out) : tracefs_cpu_flush(l->tcpu, buf);
		if (n > 0 && !spliced)
			walk(l, buf);
	} while (n > 0);
	return calls;
}

int main(int argc, char **argv)
{
	struct loop l = { 0 };
	struct bpf_getppid_load load = { .done = producer_done, .ctx = &l };
	uint64_t cpu0, cpu;
	bool spliced;
	long calls;
	char *buf;
	int out, err;

	if (argc != 8 || (strcmp(argv[1], "read") && strcmp(argv[1], "splice"))) {
		fprintf(stderr, "usage: tracefs-loop read|splice SECONDS BUFFER_KB PERCENT "
			"PROD_CPU CONS_CPU SPLICE_FILE\n");
		return 2;
	}
	spliced = !strcmp(argv[1], "splice");
	load.duration_ns = atof(argv[2]) * 1e9;
	load.cpu = l.prod_cpu = atoi(argv[5]);
	if (bench__pin_self(atoi(argv[6])))
		return fail("pinning the consumer");
	out = open(argv[7], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0)
		return fail(argv[7]);
	err = setup(&l, argv[3], argv[4]);
	buf = err ? NULL : malloc(tracefs_cpu_read_size(l.tcpu));
	if (!err && !buf)
		err = fail("malloc");
	if (!err && tracefs_trace_on(l.inst) < 0)
		err = fail("tracing_on");
	if (!err && bpf_getppid_load__start(&load))
		err = fail("starting the producer");
	if (!err) {
		cpu0 = bench__thread_cpu_ns();
		calls = consume(&l, spliced, out, buf);
		cpu = bench__thread_cpu_ns() - cpu0;
		bpf_getppid_load__join(&load);
		if (spliced && walk_file(&l, out, tracefs_cpu_read_size(l.tcpu)))
			err = fail("walking the splice file");
		if (!err)
			printf("events=%llu cpu_ns=%llu calls=%ld lost=%llu prod_cpu_ns=%llu "
			       "elapsed_ns=%llu\n", (unsigned long long)l.events,
			       (unsigned long long)cpu, calls, (unsigned long long)kernel_lost(&l),
			       (unsigned long long)load.cpu_ns, (unsigned long long)load.elapsed_ns);
	}
	tracefs_cpu_close(l.tcpu);
	if (l.kb)
		kbuffer_free(l.kb);
	if (l.inst) {
		tracefs_instance_destroy(l.inst);
		tracefs_instance_free(l.inst);
	}
	free(buf);
	close(out);
	unlink(argv[7]);
	return err ? 1 : 0;
}
