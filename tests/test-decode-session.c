// SPDX-License-Identifier: LGPL-2.1
/*
 * The session decoders (auxtrace_decoders__builtin) through perf_session, on files built
 * by hand (tests/lib/perf-data-file.h) around code gcc builds at run time (asm-elf.h):
 * Intel PT decoded across AUXTRACE buffers cut anywhere, in time order with samples and
 * side-band over two CPUs, a mapping that arrives late, instruction samples, a pipe; Intel
 * BTS under perf's itrace options; AUX buffers mapped only while they are decoded.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/evsel.h>
#include <auxtrace/itrace.h>
#include <auxtrace/session.h>
#include <auxtrace/timeline.h>
#include <internal/auxtrace-info.h>

#include "lib/asm-elf.h"
#include "lib/aux-payload.h"
#include "lib/log-capture.h"
#include "lib/perf-data-file.h"
#include "lib/testlib.h"

#define BASE		0x7f1234500000ULL	/* where the code is "loaded" */
#define CALLER		(BASE - 0x1000)		/* where f returns to: outside the code */
#define PT_TYPE		8
#define BTS_TYPE	9
#define TSC_BIT		(1ULL << 10)
#define PID		4242
#define AUX_ID		100
#define CLOCK_ID	200
/* side-band and AUX records: pid/tid, time, CPU, and the ID last */
#define ST		(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU)
#define F_BRANCHES	7

/* ---- what the tool is handed ---- */

struct seen {
	char kind;		/* B branch, I instructions, E error, S sample, M mmap */
	uint64_t time, ip, addr, period, aux_offset;
	uint32_t flags;
	int pid, tid, cpu, perf_code;
	uint64_t sample_type;	/* of the event a synthesized sample belongs to */
	char name[32];
	char msg[128];
};

struct collector {
	struct perf_tool tool;
	struct seen s[512];
	int n;
	bool mmaps;		/* note MMAP2 records too */
	const char *file;	/* count its mappings while decoding */
	int maps, max_maps;
};

static struct collector *collector_of(struct perf_tool *tool)
{
	return (struct collector *)tool;
}

static struct seen *collector__next(struct collector *c, char kind)
{
	struct seen *s;

	ck_assert_int_lt(c->n, (int)(sizeof(c->s) / sizeof(c->s[0])));
	s = &c->s[c->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	return s;
}

/* Mappings of the recording now: the session's, and AUX buffers being decoded. */
static int file_mappings(const char *file)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, file) != NULL;
	if (f)
		fclose(f);
	return n;
}

static int collector__auxtrace_sample(struct perf_tool *tool, struct perf_session *session,
				      const struct auxtrace_sample *sample, struct evsel *evsel)
{
	struct collector *c = collector_of(tool);
	struct seen *s = collector__next(c, sample->kind == AUXTRACE_SAMPLE_BRANCH ? 'B' : 'I');

	(void)session;
	s->time = sample->time;
	s->ip = sample->ip;
	s->addr = sample->addr;
	s->period = sample->period;
	s->flags = sample->flags;
	s->pid = sample->pid;
	s->tid = sample->tid;
	s->cpu = sample->cpu;
	s->sample_type = evsel__attr(evsel)->sample_type;
	snprintf(s->name, sizeof(s->name), "%s", evsel__name(evsel));
	if (c->file) {
		c->maps = file_mappings(c->file);
		if (c->maps > c->max_maps)
			c->max_maps = c->maps;
	}
	return 0;
}

static int collector__auxtrace_error(struct perf_tool *tool, struct perf_session *session,
				     const struct auxtrace_decode_error *err, struct evsel *evsel)
{
	struct seen *s = collector__next(collector_of(tool), 'E');

	(void)session;
	(void)evsel;
	s->time = err->time;
	s->ip = err->ip;
	s->pid = err->pid;
	s->tid = err->tid;
	s->cpu = err->cpu;
	s->perf_code = err->perf_code;
	s->aux_offset = err->aux_offset;
	snprintf(s->msg, sizeof(s->msg), "%s", err->msg);
	return 0;
}

static int collector__sample(struct perf_tool *tool, struct perf_session *session,
			     union perf_event *event, struct perf_sample *sample,
			     struct evsel *evsel)
{
	struct seen *s = collector__next(collector_of(tool), 'S');

	(void)session;
	(void)event;
	(void)evsel;
	s->time = sample->time;
	s->ip = sample->ip;
	return 0;
}

static int collector__event(struct perf_tool *tool, struct perf_session *session,
			    union perf_event *event, struct perf_sample *sample,
			    struct evsel *evsel)
{
	(void)session;
	(void)evsel;
	if (event->header.type == PERF_RECORD_MMAP2 && collector_of(tool)->mmaps)
		collector__next(collector_of(tool), 'M')->time = sample->time;
	return 0;
}

/*
 * Read a recording (path, or fd when path is NULL) with the library's decoders and synth
 * into c. Returns process_events' result.
 */
static unsigned int decode_threads;	/* the sessions' perf_session_opts.decode_threads */

static int collect_with(const char *path, int fd, const struct itrace_synth_opts *synth,
			struct collector *c)
{
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = auxtrace_decoders__builtin(),
		      .itrace_synth_opts = synth, .decode_threads = decode_threads);
	struct perf_session *s;
	int err;

	c->tool = (struct perf_tool){
		.sz = sizeof(c->tool), .ordered_events = true,
		.sample = collector__sample, .event = collector__event,
		.auxtrace_sample = collector__auxtrace_sample,
		.auxtrace_error = collector__auxtrace_error,
	};
	c->n = 0;
	s = path ? perf_session__new(path, &opts) : perf_session__new_fd(fd, &opts);
	ck_assert_msg(s, "session: %s", strerror(errno));
	err = perf_session__process_events(s, &c->tool);
	perf_session__delete(s);
	return err;
}

/* collect_with the --itrace string itrace (NULL: perf script's defaults). */
static int collect(const char *path, int fd, const char *itrace, struct collector *c)
{
	AUXTRACE_OPTS(itrace_synth_opts, synth, .default_no_sample = true);

	if (itrace)
		ck_assert_int_eq(itrace_do_parse_synth_opts(&synth, itrace, 0), 0);
	return collect_with(path, fd, &synth, c);
}

/* ---- recordings ---- */

struct fixture {
	struct asm_elf elf;
	char path[96];
	int fd;
};

static struct fixture fx;

static uint64_t sym(const char *name)
{
	uint64_t addr = asm_elf__sym(&fx.elf, name);

	ck_assert_msg(addr, "no label %s", name);
	return addr;
}

static void fixture_setup(void)
{
	memset(&fx, 0, sizeof(fx));
	fx.fd = -1;
	if (asm_elf__build(&fx.elf, asm_elf_sample, BASE))
		return;		/* each test skips */
	snprintf(fx.path, sizeof(fx.path), "%s/rec.data", fx.elf.dir);
}

