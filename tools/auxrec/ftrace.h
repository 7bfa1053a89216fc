/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec's ftrace side: a tracefs instance of its own, one reader per CPU. */
#ifndef AUXREC_FTRACE_H
#define AUXREC_FTRACE_H

#include <stdbool.h>
#include <auxtrace/evlist.h>
#include <auxtrace/ring.h>

struct ftrace_session;

enum ftrace_mode { FTRACE_MAPPED, FTRACE_READ, FTRACE_SPLICE };

/*
 * Create the instance, enable each "system:event", open a reader per CPU of cpus (NULL: every
 * online CPU) in the given mode (mapped falls back to read when the kernel refuses), and add
 * every reader's fd to the evlist's poll set. NULL on error (printed).
 */
struct ftrace_session *ftrace_session__new(char **events, int nr_events, enum ftrace_mode mode,
					   struct perf_cpu_map *cpus, struct evlist *poll_set);
/* Start and stop tracing in the instance. */
int ftrace_session__enable(struct ftrace_session *fs, bool on);
/* Drain every CPU into sink; final: also the sub-buffer the kernel is still writing. */
int ftrace_session__drain(struct ftrace_session *fs, struct ring_sink *sink, bool final);
/* What CPU cpu delivered and lost; false when it has no reader. */
bool ftrace_session__stats(struct ftrace_session *fs, int cpu, struct ring_stats *stats);
/* Which mode the readers ended up in ("mapped", "read", "splice"). */
const char *ftrace_session__mode(const struct ftrace_session *fs);
/* Close the readers, remove the instance (leaves no tracing state behind). */
void ftrace_session__delete(struct ftrace_session *fs);

#endif
