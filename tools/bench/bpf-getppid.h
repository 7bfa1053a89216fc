/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Linked into every benchmark: a deterministic perf-ring producer (measuring helpers: util.h).
 *
 * The producer: a BPF program on the
 * syscalls:sys_enter_getppid tracepoint that emits one PERF_SAMPLE_RAW record per call into
 * the bpf-output event of the calling CPU (a BPF_MAP_TYPE_PERF_EVENT_ARRAY slot), and a
 * thread pinned to one CPU that calls getppid() in a loop. The program is raw BPF
 * instructions loaded with libbpf: no clang, no BTF, no object file.
 */
#ifndef BENCH_BPF_GETPPID_H
#define BENCH_BPF_GETPPID_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#define BPF_GETPPID_MAX_PAYLOAD 256

struct bpf_getppid {
	int map_fd;		/* PERF_EVENT_ARRAY: slot = CPU, value = bpf-output fd */
	int prog_fd;
	int tp_fd;		/* the tracepoint event that runs the program on every CPU */
	int nr_slots;		/* possible CPUs */
	unsigned int payload;	/* raw bytes per record */
};

/*
 * Create the map, load the program (payload bytes per record: a multiple of 8, at most
 * BPF_GETPPID_MAX_PAYLOAD) and attach it. tgid: emit only for that process's calls, as the
 * initial pid namespace numbers it (0: every process; the tracepoint fires system-wide).
 * 0, or -errno with what failed and how to fix it in msg. -EPERM, -EACCES, -ENOSYS, -ENOENT
 * and -EOPNOTSUPP mean "this machine cannot": see bpf_getppid__unavailable().
 */
int bpf_getppid__open(struct bpf_getppid *p, unsigned int payload, pid_t tgid, char *msg,
		      size_t msglen);
void bpf_getppid__close(struct bpf_getppid *p);
int bpf_getppid__unavailable(int err);

/* Route what the program emits on cpu to a bpf-output event fd (-1: nowhere). 0 or -errno. */
int bpf_getppid__set_output(struct bpf_getppid *p, int cpu, int fd);

/* Bytes one record takes in a perf ring: header, u32 size, payload, padding to 8. */
size_t bpf_getppid__record_size(const struct bpf_getppid *p);

/* The attr of a bpf-output event that the program can write to. */
void bpf_getppid__output_attr(struct perf_event_attr *attr);

/* A thread pinned to cpu that calls getppid() until calls_max calls or duration_ns passed. */
struct bpf_getppid_load {
	int cpu;			/* -1: not pinned */
	uint64_t calls_max;		/* 0: no limit */
	uint64_t duration_ns;		/* 0: no limit */
	void (*done)(void *ctx);	/* run in the thread when the loop ends (wake a consumer) */
	void *ctx;
	/* results */
	uint64_t calls;
	uint64_t elapsed_ns;
	uint64_t cpu_ns;		/* the thread's CPU time: elapsed less preemption */
	pthread_t thread;
};

/* 0 or -errno. */
int bpf_getppid_load__start(struct bpf_getppid_load *load);
void bpf_getppid_load__join(struct bpf_getppid_load *load);
/* Start and join: the caller waits for the whole load. */
int bpf_getppid_load__run(struct bpf_getppid_load *load);

#endif