static void fixture_teardown(void)
{
	if (fx.fd >= 0)
		close(fx.fd);
	if (fx.path[0])
		unlink(fx.path);
	asm_elf__remove(&fx.elf);
}

#define REQUIRE_CODE()							\
	do {								\
		if (!fx.path[0])					\
			TEST_SKIP("gcc cannot build the test code");	\
	} while (0)

/* A side-band record's sample_id trailer for ST. */
struct trailer {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t id;
};

static struct trailer trailer(int tid, uint64_t time, int cpu)
{
	return (struct trailer){ PID, (uint32_t)tid, time, (uint32_t)cpu, 0, CLOCK_ID };
}

/*
 * A recording of the traced code in process PID: the AUX event (PT or BTS type; config
 * with tsc when timed), a cpu-clock event for samples, AUXTRACE_INFO, the COMM.
 */
static struct pd_file *recording_start(bool pt, bool timed, bool per_cpu, bool pipe)
{
	struct perf_event_attr aux = {
		.type = pt ? PT_TYPE : BTS_TYPE, .config = timed ? TSC_BIT : 0,
		.sample_type = ST, .sample_id_all = 1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	struct perf_event_attr clock = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD, .sample_id_all = 1,
	};
	uint64_t aux_id = AUX_ID, clock_id = CLOCK_ID;
	struct {
		struct perf_event_header h;
		uint32_t type, reserved;
		uint64_t priv[INTEL_PT_PRIV_NR];
	} info = { { PERF_RECORD_AUXTRACE_INFO, 0, sizeof(info) },
		   pt ? PERF_AUXTRACE_INTEL_PT : PERF_AUXTRACE_INTEL_BTS };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[8];
		struct trailer t;
	} comm = { { PERF_RECORD_COMM, 0, sizeof(comm) }, PID, PID, "traced",
		   trailer(PID, 0, 0) };
	struct pd_file *f;

	fx.fd = open(fx.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fx.fd, 0);
	f = pd_file__new(fx.fd, pipe);
	pd_file__add_attr(f, &aux, &aux_id, 1);
	pd_file__add_attr(f, &clock, &clock_id, 1);
	pd_file__start(f);
	/* the same words in both layouts: time = tsc (shift 0, mult 1) */
	info.priv[INTEL_PT_PMU_TYPE] = pt ? PT_TYPE : BTS_TYPE;
	info.priv[INTEL_PT_TIME_MULT] = 1;
	info.priv[INTEL_PT_CAP_USER_TIME_ZERO] = 1;
	if (pt) {
		info.priv[INTEL_PT_TSC_BIT] = TSC_BIT;
		info.priv[INTEL_PT_PER_CPU_MMAPS] = per_cpu;
	} else {
		info.h.size = sizeof(info.h) + 8 + INTEL_BTS_PRIV_NR * sizeof(uint64_t);
	}
	pd_file__record(f, &info);
	pd_file__record(f, &comm);
	return f;
}

/* The code's executable segment, mapped in PID at time. */
static void recording_mmap(struct pd_file *f, uint64_t time)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
		char filename[128];
		struct trailer t;
	} mm = { { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, sizeof(mm) }, PID, PID,
		 fx.elf.start, fx.elf.len, fx.elf.pgoff, 0, 0, 0, 0, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE, "", trailer(PID, time, 0) };

	ck_assert_uint_lt(strlen(fx.elf.path), sizeof(mm.filename));
	strcpy(mm.filename, fx.elf.path);
	pd_file__record(f, &mm);
}

static void recording_sample(struct pd_file *f, uint64_t time, int cpu)
{
	struct {
		struct perf_event_header h;
		uint64_t identifier, ip;
		uint32_t pid, tid;
		uint64_t time;
		uint32_t cpu, res;
		uint64_t period;
	} s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, CLOCK_ID,
		BASE + 1, PID, PID, time, (uint32_t)cpu, 0, 1000 };

	pd_file__record(f, &s);
}

static void recording_itrace_start(struct pd_file *f, int tid, int cpu, uint64_t time)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		struct trailer t;
	} it = { { PERF_RECORD_ITRACE_START, 0, sizeof(it) }, PID, (uint32_t)tid,
		 trailer(tid, time, cpu) };

	it.t.id = AUX_ID;
	pd_file__record(f, &it);
}

static void recording_finish(struct pd_file *f)
{
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };

	pd_file__record(f, &round);
	pd_file__finish(f, true);
}

/* f's branches, from sample first on, as its trace says it ran. */
static void assert_f_branches(const struct collector *c, int first)
{
	static const char *const from[F_BRANCHES] = { NULL, "f_jnz", "f_jz", "f_jnz", "f_call",
						      "g_ret", "f_ret" };
	static const char *const to[F_BRANCHES] = { "f", "f_top", "f_even", "f_top", "g",
						    "f_ret", NULL };

	for (int i = 0; i < F_BRANCHES; i++) {
		const struct seen *s = &c->s[first + i];
		uint64_t want_from = from[i] ? sym(from[i]) : 0, want_to = to[i] ? sym(to[i])
										   : CALLER;

		ck_assert_msg(first + i < c->n && s->kind == 'B' && s->ip == want_from &&
			      s->addr == want_to, "sample %d: %c %#llx -> %#llx, want %#llx -> "
			      "%#llx", first + i, s->kind, (unsigned long long)s->ip,
			      (unsigned long long)s->addr, (unsigned long long)want_from,
			      (unsigned long long)want_to);
	}
}

/* ---- Intel PT ---- */

/*
 * Two calls of f in one stream, cut into AUXTRACE buffers at every byte, and every way
 * into three: each cut is decoded as if there were none, the second buffer starting
 * inside a packet or a PSB included.
 */
START_TEST(test_pt_cut_anywhere)
{
	struct pt_stream pt = { .len = 0 };
	struct collector *c = calloc(1, sizeof(*c));

	REQUIRE_CODE();
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 1000), 0);
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 2000), 0);
	for (size_t a = 1; a < pt.len; a++) {
		for (size_t b = a; b < pt.len; b += b == a ? 1 : pt.len) {
			struct pd_file *f = recording_start(true, false, false, false);

			recording_mmap(f, 0);
			pd_file__auxtrace(f, 0, -1, PID, 0, 0, pt.buf, a);
			if (b > a)
				pd_file__auxtrace(f, 0, -1, PID, a, 0, pt.buf + a, b - a);
			pd_file__auxtrace(f, 0, -1, PID, b, 0, pt.buf + b, pt.len - b);
			recording_finish(f);
			close(fx.fd);
			fx.fd = -1;
			ck_assert_int_eq(collect(fx.path, -1, "b", c), 0);
			ck_assert_msg(c->n == 2 * F_BRANCHES, "cut at %zu and %zu: %d samples",
				      a, b, c->n);
			assert_f_branches(c, 0);
			assert_f_branches(c, F_BRANCHES);
		}
	}
	free(c);
}
END_TEST

