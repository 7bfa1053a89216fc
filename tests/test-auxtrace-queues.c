// SPDX-License-Identifier: LGPL-2.1
/*
 * The decode side's AUX data: an AUX recording made through the library's own capture path
 * (the test producer behind auxtrace_mmaps__read) read back through a test decoder behind
 * struct auxtrace, from the index, from a walk and from a pipe; queue growth, the CPU
 * filter, AUX samples, lazy mapping, and the heap's order.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/auxtrace-queues.h>

#include "lib/aux-payload.h"
#include "lib/aux-producer.h"
#include "lib/log-capture.h"
#include "lib/perf-data-file.h"
#include "lib/testlib.h"

#define AUX_PAGES 4
#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

/* ---- a decoder that writes down what the session hands it ---- */

struct test_decoder {
	struct auxtrace aux;
	struct auxtrace_queues *queues;
	char calls[8192];	/* one letter per call: N new, A AUXTRACE, E record, F flush,
				   X free_events, D free; T the tool after an E */
	int populated;		/* what auxtrace_queues__populate returned */
	uint64_t last_time;
	bool out_of_order;
	uint64_t stream_bytes;	/* payload bytes that were the producer's stream */
	bool bad_bytes;
	int buffers;
	int copied;		/* buffers holding a copy (a pipe) rather than a mapping */
	bool fail_new;
};

static struct test_decoder dec;

static void dec__call(char c)
{
	size_t len = strlen(dec.calls);

	if (len + 1 < sizeof(dec.calls)) {
		dec.calls[len] = c;
		dec.calls[len + 1] = '\0';
	}
}

static int dec__process_event(struct auxtrace *aux, struct perf_session *s,
			      union perf_event *event, struct perf_sample *sample,
			      struct evsel *evsel)
{
	(void)aux; (void)s; (void)event; (void)evsel;
	dec__call('E');
	if (sample->time != (uint64_t)-1 && sample->time) {
		dec.out_of_order |= sample->time < dec.last_time;
		dec.last_time = sample->time;
	}
	return 0;
}

static int dec__process_auxtrace_event(struct auxtrace *aux, struct perf_session *s,
				       union perf_event *event, uint64_t data_offset)
{
	(void)aux;
	dec__call('A');
	if (auxtrace_queues__data_queued(dec.queues))
		return 0;	/* a file: populate queued it all already */
	return auxtrace_queues__add_event(dec.queues, s, event, data_offset, NULL);
}

/* Every queued byte is the producer's stream at the buffer's offset, or tail padding. */
static void dec__check_buffer(struct auxtrace_buffer *b)
{
	const unsigned char *data = auxtrace_buffer__get_data(b);
	size_t i, n = b->size;

	ck_assert_ptr_nonnull(data);
	ck_assert(b->data_needs_freeing != !!b->mmap_addr);
	dec.copied += b->data_needs_freeing;
	while (n && !data[n - 1] && b->size - n < 8)
		n--;
	for (i = 0; i < n; i++)
		dec.bad_bytes |= data[i] != aux_stream__byte(b->offset + i);
	dec.stream_bytes += n;
	dec.buffers++;
	auxtrace_buffer__put_data(b);
	ck_assert_ptr_null(b->mmap_addr);
}

static int dec__flush_events(struct auxtrace *aux, struct perf_session *s)
{
	unsigned int i;

	(void)aux; (void)s;
	dec__call('F');
	for (i = 0; i < auxtrace_queues__nr(dec.queues); i++) {
		struct auxtrace_queue *q = auxtrace_queues__queue(dec.queues, i);
		struct auxtrace_buffer *b = NULL;

		while (q && (b = auxtrace_buffer__next(q, b)))
			dec__check_buffer(b);
	}
	return 0;
}

static void dec__free_events(struct auxtrace *aux, struct perf_session *s)
{
	(void)aux; (void)s;
	dec__call('X');
}

static void dec__free(struct auxtrace *aux, struct perf_session *s)
{
	(void)aux; (void)s;
	dec__call('D');
	auxtrace_queues__delete(dec.queues);
	dec.queues = NULL;
}

