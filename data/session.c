// SPDX-License-Identifier: LGPL-2.1
/* perf_session: what a session says of itself to its users. */
#include <internal/session.h>

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
