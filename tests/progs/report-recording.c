// SPDX-License-Identifier: LGPL-2.1
/*
 * A recording for the report tests, made with the library the way auxrec record makes one:
 * report-recording DIR [snapshot] writes DIR/perf.data and DIR/trace.dat of a workload on
 * CPU 0 and DIR/truth.json with what the program forced. With snapshot, the AUX area is in
 * snapshot mode and a snapshot is taken every SNAPSHOT_EVERY rounds instead of draining it.
 *
 * perf.data: a sample of the syscalls:sys_enter_getppid tracepoint for every getppid call
 * the workload makes on CPU 0 (filtered to this process, with the tracing data perf 6.1
 * needs to read the file; a hardware breakpoint would need no tracing data, but on some VMs
 * of this kind debug registers are not virtualized and it never fires), and Intel
 * PT packets (libipt's encoder) from the AUX test producer (this machine has no AUX hardware:
 * in a fake sysfs the software PMU plays intel_pt, and a disabled cpu-clock event's real ring
 * on CPU 0 gets the producer as its AUX area). After each stretch of trace the program writes the PERF_RECORD_AUX the
 * kernel would, timed; one stretch is larger than the AUX area, so it is cut short and its
 * record is flagged TRUNCATED, as the kernel flags one that found no room. trace.dat: the
 * getppid calls of the workload and one trace_marker line per round, from a tracefs instance
 * of its own whose 8 KiB buffers one burst of markers overruns, so that events are lost.
 * Every clock is CLOCK_MONOTONIC (perf's use_clockid, ftrace's "mono"), so the two files
 * share one timeline.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/perf-data.h>
#include <auxtrace/synthesize.h>
#include <internal/auxtrace-backend.h>
#include <tracefs.h>
#include <tracefs/trace-dat.h>
#include "lib/aux-payload.h"
#include "lib/aux-producer.h"
#include "lib/fake-sysfs.h"
#include "lib/perf-data-testlib.h"
#include "lib/testlib.h"

#define AUX_PAGES	16		/* 64 KiB: the large stretch does not fit */
#define ROUNDS		40
#define CALLS		25		/* getppid calls a round */
#define AUX_SMALL	3000		/* bytes of trace a round */
#define AUX_LARGE	(96 << 10)	/* ... in the round that overflows the area */
#define LARGE_ROUND	(ROUNDS / 2)
#define BURST_ROUND	(ROUNDS / 4)	/* ftrace: more markers than the 8 KiB buffer holds */
#define BURST		300
#define BURST_LEN	200		/* leaves the kernel room to store its lost count */
#define MAX_CPUS	64
#define SNAPSHOT_EVERY	10
#define TRACEPOINT	"syscalls:sys_enter_getppid"	/* perf's samples: one a call */

struct recording {
	const char *dir;
	bool snapshot;
	struct fake_sysfs fs;
	struct evlist *evlist;
	struct evsel *aux_evsel, *tp_evsel;
	struct auxtrace_record *itr;
	struct auxtrace_mmaps *aux;
	struct aux_producer *p;
	struct perf_data_writer *w;
	int fd;
	uint64_t aux_id;		/* the AUX event's sample ID on CPU 0 */
	struct tracefs_instance *inst;
	struct trace_dat_writer *tw;
	struct tracefs_cpu *tcpu[MAX_CPUS];
	int nr_cpus, marker;
	uint64_t aux_bytes;
	uint64_t ftrace_lost;		/* what the tcpus counted lost */
	FILE *truth;
	int truth_losses;
};

