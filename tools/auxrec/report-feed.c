// SPDX-License-Identifier: LGPL-2.1
/* Records of perf.data and trace.dat into the report's aggregates (report-feed.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/machine.h>
#include <event-parse.h>

#include "report-feed.h"
#include "report-sched.h"
#include "sched-switch.h"

struct report_feed {
	struct report_agg *agg;
	struct report_sched *sched;		/* the page's task lanes, or NULL */
	struct perf_machine *machine;
	struct tep_handle *tep;
	struct tep_handle *perf_tep;		/* perf.data's sched_switch format, or NULL */
	struct switch_fields perf_sw;
	struct tep_format_field *common_pid;	/* every event's, at one place */
	pid_t last_tid;				/* named by the last ftrace event: runs repeat */
	const struct tep_event *last_event;	/* the last ftrace event's, named in last_name */
	char last_name[128];				/* "sys:name" */
	struct switch_fields sw;
};

struct report_feed *report_feed__new(struct report_agg *agg, struct report_sched *sched,
				     struct tep_handle *tep)
{
	struct report_feed *feed = calloc(1, sizeof(*feed));

	if (!feed)
		return NULL;
	feed->agg = agg;
	feed->sched = sched;
	feed->tep = tep;
	feed->last_tid = -1;
	feed->machine = perf_machine__new(NULL);
	if (!feed->machine) {
		free(feed);
		return NULL;
	}
	if (tep)
		switch_fields__find(&feed->sw, tep);
	return feed;
}

void report_feed__delete(struct report_feed *feed)
{
	if (!feed)
		return;
	perf_machine__delete(feed->machine);
	if (feed->perf_tep)
		tep_free(feed->perf_tep);
	free(feed);
}

