// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script against perf script (perf 6.1, always under timeout) on the same files:
 * Intel BTS and Intel PT recordings made through the library's own path (the AUX test
 * producer and the perf.data writer) of a program the test builds and runs, holding branch
 * records and a PT stream from libipt's encoder for its function f; and a cpu-clock
 * recording perf record wrote itself. The lines must be the same, character for character.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <intel-pt.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/synthesize.h>
#include "lib/asm-elf.h"
#include "lib/aux-f-calls.h"
#include "lib/aux-payload.h"
#include "lib/aux-session.h"
#include "lib/perf-data-file.h"
#include "lib/perf-data-testlib.h"
#include "lib/script-testlib.h"
#include "lib/testlib.h"

#define MAX_LINES 64

/* The lines of text holding needle, in order (pointers into text, which is cut up). */
static int lines_with(char *text, const char *needle, char **lines, int max)
{
	int n = 0;

	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		if (strstr(l, needle) && n < max)
			lines[n++] = l;
	return n;
}

/* Both tools' lines holding needle are the same, n of them; ours stay in ours[]. */
static void assert_same_lines(char *ours_text, char *perf_text, const char *needle,
			      char **ours, int n)
{
	char *theirs[MAX_LINES];
	int a = lines_with(ours_text, needle, ours, MAX_LINES);
	int b = lines_with(perf_text, needle, theirs, MAX_LINES);

	for (int i = 0; i < a && i < b; i++)
		ck_assert_msg(!strcmp(ours[i], theirs[i]), "line %d differs:\n auxrec: %s\n perf:   %s",
			      i, ours[i], theirs[i]);
	ck_assert_msg(a == n && b == n, "%d lines from auxrec script, %d from perf script, want %d",
		      a, b, n);
}

/* Runs of spaces as one, in place. */
static void squeeze_spaces(char *line)
{
	char *out = line;

	for (const char *in = line; *in; in++)
		if (*in != ' ' || out == line || out[-1] != ' ')
			*out++ = *in;
	*out = '\0';
}

/* What a branch line says after the event name: "from => to" with symbols. */
static void assert_branch(const char *line, const char *from, const char *to)
{
	const char *arrow = strstr(line, " => ");

	ck_assert_msg(arrow, "no branch in: %s", line);
	ck_assert_msg(strstr(line, from) && strstr(line, from) < arrow && strstr(arrow, to),
		      "want %s => %s in: %s", from, to, line);
}

static uint64_t sym(const struct traced_prog *t, const char *name)
{
	uint64_t addr = asm_elf__sym(&t->elf, name);

	ck_assert_msg(addr, "no symbol %s in %s", name, t->elf.path);
	return addr;
}

/* A kernel text address from kallsyms, 0 when they are hidden. */
static uint64_t kernel_sym(const char *name)
{
	char line[512], want[128];
	uint64_t addr = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	snprintf(want, sizeof(want), " T %s\n", name);
	while (f && !addr && fgets(line, sizeof(line), f))
		if (strstr(line, want) && strlen(strstr(line, want)) == strlen(want))
			addr = strtoull(line, NULL, 16);
	if (f)
		fclose(f);
	return addr;
}

/*
 * The branches of one call of f as BTS records them, and more: into the kernel from libc's
 * getppid and back, trace begin and end. A zero record ends each buffer: perf 6.1 never
 * decodes a buffer's last record.
 */
/*
 * A BTS recording of the traced program in file, in two AUX buffers: the branches of its
 * call of f, into the kernel from libc's getppid and back, trace begin and end; each buffer
 * ends with a zero record, as perf 6.1 never decodes a buffer's last record. Returns the
 * branches perf decodes.
 */
static int record_bts(const char *file, struct traced_prog *t, uint64_t kaddr)
{
	struct aux_session_opts opts = { .pmu = "intel_bts", .kernel_mmap = true, .pid = t->pid };
	struct bts_record recs[16] = { 0 };
	struct aux_session s;
	int n = 0;

	recs[n++] = (struct bts_record){ t->after_f - 5, sym(t, "f") };
	recs[n++] = (struct bts_record){ sym(t, "f_jnz"), sym(t, "f_top") };
	recs[n++] = (struct bts_record){ sym(t, "f_jz"), sym(t, "f_even") };
	recs[n++] = (struct bts_record){ sym(t, "f_jnz"), sym(t, "f_top") };
	recs[n++] = (struct bts_record){ sym(t, "f_call"), sym(t, "g") };
	recs[n++] = (struct bts_record){ 0 };	/* the first buffer ends here */
	recs[n++] = (struct bts_record){ sym(t, "g_ret"), sym(t, "f_ret") };
	recs[n++] = (struct bts_record){ sym(t, "f_ret"), t->after_f };
	recs[n++] = (struct bts_record){ t->getppid, kaddr ? kaddr : t->getppid + 2 };
	recs[n++] = (struct bts_record){ kaddr ? kaddr + 0x10 : t->getppid + 3, t->getppid + 7 };
	recs[n++] = (struct bts_record){ 0, sym(t, "f") };
	recs[n++] = (struct bts_record){ sym(t, "f_ret"), 0 };
	recs[n++] = (struct bts_record){ 0 };
	ck_assert_int_eq(aux_session__start(&s, &opts, file), 0);
	ck_assert_uint_eq(aux_producer__write(s.p, recs, 6 * sizeof(recs[0])), 6 * sizeof(recs[0]));
	ck_assert_int_gt(auxtrace_mmaps__read(s.aux, perf_data_writer__aux_sink(s.w)), 0);
	ck_assert_uint_eq(aux_producer__write(s.p, recs + 6, (n - 6) * sizeof(recs[0])),
			  (n - 6) * sizeof(recs[0]));
	ck_assert_int_gt(auxtrace_mmaps__read(s.aux, perf_data_writer__aux_sink(s.w)), 0);
	ck_assert_int_eq(aux_session__finish(&s), 0);
	ck_assert_int_eq(traced_prog__finish(t), 0);
	return n - 2;
}