static int print_log(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBAUXTRACE_WARN)
		return 0;
	fputs("report-recording: libauxtrace: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "report-recording: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void check(int err, const char *what)
{
	if (err < 0)
		die(what, err);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* Every event on CLOCK_MONOTONIC, with the CPU and the time in every record. */
static void attr__common(struct perf_event_attr *attr)
{
	attr->sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_CPU;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
}

static void perf_setup(struct recording *r, const char *perf_path)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .disabled = 1,
	};
	AUXTRACE_OPTS(perf_data_writer_opts, wopts);
	struct aux_producer_config cfg = { 0 };
	struct auxtrace_opts opts;
	struct evsel *evsel;
	char filter[64];
	int err;

	check(fake_sysfs__aux_as_software(&r->fs, "intel_pt"), "fake sysfs");

	r->evlist = evlist__new();
	r->aux_evsel = evsel__new(&attr);
	check(evlist__add(r->evlist, r->aux_evsel), "evlist__add");
	check(parse_events(r->evlist, TRACEPOINT, NULL, NULL), TRACEPOINT);
	evlist__for_each_entry(r->evlist, evsel)
		if (evsel != r->aux_evsel)
			r->tp_evsel = evsel;
	evsel__attr(r->tp_evsel)->sample_period = 1;	/* every call */
	evsel__attr(r->tp_evsel)->sample_type = PERF_SAMPLE_IP;
	evsel__attr(r->tp_evsel)->disabled = 1;
	{
		struct perf_cpu_map *cpus = perf_cpu_map__new("0");
		struct perf_thread_map *threads = perf_thread_map__new_tid(-1);

		check(evlist__set_maps(r->evlist, cpus, threads), "evlist__set_maps");
		perf_cpu_map__put(cpus);
		perf_thread_map__put(threads);
	}
	r->itr = auxtrace_record__init(r->evlist, r->fs.root, &err);
	if (!r->itr)
		die("auxtrace_record__init", err ? err : EINVAL);
	auxtrace_backend(r->itr)->time_conv = aux_time_conv__or_stand_in;
	auxtrace_opts__init(&opts);
	opts.privileged = true;
	if (r->snapshot)
		check(auxtrace_opts__parse_snapshot(r->itr, &opts, ""), "snapshot mode");
	check(auxtrace_record__options(r->itr, r->evlist, &opts), "auxtrace_record__options");
	evlist__for_each_entry(r->evlist, evsel)	/* the tracking event the options added too */
		attr__common(evsel__attr(evsel));
	check(evlist__open(r->evlist), "evlist__open");
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	check(evsel__apply_filter(r->tp_evsel, filter), "tracepoint filter");
	auxtrace_record__set_user_disabled(r->itr, true);	/* cpu-clock stays off */
	check(evsel__id(r->aux_evsel, 0, 0, &r->aux_id), "evsel__id");
	r->p = aux_producer__new(&cfg);
	r->aux = auxtrace_mmaps__new(r->evlist, r->itr, AUX_PAGES, r->snapshot);
	if (!r->p || !r->aux)
		die("AUX area", errno);
	aux_producer__route_mmaps(r->p, r->aux);
	check(evlist__mmap_ex(r->evlist, 4, auxtrace_mmaps__hooks(r->aux)), "evlist__mmap_ex");

	r->fd = open(perf_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	check(r->fd < 0 ? -errno : 0, perf_path);
	wopts.sysfs_root = r->fs.root;
	r->w = perf_data_writer__new(r->fd, r->evlist, &wopts);
	if (!r->w)
		die("perf_data_writer__new", errno);
	{
		const char *const names[] = { TRACEPOINT, NULL };
		void *data;
		size_t size;

		check(trace_dat__tracing_data(NULL, names, &data, &size), "tracing data");
		check(perf_data_writer__write_tracing_data(r->w, data, size), "tracing data");
		free(data);
	}
	check(perf_data_writer__write_prologue(r->w, r->itr), "write_prologue");
	check(perf_event__synthesize_thread(r->evlist, getpid(), false, NULL,
					    perf_data_writer__data_sink(r->w)), "synthesize");
	check(perf_data_writer__write_finished_init(r->w), "write_finished_init");
}

static void ftrace_setup(struct recording *r, const char *trace_path)
{
	char name[128], filter[64];

	testlib_instance_name(name, sizeof(name));
	r->inst = tracefs_instance_create(name);
	if (!r->inst)
		die("tracefs_instance_create", errno);
	check(tracefs_instance_set_clock(r->inst, "mono"), "trace clock mono");
	check(tracefs_instance_set_buffer_size(r->inst, 8, -1), "buffer size");
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	check(tracefs_instance_file_write(r->inst, "events/syscalls/sys_enter_getppid/filter",
					  filter), "event filter");
	check(tracefs_event_enable(r->inst, "syscalls", "sys_enter_getppid"), "event enable");
	r->marker = tracefs_instance_file_open(r->inst, "trace_marker", O_WRONLY);
	check(r->marker, "trace_marker");
	r->nr_cpus = testlib_nr_online_cpus() < MAX_CPUS ? testlib_nr_online_cpus() : MAX_CPUS;
	r->tw = trace_dat_writer__new(trace_path, r->inst, NULL);
	if (!r->tw)
		die("trace_dat_writer__new", errno);
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		r->tcpu[cpu] = tracefs_cpu_open(r->inst, cpu, true);
		if (!r->tcpu[cpu] || !trace_dat_writer__cpu_sink(r->tw, cpu))
			die("tracefs_cpu_open", errno);
	}
}

/* What the kernel writes when a stretch of AUX trace ends: PERF_RECORD_AUX, timed. */
static void aux_record(struct recording *r, uint64_t offset, uint64_t size, uint64_t flags)
{
	struct {
		struct perf_record_aux aux;
		uint32_t pid, tid;	/* the AUX event's sample_id_all trailer */
		uint64_t time;
		uint32_t cpu, res;
		uint64_t id;
	} rec = {
		.aux = { .header = { .type = PERF_RECORD_AUX, .size = sizeof(rec) },
			 .aux_offset = offset, .aux_size = size, .flags = flags },
		.pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(), .time = now_ns(),
		.cpu = 0, .id = r->aux_id,
	};

	check(perf_data_writer__write_event(r->w, (const union perf_event *)&rec), "AUX record");
	if (flags & PERF_AUX_FLAG_TRUNCATED)
		fprintf(r->truth, "%s[0, %llu, \"aux-truncated\", 1]", r->truth_losses++ ? ", " : "",
			(unsigned long long)rec.time);
}