/* perf.data's sched_switch format names the next task of its samples. */
int report_feed__perf_formats(struct report_feed *feed, const void *data, size_t size)
{
	return switch_fields__perf(&feed->perf_sw, &feed->perf_tep, data, size);
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

/* A record of a switch source seen on cpu at t: by the aggregates and the task lanes. */
static int report_feed__seen(struct report_feed *feed, enum report_switch_src src, int cpu,
			     uint64_t t)
{
	return report_agg__seen(feed->agg, src, cpu, t) ?:
	       (feed->sched ? report_sched__seen(feed->sched, src, cpu, t) : 0);
}

static int report_feed__switch_to(struct report_feed *feed, enum report_switch_src src, int cpu,
				  uint64_t t, pid_t prev_tid, const char *prev_comm,
				  pid_t next_tid, const char *next_comm)
{
	return report_agg__switch(feed->agg, src, cpu, t, prev_tid, prev_comm, next_tid,
				  next_comm) ?:
	       (feed->sched ? report_sched__switch(feed->sched, src, cpu, t, prev_tid, prev_comm,
						   next_tid, next_comm) : 0);
}

/*
 * A tracepoint's fields as trace-cmd prints them, into buf (NULL when the page's lanes keep no
 * fields, or without a format).
 */
static const char *report_feed__fields(struct report_feed *feed, struct tep_handle *tep,
				       struct tep_event *e, const void *data, uint32_t size,
				       char *buf, size_t bufsize)
{
	struct tep_record r = { .data = (void *)data, .size = (int)size };
	struct trace_seq seq;

	if (!feed->sched || !report_sched__wants_fields(feed->sched) || !tep || !e)
		return NULL;
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	snprintf(buf, bufsize, "%s", seq.buffer ? seq.buffer : "");
	trace_seq_destroy(&seq);
	return buf;
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
	bool is_switch = attr->type == PERF_TYPE_TRACEPOINT &&
			 !strcmp(evsel__name(evsel), "sched:sched_switch");
	char fields[REPORT_SCHED_FIELDS_MAX];
	int err;

	err = report_agg__event(feed->agg, evsel, NULL, evsel__name(evsel), REPORT_EVENT_PERF,
				cpu_of(s), t, pid_of(s->pid), pid_of(s->tid), comm);
	/* perf.data carries the format of sched_switch only: other tracepoints show no fields */
	if (!err && feed->sched)
		err = report_sched__event(feed->sched, evsel__name(evsel),
					  attr->type != PERF_TYPE_TRACEPOINT, cpu_of(s), t,
					  pid_of(s->tid), comm,
					  is_switch ? report_feed__fields(feed, feed->perf_tep,
									  feed->perf_sw.event,
									  s->raw_data, s->raw_size,
									  fields, sizeof(fields))
						    : NULL);
	if (!err && is_switch) {
		/* taken as prev switches out: its task is prev; next is in the raw fields */
		const struct switch_fields *sw = &feed->perf_sw;
		char next[32];

		err = report_feed__switch_to(feed, REPORT_SWITCH_PERF_TP, cpu_of(s), t,
					 pid_of(s->tid), comm,
					 sw->event ? (pid_t)tep_field__num(sw->next_pid, s->raw_data,
									s->raw_size) : -1,
					 sw->event ? tep_field__str(sw->next_comm, s->raw_data, s->raw_size,
								next, sizeof(next)) : NULL);
	}
	if (err || !(attr->sample_type & PERF_SAMPLE_IP))
		return err;
	perf_machine__resolve(feed->machine, pid_of(s->pid), s->ip, &al);
	/*
	 * A task no COMM named (one forked while the recording started, say) is ":<tid>" there,
	 * a row of its own per task, as perf report --sort comm shows it: folded into one ":?",
	 * its rows were none of perf's on a busy machine.
	 */
	if (!comm && s->tid != (uint32_t)-1)
		comm = perf_machine__comm(feed->machine, (pid_t)s->tid);
	return report_agg__symbol(feed->agg, evsel, comm ? comm : ":?", al.dso, al.sym, al.kernel,
				  sample__period(s, evsel));
}

int report_feed__perf(struct report_feed *feed, const union perf_event *event,
		      const struct perf_sample *sample, struct evsel *evsel)
{
	uint64_t t = sample->time == (uint64_t)-1 || !sample->time ? UINT64_MAX : sample->time;
	int cpu = cpu_of(sample);
	int err;

	/* a CPU's span in perf.data: its samples (what perf script shows) and switches */
	if (event->header.type == PERF_RECORD_SAMPLE) {
		err = report_feed__seen(feed, REPORT_SWITCH_PERF_RECORD, cpu, t);
		err = err ?: report_feed__seen(feed, REPORT_SWITCH_PERF_TP, cpu, t);
		return err ?: evsel ? report_feed__sample(feed, sample, evsel, t) : 0;
	}
	err = perf_machine__process_event(feed->machine, event, sample);
	if (err || (event->header.type != PERF_RECORD_SWITCH &&
		    event->header.type != PERF_RECORD_SWITCH_CPU_WIDE))
		return err;
	if (!(event->header.misc & PERF_RECORD_MISC_SWITCH_OUT))
		return report_agg__switch_in(feed->agg, REPORT_SWITCH_PERF_RECORD, cpu, t,
					     pid_of(sample->tid)) ?:
		       (feed->sched ? report_sched__switch_in(feed->sched, REPORT_SWITCH_PERF_RECORD,
							      cpu, t, pid_of(sample->tid)) : 0);
	return report_feed__switch_to(feed, REPORT_SWITCH_PERF_RECORD, cpu, t,
				  pid_of(sample->tid), report_feed__perf_comm(feed, sample->tid),
				  event->header.type == PERF_RECORD_SWITCH_CPU_WIDE ?
				  pid_of(event->context_switch.next_prev_tid) : -1, NULL);
}

static int report_feed__switch(struct report_feed *feed, const struct trace_dat_record *rec)
{
	const struct switch_fields *sw = &feed->sw;
	char prev[32], next[32];

	return report_feed__switch_to(feed, REPORT_SWITCH_FTRACE, rec->cpu, rec->ts,
				  (pid_t)tep_field__num(sw->prev_pid, rec->data, rec->size),
				  tep_field__str(sw->prev_comm, rec->data, rec->size, prev, sizeof(prev)),
				  (pid_t)tep_field__num(sw->next_pid, rec->data, rec->size),
				  tep_field__str(sw->next_comm, rec->data, rec->size, next, sizeof(next)));
}

int report_feed__ftrace(struct report_feed *feed, const struct trace_dat_record *rec)
{
	const char *comm = NULL;
	pid_t tid = -1;
	int err;

	if (rec->kind != TRACE_DAT_EVENT)
		return 0;
	err = report_feed__seen(feed, REPORT_SWITCH_FTRACE, rec->cpu, rec->ts);
	if (err)
		return err;
	if (rec->event && !feed->common_pid)	/* common fields are every event's */
		feed->common_pid = tep_find_common_field(rec->event, "common_pid");
	if (rec->event) {
		tid = (pid_t)tep_field__num(feed->common_pid, rec->data, rec->size);
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
	if (!err && feed->sched && rec->event) {
		char fields[REPORT_SCHED_FIELDS_MAX];

		if (rec->event != feed->last_event)
			snprintf(feed->last_name, sizeof(feed->last_name), "%s:%s", rec->event->system,
				 rec->event->name);
		feed->last_event = rec->event;
		err = report_sched__event(feed->sched, feed->last_name, false, rec->cpu, rec->ts, tid,
					  comm, report_feed__fields(feed, feed->tep, rec->event,
								    rec->data, rec->size, fields,
								    sizeof(fields)));
	}
	if (!err && rec->event && rec->event == feed->sw.event)
		err = report_feed__switch(feed, rec);
	return err;
}
