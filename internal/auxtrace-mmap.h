/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The system calls behind the AUX area, as one replaceable table: the kernel's by default,
 * a simulated kernel in tests (tests/lib/aux-producer.c). The library's code path is the
 * same either way; only these calls change. (Re-enabling an event the driver stopped is
 * the backend's read_finish, through the evsel's ioctls; no ioctl is issued here.)
 */
#ifndef AUXTRACE_INTERNAL_AUXTRACE_MMAP_H
#define AUXTRACE_INTERNAL_AUXTRACE_MMAP_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <auxtrace/auxtrace.h>

struct auxtrace_mmap_ops {
	/*
	 * mmap(NULL, len, prot, MAP_SHARED, fd, offset): MAP_FAILED with errno on failure.
	 * userpg is the control page the kernel finds through fd; a simulated kernel is told.
	 */
	void *(*mmap)(void *ctx, struct perf_event_mmap_page *userpg, size_t len, int prot,
		      int fd, off_t offset);
	int (*munmap)(void *ctx, void *addr, size_t len);	/* 0, or -1 with errno */
	void *ctx;
};

/* The real system calls. */
extern const struct auxtrace_mmap_ops auxtrace_mmap_ops__kernel;

/* ops stays borrowed; NULL restores the kernel's. Set before mapping. */
void auxtrace_mmap__set_ops(struct auxtrace_mmap *mm, const struct auxtrace_mmap_ops *ops);
struct auxtrace_mmaps;
void auxtrace_mmaps__set_ops(struct auxtrace_mmaps *aux, const struct auxtrace_mmap_ops *ops);

#endif
