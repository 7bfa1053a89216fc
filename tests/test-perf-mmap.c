// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf data ring on a real kernel: a syscall tracepoint on this thread, sample_period 1,
 * so every getpgid() is one record. Read per record, pushed raw, lost, wrapped, backward.
 * Then a fake producer (a memfd mapped like a ring, written by the test as the kernel
 * would) for what the kernel will not produce on demand: AUX flags, LOST_SAMPLES, a consumer
 * overrun, corrupt records, a backward ring overwritten all round at a chosen offset.
 *
 * getpgid, not getppid: the benchmarks attach a BPF program to sys_enter_getppid, and a BPF
 * program on a tracepoint that returns 0 silences every perf event on it, system-wide.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <auxtrace/evsel.h>
#include <auxtrace/mmap.h>
#include <internal/mmap.h>
#include "lib/perf-testlib.h"
#include "lib/testlib.h"
#include "lib/log-capture.h"

#define PAGE ((size_t)sysconf(_SC_PAGESIZE))

static void getpgid_n(int n)
{
	while (n--)
		syscall(SYS_getpgid, 0);
}

struct tp {
	struct evsel *evsel;
	struct perf_mmap *map;
};

/*
 * sys_enter_getpgid on this thread, every hit a sample, mapped with `pages` data pages.
 * Starts disabled; false when the kernel lacks the tracepoint.
 */
static bool tp_open(struct tp *tp, uint64_t sample_type, unsigned int pages, bool backward)
{
	struct perf_thread_map *self;

	tp->evsel = testlib_tracepoint_evsel("syscalls", "sys_enter_getpgid", sample_type,
					     backward);
	if (!tp->evsel)
		return false;
	self = perf_thread_map__new_tid((pid_t)syscall(SYS_gettid));
	ck_assert_int_eq(evsel__open(tp->evsel, NULL, self), 0);
	perf_thread_map__put(self);
	tp->map = perf_mmap__new(evsel__fd(tp->evsel, 0, 0), (struct perf_cpu){ -1 }, pages,
				 backward);
	ck_assert_ptr_nonnull(tp->map);
	return true;
}

static void tp_close(struct tp *tp)
{
	perf_mmap__delete(tp->map);
	evsel__delete(tp->evsel);
}

#define TP_OPEN(tp, st, pages, backward)					\
	do {									\
		TEST_REQUIRE_ROOT();						\
		if (!tp_open(tp, st, pages, backward))				\
			TEST_SKIP("no syscalls:sys_enter_getpgid tracepoint in tracefs"); \
	} while (0)

/* Produce n samples: enable, n getpgid calls, disable. */
static void tp_produce(struct tp *tp, int n)
{
	ck_assert_int_eq(evsel__enable(tp->evsel), 0);
	getpgid_n(n);
	ck_assert_int_eq(evsel__disable(tp->evsel), 0);
}

/* libperf's loop; returns the PERF_RECORD_SAMPLEs seen. */
static int read_samples(struct perf_mmap *map)
{
	union perf_event *event;
	int samples = 0;

	if (perf_mmap__read_init(map) < 0)
		return 0;
	while ((event = perf_mmap__read_event(map)) != NULL) {
		samples += event->header.type == PERF_RECORD_SAMPLE;
		perf_mmap__consume(map);
	}
	perf_mmap__read_done(map);
	return samples;
}

/* Walk the records of a contiguous buffer; count one type, -1 if the framing is broken. */
static int count_type(const void *buf, size_t len, uint32_t type)
{
	size_t off = 0;
	int n = 0;

	while (off < len) {
		const struct perf_event_header *h = (const void *)((const char *)buf + off);

		if (h->size < sizeof(*h) || off + h->size > len)
			return -1;
		n += h->type == type;
		off += h->size;
	}
	return n;
}

START_TEST(test_read_event_exact)
{
	struct tp tp;

	TP_OPEN(&tp, PERF_SAMPLE_TID, 4, false);
	ck_assert_int_eq(perf_mmap__read_init(tp.map), -EAGAIN);
	tp_produce(&tp, 100);
	ck_assert_int_eq(read_samples(tp.map), 100);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->records, 100);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->lost, 0);
	/* Everything consumed: the tail is the head, nothing left for another pass. */
	ck_assert_uint_eq(perf_mmap__userpg(tp.map)->data_tail,
			  perf_mmap__userpg(tp.map)->data_head);
	ck_assert_int_eq(perf_mmap__read_init(tp.map), -EAGAIN);
	tp_close(&tp);
}
END_TEST

