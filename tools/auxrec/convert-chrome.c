// SPDX-License-Identifier: LGPL-2.1
/* A recording as Trace Event Format JSON, one record at a time (convert-chrome.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/evsel.h>
#include <auxtrace/machine.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <event-parse.h>
#include <tracefs/trace-dat-reader.h>

#include "call-slices.h"
#include "convert-chrome.h"
#include "convert-json.h"
#include "sched-switch.h"

/* What runs on a CPU since when: all a task slice needs until the next switch. */
struct cpu_task {
	bool seen, switched;		/* a record in the window; a sched_switch */
	uint64_t since, last;		/* the current slice's start; the CPU's last record */
	int tid;
	char comm[17];
};

struct chrome_writer {
	FILE *f;
	uint64_t start, end;
	struct tep_handle *perf_tep;	/* perf.data's sched_switch format, ours */
	struct switch_fields sw;	/* sched_switch's fields, for the switches from it */
	enum { SWITCH_FTRACE, SWITCH_PERF_TP, SWITCH_RECORDS } switches;	/* followed */
	struct perf_machine *machine;	/* the comms of the tasks context switches name */
	struct tep_format_field *common_pid;
	struct cpu_task *cpus;
	int nr_cpus;
	struct call_slices *calls;	/* NULL: the AUX branches are not followed */
	struct chrome_stats stats;
};

/* Every event starts a line of its own; the first ends the header. */
static void chrome__begin(struct chrome_writer *cw, const char *ph, const char *cat, int pid,
			  int tid, uint64_t ts)
{
	fprintf(cw->f, ",\n{\"ph\":\"%s\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, cat,
		pid, tid);
	json__us(cw->f, ts);
}

static void chrome__name(struct chrome_writer *cw, const char *key, const char *name, size_t n)
{
	fprintf(cw->f, ",\"%s\":", key);
	json__str(cw->f, name, n);
}

/* A metadata event: speedscope wants a ts on every event. */
static void chrome__meta(struct chrome_writer *cw, const char *what, int pid, int tid,
			 const char *name, size_t n)
{
	fprintf(cw->f, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":0,"
		"\"args\":{\"name\":", what, pid, tid);
	json__str(cw->f, name, n);
	fputs("}}", cw->f);
}

/* What ended a call slice, in its args. */
static const char *const chrome_call_ends[CALL_SLICE_NR_ENDS] = {
	[CALL_SLICE_RETURN] = "return",
	[CALL_SLICE_UNWOUND] = "a return further out",
	[CALL_SLICE_PAST_START] = "return from a call before the trace",
	[CALL_SLICE_OPEN_AT_END] = "open at the end: ended at the thread's last branch",
};

/* A call slice on its thread's track, named by its function (its address without one). */
static int chrome__call_slice(void *ctx, const struct call_slice *s)
{
	struct chrome_writer *cw = ctx;
	char addr[24];

	chrome__begin(cw, "X", "call", s->pid < 0 ? 0 : s->pid, s->tid < 0 ? 0 : s->tid,
		      s->start);
	fputs(",\"dur\":", cw->f);
	json__us(cw->f, s->end - s->start);
	snprintf(addr, sizeof(addr), "0x%" PRIx64, s->addr);
	chrome__name(cw, "name", s->sym ?: addr, SIZE_MAX);
	fputs(",\"args\":{", cw->f);
	if (s->dso) {
		fputs("\"dso\":", cw->f);
		json__str(cw->f, s->dso, SIZE_MAX);
		fputc(',', cw->f);
	}
	fprintf(cw->f, "\"addr\":\"%s\",\"depth\":%u,\"end\":\"%s\"}}", addr, s->depth,
		chrome_call_ends[s->how]);
	return ferror(cw->f) ? -EIO : 0;
}

