// SPDX-License-Identifier: LGPL-2.1
/*
 * Samples whose values cannot be true given the file they are in: a CPU at or beyond the
 * CPUs its header names (HEADER_NRCPUS), a pid or tid at or beyond the kernel's limit
 * (PID_MAX_LIMIT), a time outside the span of the recording's samples (HEADER_SAMPLE_TIME,
 * when the writer gave it). Every field parses, so nothing else would notice: a flipped byte
 * becomes a "CPU 1056964608" row. Such a sample is damage: counted, logged once with its
 * offset, and not delivered.
 */
#include <inttypes.h>
#include <stdio.h>

#include <internal/lib.h>
#include <internal/session.h>

/* The kernel's ceiling for pid_max (include/linux/threads.h on 64-bit): 4 Mi. */
#define PID_MAX_LIMIT	(4u * 1024 * 1024)

/* "-1: none" is what the parser leaves in a field the sample type does not carry. */
static bool pid__impossible(uint32_t pid)
{
	return pid != (uint32_t)-1 && pid >= PID_MAX_LIMIT;
}

/* What is impossible about the sample, written into why; false if nothing is. */
static bool perf_sample__impossible(const struct perf_env *env, const struct perf_sample *sample,
				    char *why, size_t size)
{
	if (sample->cpu != (uint32_t)-1 && env->nr_cpus_avail && sample->cpu >= env->nr_cpus_avail) {
		snprintf(why, size, "CPU %" PRIu32 ", beyond the %" PRIu32 " CPUs of its header",
			 sample->cpu, env->nr_cpus_avail);
		return true;
	}
	if (pid__impossible(sample->pid) || pid__impossible(sample->tid)) {
		snprintf(why, size, "pid/tid %" PRIu32 "/%" PRIu32 ", beyond the kernel's limit of %u",
			 sample->pid, sample->tid, PID_MAX_LIMIT);
		return true;
	}
	if (sample->time != (uint64_t)-1 && env->last_sample_time &&
	    (sample->time < env->first_sample_time || sample->time > env->last_sample_time)) {
		snprintf(why, size, "time %" PRIu64 ", outside the samples' span [%" PRIu64 ", %"
			 PRIu64 "] of its header", sample->time, env->first_sample_time,
			 env->last_sample_time);
		return true;
	}
	return false;
}

bool perf_session__sample_damaged(struct perf_session *s, const struct perf_sample *sample,
				  uint64_t offset)
{
	char why[160];

	if (!perf_sample__impossible(&s->env, sample, why, sizeof(why)))
		return false;
	if (!s->stats.nr_damaged_samples++)
		pr_warn("%s: the sample at 0x%" PRIx64 " has %s: the file is damaged there; the "
			"sample is left out (and any more such, counted in nr_damaged_samples)\n",
			s->path, offset, why);
	return true;
}
