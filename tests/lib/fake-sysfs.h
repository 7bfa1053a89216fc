/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Fake sysfs (and tracefs) trees built at run time in a temp dir, so PMU and event-string
 * tests can describe hardware this machine lacks (Intel PT, Arm SPE). Point the library at
 * one with AUXTRACE_SYSFS or an explicit root argument.
 */
#ifndef TESTLIB_FAKE_SYSFS_H
#define TESTLIB_FAKE_SYSFS_H

struct fake_sysfs {
	char root[64];
};

/* An empty tree under /tmp. 0 or -errno. */
int fake_sysfs__create(struct fake_sysfs *fs);
/* Write relpath (parents created) with content; NULL content makes a directory. 0 or -errno. */
int fake_sysfs__write(struct fake_sysfs *fs, const char *relpath, const char *content);
/* Remove the whole tree. */
void fake_sysfs__remove(struct fake_sysfs *fs);

/*
 * The standard machine: CPUs 0-3 online and these PMUs under bus/event_source/devices:
 *   intel_pt  type 8: Intel PT's format terms (pt config:0, cyc 1, mtc 9, tsc 10,
 *             noretcomp 11, ptw 12, branch 13, mtc_period 14-17, cyc_thresh 19-22,
 *             psb_period 24-27, ...), caps (psb_cyc, mtc, mtc_periods, ...),
 *             max_nonturbo_ratio 33, nr_addr_filters 2, no cpumask
 *   intel_bts type 9: type only
 *   arm_spe_0 type 10: SPE format terms over config, config1 and config2, caps/min_interval
 *             1024, cpumask 2-3
 *   cpu_core  type 4: event/umask terms, events/cycles alias, cpus 0-1
 *   uncore_split type 20: event config:0-7,32-35 (a split range), terms in config1..3,
 *             aliases, cpumask 0
 *   software type 1, tracepoint type 2
 * 0 or -errno.
 */
int fake_sysfs__standard(struct fake_sysfs *fs);

/*
 * The standard machine where pmu (intel_pt, intel_bts, ...) has the software PMU's type 1
 * and the software PMU is gone: a cpu-clock event is then that PMU's event, whose real ring
 * can get the AUX test producer as its AUX area. 0 or -errno.
 */
int fake_sysfs__aux_as_software(struct fake_sysfs *fs, const char *pmu);

#endif
