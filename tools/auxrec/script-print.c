// SPDX-License-Identifier: LGPL-2.1
/* auxrec script's lines for one record (script-print.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/decode.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/machine.h>
#include <auxtrace/session.h>
#include "script-print.h"

/* perf's cap on the frames it shows of a callchain (kernel.perf_event_max_stack's default). */
#define SCRIPT_MAX_STACK 127

void script_print__init(struct script_print *p)
{
	p->name_width = 0;
	p->spacing = 0;
	p->calls = (struct script_calls){ NULL, 0, NULL, 0 };
	p->line.len = 0;
	p->addrs = (struct script_addr_cache){ NULL, 1 };
	p->who.len = 0;
	trace_seq_init(&p->seq);
}

void script_print__exit(struct script_print *p)
{
	trace_seq_destroy(&p->seq);
	script_calls__exit(&p->calls);
	script_addr_cache__exit(&p->addrs);
}

/*
 * The width of the event names is each copy's, taken at its first line: the decoders add
 * their events to the evlist when the walk starts, after the copies are made.
 */
void script_print__copy(struct script_print *dst, struct script_print *src,
			pthread_mutex_t *machine_lock)
{
	*dst = (struct script_print){
		.machine = src->machine, .evlist = src->evlist, .tep = src->tep,
		.fields = src->fields, .ns = src->ns, .dso_pad = src->dso_pad,
		.machine_lock = machine_lock,
	};
	script_print__init(dst);
}

void script_print__forget(struct script_print *p)
{
	script_addr_cache__forget(&p->addrs);
}

/* libtraceevent's resolver: a kernel address's function and where it starts. */
static char *script_print__kernel_func(void *priv, unsigned long long *addrp, char **modp)
{
	struct script_print *p = priv;
	struct perf_addr_location al = { .sz = sizeof(al) };

	*modp = NULL;
	if (perf_machine__resolve(p->machine, -1, *addrp, &al) || !al.sym)
		return NULL;
	*addrp -= al.sym_offset;
	return (char *)al.sym;
}

void script_print__set_tep(struct script_print *p, struct tep_handle *tep, bool resolve)
{
	p->tep = tep;
	if (resolve)
		tep_set_function_resolver(tep, script_print__kernel_func, p);
}

/* perf's width: the longest name in the evlist, the decoders' events included. */
static int script_print__name_width(struct script_print *p)
{
	struct evsel *evsel;

	if (!p->name_width) {
		evlist__for_each_entry(p->evlist, evsel) {
			int len = (int)strlen(evsel__name(evsel) ?: "");

			if (len > p->name_width)
				p->name_width = len;
		}
	}
	return p->name_width;
}

/*
 * Lookups take the machine's lock when there is one (copies format at once): a thread or a
 * symbol table seen the first time is added to the machine then (the caches spare most).
 */
const char *script_print__comm(struct script_print *p, pid_t tid)
{
	const char *comm;

	if (!p->machine_lock)
		return perf_machine__comm(p->machine, tid);
	pthread_mutex_lock(p->machine_lock);
	comm = perf_machine__comm(p->machine, tid);
	pthread_mutex_unlock(p->machine_lock);
	return comm;
}

static void script_print__resolve(struct script_print *p, pid_t pid, uint64_t addr,
				  struct perf_addr_location *al)
{
	if (!p->machine_lock) {
		perf_machine__resolve(p->machine, pid, addr, al);
		return;
	}
	pthread_mutex_lock(p->machine_lock);
	perf_machine__resolve(p->machine, pid, addr, al);
	pthread_mutex_unlock(p->machine_lock);
}