START_TEST(test_bts_branches_match_perf)
{
	const char *file = path_in_dir("bts.data");
	uint64_t kaddr = kernel_sym("entry_SYSCALL_64");
	char *ours_text, *perf_text, *ours[MAX_LINES], want[PATH_MAX + 32];
	struct traced_prog t;
	int n, rc;

	REQUIRE_PERF();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	n = record_bts(file, &t, kaddr);
	ours_text = auxrec(&rc, "script --itrace=b -j 2 -i %s", file);	/* two threads */
	ck_assert_msg(rc == 0, "auxrec script: status %d\n%s", rc, ours_text);
	ck_assert_int_eq(testlib_perf(&perf_text, "script --itrace=b -i %s", file), 0);
	assert_same_lines(ours_text, perf_text, " branches:", ours, n);
	/* not two tools wrong alike: the symbols are the program's */
	snprintf(want, sizeof(want), "f_jnz+0x0 (%s)", t.elf.path);
	assert_branch(ours[1], want, "f_top+0x0");
	assert_branch(ours[4], "f_call+0x0", "g_nop+0x0");
	assert_branch(ours[6], "f_ret+0x0", "main+0x");
	assert_branch(ours[7], "getppid+0x0 (/", kaddr ? "entry_SYSCALL_64+0x0 ([kernel.kallsyms])"
							: "getppid+0x2");
	assert_branch(ours[9], "0 [unknown] ([unknown])", "f+0x0");
	free(ours_text);
	free(perf_text);
	traced_prog__remove(&t);
}
END_TEST

/*
 * auxrec script keeps the text it printed for an address and for a thread; a mapping that
 * comes later puts a symbol where there was none, a COMM names the thread: the same address
 * and thread before and after them print differently. A file built by hand (one cpu-clock
 * event): a sample at f, the code's MMAP2 and a COMM, f again.
 */
START_TEST(test_address_text_follows_mappings)
{
	const char *file = path_in_dir("maps.data");
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr), .sample_period = 1000, .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD,
	};
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} sample = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(sample) } };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
		char filename[PATH_MAX];
		uint32_t pid2, tid2;
		uint64_t time;
	} mm = { { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, sizeof(mm) } };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[8];
		uint32_t pid2, tid2;
		uint64_t time;
	} comm = { { PERF_RECORD_COMM, 0, sizeof(comm) }, 4242, 4242, "traced", 4242, 4242, 250 };
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };
	uint64_t id = 1;
	char *ours, *lines[MAX_LINES], want[PATH_MAX + 16];
	struct asm_elf elf;
	struct pd_file *f;
	int fd, rc;

	if (asm_elf__build(&elf, asm_elf_sample, 0x7f1234500000ULL))
		TEST_SKIP("gcc cannot build the test code");
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	f = pd_file__new(fd, false);
	pd_file__add_attr(f, &attr, &id, 1);
	pd_file__start(f);
	sample.ip = asm_elf__sym(&elf, "f");
	sample.pid = sample.tid = 4242;
	sample.period = 1000;
	sample.time = 100;
	pd_file__record(f, &sample);
	mm.pid = mm.tid = mm.pid2 = mm.tid2 = 4242;
	mm.start = elf.start;
	mm.len = elf.len;
	mm.pgoff = elf.pgoff;
	mm.prot = PROT_READ | PROT_EXEC;
	mm.flags = MAP_PRIVATE;
	mm.time = 200;
	strcpy(mm.filename, elf.path);
	pd_file__record(f, &mm);
	pd_file__record(f, &comm);
	sample.time = 300;
	pd_file__record(f, &sample);
	pd_file__record(f, &round);
	pd_file__finish(f, false);
	close(fd);
	ours = auxrec(&rc, "script -i %s", file);
	ck_assert_msg(rc == 0, "auxrec script: status %d\n%s", rc, ours);
	ck_assert_int_eq(lines_with(ours, " cpu-clock:", lines, MAX_LINES), 2);
	ck_assert_msg(strstr(lines[0], " [unknown] ([unknown])") && strstr(lines[0], ":4242 "),
		      "%s", lines[0]);
	ck_assert_msg(strstr(lines[1], " traced  4242 "), "%s", lines[1]);
	snprintf(want, sizeof(want), "+0x0 (%s)", elf.path);	/* f, or a label beside it */
	ck_assert_msg(strstr(lines[1], want) && !strstr(lines[1], "[unknown]"), "%s", lines[1]);
	free(ours);
	asm_elf__remove(&elf);
}
END_TEST