START_TEST(test_push_exact)
{
	static char out[64 * 1024];
	struct ring_sink_memory mem;
	struct tp tp;
	uint64_t head;

	TP_OPEN(&tp, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 8, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 0);
	tp_produce(&tp, 300);
	head = perf_mmap__userpg(tp.map)->data_head;
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), (ssize_t)head);
	ck_assert_uint_eq(mem.used, head);
	ck_assert_int_eq(count_type(out, mem.used, PERF_RECORD_SAMPLE), 300);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->records, 300);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->bytes, head);
	ck_assert_uint_eq(perf_mmap__userpg(tp.map)->data_tail, head);
	tp_close(&tp);
}
END_TEST

/* Copies what it is offered, then refuses it. */
struct refusing_sink {
	struct ring_sink_callback cb;
	char seen[8192];
	size_t used;
};

static ssize_t refuse(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct refusing_sink *r = ctx;

	for (int i = 0; i < iovcnt; i++) {
		ck_assert_uint_le(r->used + iov[i].iov_len, sizeof(r->seen));
		memcpy(r->seen + r->used, iov[i].iov_base, iov[i].iov_len);
		r->used += iov[i].iov_len;
	}
	return -EIO;
}

START_TEST(test_failing_sink_keeps_tail)
{
	static char out[8192];
	struct refusing_sink r = { .used = 0 };
	struct ring_sink_memory mem;
	struct tp tp;

	TP_OPEN(&tp, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 1, false);
	ring_sink_callback__init(&r.cb, refuse, &r);
	ring_sink_memory__init(&mem, out, sizeof(out));
	/* 150 records of 24 bytes, then 60 more: the second batch wraps the one-page ring. */
	tp_produce(&tp, 150);
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 150 * 24);
	mem.used = 0;
	tp_produce(&tp, 60);
	ck_assert_int_eq(perf_mmap__push(tp.map, &r.cb.sink), -EIO);
	ck_assert_int_eq(errno, EIO);
	ck_assert_uint_eq(r.used, 60 * 24);
	ck_assert_uint_eq(perf_mmap__userpg(tp.map)->data_tail, 150 * 24);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->sink_errors, 1);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->records, 150);
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 60 * 24);
	ck_assert(!memcmp(out, r.seen, r.used));
	ck_assert_int_eq(count_type(out, mem.used, PERF_RECORD_SAMPLE), 60);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->records, 210);
	ck_assert_uint_eq(perf_mmap__userpg(tp.map)->data_tail, 210 * 24);
	tp_close(&tp);
}
END_TEST

START_TEST(test_lost_counted)
{
	static char out[64 * 1024];
	struct ring_sink_memory mem;
	const struct ring_stats *st;
	struct tp tp;
	int delivered;

	TP_OPEN(&tp, PERF_SAMPLE_TID, 1, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	/* 1000 samples of 16 bytes into 4 KiB, nobody reading. */
	tp_produce(&tp, 1000);
	ck_assert_int_gt(perf_mmap__push(tp.map, &mem.sink), 0);
	/* The kernel reports the loss with the next record that fits. */
	tp_produce(&tp, 1);
	ck_assert_int_gt(perf_mmap__push(tp.map, &mem.sink), 0);
	delivered = count_type(out, mem.used, PERF_RECORD_SAMPLE);
	st = perf_mmap__stats(tp.map);
	ck_assert_int_eq(count_type(out, mem.used, PERF_RECORD_LOST), 1);
	ck_assert_uint_eq(st->lost_reports, 1);
	ck_assert_uint_gt(st->lost, 0);
	ck_assert_uint_eq(st->lost + delivered, 1001);
	ck_assert_uint_eq(st->records, delivered + 1);
	tp_close(&tp);
}
END_TEST

START_TEST(test_lost_counted_by_read_event)
{
	struct tp tp;
	int delivered;

	TP_OPEN(&tp, PERF_SAMPLE_TID, 1, false);
	tp_produce(&tp, 1000);
	delivered = read_samples(tp.map);
	tp_produce(&tp, 1);
	delivered += read_samples(tp.map);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->lost_reports, 1);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->lost + delivered, 1001);
	tp_close(&tp);
}
END_TEST