static struct auxtrace *dec__new(struct perf_session *s,
				 const struct perf_record_auxtrace_info *info)
{
	if (dec.fail_new) {
		errno = ENOTSUP;
		return NULL;
	}
	ck_assert_uint_eq(info->type, PERF_AUXTRACE_INTEL_BTS);
	ck_assert_uint_eq(info->priv[2], 0x1234);	/* time_mult, as written */
	dec__call('N');
	dec.aux = (struct auxtrace){
		.sz = sizeof(dec.aux), .process_event = dec__process_event,
		.process_auxtrace_event = dec__process_auxtrace_event,
		.flush_events = dec__flush_events, .free_events = dec__free_events,
		.free = dec__free,
	};
	dec.queues = auxtrace_queues__new();
	ck_assert_ptr_nonnull(dec.queues);
	dec.populated = auxtrace_queues__populate(dec.queues, s);
	return dec.populated < 0 ? NULL : &dec.aux;
}

static const struct auxtrace_decoder test_bts = {
	.sz = sizeof(test_bts), .name = "test_bts", .type = PERF_AUXTRACE_INTEL_BTS,
	.new = dec__new,
};
static const struct auxtrace_decoder *const decoders[] = { &test_bts, NULL };

/* The tool after the decoder: a T right after each E. */
static int tool__kernel(struct perf_tool *t, struct perf_session *s, union perf_event *e,
			struct perf_sample *sample, struct evsel *evsel)
{
	(void)t; (void)s; (void)e; (void)sample; (void)evsel;
	dec__call('T');
	return 0;
}

static int run_decoder(int fd, const struct perf_session_opts *in_opts, bool keep)
{
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = decoders);
	struct perf_tool tool = { .sz = sizeof(tool), .ordered_events = true,
				  .sample = tool__kernel, .event = tool__kernel };
	struct perf_session *s;
	int err;

	if (in_opts)
		opts = *in_opts;
	s = perf_session__new_fd(fd, &opts);
	if (!s)
		return -errno;
	err = perf_session__process_events(s, &tool);
	if (!keep)
		perf_session__delete(s);
	return err;
}

/* ---- an AUX recording through the library's capture path ---- */

struct recording {
	uint64_t id;
	uint64_t stream;	/* bytes the producer wrote */
	int records;		/* AUXTRACE records */
	int side;		/* side-band records */
};

struct side {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint32_t tpid, ttid;
	uint64_t time;
	uint64_t id;
};

/*
 * A per-thread cpu-clock evsel on this thread stands in for the AUX event; the producer
 * fills its AUX area in passes; each pass is drained by auxtrace_mmaps__read into memory
 * and written out after an ITRACE_START, then a FINISHED_ROUND.
 */