/*
 * The command line: where the input comes from (a file, a directory auxrec record wrote,
 * auxrec.data in the current directory), --no-itrace, a missing file, and an itrace string
 * refused with where it breaks and what the part before means.
 */
START_TEST(test_cli)
{
	char *out, dirs[PATH_MAX + 64];
	struct traced_prog t;
	int rc;

	TEST_REQUIRE_ROOT();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	snprintf(dirs, sizeof(dirs), "%s/auxrec.data", script_dir);
	ck_assert_int_eq(mkdir(dirs, 0700), 0);
	record_bts(path_in_dir("auxrec.data/perf.data"), &t, 0);
	out = auxrec(&rc, "script --itrace=b -i %s/auxrec.data", script_dir);
	ck_assert_msg(rc == 0 && testlib_count_lines(out, " branches:uh: ") == 11, "%s", out);
	free(out);
	out = auxrec(&rc, "script --itrace=b -i %s/auxrec.data/perf.data", script_dir);
	ck_assert_msg(rc == 0 && testlib_count_lines(out, " branches:uh: ") == 11, "%s", out);
	free(out);
	ck_assert_int_eq(chdir(script_dir), 0);
	out = auxrec(&rc, "script --itrace=be");	/* auxrec.data/perf.data */
	ck_assert_msg(rc == 0 && testlib_count_lines(out, " branches:uh: ") == 11, "%s", out);
	ck_assert_int_eq(testlib_count_lines(out, " instruction trace error "), 0);
	free(out);
	/* AUX only, nothing timed: report says why it has no span, not just that */
	out = auxrec(&rc, "report");
	ck_assert_msg(rc == 0 && strstr(out, "span         unknown: none of its ") &&
		      strstr(out, "AUX trace 2 buffers): the AUXTRACE records"), "%s", out);
	free(out);
	out = auxrec(&rc, "script --no-itrace");
	ck_assert_msg(rc == 0 && !strstr(out, "branches"), "%s", out);
	free(out);
	out = auxrec(&rc, "script -i nothing-here");
	ck_assert_msg(WEXITSTATUS(rc) == 1 && strstr(out, "cannot read nothing-here: No such "
						      "file"), "%s", out);
	free(out);
	out = auxrec(&rc, "script --itrace=i100,b");
	ck_assert_msg(WEXITSTATUS(rc) == 2 && strstr(out, "Bad Instruction Tracing options "
						      "'i100,b'") &&
		      strstr(out, "'i100,', is valid on its own") && strstr(out, "--itrace=i100,b"), "%s",
		      out);
	free(out);
	out = auxrec(&rc, "script --itrace=b auxrec.data");	/* the input, without -i */
	ck_assert_msg(rc == 0 && testlib_count_lines(out, " branches:uh: ") == 11, "%s", out);
	free(out);
	out = auxrec(&rc, "script auxrec.data extra");
	ck_assert_msg(WEXITSTATUS(rc) == 2 && strstr(out, "unexpected argument 'extra'"), "%s",
		      out);
	free(out);
	traced_prog__remove(&t);
}
END_TEST

/* An Intel PT recording of the traced program: the trace pt, in the given pieces (each its
 * own AUXTRACE record). */
static void record_pt(const char *file, struct traced_prog *t, const struct pt_stream *pt,
		      const size_t *cuts, int nr_cuts)
{
	struct aux_session_opts opts = { .pmu = "intel_pt", .pid = t->pid };
	struct aux_session s;
	size_t from = 0;

	ck_assert_int_eq(aux_session__start(&s, &opts, file), 0);
	for (int i = 0; i <= nr_cuts; i++) {
		size_t to = i < nr_cuts ? cuts[i] : pt->len;

		ck_assert_uint_eq(aux_producer__write(s.p, pt->buf + from, to - from), to - from);
		ck_assert_int_gt(auxtrace_mmaps__read(s.aux, perf_data_writer__aux_sink(s.w)), 0);
		from = to;
	}
	ck_assert_int_eq(aux_session__finish(&s), 0);
	ck_assert_int_eq(traced_prog__finish(t), 0);
}

/* The trace of the traced program's call of f (its TSC 0x1000), in the given pieces. */
static void record_pt_call(const char *file, struct traced_prog *t, const size_t *cuts,
			   int nr_cuts)
{
	struct pt_stream pt = { .len = 0 };

	ck_assert_int_eq(pt_stream__f_unit(&pt, sym(t, "f"), t->after_f, 0x1000), 0);
	record_pt(file, t, &pt, cuts, nr_cuts);
}

