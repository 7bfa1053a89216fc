// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec's HTML report, as text: one self-contained page (nothing fetched from anywhere), well
 * under 1 MB for a 10-second recording at its densest (2 CPUs or 256), its bins decoding to
 * exactly the model's (finer ones for zooming where there is room), user strings escaped, loss
 * marks bounded without losing a count, write errors reported. The browser test
 * (tests/scripts/test-report-html.sh) checks the page as drawn.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/auxrec/report-html.h"
#include "tools/auxrec/report-model.h"
#include "lib/testlib.h"

#define MS	UINT64_C(1000000)
#define SEC	UINT64_C(1000000000)
#define T0	(5000 * SEC)

/* The page of m, NUL-terminated; its length in *len. */
static char *page_of(const struct report_model *m, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(report_html__write(f, m, NULL), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/*
 * Every bin of every source on cpus CPUs for 10 s (of the model's on 2 CPUs, of the page's
 * view past that: what a page holds and the time a test takes both grow with lanes x bins),
 * with numbers as long as they get. One assertion for all the adds: check logs each assertion
 * passed, which millions would make slow.
 */
static struct report_model *dense_model(int cpus)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	int err = 0;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 10 * SEC), 0);
	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO_COMMAND, "sleep 10"), 0);
	for (int cpu = 0; cpu < cpus; cpu++)
		for (uint64_t t = 0; t <= 10 * SEC; t += cpus > 2 ? 10 * m->bin_ns : m->bin_ns)
			for (int s = 0; s < REPORT_SRC__NR; s++)
				err |= report_model__add_data(m, s, cpu, T0 + t, (UINT64_C(1) << 40) + t,
							      (UINT64_C(1) << 30) + t);
	ck_assert_int_eq(err, 0);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(report_model__add_loss(m, i % REPORT_LOSS__NR, i % 2,
							T0 + (uint64_t)i * 97 * MS, 1000), 0);
	ck_assert_int_eq(report_model__add_snapshot(m, T0 + 5 * SEC), 0);
	return m;
}

/* The page's bins take what they may whatever the lanes: wider ones when there are many. */
START_TEST(test_page_is_small)
{
	static const int cpus[] = { 2, 256 };
	struct report_model *m = dense_model(cpus[_i]);
	struct report_html_plan plan;
	size_t len;
	char *page = page_of(m, &len);

	ck_assert_uint_eq(m->nr_bins, 10001);
	report_html__plan(m, &plan);
	printf("dense 10 s, %d CPUs, 4 sources: %zu bytes, bins of %" PRIu64 " ns\n", cpus[_i], len,
	       plan.view_ns);
	ck_assert_uint_lt(len, 700 * 1000);
	ck_assert_uint_eq(strlen(page), len);
	/* 2 CPUs: 1000 bins over the view; 256: as many as fit, so fewer */
	if (cpus[_i] == 2)
		ck_assert_uint_eq(plan.view_ns, 10 * MS);
	else
		ck_assert_uint_gt(plan.view_ns, 10 * MS);
	free(page);
	report_model__free(m);
}
END_TEST

/* A page's bins of one lane and source, decoded: per page bin (of its width), bytes and records. */
static struct report_count *page_bins(const char *page, int lane, int src, size_t *nr)
{
	char key[32];
	const char *p;
	struct report_count *out = calloc(20001, sizeof(*out));
	long long size;
	size_t i = 0;
	int used;

	ck_assert_ptr_nonnull(out);
	snprintf(key, sizeof(key), "{\"id\":%d,", lane);
	p = strstr(page, key);
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "\"bins\":[");
	ck_assert_ptr_nonnull(p);
	p += strlen("\"bins\":[");
	for (int s = 0; s < src; s++) {	/* past the sources before it: null or [n,"..."] */
		p += *p == 'n' ? 4 : strcspn(p, "]") + 1;
		ck_assert_int_eq(*p++, ',');
	}
	ck_assert_int_eq(sscanf(p, "[%lld,\"%n", &size, &used), 1);
	for (p += used; *p != '"'; p += *p == ',', i++) {
		uint64_t v[2] = { 0, 0 };
		int n = 0;

		if (*p == '~') {
			i += strtoull(p + 1, (char **)&p, 36) - 1;
			continue;
		}
		while (*p != ',' && *p != '"') {
			if (*p == ':') {
				n = 1;
				p++;
				continue;
			}
			v[n] = v[n] * 36 + (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
			p++;
		}
		ck_assert_uint_lt(i, 20001);
		out[i].records = v[n];
		out[i].bytes = size >= 0 ? v[0] * (uint64_t)size : v[0];
		ck_assert_int_eq(n, size < 0);
	}
	*nr = i;
	return out;
}

