// SPDX-License-Identifier: LGPL-2.1
/*
 * soak-aux: the AUX half of `make soak`. This machine has no AUX-capable PMU, so the test
 * producer (tests/lib/aux-producer.c) plays the hardware and the kernel's side of the AUX
 * protocol, and everything else is what auxrec record runs: an evlist opened on the real
 * kernel, an Intel PT backend (from a fake sysfs in which intel_pt has the software PMU's
 * type, so a cpu-clock event stands in for the AUX event), the evlist mmap driver with the
 * AUX hooks, one ring set draining the data ring and the AUX area together into a perf.data
 * writer's two sinks, FINISHED_ROUND after each pass, the AUXTRACE index.
 *
 *	soak-aux -o DIR -d SECONDS [-s SEGMENT_MIB] [-l LOSS_SECONDS] [-m AUX_PAGES]
 *
 * The producer fills the AUX area (AUX_PAGES, 1024: 4 MiB) as fast as it can in full-trace
 * mode, waiting for aux_tail, and every LOSS_SECONDS (10) it is made to lose a few words: its
 * head jumps more than a whole area past the reader, as hardware that ignores aux_tail would
 * (see soak__step_loss). The cpu-clock event samples CPU 0 every millisecond and wakes the
 * reader at each sample, as the kernel wakes it at the AUX watermark. The output rotates every SEGMENT_MIB (as perf record --switch-output=size),
 * so that the run fits on /dev/shm; each finished segment is read back with libauxtrace's
 * perf_session reader and removed, the last one is kept as aux-last.data.
 *
 * At the end every byte is accounted for: the bytes produced are the bytes delivered in
 * AUXTRACE records plus the bytes counted as overrun, exactly, and the files say the same
 * (their records, their gaps, their index). Prints "aux.<name> <value>" lines and "aux.check
 * ok" or "aux.check FAILED: <why>"; exits 1 on any failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/perf-data.h>
#include <auxtrace/ring-set.h>
#include <internal/auxtrace-backend.h>
#include "tests/lib/aux-payload.h"
#include "tests/lib/aux-producer.h"
#include "tests/lib/fake-sysfs.h"
#include "soak-aux.h"

#define PMU_DIR		"bus/event_source/devices/"
#define WAKEUP_NS	1000000		/* the stand-in event's period: the reader's wakeups */
#define DATA_PAGES	64
#define CHUNK		(64 << 10)	/* the producer's writes; whole 8-byte words throughout */
#define PROGRESS_S	10

struct soak_opts {
	const char *dir;
	double seconds;
	uint64_t segment_bytes;
	double loss_every;
	unsigned int aux_pages;
};

/* A sink that hands every push to the current segment's writer, so rotating is one store. */
struct forward_sink {
	struct ring_sink sink;
	struct ring_sink *to;
};

struct soak {
	struct soak_opts o;
	struct fake_sysfs fs;
	struct evlist *evlist;
	struct auxtrace_record *itr;
	struct auxtrace_mmaps *aux;
	struct aux_producer *producer;
	struct aux_producer_run run;
	struct ring_set *set;
	struct forward_sink data, auxs;
	/* the segment being written */
	struct perf_data_writer *w;
	int fd;
	char path[4096];
	unsigned int nr_segments;
	/* what happened */
	struct aux_readback rb;
	enum { LOSS_NONE, LOSS_DRAINING, LOSS_JUMPED } loss;	/* see soak__step_loss */
	uint64_t forced_losses;
	uint64_t forced_bytes;		/* what the forced losses skipped past the area */
};

/* The library's "AUX data lost" warnings: one per record that skips overrun bytes. */
static uint64_t overrun_warnings;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The library's errors and warnings on stderr; its overrun warnings counted as well. */
static int soak__print(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	char msg[1024];

	if (level > LIBAUXTRACE_WARN)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (strstr(msg, "AUX data lost"))
		overrun_warnings++;
	return fprintf(stderr, "soak-aux: libauxtrace: %s", msg);
}

static int soak__fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "soak-aux: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return -1;
}

