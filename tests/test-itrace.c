// SPDX-License-Identifier: LGPL-2.1
/*
 * itrace options: the grammar table (what every accepted string sets, field by field, and
 * its canonical form), the exact error of every refused string, perf's defaults, and perf
 * 6.1 itself agreeing on what it accepts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <auxtrace/itrace.h>

#include "lib/log-capture.h"
#include "lib/testlib.h"

#define OPTS(...) { .sz = sizeof(struct itrace_synth_opts), .set = true, __VA_ARGS__ }

/* Every field, so a table entry states the whole structure a string makes. */
#define ITRACE_FIELDS(X)							\
	X(set) X(default_no_sample) X(inject) X(dont_decode) X(instructions)	\
	X(cycles) X(branches) X(transactions) X(ptwrites) X(pwr_events)	\
	X(other_events) X(intr_events) X(errors) X(log) X(calls) X(returns)	\
	X(callchain) X(add_callchain) X(thread_stack) X(last_branch)		\
	X(add_last_branch) X(approx_ipc) X(flc) X(llc) X(tlb) X(remote_access)	\
	X(mem) X(timeless_decoding) X(use_timestamp) X(callchain_sz)		\
	X(last_branch_sz) X(period) X(period_type) X(initial_skip)		\
	X(error_plus_flags) X(error_minus_flags) X(log_plus_flags)		\
	X(log_minus_flags) X(quick) X(log_on_error_size)

/* The first field that differs, or NULL. */
static const char *opts_diff(const struct itrace_synth_opts *a, const struct itrace_synth_opts *b)
{
#define X(f) if (a->f != b->f) return #f;
	ITRACE_FIELDS(X)
#undef X
	if (a->cpu_bitmap != b->cpu_bitmap)
		return "cpu_bitmap";
	return NULL;
}

static int parse(struct itrace_synth_opts *opts, const char *str)
{
	*opts = (struct itrace_synth_opts){ .sz = sizeof(*opts) };
	return itrace_do_parse_synth_opts(opts, str, 0);
}