/* comm, pid/tid, [cpu]; comm unaligned before a callchain, as perf prints it. */
static void script_print__who(struct script_print *p, unsigned int f, pid_t pid, pid_t tid,
			      int cpu, bool chain)
{
	struct script_line *l = &p->line;

	if (f & SF_COMM) {
		script_line__str(l, script_print__comm(p, tid), chain ? 0 : 16);
		script_line__char(l, ' ');
	}
	if (f & SF_PID) {
		script_line__int(l, pid, 5);
		if (f & SF_TID) {
			size_t at;

			script_line__char(l, '/');
			at = l->len;
			script_line__int(l, tid, 0);
			if (l->len - at < 5)
				script_line__str(l, "", (int)(5 - (l->len - at)));	/* "%-5d" */
		}
		script_line__char(l, ' ');
	} else if (f & SF_TID) {
		script_line__int(l, tid, 5);
		script_line__char(l, ' ');
	}
	if (f & SF_CPU) {
		script_line__char(l, '[');
		script_line__u64(l, (uint64_t)cpu, 3, false, true);
		script_line__str(l, "] ", 0);
	}
}

/*
 * comm, pid/tid, [cpu], time. The first part is kept from the line before when it is the
 * same thread's on the same CPU: samples come in runs of one thread.
 */
static void script_print__start(struct script_print *p, unsigned int f, pid_t pid, pid_t tid,
				int cpu, uint64_t time, bool chain)
{
	struct script_print_who *who = &p->who;
	struct script_line *l = &p->line;
	unsigned int shown = f & (SF_COMM | SF_PID | SF_TID | SF_CPU);
	size_t at = l->len;

	if (who->gen == p->addrs.gen && who->len && who->pid == pid && who->tid == tid &&
	    who->cpu == cpu && who->fields == shown && who->chain == chain) {
		script_line__bytes(l, who->text, who->len);
	} else {
		script_print__who(p, f, pid, tid, cpu, chain);
		if (l->len - at <= sizeof(who->text)) {
			*who = (struct script_print_who){ .gen = p->addrs.gen, .pid = pid,
							  .tid = tid, .cpu = cpu, .fields = shown,
							  .chain = chain, .len = l->len - at };
			memcpy(who->text, l->buf + at, who->len);
		}
	}
	if (f & SF_TIME) {
		script_line__u64(l, time / 1000000000, 5, false, false);
		script_line__char(l, '.');
		if (p->ns)
			script_line__u64(l, time % 1000000000, 9, false, true);
		else
			script_line__u64(l, time % 1000000000 / 1000, 6, false, true);
		script_line__str(l, ": ", 0);
	}
}

/* " sym+0xoff (dso)" as the fields ask, for an address resolved in al. */
static void script_print__sym(struct script_print *p, unsigned int f,
			      const struct perf_addr_location *al)
{
	struct script_line *l = &p->line;

	if (f & SF_SYM) {
		script_line__char(l, ' ');
		if (al->sym) {
			script_line__str(l, al->sym, 0);
			if (f & SF_SYMOFF) {
				script_line__str(l, "+0x", 0);
				script_line__u64(l, al->sym_offset, 0, true, false);
			}
		} else {
			script_line__str(l, "[unknown]", 0);
		}
	}
	if (f & SF_DSO) {
		script_line__str(l, " (", 0);
		script_line__str(l, al->dso ?: "[unknown]", 0);
		script_line__char(l, ')');
	}
}

/* "%16llx sym+0xoff (dso)", as perf prints an address it resolved; kept for the next time. */
static void script_print__addr(struct script_print *p, unsigned int f, pid_t pid, uint64_t addr)
{
	struct perf_addr_location al = { .sz = sizeof(al) };
	unsigned int shown = f & (SF_SYM | SF_SYMOFF | SF_DSO);	/* what the text depends on */
	const struct script_addr_slot *kept = script_addr_cache__find(&p->addrs, pid, addr, shown);
	size_t at = p->line.len;

	if (kept) {
		script_line__bytes(&p->line, kept->text, kept->len);
		return;
	}
	if (f & (SF_SYM | SF_DSO))
		script_print__resolve(p, pid, addr, &al);
	script_line__u64(&p->line, addr, 16, true, false);
	script_print__sym(p, f, &al);
	script_addr_cache__add(&p->addrs, pid, addr, shown, p->line.buf + at, p->line.len - at);
}

