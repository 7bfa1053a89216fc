// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec report's aggregates of what ran, fed record by record and read back from the tables
 * they print: time on CPU cut at switches (the first piece to the previous task, the last to
 * the next one when the switch names it), the switch source with the most switches chosen,
 * tasks and symbols past the top folded into one line with their sums, events by count with
 * a column per CPU, and events without a record listed in lines under 100 columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/auxrec/report-agg.h"
#include "lib/testlib.h"

/* The printed tables, the caller's to free. */
static char *agg_text(struct report_agg *a, uint64_t origin)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	report_agg__print(f, a, origin);
	fclose(f);
	return text;
}

/* text has want; else the tables go to stderr (a check message holds too little). */
static void expect(const char *text, const char *want)
{
	if (!strstr(text, want)) {
		fputs(text, stderr);
		ck_abort_msg("not in the tables: '%s'", want);
	}
}

/* The line of the tasks table whose tid column is tid, or NULL. */
static const char *task_row(const char *text, int tid, char *buf, size_t size)
{
	const char *l = strstr(text, "\ntasks:");

	for (l = l ? strchr(l + 1, '\n') : NULL; l && l[1] == ' '; l = strchr(l + 1, '\n')) {
		const char *end = strchr(l + 1, '\n');
		size_t n = end ? (size_t)(end - l - 1) : strlen(l + 1);
		char pid[16];
		int t;

		if (n >= size)
			continue;
		memcpy(buf, l + 1, n);
		buf[n] = '\0';
		if (sscanf(buf + 18, "%15s %d", pid, &t) == 2 && t == tid)
			return buf;
	}
	return NULL;
}

static void assert_oncpu(const char *text, int tid, const char *secs)
{
	char row[256];

	if (!task_row(text, tid, row, sizeof(row)))
		fputs(text, stderr);
	ck_assert_msg(task_row(text, tid, row, sizeof(row)), "no row for tid %d", tid);
	ck_assert_msg(strstr(row, secs), "tid %d: want %s in '%s'", tid, secs, row);
}

START_TEST(test_oncpu_pieces)
{
	struct report_agg *a = report_agg__new();
	char *text;

	ck_assert_ptr_nonnull(a);
	/* CPU 0 from 100 to 900 ns: 1 runs, 2 from 200, 1 again from 500 */
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_FTRACE, 0, 100), 0);
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_FTRACE, 0, 200, 1, "one", 2, "two"), 0);
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_FTRACE, 0, 500, 2, "two", 1, "one"), 0);
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_FTRACE, 0, 900), 0);
	/* CPU 1: 3 until its only switch, then 4 to the CPU's last record */
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_FTRACE, 1, 1000), 0);
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_FTRACE, 1, 1070, 3, "three", 4,
					    "four"), 0);
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_FTRACE, 1, 1100), 0);
	text = agg_text(a, 0);
	expect(text, "time on CPU from trace.dat's sched:sched_switch (3 ");
	assert_oncpu(text, 1, " 0.000000500 ");	/* 100..200 and 500..900 */
	assert_oncpu(text, 2, " 0.000000300 ");
	assert_oncpu(text, 3, " 0.000000070 ");
	assert_oncpu(text, 4, " 0.000000030 ");	/* the last piece, to the next task */
	expect(text, "  one ");
	free(text);
	report_agg__delete(a);
}
END_TEST

START_TEST(test_oncpu_source_with_most_switches)
{
	struct report_agg *a = report_agg__new();
	char *text;

	/* one ftrace switch, two perf tracepoint ones (whose next task is not known) */
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_FTRACE, 0, 10, 7, "x", 8, "y"), 0);
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_PERF_TP, 0, 0), 0);
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_PERF_TP, 0, 40, 5, "five", -1, NULL),
			 0);
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_PERF_TP, 0, 100, 6, "six", -1, NULL),
			 0);
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_PERF_TP, 0, 1000), 0);
	text = agg_text(a, 0);
	expect(text, "from perf.data's sched:sched_switch (2 switches)");
	assert_oncpu(text, 5, " 0.000000040 ");
	assert_oncpu(text, 6, " 0.000000060 ");
	assert_oncpu(text, 7, " 0.000000000 ");	/* the ftrace source is not the one shown */
	free(text);
	report_agg__delete(a);
}
END_TEST

START_TEST(test_oncpu_switch_records)
{
	struct report_agg *a = report_agg__new();
	char *text;

	/* per-task PERF_RECORD_SWITCH: in at 100, out at 350 (next not named), in at 400 */
	ck_assert_int_eq(report_agg__switch_in(a, REPORT_SWITCH_PERF_RECORD, 1, 100, 9), 0);
	ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_PERF_RECORD, 1, 350, 9, "nine", -1,
					    NULL), 0);
	ck_assert_int_eq(report_agg__switch_in(a, REPORT_SWITCH_PERF_RECORD, 1, 400, 9), 0);
	ck_assert_int_eq(report_agg__seen(a, REPORT_SWITCH_PERF_RECORD, 1, 450), 0);
	text = agg_text(a, 0);
	assert_oncpu(text, 9, " 0.000000300 ");	/* 100..350 and 400..450 */
	free(text);
	report_agg__delete(a);
}
END_TEST