struct chrome_writer *chrome_writer__new(FILE *f, uint64_t start, uint64_t end,
					 struct tep_handle *ftrace, const void *perf_tracing,
					 size_t size, bool calls)
{
	struct chrome_writer *cw = calloc(1, sizeof(*cw));

	if (!cw)
		return NULL;
	*cw = (struct chrome_writer){ .f = f, .start = start, .end = end };
	if (ftrace)
		switch_fields__find(&cw->sw, ftrace);
	/* two sources of switches would give each slice twice: the first of these is taken */
	if (!cw->sw.event &&
	    switch_fields__perf(&cw->sw, &cw->perf_tep, perf_tracing, size)) {
		free(cw);
		errno = ENOMEM;
		return NULL;
	}
	cw->switches = !cw->sw.event ? SWITCH_RECORDS : cw->perf_tep ? SWITCH_PERF_TP
		       : SWITCH_FTRACE;
	cw->machine = perf_machine__new(NULL);
	if (cw->machine && calls)
		cw->calls = call_slices__new(cw->machine, chrome__call_slice, cw);
	if (!cw->machine || (calls && !cw->calls)) {
		chrome_writer__delete(cw);
		return NULL;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"writer\":\"auxrec convert\"},"
	      "\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":", f);
	fprintf(f, "%d,\"tid\":0,\"ts\":0,\"args\":{\"name\":\"CPUs\"}}", CHROME_CPUS_PID);
	fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,"
		"\"ts\":0,\"args\":{\"sort_index\":-1}}", CHROME_CPUS_PID);
	return cw;
}

/* The CPU's state, its track named the first time it has a record in the window. */
static struct cpu_task *chrome__cpu(struct chrome_writer *cw, int cpu, uint64_t t)
{
	struct cpu_task *c;

	if (cpu >= cw->nr_cpus) {
		int nr = cpu + 1;
		struct cpu_task *cpus = realloc(cw->cpus, sizeof(*cpus) * (size_t)nr);

		if (!cpus)
			return NULL;
		memset(cpus + cw->nr_cpus, 0, sizeof(*cpus) * (size_t)(nr - cw->nr_cpus));
		cw->cpus = cpus;
		cw->nr_cpus = nr;
	}
	c = &cw->cpus[cpu];
	if (!c->seen) {
		char name[32];

		snprintf(name, sizeof(name), "CPU %d", cpu);
		chrome__meta(cw, "thread_name", CHROME_CPUS_PID, cpu, name, sizeof(name));
		fprintf(cw->f, ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,"
			"\"tid\":%d,\"ts\":0,\"args\":{\"sort_index\":%d}}", CHROME_CPUS_PID, cpu,
			cpu);
		c->seen = true;
		c->since = t;
	}
	if (t > c->last)	/* a record read late is no later than the last */
		c->last = t;
	return c;
}

static void chrome__slice(struct chrome_writer *cw, int cpu, const char *cat, const char *comm,
			  int tid, uint64_t from, uint64_t to)
{
	chrome__begin(cw, "X", cat, CHROME_CPUS_PID, cpu, from);
	fputs(",\"dur\":", cw->f);
	json__us(cw->f, to - from);
	chrome__name(cw, "name", comm, 16);
	fprintf(cw->f, ",\"args\":{\"tid\":%d}}", tid);
}

/* prev ran since the CPU's last switch (or first record): its slice; next runs from now. */
static void chrome__switch(struct chrome_writer *cw, struct cpu_task *c, int cpu, uint64_t t,
			   int prev, const char *prev_comm, int next, const char *next_comm)
{
	if (t < c->since)	/* a record read late (timeline_stats.nr_unordered) */
		t = c->since;
	chrome__slice(cw, cpu, "sched", prev_comm, prev, c->since, t);
	cw->stats.nr_slices++;
	snprintf(c->comm, sizeof(c->comm), "%s", next_comm);
	c->tid = next;
	c->since = t;
	c->switched = true;
}

/* A sched_switch payload (ftrace's, or a perf sample's raw data). */
static void chrome__sched_switch(struct chrome_writer *cw, struct cpu_task *c, int cpu,
				 uint64_t t, const void *data, uint32_t size)
{
	char prev[17], next[17];

	chrome__switch(cw, c, cpu, t, (int)tep_field__num(cw->sw.prev_pid, data, size),
		       tep_field__str(cw->sw.prev_comm, data, size, prev, sizeof(prev)),
		       (int)tep_field__num(cw->sw.next_pid, data, size),
		       tep_field__str(cw->sw.next_comm, data, size, next, sizeof(next)));
}

/* perf's name for tid as the COMMs so far said it; the idle task is "swapper", as perf's. */
static const char *chrome__comm_of(struct chrome_writer *cw, int tid)
{
	return tid ? perf_machine__comm(cw->machine, tid) : "swapper";
}

