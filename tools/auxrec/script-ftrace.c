// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script's ftrace lines (script-ftrace.h). The fixed columns are built in place; the
 * field text comes from libtraceevent, as trace-cmd's does, into one trace_seq reused for
 * every event.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <event-parse.h>
#include <trace-seq.h>
#include <tracefs/trace-dat-reader.h>
#include "error.h"
#include "script-ftrace.h"
#include "script-line.h"

/* trace-cmd's name column: "name:" left-aligned in this many characters, then a space */
#define NAME_WIDTH 21

struct script_ftrace {
	struct trace_dat_reader *r;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	unsigned int flags;
	struct trace_seq seq;
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

/* libtraceevent's text of the fields: the event's plugin, else its print format. */
static void script_ftrace__info(struct script_ftrace *f, struct tep_record *record,
				struct script_line *l)
{
	trace_seq_reset(&f->seq);
	tep_print_event(f->tep, &f->seq, record, "%s", TEP_PRINT_INFO);
	/* trace-cmd ends the line at the text's own newline (trace_marker's) */
	while (f->seq.len && f->seq.buffer[f->seq.len - 1] == '\n')
		f->seq.len--;
	trace_seq_terminate(&f->seq);
	script_line__str(l, f->seq.buffer, 0);
}

void script_ftrace__line(struct script_ftrace *f, const struct trace_dat_record *rec,
			 struct script_line *l)
{
	struct tep_record record = {
		.ts = rec->ts,
		.offset = rec->offset,
		.size = (int)rec->size,
		.cpu = rec->cpu,
		.data = (void *)rec->data,
	};
	const char *name = rec->event ? rec->event->name : "[UNKNOWN EVENT]";
	size_t name_len = strlen(name), start;
	uint64_t usecs;
	int pid;

	if (f->flags & SCRIPT_FTRACE_MARK)
		script_line__str(l, SCRIPT_FTRACE_PREFIX, 0);
	if (rec->kind == TRACE_DAT_LOST) {
		script_ftrace__lost(rec, l);
		return;
	}
	pid = rec->id >= 0 ? tep_data_pid(f->tep, &record) : -1;
	/* "%16s-%-5d [%03d] %5llu.%06llu: " */
	script_line__str(l, tep_data_comm_from_pid(f->tep, pid), 16);
	script_line__char(l, '-');
	start = l->len;
	script_line__int(l, pid, 0);
	script_line__str(l, "", 5 - (int)(l->len - start));	/* "%-5d" */
	script_line__str(l, " [", 0);
	script_line__u64(l, (uint64_t)rec->cpu, 3, false, true);
	script_line__str(l, "] ", 0);
	usecs = (rec->ts + 500) / 1000;		/* rounded, as trace-cmd shows them */
	script_line__u64(l, usecs / 1000000, 5, false, false);
	script_line__char(l, '.');
	script_line__u64(l, usecs % 1000000, 6, false, true);
	script_line__str(l, ": ", 0);
	script_line__str(l, name, 0);
	script_line__char(l, ':');
	script_line__str(l, " ", NAME_WIDTH + 1 - (int)(name_len + 1));
	if (rec->event)
		script_ftrace__info(f, &record, l);
}

int script_ftrace__print_file(struct script_ftrace *f, FILE *out)
{
	struct trace_dat_cursor *c = trace_dat_cursor__new(f->r, -1);
	const struct trace_dat_record *rec;
	struct script_line *l;
	int err = 0;

	if (!c)
		return -errno;
	l = malloc(sizeof(*l));
	if (!l) {
		trace_dat_cursor__delete(c);
		return -ENOMEM;
	}
	l->len = 0;
	fprintf(out, "cpus=%d\n", trace_dat_reader__nr_cpus(f->r));
	while (!err && (rec = trace_dat_cursor__next(c))) {
		script_ftrace__line(f, rec, l);
		err = script_line__write(l, out);
	}
	if (!err && errno)
		err = -errno;
	free(l);
	trace_dat_cursor__delete(c);
	return err;
}

/* trace.dat's first bytes, as trace-cmd writes them */
static const char trace_dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static bool is_trace_dat(const char *path)
{
	char head[sizeof(trace_dat_magic)];
	FILE *f = fopen(path, "re");
	bool yes;

	if (!f)
		return false;
	yes = fread(head, 1, sizeof(head), f) == sizeof(head) &&
	      !memcmp(head, trace_dat_magic, sizeof(head));
	fclose(f);
	return yes;
}

const char *script_ftrace__input(const char *input, char *buf, size_t size)
{
	struct stat st;

	if (!input) {
		input = "auxrec.data";
		if (stat(input, &st))
			return NULL;
	}
	if (!strcmp(input, "-") || stat(input, &st))
		return NULL;
	if (!S_ISDIR(st.st_mode))
		return is_trace_dat(input) ? input : NULL;
	snprintf(buf, size, "%s/perf.data", input);
	if (!access(buf, F_OK))
		return NULL;
	snprintf(buf, size, "%s/trace.dat", input);
	return is_trace_dat(buf) ? buf : NULL;
}

int script_ftrace__run(const char *path)
{
	static char out[1 << 20];	/* lines are short and many: fewer, larger writes */
	struct trace_dat_reader *r = trace_dat_reader__open(path);
	struct script_ftrace *f;
	int err;

	if (!r) {
		err = -errno;
		auxrec_file_error(path, "cannot read it as trace.dat", err);
		return err;
	}
	f = script_ftrace__new(r, 0);
	if (!f) {
		err = -errno;
		auxrec_error("%s: %s", path, auxrec_strerror(err));
		trace_dat_reader__close(r);
		return err;
	}
	setvbuf(stdout, out, _IOFBF, sizeof(out));
	err = script_ftrace__print_file(f, stdout);
	if (fflush(stdout) && !err)
		err = -errno;
	if (err)
		auxrec_file_error(path, "reading stopped", err);
	script_ftrace__delete(f);
	trace_dat_reader__close(r);
	return err;
}
