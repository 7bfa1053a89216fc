// SPDX-License-Identifier: LGPL-2.1
/* Records of perf.data and trace.dat into the report's aggregates (report-feed.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/machine.h>
#include <event-parse.h>

#include "report-feed.h"

/* sched_switch's fields, found once in its format. */
struct switch_fields {
	struct tep_event *event;	/* NULL: not looked up yet, or not there */
	struct tep_format_field *prev_comm, *prev_pid, *next_comm, *next_pid;
};

struct report_feed {
	struct report_agg *agg;
	struct perf_machine *machine;
	struct tep_handle *tep;
	struct tep_format_field *common_pid;	/* every event's, at one place */
	pid_t last_tid;				/* named by the last ftrace event: runs repeat */
	struct switch_fields sw;
};

struct report_feed *report_feed__new(struct report_agg *agg, struct tep_handle *tep)
{
	struct report_feed *feed = calloc(1, sizeof(*feed));

	if (!feed)
		return NULL;
	feed->agg = agg;
	feed->tep = tep;
	feed->last_tid = -1;
	feed->machine = perf_machine__new(NULL);
	if (!feed->machine) {
		free(feed);
		return NULL;
	}
	if (tep) {
		struct tep_event *e = tep_find_event_by_name(tep, "sched", "sched_switch");

		if (e) {
			feed->sw = (struct switch_fields){
				.prev_comm = tep_find_field(e, "prev_comm"),
				.prev_pid = tep_find_field(e, "prev_pid"),
				.next_comm = tep_find_field(e, "next_comm"),
				.next_pid = tep_find_field(e, "next_pid"),
			};
			if (feed->sw.prev_comm && feed->sw.prev_pid && feed->sw.next_comm &&
			    feed->sw.next_pid)
				feed->sw.event = e;
		}
	}
	return feed;
}

void report_feed__delete(struct report_feed *feed)
{
	if (!feed)
		return;
	perf_machine__delete(feed->machine);
	free(feed);
}

int report_feed__declare_perf(struct report_feed *feed, struct evlist *evlist)
{
	struct evsel *evsel;
	int err = 0;

	evlist__for_each_entry(evlist, evsel)
		err = err ?: report_agg__declare_event(feed->agg, evsel, NULL, evsel__name(evsel),
						       REPORT_EVENT_PERF);
	return err;
}

int report_feed__declare_ftrace(struct report_feed *feed, const char *const *events, size_t nr)
{
	int err = 0;

	for (size_t i = 0; i < nr && !err && feed->tep; i++) {
		char sys[64];
		const char *colon = strchr(events[i], ':');
		struct tep_event *e;

		if (!colon || (size_t)(colon - events[i]) >= sizeof(sys))
			continue;
		memcpy(sys, events[i], (size_t)(colon - events[i]));
		sys[colon - events[i]] = '\0';
		e = tep_find_event_by_name(feed->tep, sys, colon + 1);
		if (e)
			err = report_agg__declare_event(feed->agg, e, e->system, e->name,
							REPORT_EVENT_FTRACE);
	}
	return err;
}

/*
 * perf's name for tid, NULL while no COMM named it (perf_machine__comm says ":tid"); the idle
 * task, which no COMM names, is "swapper" as perf report calls it.
 */
static const char *report_feed__perf_comm(struct report_feed *feed, uint32_t tid)
{
	const char *comm = tid == (uint32_t)-1 ? NULL : perf_machine__comm(feed->machine,
									    (pid_t)tid);

	if (comm && *comm == ':')
		return tid ? NULL : "swapper";
	return comm;
}

static int cpu_of(const struct perf_sample *s)
{
	return s->cpu == (uint32_t)-1 ? -1 : (int)s->cpu;
}

static pid_t pid_of(uint32_t v)
{
	return v == (uint32_t)-1 ? -1 : (pid_t)v;
}

/* The period perf report weighs a sample by: the sampled one, else the attr's fixed one. */
static uint64_t sample__period(const struct perf_sample *s, struct evsel *evsel)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	uint64_t p = attr->sample_type & PERF_SAMPLE_PERIOD ? s->period
			 : attr->freq ? 1 : attr->sample_period;

	return p ? p : 1;
}

