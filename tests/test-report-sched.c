// SPDX-License-Identifier: LGPL-2.1
/*
 * The report page's task lanes (report-sched.c, report-html-tasks.c): the exact level is the
 * switches' runs, credited as the text report credits them; coarser levels merge short runs
 * into pieces of the task that ran most, bounded per slot; a level that outgrows its budget
 * is dropped with the finer ones, so memory is bounded; and the page of a recording of 2 M
 * switches and events stays under 2 MB while carrying the coarse view. The browser test
 * (tests/scripts/test-report-tasks.sh) checks the lanes against trace-cmd on a real recording.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/auxrec/report-html.h"
#include "tools/auxrec/report-sched.h"
#include "lib/testlib.h"

#define US	UINT64_C(1000)
#define T0	(UINT64_C(7000) * 1000000000)
#define SRC	REPORT_SWITCH_FTRACE

static struct report_sched *sched_new(void)
{
	struct report_sched *s = report_sched__new();

	ck_assert_ptr_nonnull(s);
	return s;
}

/* Task tid's index, by its tid. */
static uint32_t task_of(const struct report_sched *s, pid_t tid)
{
	size_t nr;
	const struct report_sched_task *t = report_sched__tasks(s, &nr);

	for (size_t i = 0; i < nr; i++)
		if (t[i].tid == tid)
			return (uint32_t)i;
	ck_abort_msg("no task %d", tid);
	return 0;
}

START_TEST(test_exact_runs)
{
	struct report_sched *s = sched_new();
	const struct report_sched_piece *p;
	const struct report_sched_task *t;
	size_t n;

	/* CPU 0: first record at T0, then 10 -> idle at +100us, idle -> 11 at +300, 11 out at +350 */
	ck_assert_int_eq(report_sched__seen(s, SRC, 0, T0), 0);
	ck_assert_int_eq(report_sched__switch(s, SRC, 0, T0 + 100 * US, 10, "ten", 0, "swapper/0"), 0);
	ck_assert_int_eq(report_sched__switch(s, SRC, 0, T0 + 300 * US, 0, "swapper/0", 11, "eleven"), 0);
	ck_assert_int_eq(report_sched__switch(s, SRC, 0, T0 + 350 * US, 11, "eleven", 10, "ten"), 0);
	ck_assert_int_eq(report_sched__seen(s, SRC, 0, T0 + 400 * US), 0);
	ck_assert_int_eq(report_sched__finish(s), 0);
	ck_assert_int_eq(report_sched__source(s), SRC);

	p = report_sched__pieces(s, 0, 0, &n);
	ck_assert_uint_eq(n, 3);	/* the idle run is no piece */
	ck_assert_uint_eq(p[0].start, T0);
	ck_assert_uint_eq(p[0].end, T0 + 100 * US);
	ck_assert_uint_eq(p[0].task, task_of(s, 10));
	ck_assert_uint_eq(p[1].start, T0 + 300 * US);
	ck_assert_uint_eq(p[1].task, task_of(s, 11));
	/* after the last switch, the task it let in runs to the CPU's last record */
	ck_assert_uint_eq(p[2].start, T0 + 350 * US);
	ck_assert_uint_eq(p[2].end, T0 + 400 * US);
	ck_assert_uint_eq(p[2].task, task_of(s, 10));
	t = report_sched__tasks(s, &n);
	ck_assert_uint_eq(t[task_of(s, 10)].oncpu_ns, 150 * US);
	ck_assert_uint_eq(t[task_of(s, 11)].oncpu_ns, 50 * US);
	ck_assert_uint_eq(t[task_of(s, 0)].oncpu_ns, 200 * US);
	ck_assert_str_eq(t[task_of(s, 11)].comm, "eleven");
	report_sched__delete(s);
}
END_TEST

START_TEST(test_merged_levels)
{
	struct report_sched *s = sched_new();
	const struct report_sched_piece *p;
	size_t n;
	int l = 3;	/* 16 us slots */
	uint64_t t = T0;

	ck_assert_uint_eq(report_sched__slot_ns(l), 16 * US);
	ck_assert_int_eq(report_sched__seen(s, SRC, 1, t), 0);
	/* 1 ms of 2 us runs: 3 of task 20, then 1 of task 21, then 1 idle, over and over */
	for (int i = 0; i < 500; i++) {
		pid_t prev = i % 5 < 3 ? 20 : i % 5 == 3 ? 21 : 0;
		pid_t next = (i + 1) % 5 < 3 ? 20 : (i + 1) % 5 == 3 ? 21 : 0;

		t += 2 * US;
		ck_assert_int_eq(report_sched__switch(s, SRC, 1, t, prev, NULL, next, NULL), 0);
	}
	/* then one long run of 21 */
	t += 100 * US;
	ck_assert_int_eq(report_sched__switch(s, SRC, 1, t, 20, NULL, 0, NULL), 0);
	ck_assert_int_eq(report_sched__finish(s), 0);

	p = report_sched__pieces(s, l, 1, &n);
	/* 1 ms in slots of 16 us, the long run alone: at most two pieces a slot */
	ck_assert_uint_le(n, 2 * (1000 / 16 + 2) + 1);
	ck_assert_uint_ge(n, 1000 / 16 - 1);
	for (size_t i = 0; i + 1 < n; i++) {
		ck_assert_uint_eq(p[i].task, task_of(s, 20));	/* it ran most of each piece */
		/* a slot long, but the last one, closed early by the long run after it */
		if (i + 2 < n)
			ck_assert_uint_ge(p[i].end - p[i].start, 16 * US);
		/* busy: 4 of every 5 runs, within a run at the piece's edges */
		ck_assert_uint_ge(p[i].busy * 10, (p[i].end - p[i].start) * 7);
		ck_assert_uint_le(p[i].busy * 10, (p[i].end - p[i].start) * 9);
		ck_assert_uint_le(p[i].end, p[i + 1].start);
	}
	ck_assert_uint_eq(p[n - 1].end - p[n - 1].start, 100 * US);
	ck_assert_uint_eq(p[n - 1].busy, 100 * US);
	/* the exact level has every run but the idle ones */
	report_sched__pieces(s, 0, 1, &n);
	ck_assert_uint_eq(n, 400 + 1);
	report_sched__delete(s);
}
END_TEST

