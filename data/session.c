// SPDX-License-Identifier: LGPL-2.1
/* perf_session: what a session says of itself to its users. */
#include <sys/mman.h>
#include <unistd.h>

#include <internal/session.h>

/*
 * AUX payloads done with are given back this many bytes at a time, not one by one: each
 * madvise (as each munmap) costs a TLB shootdown on every other CPU the process runs on, a
 * VM exit there, and a decoder on several threads paid one per 64 KiB BTS payload (5% of
 * its CPU). The pages held meanwhile are what the step says.
 */
#define PERF_SESSION_AUX_DONE_STEP (512ull << 10)
/*
 * A fault maps the pages around it too, in an aligned window this large (the kernel's
 * default fault_around_bytes): pages given back inside the window of the next read came
 * back mapped and stayed (auxrec script on bench-decode's BTS file peaked 1.8 MiB higher;
 * with a 4 KiB step, 40 MiB). A give-back ends at such a boundary; the rest waits.
 */
#define PERF_SESSION_FAULT_AROUND (64ull << 10)

void perf_session__give_back(const struct perf_session *s, uint64_t from, uint64_t to)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	from &= ~(page - 1);
	to = to < s->file_size ? to : s->file_size;
	if (s->map && to > from)
		madvise((void *)(s->map + from), to - from, MADV_DONTNEED);
}

void perf_session__aux_done(struct perf_session *s, uint64_t from, uint64_t to)
{
	bool none = s->aux_done_to == s->aux_done_from;
	uint64_t upto;

	/*
	 * A payload far from those waiting (another stretch of the file: a queue decoded at its
	 * thread's exit, a second pass) ends their stretch: they are given back whole, and the
	 * boundary below stays next to where reading goes on.
	 */
	if (!none && (from > s->aux_done_to + PERF_SESSION_AUX_DONE_STEP ||
		      to + PERF_SESSION_AUX_DONE_STEP < s->aux_done_from)) {
		perf_session__give_back(s, s->aux_done_from, s->aux_done_to);
		none = true;
	}
	if (none) {
		s->aux_done_from = from;
		s->aux_done_to = to;
	} else {
		/* the queues' payloads interleave in the file: what lies between is read again
		 * from the page cache if still needed */
		s->aux_done_from = from < s->aux_done_from ? from : s->aux_done_from;
		s->aux_done_to = to > s->aux_done_to ? to : s->aux_done_to;
	}
	if (s->aux_done_to - s->aux_done_from < PERF_SESSION_AUX_DONE_STEP)
		return;
	upto = s->aux_done_to & ~(PERF_SESSION_FAULT_AROUND - 1);
	perf_session__give_back(s, s->aux_done_from, upto);
	s->aux_done_from = upto;
}

bool perf_session__map_offset(const struct perf_session *s, const void *ptr, uint64_t *offset)
{
	const unsigned char *p = ptr;

	if (!s->map || p < s->map || p >= s->map + s->file_size || s->needs_swap)
		return false;
	*offset = p - s->map;
	return true;
}

bool perf_session__is_pipe(const struct perf_session *s)
{
	return s->pipe_format;
}

bool perf_session__is_mapped(const struct perf_session *s)
{
	return s->map != NULL;
}

bool perf_session__needs_swap(const struct perf_session *s)
{
	return s->needs_swap;
}

const struct perf_file_header *perf_session__header(const struct perf_session *s)
{
	return &s->header;
}

uint64_t perf_session__size(const struct perf_session *s)
{
	return s->map ? s->file_size : s->stream.offset + s->stream.len - s->stream.pos;
}

struct evlist *perf_session__evlist(const struct perf_session *s)
{
	return s->evlist;
}

bool perf_session__has_feat(const struct perf_session *s, int feat)
{
	return feat >= 0 && feat < HEADER_FEAT_BITS && s->feat_data[feat];
}

const void *perf_session__feature(const struct perf_session *s, int feat, size_t *size)
{
	if (!perf_session__has_feat(s, feat)) {
		*size = 0;
		return NULL;
	}
	*size = s->feat_sec[feat].size;
	return s->feat_data[feat];
}

const struct perf_env *perf_session__env(const struct perf_session *s)
{
	return &s->env;
}

const struct perf_record_time_conv *perf_session__time_conv(const struct perf_session *s)
{
	return s->has_time_conv ? &s->time_conv : NULL;
}

const struct auxtrace_index *perf_session__auxtrace_index(const struct perf_session *s)
{
	return s->auxtrace_index;
}

struct auxtrace *perf_session__auxtrace(const struct perf_session *s)
{
	return s->auxtrace;
}

const struct perf_session_stats *perf_session__stats(const struct perf_session *s)
{
	return &s->stats;
}
