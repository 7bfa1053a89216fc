// SPDX-License-Identifier: LGPL-2.1
/* The report model: a recording binned over time per lane and per source (report-model.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-model.h"

/* No recording spans 146 years: a time this far from the others is a corrupt timestamp. */
#define REPORT_TIME_RANGE	(INT64_C(1) << 62)
/* Before the span or a second timestamp says better: 1 us bins, grown as the data needs. */
#define REPORT_FIRST_BIN_NS	1000

static const char *const source_names[REPORT_SRC__NR] = {
	[REPORT_SRC_SAMPLES] = "perf samples",
	[REPORT_SRC_SIDEBAND] = "side-band",
	[REPORT_SRC_AUX] = "AUX trace",
	[REPORT_SRC_FTRACE] = "ftrace events",
};

static const char *const source_units[REPORT_SRC__NR] = {
	[REPORT_SRC_SAMPLES] = "samples",
	[REPORT_SRC_SIDEBAND] = "records",
	[REPORT_SRC_AUX] = "buffers",
	[REPORT_SRC_FTRACE] = "events",
};

static const char *const loss_names[REPORT_LOSS__NR] = {
	[REPORT_LOSS_LOST] = "PERF_RECORD_LOST",
	[REPORT_LOSS_AUX_TRUNCATED] = "AUX truncated",
	[REPORT_LOSS_AUX_PARTIAL] = "AUX partial",
	[REPORT_LOSS_AUX_COLLISION] = "AUX collision",
	[REPORT_LOSS_FTRACE_MISSED] = "ftrace missed events",
	[REPORT_LOSS_LOST_SAMPLES] = "PERF_RECORD_LOST_SAMPLES",
};

static const char *const loss_units[REPORT_LOSS__NR] = {
	[REPORT_LOSS_LOST] = "records lost",
	[REPORT_LOSS_AUX_TRUNCATED] = "records flagged",
	[REPORT_LOSS_AUX_PARTIAL] = "records flagged",
	[REPORT_LOSS_AUX_COLLISION] = "records flagged",
	[REPORT_LOSS_FTRACE_MISSED] = "events missed",
	[REPORT_LOSS_LOST_SAMPLES] = "samples lost",
};

const char *report_source__name(enum report_source src)
{
	return (unsigned)src < REPORT_SRC__NR ? source_names[src] : "?";
}

const char *report_source__unit(enum report_source src)
{
	return (unsigned)src < REPORT_SRC__NR ? source_units[src] : "?";
}

void report_model__why_no_span(const struct report_model *m, char *buf, size_t size)
{
	uint64_t all = 0;
	size_t n = 0;

	for (int s = 0; s < REPORT_SRC__NR; s++)
		all += m->source[s].sum.records;
	if (!all) {
		snprintf(buf, size, "nothing was recorded");
		return;
	}
	n += snprintf(buf, size, "none of its %" PRIu64 " records has a time (", all);
	for (int s = 0, first = 1; s < REPORT_SRC__NR; s++) {
		if (!m->source[s].sum.records || n >= size)
			continue;
		n += snprintf(buf + n, size - n, "%s%s %" PRIu64 " %s", first ? "" : ", ",
			      report_source__name(s), m->source[s].sum.records,
			      report_source__unit(s));
		first = 0;
	}
	/*
	 * An AUXTRACE record has no time field: the kernel dates AUX data with the
	 * PERF_RECORD_AUX it writes when a stretch ends, timed when the event has sample_id_all
	 * and TIME; the trace's own timestamps (Intel PT's TSC) need decoding (auxrec script).
	 */
	if (n < size && m->source[REPORT_SRC_AUX].sum.records)
		n += snprintf(buf + n, size - n, "): the AUXTRACE records that carry the AUX trace "
			      "have no time, and no PERF_RECORD_AUX with one dates its buffers; "
			      "the trace's own timestamps, if it has any, are decoded by auxrec "
			      "script --itrace");
	else if (n < size)
		n += snprintf(buf + n, size - n, ")");
}

