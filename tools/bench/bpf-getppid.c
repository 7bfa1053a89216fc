// SPDX-License-Identifier: LGPL-2.1
/* Linked into every benchmark: the getppid()-driven bpf-output producer. */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-getppid.h"
#include "util.h"

#define TRACEPOINT "syscalls/sys_enter_getppid"

static int fail(char *msg, size_t msglen, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
	return err;
}

int bpf_getppid__unavailable(int err)
{
	return err == -EPERM || err == -EACCES || err == -ENOSYS || err == -ENOENT ||
	       err == -EOPNOTSUPP;
}

/* struct bpf_insn builders: the kernel's filter.h macros are not UAPI. */
static struct bpf_insn insn(__u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src, .off = off,
				  .imm = imm };
}

/*
 * r6 = ctx; if tgid and the caller's tgid differs: return 1; zero payload bytes below the
 * frame pointer; bpf_perf_event_output(ctx, map, BPF_F_CURRENT_CPU, fp - payload, payload);
 * return 0. A tracepoint program's 0 drops the event for every perf event on that tracepoint,
 * machine-wide: right for our own calls (the carrier event has no ring), wrong for other
 * processes, whose getppid samples (tests, perf) must still arrive while the bench runs.
 */
static int build_prog(struct bpf_insn *prog, int map_fd, unsigned int payload, pid_t tgid)
{
	int n = 0, off, skip = -1;

	prog[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	if (tgid) {
		prog[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
		prog[n++] = insn(BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32);
		skip = n;
		prog[n++] = insn(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 0, tgid);
	}
	for (off = -(int)payload; off < 0; off += 8)
		prog[n++] = insn(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, off, 0);
	prog[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_4, BPF_REG_10, 0, 0);
	prog[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_4, 0, 0, -(int)payload);
	prog[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_6, 0, 0);
	prog[n++] = insn(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, BPF_PSEUDO_MAP_FD, 0, map_fd);
	prog[n++] = insn(0, 0, 0, 0, 0);
	/* A 32-bit move zero-extends: flags must be exactly BPF_F_CURRENT_CPU (0xffffffff). */
	prog[n++] = insn(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, (__s32)BPF_F_CURRENT_CPU);
	prog[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_5, 0, 0, (__s32)payload);
	prog[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_perf_event_output);
	prog[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	prog[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	if (skip >= 0) {
		prog[skip].off = n - skip - 1;
		prog[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1);
		prog[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	}
	return n;
}

static int load_prog(struct bpf_getppid *p, pid_t tgid, char *msg, size_t msglen)
{
	struct bpf_insn prog[20 + BPF_GETPPID_MAX_PAYLOAD / 8];
	static char log[8192];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log));
	int n = build_prog(prog, p->map_fd, p->payload, tgid);

	log[0] = 0;
	p->prog_fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "bench_getppid", "GPL", prog, n,
				   &opts);
	if (p->prog_fd < 0)
		return fail(msg, msglen, -errno,
			    "loading the BPF program failed: %s%s%s", strerror(errno),
			    log[0] ? "\nverifier log:\n" : "", log);
	return 0;
}

/* One tracepoint event (any CPU) carries the program: it then runs on every CPU. */
static int attach_prog(struct bpf_getppid *p, char *msg, size_t msglen)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.sample_period = 1,
		.wakeup_events = 1,
	};
	int id = bench__tracepoint_id(TRACEPOINT);
	int err;

	if (id < 0)
		return fail(msg, msglen, id,
			    "tracepoint %s not found: mount tracefs on /sys/kernel/tracing and "
			    "use a kernel with CONFIG_FTRACE_SYSCALLS", TRACEPOINT);
	attr.config = id;
	p->tp_fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (p->tp_fd < 0)
		return fail(msg, msglen, -errno, "perf_event_open(%s): %s (needs root or "
			    "CAP_PERFMON)", TRACEPOINT, strerror(errno));
	if (ioctl(p->tp_fd, PERF_EVENT_IOC_SET_BPF, p->prog_fd) ||
	    ioctl(p->tp_fd, PERF_EVENT_IOC_ENABLE, 0)) {
		err = -errno;
		return fail(msg, msglen, err, "attaching the BPF program to %s: %s", TRACEPOINT,
			    strerror(-err));
	}
	return 0;
}