START_TEST(test_tasks_folded)
{
	struct report_agg *a = report_agg__new();
	char *text, row[256];

	/* tid switches out at 1 + 2 + ... + tid: it ran tid ns, but 1, whose piece starts the CPU */
	for (int tid = 1; tid <= REPORT_AGG_TOP_TASKS + 5; tid++)
		ck_assert_int_eq(report_agg__switch(a, REPORT_SWITCH_FTRACE, 0,
						    (uint64_t)tid * (tid + 1) / 2, tid, "t", tid + 1,
						    "t"), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(report_agg__event(a, &text, NULL, "e", REPORT_EVENT_FTRACE, 0,
						   UINT64_MAX, -1, 2, NULL), 0);
	text = agg_text(a, 0);
	assert_oncpu(text, REPORT_AGG_TOP_TASKS + 5, " 0.000000025 ");
	/* shown: 25 .. 6; folded: 5 .. 1 and 26 (0 ns: the CPU ends as it comes in) */
	ck_assert_msg(task_row(text, 6, row, sizeof(row)), "tid 6 not shown");
	ck_assert_msg(!task_row(text, 5, row, sizeof(row)), "tid 5 shown");
	/* 2 + 3 + 4 + 5 ns of 324, and tid 2's events */
	expect(text, "  (6 more)                            0.000000014   4.32          0"
				   "          3\n");
	free(text);
	report_agg__delete(a);
}
END_TEST

START_TEST(test_events_table)
{
	struct report_agg *a = report_agg__new();
	static const int keys[400];
	char *text, *line;
	int longest = 0;

	for (int i = 0; i < 340; i++) {
		char name[48];

		snprintf(name, sizeof(name), "sys_enter_call_number_%d", i);
		ck_assert_int_eq(report_agg__declare_event(a, &keys[i], "syscalls", name,
							   REPORT_EVENT_FTRACE), 0);
	}
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(report_agg__event(a, &keys[1], "syscalls", "ignored",
						   REPORT_EVENT_FTRACE, i % 2, 1000 + i, -1, 1, NULL),
				 0);
	ck_assert_int_eq(report_agg__event(a, &keys[399], NULL, "cpu-clock", REPORT_EVENT_PERF,
					   1, 2000, 1, 1, "one"), 0);
	text = agg_text(a, 1000);
	expect(text, "  syscalls:sys_enter_call_number_1 ftrace          5          3"
				   "          2    0.000000000    0.000000004\n");
	expect(text, "  cpu-clock                        perf            1          0"
				   "          1    0.000001000    0.000001000\n");
	expect(text, "  339 recorded without a record: ");
	expect(text, " syscalls:sys_enter_call_number_0 (ftrace)");
	/* the list of names without a record is wrapped */
	for (line = strstr(text, "  339 recorded"); line; line = strchr(line + 1, '\n')) {
		char *end = strchr(line + 1, '\n');
		int n = end ? (int)(end - line - 1) : (int)strlen(line);

		longest = n > longest ? n : longest;
	}
	ck_assert_int_lt(longest, 100);
	free(text);
	report_agg__delete(a);
}
END_TEST

START_TEST(test_symbols_by_period)
{
	struct report_agg *a = report_agg__new();
	int ev1, ev2;
	char *text, sym[32];

	ck_assert_int_eq(report_agg__declare_event(a, &ev1, NULL, "cpu-clock", REPORT_EVENT_PERF),
			 0);
	ck_assert_int_eq(report_agg__declare_event(a, &ev2, NULL, "page-faults",
						   REPORT_EVENT_PERF), 0);
	/* main: 3 samples of period 100; f: 10 of period 10: main weighs more */
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(report_agg__symbol(a, &ev1, "prog", "/usr/bin/prog", "main", false,
						    100), 0);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(report_agg__symbol(a, &ev1, "prog", "/usr/bin/prog", "f", false, 10),
				 0);
	ck_assert_int_eq(report_agg__symbol(a, &ev1, "prog", NULL, NULL, true, 200), 0);
	for (int i = 0; i < REPORT_AGG_TOP_SYMBOLS + 3; i++) {
		snprintf(sym, sizeof(sym), "s%d", i);
		ck_assert_int_eq(report_agg__symbol(a, &ev2, "sh", "[kernel.kallsyms]", sym, true, 1),
				 0);
	}
	text = agg_text(a, 0);
	expect(text, "top symbols of cpu-clock: 14 samples");
	expect(text, "    50.00%          3  prog             prog"
				   "                     [.] main\n"
				   "    33.33%          1  prog             [unknown]"
				   "                [k] [unknown]\n"
				   "    16.67%         10  prog             prog"
				   "                     [.] f\n");
	expect(text, "top symbols of page-faults: 23 samples");
	expect(text, "    13.04%          3  (3 more)\n");
	free(text);
	report_agg__delete(a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report-agg");
	TCase *oncpu = tcase_create("oncpu");
	TCase *tables = tcase_create("tables");

	tcase_add_test(oncpu, test_oncpu_pieces);
	tcase_add_test(oncpu, test_oncpu_source_with_most_switches);
	tcase_add_test(oncpu, test_oncpu_switch_records);
	suite_add_tcase(s, oncpu);
	tcase_add_test(tables, test_tasks_folded);
	tcase_add_test(tables, test_events_table);
	tcase_add_test(tables, test_symbols_by_period);
	suite_add_tcase(s, tables);
	return testlib_run(s);
}
