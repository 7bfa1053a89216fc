/* SPDX-License-Identifier: LGPL-2.1 */
/* Helpers for suites that open perf events. (Log capture: tests/log-capture.h.) */
#ifndef TESTLIB_PERF_TESTLIB_H
#define TESTLIB_PERF_TESTLIB_H

/* The id of tracepoint system:event from tracefs, or -1 when tracefs or the event is missing. */
long testlib_tracepoint_id(const char *system, const char *event);

#endif
