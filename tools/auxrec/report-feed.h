/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One record of either file into the report's aggregates (report-agg.h): a perf.data record
 * with its parsed sample, or a trace.dat record. The caller walks the files (the perf_session
 * in time order, the trace.dat cursor, or the merged timeline) and hands each record over;
 * the feed names tasks and resolves sample addresses (a perf_machine that follows the
 * side-band), reads sched_switch's fields, and keeps nothing of a record.
 */
#ifndef AUXREC_REPORT_FEED_H
#define AUXREC_REPORT_FEED_H

#include <auxtrace/session.h>
#include <tracefs/trace-dat-reader.h>

#include "report-agg.h"

struct report_feed;

struct report_sched;

/*
 * Into agg and sched (borrowed; sched NULL: no task lanes to fill); tep: trace.dat's formats
 * (NULL without a trace.dat). NULL: errno.
 */
struct report_feed *report_feed__new(struct report_agg *agg, struct report_sched *sched,
				     struct tep_handle *tep);
void report_feed__delete(struct report_feed *feed);

/*
 * perf.data's tracing data (HEADER_TRACING_DATA, size bytes; NULL: none): the format of its
 * sched_switch samples' raw fields, so that they name the next task. 0 or -ENOMEM.
 */
int report_feed__perf_formats(struct report_feed *feed, const void *data, size_t size);
/* Every event a file records, records or not: evsels of perf.data, trace.dat's events. */
int report_feed__declare_perf(struct report_feed *feed, struct evlist *evlist);
int report_feed__declare_ftrace(struct report_feed *feed, const char *const *events, size_t nr);

/* A perf.data kernel record (a sample or side-band) with its sample fields. 0 or -errno. */
int report_feed__perf(struct report_feed *feed, const union perf_event *event,
		      const struct perf_sample *sample, struct evsel *evsel);
/* A trace.dat event (losses are not the feed's). 0 or -errno. */
int report_feed__ftrace(struct report_feed *feed, const struct trace_dat_record *rec);

#endif
