// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec's report model: bin widths from the span, bins that grow with the data and still hold
 * every count where a direct binning at the final width puts it, lanes, losses merged per bin,
 * untimed records, and bad input that changes nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/auxrec/report-model.h"
#include "lib/testlib.h"

#define MS	UINT64_C(1000000)
#define SEC	UINT64_C(1000000000)
#define T0	(5000 * SEC)	/* a trace clock far from zero, as after boot */

static uint64_t rng_state;

static uint64_t rnd(uint64_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state % n;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* The bin of t at the model's final width, as an index into its bins. */
static int64_t slot_of(const struct report_model *m, uint64_t t)
{
	return floor_div((int64_t)(t - m->epoch_ns), (int64_t)m->bin_ns) - m->bin_first;
}

static int is_nice_width(uint64_t w)
{
	while (w % 10 == 0)
		w /= 10;
	return w == 1 || w == 2 || w == 5;
}

START_TEST(test_new_bad_kind)
{
	assert_null_errno(report_model__new(7), EINVAL);
	report_model__free(NULL);
}
END_TEST

static const struct {
	uint64_t duration, bin_ns;
} span_widths[] = {
	{ 10 * SEC, MS },		/* 10000 bins */
	{ SEC, MS / 10 },
	{ 3 * SEC, MS / 2 },		/* 6000 bins: 200 us would need 15000 */
	{ 10 * SEC + 1, 2 * MS },	/* one ns more than 10000 bins of 1 ms */
	{ 25 * MS, 5000 },
	{ 5 * MS, 1000 },		/* never below 1 us */
	{ 0, 1000 },			/* a recording of no length */
	{ 3600 * SEC, SEC / 2 },	/* an hour */
};

START_TEST(test_span_widths)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + span_widths[_i].duration), 0);
	ck_assert_uint_eq(m->bin_ns, span_widths[_i].bin_ns);
	ck_assert_uint_eq(m->epoch_ns, T0);
	ck_assert_uint_eq(report_model__origin(m), T0);
	report_model__free(m);
}
END_TEST

/* Data from the span's first to its last instant fits without widening: 10000 bins + the end. */
START_TEST(test_span_end_fits)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 10 * SEC), 0);
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0, 10, 1), 0);
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0 + 10 * SEC, 20, 1), 0);
	ck_assert_uint_eq(m->bin_ns, MS);
	ck_assert_uint_eq(m->nr_bins, 10001);
	ck_assert_uint_eq(report_model__bin_start(m, 0), T0);
	ck_assert_uint_eq(report_model__bin_start(m, 10000), T0 + 10 * SEC);
	ck_assert_uint_eq(m->lanes[0].bins[REPORT_SRC_SAMPLES][10000].bytes, 20);
	report_model__free(m);
}
END_TEST

START_TEST(test_span_bad)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	errno = 0;
	ck_assert_int_eq(report_model__set_span(m, T0, T0 - 1), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(report_model__set_span(m, 0, UINT64_C(1) << 63), -EINVAL);
	ck_assert_int_eq(report_model__set_span(m, T0, REPORT_TIME_NONE), -EINVAL);
	ck_assert_int_eq(m->has_span, 0);
	ck_assert_uint_eq(m->bin_ns, 0);
	report_model__free(m);
}
END_TEST

/* A span known only after the walk: the page's origin moves to it, the bins stay as they grew. */
START_TEST(test_span_after_data)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0 + SEC, 10, 1), 0);
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0 + 2 * SEC, 10, 1), 0);
	ck_assert_uint_eq(m->bin_ns, MS / 10);	/* 1 s over 10001 bins */
	ck_assert_uint_eq(report_model__origin(m), T0 + SEC);
	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 3 * SEC), 0);
	ck_assert_uint_eq(m->bin_ns, MS / 10);	/* as they grew */
	ck_assert_uint_eq(m->epoch_ns, T0 + SEC);
	ck_assert_uint_eq(report_model__origin(m), T0);
	report_model__free(m);
}
END_TEST