/* n bytes of packets as one stretch of trace; what does not fit is cut, as the kernel cuts. */
static void aux_stretch(struct recording *r, size_t n)
{
	unsigned char *buf = malloc(n);
	uint64_t head = aux_producer__head(r->p);
	size_t done;

	if (!buf || pt_payload__fill(buf, n, r->aux_bytes, 0x400100) < 0)
		die("PT packets", ENOMEM);
	done = aux_producer__write(r->p, buf, n);
	r->aux_bytes += done;
	aux_record(r, head, done, (done < n ? PERF_AUX_FLAG_TRUNCATED : 0) |
				  (r->snapshot ? PERF_AUX_FLAG_OVERWRITE : 0));
	free(buf);
}

static void drain(struct recording *r, int round, bool flush)
{
	struct ring_sink *aux_sink = perf_data_writer__aux_sink(r->w);

	check(testlib_push_rings(r->evlist, perf_data_writer__data_sink(r->w)), "data rings");
	if (!r->snapshot)
		check(auxtrace_mmaps__read(r->aux, aux_sink), "AUX areas");
	else if (round % SNAPSHOT_EVERY == SNAPSHOT_EVERY - 1)
		check(auxtrace_mmaps__read_snapshot(r->aux, aux_sink, 0), "AUX snapshot");
	check(perf_data_writer__write_finished_round(r->w), "finished round");
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct ring_sink *sink = trace_dat_writer__cpu_sink(r->tw, cpu);

		check(flush ? tracefs_cpu_flush_drain(r->tcpu[cpu], sink) :
			      tracefs_cpu_drain(r->tcpu[cpu], sink), "tracefs drain");
	}
}

static void workload(struct recording *r)
{
	check(testlib_pin_cpu(0), "pin to CPU 0");
	check(evsel__enable(r->tp_evsel), "enable");
	for (int round = 0; round < ROUNDS; round++) {
		char text[32];
		int len = snprintf(text, sizeof(text), "round %d", round);

		for (int i = 0; i < CALLS; i++) {
			syscall(SYS_getppid);
		}
		check(write(r->marker, text, (size_t)len) == len ? 0 : -EIO, "trace_marker");
		for (int i = 0; round == BURST_ROUND && i < BURST; i++) {
			char burst[BURST_LEN];

			memset(burst, 'x', sizeof(burst));
			check(write(r->marker, burst, sizeof(burst)) == sizeof(burst) ? 0 : -EIO,
			      "trace_marker");
		}
		aux_stretch(r, round == LARGE_ROUND ? AUX_LARGE : AUX_SMALL);
		usleep(2000);
		drain(r, round, false);
	}
	check(evsel__disable(r->tp_evsel), "disable");
	check(tracefs_event_disable(r->inst, NULL, NULL), "event disable");
	drain(r, -1, true);
}

static void finish(struct recording *r)
{
	check(perf_data_writer__finish(r->w), "perf_data_writer__finish");
	check(trace_dat_writer__finish(r->tw), "trace_dat_writer__finish");
	perf_data_writer__delete(r->w);
	trace_dat_writer__delete(r->tw);
	close(r->fd);
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		r->ftrace_lost += tracefs_cpu_stats(r->tcpu[cpu])->lost;
		tracefs_cpu_close(r->tcpu[cpu]);
	}
	close(r->marker);
	tracefs_instance_destroy(r->inst);
	tracefs_instance_free(r->inst);
	evlist__delete(r->evlist);
	auxtrace_mmaps__delete(r->aux);
	aux_producer__delete(r->p);
	auxtrace_record__free(r->itr);
	fake_sysfs__remove(&r->fs);
}

int main(int argc, char **argv)
{
	struct recording r = { 0 };
	char perf_path[512], trace_path[512], truth_path[512];

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "snapshot"))) {
		fprintf(stderr, "usage: report-recording DIR [snapshot]\n");
		return 2;
	}
	r.snapshot = argc == 3;
	libauxtrace_set_print(print_log);
	r.dir = argv[1];
	snprintf(perf_path, sizeof(perf_path), "%s/perf.data", r.dir);
	snprintf(trace_path, sizeof(trace_path), "%s/trace.dat", r.dir);
	snprintf(truth_path, sizeof(truth_path), "%s/truth.json", r.dir);
	r.truth = fopen(truth_path, "w");
	if (!r.truth)
		die(truth_path, errno);
	fputs("{\"losses\": [", r.truth);
	perf_setup(&r, perf_path);
	ftrace_setup(&r, trace_path);
	workload(&r);
	finish(&r);
	fprintf(r.truth, "], \"rounds\": %d, \"calls\": %d, \"markers\": %d, \"auxBytes\": %llu, "
		"\"ftraceLost\": %llu, \"snapshots\": %d}\n", ROUNDS, ROUNDS * CALLS, ROUNDS + BURST,
		(unsigned long long)r.aux_bytes, (unsigned long long)r.ftrace_lost,
		r.snapshot ? ROUNDS / SNAPSHOT_EVERY : 0);
	fclose(r.truth);
	return 0;
}