/* The branches f takes, from the trace's start to its exit back into main. */
static void assert_f_branches(char **ours)
{
	assert_branch(ours[0], "0 [unknown] ([unknown])", "f+0x0");
	assert_branch(ours[1], "f_jnz+0x0", "f_top+0x0");
	assert_branch(ours[2], "f_jz+0x0", "f_even+0x0");
	assert_branch(ours[3], "f_jnz+0x0", "f_top+0x0");
	assert_branch(ours[4], "f_call+0x0", "g_nop+0x0");
	assert_branch(ours[5], "g_ret+0x0", "f_ret+0x0");
	assert_branch(ours[6], "f_ret+0x0", "main+0x");
}

static void check_pt_call(const size_t *cuts, int nr_cuts)
{
	const char *file = path_in_dir("pt.data");
	char *ours_text, *perf_text, *ours[MAX_LINES];
	struct traced_prog t;
	int rc;

	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_pt_call(file, &t, cuts, nr_cuts);
	ours_text = auxrec(&rc, "script --itrace=b -j 2 -i %s", file);
	ck_assert_msg(rc == 0, "auxrec script: status %d\n%s", rc, ours_text);
	ck_assert_int_eq(testlib_perf(&perf_text, "script --itrace=b -i %s", file), 0);
	assert_same_lines(ours_text, perf_text, " branches:", ours, 7);
	assert_f_branches(ours);
	for (int i = 0; getenv("KEEP") && i < 7; i++) puts(ours[i]);
	free(ours_text);
	free(perf_text);
	traced_prog__remove(&t);
}

START_TEST(test_pt_function_matches_perf)
{
	REQUIRE_PERF();
	check_pt_call(NULL, 0);
}
END_TEST

/* Where each packet of the stream ends (the last one's end left out). */
static int packet_ends(const struct pt_stream *pt, size_t *ends, int max)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet pkt;
	uint64_t offset;
	int n = 0;

	pt_config_init(&config);
	config.begin = (uint8_t *)pt->buf;
	config.end = config.begin + pt->len;
	dec = pt_pkt_alloc_decoder(&config);
	ck_assert_ptr_nonnull(dec);
	ck_assert_int_ge(pt_pkt_sync_forward(dec), 0);
	while (n < max && pt_pkt_next(dec, &pkt, sizeof(pkt)) > 0 &&
	       pt_pkt_get_offset(dec, &offset) >= 0 && offset < pt->len)
		ends[n++] = (size_t)offset;
	pt_pkt_free_decoder(dec);
	return n;
}

/*
 * The same trace in AUXTRACE buffers cut between packets, none but the first starting at
 * a PSB: perf decodes a queue's buffers as one stream; so must we. After the PSB and after
 * PSBEND; after TIP.PGE and between the TNTs; after every packet.
 */
START_TEST(test_pt_split_buffers_match_perf)
{
	struct pt_stream layout = { .len = 0 };
	size_t ends[32], cuts[32];
	int nr_ends, nr = 0;

	REQUIRE_PERF();
	/* where the packets are does not depend on the addresses in them */
	ck_assert_int_eq(pt_stream__f_unit(&layout, 1, 2, 3), 0);
	nr_ends = packet_ends(&layout, ends, 32);
	ck_assert_int_eq(nr_ends, 7);
	switch (_i) {
	case 0:
		cuts[nr++] = ends[0];
		cuts[nr++] = ends[3];
		break;
	case 1:
		cuts[nr++] = layout.pge_end;
		cuts[nr++] = layout.ret_tnt;
		break;
	default:
		memcpy(cuts, ends, sizeof(ends));
		nr = nr_ends;
		break;
	}
	check_pt_call(cuts, nr);
}
END_TEST

/* Both tools' whole output for --itrace=itrace, the same; ours, with n lines holding needle. */
static void assert_script_matches_perf(const char *file, const char *itrace, const char *needle,
				       int n)
{
	char *ours, *theirs;
	int rc;

	ours = auxrec(&rc, "script --itrace=%s -j 2 -i %s", itrace, file);
	ck_assert_msg(rc == 0, "auxrec script --itrace=%s: status %d\n%s", itrace, rc, ours);
	ck_assert_int_eq(testlib_perf(&theirs, "script --itrace=%s -i %s", itrace, file), 0);
	assert_same_text(ours, theirs);
	ck_assert_msg(n < 0 || testlib_count_lines(ours, needle) == n,
		      "--itrace=%s: %d lines with '%s', want %d\n%s", itrace,
		      testlib_count_lines(ours, needle), needle, n, ours);
	free(ours);
	free(theirs);
}

/*
 * Instruction samples every N ticks or nanoseconds, as perf's decoder takes them: the period
 * in TSC ticks (ns through the recording's TSC conversion), rounded down to a power of 2, a
 * sample where the trace's time passes a multiple of it, the time moving on one tick per
 * instruction after its last timing packet. Line for line what perf script prints, alone
 * and among the branches, on f's call (23 instructions from TSC 0x1000). (A timing packet
 * between two TNTs is not compared: perf applies it where the first TNT's bits run out,
 * libipt at its next query of the trace, a few instructions on.)
 */