int bpf_getppid__open(struct bpf_getppid *p, unsigned int payload, pid_t tgid, char *msg,
		      size_t msglen)
{
	int err;

	*p = (struct bpf_getppid){ .map_fd = -1, .prog_fd = -1, .tp_fd = -1, .payload = payload };
	if (!payload || payload % 8 || payload > BPF_GETPPID_MAX_PAYLOAD)
		return fail(msg, msglen, -EINVAL, "payload %u: use a multiple of 8 up to %d",
			    payload, BPF_GETPPID_MAX_PAYLOAD);
	p->nr_slots = libbpf_num_possible_cpus();
	if (p->nr_slots < 0)
		return fail(msg, msglen, p->nr_slots, "cannot read the possible CPUs: %s",
			    strerror(-p->nr_slots));
	p->map_fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "bench_getppid",
				   sizeof(int), sizeof(int), p->nr_slots, NULL);
	if (p->map_fd < 0) {
		err = fail(msg, msglen, -errno, "creating a PERF_EVENT_ARRAY map: %s (needs "
			   "root or CAP_BPF, and a kernel with CONFIG_BPF_SYSCALL)",
			   strerror(errno));
		goto out_close;
	}
	err = load_prog(p, tgid, msg, msglen);
	if (!err)
		err = attach_prog(p, msg, msglen);
out_close:
	if (err)
		bpf_getppid__close(p);
	return err;
}

void bpf_getppid__close(struct bpf_getppid *p)
{
	if (p->tp_fd >= 0)
		close(p->tp_fd);
	if (p->prog_fd >= 0)
		close(p->prog_fd);
	if (p->map_fd >= 0)
		close(p->map_fd);
	p->tp_fd = p->prog_fd = p->map_fd = -1;
}

int bpf_getppid__set_output(struct bpf_getppid *p, int cpu, int fd)
{
	if (fd < 0)
		return bpf_map_delete_elem(p->map_fd, &cpu) && errno != ENOENT ? -errno : 0;
	return bpf_map_update_elem(p->map_fd, &cpu, &fd, BPF_ANY) ? -errno : 0;
}

size_t bpf_getppid__record_size(const struct bpf_getppid *p)
{
	size_t raw = (sizeof(__u32) + p->payload + 7) & ~(size_t)7;

	return sizeof(struct perf_event_header) + raw;
}

void bpf_getppid__output_attr(struct perf_event_attr *attr)
{
	*attr = (struct perf_event_attr){
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.size = sizeof(*attr),
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.wakeup_events = 1,
	};
}

static void *load_thread(void *arg)
{
	struct bpf_getppid_load *load = arg;
	uint64_t cpu = bench__thread_cpu_ns();
	uint64_t start = bench__now_ns(), end = start + load->duration_ns;
	uint64_t calls = 0;

	for (;;) {
		getppid();
		calls++;
		if (load->calls_max && calls >= load->calls_max)
			break;
		/* The clock is a vDSO read; every 64 calls keeps it off the profile. */
		if (load->duration_ns && !(calls & 63) && bench__now_ns() >= end)
			break;
	}
	load->elapsed_ns = bench__now_ns() - start;
	load->cpu_ns = bench__thread_cpu_ns() - cpu;
	load->calls = calls;
	if (load->done)
		load->done(load->ctx);
	return NULL;
}

int bpf_getppid_load__start(struct bpf_getppid_load *load)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	load->calls = load->elapsed_ns = load->cpu_ns = 0;
	pthread_attr_init(&attr);
	if (load->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(load->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	err = pthread_create(&load->thread, &attr, load_thread, load);
	pthread_attr_destroy(&attr);
	return -err;
}

void bpf_getppid_load__join(struct bpf_getppid_load *load)
{
	pthread_join(load->thread, NULL);
}

int bpf_getppid_load__run(struct bpf_getppid_load *load)
{
	int err = bpf_getppid_load__start(load);

	if (!err)
		bpf_getppid_load__join(load);
	return err;
}