/*
 * Two identical events, each with its own one-page ring: the same records land at the same
 * positions, so ring A read in pieces and ring B read as copies must agree byte for byte,
 * wrapped records included.
 */
START_TEST(test_wrapped_record_pieces_and_copy)
{
	struct tp a, b;
	static char pieces[512];
	int wrapped = 0, records = 0, round;

	TP_OPEN(&a, PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW, 1, false);
	TP_OPEN(&b, PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW, 1, false);
	for (round = 0; round < 30; round++) {
		struct perf_mmap_record rec;
		union perf_event *ev;
		int ok;

		ck_assert_int_eq(evsel__enable(a.evsel), 0);
		ck_assert_int_eq(evsel__enable(b.evsel), 0);
		getpgid_n(17);
		ck_assert_int_eq(evsel__disable(a.evsel), 0);
		ck_assert_int_eq(evsel__disable(b.evsel), 0);
		ck_assert_int_eq(perf_mmap__read_init(a.map), 0);
		ck_assert_int_eq(perf_mmap__read_init(b.map), 0);
		while ((ok = perf_mmap__read_record(a.map, &rec)) == 1) {
			size_t size = rec.len[0] + rec.len[1];

			ck_assert_uint_eq(rec.header->size, size);
			ck_assert_uint_le(size, sizeof(pieces));
			memcpy(pieces, rec.piece[0], rec.len[0]);
			if (rec.len[1]) {
				memcpy(pieces + rec.len[0], rec.piece[1], rec.len[1]);
				wrapped++;
			}
			ev = perf_mmap__read_event(b.map);
			ck_assert_ptr_nonnull(ev);
			ck_assert_uint_eq(ev->header.size, size);
			ck_assert(!memcmp(ev, pieces, size));
			records++;
		}
		ck_assert_int_eq(ok, 0);
		ck_assert_ptr_null(perf_mmap__read_event(b.map));
		perf_mmap__consume(a.map);
		perf_mmap__consume(b.map);
		perf_mmap__read_done(a.map);
		perf_mmap__read_done(b.map);
	}
	ck_assert_int_eq(records, 30 * 17);
	ck_assert_int_gt(wrapped, 0);
	ck_assert_uint_eq(perf_mmap__stats(a.map)->records, 30 * 17);
	ck_assert_uint_eq(perf_mmap__stats(b.map)->records, 30 * 17);
	tp_close(&a);
	tp_close(&b);
}
END_TEST

START_TEST(test_backward_exact_after_pause)
{
	struct tp tp;

	TP_OPEN(&tp, PERF_SAMPLE_TID, 4, true);
	ck_assert(perf_mmap__overwrite(tp.map));
	ck_assert_int_eq(evsel__enable(tp.evsel), 0);
	getpgid_n(57);
	ck_assert_int_eq(perf_mmap__pause(tp.map, true), 0);
	getpgid_n(5);	/* paused: dropped, and reported lost once output resumes */
	ck_assert_int_eq(read_samples(tp.map), 57);
	/* The next pass ends where this one began: nothing new. */
	ck_assert_int_eq(perf_mmap__read_init(tp.map), -EAGAIN);
	ck_assert_int_eq(perf_mmap__pause(tp.map, false), 0);
	getpgid_n(9);
	ck_assert_int_eq(perf_mmap__pause(tp.map, true), 0);
	ck_assert_int_eq(read_samples(tp.map), 9);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->records, 57 + 1 + 9);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->lost, 5);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->lost_reports, 1);
	tp_close(&tp);
}
END_TEST

START_TEST(test_backward_overwritten_all_round)
{
	static char out[8192];
	struct ring_sink_memory mem;
	struct tp tp;
	int n;

	/* 24-byte records in 4 KiB: the newest 170 survive whole, the 171st would overshoot. */
	TP_OPEN(&tp, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 1, true);
	ck_assert_int_eq(evsel__enable(tp.evsel), 0);
	getpgid_n(1000);
	ck_assert_int_eq(perf_mmap__pause(tp.map, true), 0);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 4096 / 24 * 24);
	n = count_type(out, mem.used, PERF_RECORD_SAMPLE);
	ck_assert_int_eq(n, 4096 / 24);
	ck_assert_uint_eq(perf_mmap__stats(tp.map)->records, (uint64_t)n);
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 0);
	tp_close(&tp);
}
END_TEST