static ssize_t forward_sink__push(struct ring_sink *sink, const struct iovec *iov, int n)
{
	struct forward_sink *f = (struct forward_sink *)sink;

	return f->to->push(f->to, iov, n);
}

/* A sysfs in which intel_pt has type 1: a software event is then the AUX PMU's event. */
static int soak__fake_pmu(struct soak *s)
{
	char path[256];

	if (fake_sysfs__standard(&s->fs))
		return soak__fail("cannot build a fake sysfs under /tmp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/" PMU_DIR "software/type", s->fs.root);
	if (unlink(path) || rmdir(dirname(path)) ||
	    fake_sysfs__write(&s->fs, PMU_DIR "intel_pt/type", "1\n"))
		return soak__fail("cannot give intel_pt the software PMU's type in %s: %s",
				  s->fs.root, strerror(errno));
	return 0;
}

/*
 * cpu-clock on CPU 0, configured by the Intel PT backend as its AUX event (with its tracking
 * event), then given back a cpu-clock's config: a sample every WAKEUP_NS, each one a wakeup.
 */
static int soak__open_events(struct soak *s)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
		.sample_id_all = 1, .disabled = 1,
	};
	struct perf_cpu_map *cpus = perf_cpu_map__new("0");
	struct perf_thread_map *threads = perf_thread_map__new_dummy();
	struct auxtrace_opts opts;
	struct evsel *evsel = evsel__new(&attr);
	int err;

	s->evlist = evlist__new();
	if (!cpus || !threads || !evsel || !s->evlist || evlist__add(s->evlist, evsel) ||
	    evlist__set_maps(s->evlist, cpus, threads)) {
		perf_cpu_map__put(cpus);
		perf_thread_map__put(threads);
		return soak__fail("cannot make the evlist: %s", strerror(errno));
	}
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	s->itr = auxtrace_record__init(s->evlist, s->fs.root, &err);
	if (!s->itr)
		return soak__fail("no Intel PT backend from the fake sysfs: %s", strerror(-err));
	auxtrace_backend(s->itr)->time_conv = aux_time_conv__or_stand_in;
	auxtrace_opts__init(&opts);
	opts.privileged = true;
	opts.auxtrace_mmap_pages = s->o.aux_pages;
	opts.mmap_pages = DATA_PAGES;
	if (auxtrace_record__options(s->itr, s->evlist, &opts))
		return soak__fail("the Intel PT backend refuses the session");
	evsel__attr(evsel)->config = PERF_COUNT_SW_CPU_CLOCK;
	evsel__attr(evsel)->sample_period = WAKEUP_NS;
	evsel__attr(evsel)->wakeup_events = 1;
	if (evlist__open(s->evlist))
		return soak__fail("cannot open cpu-clock and the tracking event on CPU 0: %s",
				  strerror(errno));
	s->aux = auxtrace_mmaps__new(s->evlist, s->itr, s->o.aux_pages, false);
	s->producer = aux_producer__new(&(struct aux_producer_config){ 0 });
	if (!s->aux || !s->producer)
		return soak__fail("cannot make the AUX areas or the producer: %s", strerror(errno));
	aux_producer__route_mmaps(s->producer, s->aux);
	if (evlist__mmap_ex(s->evlist, DATA_PAGES, auxtrace_mmaps__hooks(s->aux)))
		return soak__fail("cannot map the data ring and the AUX area: %s", strerror(errno));
	return 0;
}

