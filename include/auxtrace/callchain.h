/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Callchains as perf record asks the kernel for them: --call-graph fp|dwarf[,SIZE]|lbr and
 * the call-graph= and stack-size= event terms, turned into the perf_event_attr bits perf
 * sets, so that perf report and perf script unwind what was recorded.
 */
#ifndef AUXTRACE_CALLCHAIN_H
#define AUXTRACE_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

enum callchain_mode {
	CALLCHAIN_NONE,		/* "no": no callchain, even under a global one */
	CALLCHAIN_FP,		/* the kernel walks frame pointers: PERF_SAMPLE_CALLCHAIN */
	CALLCHAIN_DWARF,	/* user registers and a copy of the user stack, unwound later */
	CALLCHAIN_LBR,		/* the CPU's last branch record in call-stack mode */
};

/* perf's default copy of the user stack per sample for dwarf, in bytes */
#define CALLCHAIN_DEFAULT_DUMP_SIZE 8192

struct callchain_param {
	enum callchain_mode mode;
	uint32_t dump_size;	/* dwarf: user stack bytes per sample, a multiple of 8 */
};

/*
 * callchain_param__parse() reads perf's --call-graph argument into param: "fp", "dwarf",
 * "dwarf,SIZE" (bytes, rounded up to a multiple of 8, at most 65528; default 8192), "lbr"
 * or "no". Returns 0, or -EINVAL with the reason (naming what is valid) in err (size bytes;
 * err may be NULL).
 */
AUXTRACE_API int callchain_param__parse(struct callchain_param *param, const char *str,
					char *err, size_t size);

/*
 * callchain_param__set_dump_size() reads a stack size (perf's stack-size= term, the SIZE of
 * dwarf,SIZE) into param->dump_size, rounded up to a multiple of 8. Returns 0, or -EINVAL
 * for 0, a non-number or more than 65528 bytes (the reason in err, as above).
 */
AUXTRACE_API int callchain_param__set_dump_size(struct callchain_param *param, const char *str,
						char *err, size_t size);

/*
 * callchain_param__config() sets attr as perf record does for param: fp sets
 * PERF_SAMPLE_CALLCHAIN (sample_max_stack left 0: the kernel's limit); dwarf adds
 * PERF_SAMPLE_REGS_USER with callchain__user_regs_mask(), PERF_SAMPLE_STACK_USER with
 * sample_stack_user = dump_size, and exclude_callchain_user (the user part is unwound from
 * the copy); lbr adds PERF_SAMPLE_BRANCH_STACK with a user call stack (branch_sample_type
 * USER | CALL_STACK | NO_CYCLES | NO_FLAGS | HW_INDEX); none clears all of it.
 */
AUXTRACE_API void callchain_param__config(const struct callchain_param *param,
					  struct perf_event_attr *attr);

/*
 * callchain__user_regs_mask() returns perf's sample_regs_user for dwarf on this
 * architecture (x86-64: the general registers, ip, sp and flags, without the segment
 * registers ds, es, fs, gs: 0xff0fff); 0 where there is none (dwarf cannot be recorded
 * there). Cannot fail.
 */
AUXTRACE_API uint64_t callchain__user_regs_mask(void);

/*
 * callchain__lbr_supported() returns whether the CPU PMU under sysfs_root (NULL: the
 * default, as perf_pmu__new) has a last branch record: its caps/branches is above 0; false
 * too when there is no such PMU or file.
 */
AUXTRACE_API bool callchain__lbr_supported(const char *sysfs_root);

#ifdef __cplusplus
}
#endif
#endif