START_TEST(test_pt_time_periods_match_perf)
{
	static const struct { const char *itrace, *needle; int n; } cases[] = {
		{ "i4t", " instructions:", 5 },		/* after 3, 5, 4, 4 and 4 */
		{ "i5t", " instructions:", 5 },		/* 5 ticks are taken as 4 */
		{ "i1t", " instructions:", 23 },
		{ "i2t,b", " instructions:", 11 },
		{ "i2t,b", " branches:", 7 },
		{ "i4ns,b", " branches:", 7 },		/* ticks from ns: the TSC conversion */
		{ "i100us,b", " branches:", 7 },	/* no 100 us boundary in f's run */
		{ "i100us", " instructions:", 0 },
		{ "i0ns", " instructions:", 23 },	/* no period: every instruction */
		{ "i3i", " instructions:", 7 },
	};
	const char *file = path_in_dir("pt.data");
	struct traced_prog t;

	REQUIRE_PERF();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_pt_call(file, &t, NULL, 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_script_matches_perf(file, cases[i].itrace, cases[i].needle, cases[i].n);
	traced_prog__remove(&t);
}
END_TEST

/*
 * Plain --itrace is perf script's default (calls and returns, errors, power events): it
 * decodes a PT recording into the same call and return branches as perf script's, spacing
 * aside (perf also synthesizes PSB and CBR events, which widen its name column).
 */
START_TEST(test_pt_default_itrace_matches_perf)
{
	const char *file = path_in_dir("pt.data");
	char *ours_text, *perf_text, *ours[MAX_LINES], *theirs[MAX_LINES];
	struct traced_prog t;
	int rc, a, b;

	REQUIRE_PERF();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_pt_call(file, &t, NULL, 0);
	ours_text = auxrec(&rc, "script --itrace -i %s", file);
	ck_assert_msg(rc == 0, "auxrec script --itrace: status %d\n%s", rc, ours_text);
	ck_assert_int_eq(testlib_perf(&perf_text, "script --itrace -i %s", file), 0);
	a = lines_with(ours_text, " branches:", ours, MAX_LINES);
	b = lines_with(perf_text, " branches:", theirs, MAX_LINES);
	ck_assert_msg(a == 2 && b == 2, "%d branches from auxrec script, %d from perf", a, b);
	for (int i = 0; i < a; i++) {
		squeeze_spaces(ours[i]);
		squeeze_spaces(theirs[i]);
		ck_assert_msg(!strcmp(ours[i], theirs[i]), "line %d differs:\n auxrec: %s\n perf:   "
			      "%s", i, ours[i], theirs[i]);
	}
	assert_branch(ours[0], "f_call+0x0", "g_nop+0x0");
	assert_branch(ours[1], "f_ret+0x0", "main+0x");
	free(ours_text);
	free(perf_text);
	traced_prog__remove(&t);
}
END_TEST

/*
 * BTS has branches only: perf's intel-bts synthesizes no instructions for i, in whatever
 * unit its period is, and adds no instructions event (whose name would widen the column).
 */
START_TEST(test_bts_time_period_ignored_as_perf)
{
	const char *file = path_in_dir("bts.data");
	struct traced_prog t;

	REQUIRE_PERF();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_bts(file, &t, 0);
	assert_script_matches_perf(file, "i100us,b", " branches:uh: ", 11);
	assert_script_matches_perf(file, "i100us", " branches:", 0);
	assert_script_matches_perf(file, "i4t,b", " instructions:", 0);
	traced_prog__remove(&t);
}
END_TEST

/*
 * Selection and fields on the synthesized samples, with perf script's arguments: -F lists,
 * +field and -field (a branch's target then only with addr), --ns, --pid, --tid, --comm; a
 * field the samples do not have refused. (--time is the perf samples' test: the producer's
 * per-thread traces carry no time.)
 */
START_TEST(test_aux_selection_matches_perf)
{
	const char *bts = path_in_dir("bts.data"), *pt = path_in_dir("pt.data");
	char cmd[PATH_MAX + 128], *text;
	struct traced_prog t;
	int rc, tid;

	REQUIRE_PERF();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_bts(bts, &t, 0);
	ck_assert_int_eq(script_same_as_perf("--itrace=b -F comm,tid,ip,sym,dso,addr -i %s", bts),
			 11);
	text = auxrec(&rc, "script --itrace=b -F comm,tid,ip,sym,dso -i %s", bts);
	ck_assert_msg(!strstr(text, " => ") && testlib_count_lines(text, " f_jnz (") == 2,
		      "%s", text);
	free(text);
	script_same_as_perf("--itrace=b -F +pid --ns -i %s", bts);
	script_same_as_perf("--itrace=b -F -period,-dso -i %s", bts);
	/* the program's thread as the samples name it */
	snprintf(cmd, sizeof(cmd), "timeout 60 perf script --itrace=b -F tid -i %s 2>/dev/null",
		 bts);
	text = command_output(&rc, cmd);
	tid = atoi(text);
	free(text);
	ck_assert_int_gt(tid, 0);
	script_same_as_perf("--itrace=b --pid %d -i %s", tid, bts);
	ck_assert_int_eq(script_same_as_perf("--itrace=b --tid 1,%d -i %s", tid, bts), 11);
	ck_assert_int_eq(script_same_as_perf("--itrace=b --tid 1 -i %s", bts), 0);
	ck_assert_int_eq(script_same_as_perf("--itrace=b --comm prog -i %s", bts), 11);
	ck_assert_int_eq(script_same_as_perf("--itrace=b --comm sh,ls -i %s", bts), 0);
	/* a field the samples do not have: both refuse */
	text = auxrec(&rc, "script --itrace=b -F tid,time -i %s", bts);
	ck_assert_msg(WEXITSTATUS(rc) == 1 && strstr(text, "'time'"), "%s", text);
	free(text);
	traced_prog__remove(&t);

	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_pt_call(pt, &t, NULL, 0);
	ck_assert_int_eq(script_same_as_perf("--itrace=i1t --ns -i %s", pt), 23);
	ck_assert_int_eq(script_same_as_perf("--itrace=b -F -event,+addr -i %s", pt), 7);
	script_same_as_perf("--itrace=b -F comm,tid,event,ip,sym,symoff,addr -i %s", pt);
	traced_prog__remove(&t);
}
END_TEST

/* text without its lines holding needle, in place. */
static void drop_lines(char *text, const char *needle)
{
	char *out = text;

	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);

		if (!memmem(line, len, needle, strlen(needle))) {
			memmove(out, line, len);
			out += len;
		}
		line += len;
	}
	*out = '\0';
}

