// SPDX-License-Identifier: LGPL-2.1
/*
 * TSC and perf time, with the conversion the kernel publishes in perf_event_mmap_page and
 * perf copies into PERF_RECORD_TIME_CONV:
 *
 *	time = time_zero + (cyc >> shift) * mult + (((cyc & ((1 << shift) - 1)) * mult) >> shift)
 *
 * split so that the product cannot overflow; with cap_user_time_short the counter is only
 * time_mask wide and is first extended from time_cycles.
 */
#include <internal/session.h>

uint64_t perf_time_conv__tsc_to_time(const struct perf_record_time_conv *tc, uint64_t cyc)
{
	uint64_t quot, rem;

	if (!tc->time_mult || tc->time_shift >= 64)
		return 0;
	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> tc->time_shift;
	rem = cyc & ((1ull << tc->time_shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}

uint64_t perf_time_conv__time_to_tsc(const struct perf_record_time_conv *tc, uint64_t ns)
{
	uint64_t t, quot, rem;

	if (!tc->time_mult || tc->time_shift >= 64)
		return 0;
	t = ns - tc->time_zero;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << tc->time_shift) + (rem << tc->time_shift) / tc->time_mult;
}
