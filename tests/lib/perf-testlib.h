/* SPDX-License-Identifier: LGPL-2.1 */
/* Helpers for suites that open perf events. (Log capture: lib/log-capture.h.) */
#ifndef TESTLIB_PERF_TESTLIB_H
#define TESTLIB_PERF_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <auxtrace/evsel.h>

/* The id of tracepoint system:event from tracefs, or -1 when tracefs or the event is missing. */
long testlib_tracepoint_id(const char *system, const char *event);

/*
 * A sampling evsel on tracepoint system:event: every hit a sample of sample_type, a wakeup
 * per sample, disabled until enabled, write_backward as asked. NULL when the kernel lacks
 * the tracepoint.
 */
struct evsel *testlib_tracepoint_evsel(const char *system, const char *event,
				       uint64_t sample_type, bool backward);

#endif
