// SPDX-License-Identifier: LGPL-2.1
/* auxrec report --html's flame chart: its data and script (report-flame.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/decode.h>
#include <auxtrace/itrace.h>
#include <auxtrace/machine.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <tracefs/auxtrace-recording.h>

#include "call-slices.h"
#include "convert-json.h"
#include "report-flame.h"

extern const char report_html_flame_js[];

/* A slice kept for the page. */
struct flame_slice {
	uint64_t start, dur;
	uint32_t thread, depth;
	const char *sym;	/* the machine's; NULL: addr */
	uint64_t addr;
	uint8_t how;
};

struct flame {
	struct perf_machine *machine;
	uint64_t min_dur;		/* shorter: less than a pixel of the whole view */
	struct flame_slice *heap;	/* the longest so far, shortest first */
	size_t nr;
	uint64_t total, dropped;
	struct { int pid, tid; } *threads;
	size_t nr_threads;
};

static int flame__thread(struct flame *fl, int pid, int tid, uint32_t *idx)
{
	void *grown;

	for (size_t i = 0; i < fl->nr_threads; i++) {
		if (fl->threads[i].tid == tid) {
			*idx = (uint32_t)i;
			return 0;
		}
	}
	grown = reallocarray(fl->threads, fl->nr_threads + 1, sizeof(*fl->threads));
	if (!grown)
		return -ENOMEM;
	fl->threads = grown;
	fl->threads[fl->nr_threads].pid = pid;
	fl->threads[fl->nr_threads].tid = tid;
	*idx = (uint32_t)fl->nr_threads++;
	return 0;
}

static void flame__sift_down(struct flame *fl, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct flame_slice t;

		if (l < fl->nr && fl->heap[l].dur < fl->heap[m].dur)
			m = l;
		if (l + 1 < fl->nr && fl->heap[l + 1].dur < fl->heap[m].dur)
			m = l + 1;
		if (m == i)
			return;
		t = fl->heap[i];
		fl->heap[i] = fl->heap[m];
		fl->heap[m] = t;
		i = m;
	}
}