static void record_aux(int fd, bool pipe, struct recording *rec)
{
	static const size_t passes[] = { 5000, 16384, 3, 12000, 9000, 40, 16000 };
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = ST, .sample_id_all = 1, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	struct aux_producer *p = aux_producer__new(&(struct aux_producer_config){ 0 });
	struct perf_cpu_map *cpus = perf_cpu_map__new("");
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct evlist *evlist = evlist__new();
	struct evsel *evsel = evsel__new(&attr);
	struct auxtrace_mmaps *aux;
	/* AUXTRACE_INFO of Intel BTS: its 6 u64 of priv, time_mult 0x1234. */
	struct {
		struct perf_event_header h;
		uint32_t type, reserved;
		uint64_t priv[6];
	} info = { { PERF_RECORD_AUXTRACE_INFO, 0, sizeof(info) }, PERF_AUXTRACE_INTEL_BTS, 0,
		   { 10, 0, 0x1234, 0, 1, 0 } };
	struct {
		struct perf_event_header h;
		uint64_t nr;
		struct perf_record_id_index_entry e;
	} ii = { { PERF_RECORD_ID_INDEX, 0, sizeof(ii) }, 1, { 0, 0, -1, getpid() } };
	unsigned char *out = malloc(64 * 1024), *chunk = malloc(16384);
	struct ring_sink_memory mem;
	struct pd_file *f;
	size_t i;

	evsel__set_needs_auxtrace_mmap(evsel, true);
	ck_assert_int_eq(evlist__add(evlist, evsel), 0);
	ck_assert_int_eq(evlist__set_maps(evlist, cpus, threads), 0);
	ck_assert_int_eq(evlist__open(evlist), 0);
	ck_assert_int_eq(evsel__id(evsel, 0, 0, &rec->id), 0);
	aux = auxtrace_mmaps__new(evlist, NULL, AUX_PAGES, false);
	aux_producer__route_mmaps(p, aux);
	ck_assert_int_eq(evlist__mmap_ex(evlist, 4, auxtrace_mmaps__hooks(aux)), 0);

	f = pd_file__new(fd, pipe);
	pd_file__add_attr(f, &attr, &rec->id, 1);
	pd_file__start(f);
	ii.e.id = rec->id;
	pd_file__record(f, &ii);
	pd_file__record(f, &info);
	for (i = 0; i < sizeof(passes) / sizeof(passes[0]); i++) {
		/* The side-band of a pass carries a time before its AUX data, given in reverse
		 * to the reader inside the round: ordering must put it right. */
		struct side s1 = { { PERF_RECORD_ITRACE_START, 0, sizeof(s1) }, getpid(), getpid(),
				   getpid(), getpid(), 100 * (i + 1) + 50, rec->id };
		struct side s0 = s1;
		ssize_t n;

		s0.time = 100 * (i + 1);
		aux_stream__fill(NULL, rec->stream, chunk, passes[i]);
		ck_assert_uint_eq(aux_producer__write(p, chunk, passes[i]), passes[i]);
		rec->stream += passes[i];
		ring_sink_memory__init(&mem, out, 64 * 1024);
		n = auxtrace_mmaps__read(aux, &mem.sink);
		ck_assert_int_gt(n, 0);
		pd_file__record(f, &s1);
		pd_file__record(f, &s0);
		rec->side += 2;
		rec->records += pd_file__framed(f, out, mem.used);
		pd_file__record(f, &(struct perf_event_header){ PERF_RECORD_FINISHED_ROUND, 0, 8 });
	}
	pd_file__finish(f, true);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	evlist__munmap(evlist);
	evlist__delete(evlist);
	auxtrace_mmaps__delete(aux);
	aux_producer__delete(p);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	free(out);
	free(chunk);
}