/*
 * Each page bin (w ns) holds exactly what the model's bins under it hold. The model's bins must
 * start at its epoch, so that the page's start there too.
 */
static void assert_page_bins(const struct report_model *m, const char *page, int lane, int src,
			     uint64_t w)
{
	const struct report_count *b = report_model__lane(m, lane)->bins[src];
	size_t g = (size_t)(w / m->bin_ns), nr, j;
	struct report_count *got;

	ck_assert_uint_eq(m->bin_first, 0);
	ck_assert_uint_eq(w % m->bin_ns, 0);
	got = page_bins(page, lane, src, &nr);
	for (j = 0; j * g < m->nr_bins; j++) {
		struct report_count want = { 0, 0 };

		for (size_t i = j * g; i < (j + 1) * g && i < m->nr_bins; i++) {
			want.bytes += b[i].bytes;
			want.records += b[i].records;
		}
		if (got[j].bytes != want.bytes || got[j].records != want.records)
			ck_abort_msg("lane %d source %d bin %zu: %" PRIu64 "/%" PRIu64 " on the page, %"
				     PRIu64 "/%" PRIu64 " in the model", lane, src, j, got[j].bytes,
				     got[j].records, want.bytes, want.records);
	}
	ck_assert_uint_le(nr, j);
	free(got);
}

/*
 * Sparse data on 2 CPUs: every source at the model's own width (for zooming in), each in its
 * encoding (records of one size, bytes:records, records 0, runs of empty bins) decoding exactly.
 */
START_TEST(test_page_bins_exact)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	struct report_html_plan plan;
	size_t len;
	char *page;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 10 * SEC), 0);
	for (int cpu = 0; cpu < 2; cpu++) {
		for (uint64_t t = cpu; t < 10 * SEC; t += 7 * MS + 13)
			ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, cpu, T0 + t,
								48, 1), 0);
		for (uint64_t t = 0; t < 10 * SEC; t += 97 * MS)	/* a buffer, then its tail */
			ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_AUX, cpu, T0 + t,
								4096 + t % 1000, !(t % 2)), 0);
		for (uint64_t t = 2 * SEC; t < 3 * SEC; t += 300 * 1000)	/* a burst */
			ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_FTRACE, cpu, T0 + t,
								24 + 8 * (t % 3), 1), 0);
	}
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SIDEBAND, 1, T0 + 10 * SEC, 80, 2), 0);
	page = page_of(m, &len);
	report_html__plan(m, &plan);
	ck_assert_uint_eq(plan.view_ns, 10 * MS);
	for (int s = 0; s < REPORT_SRC__NR; s++)
		ck_assert_uint_eq(plan.src_ns[s], m->bin_ns);
	for (int cpu = 0; cpu < 2; cpu++)
		for (int s = 0; s < REPORT_SRC__NR; s++)
			if (report_model__lane(m, cpu)->bins[s])
				assert_page_bins(m, page, cpu, s, plan.src_ns[s]);
	ck_assert_ptr_nonnull(strstr(page, "\"bins\":[[48,\""));	/* samples: records only */
	ck_assert_ptr_nonnull(strstr(page, ",~"));		/* a run of empty bins */
	free(page);
	report_model__free(m);
}
END_TEST

/* Dense data: bins of the width the plan says, as many lanes as there are, exact all the same. */
START_TEST(test_page_bins_dense)
{
	static const int cpus[] = { 2, 256 };
	struct report_model *m = dense_model(cpus[_i]);
	struct report_html_plan plan;
	size_t len;
	char *page = page_of(m, &len);

	report_html__plan(m, &plan);
	for (int s = 0; s < REPORT_SRC__NR; s++) {
		ck_assert_uint_eq(plan.view_ns % plan.src_ns[s], 0);
		/* 2 CPUs: the view fits with room for finer bins; 256: it takes the room */
		if (cpus[_i] == 2)
			ck_assert_uint_lt(plan.src_ns[s], plan.view_ns);
		else
			ck_assert_uint_eq(plan.src_ns[s], plan.view_ns);
		assert_page_bins(m, page, 0, s, plan.src_ns[s]);
		assert_page_bins(m, page, cpus[_i] - 1, s, plan.src_ns[s]);
	}
	free(page);
	report_model__free(m);
}
END_TEST