/* The period (a fixed one when the event does not sample it, as perf shows it), the name. */
static void script_print__name(struct script_print *p, unsigned int f, struct evsel *evsel,
			       uint64_t period)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	struct script_line *l = &p->line;

	if (!(attr->sample_type & PERF_SAMPLE_PERIOD))
		period = attr->freq ? 0 : attr->sample_period;
	if (f & SF_PERIOD) {
		script_line__u64(l, period, 10, false, false);
		script_line__char(l, ' ');
	}
	if (f & SF_EVENT) {
		script_line__str(l, evsel__name(evsel) ?: "[unknown]", script_print__name_width(p));
		script_line__str(l, ": ", 0);
	}
}

/* A tracepoint's fields, formatted from the recording's own formats as perf does. */
static void script_print__trace(struct script_print *p, const struct perf_sample *sample)
{
	struct tep_record rec = {
		.ts = sample->time, .cpu = (int)sample->cpu, .size = (int)sample->raw_size,
		.data = (void *)sample->raw_data,
	};

	if (!p->tep || !sample->raw_data)
		return;
	trace_seq_reset(&p->seq);
	tep_print_event(p->tep, &p->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&p->seq);
	script_line__str(&p->line, p->seq.buffer, 0);
}

/*
 * One line per frame, "\t%16llx sym+0xoff (dso)": perf shows a user frame's address in its
 * file (as map__map_ip gives it), a kernel's or an unmapped one as it is, and skips the
 * context markers (PERF_CONTEXT_KERNEL, _USER, ...).
 */
/* A context marker of the kernel's; perf drops a whole chain holding another one. */
static bool callchain__context(uint64_t ip)
{
	switch (ip) {
	case PERF_CONTEXT_HV: case PERF_CONTEXT_KERNEL: case PERF_CONTEXT_USER:
	case PERF_CONTEXT_GUEST: case PERF_CONTEXT_GUEST_KERNEL: case PERF_CONTEXT_GUEST_USER:
		return true;
	default:
		return false;
	}
}

static int script_print__callchain(struct script_print *p, unsigned int f,
				   const struct perf_sample *sample)
{
	const struct ip_callchain *chain = sample->callchain;
	int shown = 0, err = 0;

	/* a user stack the frame-pointer walk misread can end in one (perf shows no frames) */
	for (uint64_t i = 0; i < chain->nr && shown < SCRIPT_MAX_STACK; i++) {
		if (chain->ips[i] < PERF_CONTEXT_MAX)
			shown++;
		else if (!callchain__context(chain->ips[i]))
			return 0;
	}
	shown = 0;

	for (uint64_t i = 0; i < chain->nr && shown < SCRIPT_MAX_STACK && !err; i++) {
		struct perf_addr_location al = { .sz = sizeof(al) };
		uint64_t ip = chain->ips[i];

		if (ip >= PERF_CONTEXT_MAX)
			continue;
		shown++;
		perf_machine__resolve(p->machine, (pid_t)sample->pid, ip, &al);
		script_line__char(&p->line, '\t');
		script_line__u64(&p->line, al.dso && !al.kernel ?
				 ip - al.map_start + al.map_pgoff : ip, 16, true, false);
		script_print__sym(p, f, &al);
		err = script_line__write(&p->line, p->out);
	}
	return err;
}

#define BR AUXTRACE_IP_FLAG_BRANCH

int script_print__bts_buffer(struct script_print *p, int cpu, pid_t tid, uint64_t aux_offset)
{
	return script_calls__buffer(&p->calls, cpu, tid, aux_offset);
}

