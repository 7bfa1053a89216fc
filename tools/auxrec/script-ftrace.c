// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script's ftrace lines (script-ftrace.h). The fixed columns are built in place from
 * what is kept per event id and for the last task; the field text comes from the event's
 * compiled print format (script-ftrace-fmt.h) when it has one, else from libtraceevent, as
 * trace-cmd's does, into one trace_seq reused for every event.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>
#include <tracefs/trace-dat-reader.h>
#include "script-ftrace-fmt.h"
#include "script-ftrace.h"
#include "script-line.h"

/* trace-cmd's name column: "name:" left-aligned in this many characters, then a space */
#define NAME_WIDTH 21

/* What a line of one event id needs, found on its first record. */
struct ftrace_event_info {
	bool known;
	char *name;			/* "name:" and its padding, trace-cmd's column */
	size_t name_len;
	int pid_offset, pid_size;	/* common_pid; size 0: none */
	struct ftrace_fmt *fmt;		/* NULL: libtraceevent prints the fields */
};

struct script_ftrace {
	struct trace_dat_reader *r;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	unsigned int flags;
	struct trace_seq seq;
	struct ftrace_event_info *events;	/* by id */
	int nr_events;
	/*
	 * The last pid's "%16s-%-5d" (comm-pid): consecutive events are mostly of one task.
	 * Forgotten whenever a plugin ran, since the sched_switch plugin teaches the tep handle
	 * comms as it prints.
	 */
	int task_pid;
	bool task_known;
	struct script_line task;
	struct script_line scratch;	/* the lines of script_ftrace__skip() */
};

struct script_ftrace *script_ftrace__new(struct trace_dat_reader *r, unsigned int flags)
{
	struct script_ftrace *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->r = r;
	f->tep = trace_dat_reader__tep(r);
	f->flags = flags;
	/* the plugins Debian's libtraceevent ships, from where trace-cmd finds them too */
	f->plugins = tep_load_plugins(f->tep);
	trace_seq_init(&f->seq);
	return f;
}

void script_ftrace__delete(struct script_ftrace *f)
{
	if (!f)
		return;
	trace_seq_destroy(&f->seq);
	tep_unload_plugins(f->plugins, f->tep);
	for (int i = 0; i < f->nr_events; i++) {
		free(f->events[i].name);
		ftrace_fmt__delete(f->events[i].fmt);
	}
	free(f->events);
	free(f);
}

/* "CPU:N [n EVENTS DROPPED]", or without n when the kernel kept no count. */
static void script_ftrace__lost(const struct trace_dat_record *rec, struct script_line *l)
{
	script_line__str(l, "CPU:", 0);
	script_line__int(l, rec->cpu, 0);
	script_line__str(l, " [", 0);
	if (rec->missed >= 0) {
		script_line__u64(l, (uint64_t)rec->missed, 0, false, false);
		script_line__char(l, ' ');
	}
	script_line__str(l, "EVENTS DROPPED]", 0);
}

/* The column after the time: "name:" left-aligned in NAME_WIDTH, then a space. */
static char *name_column(const char *name, size_t *len)
{
	int pad = NAME_WIDTH - 1 - (int)strlen(name);
	char *col;
	int n = asprintf(&col, "%s:%*s ", name, pad > 0 ? pad : 0, "");

	*len = n < 0 ? 0 : (size_t)n;
	return n < 0 ? NULL : col;
}

/* The info of rec's event id, found the first time; NULL when out of memory. */
static struct ftrace_event_info *script_ftrace__event(struct script_ftrace *f,
						      const struct trace_dat_record *rec)
{
	struct ftrace_event_info *info;

	if (rec->id >= f->nr_events) {
		int nr = rec->id + 1;

		info = realloc(f->events, (size_t)nr * sizeof(*info));
		if (!info)
			return NULL;
		memset(info + f->nr_events, 0, (size_t)(nr - f->nr_events) * sizeof(*info));
		f->events = info;
		f->nr_events = nr;
	}
	info = &f->events[rec->id];
	if (!info->known) {
		struct tep_format_field *pid = tep_find_common_field(rec->event, "common_pid");

		info->name = name_column(rec->event->name, &info->name_len);
		if (!info->name)
			return NULL;
		if (pid && (pid->size == 4 || pid->size == 2)) {
			info->pid_offset = pid->offset;
			info->pid_size = pid->size;
		}
		info->fmt = ftrace_fmt__compile(rec->event);
		info->known = true;
	}
	return info;
}