static int report_feed__sample(struct report_feed *feed, const struct perf_sample *s,
			       struct evsel *evsel, uint64_t t)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	const char *comm = report_feed__perf_comm(feed, s->tid);
	struct perf_addr_location al = { .sz = sizeof(al) };
	int err;

	err = report_agg__event(feed->agg, evsel, NULL, evsel__name(evsel), REPORT_EVENT_PERF,
				cpu_of(s), t, pid_of(s->pid), pid_of(s->tid), comm);
	if (!err && attr->type == PERF_TYPE_TRACEPOINT &&
	    !strcmp(evsel__name(evsel), "sched:sched_switch"))
		/* taken as prev switches out: its task is prev; next_pid is in the raw fields */
		err = report_agg__switch(feed->agg, REPORT_SWITCH_PERF_TP, cpu_of(s), t,
					 pid_of(s->tid), comm, -1, NULL);
	if (err || !(attr->sample_type & PERF_SAMPLE_IP))
		return err;
	perf_machine__resolve(feed->machine, pid_of(s->pid), s->ip, &al);
	return report_agg__symbol(feed->agg, evsel, comm ? comm : ":?", al.dso, al.sym, al.kernel,
				  sample__period(s, evsel));
}

int report_feed__perf(struct report_feed *feed, const union perf_event *event,
		      const struct perf_sample *sample, struct evsel *evsel)
{
	uint64_t t = sample->time == (uint64_t)-1 || !sample->time ? UINT64_MAX : sample->time;
	int cpu = cpu_of(sample);
	int err;

	err = report_agg__seen(feed->agg, REPORT_SWITCH_PERF_RECORD, cpu, t);
	err = err ?: report_agg__seen(feed->agg, REPORT_SWITCH_PERF_TP, cpu, t);
	if (err)
		return err;
	if (event->header.type == PERF_RECORD_SAMPLE)
		return evsel ? report_feed__sample(feed, sample, evsel, t) : 0;
	err = perf_machine__process_event(feed->machine, event, sample);
	if (err || (event->header.type != PERF_RECORD_SWITCH &&
		    event->header.type != PERF_RECORD_SWITCH_CPU_WIDE))
		return err;
	if (!(event->header.misc & PERF_RECORD_MISC_SWITCH_OUT))
		return report_agg__switch_in(feed->agg, REPORT_SWITCH_PERF_RECORD, cpu, t,
					     pid_of(sample->tid));
	return report_agg__switch(feed->agg, REPORT_SWITCH_PERF_RECORD, cpu, t,
				  pid_of(sample->tid), report_feed__perf_comm(feed, sample->tid),
				  event->header.type == PERF_RECORD_SWITCH_CPU_WIDE ?
				  pid_of(event->context_switch.next_prev_tid) : -1, NULL);
}

/* A field of a record's payload as a number; -1 when it does not fit in the payload. */
static long long field__num(const struct tep_format_field *f, const struct trace_dat_record *rec)
{
	unsigned long long v;

	if (!f || f->offset + f->size > (int)rec->size ||
	    tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		return -1;
	return (long long)v;
}

/* A char[] field (comm) into buf, NUL-terminated. */
static const char *field__str(const struct tep_format_field *f,
			      const struct trace_dat_record *rec, char *buf, size_t size)
{
	size_t n = f && f->offset + f->size <= (int)rec->size ? (size_t)f->size : 0;

	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(buf, (const char *)rec->data + f->offset, n);
	buf[n] = '\0';
	return buf;
}

static int report_feed__switch(struct report_feed *feed, const struct trace_dat_record *rec)
{
	char prev[32], next[32];

	return report_agg__switch(feed->agg, REPORT_SWITCH_FTRACE, rec->cpu, rec->ts,
				  (pid_t)field__num(feed->sw.prev_pid, rec),
				  field__str(feed->sw.prev_comm, rec, prev, sizeof(prev)),
				  (pid_t)field__num(feed->sw.next_pid, rec),
				  field__str(feed->sw.next_comm, rec, next, sizeof(next)));
}

int report_feed__ftrace(struct report_feed *feed, const struct trace_dat_record *rec)
{
	const char *comm = NULL;
	pid_t tid = -1;
	int err;

	if (rec->kind != TRACE_DAT_EVENT)
		return 0;
	err = report_agg__seen(feed->agg, REPORT_SWITCH_FTRACE, rec->cpu, rec->ts);
	if (err)
		return err;
	if (rec->event && !feed->common_pid)	/* common fields are every event's */
		feed->common_pid = tep_find_common_field(rec->event, "common_pid");
	if (rec->event) {
		tid = (pid_t)field__num(feed->common_pid, rec);
		comm = tid >= 0 && tid != feed->last_tid && feed->tep ?
		       tep_data_comm_from_pid(feed->tep, tid) : NULL;
		feed->last_tid = tid;
		if (comm && *comm == '<')	/* "<...>": trace.dat's cmdlines do not have it */
			comm = NULL;
	}
	err = report_agg__event(feed->agg, rec->event ? (const void *)rec->event : (const void *)feed,
				rec->event ? rec->event->system : NULL,
				rec->event ? rec->event->name : "(no format)", REPORT_EVENT_FTRACE,
				rec->cpu, rec->ts, -1, tid, comm);
	if (!err && rec->event && rec->event == feed->sw.event)
		err = report_feed__switch(feed, rec);
	return err;
}