START_TEST(test_flush_threshold)
{
	static char out[8192];
	struct ring_sink_memory mem;
	struct tp tp;

	TP_OPEN(&tp, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 2, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	perf_mmap__set_flush(tp.map, 10 * 24);
	tp_produce(&tp, 9);
	ck_assert_int_eq(perf_mmap__read_init(tp.map), -EAGAIN);
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 0);
	tp_produce(&tp, 1);
	ck_assert_int_eq(perf_mmap__push(tp.map, &mem.sink), 10 * 24);
	tp_close(&tp);
}
END_TEST

/*
 * A fake producer: a memfd laid out as a ring (control page, then the data pages), mapped
 * by perf_mmap__new exactly like a perf fd, and by the test to write records and heads.
 */
struct fake {
	int fd;
	struct perf_mmap *map;
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	size_t size;
};

static void fake_open(struct fake *f, unsigned int pages, bool backward)
{
	size_t len = (pages + 1) * PAGE;

	f->fd = memfd_create("fake-ring", MFD_CLOEXEC);
	ck_assert_int_ge(f->fd, 0);
	ck_assert_int_eq(ftruncate(f->fd, len), 0);
	f->pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
	ck_assert(f->pg != MAP_FAILED);
	f->data = (unsigned char *)f->pg + PAGE;
	f->size = pages * PAGE;
	f->map = perf_mmap__new(f->fd, (struct perf_cpu){ 3 }, pages, backward);
	ck_assert_ptr_nonnull(f->map);
}

static void fake_close(struct fake *f)
{
	perf_mmap__delete(f->map);
	munmap(f->pg, f->size + PAGE);
	close(f->fd);
}

static void fake_write(struct fake *f, uint64_t pos, const void *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		f->data[(pos + i) & (f->size - 1)] = ((const unsigned char *)src)[i];
}

/* One record of n u64 words: forward at the head, or backward below it. */
static void fake_put(struct fake *f, bool backward, uint32_t type, const uint64_t *words, int n)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(8 + 8 * n) };
	uint64_t pos = backward ? f->pg->data_head - h.size : f->pg->data_head;

	fake_write(f, pos, &h, sizeof(h));
	fake_write(f, pos + 8, words, 8 * n);
	__atomic_store_n(&f->pg->data_head, backward ? pos : pos + h.size, __ATOMIC_RELEASE);
}

static void put_loss_and_aux_records(struct fake *f)
{
	fake_put(f, false, PERF_RECORD_LOST, (uint64_t[]){ 42, 7 }, 2);	/* id, lost */
	fake_put(f, false, PERF_RECORD_LOST_SAMPLES, (uint64_t[]){ 5 }, 1);
	fake_put(f, false, PERF_RECORD_AUX,
		 (uint64_t[]){ 0, 4096, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL }, 3);
	fake_put(f, false, PERF_RECORD_AUX, (uint64_t[]){ 4096, 64, PERF_AUX_FLAG_COLLISION }, 3);
	fake_put(f, false, PERF_RECORD_AUX, (uint64_t[]){ 4160, 64, PERF_AUX_FLAG_OVERWRITE }, 3);
}

static void check_loss_and_aux_stats(const struct ring_stats *st, uint64_t times)
{
	ck_assert_uint_eq(st->records, 5 * times);
	ck_assert_uint_eq(st->lost, 12 * times);
	ck_assert_uint_eq(st->lost_reports, 2 * times);
	ck_assert_uint_eq(st->aux_truncated, 1 * times);
	ck_assert_uint_eq(st->aux_partial, 1 * times);
	ck_assert_uint_eq(st->aux_collision, 1 * times);
}

START_TEST(test_loss_and_aux_flags_both_paths)
{
	static char out[8192];
	struct ring_sink_memory mem;
	struct fake f;
	int i;

	fake_open(&f, 1, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	put_loss_and_aux_records(&f);
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 136);
	check_loss_and_aux_stats(perf_mmap__stats(f.map), 1);
	ck_assert_uint_eq(f.pg->data_tail, 136);
	/* 136 bytes a round in 4 KiB: some records wrap the ring end on the read path. */
	for (i = 0; i < 40; i++) {
		put_loss_and_aux_records(&f);
		ck_assert_int_eq(read_samples(f.map), 0);
	}
	check_loss_and_aux_stats(perf_mmap__stats(f.map), 41);
	ck_assert_uint_eq(f.pg->data_tail, 41 * 136);
	fake_close(&f);
}
END_TEST