/* common_pid, as tep_data_pid() reads it; -1 when the record has none. */
static int event_pid(const struct ftrace_event_info *info, const struct trace_dat_record *rec)
{
	const unsigned char *p = (const unsigned char *)rec->data + info->pid_offset;

	if (!info->pid_size || rec->size < (uint32_t)(info->pid_offset + info->pid_size))
		return -1;
	if (info->pid_size == 2) {
		int16_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* "%16s-%-5d": the comm as trace-cmd resolves it, the pid */
static void script_ftrace__task(struct script_ftrace *f, int pid, struct script_line *l)
{
	struct script_line *t = &f->task;
	size_t start;

	if (!f->task_known || f->task_pid != pid) {
		t->len = 0;
		script_line__str(t, tep_data_comm_from_pid(f->tep, pid), 16);
		script_line__char(t, '-');
		start = t->len;
		script_line__int(t, pid, 0);
		script_line__str(t, "", 5 - (int)(t->len - start));	/* "%-5d" */
		f->task_pid = pid;
		f->task_known = true;
	}
	script_line__bytes(l, t->buf, t->len);
}

/* libtraceevent's text of the fields: the event's plugin, else its print format. */
static void script_ftrace__tep_info(struct script_ftrace *f, const struct trace_dat_record *rec,
				    struct script_line *l)
{
	struct tep_record record = {
		.ts = rec->ts,
		.offset = rec->offset,
		.size = (int)rec->size,
		.cpu = rec->cpu,
		.data = (void *)rec->data,
	};

	trace_seq_reset(&f->seq);
	tep_print_event(f->tep, &f->seq, &record, "%s", TEP_PRINT_INFO);
	if (rec->event->handler)
		f->task_known = false;
	script_line__bytes(l, f->seq.buffer, f->seq.len);
}

/* "%16s-%-5d [%03d] %5llu.%06llu: name: info" */
static void script_ftrace__event_line(struct script_ftrace *f,
				      const struct trace_dat_record *rec, struct script_line *l)
{
	struct ftrace_event_info *info = rec->event ? script_ftrace__event(f, rec) : NULL;
	int pid = info ? event_pid(info, rec) : -1;
	uint64_t usecs = (rec->ts + 500) / 1000;	/* rounded, as trace-cmd shows them */
	size_t start;

	script_ftrace__task(f, pid, l);
	script_line__str(l, " [", 0);
	script_line__u64(l, (uint64_t)rec->cpu, 3, false, true);
	script_line__str(l, "] ", 0);
	script_line__u64(l, usecs / 1000000, 5, false, false);
	script_line__char(l, '.');
	script_line__u64(l, usecs % 1000000, 6, false, true);
	script_line__str(l, ": ", 0);
	if (!info) {
		script_line__str(l, "[UNKNOWN EVENT]", 0);
		return;
	}
	script_line__bytes(l, info->name, info->name_len);
	start = l->len;
	if (!info->fmt || !ftrace_fmt__print(info->fmt, rec->data, rec->size, l))
		script_ftrace__tep_info(f, rec, l);
	/* trace-cmd ends the line at the text's own newline (trace_marker's) */
	while (l->len > start && l->buf[l->len - 1] == '\n')
		l->len--;
}

void script_ftrace__line(struct script_ftrace *f, const struct trace_dat_record *rec,
			 struct script_line *l)
{
	if (f->flags & SCRIPT_FTRACE_MARK)
		script_line__str(l, SCRIPT_FTRACE_PREFIX, 0);
	if (rec->kind == TRACE_DAT_LOST)
		script_ftrace__lost(rec, l);
	else
		script_ftrace__event_line(f, rec, l);
}

void script_ftrace__skip(struct script_ftrace *f, const struct trace_dat_record *rec)
{
	if (rec->kind != TRACE_DAT_LOST && rec->event && rec->event->handler) {
		f->scratch.len = 0;
		script_ftrace__event_line(f, rec, &f->scratch);
	}
}