/*
 * perf script OPTION and ours on file: the same lines, but for perf's power events (PSB and
 * CBR), which our decoders do not synthesize; ours, with n lines holding needle.
 */
static void assert_trace_matches_perf(const char *file, const char *option, const char *needle,
				      int n)
{
	char cmd[PATH_MAX + 128], *ours, *theirs;
	int rc;

	ours = auxrec(&rc, "script %s -i %s", option, file);
	ck_assert_msg(rc == 0, "auxrec script %s: status %d\n%s", option, rc, ours);
	snprintf(cmd, sizeof(cmd), "timeout 60 perf script %s -i %s 2>/dev/null", option, file);
	theirs = command_output(&rc, cmd);
	ck_assert_int_eq(rc, 0);
	drop_lines(theirs, "  psb offs: ");
	drop_lines(theirs, "  cbr: ");
	assert_same_text(ours, theirs);
	ck_assert_msg(testlib_count_lines(ours, needle) == n, "%s: %d lines with '%s', want %d\n%s",
		      option, testlib_count_lines(ours, needle), needle, n, ours);
	free(ours);
	free(theirs);
}

/*
 * --call-trace and --call-ret-trace: each call (and return) with the function it enters (or
 * leaves) indented by the thread's call depth, the dso padded (call-trace) or the branch's
 * kind (call-ret-trace), times to the ns; on f's call of g traced by PT, whole and cut into
 * buffers between packets, and by BTS in two buffers (perf starts a BTS thread's depth over
 * with each buffer: g's return is shown at depth 1, not 2).
 */
START_TEST(test_call_trace_matches_perf)
{
	const char *pt = path_in_dir("pt.data"), *bts = path_in_dir("bts.data");
	struct pt_stream layout = { .len = 0 };
	struct traced_prog t;
	size_t cuts[2];
	char *text;
	int rc;

	REQUIRE_PERF();
	/* where the packets are does not depend on the addresses in them */
	ck_assert_int_eq(pt_stream__f_unit(&layout, 1, 2, 3), 0);
	cuts[0] = layout.pge_end;
	cuts[1] = layout.ret_tnt;
	for (int i = 0; i < 2; i++) {
		if (traced_prog__start(&t))
			TEST_SKIP("gcc cannot build the traced program");
		record_pt_call(pt, &t, cuts, i ? 2 : 0);
		assert_trace_matches_perf(pt, "--call-trace", " g_nop ", 1);
		assert_trace_matches_perf(pt, "--call-ret-trace", "   return     ", 1);
		text = auxrec(&rc, "script --call-ret-trace -i %s", pt);
		ck_assert_msg(strstr(text, "   call                  (") &&
			      strstr(text, ")\t    g_nop ") && strstr(text, ")\t    g_ret "),
			      "%s", text);
		free(text);
		traced_prog__remove(&t);
	}
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	record_bts(bts, &t, 0);
	assert_trace_matches_perf(bts, "--call-trace", " g_nop ", 1);
	assert_trace_matches_perf(bts, "--call-ret-trace", ")\t    g_ret ", 1);
	traced_prog__remove(&t);
}
END_TEST

/*
 * What perf record writes itself, read by both: the same samples, line for line (comm,
 * tid, time, period, event, ip, symbol and offset in the workload, libc, ld.so or the
 * kernel), from the file and through a pipe.
 */