static int recording_memfd(bool pipe, bool index, struct recording *rec)
{
	int fd = memfd_create("auxrec.data", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	memset(rec, 0, sizeof(*rec));
	record_aux(fd, pipe, rec);
	if (!index && !pipe) {
		/* The same file without HEADER_AUXTRACE: clear the feature bit. */
		struct perf_file_header h;

		ck_assert_int_eq(pread(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
		h.adds_features[HEADER_AUXTRACE / 64] &= ~(1ull << (HEADER_AUXTRACE % 64));
		ck_assert_int_eq(pwrite(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
	}
	return fd;
}

/* "E T" pairs only, and the calls around them. */
static void assert_calls(const char *calls, int auxtrace, int kernel)
{
	const char *p = calls;
	int a = 0, e = 0;

	ck_assert_msg(*p++ == 'N', "%s", calls);
	for (; *p && *p != 'F'; p++) {
		if (*p == 'A') {
			a++;
		} else {
			ck_assert_msg(*p == 'E' && p[1] == 'T', "%s", calls);
			e++;
			p++;
		}
	}
	ck_assert_int_eq(a, auxtrace);
	ck_assert_int_eq(e, kernel);
	ck_assert_str_eq(p, "FXD");
}

START_TEST(test_recording_from_index_walk_and_pipe)
{
	int mode = _i;		/* 0: index, 1: walk, 2: pipe format mapped, 3: a real pipe */
	struct recording rec;
	int fd = recording_memfd(mode >= 2, mode == 0, &rec), status = 0;
	pid_t pid = -1;

	memset(&dec, 0, sizeof(dec));
	if (mode == 3) {
		size_t size;
		unsigned char *buf = pd_read_all(fd, &size);
		int p[2];

		ck_assert_int_eq(pipe(p), 0);
		pid = fork();
		if (!pid)
			_exit(write(p[1], buf, size) == (ssize_t)size ? 0 : 1);
		close(p[1]);
		close(fd);
		free(buf);
		fd = p[0];
	}
	ck_assert_int_eq(run_decoder(fd, NULL, false), 0);
	if (pid > 0)
		waitpid(pid, &status, 0);
	ck_assert_int_eq(status, 0);
	assert_calls(dec.calls, rec.records, rec.side);
	ck_assert_int_eq(dec.copied, mode == 3 ? rec.records : 0);
	ck_assert_int_eq(dec.populated, (mode == 3 ? 0 : rec.records));
	ck_assert(!dec.out_of_order);
	ck_assert_int_eq(dec.buffers, rec.records);
	ck_assert(!dec.bad_bytes);
	ck_assert_uint_eq(dec.stream_bytes, rec.stream);
	close(fd);
}
END_TEST

/*
 * Mapped buffers: payloads read in place in the session's one mapping (no mapping each),
 * and their pages given back once 512 KiB of them are put.
 */
static unsigned long mapping_of(const char *name, bool rss_kib)
{
	FILE *f = fopen(rss_kib ? "/proc/self/smaps" : "/proc/self/maps", "r");
	unsigned long start = 0, kib = 0, v;
	bool in = false;
	char line[512];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-", &v) == 1 && strchr(line, '-') < strchr(line, ' ')) {
			in = strstr(line, name) != NULL;
			n += in;
			start = in ? v : start;
		} else if (in && sscanf(line, "Rss: %lu kB", &v) == 1) {
			kib = v;
		}
	}
	fclose(f);
	ck_assert_int_eq(n, 1);		/* the session's mapping only */
	return rss_kib ? kib : start;
}

#define BIG_PAYLOADS	40
#define BIG_PAYLOAD	(64u << 10)

START_TEST(test_payloads_in_place)
{
	int fd = memfd_create("big.data", MFD_CLOEXEC);
	struct pd_file *f = pd_file__new(fd, false);
	struct perf_event_attr attr = { .type = 10, .sample_type = PERF_SAMPLE_IP };
	unsigned char *payload = malloc(BIG_PAYLOAD);
	struct perf_session *s;
	struct auxtrace_queues *q = auxtrace_queues__new();
	struct auxtrace_queue *queue;
	struct auxtrace_buffer *b = NULL;
	unsigned long start, touched;
	int n = 0;

	pd_file__add_attr(f, &attr, NULL, 0);
	pd_file__start(f);
	for (int i = 0; i < BIG_PAYLOADS; i++) {
		aux_stream__fill(NULL, (uint64_t)i * BIG_PAYLOAD, payload, BIG_PAYLOAD);
		pd_file__auxtrace(f, 0, 0, 7, (uint64_t)i * BIG_PAYLOAD, i, payload, BIG_PAYLOAD);
	}
	pd_file__finish(f, true);
	s = perf_session__new_fd(fd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) });
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(auxtrace_queues__populate(q, s), BIG_PAYLOADS);
	start = mapping_of("big.data", false);
	queue = auxtrace_queues__queue(q, 0);
	while ((b = auxtrace_buffer__next(queue, b))) {
		const unsigned char *data;

		ck_assert(!b->data && !b->mmap_addr && !b->data_needs_freeing);
		data = auxtrace_buffer__get_data(b);
		ck_assert_ptr_eq(data, (void *)(start + b->data_offset));
		ck_assert_ptr_eq(auxtrace_buffer__get_data(b), data);	/* once */
		ck_assert(data[0] == aux_stream__byte(b->offset) &&
			  data[b->size - 1] == aux_stream__byte(b->offset + b->size - 1));
		for (size_t i = 0; i < b->size; i += 4096)
			n += data[i] == aux_stream__byte(b->offset + i);
		ck_assert_ptr_nonnull(b->mmap_addr);
	}
	ck_assert_int_eq(n, BIG_PAYLOADS * BIG_PAYLOAD / 4096);
	touched = mapping_of("big.data", true);
	ck_assert_uint_ge(touched, BIG_PAYLOADS * BIG_PAYLOAD / 1024);
	for (b = NULL; (b = auxtrace_buffer__next(queue, b)); ) {
		auxtrace_buffer__put_data(b);
		ck_assert(!b->data && !b->mmap_addr && b->size);
	}
	/* given back 512 KiB at a time: what is left is less than a step and a payload */
	ck_assert_uint_lt(mapping_of("big.data", true), 512 + BIG_PAYLOAD / 1024 + 8);
	/*
	 * A second pass, as a decoder goes (each payload put before the next is read): the
	 * payloads left waiting at the file's end are given back when it starts over, and the
	 * rest a step at a time. (That a give-back ends at a fault-around boundary, so that a
	 * read does not map given-back pages again for good, shows on a disk's file system
	 * only, over more data: auxrec script's peak RSS on bench-decode's BTS file, 1.8 MiB
	 * more without it.)
	 */
	for (b = NULL; (b = auxtrace_buffer__next(queue, b)); ) {
		const unsigned char *data = auxtrace_buffer__get_data(b);

		for (size_t i = 0; i < b->size; i += 4096)
			n -= data[i] == aux_stream__byte(b->offset + i);
		auxtrace_buffer__put_data(b);
	}
	ck_assert_int_eq(n, 0);
	ck_assert_uint_lt(mapping_of("big.data", true), 512 + 2 * BIG_PAYLOAD / 1024 + 8);
	b = auxtrace_buffer__next(queue, NULL);
	ck_assert_ptr_eq(auxtrace_buffer__get_data(b), (void *)(start + b->data_offset));
	ck_assert(((unsigned char *)b->data)[1] == aux_stream__byte(b->offset + 1));
	auxtrace_buffer__drop_data(b);
	ck_assert(!b->data && !b->size);
	assert_null_errno(auxtrace_buffer__get_data(b), ENODATA);
	auxtrace_queues__delete(q);
	perf_session__delete(s);
	free(payload);
	close(fd);
}
END_TEST

/* ---- hand-built AUXTRACE records: growth, CPU filter, index checks ---- */

static int aux_records_memfd(bool pipe, const uint32_t *idx, const int32_t *cpu, int nr)
{
	int fd = memfd_create("records.data", MFD_CLOEXEC), i;
	struct perf_event_attr attr = { .type = 10, .sample_type = PERF_SAMPLE_IP };
	struct pd_file *f = pd_file__new(fd, pipe);
	unsigned char payload[24];

	pd_file__add_attr(f, &attr, NULL, 0);
	pd_file__start(f);
	for (i = 0; i < nr; i++) {
		aux_stream__fill(NULL, 1000 * i, payload, sizeof(payload));
		pd_file__auxtrace(f, idx[i], (uint32_t)cpu[i], 7, 1000 * i, i, payload,
				  sizeof(payload) - i % 8);
	}
	pd_file__finish(f, true);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

START_TEST(test_queue_growth)
{
	static const uint32_t idx[] = { 0, 5, 100, 31, 32, 5 };
	static const int32_t cpu[] = { 0, 1, 1, 0, 1, 0 };
	int fd = aux_records_memfd(false, idx, cpu, 6);
	struct perf_session *s = perf_session__new_fd(fd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) });
	struct auxtrace_queues *q = auxtrace_queues__new();
	struct auxtrace_queue *q0 = auxtrace_queues__queue(q, 0), *q5;
	struct auxtrace_buffer *b;
	struct perf_record_auxtrace ev = { .header = { PERF_RECORD_AUXTRACE, 0, sizeof(ev) },
					   .idx = AUXTRACE_QUEUES_MAX, .cpu = 0, .size = 8 };

	ck_assert_uint_eq(auxtrace_queues__nr(q), 32);
	ck_assert_int_eq(auxtrace_queues__populate(q, s), 6);
	ck_assert_uint_eq(auxtrace_queues__nr(q), 128);	/* 32 doubled until 100 fits */
	ck_assert_ptr_eq(auxtrace_queues__queue(q, 0), q0);	/* queues do not move */
	ck_assert_ptr_null(auxtrace_queues__queue(q, 128));
	q5 = auxtrace_queues__queue(q, 5);
	b = auxtrace_buffer__next(q5, NULL);
	ck_assert(q5->set && q5->cpu == 1 && q5->tid == 7);
	ck_assert(b->buffer_nr == 1 && b->next->buffer_nr == 5 && !b->next->next);
	ck_assert(b->offset == 1000 && b->reference == 1 && b->size == 24);
	ck_assert_uint_eq(auxtrace_buffer__next(auxtrace_queues__queue(q, 100), NULL)->buffer_nr, 2);
	ck_assert(!auxtrace_queues__queue(q, 1)->set);
	log_capture_start();
	ck_assert_int_eq(auxtrace_queues__add_event(q, s, (union perf_event *)&ev, 200, NULL),
			 -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("more than 1048576 rings"), "%s", log_text);
	ck_assert_int_eq(auxtrace_queues__grow(q, AUXTRACE_QUEUES_MAX + 1), -EINVAL);
	/* A payload that is not inside the file is refused before anything is queued. */
	ev.idx = 3;
	ev.size = 1 << 20;
	log_capture_start();
	ck_assert_int_eq(auxtrace_queues__add_event(q, s, (union perf_event *)&ev, 200, NULL),
			 -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("runs past the end of the"), "%s", log_text);
	ck_assert(!auxtrace_queues__queue(q, 3)->set);
	auxtrace_queues__delete(q);
	perf_session__delete(s);
	close(fd);
}
END_TEST