const char *report_loss_kind__name(enum report_loss_kind kind)
{
	return (unsigned)kind < REPORT_LOSS__NR ? loss_names[kind] : "?";
}

const char *report_loss_kind__unit(enum report_loss_kind kind)
{
	return (unsigned)kind < REPORT_LOSS__NR ? loss_units[kind] : "?";
}

static int report__err(int err)
{
	errno = err;
	return -err;
}

struct report_model *report_model__new(enum report_lane_kind lane_kind)
{
	struct report_model *m;

	if (lane_kind != REPORT_LANES_CPU && lane_kind != REPORT_LANES_THREAD) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->lane_kind = lane_kind;
	for (int s = 0; s < REPORT_SRC__NR; s++)
		m->source[s].first_ns = UINT64_MAX;
	return m;
}

void report_model__free(struct report_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < REPORT_INFO__NR; i++)
		free(m->info[i]);
	for (size_t i = 0; i < m->nr_events; i++)
		free(m->events[i]);
	free(m->events);
	for (size_t i = 0; i < m->nr_lanes; i++)
		for (int s = 0; s < REPORT_SRC__NR; s++)
			free(m->lanes[i].bins[s]);
	free(m->lanes);
	free(m->losses);
	free(m->loss_slots);
	free(m->snapshots);
	free(m);
}

/* Make room for one more element of size sz in *arr (used *nr, allocated *alloc). */
static int report__grow(void **arr, size_t *alloc, size_t nr, size_t sz)
{
	size_t n = *alloc ? *alloc * 2 : 16;
	void *p;

	if (nr < *alloc)
		return 0;
	p = reallocarray(*arr, n, sz);
	if (!p)
		return report__err(ENOMEM);
	*arr = p;
	*alloc = n;
	return 0;
}

int report_model__set_info(struct report_model *m, enum report_info key, const char *value)
{
	char *copy;

	if ((unsigned)key >= REPORT_INFO__NR || !value)
		return report__err(EINVAL);
	copy = strdup(value);
	if (!copy)
		return report__err(ENOMEM);
	free(m->info[key]);
	m->info[key] = copy;
	return 0;
}

int report_model__add_event(struct report_model *m, const char *name)
{
	char *copy;

	if (!name)
		return report__err(EINVAL);
	if (report__grow((void **)&m->events, &m->events_alloc, m->nr_events,
			 sizeof(*m->events)) < 0)
		return -errno;
	copy = strdup(name);
	if (!copy)
		return report__err(ENOMEM);
	m->events[m->nr_events++] = copy;
	return 0;
}

int report_model__set_cpus(struct report_model *m, int online, int avail)
{
	if (online < 0 || avail < 0 || (avail && online > avail))
		return report__err(EINVAL);
	m->nr_cpus_online = online;
	m->nr_cpus_avail = avail;
	return 0;
}

int report_model__set_wall_start(struct report_model *m, uint64_t wall_ns)
{
	m->wall_start_ns = wall_ns;
	return 0;
}

/* The smallest width of 1, 2 or 5 x 10^k ns that is at least ns. */
static uint64_t report__nice_width(uint64_t ns)
{
	for (uint64_t decade = 1;; decade *= 10) {
		if (ns <= decade)
			return decade;
		if (ns <= 2 * decade)
			return 2 * decade;
		if (ns <= 5 * decade)
			return 5 * decade;
	}
}

uint64_t report_width__coarser(uint64_t w, uint64_t base)
{
	do {
		uint64_t d = w;

		while (d % 10 == 0)
			d /= 10;
		w = d == 2 ? w / 2 * 5 : w * 2;
	} while (w % base);
	return w;
}