START_TEST(test_perf_recording_matches_perf)
{
	const char *file = path_in_dir("perf.data"), *piped = path_in_dir("pipe.data");
	char *ours_text, *perf_text, *out, cmd[1024];
	int rc;

	REQUIRE_PERF();
	/* two events of names of two lengths: perf aligns them */
	rc = testlib_perf(&out, "record -e cpu-clock -e task-clock -c 100000 -o %s -- %s "
			  "300000", file, testlib_prog("getppid-loop"));
	ck_assert_msg(rc == 0, "perf record: %d\n%s", rc, out);
	free(out);
	ck_assert_int_eq(testlib_perf(&perf_text, "script -i %s 2>/dev/null", file), 0);
	ck_assert_int_gt(testlib_count_lines(perf_text, "  cpu-clock:"), 10);
	ck_assert_int_gt(testlib_count_lines(perf_text, " task-clock:"), 10);
	ours_text = auxrec(&rc, "script -i %s", file);
	ck_assert_msg(rc == 0, "auxrec script: status %d\n%.2000s", rc, ours_text);
	assert_same_text(ours_text, perf_text);
	ck_assert_int_gt(testlib_count_lines(ours_text, " main+0x"), 0);
	free(ours_text);

	/* perf's pipe format, on stdin (its messages kept out of the data) */
	snprintf(cmd, sizeof(cmd), "timeout 60 perf record -e cpu-clock -c 100000 -o - -- %s "
		 "300000 2>/dev/null >%s", testlib_prog("getppid-loop"), piped);
	ck_assert_int_eq(system(cmd), 0);
	free(perf_text);
	ck_assert_int_eq(testlib_perf(&perf_text, "script -i - < %s 2>/dev/null", piped), 0);
	ours_text = auxrec(&rc, "script -i - < %s", piped);
	ck_assert_msg(rc == 0, "auxrec script -i -: status %d\n%.2000s", rc, ours_text);
	assert_same_text(ours_text, perf_text);
	free(ours_text);
	free(perf_text);
}
END_TEST


/*
 * -j N formats the synthesized samples' lines on N threads, in batches of thousands cut
 * into chunks (tools/auxrec/script-par.c), and writes them in order. On BTS and PT
 * recordings of thousands of calls of f in dozens of AUX buffers (several batches, each
 * batch's chunks spread over the threads), -j2's and -j3's output is -j1's byte for byte,
 * whole, selected and with other fields; BTS's whole is perf's. (PT's is not compared with
 * perf's here: with its buffers cut every 4 KiB near the PSBs, perf 6.1 and we decode a
 * few of the boundaries differently, some 20 of 30000 branches; 64 KiB buffers agree.)
 * Intel PT is also decoded on N threads, in pieces of 16 KiB cut at PSBs: a third
 * recording of 64 KiB buffers has several pieces in each.
 */
START_TEST(test_threads_same_output)
{
	static const struct {
		const char *pmu;
		uint64_t branches;
		size_t buffer;
	} recs[] = {
		{ "intel_bts", 30000, 4096 }, { "intel_pt", 30000, 4096 },
		{ "intel_pt", 200000, 65536 },
	};
	static const char *const options[] = {
		"--itrace=b", "--itrace=b -F comm,tid,ip,sym,dso,addr", "--itrace=b -F +pid --ns",
		"--itrace=bi3i", "--itrace=b --comm prog", "--itrace=b --tid 1", "--itrace=cr",
		"--call-trace",	/* callindent: formatted on the caller's thread alone */
	};
	const char *file = path_in_dir("many.data");
	struct aux_f_calls rec;
	struct traced_prog t;

	REQUIRE_PERF();
	for (size_t p = 0; p < sizeof(recs) / sizeof(recs[0]); p++) {
		if (traced_prog__start(&t))
			TEST_SKIP("gcc cannot build the traced program");
		ck_assert_int_eq(aux_f_calls__record(file, recs[p].pmu, &t, recs[p].branches,
						     recs[p].buffer, &rec), 0);
		ck_assert_uint_gt(rec.buffers, 6);
		if (p == 0)
			ck_assert_int_eq(script_same_as_perf("--itrace=b -i %s", file),
					 (int)rec.branches);
		for (size_t o = 0; o < sizeof(options) / sizeof(options[0]); o++) {
			char *one, *more;
			int rc;

			one = auxrec(&rc, "script %s -j1 -i %s", options[o], file);
			ck_assert_msg(rc == 0, "%s -j1: status %d\n%.2000s", options[o], rc, one);
			for (int j = 2; j <= 3; j++) {
				more = auxrec(&rc, "script %s -j%d -i %s", options[o], j, file);
				ck_assert_msg(rc == 0, "%s -j%d: status %d\n%.2000s", options[o], j,
					      rc, more);
				assert_same_text(more, one);
				free(more);
			}
			free(one);
		}
		traced_prog__remove(&t);
	}
}
END_TEST

/* The traced thread's COMM as perf_event__synthesize_thread writes it (its sample_id too). */
struct comm_capture {
	union {
		struct perf_record_comm comm;
		unsigned char bytes[256];
	};
	size_t len;
};