/*
 * Two CPUs, samples between their trace, and the code mapped only after CPU 0's trace:
 * everything reaches the tool in time order, CPU 0's trace finds no code (what was mapped
 * later cannot have run then), CPU 1's is decoded, with the thread ITRACE_START named.
 */
/*
 * Intel PT on two CPUs: CPU 0's trace begins at 1000 in code not mapped yet (an error), the
 * mapping at 1300, samples at 1400 and 1700, CPU 1's trace of f at 1500.
 */
static void pt_two_cpus_recording(void)
{
	struct pt_stream unit0 = { .len = 0 }, unit1 = { .len = 0 };
	struct pd_file *f;

	ck_assert_int_eq(pt_stream__f_unit(&unit0, sym("f"), CALLER, 1000), 0);
	ck_assert_int_eq(pt_stream__f_unit(&unit1, sym("f"), CALLER, 1500), 0);
	f = recording_start(true, true, true, false);
	recording_itrace_start(f, PID, 0, 10);
	recording_itrace_start(f, PID + 1, 1, 10);
	/*
	 * In file order as a recorder drains: both rings' records, then both AUX areas. No
	 * record between CPU 0's trace and the mapping: the trace older than the mapping is
	 * decoded before it applies, whatever comes first otherwise.
	 */
	recording_mmap(f, 1300);
	recording_sample(f, 1400, 0);
	recording_sample(f, 1700, 0);
	pd_file__auxtrace(f, 0, 0, PID, 0, 0, unit0.buf, unit0.len);
	pd_file__auxtrace(f, 1, 1, PID, 0, 0, unit1.buf, unit1.len);
	recording_finish(f);
}

START_TEST(test_pt_time_order)
{
	struct collector *c = calloc(1, sizeof(*c));
	static const char order[] = "BEMSBBBBBBBS";

	REQUIRE_CODE();
	pt_two_cpus_recording();
	c->mmaps = true;
	ck_assert_int_eq(collect(fx.path, -1, "be", c), 0);

	ck_assert_int_eq(c->n, (int)strlen(order));
	for (int i = 0; i < c->n; i++)
		ck_assert_msg(c->s[i].kind == order[i], "record %d is %c, want %c (%s)", i,
			      c->s[i].kind, order[i], order);
	ck_assert_uint_eq(c->s[0].time, 1000);		/* trace begins, at f ... */
	ck_assert_uint_eq(c->s[0].addr, sym("f"));
	ck_assert_int_eq(c->s[0].tid, PID);
	ck_assert_int_eq(c->s[0].cpu, 0);
	ck_assert_msg(strstr(c->s[1].msg, "no code"), "%s", c->s[1].msg);	/* ... unmapped */
	ck_assert_int_eq(c->s[1].perf_code, 5);
	ck_assert_uint_eq(c->s[2].time, 1300);
	ck_assert_uint_eq(c->s[3].time, 1400);
	for (int i = 4; i < 4 + F_BRANCHES; i++) {
		ck_assert_uint_eq(c->s[i].time, 1500);
		ck_assert_int_eq(c->s[i].cpu, 1);
		ck_assert_int_eq(c->s[i].pid, PID);
		ck_assert_int_eq(c->s[i].tid, PID + 1);
	}
	assert_f_branches(c, 4);
	ck_assert_uint_eq(c->s[11].time, 1700);
	/* perf's event: a hardware "branches" with the AUX event's exclusions, time and CPU */
	ck_assert_str_eq(c->s[4].name, "branches:u");
	ck_assert_uint_eq(c->s[4].sample_type & (PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
						 PERF_SAMPLE_ADDR),
			  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_ADDR);
	free(c);
}
END_TEST

/* A stream beside the session: records at the times in times[], on perf's clock. */
struct times_stream {
	const uint64_t *times;
	int nr, at;
};

static int times_stream__next(void *ctx, struct timeline_record *rec)
{
	struct times_stream *ts = ctx;

	if (ts->at == ts->nr)
		return 0;
	rec->time = ts->times[ts->at++];
	return 1;
}

struct kinds {
	char s[64];
	int n;
};

static int kinds__record(void *ctx, const struct timeline_record *rec)
{
	struct kinds *k = ctx;
	char kind = 0;

	switch (rec->kind) {
	case TIMELINE_AUX_SAMPLE:
		kind = rec->aux.sample->kind == AUXTRACE_SAMPLE_BRANCH ? 'B' : 'I';
		ck_assert_uint_eq(rec->time, rec->aux.sample->time);
		ck_assert_int_eq(rec->tid, rec->aux.sample->tid);
		ck_assert_str_eq(evsel__name(rec->aux.evsel), "branches:u");
		break;
	case TIMELINE_AUX_ERROR:
		kind = 'E';
		ck_assert_int_eq(rec->cpu, rec->aux_error.err->cpu);
		break;
	case TIMELINE_PERF_SAMPLE:
		kind = 'S';
		break;
	case TIMELINE_PERF_EVENT:
		kind = rec->perf.event->header.type == PERF_RECORD_MMAP2 ? 'M' : 0;
		break;
	case TIMELINE_STREAM:
		kind = 'F';
		break;
	case TIMELINE_PERF_USER:
		ck_assert_ptr_null(rec->perf.sample);
		ck_assert_uint_eq(rec->time, TIMELINE_NO_TIME);
		kind = rec->perf.event->header.type == PERF_RECORD_AUXTRACE_INFO ? 'n' :
		       rec->perf.event->header.type == PERF_RECORD_AUXTRACE ? 'a' : 0;
		break;
	default:
		ck_abort_msg("kind %d", rec->kind);
	}
	if (kind && k->n < (int)sizeof(k->s) - 1)
		k->s[k->n++] = kind;
	return 0;
}

/*
 * The same recording through a timeline, with a stream of records at 1200 and 1600: the
 * AUX samples and errors come out as the session's tool gets them, the stream's records
 * between them by time.
 */
START_TEST(test_pt_timeline)
{
	static const uint64_t times[] = { 1200, 1600 };
	struct times_stream ts = { .times = times, .nr = 2 };
	AUXTRACE_OPTS(itrace_synth_opts, synth, .default_no_sample = true);
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = auxtrace_decoders__builtin(),
		      .itrace_synth_opts = &synth);
	AUXTRACE_OPTS(timeline_stream, st, .name = "times", .clock = "perf",
		      .next = times_stream__next, .ctx = &ts);
	struct perf_session *s;
	struct timeline *tl;
	struct kinds k = { 0 };

	REQUIRE_CODE();
	pt_two_cpus_recording();
	ck_assert_int_eq(itrace_do_parse_synth_opts(&synth, "be", 0), 0);
	s = perf_session__new(fx.path, &opts);
	ck_assert_ptr_nonnull(s);
	tl = timeline__new(s, NULL);
	ck_assert_ptr_nonnull(tl);
	ck_assert_int_eq(timeline__add_stream(tl, &st), 0);
	ck_assert_int_eq(timeline__process(tl, kinds__record, &k), 0);
	ck_assert_str_eq(k.s, "BEFMSBBBBBBBFS");
	ck_assert_uint_eq(timeline__stats(tl)->nr[TIMELINE_AUX_SAMPLE], 8);
	ck_assert_uint_eq(timeline__stats(tl)->nr[TIMELINE_AUX_ERROR], 1);
	ck_assert_uint_eq(timeline__stats(tl)->nr_unordered, 0);
	ck_assert_uint_eq(timeline__stats(tl)->nr[TIMELINE_PERF_USER], 0);
	timeline__delete(tl);
	perf_session__delete(s);
}
END_TEST