static void flame__sift_up(struct flame *fl, size_t i)
{
	while (i && fl->heap[(i - 1) / 2].dur > fl->heap[i].dur) {
		struct flame_slice t = fl->heap[i];

		fl->heap[i] = fl->heap[(i - 1) / 2];
		fl->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* A slice ended: kept when it is long enough and among the budget's longest. */
static int flame__slice(void *ctx, const struct call_slice *s)
{
	struct flame *fl = ctx;
	struct flame_slice k = { .start = s->start, .dur = s->end - s->start, .depth = s->depth,
				 .sym = s->sym, .addr = s->addr, .how = (uint8_t)s->how };
	int err;

	fl->total++;
	if (k.dur < fl->min_dur || (fl->nr == REPORT_FLAME_BUDGET && k.dur <= fl->heap[0].dur)) {
		fl->dropped++;
		return 0;
	}
	err = flame__thread(fl, s->pid, s->tid, &k.thread);
	if (err)
		return err;
	if (fl->nr == REPORT_FLAME_BUDGET) {	/* the shortest kept makes room */
		fl->dropped++;
		fl->heap[0] = k;
		flame__sift_down(fl, 0);
		return 0;
	}
	fl->heap[fl->nr++] = k;
	flame__sift_up(fl, fl->nr - 1);
	return 0;
}

struct flame_walk {
	struct flame *fl;
	struct call_slices *cs;
};

static int flame__record(void *ctx, const struct timeline_record *rec)
{
	struct flame_walk *w = ctx;

	if (rec->kind == TIMELINE_PERF_EVENT)
		return perf_machine__process_event(w->fl->machine, rec->perf.event,
						   rec->perf.sample);
	if (rec->kind == TIMELINE_AUX_SAMPLE && rec->time != TIMELINE_NO_TIME)
		return call_slices__sample(w->cs, rec->aux.sample, rec->time);
	return 0;
}

/* Decode path's calls and returns into fl. 0, 1 when it cannot be read, or -errno. */
static int flame__read(struct flame *fl, const char *path)
{
	AUXTRACE_OPTS(itrace_synth_opts, itrace, .default_no_sample = true);
	AUXTRACE_OPTS(perf_session_opts, session_opts, .itrace_synth_opts = &itrace,
		      .decoders = auxtrace_decoders__builtin());
	AUXTRACE_OPTS(auxtrace_recording_opts, opts, .session = &session_opts, .no_ftrace = true);
	struct auxtrace_recording *rec;
	struct flame_walk w = { .fl = fl };
	int err;

	if (itrace_do_parse_synth_opts(&itrace, "cr", 0))
		return -EINVAL;
	rec = auxtrace_recording__open(path, &opts);
	if (!rec)
		return 1;
	w.cs = call_slices__new(fl->machine, flame__slice, fl);
	err = w.cs ? timeline__process(auxtrace_recording__timeline(rec), flame__record, &w)
		   : -ENOMEM;
	if (!err)
		err = call_slices__finish(w.cs);
	call_slices__delete(w.cs);
	auxtrace_recording__close(rec);
	return err == -ENOMEM ? err : err ? 1 : 0;
}

static int flame_slice__cmp(const void *a, const void *b)
{
	const struct flame_slice *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)		/* the caller first */
		return x->dur > y->dur ? -1 : 1;
	/* a call entered before the trace holds the calls that start with it */
	if ((x->how == CALL_SLICE_PAST_START) != (y->how == CALL_SLICE_PAST_START))
		return x->how == CALL_SLICE_PAST_START ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/*
 * Without the recording's span up front (AUX data alone has no timed record for the report),
 * a pixel of the whole view is known once the calls are: the kept slices' extent.
 */
static void flame__level_of_detail(struct flame *fl)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t n = 0;

	for (size_t i = 0; i < fl->nr; i++) {
		lo = fl->heap[i].start < lo ? fl->heap[i].start : lo;
		hi = fl->heap[i].start + fl->heap[i].dur > hi ? fl->heap[i].start + fl->heap[i].dur
							       : hi;
	}
	if (hi > lo && (hi - lo) / REPORT_FLAME_PIXELS > fl->min_dur)
		fl->min_dur = (hi - lo) / REPORT_FLAME_PIXELS;
	for (size_t i = 0; i < fl->nr; i++)
		if (fl->heap[i].dur >= fl->min_dur)
			fl->heap[n++] = fl->heap[i];
	fl->dropped += fl->nr - n;
	fl->nr = n;
}

/* The slices as the script reads them (its format is described in report-html-flame.js). */
static void flame__json(FILE *f, struct flame *fl, uint64_t origin)
{
	char addr[24];

	flame__level_of_detail(fl);
	qsort(fl->heap, fl->nr, sizeof(*fl->heap), flame_slice__cmp);
	fprintf(f, "<script type=\"application/json\" id=\"flame-data\">\n{\"minNs\":%" PRIu64
		",\"total\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"budget\":%d,\"threads\":[",
		fl->min_dur, fl->total, fl->dropped, REPORT_FLAME_BUDGET);
	for (size_t i = 0; i < fl->nr_threads; i++) {
		fprintf(f, "%s[%d,%d,", i ? "," : "", fl->threads[i].pid, fl->threads[i].tid);
		json__str(f, perf_machine__comm(fl->machine, fl->threads[i].tid), SIZE_MAX);
		fputc(']', f);
	}
	/* [thread, start, dur, name, how] */
	fputs("],\n\"slices\":[", f);
	for (size_t i = 0; i < fl->nr; i++) {
		const struct flame_slice *s = &fl->heap[i];

		snprintf(addr, sizeof(addr), "0x%" PRIx64, s->addr);
		fprintf(f, "%s\n[%u,%" PRId64 ",%" PRIu64 ",", i ? "," : "", s->thread,
			(int64_t)(s->start - origin), s->dur);
		json__str(f, s->sym ?: addr, SIZE_MAX);
		fprintf(f, ",%u]", s->how);
	}
	fputs("]}\n</script>\n", f);
}

int report_flame__write(FILE *f, const struct report_model *m)
{
	const char *path = m->info[REPORT_INFO_DATA_DIR], *mode = m->info[REPORT_INFO_MODE];
	uint64_t span = m->has_span ? m->end_ns - m->start_ns : 0;
	struct flame fl = { .min_dur = span / REPORT_FLAME_PIXELS };
	struct stat st;
	int err;

	if (!path || !mode || !strstr(mode, "AUX") || stat(path, &st))
		return 0;
	fl.machine = perf_machine__new(NULL);
	fl.heap = malloc(REPORT_FLAME_BUDGET * sizeof(*fl.heap));
	err = fl.machine && fl.heap ? flame__read(&fl, path) : -ENOMEM;
	if (err >= 0 && fl.total) {
		fputs("<section id=\"flame\">\n<h2>Calls over time (Intel PT / BTS)</h2>\n", f);
		if (err)
			fputs("<p>The AUX trace could not be decoded to its end.</p>\n", f);
		flame__json(f, &fl, report_model__origin(m));
		fprintf(f, "<script>\n%s</script>\n</section>\n", report_html_flame_js);
		err = 0;
	}
	perf_machine__delete(fl.machine);
	free(fl.heap);
	free(fl.threads);
	return err > 0 ? 0 : err;
}
