/* SPDX-License-Identifier: LGPL-2.1 */
/* Helpers for suites that open perf events: tracepoint ids, and the library's log. */
#ifndef TESTLIB_PERF_TESTLIB_H
#define TESTLIB_PERF_TESTLIB_H

/* The id of tracepoint system:event from tracefs, or -1 when tracefs or the event is missing. */
long testlib_tracepoint_id(const char *system, const char *event);

/* From now on the library's messages (every level) collect in one buffer; it starts empty. */
void testlib_log_capture(void);
/* What was captured since the last testlib_log_capture(). */
const char *testlib_log(void);
/* How many whole lines of the captured log are exactly the formatted line. */
int testlib_log_count(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