/*
 * With user_records, the user records come too, where they were read: the AUXTRACE_INFO
 * first, each AUXTRACE before the samples decoded from its buffer.
 */
START_TEST(test_pt_timeline_user_records)
{
	AUXTRACE_OPTS(itrace_synth_opts, synth, .default_no_sample = true);
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = auxtrace_decoders__builtin(),
		      .itrace_synth_opts = &synth);
	AUXTRACE_OPTS(timeline_opts, tlo, .user_records = true);
	struct perf_session *s;
	struct timeline *tl;
	struct kinds k = { 0 };

	REQUIRE_CODE();
	pt_two_cpus_recording();
	ck_assert_int_eq(itrace_do_parse_synth_opts(&synth, "be", 0), 0);
	s = perf_session__new(fx.path, &opts);
	ck_assert_ptr_nonnull(s);
	tl = timeline__new(s, &tlo);
	ck_assert_ptr_nonnull(tl);
	ck_assert_int_eq(timeline__process(tl, kinds__record, &k), 0);
	ck_assert_str_eq(k.s, "naaBEMSBBBBBBBS");
	ck_assert_uint_ge(timeline__stats(tl)->nr[TIMELINE_PERF_USER], 3);
	timeline__delete(tl);
	perf_session__delete(s);
}
END_TEST

/* The instruction samples c holds: at these labels, with these periods. */
static void assert_insn_samples(const struct collector *c, const char *const *at,
				const uint64_t *period, int n)
{
	int got = 0;

	for (int i = 0; i < c->n; i++) {
		if (c->s[i].kind != 'I')
			continue;
		ck_assert_int_lt(got, n);
		ck_assert_msg(c->s[i].ip == sym(at[got]) && c->s[i].period == period[got],
			      "instruction sample %d at %#llx after %llu, want %s after %llu", got,
			      (unsigned long long)c->s[i].ip, (unsigned long long)c->s[i].period,
			      at[got], (unsigned long long)period[got]);
		got++;
	}
	ck_assert_int_eq(got, n);
}

/* A timeless recording of one trace (TSC 1000 ticks = ns in its TSC conversion). */
static void pt_recording(const struct pt_stream *pt)
{
	struct pd_file *f = recording_start(true, false, false, false);

	recording_mmap(f, 0);
	pd_file__auxtrace(f, 0, -1, PID, 0, 0, pt->buf, pt->len);
	recording_finish(f);
}

/* i<N>i: an instruction sample every N instructions. */
START_TEST(test_pt_instruction_samples)
{
	struct pt_stream pt = { .len = 0 };
	struct collector *c = calloc(1, sizeof(*c));

	REQUIRE_CODE();
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 1000), 0);
	pt_recording(&pt);
	ck_assert_int_eq(collect(fx.path, -1, "i5i", c), 0);
	/* f runs 23 instructions (test-intel-pt-decode's f_path): 4 periods of 5 */
	ck_assert_int_eq(c->n, 4);
	for (int i = 0; i < c->n; i++) {
		ck_assert_int_eq(c->s[i].kind, 'I');
		ck_assert_uint_eq(c->s[i].period, 5);
		ck_assert_str_eq(c->s[i].name, "instructions:u");
		ck_assert_uint_eq(c->s[i].sample_type & PERF_SAMPLE_TIME, 0);	/* timeless */
	}
	ck_assert_uint_eq(c->s[0].ip, sym("f_jz"));	/* the 5th instruction */
	free(c);
}
END_TEST

/*
 * i<N>t and i<N>ns, perf's rule: N ticks rounded down to a power of 2 (ns converted with the
 * TSC conversion, here 1:1), a sample where the trace's time (its TSC, then one tick per
 * instruction) passes a multiple of it, the distance counted afresh after each branch and
 * sample. f's run from TSC 0x1000 gives what perf script gives for the same trace
 * (test-auxrec-script); when the time jumps past a multiple (a later TSC packet), the next
 * instruction is sampled at once.
 */
START_TEST(test_pt_tick_periods)
{
	static const char *const by4[] = { "f_top", "f_jnz", "f_even", "f_jz", "f_call" };
	static const uint64_t by4_period[] = { 3, 5, 4, 4, 4 };
	static const char *const by16[] = { "f_jz", "f_ret" };
	static const uint64_t by16_period[] = { 16, 7 };
	static const char *const itrace[] = { "i4t", "i7t", "i4ns", "i5ns,b" };
	struct pt_packet psb[PT_PSB_PACKETS], call[PT_F_CALL_PACKETS];
	const struct pt_packet later = { .type = ppt_tsc, .payload.tsc.tsc = 0x1040 };
	struct collector *c = calloc(1, sizeof(*c));
	struct pt_stream pt = { .len = 0 };

	REQUIRE_CODE();
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 0x1000), 0);
	pt_recording(&pt);
	for (size_t i = 0; i < sizeof(itrace) / sizeof(itrace[0]); i++) {
		ck_assert_int_eq(collect(fx.path, -1, itrace[i], c), 0);
		assert_insn_samples(c, by4, by4_period, 5);
	}
	ck_assert_int_eq(collect(fx.path, -1, "i5ns,b", c), 0);	/* among the branches */
	ck_assert_int_eq(c->n, 5 + F_BRANCHES);
	ck_assert_int_eq(c->s[1].kind, 'I');		/* at f_top, after the trace begins */
	ck_assert_str_eq(c->s[1].name, "instructions:u");
	ck_assert_int_eq(collect(fx.path, -1, "i16t", c), 0);
	assert_insn_samples(c, by16, by16_period, 1);
	ck_assert_int_eq(collect(fx.path, -1, "i100us", c), 0);	/* f's run is too short */
	ck_assert_int_eq(c->n, 0);
	ck_assert_int_eq(collect(fx.path, -1, "i0ns", c), 0);	/* no period: every one */
	ck_assert_int_eq(c->n, 23);

	/* the time jumps by 0x30 ticks after the loop: libipt has it from f_ret on */
	pt.len = 0;
	pt_packets__psb(psb, 0x1000);
	pt_packets__f_call(call, sym("f"), CALLER);
	for (int i = 0; i < PT_PSB_PACKETS; i++)
		ck_assert_int_eq(pt_stream__put(&pt, &psb[i]), 0);
	ck_assert_int_eq(pt_stream__put(&pt, &call[0]), 0);
	ck_assert_int_eq(pt_stream__put(&pt, &call[1]), 0);
	ck_assert_int_eq(pt_stream__put(&pt, &later), 0);
	for (int i = 2; i < PT_F_CALL_PACKETS; i++)
		ck_assert_int_eq(pt_stream__put(&pt, &call[i]), 0);
	close(fx.fd);
	pt_recording(&pt);
	ck_assert_int_eq(collect(fx.path, -1, "i16t", c), 0);
	assert_insn_samples(c, by16, by16_period, 2);
	free(c);
}
END_TEST