/* A branch's kind in perf's words; "" for no branch or a combination perf has no name for. */
static const char *branch_kind(uint32_t flags)
{
	static const struct {
		uint32_t flags;
		const char *name;
	} kinds[] = {
		{ BR | AUXTRACE_IP_FLAG_CALL, "call" },
		{ BR | AUXTRACE_IP_FLAG_RETURN, "return" },
		{ BR | AUXTRACE_IP_FLAG_CONDITIONAL, "jcc" },
		{ BR, "jmp" },
		{ BR | AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_INTERRUPT, "int" },
		{ BR | AUXTRACE_IP_FLAG_RETURN | AUXTRACE_IP_FLAG_INTERRUPT, "iret" },
		{ BR | AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_SYSCALLRET, "syscall" },
		{ BR | AUXTRACE_IP_FLAG_RETURN | AUXTRACE_IP_FLAG_SYSCALLRET, "sysret" },
		{ BR | AUXTRACE_IP_FLAG_ASYNC, "async" },
		{ BR | AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_ASYNC | AUXTRACE_IP_FLAG_INTERRUPT,
		  "hw int" },
		{ BR | AUXTRACE_IP_FLAG_TX_ABORT, "tx abrt" },
		{ BR | AUXTRACE_IP_FLAG_TRACE_BEGIN, "tr strt" },
		{ BR | AUXTRACE_IP_FLAG_TRACE_END, "tr end" },
		{ BR | AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_VMENTRY, "vmentry" },
		{ BR | AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_VMEXIT, "vmexit" },
	};

	flags &= ~AUXTRACE_IP_FLAG_IN_TX;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].flags == flags)
			return kinds[i].name;
	return "";
}

/* "  %-21s ": the kind, after "tr strt " or "tr end  " where the trace begins or ends. */
static void script_print__flags(struct script_print *p, uint32_t flags)
{
	static const uint32_t trace = AUXTRACE_IP_FLAG_TRACE_BEGIN | AUXTRACE_IP_FLAG_TRACE_END;
	struct script_line *l = &p->line;
	const char *kind = branch_kind(flags);
	size_t at;

	script_line__str(l, "  ", 0);
	at = l->len;
	if (!*kind && (flags & trace)) {
		script_line__str(l, flags & AUXTRACE_IP_FLAG_TRACE_BEGIN ? "tr strt " : "tr end  ", 0);
		kind = branch_kind(flags & ~trace);
	}
	script_line__str(l, kind, 0);
	if (l->len - at < 21)
		script_line__str(l, "", (int)(21 - (l->len - at)));
	script_line__char(l, ' ');
}

int script_print__sample(struct script_print *p, struct evsel *evsel,
			 const struct perf_sample *sample)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	unsigned int f = script_fields__of(&p->fields, attr);
	bool chain = (f & SF_IP) && (attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
		     sample->callchain;
	int err;

	script_print__start(p, f, (pid_t)sample->pid, (pid_t)sample->tid, (int)sample->cpu,
			    sample->time, chain);
	script_print__name(p, f, evsel, sample->period);
	if (f & SF_FLAGS)
		script_print__flags(p, 0);	/* a perf sample is no branch */
	if (f & SF_TRACE)
		script_print__trace(p, sample);
	if (!(f & SF_IP))
		return script_line__write(&p->line, p->out);
	if (!chain) {
		script_line__char(&p->line, ' ');
		script_print__addr(p, f, (pid_t)sample->pid, sample->ip);
		return script_line__write(&p->line, p->out);
	}
	/* the sample's line, its frames, and a blank line */
	err = script_line__write(&p->line, p->out);
	if (!err)
		err = script_print__callchain(p, f, sample);
	return err ?: script_line__write(&p->line, p->out);
}

int script_print__follow(struct script_print *p, const struct auxtrace_sample *sample)
{
	if (sample->kind != AUXTRACE_SAMPLE_BRANCH)
		return 0;
	return script_calls__branch(&p->calls, sample);
}

/*
 * "(dso)\t" when the dso is shown without an address, then the function called (or begun
 * in) or returned from (or ended in), indented by the thread's call depth, padded to a
 * column that moves only when a line outgrows it (or falls far short), as perf keeps its
 * output lined up.
 */