START_TEST(test_lanes_sorted)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	static const int ids[] = { 5, 1, 3, REPORT_LANE_NONE, 3, 255 };
	static const int sorted[] = { REPORT_LANE_NONE, 1, 3, 5, 255 };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_FTRACE, ids[i], T0 + i, 8, 1),
				 0);
	ck_assert_uint_eq(m->nr_lanes, 5);
	for (size_t i = 0; i < 5; i++)
		ck_assert_int_eq(m->lanes[i].id, sorted[i]);
	ck_assert_uint_eq(report_model__lane(m, 3)->total[REPORT_SRC_FTRACE].records, 2);
	ck_assert_ptr_null(report_model__lane(m, 4));
	report_model__free(m);
}
END_TEST

/* A recorded lane with no data is a lane like the others, in order; data on it goes there. */
START_TEST(test_silent_lane)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0, 8, 1), 0);
	ck_assert_int_eq(report_model__add_lane(m, 2), 0);
	ck_assert_int_eq(report_model__add_lane(m, 1), 0);
	ck_assert_int_eq(report_model__add_lane(m, 0), 0);
	ck_assert_int_eq(report_model__add_lane(m, -1), -EINVAL);
	ck_assert_uint_eq(m->nr_lanes, 3);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(m->lanes[i].id, i);
	for (int s = 0; s < REPORT_SRC__NR; s++) {
		ck_assert_ptr_null(m->lanes[1].bins[s]);
		ck_assert_uint_eq(m->lanes[1].total[s].records, 0);
	}
	ck_assert_uint_eq(m->lanes[0].total[REPORT_SRC_SAMPLES].records, 1);
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_FTRACE, 2, T0 + SEC, 16, 2), 0);
	ck_assert_uint_eq(m->nr_lanes, 3);
	ck_assert_uint_eq(report_model__lane(m, 2)->total[REPORT_SRC_FTRACE].records, 2);
	report_model__free(m);
}
END_TEST

/* Bad input is refused and leaves no trace: no lane, no bin, no total. */
START_TEST(test_bad_input_changes_nothing)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_AUX, 0, T0, 100, 1), 0);
	errno = 0;
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC__NR, 1, T0 + SEC, 1, 1), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(report_model__add_data(m, -1, 1, T0 + SEC, 1, 1), -EINVAL);
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_AUX, -2, T0 + SEC, 1, 1), -EINVAL);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS__NR, 1, T0 + SEC, 1), -EINVAL);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, -7, T0 + SEC, 1), -EINVAL);
	/* 2^62 ns from the rest: a corrupt timestamp, not a recording */
	errno = 0;
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_AUX, 1, T0 + (UINT64_C(1) << 62), 1,
						1), -ERANGE);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(report_model__add_snapshot(m, REPORT_TIME_NONE), -EINVAL);
	ck_assert_uint_eq(m->nr_lanes, 1);
	ck_assert_uint_eq(m->nr_bins, 1);
	ck_assert_uint_eq(m->bin_ns, 1000);
	ck_assert_uint_eq(m->source[REPORT_SRC_AUX].sum.bytes, 100);
	ck_assert_uint_eq(m->loss[REPORT_LOSS_LOST].marks, 0);
	ck_assert_uint_eq(m->nr_snapshots, 0);
	report_model__free(m);
}
END_TEST

struct rec {
	int lane;
	enum report_source src;
	uint64_t t, bytes, records;
};

/*
 * Random records over a span (with or without set_span, some before the first one): after all
 * the widening, every bin holds exactly what a direct binning at the final width gives.
 */
