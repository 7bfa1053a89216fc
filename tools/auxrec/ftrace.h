/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec's ftrace side: a tracefs instance of its own, one reader per CPU. */
#ifndef AUXREC_FTRACE_H
#define AUXREC_FTRACE_H

#include <stdbool.h>
#include <sys/types.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/ring.h>
#include <auxtrace/ring-set.h>
#include <trace-dat.h>

struct ftrace_session;

enum ftrace_mode { FTRACE_MAPPED, FTRACE_READ, FTRACE_SPLICE };

/*
 * Create the instance (on trace clock clock, buffer_kb per CPU, 0: the kernel's default), enable each
 * --ftrace spec (globs, a bare system, regexes as before; ftrace:print: copy the top level's
 * trace_marker writes in), open a reader
 * per CPU of cpus (NULL: every online CPU) in the given mode (mapped falls back to read when
 * the kernel refuses). NULL on error (printed).
 */
struct ftrace_session *ftrace_session__new(char **events, int nr_events, enum ftrace_mode mode,
					   const char *clock, int buffer_kb,
					   struct perf_cpu_map *cpus);
/*
 * Keep only the events of pid's threads (set_event_pid) and of every task they fork from
 * now on (options/event-fork), as trace-cmd -P with -F; sched_switch and sched_wakeup
 * also when they name one of them. 0, or -errno (printed).
 */
int ftrace_session__follow(struct ftrace_session *fs, pid_t pid);
/* The process whose events the instance keeps, 0: every task's. */
pid_t ftrace_session__followed(const struct ftrace_session *fs);
/* Start and stop tracing in the instance. */
int ftrace_session__enable(struct ftrace_session *fs, bool on);
/*
 * Let set drain every CPU's reader, when ready, into sink_of(ctx, cpu) (NULL with errno:
 * an error). 0 or -errno.
 */
int ftrace_session__add_to_ring_set(struct ftrace_session *fs, struct ring_set *set,
				    struct ring_sink *(*sink_of)(void *ctx, int cpu), void *ctx);
/* The instance, for the trace.dat writer. */
struct tracefs_instance *ftrace_session__instance(const struct ftrace_session *fs);
/* Which mode the readers ended up in ("mapped", "read", "splice"). */
const char *ftrace_session__mode(const struct ftrace_session *fs);
/*
 * Whether name is an instance auxrec gives (auxrec-PID, auxrec-PID.N) whose auxrec is gone
 * (killed: it could not remove it). *pid: the PID of the name, 0 when it is none of ours.
 */
bool ftrace_instance__abandoned(const char *name, long *pid);
/* Close the readers, remove the instance (leaves no tracing state behind). */
void ftrace_session__delete(struct ftrace_session *fs);

#endif