static ssize_t comm_capture__push(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct comm_capture *c = ctx;
	size_t len = 0, at = 0;

	for (int i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	if (len <= sizeof(c->bytes) && !c->len &&
	    ((const struct perf_event_header *)iov[0].iov_base)->type == PERF_RECORD_COMM) {
		for (int i = 0; i < iovcnt; at += iov[i].iov_len, i++)
			memcpy(c->bytes + at, iov[i].iov_base, iov[i].iov_len);
		c->len = len;
	}
	return (ssize_t)len;
}

/*
 * The AUX buffers are decoded before a record with a later time: the branches, then the
 * thread's EXIT and a COMM that renames it. With -j N the lines gathered must be formatted
 * before that COMM applies (script_par__flush on a side-band record that changes a
 * process): every branch shows the name the thread had when it branched, as -j1 and perf
 * show it. Thousands of branches, so that batches are in flight when the COMM comes.
 */
START_TEST(test_threads_side_band_order)
{
	AUXTRACE_OPTS(perf_synth_opts, synth);
	struct aux_session_opts opts = { .pmu = "intel_bts", .pid = 0,
					 .aux_pages = AUX_F_CALLS_AUX_PAGES };
	const char *file = path_in_dir("renamed.data");
	struct comm_capture c = { .len = 0 };
	struct ring_sink_callback sink;
	struct perf_record_fork *exit_ev;
	struct aux_f_calls rec;
	struct traced_prog t;
	struct aux_session s;
	unsigned char exit_buf[256];
	size_t trailer;
	char *one, *more;
	int rc;

	REQUIRE_PERF();
	if (traced_prog__start(&t))
		TEST_SKIP("gcc cannot build the traced program");
	opts.pid = t.pid;
	ck_assert_int_eq(aux_session__start(&s, &opts, file), 0);
	ck_assert_int_eq(aux_f_calls__write(&s, "intel_bts", &t, 20000, 16 << 10, &rec), 0);
	ring_sink_callback__init(&sink, comm_capture__push, &c);
	ck_assert_int_eq(perf_event__synthesize_thread(s.evlist, t.pid, false, &synth, &sink.sink),
			 0);
	ck_assert_uint_gt(c.len, 0);
	/*
	 * The sample_id after the name (padded to 8 bytes) goes on both records: pid/tid, time,
	 * ID (the tracking event's sample_type), the time set past every buffer's, so that the
	 * trace before is decoded first.
	 */
	trailer = c.len - sizeof(c.comm.header) - 8 - (strlen(c.comm.comm) + 8) / 8 * 8;
	ck_assert_uint_eq(trailer, 24);
	memcpy(c.bytes + c.len - trailer + 8, &(uint64_t){ 1ULL << 62 }, 8);
	exit_ev = (struct perf_record_fork *)exit_buf;
	*exit_ev = (struct perf_record_fork){
		.header = { PERF_RECORD_EXIT, 0, (uint16_t)(sizeof(*exit_ev) + trailer) },
		.pid = c.comm.pid, .ppid = c.comm.pid, .tid = c.comm.tid, .ptid = c.comm.tid,
	};
	memcpy(exit_buf + sizeof(*exit_ev), c.bytes + c.len - trailer, trailer);
	ck_assert_int_eq(perf_data_writer__write_event(s.w, (union perf_event *)exit_buf), 0);
	ck_assert_uint_le(strlen("renamed") + 1, (strlen(c.comm.comm) + 8) / 8 * 8);
	strcpy(c.comm.comm, "renamed");
	ck_assert_int_eq(perf_data_writer__write_event(s.w, (union perf_event *)c.bytes), 0);
	ck_assert_int_eq(aux_session__finish(&s), 0);
	ck_assert_int_eq(traced_prog__finish(&t), 0);

	ck_assert_int_eq(script_same_as_perf("--itrace=b -i %s", file), (int)rec.branches);
	one = auxrec(&rc, "script --itrace=b -j1 -i %s", file);
	ck_assert_msg(rc == 0 && testlib_count_lines(one, "renamed") == 0 &&
		      testlib_count_lines(one, " branches:") == (int)rec.branches, "%.2000s", one);
	for (int j = 2; j <= 3; j++) {
		more = auxrec(&rc, "script --itrace=b -j%d -i %s", j, file);
		ck_assert_msg(rc == 0, "-j%d: status %d\n%.2000s", j, rc, more);
		assert_same_text(more, one);
		free(more);
	}
	free(one);
	traced_prog__remove(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("auxrec-script");
	TCase *tc = tcase_create("perf");

	tcase_add_checked_fixture(tc, script_tmpdir_setup, script_tmpdir_teardown);
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, test_bts_branches_match_perf);
	tcase_add_test(tc, test_address_text_follows_mappings);
	tcase_add_test(tc, test_pt_function_matches_perf);
	tcase_add_loop_test(tc, test_pt_split_buffers_match_perf, 0, 3);
	tcase_add_test(tc, test_pt_time_periods_match_perf);
	tcase_add_test(tc, test_pt_default_itrace_matches_perf);
	tcase_add_test(tc, test_bts_time_period_ignored_as_perf);
	tcase_add_test(tc, test_perf_recording_matches_perf);
	tcase_add_test(tc, test_aux_selection_matches_perf);
	tcase_add_test(tc, test_call_trace_matches_perf);
	tcase_add_test(tc, test_threads_same_output);
	tcase_add_test(tc, test_threads_side_band_order);
	suite_add_tcase(s, tc);
	tc = tcase_create("cli");
	tcase_add_checked_fixture(tc, script_tmpdir_setup, script_tmpdir_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cli);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