/*
 * A context switch out of a CPU (PERF_RECORD_SWITCH_CPU_WIDE, --switch-events -a) names the
 * task switched to; the machine names both.
 */
static void chrome__switch_record(struct chrome_writer *cw, const struct timeline_record *rec,
				  struct cpu_task *c)
{
	const union perf_event *ev = rec->perf.event;

	if (cw->switches != SWITCH_RECORDS || !c ||
	    ev->header.type != PERF_RECORD_SWITCH_CPU_WIDE ||
	    !(ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT))
		return;
	chrome__switch(cw, c, rec->cpu, rec->time, rec->tid, chrome__comm_of(cw, rec->tid),
		       (int)ev->context_switch.next_prev_tid,
		       chrome__comm_of(cw, (int)ev->context_switch.next_prev_tid));
}

/* A number field, sign-extended when the format says it is signed. */
static void chrome__num_arg(struct chrome_writer *cw, struct tep_format_field *fl,
			    const void *data, uint32_t size)
{
	long long v = tep_field__num(fl, data, size);

	if ((fl->flags & TEP_FIELD_IS_SIGNED) && fl->size < 8) {
		int shift = 64 - 8 * fl->size;

		v = (long long)((unsigned long long)v << shift) >> shift;
	}
	if (fl->flags & TEP_FIELD_IS_SIGNED)
		fprintf(cw->f, "%lld", v);
	else
		fprintf(cw->f, "%llu", (unsigned long long)v);
}

/*
 * The event's own fields: numbers, and char arrays as strings; other arrays and dynamic
 * fields are left out, to keep the args (and the file) small.
 */
static void chrome__ftrace_args(struct chrome_writer *cw, const struct trace_dat_record *r)
{
	const char *sep = "";

	fputs(",\"args\":{", cw->f);
	if (cw->common_pid) {
		fprintf(cw->f, "\"common_pid\":%lld",
			tep_field__num(cw->common_pid, r->data, r->size));
		sep = ",";
	}
	for (struct tep_format_field *fl = r->event->format.fields; fl; fl = fl->next) {
		bool str = (fl->flags & TEP_FIELD_IS_ARRAY) && strstr(fl->type, "char");

		if ((fl->flags & TEP_FIELD_IS_DYNAMIC) ||
		    ((fl->flags & TEP_FIELD_IS_ARRAY) && !str) ||
		    fl->offset + fl->size > (int)r->size)
			continue;
		fprintf(cw->f, "%s\"%s\":", sep, fl->name);
		sep = ",";
		if (str)
			json__str(cw->f, (const char *)r->data + fl->offset, (size_t)fl->size);
		else
			chrome__num_arg(cw, fl, r->data, r->size);
	}
	fputs("}}", cw->f);
}

static int chrome__ftrace(struct chrome_writer *cw, const struct timeline_record *rec,
			  struct cpu_task *c)
{
	const struct trace_dat_record *r = rec->stream.data;

	if (r->kind != TRACE_DAT_EVENT) {
		chrome__begin(cw, "i", "loss", CHROME_CPUS_PID, rec->cpu, rec->time);
		fprintf(cw->f, ",\"s\":\"t\",\"name\":\"events lost\",\"args\":{\"missed\":%" PRId64
			"}}", r->missed);
		cw->stats.nr_losses++;
		return 0;
	}
	if (r->event && !cw->common_pid)	/* common fields are every event's */
		cw->common_pid = tep_find_common_field(r->event, "common_pid");
	chrome__begin(cw, "i", "ftrace", CHROME_CPUS_PID, rec->cpu, rec->time);
	fputs(",\"s\":\"t\"", cw->f);
	chrome__name(cw, "name", r->event ? r->event->name : "(no format)", SIZE_MAX);
	if (r->event)
		chrome__ftrace_args(cw, r);
	else
		fputs("}", cw->f);
	cw->stats.nr_ftrace++;
	if (cw->switches == SWITCH_FTRACE && r->event == cw->sw.event)
		chrome__sched_switch(cw, c, rec->cpu, rec->time, r->data, r->size);
	return 0;
}

static void chrome__sample(struct chrome_writer *cw, const struct timeline_record *rec,
			   struct cpu_task *c)
{
	const struct perf_sample *s = rec->perf.sample;
	const char *name = evsel__name(rec->perf.evsel) ?: "?";