START_TEST(test_bins_match_direct_binning)
{
	static const uint64_t spans[] = { 10 * SEC, 3 * SEC, 777 * MS, 2 * MS, 86400 * SEC };
	uint64_t span = spans[_i % 5];
	int with_span = _i >= 5;
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	size_t n = 20000;
	struct rec *recs = calloc(n, sizeof(*recs));
	struct report_count *want;
	uint64_t lo = UINT64_MAX, hi = 0;

	rng_state = 0x9e3779b97f4a7c15ULL + (uint64_t)_i;
	if (with_span)
		ck_assert_int_eq(report_model__set_span(m, T0, T0 + span), 0);
	for (size_t i = 0; i < n; i++) {
		/* the first records come late, so that later ones land before the first bin */
		recs[i].t = T0 + (i < 10 ? span / 2 + rnd(span / 4 + 1) : rnd(span + 1));
		recs[i].lane = (int)rnd(3) - 1;
		recs[i].src = (enum report_source)rnd(REPORT_SRC__NR);
		recs[i].bytes = 1 + rnd(1 << 20);
		recs[i].records = 1 + rnd(4);
		ck_assert_int_eq(report_model__add_data(m, recs[i].src, recs[i].lane, recs[i].t,
							recs[i].bytes, recs[i].records), 0);
		lo = recs[i].t < lo ? recs[i].t : lo;
		hi = recs[i].t > hi ? recs[i].t : hi;
	}
	ck_assert(is_nice_width(m->bin_ns));
	ck_assert_uint_le(m->nr_bins, REPORT_BINS_MAX);
	/* the chain 1 -> 2 -> 10 -> 20 widens by 5 at most: at least a fifth of the bins in use */
	if (hi - lo >= 2 * REPORT_BINS_MAX * 1000)
		ck_assert_uint_ge(m->nr_bins, REPORT_BINS_MAX / 5);
	ck_assert_uint_eq(m->first_ns, lo);
	ck_assert_uint_eq(m->last_ns, hi);

	want = calloc(3 * REPORT_SRC__NR * REPORT_BINS_MAX, sizeof(*want));
	for (size_t i = 0; i < n; i++) {
		int64_t slot = slot_of(m, recs[i].t);
		struct report_count *w;

		ck_assert_int_ge(slot, 0);
		ck_assert_int_lt(slot, (int64_t)m->nr_bins);
		w = &want[((recs[i].lane + 1) * REPORT_SRC__NR + recs[i].src) * REPORT_BINS_MAX +
			  slot];
		w->bytes += recs[i].bytes;
		w->records += recs[i].records;
	}
	ck_assert_uint_eq(m->nr_lanes, 3);
	for (int l = 0; l < 3; l++)
		for (int s = 0; s < REPORT_SRC__NR; s++)
			for (size_t b = 0; b < REPORT_BINS_MAX; b++) {
				const struct report_count *w =
					&want[(l * REPORT_SRC__NR + s) * REPORT_BINS_MAX + b];
				const struct report_count *got = m->lanes[l].bins[s] ?
					&m->lanes[l].bins[s][b] : &(struct report_count){ 0, 0 };

				/* one check's call for the bin that differs, not one per bin: each
				 * ck_assert reports its point to check's parent, a write of its own */
				if (got->bytes != w->bytes || got->records != w->records)
					ck_abort_msg("lane %d source %d bin %zu: %llu bytes / %llu "
						     "records, want %llu / %llu", l, s, b,
						     (unsigned long long)got->bytes,
						     (unsigned long long)got->records,
						     (unsigned long long)w->bytes,
						     (unsigned long long)w->records);
			}
	free(want);
	free(recs);
	report_model__free(m);
}
END_TEST

START_TEST(test_losses_merge_per_bin)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__set_span(m, T0, T0 + 100 * SEC), 0);	/* 10 ms bins */
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 1, T0 + 6 * SEC + 7 * MS, 10),
			 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 1, T0 + 6 * SEC + 2 * MS, 5), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 1, T0 + 6 * SEC + 10 * MS, 1),
			 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 0, T0 + 6 * SEC + 2 * MS, 2), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_FTRACE_MISSED, 1, T0 + 6 * SEC, 0),
			 0);
	ck_assert_uint_eq(m->nr_losses, 4);
	/* the first two share [6.000, 6.010) on CPU 1: one mark at the earlier time */
	ck_assert_int_eq(m->losses[0].lane_id, 1);
	ck_assert_uint_eq(m->losses[0].time_ns, T0 + 6 * SEC + 2 * MS);
	ck_assert_uint_eq(m->losses[0].count, 15);
	ck_assert_uint_eq(m->losses[0].marks, 2);
	ck_assert_uint_eq(m->loss[REPORT_LOSS_LOST].count, 18);
	ck_assert_uint_eq(m->loss[REPORT_LOSS_LOST].marks, 4);
	ck_assert_uint_eq(m->loss[REPORT_LOSS_FTRACE_MISSED].uncounted, 1);
	ck_assert_uint_eq(report_model__lane(m, 1)->lost[REPORT_LOSS_LOST], 16);
	/* losses make lanes too: a CPU that only lost data is still a lane to look at */
	ck_assert_uint_eq(m->nr_lanes, 2);
	report_model__free(m);
}
END_TEST

