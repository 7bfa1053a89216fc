/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What `auxrec report` knows about a recording, in a form a page can draw: what was recorded,
 * how much data each source delivered on each lane (CPU or thread) over time, where data was
 * lost, when snapshots were taken, and the totals. A reader walk fills it one record at a time;
 * the renderers (report-html.c) only read it.
 *
 * Time is the trace clock in ns (perf's sample time, trace.dat's timestamps). The timeline is
 * cut into bins of one width, at most REPORT_BINS_MAX of them: the width comes from the span
 * when report_model__set_span() is called before any timed record (the best resolution), or
 * grows as records arrive (each growth merges whole bins, so no count is ever split or guessed).
 */
#ifndef AUXREC_REPORT_MODEL_H
#define AUXREC_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>

/*
 * 10000 bins over a known span, and one for its closing instant: ten times what a page shows
 * at once, so that zooming in has finer bins to show (where the page has room for them).
 */
#define REPORT_BINS_MAX	10001
/* A record, loss or snapshot without a timestamp: counted in the totals, not on the timeline. */
#define REPORT_TIME_NONE UINT64_MAX
/* The lane of records that name no CPU (or thread). */
#define REPORT_LANE_NONE (-1)

enum report_source {
	REPORT_SRC_SAMPLES,	/* PERF_RECORD_SAMPLE */
	REPORT_SRC_SIDEBAND,	/* every other perf record: comm, mmap, switch, aux, ... */
	REPORT_SRC_AUX,		/* PERF_RECORD_AUXTRACE: one record per AUX buffer, bytes of trace */
	REPORT_SRC_FTRACE,	/* trace.dat events */
	REPORT_SRC__NR,
};

enum report_loss_kind {
	REPORT_LOSS_LOST,		/* PERF_RECORD_LOST: count = records lost */
	REPORT_LOSS_AUX_TRUNCATED,	/* PERF_RECORD_AUX flags: count = flagged records */
	REPORT_LOSS_AUX_PARTIAL,
	REPORT_LOSS_AUX_COLLISION,
	REPORT_LOSS_FTRACE_MISSED,	/* missed events: count = events, 0 when the ring kept none */
	REPORT_LOSS_LOST_SAMPLES,	/* PERF_RECORD_LOST_SAMPLES: count = samples lost */
	REPORT_LOSS__NR,
};

enum report_lane_kind {
	REPORT_LANES_CPU,	/* per-CPU recording: a lane per CPU */
	REPORT_LANES_THREAD,	/* --per-thread: a lane per thread id */
};

/* The recording's description: strings the page shows as they are (escaped). */
enum report_info {
	REPORT_INFO_COMMAND,	/* the recorded command line, or "system-wide" */
	REPORT_INFO_HOSTNAME,
	REPORT_INFO_OS_RELEASE,	/* kernel release */
	REPORT_INFO_ARCH,
	REPORT_INFO_VERSION,	/* the auxrec version that recorded */
	REPORT_INFO_DATA_DIR,	/* the directory the page was made from */
	REPORT_INFO_MODE,	/* "full trace", "snapshot", ... */
	REPORT_INFO__NR,
};

struct report_count {
	uint64_t bytes;
	uint64_t records;
};

struct report_source_total {
	struct report_count sum;
	uint64_t untimed;		/* records with REPORT_TIME_NONE (in sum, not on the timeline) */
	uint64_t first_ns, last_ns;	/* of the timed records; first_ns > last_ns: none */
};

struct report_loss_total {
	uint64_t count;		/* records, events or flagged records lost (see the kind) */
	uint64_t marks;		/* how many times a loss of this kind was reported */
	uint64_t uncounted;	/* reports that carried no count (ftrace rings that keep none) */
};

struct report_lane {
	int id;					/* CPU or thread id, REPORT_LANE_NONE */
	/* [source] -> REPORT_BINS_MAX slots, slot i is the model's bin i; NULL: no data */
	struct report_count *bins[REPORT_SRC__NR];
	struct report_count total[REPORT_SRC__NR];
	uint64_t lost[REPORT_LOSS__NR];
};

/* Losses of one kind on one lane within one bin, merged: one mark on the page. */
struct report_loss {
	int lane_id;
	enum report_loss_kind kind;
	int64_t bin;		/* in bin_ns units from the epoch */
	uint64_t time_ns;	/* the earliest loss merged here (REPORT_TIME_NONE: untimed) */
	uint64_t count;
	uint64_t marks;
};

struct report_model {
	enum report_lane_kind lane_kind;
	char *info[REPORT_INFO__NR];
	char **events;
	size_t nr_events, events_alloc;
	int nr_cpus_online, nr_cpus_avail;	/* 0: unknown */
	uint64_t start_ns, end_ns;		/* the recording's span, when known */
	int has_span;
	uint64_t wall_start_ns;			/* wall clock at start_ns (ns since 1970), 0: unknown */