/*
 * consume per record publishes in batches of a sixteenth of the ring (256 bytes of 4 KiB:
 * 16 records of 16 bytes), read_done publishes the rest, and never more than was consumed.
 */
START_TEST(test_consume_publishes_in_batches)
{
	struct fake f;
	int i;

	fake_open(&f, 1, false);
	for (i = 0; i < 40; i++)
		fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ i }, 1);
	ck_assert_int_eq(perf_mmap__read_init(f.map), 0);
	for (i = 0; i < 39; i++) {
		ck_assert_ptr_nonnull(perf_mmap__read_event(f.map));
		perf_mmap__consume(f.map);
		ck_assert_uint_eq(f.pg->data_tail, (i + 1) / 16 * 256);
	}
	/* The last record read, not consumed: read_done leaves it to the kernel's reckoning. */
	ck_assert_ptr_nonnull(perf_mmap__read_event(f.map));
	ck_assert_ptr_null(perf_mmap__read_event(f.map));
	perf_mmap__read_done(f.map);
	ck_assert_uint_eq(f.pg->data_tail, 39 * 16);
	/* A pass without read_done: the next read_init publishes what it gave back. */
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 40 }, 1);
	ck_assert_int_eq(perf_mmap__read_init(f.map), 0);
	ck_assert_ptr_nonnull(perf_mmap__read_event(f.map));
	perf_mmap__consume(f.map);
	ck_assert_uint_eq(f.pg->data_tail, 39 * 16);
	ck_assert_int_eq(perf_mmap__read_init(f.map), -EAGAIN);
	ck_assert_uint_eq(f.pg->data_tail, 41 * 16);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->records, 41);
	fake_close(&f);
}
END_TEST

/* Records the producer adds during a pass belong to it: the head is read again at its end. */
START_TEST(test_pass_takes_records_added_meanwhile)
{
	union perf_event *ev;
	struct fake f;

	fake_open(&f, 1, false);
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 1 }, 1);
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 2 }, 1);
	ck_assert_int_eq(perf_mmap__read_init(f.map), 0);
	ev = perf_mmap__read_event(f.map);
	ck_assert_uint_eq(ev->sample.array[0], 1);
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 3 }, 1);
	ck_assert_uint_eq(perf_mmap__read_event(f.map)->sample.array[0], 2);
	ck_assert_uint_eq(perf_mmap__read_event(f.map)->sample.array[0], 3);
	ck_assert_ptr_null(perf_mmap__read_event(f.map));
	ck_assert_int_eq(errno, 0);
	perf_mmap__consume(f.map);
	perf_mmap__read_done(f.map);
	ck_assert_uint_eq(f.pg->data_tail, 3 * 16);
	fake_close(&f);
}
END_TEST

/* A sink that copies what it is given while the "kernel" writes a record in each of 4 pushes. */
struct racing_sink {
	struct ring_sink_callback cb;
	struct fake *f;
	char out[256];
	size_t used;
	int pushes;
};

static ssize_t race(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct racing_sink *r = ctx;
	size_t total = 0;

	for (int i = 0; i < iovcnt; i++) {
		ck_assert_uint_le(r->used + iov[i].iov_len, sizeof(r->out));
		memcpy(r->out + r->used, iov[i].iov_base, iov[i].iov_len);
		r->used += iov[i].iov_len;
		total += iov[i].iov_len;
	}
	if (r->pushes < 4)
		fake_put(r->f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 100 + r->pushes }, 1);
	r->pushes++;
	return total;
}

/*
 * A push takes what the head said when it began, and leaves what the kernel writes
 * meanwhile to the next one: going back for it would chase a live producer a few records
 * per write. The final drain of a ring set (perf_mmap__drain with flush) takes that too.
 */
START_TEST(test_push_leaves_records_written_meanwhile)
{
	struct racing_sink r = { .used = 0 };
	struct fake f;

	fake_open(&f, 1, false);
	r.f = &f;
	ring_sink_callback__init(&r.cb, race, &r);
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 1 }, 1);
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 2 }, 1);
	ck_assert_int_eq(perf_mmap__push(f.map, &r.cb.sink), 2 * 16);
	ck_assert_int_eq(r.pushes, 1);
	ck_assert_uint_eq(f.pg->data_tail, 2 * 16);
	ck_assert_uint_eq(f.pg->data_head, 3 * 16);
	/* the one written during the first push, and no more */
	ck_assert_int_eq(perf_mmap__push(f.map, &r.cb.sink), 16);
	ck_assert_uint_eq(((uint64_t *)r.out)[2 * 2 + 1], 100);
	/* flush: what is written while it runs is taken as well, up to an empty ring */
	ck_assert_int_eq(perf_mmap__drain(f.map, &r.cb.sink, true), 3 * 16);
	ck_assert_int_eq(r.pushes, 5);
	ck_assert_uint_eq(f.pg->data_tail, 6 * 16);
	ck_assert_uint_eq(((uint64_t *)r.out)[5 * 2 + 1], 103);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->records, 6);
	fake_close(&f);
}
END_TEST