/* Every third instruction of f's run (test-intel-pt-decode's f_path), counted once. */
static void assert_every_third_insn(const struct collector *c)
{
	static const char *const at[] = { "f_top", "f_inc", "f_top", "f_even", "f_test",
					  "f_even", "g_nop" };
	int n = 0;

	for (int i = 0; i < c->n; i++) {
		if (c->s[i].kind != 'I')
			continue;
		ck_assert_int_lt(n, 7);
		ck_assert_msg(c->s[i].ip == sym(at[n]), "instruction sample %d at %#llx, want %s",
			      n, (unsigned long long)c->s[i].ip, at[n]);
		n++;
	}
	ck_assert_int_eq(n, 7);
}

/*
 * A PSB in the middle of f's loop, its FUP where execution is (f_even): libipt decodes the
 * trace before it up to the branch whose outcome comes after it, and the trace after it
 * from f_even again. Cut anywhere, the stream gives what it gives whole: the same branches,
 * and instruction samples at the same places (no instruction counted twice).
 */
START_TEST(test_pt_psb_mid_trace)
{
	struct pt_packet head[PT_PSB_PACKETS + PT_F_CALL_PACKETS], mid[PT_PSB_PACKETS + 1];
	const struct pt_packet first_bits = {
		.type = ppt_tnt_8, .payload.tnt = { .bit_size = 3, .payload = 0x3 } };	/* .!! */
	const struct pt_packet last_bits = {
		.type = ppt_tnt_8, .payload.tnt = { .bit_size = 3, .payload = 0x4 } };	/* !.. */
	struct pt_stream pt = { .len = 0 };
	struct collector *whole = calloc(1, sizeof(*whole)), *c = calloc(1, sizeof(*c));

	REQUIRE_CODE();
	pt_packets__psb(head, 1000);
	pt_packets__f_call(head + PT_PSB_PACKETS, sym("f"), CALLER);
	pt_packets__psb(mid, 2000);
	mid[PT_PSB_PACKETS] = mid[PT_PSB_PACKETS - 1];		/* PSBEND after ... */
	mid[PT_PSB_PACKETS - 1] = (struct pt_packet){ .type = ppt_fup,	/* ... the FUP */
		.payload.ip = { .ipc = pt_ipc_sext_48, .ip = sym("f_even") } };
	for (int i = 0; i <= PT_PSB_PACKETS; i++)
		ck_assert_int_eq(pt_stream__put(&pt, &head[i]), 0);	/* PSB+, TIP.PGE */
	ck_assert_int_eq(pt_stream__put(&pt, &first_bits), 0);
	for (int i = 0; i <= PT_PSB_PACKETS; i++)
		ck_assert_int_eq(pt_stream__put(&pt, &mid[i]), 0);
	ck_assert_int_eq(pt_stream__put(&pt, &last_bits), 0);
	for (int i = PT_PSB_PACKETS + 2; i < PT_PSB_PACKETS + PT_F_CALL_PACKETS; i++)
		ck_assert_int_eq(pt_stream__put(&pt, &head[i]), 0);	/* g's return, TIP.PGD */

	for (size_t cut = 0; cut < pt.len; cut++) {
		struct collector *into = cut ? c : whole;
		struct pd_file *f = recording_start(true, false, false, false);

		recording_mmap(f, 0);
		pd_file__auxtrace(f, 0, -1, PID, 0, 0, pt.buf, cut ? cut : pt.len);
		if (cut)
			pd_file__auxtrace(f, 0, -1, PID, cut, 0, pt.buf + cut, pt.len - cut);
		recording_finish(f);
		close(fx.fd);
		fx.fd = -1;
		ck_assert_int_eq(collect(fx.path, -1, "bi3i", into), 0);
		if (!cut) {
			/* f's 23 instructions: 7 samples of 3, and f's branches */
			ck_assert_int_eq(whole->n, F_BRANCHES + 7);
			assert_every_third_insn(whole);
			continue;
		}
		ck_assert_int_eq(c->n, whole->n);
		for (int i = 0; i < c->n; i++)
			ck_assert_msg(c->s[i].kind == whole->s[i].kind &&
				      c->s[i].ip == whole->s[i].ip && c->s[i].addr == whole->s[i].addr,
				      "cut at %zu: sample %d is %c %#llx, want %c %#llx", cut, i,
				      c->s[i].kind, (unsigned long long)c->s[i].ip, whole->s[i].kind,
				      (unsigned long long)whole->s[i].ip);
	}
	for (int i = 0, b = 0; i < whole->n; i++) {
		if (whole->s[i].kind == 'B')
			whole->s[b++] = whole->s[i];
		whole->n = i == whole->n - 1 ? b : whole->n;
	}
	assert_f_branches(whole, 0);
	free(whole);
	free(c);
}
END_TEST

/* collect what the recording fx.fd holds, read from a pipe that a child writes it into. */
static int collect_piped(const char *itrace, struct collector *c)
{
	int p[2], err;
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		char buf[4096];
		ssize_t n;

		close(p[0]);
		lseek(fx.fd, 0, SEEK_SET);
		while ((n = read(fx.fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	err = collect(NULL, p[0], itrace, c);
	close(p[0]);
	waitpid(pid, NULL, 0);
	return err;
}

/* The pipe format through a pipe: payloads copied as they stream by, decoded alike. */
START_TEST(test_pt_pipe)
{
	struct pt_stream pt = { .len = 0 };
	struct collector *c = calloc(1, sizeof(*c));
	size_t cut;
	struct pd_file *f;

	REQUIRE_CODE();
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 1000), 0);
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 2000), 0);
	cut = pt.ret_tnt - 3;		/* inside the second unit's TIP.PGE */
	f = recording_start(true, false, false, true);
	recording_mmap(f, 0);
	pd_file__auxtrace(f, 0, -1, PID, 0, 0, pt.buf, cut);
	pd_file__auxtrace(f, 0, -1, PID, cut, 0, pt.buf + cut, pt.len - cut);
	recording_finish(f);
	ck_assert_int_eq(collect_piped("b", c), 0);
	ck_assert_int_eq(c->n, 2 * F_BRANCHES);
	assert_f_branches(c, 0);
	assert_f_branches(c, F_BRANCHES);
	free(c);
}
END_TEST

/*
 * Intel PT on three threads through a pipe: payloads held as copies, decoded at the end (no
 * timestamps), the same samples as on one thread. Each payload is two calls of f, the
 * first a piece in the payload's own copy that a worker may decode while the caller's
 * thread goes on: the copy must live until that piece is handed out.
 */