	/* The timeline: bin i covers epoch + (bin_first + i) * bin_ns, for bin_ns ns. */
	uint64_t epoch_ns;
	uint64_t first_ns, last_ns;		/* of every timed thing, when nr_bins */
	uint64_t bin_ns;			/* 0 until the first timed thing */
	int64_t bin_first;
	size_t nr_bins;				/* bins in use, at most REPORT_BINS_MAX */

	struct report_lane *lanes;		/* sorted by id: recorded or with data */
	size_t nr_lanes, lanes_alloc;

	struct report_loss *losses;		/* unordered */
	size_t nr_losses, losses_alloc;
	uint32_t *loss_slots;			/* open-addressing index into losses, 0 = empty */
	size_t loss_slots_nr;			/* a power of two */

	uint64_t *snapshots;			/* in the order added */
	size_t nr_snapshots, snapshots_alloc;

	struct report_source_total source[REPORT_SRC__NR];
	struct report_loss_total loss[REPORT_LOSS__NR];
};

/* NULL with errno set (EINVAL for a bad lane kind, ENOMEM). */
struct report_model *report_model__new(enum report_lane_kind lane_kind);
void report_model__free(struct report_model *m);

/* Copies value. 0 or -errno. */
int report_model__set_info(struct report_model *m, enum report_info key, const char *value);
/* Append an event name as the user wrote it ("cpu-clock", "sched:sched_switch"). */
int report_model__add_event(struct report_model *m, const char *name);
int report_model__set_cpus(struct report_model *m, int online, int avail);
/*
 * The recording's span on the trace clock. Before the first timed record it also sets the
 * timeline's origin and chooses the bin width (1, 2 or 5 x 10^k ns, at least 1 us,
 * REPORT_BINS_MAX - 1 bins or fewer over the span); later it only sets what the page shows
 * as the recording's span.
 */
int report_model__set_span(struct report_model *m, uint64_t start_ns, uint64_t end_ns);
int report_model__set_wall_start(struct report_model *m, uint64_t wall_ns);

/*
 * Data: records records (1 for one perf record, more for an ftrace page at once) of bytes bytes
 * in all, of source src, at time_ns (REPORT_TIME_NONE: no timestamp) on lane (a CPU, a thread
 * id, or REPORT_LANE_NONE). 0 or -errno (EINVAL: bad source or lane; ERANGE: a time more than
 * 2^62 ns from the others, which no recording spans).
 */
int report_model__add_data(struct report_model *m, enum report_source src, int lane,
			   uint64_t time_ns, uint64_t bytes, uint64_t records);
/* A loss of kind reported at time_ns on lane; count as the kind says (0: not known). */
int report_model__add_loss(struct report_model *m, enum report_loss_kind kind, int lane,
			   uint64_t time_ns, uint64_t count);
int report_model__add_snapshot(struct report_model *m, uint64_t time_ns);

/*
 * A lane the recording covered (a CPU or thread it recorded on), with data or without: every
 * recorded lane is drawn, so that a CPU that stayed quiet shows as an empty lane instead of
 * no lane. 0 or -errno (EINVAL: a negative id).
 */
int report_model__add_lane(struct report_model *m, int id);
/* The lane with this id, or NULL. */
const struct report_lane *report_model__lane(const struct report_model *m, int id);
/* Start of bin i (0 <= i < nr_bins) on the trace clock. */
uint64_t report_model__bin_start(const struct report_model *m, size_t i);
/*
 * Why a model without a span has none, said from what it holds, into buf (size bytes, cut
 * short if need be): "nothing was recorded", or which records came and that none carried a
 * time, with what would have timed the AUX trace.
 */
void report_model__why_no_span(const struct report_model *m, char *buf, size_t size);
/* The displayed origin: the span's start when known, else the first bin's start. */
uint64_t report_model__origin(const struct report_model *m);

/*
 * The next bin width after w that is 1, 2 or 5 x 10^k ns and a multiple of base: the widths
 * bins of width base merge into whole (1 -> 2 -> 10 -> 20 -> 100, 5 -> 10 -> 20 -> 50).
 */
uint64_t report_width__coarser(uint64_t w, uint64_t base);

/* a / b rounded down: bins before the epoch have negative numbers. */
static inline int64_t report__floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

const char *report_source__name(enum report_source src);
const char *report_source__unit(enum report_source src);	/* what its records are */
const char *report_loss_kind__name(enum report_loss_kind kind);
const char *report_loss_kind__unit(enum report_loss_kind kind);	/* what its count counts */

#endif
