// SPDX-License-Identifier: LGPL-2.1
/*
 * perf record's callchain modes as attr bits: what the kernel must put in each sample for
 * perf report to show the stack (a frame-pointer chain, or registers and a stack copy that
 * perf unwinds with libdw, or the LBR call stack).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/callchain.h>
#include <auxtrace/pmu.h>
#include <internal/lib.h>

/* The kernel's limit of a user stack copy: a u16 size, in whole u64s. */
#define CALLCHAIN_MAX_DUMP_SIZE (0xffff & ~7u)

static int callchain__error(char *err, size_t size, int ret, const char *fmt, const char *str)
{
	if (err && size)
		snprintf(err, size, fmt, str);
	return ret;
}

int callchain_param__set_dump_size(struct callchain_param *param, const char *str, char *err,
				   size_t size)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = str ? strtoull(str, &end, 0) : 0;
	if (!str || errno || end == str || *end || !n || n > CALLCHAIN_MAX_DUMP_SIZE ||
	    *str == '-')
		return callchain__error(err, size, -EINVAL, "stack size '%s': give bytes of user "
					"stack to copy per sample, 8 to 65528 (default 8192)",
					str ? str : "");
	param->dump_size = (uint32_t)((n + 7) & ~7ull);
	return 0;
}

int callchain_param__parse(struct callchain_param *param, const char *str, char *err,
			   size_t size)
{
	static const struct { const char *name; enum callchain_mode mode; } modes[] = {
		{ "fp", CALLCHAIN_FP }, { "dwarf", CALLCHAIN_DWARF }, { "lbr", CALLCHAIN_LBR },
		{ "no", CALLCHAIN_NONE },
	};
	const char *comma = str ? strchr(str, ',') : NULL;
	size_t len = comma ? (size_t)(comma - str) : (str ? strlen(str) : 0);

	for (size_t i = 0; str && i < ARRAY_SIZE(modes); i++) {
		if (strlen(modes[i].name) != len || strncmp(str, modes[i].name, len))
			continue;
		param->mode = modes[i].mode;
		param->dump_size = CALLCHAIN_DEFAULT_DUMP_SIZE;
		if (!comma)
			return 0;
		if (param->mode != CALLCHAIN_DWARF)
			return callchain__error(err, size, -EINVAL, "call graph '%s': only dwarf "
						"takes a size (dwarf,SIZE)", str);
		return callchain_param__set_dump_size(param, comma + 1, err, size);
	}
	return callchain__error(err, size, -EINVAL, "call graph '%s': give fp, dwarf[,SIZE], lbr "
				"or no", str ? str : "");
}

uint64_t callchain__user_regs_mask(void)
{
#if defined(__x86_64__)
	/* ax bx cx dx si di bp sp ip flags cs ss, r8-r15; not ds es fs gs (bits 12-15) */
	return 0xffffffull & ~0xf000ull;
#elif defined(__aarch64__)
	return (1ull << 33) - 1;	/* x0-x30, sp, pc */
#else
	return 0;
#endif
}

void callchain_param__config(const struct callchain_param *param, struct perf_event_attr *attr)
{
	attr->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
					 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_BRANCH_STACK);
	attr->sample_regs_user = 0;
	attr->sample_stack_user = 0;
	attr->branch_sample_type = 0;
	attr->exclude_callchain_user = 0;
	if (param->mode == CALLCHAIN_NONE)
		return;
	/* sample_max_stack stays 0, as perf record leaves it: the kernel's own limit */
	attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (param->mode == CALLCHAIN_DWARF) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = callchain__user_regs_mask();
		attr->sample_stack_user = param->dump_size ? param->dump_size :
							     CALLCHAIN_DEFAULT_DUMP_SIZE;
		attr->exclude_callchain_user = 1;
	} else if (param->mode == CALLCHAIN_LBR) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					   PERF_SAMPLE_BRANCH_NO_CYCLES |
					   PERF_SAMPLE_BRANCH_NO_FLAGS |
					   PERF_SAMPLE_BRANCH_HW_INDEX;
	}
}

bool callchain__lbr_supported(const char *sysfs_root)
{
	struct perf_pmu *pmu = perf_pmu__new(sysfs_root, "cpu");
	uint64_t branches = 0;

	if (pmu && perf_pmu__cap_u64(pmu, "branches", 10, &branches))
		branches = 0;
	perf_pmu__delete(pmu);
	return branches > 0;
}
