// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec report -D: every record of a perf.data in file order, the way perf report -D shows
 * it: "0xOFFSET@FILE [0xSIZE]: event: TYPE", the raw bytes, then "TIME 0xOFFSET [0xSIZE]:
 * PERF_RECORD_NAME fields"; AUX payloads through their decoder's dump (Intel PT packets from
 * libipt, BTS branches); and the counts per type at the end.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <auxtrace/intel-bts-decode.h>
#include <auxtrace/intel-pt-decode.h>
#include <auxtrace/session.h>

#include "error.h"
#include "report.h"

static const char *const record_names[PERF_SESSION_NR_TYPES] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2", [PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START", [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH", [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE", [PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR", [PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID", [PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX", [PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE", [PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP", [PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG", [PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND", [PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV", [PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED", [PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

struct dump {
	struct perf_tool tool;		/* first: the callbacks find the dump from it */
	FILE *f;
	const char *path;
	uint32_t aux_type;		/* of PERF_RECORD_AUXTRACE_INFO */
};

static const char *record__name(uint32_t type)
{
	return type < PERF_SESSION_NR_TYPES && record_names[type] ? record_names[type] : NULL;
}

/* ".  0000:  45 00 ...  E.....P." sixteen bytes a line, as perf prints raw records. */
static void dump__raw(FILE *f, const void *p, size_t size)
{
	const unsigned char *b = p;

	fprintf(f, ".\n. ... raw event: size %zu bytes\n", size);
	for (size_t i = 0; i < size; i += 16) {
		size_t n = size - i < 16 ? size - i : 16;

		fprintf(f, ".  %04zx: ", i);
		for (size_t j = 0; j < 16; j++)
			fprintf(f, j < n ? " %02x" : "   ", j < n ? b[i + j] : 0);
		fputs("  ", f);
		for (size_t j = 0; j < 16; j++)
			fputc(j >= n ? ' ' : isprint(b[i + j]) ? b[i + j] : '.', f);
		fputc('\n', f);
	}
}

/*
 * The first two lines of a record and its raw bytes, then the start of its summary line:
 * "[CPU ]TIME 0xOFFSET [0xSIZE]: PERF_RECORD_NAME" (the CPU when the record carries one).
 */
static void dump__head(struct dump *d, const union perf_event *ev, uint64_t offset, int cpu,
		       uint64_t time)
{
	const char *name = record__name(ev->header.type);

	fprintf(d->f, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", offset, d->path, ev->header.size,
		ev->header.type);
	dump__raw(d->f, ev, ev->header.size);
	fputc('\n', d->f);
	if (cpu >= 0)
		fprintf(d->f, "%d ", cpu);
	fprintf(d->f, "%" PRIu64 " %#" PRIx64 " [%#x]: PERF_RECORD_", time, offset,
		ev->header.size);
	if (name)
		fputs(name, d->f);
	else
		fprintf(d->f, "UNKNOWN(%u)", ev->header.type);
}

static void dump__mmap(FILE *f, const union perf_event *ev)
{
	if (ev->header.type == PERF_RECORD_MMAP) {
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)ev->mmap.pid, (int)ev->mmap.tid, ev->mmap.start, ev->mmap.len,
			ev->mmap.pgoff, ev->header.misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
			ev->mmap.filename);
		return;
	}
	fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ", (int)ev->mmap2.pid,
		(int)ev->mmap2.tid, ev->mmap2.start, ev->mmap2.len, ev->mmap2.pgoff);
	if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		for (int i = 0; i < ev->mmap2.build_id_size && i < PERF_RECORD_MMAP2_BUILD_ID_MAX; i++)
			fprintf(f, "%02x", ev->mmap2.build_id[i]);
	} else {
		fprintf(f, "%02x:%02x %" PRIu64 " %" PRIu64, ev->mmap2.maj, ev->mmap2.min,
			ev->mmap2.ino, ev->mmap2.ino_generation);
	}
	fprintf(f, "]: %c%c%c%c %s\n", ev->mmap2.prot & 1 ? 'r' : '-',
		ev->mmap2.prot & 2 ? 'w' : '-', ev->mmap2.prot & 4 ? 'x' : '-',
		ev->mmap2.flags & 1 ? 's' : 'p', ev->mmap2.filename);
}

static void dump__switch(FILE *f, const union perf_event *ev)
{
	bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;

	if (ev->header.type == PERF_RECORD_SWITCH) {
		fprintf(f, " %s\n", out ? "OUT" : "IN ");
		return;
	}
	fprintf(f, " %s  %s pid/tid: %5d/%-5d\n", out ? "OUT" : "IN ", out ? "next" : "prev",
		(int)ev->context_switch.next_prev_pid, (int)ev->context_switch.next_prev_tid);
}

static int dump__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			struct perf_sample *sample, struct evsel *evsel)
{
	struct dump *d = (struct dump *)tool;
	const struct perf_event_attr *attr = evsel__attr(evsel);
	uint64_t time = sample->time == (uint64_t)-1 ? 0 : sample->time;
	/* perf shows the fixed period of events that do not sample it */
	uint64_t period = attr->sample_type & PERF_SAMPLE_PERIOD || attr->freq ? sample->period
									     : attr->sample_period;
	FILE *f = d->f;

	(void)s;
	dump__head(d, ev, sample->file_offset, (int)sample->cpu, time);
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		fprintf(f, "(IP, %#x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64
			"\n ... event: %s\n", ev->header.misc, (int)sample->pid, (int)sample->tid,
			sample->ip, period, sample->addr, evsel__name(evsel));
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		dump__mmap(f, ev);
		break;
	case PERF_RECORD_COMM:
		fprintf(f, "%s: %s:%d/%d\n", ev->header.misc & PERF_RECORD_MISC_COMM_EXEC ?
			" exec" : "", ev->comm.comm, (int)ev->comm.pid, (int)ev->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(f, "(%d:%d):(%d:%d)\n", (int)ev->fork.pid, (int)ev->fork.tid,
			(int)ev->fork.ppid, (int)ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		fprintf(f, " lost %" PRIu64 " id %" PRIu64 "\n", ev->lost.lost, ev->lost.id);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(f, " lost %" PRIu64 "\n", ev->lost_samples.lost);
		break;
	case PERF_RECORD_AUX:
		fprintf(f, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s%s]\n",
			ev->aux.aux_offset, ev->aux.aux_size, ev->aux.flags,
			ev->aux.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			ev->aux.flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			ev->aux.flags & PERF_AUX_FLAG_PARTIAL ? "P" : "",
			ev->aux.flags & PERF_AUX_FLAG_COLLISION ? "C" : "");
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(f, " pid: %u tid: %u\n", ev->itrace_start.pid, ev->itrace_start.tid);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dump__switch(f, ev);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		fprintf(f, ": %" PRIu64 " id %" PRIu64 "\n", ev->throttle.time, ev->throttle.id);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(f, " addr %#" PRIx64 " len %u type %u flags %#x name %s\n",
			ev->ksymbol.addr, ev->ksymbol.len, ev->ksymbol.ksym_type, ev->ksymbol.flags,
			ev->ksymbol.name);
		break;
	default:
		fputc('\n', f);
		break;
	}
	return 0;
}

static int dump__line(void *ctx, const char *line)
{
	return fprintf(ctx, "%s\n", line) < 0 ? -EIO : 0;
}

static int dump__auxtrace(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			  uint64_t data_offset, const void *data)
{
	struct dump *d = (struct dump *)tool;
	const struct perf_record_auxtrace *a = &ev->auxtrace;

	(void)s;
	dump__head(d, ev, data_offset - ev->header.size, (int)a->cpu, 0);
	fprintf(d->f, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
		"  idx: %u  tid: %d  cpu: %d\n.\n", a->size, a->offset, a->reference, a->idx,
		(int)a->tid, (int)a->cpu);
	if (!a->size)
		return 0;
	switch (d->aux_type) {
	case PERF_AUXTRACE_INTEL_PT:
		return intel_pt_decoder__dump(data, a->size, dump__line, d->f);
	case PERF_AUXTRACE_INTEL_BTS:
		return intel_bts_decoder__dump(data, a->size, dump__line, d->f);
	default:
		fprintf(d->f, ". ... AUX data of type %u: size %" PRIu64 " bytes (no decoder here)\n",
			d->aux_type, a->size);
		return 0;
	}
}

static int dump__user(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		      uint64_t offset)
{
	struct dump *d = (struct dump *)tool;
	FILE *f = d->f;

	(void)s;
	dump__head(d, ev, offset, -1, 0);
	switch (ev->header.type) {
	case PERF_RECORD_ID_INDEX: {
		uint64_t nr = ev->id_index.nr;

		fprintf(f, " nr: %" PRIu64 "\n", nr);
		for (uint64_t i = 0; i < nr; i++) {
			const struct perf_record_id_index_entry *e = &ev->id_index.entries[i];

			fprintf(f, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %"
				PRId64 "\n", e->id, e->idx, (int64_t)e->cpu, (int64_t)e->tid);
		}
		break;
	}
	case PERF_RECORD_AUXTRACE_INFO:
		d->aux_type = ev->auxtrace_info.type;
		fprintf(f, " type: %u\n", ev->auxtrace_info.type);
		break;
	case PERF_RECORD_TIME_CONV:
		fprintf(f, "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64
			"\n... Time Zero       %" PRIu64 "\n", ev->time_conv.time_shift,
			ev->time_conv.time_mult, ev->time_conv.time_zero);
		break;
	case PERF_RECORD_AUXTRACE_ERROR:
		fprintf(f, " type: %u code: %u cpu: %d pid: %d tid: %d ip: %#" PRIx64 "\n",
			ev->auxtrace_error.type, ev->auxtrace_error.code,
			(int)ev->auxtrace_error.cpu, (int)ev->auxtrace_error.pid,
			(int)ev->auxtrace_error.tid, ev->auxtrace_error.ip);
		break;
	default:
		fputc('\n', f);
		break;
	}
	return 0;
}

/* "Aggregated stats:" with perf's layout: the total, then each type seen. */
static void dump__stats(FILE *f, const struct perf_session_stats *st)
{
	uint64_t total = 0;

	for (int t = 0; t < PERF_SESSION_NR_TYPES; t++)
		total += st->nr_events[t];
	fprintf(f, "\nAggregated stats:\n%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (int t = 0; t < PERF_SESSION_NR_TYPES; t++) {
		char unknown[24];
		const char *name = record__name((uint32_t)t);

		if (!st->nr_events[t])
			continue;
		if (!name) {
			snprintf(unknown, sizeof(unknown), "UNKNOWN(%d)", t);
			name = unknown;
		}
		fprintf(f, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name, st->nr_events[t],
			100.0 * (double)st->nr_events[t] / (double)total);
	}
}

int report_dump__print(FILE *f, const char *perf_path)
{
	struct dump d = {
		.tool = { .sz = sizeof(d.tool), .sample = dump__sample, .event = dump__sample,
			  .user_event = dump__user, .auxtrace = dump__auxtrace },
		.f = f, .path = perf_path,
	};
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct perf_session *s = perf_session__new(perf_path, &opts);
	int err;

	if (!s) {
		err = -errno;
		auxrec_file_error(perf_path, "cannot read it as perf.data", err);
		return err;
	}
	err = perf_session__process_events(s, &d.tool);
	if (err < 0)
		auxrec_file_error(perf_path, "reading stopped", err);
	else
		dump__stats(f, perf_session__stats(s));
	perf_session__delete(s);
	return err < 0 ? err : 0;
}