/* A memfd is no perf event: PAUSE_OUTPUT fails, and says what it needs. */
START_TEST(test_pause_error_logged)
{
	struct fake f;

	fake_open(&f, 1, true);
	log_capture_start();
	ck_assert_int_lt(perf_mmap__pause(f.map, true), 0);
	ck_assert_msg(log_captured("PERF_EVENT_IOC_PAUSE_OUTPUT failed"), "log: %s", log_text);
	fake_close(&f);
}
END_TEST

START_TEST(test_consumer_overrun_skipped)
{
	struct ring_sink_memory mem;
	char out[64];
	struct fake f;

	fake_open(&f, 1, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	f.pg->data_head = 3 * PAGE;
	ck_assert_int_eq(perf_mmap__read_init(f.map), -EAGAIN);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->overruns, 3 * PAGE);
	ck_assert_uint_eq(f.pg->data_tail, 3 * PAGE);
	f.pg->data_head = 6 * PAGE + 8;
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 0);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->overruns, 6 * PAGE + 8);
	ck_assert_uint_eq(f.pg->data_tail, 6 * PAGE + 8);
	ck_assert_uint_eq(mem.used, 0);
	/* Back in step: the next record is read normally. */
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 1 }, 1);
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 16);
	fake_close(&f);
}
END_TEST

/* A ring holding exactly its size of unread records is full, not overrun: all are read. */
START_TEST(test_full_ring_is_read_whole)
{
	static char out[1 << 16];	/* a page or more */
	struct ring_sink_memory mem;
	struct fake f;

	fake_open(&f, 1, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	for (uint64_t i = 0; i < PAGE / 16; i++)
		fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ i }, 1);
	ck_assert_uint_eq(f.pg->data_head, PAGE);
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), PAGE);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->overruns, 0);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->records, PAGE / 16);
	ck_assert_uint_eq(f.pg->data_tail, PAGE);
	fake_close(&f);
}
END_TEST

START_TEST(test_corrupt_record_refused)
{
	struct perf_mmap_record rec;
	struct ring_sink_memory mem;
	char out[64];
	struct fake f;

	fake_open(&f, 1, false);
	ring_sink_memory__init(&mem, out, sizeof(out));
	fake_put(&f, false, PERF_RECORD_SAMPLE, (uint64_t[]){ 1 }, 1);
	/* A header claiming 4 bytes cannot be a record. */
	((struct perf_event_header *)f.data)->size = 4;
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), -EINVAL);
	ck_assert_uint_eq(f.pg->data_tail, 0);
	ck_assert_int_eq(perf_mmap__read_init(f.map), 0);
	ck_assert_int_eq(perf_mmap__read_record(f.map, &rec), -EINVAL);
	ck_assert_ptr_null(perf_mmap__read_event(f.map));
	ck_assert_int_eq(errno, EINVAL);
	/* Nor one that is not a multiple of 8 bytes, nor one longer than the head published. */
	((struct perf_event_header *)f.data)->size = 12;
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), -EINVAL);
	((struct perf_event_header *)f.data)->size = 24;
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), -EINVAL);
	fake_close(&f);
}
END_TEST

/*
 * A backward ring written all round: records of 40 bytes from head 0 downwards, 300 of
 * them in 4 KiB. From the head, the 102 newest fit whole (4080 bytes); the 103rd would
 * cross the ring size and is stale.
 */