int report_model__set_span(struct report_model *m, uint64_t start_ns, uint64_t end_ns)
{
	if (end_ns < start_ns || end_ns - start_ns >= (uint64_t)REPORT_TIME_RANGE ||
	    end_ns == REPORT_TIME_NONE)
		return report__err(EINVAL);
	m->start_ns = start_ns;
	m->end_ns = end_ns;
	m->has_span = 1;
	if (!m->bin_ns) {
		/* the span in REPORT_BINS_MAX - 1 bins, rounded up: its end opens the last one */
		uint64_t d = end_ns - start_ns;
		uint64_t per_bin = d / (REPORT_BINS_MAX - 1) + !!(d % (REPORT_BINS_MAX - 1));

		m->epoch_ns = start_ns;
		m->bin_ns = report__nice_width(per_bin > REPORT_FIRST_BIN_NS ? per_bin
									     : REPORT_FIRST_BIN_NS);
	}
	return 0;
}

static struct report_lane *report_model__find_lane(const struct report_model *m, int id,
						   size_t *pos)
{
	size_t lo = 0, hi = m->nr_lanes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->lanes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos)
		*pos = lo;
	return lo < m->nr_lanes && m->lanes[lo].id == id ? &m->lanes[lo] : NULL;
}

const struct report_lane *report_model__lane(const struct report_model *m, int id)
{
	return report_model__find_lane(m, id, NULL);
}

static struct report_lane *report_model__get_lane(struct report_model *m, int id)
{
	struct report_lane *lane;
	size_t pos;

	lane = report_model__find_lane(m, id, &pos);
	if (lane)
		return lane;
	if (report__grow((void **)&m->lanes, &m->lanes_alloc, m->nr_lanes, sizeof(*m->lanes)) < 0)
		return NULL;
	memmove(&m->lanes[pos + 1], &m->lanes[pos], (m->nr_lanes - pos) * sizeof(*m->lanes));
	m->nr_lanes++;
	lane = &m->lanes[pos];
	memset(lane, 0, sizeof(*lane));
	lane->id = id;
	return lane;
}

int report_model__add_lane(struct report_model *m, int id)
{
	if (id < 0)
		return report__err(EINVAL);
	return report_model__get_lane(m, id) ? 0 : -errno;
}

/* Losses are found by (lane, kind, bin) through an open-addressing table of indexes + 1. */
static size_t report_loss__hash(int lane_id, enum report_loss_kind kind, int64_t bin)
{
	uint64_t h = (uint64_t)bin * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)(uint32_t)lane_id << 3 | kind) * 0xc2b2ae3d27d4eb4fULL;
	return (size_t)(h ^ (h >> 29));
}

static uint32_t *report_model__loss_slot(struct report_model *m, int lane_id,
					 enum report_loss_kind kind, int64_t bin)
{
	size_t mask = m->loss_slots_nr - 1;

	for (size_t i = report_loss__hash(lane_id, kind, bin) & mask;; i = (i + 1) & mask) {
		uint32_t *slot = &m->loss_slots[i];
		const struct report_loss *l;

		if (!*slot)
			return slot;
		l = &m->losses[*slot - 1];
		if (l->lane_id == lane_id && l->kind == kind && l->bin == bin)
			return slot;
	}
}

/* Rebuild the table (at twice the losses, at least): after a merge or when it fills up. */
static int report_model__index_losses(struct report_model *m, size_t want)
{
	size_t n = 64;
	uint32_t *slots;

	while (n < want * 2)
		n *= 2;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return report__err(ENOMEM);
	free(m->loss_slots);
	m->loss_slots = slots;
	m->loss_slots_nr = n;
	for (size_t i = 0; i < m->nr_losses; i++) {
		const struct report_loss *l = &m->losses[i];

		*report_model__loss_slot(m, l->lane_id, l->kind, l->bin) = (uint32_t)i + 1;
	}
	return 0;
}

/* Merge loss b into a: one mark for both, at the earlier time. */
static void report_loss__merge(struct report_loss *a, const struct report_loss *b)
{
	if (b->time_ns < a->time_ns)
		a->time_ns = b->time_ns;
	a->count += b->count;
	a->marks += b->marks;
}

/*
 * Widen the bins by the next factor: every bin's counts move into the wider bin that holds it
 * (in place: a bin never moves right), and losses in one wider bin merge.
 */