START_TEST(test_pt_pipe_threads)
{
	struct collector *one = calloc(1, sizeof(*one)), *three = calloc(1, sizeof(*three));
	struct pt_stream pt = { .len = 0 };
	uint64_t offset = 0;
	struct pd_file *f;

	REQUIRE_CODE();
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 1000), 0);
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 2000), 0);
	f = recording_start(true, false, false, true);
	recording_mmap(f, 0);
	for (int i = 0; i < 30; i++, offset += (pt.len + 7) & ~7ULL)
		pd_file__auxtrace(f, 0, -1, PID, offset, 0, pt.buf, pt.len);
	recording_finish(f);
	ck_assert_int_eq(collect_piped("b", one), 0);
	decode_threads = 3;
	ck_assert_int_eq(collect_piped("b", three), 0);
	decode_threads = 0;
	ck_assert_int_eq(one->n, 60 * F_BRANCHES);
	ck_assert_int_eq(three->n, one->n);
	for (int i = 0; i < one->n; i++)
		ck_assert_msg(!memcmp(&three->s[i], &one->s[i], sizeof(one->s[i])),
			      "sample %d: %c %#llx -> %#llx, want %c %#llx -> %#llx", i,
			      three->s[i].kind, (unsigned long long)three->s[i].ip,
			      (unsigned long long)three->s[i].addr, one->s[i].kind,
			      (unsigned long long)one->s[i].ip, (unsigned long long)one->s[i].addr);
	for (int i = 0; i < 60; i++)
		assert_f_branches(one, i * F_BRANCHES);
	free(one);
	free(three);
}
END_TEST

/*
 * Many buffers: each is read in place in the session's own mapping of the file, which is
 * the one mapping at any time (test-auxtrace-queues: their pages are given back).
 */
START_TEST(test_buffers_read_in_place)
{
	struct collector *c = calloc(1, sizeof(*c));
	struct pt_stream pt = { .len = 0 };
	uint64_t offset = 0;
	struct pd_file *f;

	REQUIRE_CODE();
	ck_assert_int_eq(pt_stream__f_unit(&pt, sym("f"), CALLER, 1000), 0);
	f = recording_start(true, false, false, false);
	recording_mmap(f, 0);
	for (int i = 0; i < 64; i++, offset += (pt.len + 7) & ~7ULL)
		pd_file__auxtrace(f, 0, -1, PID, offset, 0, pt.buf, pt.len);
	recording_finish(f);
	c->file = fx.path;
	ck_assert_int_eq(collect(fx.path, -1, "b", c), 0);
	ck_assert_int_eq(c->n, 64 * F_BRANCHES);
	ck_assert_int_eq(c->max_maps, 1);
	ck_assert_int_eq(file_mappings(fx.path), 0);	/* the session is gone */
	free(c);
}
END_TEST

/* ---- Intel BTS ---- */

#define CALL_FLAGS (AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL)

/* A begin, a jump, a call, a return, a syscall, code nobody mapped, an end. */
static void bts_recording(void)
{
	struct bts_record r[] = {
		{ 0, sym("f") },
		{ sym("f_jnz"), sym("f_top") },
		{ sym("f_call"), sym("g") },
		{ sym("g_ret"), sym("f_ret") },
		{ sym("x_syscall"), 0xffffffff81000000ULL },
		{ BASE - 0x100, BASE - 0x80 },
		{ sym("f_ret"), 0 },
		{ 0, 0 },		/* perf never decodes a buffer's last record */
	};
	struct pd_file *f = recording_start(false, true, false, false);

	recording_mmap(f, 0);
	pd_file__auxtrace(f, 0, -1, PID, 0, 5000, r, sizeof(r));
	recording_finish(f);
}

/* The kinds of what the tool got, and the first branch's source. */
static void assert_bts(const char *itrace, const char *kinds, uint64_t first_from)
{
	struct collector *c = calloc(1, sizeof(*c));
	char got[64] = "";

	ck_assert_int_eq(collect(fx.path, -1, itrace, c), 0);
	for (int i = 0; i < c->n && i < 63; i++)
		got[i] = c->s[i].kind;
	ck_assert_msg(!strcmp(got, kinds), "--itrace=%s: %s, want %s", itrace ?: "(none)", got,
		      kinds);
	for (int i = 0; i < c->n; i++) {
		if (c->s[i].kind != 'B')
			continue;
		ck_assert_uint_eq(c->s[i].ip, first_from);
		/* perf's BTS branches carry neither time nor CPU */
		ck_assert_uint_eq(c->s[i].sample_type & (PERF_SAMPLE_TIME | PERF_SAMPLE_CPU), 0);
		ck_assert_str_eq(c->s[i].name, "branches:u");
		break;
	}
	free(c);
}

START_TEST(test_bts_itrace_options)
{
	REQUIRE_CODE();
	bts_recording();
	assert_bts("b", "BBBBBBB", 0);
	assert_bts("c", "BBB", sym("f_call"));		/* calls, syscalls, trace end */
	assert_bts("r", "BB", 0);			/* trace begin, returns */
	assert_bts("cr", "BBBBB", 0);
	assert_bts("bs2", "BBBBB", sym("f_call"));	/* the first two skipped */
	assert_bts("i100us,b", "BBBBBBB", 0);		/* branches only, as perf's BTS */
	assert_bts("e", "", 0);		/* as perf: no branches asked for, none looked at */
	assert_bts("be", "BBBBBEBB", 0);		/* the error where it happened */
	assert_bts(NULL, "BBEB", sym("f_call"));	/* perf script's default: ce */
}
END_TEST

START_TEST(test_bts_error)
{
	struct collector *c = calloc(1, sizeof(*c));

	REQUIRE_CODE();
	bts_recording();
	ck_assert_int_eq(collect(fx.path, -1, "be", c), 0);
	ck_assert_int_eq(c->n, 8);
	ck_assert_int_eq(c->s[5].kind, 'E');
	ck_assert_str_eq(c->s[5].msg, "Failed to get instruction");
	ck_assert_int_eq(c->s[5].perf_code, 5);		/* perf's INTEL_BTS_ERR_NOINSN */
	ck_assert_uint_eq(c->s[5].ip, BASE - 0x100);
	ck_assert_uint_eq(c->s[5].aux_offset, 5 * sizeof(struct bts_record));
	ck_assert_int_eq(c->s[5].pid, PID);
	ck_assert_int_eq(c->s[5].tid, PID);
	ck_assert_uint_eq(c->s[6].flags, 0);		/* no code: no kind of branch */
	free(c);
}
END_TEST

/*
 * The session's itrace_synth_opts, read when the decoder is made, follow the rule of every
 * options struct (test-opts.c has it at each entry point): a newer caller's with a field
 * this library does not know fails the decode; with that field 0, or an older caller's
 * smaller struct, the branches come out as always.
 */