static int soak__open_segment(struct soak *s)
{
	AUXTRACE_OPTS(perf_data_writer_opts, wopts, .sysfs_root = s->fs.root);

	snprintf(s->path, sizeof(s->path), "%s/aux-%06u.data", s->o.dir, s->nr_segments++);
	s->fd = open(s->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (s->fd < 0)
		return soak__fail("%s: %s", s->path, strerror(errno));
	s->w = perf_data_writer__new(s->fd, s->evlist, &wopts);
	if (!s->w || perf_data_writer__write_prologue(s->w, s->itr) ||
	    perf_data_writer__write_finished_init(s->w))
		return soak__fail("%s: cannot start the perf.data: %s", s->path, strerror(errno));
	s->data.to = perf_data_writer__data_sink(s->w);
	s->auxs.to = perf_data_writer__aux_sink(s->w);
	return 0;
}

/* Finish the segment and read it back; the last one stays as aux-last.data. */
static int soak__close_segment(struct soak *s, bool last)
{
	struct perf_data_writer_stats ws;
	char keep[4096];
	int err;

	err = perf_data_writer__finish(s->w);
	ws = *perf_data_writer__stats(s->w);
	perf_data_writer__delete(s->w);
	s->w = NULL;
	close(s->fd);
	if (err)
		return soak__fail("%s: finishing it failed: %s", s->path, strerror(-err));
	if (aux_readback__segment(&s->rb, s->path, &ws))
		return soak__fail("%s", s->rb.error);
	snprintf(keep, sizeof(keep), "%s/aux-last.data", s->o.dir);
	if (last ? rename(s->path, keep) : unlink(s->path))
		return soak__fail("%s: %s", s->path, strerror(errno));
	return 0;
}

static void round_done(void *ctx, size_t bytes)
{
	struct soak *s = ctx;

	(void)bytes;
	perf_data_writer__write_finished_round(s->w);
}

/* Whether the reader has taken everything the producer published. */
static bool soak__reader_caught_up(struct soak *s)
{
	struct perf_event_mmap_page *pc = aux_producer__userpg(s->producer);

	return __atomic_load_n(&pc->aux_tail, __ATOMIC_ACQUIRE) == aux_producer__head(s->producer);
}

/*
 * A forced loss, as hardware that ignores aux_tail makes one: the producer stops; once the
 * reader has taken all it wrote, its head jumps a whole area and a few words further; once
 * the reader has taken that (an area's worth of what was there, and those words counted as
 * overrun), it starts again. Exactly those words are lost, and the producer never runs with
 * its head past the tail (a test producer would find room without end there, and overwrite
 * what the reader is copying without its head showing it). One step per call.
 */
static int soak__step_loss(struct soak *s, bool due)
{
	uint64_t words;

	switch (s->loss) {
	case LOSS_NONE:
		if (!due)
			return 0;
		aux_producer__stop(s->producer);
		s->loss = LOSS_DRAINING;
		return 0;
	case LOSS_DRAINING:
		if (!soak__reader_caught_up(s))
			return 0;
		words = 1 + s->forced_losses % 4096;
		aux_producer__set_head(s->producer, aux_producer__head(s->producer) +
				       aux_producer__len(s->producer) + 8 * words);
		s->forced_losses++;
		s->forced_bytes += 8 * words;
		s->loss = LOSS_JUMPED;
		return 0;
	case LOSS_JUMPED:
		if (!soak__reader_caught_up(s))
			return 0;
		s->loss = LOSS_NONE;
		return aux_producer__start(s->producer, &s->run);
	}
	return 0;
}

static int soak__loop(struct soak *s)
{
	double start = now(), end = start + s->o.seconds, next_loss = start + s->o.loss_every;
	double next_progress = start + PROGRESS_S;
	struct ring_stats st;
	bool due;

	while (now() < end) {
		int n = ring_set__poll(s->set, 100);

		if (n < 0)
			return soak__fail("draining the rings failed: %s", strerror(-n));
		if (perf_data_writer__stats(s->w)->data_size >= s->o.segment_bytes &&
		    (soak__close_segment(s, false) || soak__open_segment(s)))
			return -1;
		due = s->o.loss_every > 0 && now() >= next_loss && s->loss == LOSS_NONE;
		if (due)
			next_loss += s->o.loss_every;
		if (soak__step_loss(s, due))
			return soak__fail("cannot restart the producer");
		if (now() >= next_progress) {
			auxtrace_mmaps__stats(s->aux, 0, &st);
			printf("soak-aux: %.0f s: %.1f MiB delivered in %llu segments, %llu forced "
			       "losses\n", now() - start, st.bytes / 1048576.0,
			       (unsigned long long)s->nr_segments,
			       (unsigned long long)s->forced_losses);
			fflush(stdout);
			next_progress += PROGRESS_S;
		}
	}
	return 0;
}

static void soak__print_u64(const char *name, uint64_t v)
{
	printf("aux.%s %llu\n", name, (unsigned long long)v);
}

/*
 * Every byte the producer put out is delivered or counted as overrun, and the files agree
 * with the library's counts to the byte: the figures, then the verdict.
 */
static int soak__account(struct soak *s, uint64_t produced, uint64_t stream)
{
	const struct aux_readback *rb = &s->rb;
	struct ring_stats aux, perf;
	uint64_t delivered;
	char why[512] = "";

	auxtrace_mmaps__stats(s->aux, 0, &aux);
	ring_set__stats(s->set, RING_SOURCE_PERF, -1, &perf);
	delivered = aux.bytes - aux.chunks * sizeof(struct perf_record_auxtrace);
	soak__print_u64("produced", produced);
	soak__print_u64("produced_stream", stream);
	soak__print_u64("delivered", delivered);
	soak__print_u64("overrun", aux.overruns);
	soak__print_u64("truncated", aux.aux_truncated);
	soak__print_u64("records", aux.chunks);
	soak__print_u64("forced_losses", s->forced_losses);
	soak__print_u64("forced_bytes", s->forced_bytes);
	soak__print_u64("overrun_warnings", overrun_warnings);
	soak__print_u64("file_records", rb->frames);
	soak__print_u64("file_payload", rb->payload);
	soak__print_u64("file_gaps", rb->gaps);
	soak__print_u64("file_gap_records", rb->gap_frames);
	soak__print_u64("file_stale", rb->stale);
	soak__print_u64("file_index_entries", rb->index_entries);
	soak__print_u64("segments", rb->segments);
	soak__print_u64("file_bytes", rb->file_bytes);
	soak__print_u64("perf_records", perf.records);
	soak__print_u64("perf_lost", perf.lost);
	soak__print_u64("file_perf_records", rb->kernel_records);
	soak__print_u64("file_samples", rb->samples);
	soak__print_u64("file_perf_lost", rb->lost);

	if (produced != delivered + aux.overruns)
		snprintf(why, sizeof(why), "produced %llu != delivered %llu + overrun %llu",
			 (unsigned long long)produced, (unsigned long long)delivered,
			 (unsigned long long)aux.overruns);
	else if (rb->payload != delivered || rb->frames != aux.chunks || rb->next != produced)
		snprintf(why, sizeof(why), "the files hold %llu records, %llu bytes up to stream "
			 "offset %llu; the library delivered %llu records, %llu bytes of %llu",
			 (unsigned long long)rb->frames, (unsigned long long)rb->payload,
			 (unsigned long long)rb->next, (unsigned long long)aux.chunks,
			 (unsigned long long)delivered, (unsigned long long)produced);
	else if (rb->payload - rb->stale != stream)
		snprintf(why, sizeof(why), "the producer wrote %llu stream bytes, the files hold "
			 "%llu (%llu bytes of records after a loss are what the area held)",
			 (unsigned long long)stream, (unsigned long long)(rb->payload - rb->stale),
			 (unsigned long long)rb->stale);
	else if (rb->gaps != aux.overruns || rb->gap_frames != overrun_warnings)
		snprintf(why, sizeof(why), "the files skip %llu bytes in %llu places; the library "
			 "counted %llu bytes overrun and warned %llu times",
			 (unsigned long long)rb->gaps, (unsigned long long)rb->gap_frames,
			 (unsigned long long)aux.overruns, (unsigned long long)overrun_warnings);
	else if (rb->gap_frames != s->forced_losses || rb->gaps != s->forced_bytes)
		snprintf(why, sizeof(why), "%llu losses of %llu bytes were forced, the stream has "
			 "%llu gaps of %llu bytes", (unsigned long long)s->forced_losses,
			 (unsigned long long)s->forced_bytes, (unsigned long long)rb->gap_frames,
			 (unsigned long long)rb->gaps);
	else if (rb->index_entries != rb->frames)
		snprintf(why, sizeof(why), "%llu index entries for %llu AUXTRACE records",
			 (unsigned long long)rb->index_entries, (unsigned long long)rb->frames);
	else if (aux.aux_truncated)
		snprintf(why, sizeof(why), "%llu TRUNCATED flags from a producer that sends none",
			 (unsigned long long)aux.aux_truncated);
	else if (perf.records != rb->kernel_records || perf.lost != rb->lost)
		snprintf(why, sizeof(why), "the data ring gave %llu records and lost %llu; the "
			 "files hold %llu and PERF_RECORD_LOST says %llu",
			 (unsigned long long)perf.records, (unsigned long long)perf.lost,
			 (unsigned long long)rb->kernel_records, (unsigned long long)rb->lost);
	printf("aux.check %s%s\n", why[0] ? "FAILED: " : "ok", why);
	return why[0] ? -1 : 0;
}

static int soak__run(struct soak *s)
{
	AUXTRACE_OPTS(ring_set_opts, sopts, .pass_done = round_done, .ctx = s);
	uint64_t stream;
	int err;

	if (soak__fake_pmu(s) || soak__open_events(s) || soak__open_segment(s))
		return -1;
	s->data.sink.push = forward_sink__push;
	s->auxs.sink.push = forward_sink__push;
	s->set = ring_set__new(&sopts);
	if (!s->set || evlist__add_to_ring_set(s->evlist, s->set, &s->data.sink) ||
	    auxtrace_mmaps__add_to_ring_set(s->aux, s->set, &s->auxs.sink))
		return soak__fail("cannot make the ring set: %s", strerror(errno));
	s->run = (struct aux_producer_run){ .fill = aux_stream__fill, .chunk = CHUNK };
	if (aux_producer__start(s->producer, &s->run) || evlist__enable(s->evlist))
		return soak__fail("cannot start the producer or the events");
	err = soak__loop(s);
	evlist__disable(s->evlist);
	stream = aux_producer__stop(s->producer);
	if (!err && ring_set__drain_all(s->set, true) < 0)
		err = soak__fail("the last drain failed: %s", strerror(errno));
	if (!err)
		err = soak__close_segment(s, true);
	if (!err)
		err = soak__account(s, aux_producer__head(s->producer), stream);
	return err;
}

static void soak__cleanup(struct soak *s)
{
	ring_set__delete(s->set);
	if (s->w) {
		perf_data_writer__delete(s->w);
		close(s->fd);
		unlink(s->path);
	}
	if (s->evlist)
		evlist__munmap(s->evlist);
	auxtrace_mmaps__delete(s->aux);
	aux_producer__delete(s->producer);
	auxtrace_record__free(s->itr);
	evlist__delete(s->evlist);
	if (s->fs.root[0])
		fake_sysfs__remove(&s->fs);
}

static int soak__parse(struct soak_opts *o, int argc, char **argv)
{
	int c;

	*o = (struct soak_opts){ .segment_bytes = 512ull << 20, .loss_every = 10,
				 .aux_pages = 1024 };
	while ((c = getopt(argc, argv, "o:d:s:l:m:")) != -1) {
		switch (c) {
		case 'o': o->dir = optarg; break;
		case 'd': o->seconds = atof(optarg); break;
		case 's': o->segment_bytes = strtoull(optarg, NULL, 0) << 20; break;
		case 'l': o->loss_every = atof(optarg); break;
		case 'm': o->aux_pages = (unsigned int)strtoul(optarg, NULL, 0); break;
		default: return -1;
		}
	}
	if (!o->dir || !(o->seconds > 0) || !o->segment_bytes || !o->aux_pages ||
	    (o->aux_pages & (o->aux_pages - 1)))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct soak s = { .fd = -1 };
	int err;

	if (soak__parse(&s.o, argc, argv)) {
		fprintf(stderr, "usage: soak-aux -o DIR -d SECONDS [-s SEGMENT_MIB] "
			"[-l LOSS_SECONDS (0: none)] [-m AUX_PAGES (a power of two)]\n");
		return 2;
	}
	libauxtrace_set_print(soak__print);
	err = soak__run(&s);
	soak__cleanup(&s);
	return err ? 1 : 0;
}