START_TEST(test_levels_dropped_at_budget)
{
	struct report_sched *s = sched_new();
	const struct report_sched_mark *mk;
	size_t n;

	ck_assert(report_sched__wants_fields(s));
	/* one event every 100 ns: more than level 0 (and the 1 us level) may hold */
	for (uint64_t i = 0; i < REPORT_SCHED_LEVEL_MAX + 10; i++)
		ck_assert_int_eq(report_sched__event(s, "sys:ev", false, 0, T0 + i * 100, 5, "five",
						     "a=1 b=2"), 0);
	ck_assert_int_eq(report_sched__finish(s), 0);
	ck_assert(report_sched__level(s, 0)->dropped);
	ck_assert(!report_sched__wants_fields(s));
	ck_assert_ptr_null(report_sched__marks(s, 0, 0, &n));
	ck_assert_uint_eq(n, 0);
	/* 1 us slots: one mark per ten events, kept; counts add up */
	mk = report_sched__marks(s, 1, 0, &n);
	ck_assert(!report_sched__level(s, 1)->dropped);
	ck_assert_uint_ge(n, (REPORT_SCHED_LEVEL_MAX + 10) / 10);
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < n; i++)
			sum += mk[i].count;
		ck_assert_uint_eq(sum, REPORT_SCHED_LEVEL_MAX + 10);
	}
	report_sched__delete(s);
}
END_TEST

/* A page of m and s, its length. */
static size_t page_len(const struct report_model *m, const struct report_sched *s, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(report_html__write(f, m, s), 0);
	ck_assert_int_eq(fclose(f), 0);
	*out = buf;
	return len;
}

/* Task names and event fields go into the page's data as JSON text, never as markup. */
START_TEST(test_page_escapes)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	struct report_sched *s = sched_new();
	char *page;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 1000 * US), 0);
	ck_assert_int_eq(report_sched__seen(s, SRC, 0, T0), 0);
	ck_assert_int_eq(report_sched__switch(s, SRC, 0, T0 + 10 * US, 7, "</script><img>", 0,
					      NULL), 0);
	ck_assert_int_eq(report_sched__event(s, "sys:ev", false, 0, T0 + 5 * US, 7, NULL,
					     "a=\"</script><evil>\" & \\"), 0);
	ck_assert_int_eq(report_sched__finish(s), 0);
	page_len(m, s, &page);
	ck_assert_ptr_null(strstr(page, "<img"));
	ck_assert_ptr_null(strstr(page, "<evil>"));
	/* two data blocks and two scripts, each closed once */
	{
		size_t n = 0;

		for (const char *p = page; (p = strstr(p, "</script>")); p++)
			n++;
		ck_assert_uint_eq(n, 4);
	}
	/* the fields' words, each a JSON string; the fields as their numbers */
	ck_assert_ptr_nonnull(strstr(page, "\"words\":[\"a=\\\"\\u003c/script\\u003e\\u003cevil"
					   "\\u003e\\\"\",\"\\u0026\",\"\\\\\"]"));
	ck_assert_ptr_nonnull(strstr(page, "\"fields\":[\"1.2.3\"]"));
	free(page);
	report_sched__delete(s);
	report_model__free(m);
}
END_TEST

/*
 * 2 M records over 10 s on 8 CPUs: switches among 64 tasks, and events between them (make
 * bench's bench-read writes the page of a real 12 M-record recording: 1.75 MB).
 */
START_TEST(test_page_bounded)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	struct report_sched *s = sched_new();
	const uint64_t nr = 2000000 / testlib_sweep_step(), span = UINT64_C(10000000000);
	uint64_t rng = 1;
	char *page;
	size_t len;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(report_model__set_span(m, T0, T0 + span), 0);
	for (uint64_t i = 0; i < nr; i++) {
		int cpu = (int)(i % 8);
		uint64_t t = T0 + i * (span / nr);

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		if (i % 2)
			ck_assert_int_eq(report_sched__switch(s, SRC, cpu, t, (pid_t)(100 + (rng >> 58)),
							      "worker", (pid_t)(100 + (rng >> 40) % 64),
							      "worker"), 0);
		else
			ck_assert_int_eq(report_sched__event(s, "sys:ev", false, cpu, t, 100,
							     "worker", "x=1"), 0);
		ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_FTRACE, cpu, t, 64, 1), 0);
	}
	ck_assert_int_eq(report_sched__finish(s), 0);
	len = page_len(m, s, &page);
	ck_assert_uint_lt(len, 2000000);
	/* the coarse view is there: a level, pieces on every CPU */
	ck_assert_ptr_nonnull(strstr(page, "id=\"tasks-data\""));
	ck_assert_ptr_nonnull(strstr(page, "\"levels\":[\n{\"q\":"));
	printf("page of %" PRIu64 " records: %zu bytes\n", nr, len);
	free(page);
	report_sched__delete(s);
	report_model__free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report-sched");
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_exact_runs);
	tcase_add_test(tc, test_merged_levels);
	tcase_add_test(tc, test_levels_dropped_at_budget);
	tcase_add_test(tc, test_page_escapes);
	tcase_add_test(tc, test_page_bounded);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
