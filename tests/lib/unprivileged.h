/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Run part of a test as an ordinary user would run the library: in a forked child that
 * drops its privileges for good, so the test process keeps them.
 */
#ifndef TESTLIB_UNPRIVILEGED_H
#define TESTLIB_UNPRIVILEGED_H

#include <stdint.h>

#define TESTLIB_CAP(cap) (1ULL << (cap))

/*
 * fn(ctx) in a forked child: with caps == 0 as uid and gid nobody (65534) with no groups
 * and no capabilities; otherwise still uid 0 with only caps (TESTLIB_CAP(CAP_...))
 * effective and permitted. The child checks that /proc/self/status says so before fn runs.
 * A ck_assert that fails in fn fails the test (the child exits non-zero). Needs root: the
 * caller skips without it.
 */
void testlib_run_unprivileged(uint64_t caps, void (*fn)(void *ctx), void *ctx);

/* /proc/sys/kernel/perf_event_paranoid (2, the kernel's default, when unreadable). */
int testlib_perf_paranoid(void);

#endif
