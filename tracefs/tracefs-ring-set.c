// SPDX-License-Identifier: LGPL-2.1
/* A tracefs_cpu as a source of a ring set: drained when its trace_pipe_raw is ready. */
#include <internal/lib.h>
#include "tracefs-internal.h"

static ssize_t tcpu_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	return final ? tracefs_cpu_flush_drain(ctx, sink) : tracefs_cpu_drain(ctx, sink);
}

static ssize_t tcpu_source__buffered_drain(void *ctx, struct ring_sink *sink, bool final)
{
	return final ? tracefs_cpu_flush_drain(ctx, sink) : tracefs_cpu_buffered_drain(ctx, sink);
}

static const struct ring_stats *tcpu_source__stats(void *ctx)
{
	return tracefs_cpu_stats(ctx);
}

static const struct ring_source_ops tcpu_source_ops = {
	.drain = tcpu_source__drain,
	.stats = tcpu_source__stats,
};

static const struct ring_source_ops tcpu_source_buffered_ops = {
	.drain = tcpu_source__buffered_drain,
	.stats = tcpu_source__stats,
};

int tracefs_cpu_add_to_ring_set(struct tracefs_cpu *tcpu, struct ring_set *set, bool buffered,
				struct ring_sink *sink)
{
	if (!tcpu || !set || !sink)
		return libauxtrace__err(-EINVAL);
	return ring_set__add_source(set, tcpu->fd, tcpu->cpu, RING_SOURCE_FTRACE,
				    buffered && !tcpu->map ? &tcpu_source_buffered_ops
							   : &tcpu_source_ops,
				    tcpu, sink);
}