static const struct accepted {
	const char *str;
	struct itrace_synth_opts want;
	const char *canonical;
} accepted[] = {
	{ "",		OPTS(),							"" },
	{ "i",		OPTS(.instructions = true, .period = 100000,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"i" },
	{ "i100us,b",	OPTS(.instructions = true, .branches = true, .period = 100000,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"ib" },
	{ "bi100",	OPTS(.instructions = true, .branches = true, .period = 100,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"i100nsb" },
	{ "i 100 , ns",	OPTS(.instructions = true, .period = 100,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"i100ns" },
	{ "i2ms",	OPTS(.instructions = true, .period = 2000000,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"i2ms" },
	{ "i1500us",	OPTS(.instructions = true, .period = 1500000,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"i1500us" },
	{ "i10i",	OPTS(.instructions = true, .period = 10,
			     .period_type = PERF_ITRACE_PERIOD_INSTRUCTIONS),	"i10i" },
	{ "y7t,x",	OPTS(.cycles = true, .transactions = true, .period = 7,
			     .period_type = PERF_ITRACE_PERIOD_TICKS),		"y7tx" },
	{ "i0",		OPTS(.instructions = true, .period = 0,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"i0ns" },
	/* A later period wins, and an i without one keeps it. */
	{ "i5iy3t i",	OPTS(.instructions = true, .cycles = true, .period = 3,
			     .period_type = PERF_ITRACE_PERIOD_TICKS),		"iy3t" },
	{ "cr",		OPTS(.branches = true, .calls = true, .returns = true),	"cr" },
	{ "bc",		OPTS(.branches = true, .calls = true),			"c" },
	{ "xwpoI",	OPTS(.transactions = true, .ptwrites = true, .pwr_events = true,
			     .other_events = true, .intr_events = true),	"xwpoI" },
	{ "e",		OPTS(.errors = true),					"e" },
	{ "e-o-l",	OPTS(.errors = true,
			     .error_minus_flags = AUXTRACE_ERR_FLG_OVERFLOW |
						  AUXTRACE_ERR_FLG_DATA_LOST),	"e-l-o" },
	{ "e + o - l,b", OPTS(.errors = true, .branches = true,
			      .error_plus_flags = AUXTRACE_ERR_FLG_OVERFLOW,
			      .error_minus_flags = AUXTRACE_ERR_FLG_DATA_LOST),	"be-l+o" },
	{ "d",		OPTS(.log = true),					"d" },
	{ "d+e",	OPTS(.log = true, .log_plus_flags = AUXTRACE_LOG_FLG_ON_ERROR,
			     .log_on_error_size = 16384),			"d+e" },
	{ "d+a-o",	OPTS(.log = true, .log_plus_flags = AUXTRACE_LOG_FLG_ALL_PERF_EVTS,
			     .log_minus_flags = AUXTRACE_LOG_FLG_USE_STDOUT),	"d+a-o" },
	{ "fmtaM",	OPTS(.flc = true, .llc = true, .tlb = true, .remote_access = true,
			     .mem = true),					"fmtaM" },
	{ "ig",		OPTS(.instructions = true, .callchain = true, .callchain_sz = 16,
			     .period = 100000,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"ig" },
	{ "g32",	OPTS(.callchain = true, .callchain_sz = 32),		"g32" },
	{ "G, 1024",	OPTS(.add_callchain = true, .callchain_sz = 1024),	"G1024" },
	/* Every g or G sets the size: a later one without a number brings back 16. */
	{ "g32G",	OPTS(.callchain = true, .add_callchain = true,
			     .callchain_sz = 16),				"gG" },
	{ "gG8",	OPTS(.callchain = true, .add_callchain = true,
			     .callchain_sz = 8),				"gG8" },
	{ "l",		OPTS(.last_branch = true, .last_branch_sz = 64),	"l" },
	{ "l1L",	OPTS(.last_branch = true, .add_last_branch = true,
			     .last_branch_sz = 64),				"lL" },
	{ "L 3",	OPTS(.add_last_branch = true, .last_branch_sz = 3),	"L3" },
	{ "s 1000",	OPTS(.initial_skip = 1000),				"s1000" },
	{ "s0",		OPTS(),							"" },
	{ "qq",		OPTS(.quick = 2),					"qq" },
	{ "AZT",	OPTS(.approx_ipc = true, .timeless_decoding = true,
			     .use_timestamp = true),				"AZT" },
	{ " , ",	OPTS(),							"" },
	/* perf script's own example and the documented equivalent of plain --itrace. */
	{ "ibxwpe",	OPTS(.instructions = true, .branches = true, .transactions = true,
			     .ptwrites = true, .pwr_events = true, .errors = true,
			     .period = 100000,
			     .period_type = PERF_ITRACE_PERIOD_NANOSECS),	"ibxwpe" },
	{ "crg8l16s5q", OPTS(.branches = true, .calls = true, .returns = true,
			     .callchain = true, .callchain_sz = 8, .last_branch = true,
			     .last_branch_sz = 16, .initial_skip = 5, .quick = 1),
									"crg8l16s5q" },
};

START_TEST(test_accepted)
{
	const struct accepted *a = &accepted[_i];
	struct itrace_synth_opts got, again;
	const char *diff;
	char canon[128];

	log_capture_start();
	ck_assert_msg(parse(&got, a->str) == 0, "'%s' refused: %s", a->str, log_text);
	log_capture_stop();
	ck_assert_msg(!log_text[0], "'%s' logged: %s", a->str, log_text);
	diff = opts_diff(&got, &a->want);
	ck_assert_msg(!diff, "'%s': field %s differs", a->str, diff);

	ck_assert_int_eq(itrace_synth_opts__snprint(&got, canon, sizeof(canon)),
			 (int)strlen(a->canonical));
	ck_assert_str_eq(canon, a->canonical);
	ck_assert_int_eq(parse(&again, canon), 0);
	diff = opts_diff(&again, &got);
	ck_assert_msg(!diff, "'%s' printed as '%s' parses back with %s changed", a->str, canon,
		      diff);
}
END_TEST

static const struct refused {
	const char *str;
	const char *log;	/* the whole log, exactly */
} refused[] = {
	{ "i100,b",
	  "EBad Instruction Tracing options 'i100,b': at byte 5 ('b'): 'b' cannot follow the "
	  "period 100 of 'i' (instructions): a period's unit (i instructions, t ticks, ns, us, "
	  "ms) comes right after its number, e.g. i100us, and a bare number (nanoseconds) must "
	  "end the string\n"
	  "EThe part before byte 5, 'i100,', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "i100 b",
	  "EBad Instruction Tracing options 'i100 b': at byte 5 ('b'): 'b' cannot follow the "
	  "period 100 of 'i' (instructions): a period's unit (i instructions, t ticks, ns, us, "
	  "ms) comes right after its number, e.g. i100us, and a bare number (nanoseconds) must "
	  "end the string\n"
	  "EThe part before byte 5, 'i100 ', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "bi100m",
	  "EBad Instruction Tracing options 'bi100m': at byte 5 ('m'): the unit 'm' of the "
	  "period 100 of 'i' (instructions) must be ms\n"
	  "EThe part before byte 5, 'bi100', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "y5n",
	  "EBad Instruction Tracing options 'y5n': at byte 2 ('n'): the unit 'n' of the period "
	  "5 of 'y' (cycles) must be ns\n"
	  "EThe part before byte 2, 'y5', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "i99999999999999999999",
	  "EBad Instruction Tracing options 'i99999999999999999999': at byte 1 ('9'): the period "
	  "99999999999999999999 of 'i' (instructions) does not fit in 64 bits\n"
	  "EThe part before byte 1, 'i', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "i18446744073709552ms",
	  "EBad Instruction Tracing options 'i18446744073709552ms': at byte 1 ('1'): the period "
	  "18446744073709552ms of 'i' (instructions) does not fit in 64 bits of nanoseconds\n"
	  "EThe part before byte 1, 'i', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "V",
	  "EBad Instruction Tracing options 'V': at byte 0 ('V'): not an itrace option; the "
	  "options are iybcrxwpoIedfmtaMgGlLsqAZT\n" },
	{ "b;",
	  "EBad Instruction Tracing options 'b;': at byte 1 (';'): not an itrace option; the "
	  "options are iybcrxwpoIedfmtaMgGlLsqAZT\n"
	  "EThe part before byte 1, 'b', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "b\x01",
	  "EBad Instruction Tracing options 'b\x01': at byte 1 (byte 0x01): not an itrace "
	  "option; the options are iybcrxwpoIedfmtaMgGlLsqAZT\n"
	  "EThe part before byte 1, 'b', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "g0",
	  "EBad Instruction Tracing options 'g0': at byte 1 ('0'): the size 0 of 'g' (callchain) "
	  "is out of range: give 1 to 1024\n"
	  "EThe part before byte 1, 'g', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "G1025",
	  "EBad Instruction Tracing options 'G1025': at byte 1 ('1'): the size 1025 of 'G' "
	  "(callchain on events) is out of range: give 1 to 1024\n"
	  "EThe part before byte 1, 'G', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "l4294967360",	/* 2^32 + 64: perf's unsigned int would make it 64 */
	  "EBad Instruction Tracing options 'l4294967360': at byte 1 ('4'): the size 4294967360 "
	  "of 'l' (last branch) is out of range: give 1 to 1024\n"
	  "EThe part before byte 1, 'l', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "s",
	  "EBad Instruction Tracing options 's': at byte 0 ('s'): 's' needs the number of events "
	  "to skip, e.g. s1000\n" },
	{ "bs-1",
	  "EBad Instruction Tracing options 'bs-1': at byte 1 ('s'): 's' needs the number of "
	  "events to skip, e.g. s1000\n"
	  "EThe part before byte 1, 'b', is valid on its own: keep it and fix or "
	  "drop what follows\n" },
	{ "s99999999999999999999",
	  "EBad Instruction Tracing options 's99999999999999999999': at byte 1 ('9'): the skip "
	  "count 99999999999999999999 does not fit in 64 bits\n" },
	{ "e+",
	  "EBad Instruction Tracing options 'e+': at byte 2 (the end): '+' after 'e' (errors) "
	  "takes a flag: o (overflow) or l (data lost)\n" },
	{ "e-x",
	  "EBad Instruction Tracing options 'e-x': at byte 2 ('x'): '-' after 'e' (errors) takes "
	  "a flag: o (overflow) or l (data lost)\n" },
	{ "ed+O",
	  "EBad Instruction Tracing options 'ed+O': at byte 3 ('O'): '+' after 'd' (debug log) "
	  "takes a flag: a (all perf events), e (only on error) or o (to stdout)\n" },
};

START_TEST(test_refused)
{
	const struct refused *r = &refused[_i];
	struct itrace_synth_opts opts;
	int err;

	log_capture_start();
	err = parse(&opts, r->str);
	log_capture_stop();
	ck_assert_msg(err == -EINVAL && errno == EINVAL, "'%s': %d", r->str, err);
	ck_assert_str_eq(log_text, r->log);
}
END_TEST

/* A refused string leaves the caller's options as they were; a good one adds to them. */
START_TEST(test_cumulative_and_all_or_nothing)
{
	struct itrace_synth_opts opts = { .sz = sizeof(opts) }, before;

	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, "b", 0), 0);
	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, "i10i", 0), 0);
	ck_assert(opts.branches && opts.instructions && opts.period == 10);
	before = opts;
	log_capture_start();
	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, "xg32i5,b", 0), -EINVAL);
	log_capture_stop();
	ck_assert_ptr_null(opts_diff(&opts, &before));
	ck_assert(!opts.transactions && !opts.callchain);
	/* The message names the good part, as written, to keep. */
	ck_assert_msg(log_captured("'xg32i5,', is valid on its own: keep it"), "%s", log_text);
}
END_TEST

START_TEST(test_defaults)
{
	struct itrace_synth_opts report = OPTS(.instructions = true, .cycles = true,
		.branches = true, .transactions = true, .ptwrites = true, .pwr_events = true,
		.other_events = true, .intr_events = true, .errors = true, .flc = true,
		.llc = true, .tlb = true, .remote_access = true, .mem = true,
		.callchain_sz = 16, .last_branch_sz = 64, .period = 100000,
		.period_type = PERF_ITRACE_PERIOD_NANOSECS);
	struct itrace_synth_opts script = report, opts = { .sz = sizeof(opts) };
	char canon[64];

	script.instructions = script.cycles = false;
	script.calls = script.default_no_sample = true;
	script.period = 1;
	script.period_type = PERF_ITRACE_PERIOD_INSTRUCTIONS;

	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, NULL, 0), 0);
	ck_assert_ptr_null(opts_diff(&opts, &report));
	itrace_synth_opts__snprint(&opts, canon, sizeof(canon));
	ck_assert_str_eq(canon, "iybxwpoIefmtaM");

	opts = (struct itrace_synth_opts){ .sz = sizeof(opts), .default_no_sample = true };
	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, NULL, 0), 0);
	ck_assert_ptr_null(opts_diff(&opts, &script));
	itrace_synth_opts__snprint(&opts, canon, sizeof(canon));
	ck_assert_str_eq(canon, "cxwpoIefmtaM");

	opts = (struct itrace_synth_opts){ .sz = sizeof(opts) };
	ck_assert_int_eq(itrace_synth_opts__set_default(&opts, true), 0);
	ck_assert(!opts.set && opts.calls && opts.period == 1);

	/* --no-itrace */
	opts = (struct itrace_synth_opts){ .sz = sizeof(opts) };
	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, "ignored", 1), 0);
	ck_assert(opts.set && opts.dont_decode && !opts.instructions);
}
END_TEST