/* Random losses with no span: after widening, marks are exactly the per-bin groups. */
START_TEST(test_losses_match_direct_grouping)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	enum { N = 5000, LANES = 4 };
	struct rec *l = calloc(N, sizeof(*l));
	uint64_t count_sum = 0;

	rng_state = 12345 + (uint64_t)_i;
	for (size_t i = 0; i < N; i++) {
		l[i].t = T0 + rnd(20 * SEC);
		l[i].lane = (int)rnd(LANES);
		l[i].src = (enum report_source)rnd(REPORT_LOSS__NR);	/* the kind */
		l[i].records = rnd(1000);
		count_sum += l[i].records;
		ck_assert_int_eq(report_model__add_loss(m, (enum report_loss_kind)l[i].src, l[i].lane,
							l[i].t, l[i].records), 0);
	}
	for (size_t k = 0; k < m->nr_losses; k++) {
		const struct report_loss *got = &m->losses[k];
		uint64_t count = 0, marks = 0, first = UINT64_MAX;

		for (size_t i = 0; i < N; i++) {
			if (l[i].lane != got->lane_id || (int)l[i].src != (int)got->kind ||
			    slot_of(m, l[i].t) + m->bin_first != got->bin)
				continue;
			count += l[i].records;
			marks++;
			first = l[i].t < first ? l[i].t : first;
		}
		ck_assert_uint_eq(got->count, count);
		ck_assert_uint_eq(got->marks, marks);
		ck_assert_uint_eq(got->time_ns, first);
		count_sum -= count;
	}
	ck_assert_uint_eq(count_sum, 0);	/* every loss is under some mark */
	free(l);
	report_model__free(m);
}
END_TEST

START_TEST(test_untimed)
{
	struct report_model *m = report_model__new(REPORT_LANES_THREAD);

	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SIDEBAND, 4242, REPORT_TIME_NONE, 96,
						2), 0);
	ck_assert_int_eq(report_model__add_loss(m, REPORT_LOSS_LOST, 4242, REPORT_TIME_NONE, 3), 0);
	ck_assert_uint_eq(m->source[REPORT_SRC_SIDEBAND].sum.records, 2);
	ck_assert_uint_eq(m->source[REPORT_SRC_SIDEBAND].untimed, 2);
	ck_assert_uint_gt(m->source[REPORT_SRC_SIDEBAND].first_ns,
			  m->source[REPORT_SRC_SIDEBAND].last_ns);
	ck_assert_uint_eq(m->loss[REPORT_LOSS_LOST].count, 3);
	ck_assert_uint_eq(m->nr_losses, 0);
	ck_assert_uint_eq(m->nr_bins, 0);
	ck_assert_uint_eq(m->nr_lanes, 1);
	ck_assert_ptr_null(m->lanes[0].bins[REPORT_SRC_SIDEBAND]);
	ck_assert_uint_eq(report_model__origin(m), 0);
	report_model__free(m);
}
END_TEST

/* No span: the reason says what came, untimed, and what would have dated AUX data. */
START_TEST(test_why_no_span)
{
	struct report_model *m = report_model__new(REPORT_LANES_THREAD);
	char why[512];

	report_model__why_no_span(m, why, sizeof(why));
	ck_assert_str_eq(why, "nothing was recorded");
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SIDEBAND, 7, REPORT_TIME_NONE, 96,
						2), 0);
	report_model__why_no_span(m, why, sizeof(why));
	ck_assert_str_eq(why, "none of its 2 records has a time (side-band 2 records)");
	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_AUX, 7, REPORT_TIME_NONE, 4096, 3),
			 0);
	report_model__why_no_span(m, why, sizeof(why));
	ck_assert_msg(strstr(why, "none of its 5 records has a time (side-band 2 records, AUX "
				  "trace 3 buffers): the AUXTRACE records") &&
		      strstr(why, "no PERF_RECORD_AUX with one"), "%s", why);
	report_model__why_no_span(m, why, 20);		/* cut short, still a string */
	ck_assert_uint_eq(strlen(why), 19);
	report_model__free(m);
}
END_TEST