	chrome__begin(cw, "i", "perf", rec->pid < 0 ? 0 : rec->pid, rec->tid < 0 ? 0 : rec->tid,
		      rec->time);
	fputs(",\"s\":\"t\"", cw->f);
	chrome__name(cw, "name", name, SIZE_MAX);
	fprintf(cw->f, ",\"args\":{\"cpu\":%d,\"ip\":\"0x%" PRIx64 "\"}}", rec->cpu, s->ip);
	cw->stats.nr_perf++;
	if (cw->switches == SWITCH_PERF_TP && c && !strcmp(name, "sched:sched_switch"))
		chrome__sched_switch(cw, c, rec->cpu, rec->time, s->raw_data, s->raw_size);
}

/*
 * A side-band record: the machine follows the comms, whatever its time; a COMM names the
 * thread (and its process, for the main thread) whenever it comes.
 */
static int chrome__side_band(struct chrome_writer *cw, const struct timeline_record *rec)
{
	const struct perf_record_comm *comm = &rec->perf.event->comm;
	int err = perf_machine__process_event(cw->machine, rec->perf.event, rec->perf.sample);
	size_t n = comm->header.size > sizeof(comm->header) + 8 ?
		   comm->header.size - sizeof(comm->header) - 8 : 0;

	if (err || comm->header.type != PERF_RECORD_COMM)
		return err;
	if (n > sizeof(comm->comm))
		n = sizeof(comm->comm);
	chrome__meta(cw, "thread_name", (int)comm->pid, (int)comm->tid, comm->comm, n);
	if (comm->pid == comm->tid)
		chrome__meta(cw, "process_name", (int)comm->pid, (int)comm->tid, comm->comm, n);
	return 0;
}

int chrome_writer__record(void *ctx, const struct timeline_record *rec)
{
	struct chrome_writer *cw = ctx;
	struct cpu_task *c = NULL;
	int err = rec->kind == TIMELINE_PERF_EVENT ? chrome__side_band(cw, rec) : 0;

	if (err)
		return err;
	if (rec->time == TIMELINE_NO_TIME) {
		cw->stats.nr_no_time++;
		cw->stats.nr_untimed_branches += rec->kind == TIMELINE_AUX_SAMPLE;
		return 0;
	}
	if (rec->time < cw->start || rec->time > cw->end)
		return 0;
	if (rec->cpu >= 0) {
		c = chrome__cpu(cw, rec->cpu, rec->time);
		if (!c)
			return -ENOMEM;
	}
	if (rec->kind == TIMELINE_STREAM && c)
		return chrome__ftrace(cw, rec, c);
	if (rec->kind == TIMELINE_PERF_SAMPLE)
		chrome__sample(cw, rec, c);
	if (rec->kind == TIMELINE_PERF_EVENT)
		chrome__switch_record(cw, rec, c);
	if (rec->kind == TIMELINE_AUX_SAMPLE && cw->calls)
		return call_slices__sample(cw->calls, rec->aux.sample, rec->time);
	return 0;
}

int chrome_writer__finish(struct chrome_writer *cw)
{
	int err = cw->calls ? call_slices__finish(cw->calls) : 0;

	for (int cpu = 0; cpu < cw->nr_cpus; cpu++) {
		struct cpu_task *c = &cw->cpus[cpu];

		if (!c->switched)
			continue;
		chrome__slice(cw, cpu, "sched,tail", c->comm, c->tid, c->since, c->last);
		cw->stats.nr_tail_slices++;
	}
	fputs("\n]}\n", cw->f);
	return err;
}

const struct chrome_stats *chrome_writer__stats(const struct chrome_writer *cw)
{
	return &cw->stats;
}

const struct call_slices_stats *chrome_writer__call_stats(const struct chrome_writer *cw)
{
	return cw->calls ? call_slices__stats(cw->calls) : NULL;
}

void chrome_writer__delete(struct chrome_writer *cw)
{
	if (!cw)
		return;
	if (cw->perf_tep)
		tep_free(cw->perf_tep);
	call_slices__delete(cw->calls);
	perf_machine__delete(cw->machine);
	free(cw->cpus);
	free(cw);
}