static void report_model__widen(struct report_model *m)
{
	int64_t f = (int64_t)(report_width__coarser(m->bin_ns, m->bin_ns) / m->bin_ns);
	int64_t first = report__floor_div(m->bin_first, f);
	int64_t last = report__floor_div(m->bin_first + (int64_t)m->nr_bins - 1, f);
	size_t kept = 0;

	for (size_t l = 0; l < m->nr_lanes; l++) {
		for (int s = 0; s < REPORT_SRC__NR; s++) {
			struct report_count *b = m->lanes[l].bins[s];

			if (!b)
				continue;
			for (size_t i = 0; i < m->nr_bins; i++) {
				struct report_count c = b[i];
				size_t j = (size_t)(report__floor_div(m->bin_first + (int64_t)i, f) -
						    first);

				b[i] = (struct report_count){ 0, 0 };
				b[j].bytes += c.bytes;
				b[j].records += c.records;
			}
		}
	}
	m->bin_ns *= (uint64_t)f;
	m->bin_first = first;
	m->nr_bins = (size_t)(last - first + 1);

	/* Losses: rebin, then fold each into the first loss of its (lane, kind, bin). */
	if (!m->nr_losses)
		return;
	memset(m->loss_slots, 0, m->loss_slots_nr * sizeof(*m->loss_slots));
	for (size_t i = 0; i < m->nr_losses; i++) {
		struct report_loss l = m->losses[i];
		uint32_t *slot;

		l.bin = report__floor_div(l.bin, f);
		slot = report_model__loss_slot(m, l.lane_id, l.kind, l.bin);
		if (*slot) {
			report_loss__merge(&m->losses[*slot - 1], &l);
		} else {
			m->losses[kept] = l;
			*slot = (uint32_t)++kept;
		}
	}
	m->nr_losses = kept;
}

/*
 * The timeline must hold time t: set the origin on the first timed thing, widen the bins or
 * slide the window as needed. Gives the bin of t (from the epoch) in *bin.
 */
static int report_model__cover(struct report_model *m, uint64_t t, int64_t *bin)
{
	int64_t d, k, lo, hi;

	if (!m->bin_ns) {
		m->epoch_ns = t;
		m->bin_ns = REPORT_FIRST_BIN_NS;
	}
	if (t >= m->epoch_ns ? t - m->epoch_ns >= (uint64_t)REPORT_TIME_RANGE
			     : m->epoch_ns - t >= (uint64_t)REPORT_TIME_RANGE)
		return report__err(ERANGE);
	d = (int64_t)(t - m->epoch_ns);
	for (;;) {
		k = report__floor_div(d, (int64_t)m->bin_ns);
		lo = k;
		hi = k;
		if (m->nr_bins) {
			lo = k < m->bin_first ? k : m->bin_first;
			hi = m->bin_first + (int64_t)m->nr_bins - 1;
			hi = k > hi ? k : hi;
		}
		if (hi - lo < REPORT_BINS_MAX)
			break;
		report_model__widen(m);
	}
	if (m->nr_bins && lo < m->bin_first) {
		size_t shift = (size_t)(m->bin_first - lo);

		for (size_t l = 0; l < m->nr_lanes; l++) {
			for (int s = 0; s < REPORT_SRC__NR; s++) {
				struct report_count *b = m->lanes[l].bins[s];

				if (!b)
					continue;
				memmove(b + shift, b, m->nr_bins * sizeof(*b));
				memset(b, 0, shift * sizeof(*b));
			}
		}
	}
	if (!m->nr_bins || t < m->first_ns)
		m->first_ns = t;
	if (!m->nr_bins || t > m->last_ns)
		m->last_ns = t;
	m->bin_first = lo;
	m->nr_bins = (size_t)(hi - lo + 1);
	*bin = k;
	return 0;
}

/*
 * Where a record or loss goes: its lane (made on first use) and, when timed, its bin. Checks
 * come first, so that bad input changes nothing.
 */