START_TEST(test_cpu_filter)
{
	static const uint32_t idx[] = { 0, 1, 2, 0, 1 };
	static const int32_t cpu[] = { 0, 1, -1, 0, 1 };
	int fd = aux_records_memfd(false, idx, cpu, 5);
	struct perf_cpu_map *cpus = perf_cpu_map__new("0");
	AUXTRACE_OPTS(perf_session_opts, opts, .cpus = cpus);
	struct perf_session *s = perf_session__new_fd(fd, &opts);
	struct auxtrace_queues *q = auxtrace_queues__new();

	perf_cpu_map__put(cpus);	/* the session holds its own reference */
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(auxtrace_queues__populate(q, s), 3);
	ck_assert(auxtrace_queues__queue(q, 0)->set && auxtrace_queues__queue(q, 2)->set);
	ck_assert(!auxtrace_queues__queue(q, 1)->set);	/* CPU 1: filtered out */
	ck_assert_int_eq(auxtrace_queues__queue(q, 2)->cpu, -1);	/* a thread's: kept */
	ck_assert_ptr_nonnull(auxtrace_buffer__next(auxtrace_queues__queue(q, 0), NULL)->next);
	auxtrace_queues__delete(q);
	perf_session__delete(s);

	/* Without a filter every buffer is queued. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	s = perf_session__new_fd(fd, &(struct perf_session_opts){ .sz = sizeof(opts) });
	q = auxtrace_queues__new();
	ck_assert_int_eq(auxtrace_queues__populate(q, s), 5);
	ck_assert(auxtrace_queues__queue(q, 1)->set);
	auxtrace_queues__delete(q);
	perf_session__delete(s);
	close(fd);
}
END_TEST

START_TEST(test_index_entries_checked)
{
	static const uint32_t idx[] = { 0, 1 };
	static const int32_t cpu[] = { 0, 1 };
	const struct {
		int entry;
		uint64_t offset_delta, sz;
		const char *says;
	} cases[] = {
		{ 1, 0, 40, "index entry 1 says 40 bytes" },
		{ 0, 1 << 20, 48, "index entry 0 points outside the data section" },
		{ 1, 8, 48, NULL },	/* not an AUXTRACE record: ignored, as perf does */
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = aux_records_memfd(false, idx, cpu, 2), err;
		struct perf_file_header h;
		struct perf_file_section sec;
		uint64_t entry[2];
		struct perf_session *s;
		struct auxtrace_queues *q = auxtrace_queues__new();

		/* The index is the only feature: its section is the table's one entry. */
		ck_assert_int_eq(pread(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
		ck_assert_int_eq(pread(fd, &sec, sizeof(sec), h.data.offset + h.data.size),
				 (ssize_t)sizeof(sec));
		ck_assert_int_eq(pread(fd, entry, 16, sec.offset + 8 + 16 * cases[i].entry), 16);
		entry[0] += cases[i].offset_delta;
		entry[1] = cases[i].sz;
		ck_assert_int_eq(pwrite(fd, entry, 16, sec.offset + 8 + 16 * cases[i].entry), 16);
		s = perf_session__new_fd(fd, &(struct perf_session_opts){
			.sz = sizeof(struct perf_session_opts) });
		ck_assert_ptr_nonnull(s);
		log_capture_start();
		err = auxtrace_queues__populate(q, s);
		log_capture_stop();
		if (cases[i].says) {
			ck_assert_int_eq(err, -EINVAL);
			ck_assert_msg(log_captured(cases[i].says), "case %zu: %s", i, log_text);
			ck_assert_msg(log_captured("at file offset 0x"), "%s", log_text);
		} else {
			ck_assert_int_eq(err, 1);
		}
		auxtrace_queues__delete(q);
		perf_session__delete(s);
		close(fd);
	}
}
END_TEST

/* ---- AUX samples, queued by their sample ID's ring ---- */

START_TEST(test_aux_samples_by_sample_id)
{
	struct perf_event_attr attr = {
		.type = 10, .sample_type = ST | PERF_SAMPLE_AUX, .sample_id_all = 1,
		.aux_sample_size = 16,
	};
	uint64_t ids[] = { 7, 8 };
	struct {
		struct perf_event_header h;
		uint64_t nr;
		struct perf_record_id_index_entry e[2];
	} ii = { { PERF_RECORD_ID_INDEX, 0, sizeof(ii) }, 2,
		 { { 7, 0, 0, 50 }, { 8, 1, 1, 51 } } };
	struct {
		struct perf_event_header h;
		uint64_t id;
		uint32_t pid, tid;
		uint64_t time, aux_size;
		unsigned char aux[16];
	} smp = { { PERF_RECORD_SAMPLE, 0, sizeof(smp) }, 0, 50, 50, 0, 16, "" };
	int fd = memfd_create("samples.data", MFD_CLOEXEC), i;
	struct pd_file *f = pd_file__new(fd, false);
	struct perf_session *s;
	struct auxtrace_queues *q = auxtrace_queues__new();
	struct perf_sample sample = { .id = 0 };

	pd_file__add_attr(f, &attr, ids, 2);
	pd_file__start(f);
	pd_file__record(f, &ii);
	for (i = 0; i < 4; i++) {
		smp.id = ids[i % 2];
		smp.time = i + 1;
		aux_stream__fill(NULL, 16 * i, smp.aux, 16);
		pd_file__record(f, &smp);
	}
	pd_file__finish(f, false);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	s = perf_session__new_fd(fd, &(struct perf_session_opts){
		.sz = sizeof(struct perf_session_opts) });
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(auxtrace_queues__populate(q, s), 4);
	for (i = 0; i < 2; i++) {
		struct auxtrace_queue *queue = auxtrace_queues__queue(q, i);
		struct auxtrace_buffer *b = auxtrace_buffer__next(queue, NULL);
		const unsigned char *data;

		ck_assert(queue->set && queue->cpu == i && queue->tid == 50 + i);
		ck_assert_int_ge(b->fd, 0);		/* mapped from the file, not copied */
		data = auxtrace_buffer__get_data(b);
		ck_assert_ptr_nonnull(data);
		ck_assert(data[0] == aux_stream__byte(16 * i) && data[15] == aux_stream__byte(16 * i + 15));
		ck_assert_ptr_nonnull(b->next);
		ck_assert_ptr_null(b->next->next);
	}
	sample.id = 8;
	ck_assert_ptr_eq(auxtrace_queues__sample_queue(q, s, &sample), auxtrace_queues__queue(q, 1));
	sample.id = 9;
	ck_assert_ptr_null(auxtrace_queues__sample_queue(q, s, &sample));
	ck_assert_int_eq(auxtrace_queues__add_sample(q, s, &sample, 0), -ENOENT);
	sample.id = 0;
	ck_assert_int_eq(auxtrace_queues__add_sample(q, s, &sample, 0), -EINVAL);
	/* A sample held outside the mapping is copied. */
	sample.id = 7;
	sample.aux_sample.size = 16;
	sample.aux_sample.data = smp.aux;
	ck_assert_int_eq(auxtrace_queues__add_sample(q, s, &sample, 3), 0);
	ck_assert(auxtrace_queues__queue(q, 0)->tail->data_needs_freeing &&
		  auxtrace_queues__queue(q, 0)->tail->reference == 3);
	auxtrace_queues__delete(q);
	perf_session__delete(s);
	close(fd);
}
END_TEST

/* ---- the decoder choice ---- */

START_TEST(test_decoder_choice)
{
	struct recording rec;
	int fd = recording_memfd(false, true, &rec), err;
	static const struct auxtrace_decoder other = {
		.sz = sizeof(other), .name = "test_pt", .type = PERF_AUXTRACE_INTEL_PT,
		.new = dec__new,
	};
	static const struct auxtrace_decoder *const only_pt[] = { &other, NULL };
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = only_pt);
	struct pd_log log;

	memset(&dec, 0, sizeof(dec));
	log_capture_start();
	err = run_decoder(fd, &opts, false);
	log_capture_stop();
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_msg(log_captured("is of type 2 (intel_bts), which none of the decoders given "
				   "reads (test_pt)"), "%s", log_text);
	ck_assert_str_eq(dec.calls, "");

	dec.fail_new = true;
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	log_capture_start();
	err = run_decoder(fd, NULL, false);
	log_capture_stop();
	ck_assert_int_eq(err, -ENOTSUP);
	ck_assert_msg(log_captured("the test_bts decoder refused the AUXTRACE_INFO"), "%s",
		      log_text);

	/* No decoders: the payloads reach the tool, in place. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(pd_log__read(&log, NULL, fd, true, NULL, NULL), 0);
	ck_assert_int_eq(pd_log__count(&log, 'A', PERF_RECORD_AUXTRACE), rec.records);
	pd_log__exit(&log);
	close(fd);
}
END_TEST

/* ---- the heap ---- */

START_TEST(test_heap_order_and_ties)
{
	static const struct auxtrace_heap_item in[] = {
		{ 0, 30 }, { 1, 10 }, { 2, 30 }, { 3, 10 }, { 4, 20 }, { 5, 10 },
	};
	static const unsigned int out[] = { 1, 3, 5, 4, 0, 2 };
	struct auxtrace_heap *heap = auxtrace_heap__new();
	unsigned int i, seen[2000] = { 0 };
	uint64_t last_ord = 0, last_seq = 0;

	for (i = 0; i < 6; i++)
		ck_assert_int_eq(auxtrace_heap__add(heap, in[i].queue_nr, in[i].ordinal), 0);
	for (i = 0; i < 6; i++) {
		ck_assert_uint_eq(auxtrace_heap__top(heap)->queue_nr, out[i]);
		auxtrace_heap__pop(heap);
	}
	ck_assert_ptr_null(auxtrace_heap__top(heap));
	auxtrace_heap__pop(heap);		/* empty: nothing happens */
	ck_assert_int_eq(auxtrace_heap__add(heap, AUXTRACE_QUEUES_MAX, 1), -EINVAL);

	/* Many ties among few ordinals: each ordinal's queues come out in the order added
	 * (queue_nr grows with the order of adding). */
	srand(7);
	for (i = 0; i < 2000; i++)
		ck_assert_int_eq(auxtrace_heap__add(heap, i, rand() % 16), 0);
	ck_assert_uint_eq(auxtrace_heap__nr(heap), 2000);
	for (i = 0; i < 2000; i++) {
		const struct auxtrace_heap_item *top = auxtrace_heap__top(heap);

		ck_assert(top->ordinal > last_ord || (top->ordinal == last_ord &&
						      (!i || top->queue_nr > last_seq)));
		last_ord = top->ordinal;
		last_seq = top->queue_nr;
		seen[top->queue_nr]++;
		auxtrace_heap__pop(heap);
	}
	for (i = 0; i < 2000; i++)
		ck_assert_uint_eq(seen[i], 1);
	auxtrace_heap__delete(heap);
	auxtrace_heap__delete(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("auxtrace-queues");
	TCase *tc = tcase_create("queues");

	tcase_add_loop_test(tc, test_recording_from_index_walk_and_pipe, 0, 4);
	tcase_add_test(tc, test_payloads_in_place);
	tcase_add_test(tc, test_queue_growth);
	tcase_add_test(tc, test_cpu_filter);
	tcase_add_test(tc, test_index_entries_checked);
	tcase_add_test(tc, test_aux_samples_by_sample_id);
	tcase_add_test(tc, test_decoder_choice);
	tcase_add_test(tc, test_heap_order_and_ties);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