/* Options refused by their sz (the rule, at every entry point: test-opts.c) stay as they
 * were, as after a refused string; NULL is refused. */
START_TEST(test_refused_opts_untouched)
{
	struct itrace_synth_opts opts = { 0 };

	log_capture_start();
	ck_assert_int_eq(itrace_do_parse_synth_opts(&opts, "b", 0), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert(!opts.branches && !opts.set);
	ck_assert_int_eq(itrace_synth_opts__set_default(NULL, false), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("struct itrace_synth_opts: opts is NULL"), "%s", log_text);
}
END_TEST

START_TEST(test_snprint)
{
	struct itrace_synth_opts opts;
	char small[4] = "xxx";

	ck_assert_int_eq(parse(&opts, "i10ucrg8"), -EINVAL);
	ck_assert_int_eq(parse(&opts, "i10uscrg8"), 0);
	ck_assert_int_eq(itrace_synth_opts__snprint(&opts, small, sizeof(small)), 9);
	ck_assert_str_eq(small, "i10");
	ck_assert_int_eq(itrace_synth_opts__snprint(&opts, NULL, 0), 9);

	opts.period_type = 7;
	log_capture_start();
	ck_assert_int_eq(itrace_synth_opts__snprint(&opts, small, sizeof(small)), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("period_type 7"), "%s", log_text);
}
END_TEST

/*
 * perf 6.1 and the library accept and refuse the same strings (perf 6.1 predates y and T,
 * and takes overflowing numbers and unknown flags silently: those are left out).
 */
static int perf_accepts(const char *itrace)
{
	char cmd[256], out[4096] = "";
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "timeout 10 perf script --itrace='%s' -i /nonexistent 2>&1",
		 itrace);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	if (pclose(p) == -1)
		return -1;
	if (strstr(out, "Bad Instruction Tracing options"))
		return 0;
	return strstr(out, "/nonexistent") ? 1 : -1;
}