static struct report_lane *report_model__place(struct report_model *m, int lane_id,
					       uint64_t time_ns, int64_t *bin)
{
	int err;

	if (lane_id < REPORT_LANE_NONE) {
		errno = EINVAL;
		return NULL;
	}
	if (time_ns != REPORT_TIME_NONE) {
		err = report_model__cover(m, time_ns, bin);
		if (err)
			return NULL;
	}
	return report_model__get_lane(m, lane_id);
}

int report_model__add_data(struct report_model *m, enum report_source src, int lane_id,
			   uint64_t time_ns, uint64_t bytes, uint64_t records)
{
	struct report_source_total *tot;
	struct report_lane *lane;
	int64_t bin;

	if ((unsigned)src >= REPORT_SRC__NR)
		return report__err(EINVAL);
	lane = report_model__place(m, lane_id, time_ns, &bin);
	if (!lane)
		return -errno;
	tot = &m->source[src];
	if (time_ns == REPORT_TIME_NONE) {
		tot->untimed += records;
	} else {
		struct report_count *b = lane->bins[src];

		if (!b) {
			b = calloc(REPORT_BINS_MAX, sizeof(*b));
			if (!b)
				return report__err(ENOMEM);
			lane->bins[src] = b;
		}
		b[bin - m->bin_first].bytes += bytes;
		b[bin - m->bin_first].records += records;
		if (time_ns < tot->first_ns)
			tot->first_ns = time_ns;
		if (time_ns > tot->last_ns)
			tot->last_ns = time_ns;
	}
	lane->total[src].bytes += bytes;
	lane->total[src].records += records;
	tot->sum.bytes += bytes;
	tot->sum.records += records;
	return 0;
}

int report_model__add_loss(struct report_model *m, enum report_loss_kind kind, int lane_id,
			   uint64_t time_ns, uint64_t count)
{
	struct report_loss l = { .lane_id = lane_id, .kind = kind, .time_ns = time_ns,
				 .count = count, .marks = 1 };
	struct report_lane *lane;
	uint32_t *slot;

	if ((unsigned)kind >= REPORT_LOSS__NR)
		return report__err(EINVAL);
	lane = report_model__place(m, lane_id, time_ns, &l.bin);
	if (!lane)
		return -errno;
	if (time_ns != REPORT_TIME_NONE) {
		if ((m->nr_losses + 1) * 2 > m->loss_slots_nr &&
		    report_model__index_losses(m, m->nr_losses + 1) < 0)
			return -errno;
		slot = report_model__loss_slot(m, lane_id, kind, l.bin);
		if (*slot) {
			report_loss__merge(&m->losses[*slot - 1], &l);
		} else {
			if (report__grow((void **)&m->losses, &m->losses_alloc, m->nr_losses,
					 sizeof(*m->losses)) < 0)
				return -errno;
			m->losses[m->nr_losses++] = l;
			*slot = (uint32_t)m->nr_losses;
		}
	}
	lane->lost[kind] += count;
	m->loss[kind].count += count;
	m->loss[kind].marks++;
	if (!count)
		m->loss[kind].uncounted++;
	return 0;
}

int report_model__add_snapshot(struct report_model *m, uint64_t time_ns)
{
	int64_t bin;
	int err;

	if (time_ns == REPORT_TIME_NONE)
		return report__err(EINVAL);
	err = report__grow((void **)&m->snapshots, &m->snapshots_alloc, m->nr_snapshots,
			   sizeof(*m->snapshots));
	if (err)
		return err;
	err = report_model__cover(m, time_ns, &bin);
	if (err)
		return err;
	m->snapshots[m->nr_snapshots++] = time_ns;
	return 0;
}

uint64_t report_model__bin_start(const struct report_model *m, size_t i)
{
	return m->epoch_ns + (uint64_t)((m->bin_first + (int64_t)i) * (int64_t)m->bin_ns);
}

uint64_t report_model__origin(const struct report_model *m)
{
	if (m->has_span)
		return m->start_ns;
	return m->nr_bins ? report_model__bin_start(m, 0) : 0;
}