START_TEST(test_backward_walk_finds_valid_range)
{
	static char out[8192];
	struct ring_sink_memory mem;
	union perf_event *ev;
	struct fake f;
	uint64_t i, expect = 299;

	fake_open(&f, 1, true);
	for (i = 0; i < 300; i++)
		fake_put(&f, true, PERF_RECORD_SAMPLE, (uint64_t[]){ i, 0, 0, 0 }, 4);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 102 * 40);
	ck_assert_int_eq(count_type(out, mem.used, PERF_RECORD_SAMPLE), 102);
	ck_assert_uint_eq(f.pg->data_tail, 0);	/* a backward ring has no tail to write */
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 0);
	/* Newest first; the read path walks the same range. */
	ck_assert_uint_eq(((uint64_t *)out)[1], 299);
	fake_put(&f, true, PERF_RECORD_SAMPLE, (uint64_t[]){ 300, 0, 0, 0 }, 4);
	fake_put(&f, true, PERF_RECORD_SAMPLE, (uint64_t[]){ 301, 0, 0, 0 }, 4);
	ck_assert_int_eq(perf_mmap__read_init(f.map), 0);
	expect = 301;
	while ((ev = perf_mmap__read_event(f.map)) != NULL)
		ck_assert_uint_eq(ev->sample.array[0], expect--);
	ck_assert_uint_eq(expect, 299);
	perf_mmap__read_done(f.map);
	ck_assert_uint_eq(perf_mmap__stats(f.map)->records, 104);
	fake_close(&f);
}
END_TEST

/* Never-written space reads as zero headers: the walk stops there. */
START_TEST(test_backward_walk_stops_at_unwritten)
{
	static char out[8192];
	struct ring_sink_memory mem;
	struct fake f;

	fake_open(&f, 1, true);
	/* The head went down by more than the ring without the records being written. */
	f.pg->data_head = -(uint64_t)(2 * PAGE);
	fake_put(&f, true, PERF_RECORD_SAMPLE, (uint64_t[]){ 7 }, 1);
	fake_put(&f, true, PERF_RECORD_SAMPLE, (uint64_t[]){ 8 }, 1);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 32);
	fake_close(&f);
}
END_TEST

START_TEST(test_new_refuses_bad_pages)
{
	struct tp tp;

	TP_OPEN(&tp, PERF_SAMPLE_TID, 1, false);
	errno = 0;
	ck_assert_ptr_null(perf_mmap__new(evsel__fd(tp.evsel, 0, 0), (struct perf_cpu){ -1 }, 3,
					  false));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(perf_mmap__data_size(tp.map), PAGE);
	ck_assert_uint_eq(perf_mmap__mmap_len(tp.map), 2 * PAGE);
	ck_assert_int_eq(perf_mmap__fd(tp.map), evsel__fd(tp.evsel, 0, 0));
	ck_assert_int_eq(perf_mmap__cpu(tp.map).cpu, -1);
	ck_assert(!perf_mmap__overwrite(tp.map));
	tp_close(&tp);
	errno = 0;
	log_capture_start();
	ck_assert_ptr_null(perf_mmap__new(-1, (struct perf_cpu){ -1 }, 1, false));
	ck_assert_int_eq(errno, EBADF);
	ck_assert_msg(log_captured("not an open perf event"), "log: %s", log_text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perf-mmap");
	TCase *tc = tcase_create("data ring");

	tcase_add_test(tc, test_read_event_exact);
	tcase_add_test(tc, test_push_exact);
	tcase_add_test(tc, test_failing_sink_keeps_tail);
	tcase_add_test(tc, test_lost_counted);
	tcase_add_test(tc, test_lost_counted_by_read_event);
	tcase_add_test(tc, test_wrapped_record_pieces_and_copy);
	tcase_add_test(tc, test_backward_exact_after_pause);
	tcase_add_test(tc, test_backward_overwritten_all_round);
	tcase_add_test(tc, test_flush_threshold);
	tcase_add_test(tc, test_new_refuses_bad_pages);
	suite_add_tcase(s, tc);
	tc = tcase_create("fake producer");
	tcase_add_test(tc, test_loss_and_aux_flags_both_paths);
	tcase_add_test(tc, test_consume_publishes_in_batches);
	tcase_add_test(tc, test_pass_takes_records_added_meanwhile);
	tcase_add_test(tc, test_push_leaves_records_written_meanwhile);
	tcase_add_test(tc, test_pause_error_logged);
	tcase_add_test(tc, test_consumer_overrun_skipped);
	tcase_add_test(tc, test_full_ring_is_read_whole);
	tcase_add_test(tc, test_corrupt_record_refused);
	tcase_add_test(tc, test_backward_walk_finds_valid_range);
	tcase_add_test(tc, test_backward_walk_stops_at_unwritten);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