static void script_print__callindent(struct script_print *p, unsigned int f,
				     const struct auxtrace_sample *sample)
{
	struct perf_addr_location al = { .sz = sizeof(al) }, to = { .sz = sizeof(al) };
	struct script_line *l = &p->line;
	size_t depth = script_calls__depth(&p->calls, sample->tid), at;
	const char *name = NULL;
	uint64_t ip = 0;

	perf_machine__resolve(p->machine, sample->pid, sample->ip, &al);
	/* the return was popped already: show it at its call's depth */
	if (sample->flags & AUXTRACE_IP_FLAG_RETURN)
		depth++;
	if (sample->flags & (AUXTRACE_IP_FLAG_CALL | AUXTRACE_IP_FLAG_TRACE_BEGIN)) {
		perf_machine__resolve(p->machine, sample->pid, sample->addr, &to);
		name = to.sym;
		ip = sample->addr;
	} else if (sample->flags & (AUXTRACE_IP_FLAG_RETURN | AUXTRACE_IP_FLAG_TRACE_END)) {
		name = al.sym;
		ip = sample->ip;
	}
	if ((f & SF_DSO) && !(f & (SF_IP | SF_ADDR))) {
		script_line__char(l, '(');
		at = l->len;
		script_line__str(l, al.dso ?: "[unknown]", 0);
		if (l->len - at < (size_t)p->dso_pad)
			script_line__str(l, "", (int)(p->dso_pad - (l->len - at)));
		script_line__str(l, ")\t", 0);
	}
	at = l->len;
	if (name || ip) {
		if (depth)
			script_line__str(l, "", (int)depth * 4);
		if (name)
			script_line__str(l, name, 0);
		else
			script_line__u64(l, ip, 16, true, false);
	}
	size_t len = l->len - at;

	if ((int)len > p->spacing || (len && (int)len < p->spacing - 52))
		p->spacing = ((int)len + 4 + 31) / 32 * 32;
	if ((int)len < p->spacing)
		script_line__str(l, "", p->spacing - (int)len);
}

/* The line and its newline onto p->text, and a new line started. 0 or -ENOMEM. */
static int script_print__keep(struct script_print *p)
{
	struct script_text *t = p->text;
	size_t len = p->line.len;

	p->line.len = 0;
	if (t->cap - t->len < len + 1) {
		size_t cap = t->cap ? t->cap : 4096;
		char *buf;

		while (cap - t->len < len + 1)
			cap *= 2;
		buf = realloc(t->buf, cap);
		if (!buf)
			return -ENOMEM;
		t->buf = buf;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, p->line.buf, len);
	t->len += len;
	t->buf[t->len++] = '\n';
	return 0;
}

int script_print__auxtrace_sample(struct script_print *p, struct evsel *evsel,
				  const struct auxtrace_sample *sample)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	unsigned int f = script_fields__of(&p->fields, attr);

	script_print__start(p, f, sample->pid, sample->tid, sample->cpu, sample->time, false);
	script_print__name(p, f, evsel, sample->period);
	if (f & SF_FLAGS)
		script_print__flags(p, sample->flags);
	if ((f & SF_CALLINDENT) && sample->kind == AUXTRACE_SAMPLE_BRANCH)
		script_print__callindent(p, f, sample);
	if (f & SF_IP) {
		script_line__char(&p->line, ' ');
		script_print__addr(p, f, sample->pid, sample->ip);
	}
	/* a branch's target: perf's default, or what -F addr asks */
	if (sample->kind == AUXTRACE_SAMPLE_BRANCH &&
	    ((f & SF_ADDR) || !script_fields__user_set(&p->fields, attr))) {
		script_line__str(&p->line, " => ", 0);
		script_print__addr(p, f, sample->pid, sample->addr);
	}
	return p->text ? script_print__keep(p) : script_line__write(&p->line, p->out);
}

int script_print__auxtrace_error(struct script_print *p, const struct auxtrace_decode_error *err)
{
	fprintf(p->out, " instruction trace error type 1");
	if (err->time)
		fprintf(p->out, " time %" PRIu64 ".%09" PRIu64, err->time / 1000000000,
			err->time % 1000000000);
	else
		fprintf(p->out, " time 0");
	fprintf(p->out, " cpu %d pid %d tid %d ip %#" PRIx64 " code %d: %s", err->cpu, err->pid,
		err->tid, err->ip, err->perf_code, err->msg);
	if (err->kind != AUXTRACE_DECODE_ERR_LOST)
		fprintf(p->out, " (AUX offset %#" PRIx64 ")", err->aux_offset);
	return fputc('\n', p->out) == EOF ? -EIO : 0;
}