START_TEST(test_perf_agrees)
{
	static const char *const strs[] = {
		"", "i", "i100,b", "i100us,b", "bi100", "i 100 ns", "i100n", "i100m", "i100ms",
		"i10t", "i10i,b", "i10x", "cr", "xwpoI", "e", "e-o-l", "e+o -l", "e+", "e+O", "d",
		"d+e", "d +a", "fmtaM", "g", "g32", "g0", "g1024", "g1025", "G8", "l", "l64",
		"L1", "s", "s5", "s 5", "qq", "A", "Z", "V", "b;", "ibxwpe", "cewp", "i,b", "ii",
	};
	struct itrace_synth_opts opts;

	if (system("perf version >/dev/null 2>&1"))
		TEST_SKIP("perf is not installed");
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		int perf = perf_accepts(strs[i]);

		ck_assert_msg(perf >= 0, "perf script --itrace='%s' said neither yes nor no",
			      strs[i]);
		log_capture_start();
		ck_assert_msg((parse(&opts, strs[i]) == 0) == perf, "'%s': perf %s it", strs[i],
			      perf ? "accepts" : "refuses");
		log_capture_stop();
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("itrace");
	TCase *tc = tcase_create("grammar");
	TCase *perf = tcase_create("perf");

	tcase_add_loop_test(tc, test_accepted, 0, sizeof(accepted) / sizeof(accepted[0]));
	tcase_add_loop_test(tc, test_refused, 0, sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(tc, test_cumulative_and_all_or_nothing);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_refused_opts_untouched);
	tcase_add_test(tc, test_snprint);
	tcase_add_test(perf, test_perf_agrees);
	tcase_set_timeout(perf, 120);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, perf);
	return testlib_run(s);
}
