/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Tracepoints by pattern, as perf -e 'sched:*' and trace-cmd -e sched take them, read off a
 * tracefs events directory; and the closest names when nothing matches.
 */
#ifndef AUXTRACE_TRACEPOINTS_H
#define AUXTRACE_TRACEPOINTS_H

#include <stddef.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * tracepoints__for_each() calls cb (if not NULL) with each tracepoint of tracefs_root (NULL:
 * where tracefs is mounted; an instance's directory works too) whose system matches system
 * and whose name matches event, in sorted order: shell globs (fnmatch: *, ?, [...]);
 * when the globs match nothing, the same strings as POSIX basic regular expressions,
 * anchored, ignoring case (libtracefs' rule, so "sys_enter_.*" still means what it did).
 * A negative return of cb stops the walk and is returned. Returns how many matched (0:
 * none), or -errno: EINVAL (a NULL pattern), the tracefs directory's error, ENOMEM.
 */
AUXTRACE_API int tracepoints__for_each(const char *tracefs_root, const char *system,
				       const char *event,
				       int (*cb)(const char *system, const char *event, void *ctx),
				       void *ctx);

/*
 * tracepoints__closest() writes into buf (size bytes, "" when none) up to three tracepoints
 * of tracefs_root closest by edit distance to system:event (glob characters ignored), as
 * "sys:event, sys:event"; when event is only wildcards ("*"), the closest systems, as
 * "sys:*". For a message when nothing matched. Returns how many were written, or -errno as
 * tracepoints__for_each().
 */
AUXTRACE_API int tracepoints__closest(const char *tracefs_root, const char *system,
				      const char *event, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