START_TEST(test_snapshots_widen_the_timeline)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);

	ck_assert_int_eq(report_model__add_data(m, REPORT_SRC_SAMPLES, 0, T0, 64, 1), 0);
	ck_assert_int_eq(report_model__add_snapshot(m, T0 + 3 * SEC), 0);
	ck_assert_int_eq(report_model__add_snapshot(m, T0 + SEC), 0);
	ck_assert_uint_eq(m->nr_snapshots, 2);
	ck_assert_uint_eq(m->snapshots[0], T0 + 3 * SEC);
	ck_assert_uint_eq(m->snapshots[1], T0 + SEC);
	ck_assert_uint_eq(m->last_ns, T0 + 3 * SEC);
	ck_assert_uint_le(report_model__bin_start(m, m->nr_bins - 1), T0 + 3 * SEC);
	ck_assert_uint_gt(report_model__bin_start(m, m->nr_bins - 1) + m->bin_ns, T0 + 3 * SEC);
	report_model__free(m);
}
END_TEST

START_TEST(test_info)
{
	struct report_model *m = report_model__new(REPORT_LANES_CPU);
	char host[] = "host-a";

	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO_HOSTNAME, host), 0);
	host[0] = 'X';
	ck_assert_str_eq(m->info[REPORT_INFO_HOSTNAME], "host-a");
	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO_HOSTNAME, "host-b"), 0);
	ck_assert_str_eq(m->info[REPORT_INFO_HOSTNAME], "host-b");
	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO__NR, "x"), -EINVAL);
	ck_assert_int_eq(report_model__set_info(m, REPORT_INFO_COMMAND, NULL), -EINVAL);
	for (int i = 0; i < 40; i++)
		ck_assert_int_eq(report_model__add_event(m, i % 2 ? "cpu-clock" : "sched:sched_switch"),
				 0);
	ck_assert_uint_eq(m->nr_events, 40);
	ck_assert_str_eq(m->events[39], "cpu-clock");
	ck_assert_int_eq(report_model__add_event(m, NULL), -EINVAL);
	ck_assert_int_eq(report_model__set_cpus(m, 4, 2), -EINVAL);
	ck_assert_int_eq(report_model__set_cpus(m, -1, 2), -EINVAL);
	ck_assert_int_eq(report_model__set_cpus(m, 2, 4), 0);
	ck_assert_str_eq(report_source__name(REPORT_SRC_AUX), "AUX trace");
	ck_assert_str_eq(report_loss_kind__name(REPORT_LOSS_LOST), "PERF_RECORD_LOST");
	ck_assert_str_eq(report_loss_kind__unit(REPORT_LOSS__NR), "?");
	report_model__free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report-model");
	TCase *span = tcase_create("span");
	TCase *data = tcase_create("data");
	TCase *loss = tcase_create("loss");

	tcase_add_test(span, test_new_bad_kind);
	tcase_add_loop_test(span, test_span_widths, 0, sizeof(span_widths) / sizeof(span_widths[0]));
	tcase_add_test(span, test_span_end_fits);
	tcase_add_test(span, test_span_bad);
	tcase_add_test(span, test_span_after_data);
	suite_add_tcase(s, span);
	tcase_add_test(data, test_lanes_sorted);
	tcase_add_test(data, test_silent_lane);
	tcase_add_test(data, test_bad_input_changes_nothing);
	tcase_add_loop_test(data, test_bins_match_direct_binning, 0, 10);
	tcase_add_test(data, test_untimed);
	tcase_add_test(data, test_why_no_span);
	tcase_add_test(data, test_snapshots_widen_the_timeline);
	tcase_add_test(data, test_info);
	suite_add_tcase(s, data);
	tcase_add_test(loss, test_losses_merge_per_bin);
	tcase_add_loop_test(loss, test_losses_match_direct_grouping, 0, 3);
	suite_add_tcase(s, loss);
	return testlib_run(s);
}