START_TEST(test_itrace_opts_sized)
{
	union {
		struct itrace_synth_opts opts;
		unsigned char bytes[sizeof(struct itrace_synth_opts) + 16];
	} caller;
	struct collector *c = calloc(1, sizeof(*c));

	REQUIRE_CODE();
	bts_recording();
	memset(&caller, 0, sizeof(caller));
	caller.opts.sz = sizeof(caller);
	ck_assert_int_eq(itrace_do_parse_synth_opts(&caller.opts, "b", 0), 0);
	caller.bytes[sizeof(caller.opts)] = 1;
	log_capture_start();
	ck_assert_int_eq(collect_with(fx.path, -1, &caller.opts, c), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("struct itrace_synth_opts") &&
		      log_captured("built against a newer libauxtrace"), "%s", log_text);
	caller.bytes[sizeof(caller.opts)] = 0;
	ck_assert_int_eq(collect_with(fx.path, -1, &caller.opts, c), 0);
	ck_assert_int_eq(c->n, 7);
	caller.opts.sz = offsetof(struct itrace_synth_opts, log_on_error_size);
	ck_assert_int_eq(collect_with(fx.path, -1, &caller.opts, c), 0);
	ck_assert_int_eq(c->n, 7);
	free(c);
}
END_TEST

/* ---- the timeline on two threads (timeline_opts.nr_threads) ---- */

/* Everything a timeline's callback saw, as text, and on which thread. */
struct transcript {
	char *text;
	size_t len, size;
	uint64_t records;
	uint64_t stop_at;	/* return -EIO from this record on (1-based; 0: never) */
	pthread_t caller;
	bool other_thread;	/* a callback ran on another thread than the caller's; after
				 * transcribe: the walk ran on another thread */
};

static void transcript__printf(struct transcript *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->size - t->len < 512) {
		t->size = t->size ? 2 * t->size : 1 << 16;
		t->text = realloc(t->text, t->size);
		ck_assert_ptr_nonnull(t->text);
	}
	va_start(ap, fmt);
	n = vsnprintf(t->text + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static int transcript__record(void *ctx, const struct timeline_record *rec)
{
	struct transcript *t = ctx;

	if (!pthread_equal(pthread_self(), t->caller))
		t->other_thread = true;
	if (t->stop_at && ++t->records >= t->stop_at)
		return -EIO;
	transcript__printf(t, "%d %" PRIu64 " %d %d %d %s:", rec->kind, rec->time, rec->cpu,
			   rec->pid, rec->tid, rec->source);
	switch (rec->kind) {
	case TIMELINE_AUX_SAMPLE: {
		const struct auxtrace_sample *a = rec->aux.sample;

		transcript__printf(t, " %s %d %" PRIx64 " %" PRIx64 " %" PRIu64 " %" PRIu64
				   " %x %u %d %d %d %" PRIu64 "\n", evsel__name(rec->aux.evsel),
				   a->kind, a->ip, a->addr, a->time, a->period, a->flags,
				   a->insn_len, a->cpu, a->pid, a->tid, a->aux_offset);
		break;
	}
	case TIMELINE_AUX_ERROR: {
		const struct auxtrace_decode_error *e = rec->aux_error.err;

		transcript__printf(t, " %d %s %" PRIx64 " %" PRIu64 " %d\n", e->kind, e->msg,
				   e->ip, e->aux_offset, e->perf_code);
		break;
	}
	case TIMELINE_STREAM:
		transcript__printf(t, " stream\n");
		break;
	default: {
		const unsigned char *b = (const void *)rec->perf.event;
		const struct perf_sample *ps = rec->perf.sample;
		uint64_t sum = 0;

		/* the record's bytes and its sample fields, copied or in place */
		for (unsigned int i = 0; i < rec->perf.event->header.size; i++)
			sum = sum * 31 + b[i];
		transcript__printf(t, " %u %u %" PRIx64, rec->perf.event->header.type,
				   rec->perf.event->header.size, sum);
		if (ps)
			transcript__printf(t, " %u %u %" PRIu64 " %u %" PRIu64 " %" PRIx64, ps->pid,
					   ps->tid, ps->time, ps->cpu, ps->id, ps->ip);
		transcript__printf(t, "\n");
	}
	}
	return 0;
}

/* The times stream, noting whether the walk pulled it on another thread than the caller's. */
struct thread_stream {
	struct times_stream ts;
	pthread_t caller;
	bool other_thread;
};

static int thread_stream__next(void *ctx, struct timeline_record *rec)
{
	struct thread_stream *t = ctx;

	if (!pthread_equal(pthread_self(), t->caller))
		t->other_thread = true;
	return times_stream__next(&t->ts, rec);
}

/*
 * Walk fx.path with itrace on nr_threads (and the times stream when times) into t: the
 * walk's result, its stats in *stats; t->other_thread then says whether the walk ran on
 * another thread.
 */
static int transcribe(const char *itrace, unsigned int nr_threads, bool times,
		      struct transcript *t, struct timeline_stats *stats)
{
	static const uint64_t at[] = { 1200, 1600, 5000, 90000 };
	struct thread_stream ts = { .ts = { .times = at, .nr = 4 }, .caller = pthread_self() };
	AUXTRACE_OPTS(itrace_synth_opts, synth, .default_no_sample = true);
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = auxtrace_decoders__builtin(),
		      .itrace_synth_opts = &synth);
	AUXTRACE_OPTS(timeline_stream, st, .name = "times", .clock = "perf",
		      .next = thread_stream__next, .ctx = &ts);
	AUXTRACE_OPTS(timeline_opts, tlo, .user_records = true, .nr_threads = nr_threads);
	struct perf_session *s;
	struct timeline *tl;
	int err;

	ck_assert_int_eq(itrace_do_parse_synth_opts(&synth, itrace, 0), 0);
	s = perf_session__new(fx.path, &opts);
	ck_assert_ptr_nonnull(s);
	tl = timeline__new(s, &tlo);
	ck_assert_ptr_nonnull(tl);
	if (times)
		ck_assert_int_eq(timeline__add_stream(tl, &st), 0);
	t->caller = pthread_self();
	err = timeline__process(tl, transcript__record, t);
	ck_assert_msg(!t->other_thread, "a callback ran on another thread than the caller's");
	t->other_thread = ts.other_thread;
	*stats = *timeline__stats(tl);
	timeline__delete(tl);
	perf_session__delete(s);
	return err;
}

/*
 * One thread and two give the same callbacks, all on the caller's thread, the walk of two
 * on another (seen when the stream, pulled by the walk, is there).
 */