/* Nothing on the page can make a browser fetch anything. */
START_TEST(test_page_is_self_contained)
{
	static const char *const outside[] = { "http:", "https:", "src=", "href=", "url(",
					       "@import", "<link", "<img", "<iframe", "//cdn" };
	struct report_model *m = dense_model(2);
	size_t len;
	char *page = page_of(m, &len);

	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++)
		ck_assert_msg(!strcasestr(page, outside[i]), "the page has '%s'", outside[i]);
	ck_assert_uint_eq(count_of(page, "<script type=\"application/json\" id=\"report-data\">"), 1);
	ck_assert_uint_eq(count_of(page, "<style>"), 1);
	/* the data block and the two scripts (the task lanes' and the rates'), each closed once */
	ck_assert_uint_eq(count_of(page, "<script"), 3);
	ck_assert_uint_eq(count_of(page, "</script>"), 3);
	ck_assert(strncmp(page, "<!DOCTYPE html>", 15) == 0);
	ck_assert_ptr_nonnull(strstr(page, "</html>\n"));
	free(page);
	report_model__free(m);
}
END_TEST

/* What the recording says about itself goes on the page as text, never as markup. */
START_TEST(test_user_strings_escaped)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	size_t len;
	char *page;

	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO_COMMAND,
						"sh -c 'a</script><img src=x onerror=alert(1)> && b \"q\"'"),
			 0);
	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO_HOSTNAME, "<b>host</b>"), 0);
	ck_assert_int_eq(report_model__add_event(m, "probe:<evil>&"), 0);
	page = page_of(m, &len);
	ck_assert_ptr_null(strstr(page, "<img"));
	ck_assert_ptr_null(strstr(page, "<b>host"));
	ck_assert_ptr_null(strstr(page, "<evil>"));
	ck_assert_ptr_nonnull(strstr(page, "sh -c &#39;a&lt;/script&gt;&lt;img src=x onerror=alert(1)"
					   "&gt; &amp;&amp; b &quot;q&quot;&#39;"));
	ck_assert_ptr_nonnull(strstr(page, "probe:&lt;evil&gt;&amp;"));
	ck_assert_uint_eq(count_of(page, "</script>"), 3);
	free(page);
	report_model__free(m);
}
END_TEST

struct mark {
	size_t lane;
	int64_t t;
	int kind;
	uint64_t count, reports;
};

/* The loss marks of the page's data block. */
static size_t page_marks(const char *page, struct mark *out, size_t max)
{
	const char *p = strstr(page, "\"losses\":[");
	size_t n = 0;
	int used;

	ck_assert_ptr_nonnull(p);
	p += strlen("\"losses\":[");
	while (*p == '[' || *p == ',') {
		struct mark mk;

		p += *p == ',';
		ck_assert_int_eq(sscanf(p, "[%zu,%" SCNd64 ",%d,%" SCNu64 ",%" SCNu64 "]%n", &mk.lane,
					&mk.t, &mk.kind, &mk.count, &mk.reports, &used), 5);
		ck_assert_uint_lt(n, max);
		out[n++] = mk;
		p += used;
	}
	ck_assert_int_eq(*p, ']');
	return n;
}

/* Losses in every bin of 3 lanes: more marks than a page shows, merged, every count kept. */
START_TEST(test_loss_marks_bounded)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	static struct mark marks[4000];
	uint64_t count = 0, reports = 0;
	size_t len, n;
	char *page;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 10 * SEC), 0);
	for (int lane = 0; lane < 3; lane++)
		for (uint64_t t = 0; t < 10 * SEC; t += 10 * MS)
			ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, lane,
								T0 + t + 1, 7), 0);
	ck_assert_uint_eq(m->nr_losses, 3000);
	page = page_of(m, &len);
	n = page_marks(page, marks, 4000);
	ck_assert_uint_le(n, 2000);
	ck_assert_uint_ge(n, 1000);
	for (size_t i = 0; i < n; i++) {
		count += marks[i].count;
		reports += marks[i].reports;
		ck_assert_uint_lt(marks[i].lane, 3);
		ck_assert_int_eq(marks[i].kind, REPORT_LOSS_LOST);
		/* a merged mark sits at its earliest loss */
		ck_assert_int_eq((marks[i].t - 1) % (20 * (int64_t)MS), 0);
	}
	ck_assert_uint_eq(count, 3000 * 7);
	ck_assert_uint_eq(reports, 3000);
	free(page);
	report_model__free(m);
}
END_TEST

/* More lanes and kinds with losses than marks a page shows: one mark each, and no more merging. */
START_TEST(test_loss_marks_many_lanes)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	static struct mark marks[3000];
	size_t len;
	char *page;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 10 * SEC), 0);
	for (int lane = 0; lane < 500; lane++)
		for (int k = 0; k < REPORT_LOSS__NR; k++) {
			ck_assert_int_eq(report_model__add_loss(m, k, lane, T0 + SEC, 1), 0);
			ck_assert_int_eq(report_model__add_loss(m, k, lane, T0 + 9 * SEC, 1), 0);
		}
	page = page_of(m, &len);
	ck_assert_uint_eq(page_marks(page, marks, 3000), 500 * REPORT_LOSS__NR);
	ck_assert_uint_eq(marks[0].reports, 2);
	ck_assert_int_eq(marks[0].t, (int64_t)SEC);
	free(page);
	report_model__free(m);
}
END_TEST

