// SPDX-License-Identifier: LGPL-2.1
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/testlib.h"
#include "lib/unprivileged.h"

#define NOBODY 65534

static void drop_privileges(uint64_t caps)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (!caps) {
		/* Leaving uid 0 clears every capability set (no SECBIT_KEEP_CAPS). */
		ck_assert_int_eq(setgroups(0, NULL), 0);
		ck_assert_int_eq(setresgid(NOBODY, NOBODY, NOBODY), 0);
		ck_assert_int_eq(setresuid(NOBODY, NOBODY, NOBODY), 0);
	} else {
		data[0].effective = data[0].permitted = (uint32_t)caps;
		data[1].effective = data[1].permitted = (uint32_t)(caps >> 32);
		ck_assert_int_eq(syscall(SYS_capset, &hdr, data), 0);
	}
	/* A uid change makes the process undumpable, which sanitizers' leak checks trip on. */
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 1), 0);
	ck_assert_uint_eq(testlib_self_status("CapEff", 16), caps);
	ck_assert_int_eq(geteuid(), caps ? 0 : NOBODY);
}

void testlib_run_unprivileged(uint64_t caps, void (*fn)(void *ctx), void *ctx)
{
	int status;
	pid_t child;

	fflush(NULL);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		drop_privileges(caps);
		fn(ctx);
		fflush(NULL);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the unprivileged child failed (status %#x)", status);
}

int testlib_perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int val = 2;

	if (f) {
		if (fscanf(f, "%d", &val) != 1)
			val = 2;
		fclose(f);
	}
	return val;
}