static void assert_threads_same(const char *itrace, bool times, uint64_t min_samples)
{
	struct transcript one = { 0 }, two = { 0 };
	struct timeline_stats st1, st2;

	ck_assert_int_eq(transcribe(itrace, 1, times, &one, &st1), 0);
	ck_assert_int_eq(transcribe(itrace, 2, times, &two, &st2), 0);
	ck_assert(!one.other_thread);
	ck_assert(two.other_thread || !times);
	ck_assert_uint_ge(st1.nr[TIMELINE_AUX_SAMPLE], min_samples);
	ck_assert_msg(one.len == two.len && !memcmp(one.text, two.text, one.len),
		      "--itrace=%s: 1 thread gave %zu bytes of callbacks, 2 threads %zu",
		      itrace, one.len, two.len);
	ck_assert_mem_eq(&st1, &st2, sizeof(st1));
	free(one.text);
	free(two.text);
}

/*
 * Intel PT on two CPUs, the trace of each in buffers of f's calls whose times interleave
 * with the other CPU's, samples between them: more branches than the hand-over ring holds,
 * so that the decoding thread waits for the caller's.
 */
static void pt_two_cpus_long_recording(int buffers)
{
	struct pd_file *f = recording_start(true, true, true, false);
	uint64_t offset[2] = { 0, 0 }, tsc[2] = { 1000, 1050 };
	struct pt_stream *unit = malloc(sizeof(*unit));

	ck_assert_ptr_nonnull(unit);
	recording_itrace_start(f, PID, 0, 10);
	recording_itrace_start(f, PID + 1, 1, 10);
	recording_mmap(f, 20);
	for (int b = 0; b < buffers; b++) {
		for (int cpu = 0; cpu < 2; cpu++) {
			unit->len = 0;
			while (sizeof(unit->buf) - unit->len > 256) {
				ck_assert_int_eq(pt_stream__f_unit(unit, sym("f"), CALLER,
								   tsc[cpu]), 0);
				tsc[cpu] += 100;
			}
			recording_sample(f, tsc[cpu] - 30, cpu);
			pd_file__auxtrace(f, (uint32_t)cpu, (uint32_t)cpu, PID, offset[cpu], 0,
					  unit->buf, unit->len);
			offset[cpu] += (unit->len + 7) & ~(size_t)7;
		}
	}
	recording_finish(f);
	free(unit);
}

START_TEST(test_threads_same_pt)
{
	REQUIRE_CODE();
	pt_two_cpus_recording();	/* an error on CPU 0, stream records between */
	assert_threads_same("be", true, 8);
	assert_threads_same("i1i,b,e", true, 8);
	pt_two_cpus_long_recording(12);
	assert_threads_same("be", true, 10000);
}
END_TEST

/* Intel BTS from two queues, each in several buffers, an error in one of them. */
START_TEST(test_threads_same_bts)
{
	struct bts_record r[] = {
		{ 0, sym("f") },
		{ sym("f_jnz"), sym("f_top") },
		{ sym("f_call"), sym("g") },
		{ sym("g_ret"), sym("f_ret") },
		{ BASE - 0x100, BASE - 0x80 },		/* code nobody mapped: an error */
		{ sym("f_ret"), 0 },
	};
	enum { PER = 2000 };
	struct bts_record *buf = calloc(PER + 1, sizeof(*buf));
	struct pd_file *f;
	uint64_t offset[2] = { 0, 0 };

	REQUIRE_CODE();
	ck_assert_ptr_nonnull(buf);
	f = recording_start(false, true, false, false);
	recording_mmap(f, 0);
	for (int i = 0; i < PER; i++)
		buf[i] = r[i % 6];
	for (int b = 0; b < 3; b++) {
		for (uint32_t q = 0; q < 2; q++) {
			recording_sample(f, 5000 + 1000 * (uint64_t)b + 500 * q, 0);
			pd_file__auxtrace(f, q, -1, PID + q, offset[q], 5000 + 1000 * b + 500 * q,
					  buf, (PER + 1) * sizeof(*buf));
			offset[q] += (PER + 1) * sizeof(*buf);
		}
	}
	recording_finish(f);
	free(buf);
	assert_threads_same("be", true, 10000);
}
END_TEST

/*
 * A file damaged two thirds in: the walk on two threads goes as the one on one thread does,
 * the same records and decode errors, and ends with the same result (an error of the
 * decoding thread's is returned by the caller's).
 */
START_TEST(test_threads_damaged)
{
	struct transcript one = { 0 }, two = { 0 };
	struct timeline_stats st1, st2;
	unsigned char junk[64];
	struct stat st;
	int err, fd;

	REQUIRE_CODE();
	pt_two_cpus_long_recording(12);
	memset(junk, 0xa5, sizeof(junk));
	fd = open(fx.path, O_WRONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(pwrite(fd, junk, sizeof(junk), st.st_size * 2 / 3), sizeof(junk));
	close(fd);
	log_capture_start();
	err = transcribe("be", 1, true, &one, &st1);
	ck_assert_int_eq(transcribe("be", 2, true, &two, &st2), err);
	log_capture_stop();
	ck_assert_msg(err < 0 || st1.nr[TIMELINE_AUX_ERROR], "the damage went unseen");
	ck_assert_uint_gt(st1.nr[TIMELINE_AUX_SAMPLE], 1000);
	ck_assert_msg(one.len == two.len && !memcmp(one.text, two.text, one.len),
		      "cut short: 1 thread gave %zu bytes of callbacks, 2 threads %zu", one.len,
		      two.len);
	free(one.text);
	free(two.text);
}
END_TEST

/*
 * The caller's callback stops the walk on two threads as on one: at a sample the decoding
 * thread had already handed over, and at a record it waits for; no callback comes after,
 * the walk returns the callback's error and the thread is joined (a hang fails by timeout).
 */
START_TEST(test_threads_stop)
{
	static const uint64_t stops[] = { 1, 3, 100, 4097, 9000 };
	struct timeline_stats st;

	REQUIRE_CODE();
	pt_two_cpus_long_recording(12);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		for (unsigned int threads = 1; threads <= 2; threads++) {
			struct transcript t = { .stop_at = stops[i] };

			ck_assert_int_eq(transcribe("be", threads, true, &t, &st), -EIO);
			ck_assert_uint_eq(t.records, stops[i]);
			free(t.text);
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decode-session");
	TCase *tc = tcase_create("decode");

	tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pt_cut_anywhere);
	tcase_add_test(tc, test_pt_time_order);
	tcase_add_test(tc, test_pt_timeline);
	tcase_add_test(tc, test_pt_timeline_user_records);
	tcase_add_test(tc, test_pt_instruction_samples);
	tcase_add_test(tc, test_pt_tick_periods);
	tcase_add_test(tc, test_pt_psb_mid_trace);
	tcase_add_test(tc, test_pt_pipe);
	tcase_add_test(tc, test_pt_pipe_threads);
	tcase_add_test(tc, test_buffers_read_in_place);
	tcase_add_test(tc, test_bts_itrace_options);
	tcase_add_test(tc, test_bts_error);
	tcase_add_test(tc, test_itrace_opts_sized);
	tcase_add_test(tc, test_threads_same_pt);
	tcase_add_test(tc, test_threads_same_bts);
	tcase_add_test(tc, test_threads_stop);
	tcase_add_test(tc, test_threads_damaged);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