START_TEST(test_marks_kept_apart)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	struct mark marks[8];
	size_t len;
	char *page;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 10 * SEC), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_AUX_TRUNCATED, 3, T0 + 2 * SEC, 1), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 3, T0 + 2 * SEC + 1, 40), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 3, T0 + 2 * SEC + 5, 2), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 1, T0 + 9 * SEC, 9), 0);
	page = page_of(m, &len);
	ck_assert_uint_eq(page_marks(page, marks, 8), 3);
	/* sorted by lane, then kind: lane 1 is index 0 */
	ck_assert_uint_eq(marks[0].lane, 0);
	ck_assert_int_eq(marks[0].t, 9 * (int64_t)SEC);
	ck_assert_uint_eq(marks[1].lane, 1);
	ck_assert_int_eq(marks[1].kind, REPORT_LOSS_LOST);
	ck_assert_int_eq(marks[1].t, 2 * (int64_t)SEC + 1);
	ck_assert_uint_eq(marks[1].count, 42);
	ck_assert_uint_eq(marks[1].reports, 2);
	ck_assert_int_eq(marks[2].kind, REPORT_LOSS_AUX_TRUNCATED);
	free(page);
	report_model__free(m);
}
END_TEST

/* A recorded CPU without data: its lane in the data block (no bins) and its row in the table. */
START_TEST(test_silent_lane)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	size_t len;
	char *page;

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + SEC), 0);
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0, 48, 1), 0);
	ck_assert_int_eq(report_model__add_lane(m, 1), 0);
	page = page_of(m, &len);
	ck_assert_ptr_nonnull(strstr(page, "{\"id\":1,\"label\":\"CPU 1\",\"total\":[[0,0],[0,0],[0,0],"
					   "[0,0]],\"bins\":[null,null,null,null]}"));
	ck_assert_ptr_nonnull(strstr(page, "<tr data-lane=\"1\" data-totals=\"0/0 0/0 0/0 0/0\">"));
	ck_assert_ptr_nonnull(strstr(page, "2 CPUs recorded, 1 with data"));
	free(page);
	report_model__free(m);
}
END_TEST

START_TEST(test_empty_model)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	size_t len;
	char *page = page_of(m, &len);

	ck_assert_ptr_nonnull(strstr(page, "\"nbins\":0"));
	ck_assert_ptr_nonnull(strstr(page, "\"lanes\":[]"));
	ck_assert_ptr_nonnull(strstr(page, "<dt>Duration</dt><dd><span class=\"muted\">unknown: "
					   "nothing was recorded</span>"));
	free(page);
	report_model__free(m);
}
END_TEST

START_TEST(test_write_error)
{
	struct report_model *m = dense_model(2);
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		TEST_SKIP("no /dev/full to write to");
	ck_assert_int_eq(report_html__write(f, m, NULL), -ENOSPC);
	fclose(f);
	report_model__free(m);
}
END_TEST

/* A long list of events (every syscall) folds, so that the first screen shows the timeline. */
START_TEST(test_long_event_list_folds)
{
	for (int nr = 12; nr <= 13; nr++) {
		struct report_model *m = report_model__new(REPORT_LANES_CPU);
		char name[32];
		size_t len;
		char *page;

		for (int i = 0; i < nr; i++) {
			snprintf(name, sizeof(name), "syscalls:sys_enter_%d", i);
			ck_assert_int_eq(report_model__add_event(m, name), 0);
		}
		page = page_of(m, &len);
		ck_assert_uint_eq(count_of(page, "<summary>13 events</summary>"), nr == 13);
		ck_assert_uint_eq(count_of(page, "<code>syscalls:sys_enter_"), (size_t)nr);
		free(page);
		report_model__free(m);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report-page");
	TCase *page = tcase_create("page");

	tcase_add_loop_test(page, test_page_is_small, 0, 2);
	tcase_add_test(page, test_page_bins_exact);
	tcase_add_loop_test(page, test_page_bins_dense, 0, 2);
	tcase_add_test(page, test_page_is_self_contained);
	tcase_add_test(page, test_user_strings_escaped);
	tcase_add_test(page, test_loss_marks_bounded);
	tcase_add_test(page, test_loss_marks_many_lanes);
	tcase_add_test(page, test_marks_kept_apart);
	tcase_add_test(page, test_silent_lane);
	tcase_add_test(page, test_empty_model);
	tcase_add_test(page, test_write_error);
	tcase_add_test(page, test_long_event_list_folds);
	suite_add_tcase(s, page);
	return testlib_run(s);
}
