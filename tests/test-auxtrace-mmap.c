// SPDX-License-Identifier: LGPL-2.1
/*
 * auxtrace_mmap against the test producer (the kernel's side of the AUX protocol in shared
 * memory): framing, wrap, full buffers, padding, the offset formula across 2^64, BTS
 * alignment, snapshots with the backends' wrap rules, losses, failing sinks, and stress runs
 * that check every byte arrives once and in order.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include <auxtrace/mmap.h>
#include <internal/auxtrace-mmap.h>
#include <internal/auxtrace-backend.h>
#include "lib/aux-payload.h"
#include "lib/aux-producer.h"
#include "lib/fake-sysfs.h"
#include "lib/log-capture.h"
#include "lib/testlib.h"

#define PAGE ((size_t)sysconf(_SC_PAGESIZE))
#define HDR sizeof(struct perf_record_auxtrace)
#define DATA_PAGES 4

/* Produce n stream bytes through aux_producer__write (from stream position p->stream). */
static size_t produce(struct aux_producer *p, uint64_t from, size_t n)
{
	unsigned char *buf = malloc(n);
	size_t done;

	ck_assert_ptr_nonnull(buf);
	aux_stream__fill(NULL, from, buf, n);
	done = aux_producer__write(p, buf, n);
	free(buf);
	return done;
}

/* A session of one AUX area on the producer: its data ring mapped by the data-ring code. */
struct fixture {
	struct aux_producer *p;
	struct perf_mmap *map;
	struct auxtrace_mmap *mm;
	struct auxtrace_mmap_params mp;
};

static int fixture_map(struct fixture *f, struct aux_producer_config cfg, size_t aux_pages,
		       bool overwrite)
{
	cfg.data_pages = DATA_PAGES;
	f->p = aux_producer__new(&cfg);
	ck_assert_ptr_nonnull(f->p);
	f->map = perf_mmap__new(aux_producer__fd(f->p), (struct perf_cpu){ 1 }, DATA_PAGES, false);
	ck_assert_ptr_nonnull(f->map);
	f->mm = auxtrace_mmap__new();
	ck_assert_ptr_nonnull(f->mm);
	aux_producer__route_mmap(f->p, f->mm);
	auxtrace_mmap_params__init(&f->mp, perf_mmap__mmap_len(f->map), aux_pages, overwrite);
	/* What __set_idx would give idx 3 of a per-CPU session on CPU 1 with one thread. */
	f->mp.idx = 3;
	f->mp.tid = 4242;
	f->mp.cpu.cpu = 1;
	f->mp.mmap_needed = true;
	return auxtrace_mmap__mmap(f->mm, &f->mp, perf_mmap__userpg(f->map), perf_mmap__fd(f->map));
}

static void fixture_setup(struct fixture *f, struct aux_producer_config cfg, size_t aux_pages,
			  bool overwrite)
{
	ck_assert_int_eq(fixture_map(f, cfg, aux_pages, overwrite), 0);
	ck_assert_ptr_nonnull(auxtrace_mmap__base(f->mm));
}

static void fixture_teardown(struct fixture *f)
{
	auxtrace_mmap__delete(f->mm);
	ck_assert_int_eq(aux_producer__nr_maps(f->p), 0);
	perf_mmap__delete(f->map);
	aux_producer__delete(f->p);
}

static uint64_t aux_tail(const struct fixture *f)
{
	return auxtrace_mmap__userpg(f->mm)->aux_tail;
}

/* A sink that keeps the bytes, remembers the iovecs of the last push, and fails on demand. */
struct capture {
	struct ring_sink_callback cb;
	struct ring_sink_memory mem;
	unsigned char buf[1 << 20];
	struct iovec iov[RING_MAX_IOV];
	int iovcnt;
	int fail;
};

static ssize_t capture_push(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct capture *c = ctx;

	if (c->fail)
		return -c->fail;
	memcpy(c->iov, iov, iovcnt * sizeof(*iov));
	c->iovcnt = iovcnt;
	return c->mem.sink.push(&c->mem.sink, iov, iovcnt);
}

static struct capture *capture_new(void)
{
	struct capture *c = calloc(1, sizeof(*c));

	ck_assert_ptr_nonnull(c);
	ring_sink_memory__init(&c->mem, c->buf, sizeof(c->buf));
	ring_sink_callback__init(&c->cb, capture_push, c);
	return c;
}

/* The frames of a captured stream. */
struct frame {
	struct perf_record_auxtrace ev;
	const unsigned char *payload;
};

struct frames {
	struct frame *out;
	int max, n;
};

static int frames__add(void *ctx, const struct perf_record_auxtrace *ev,
		       const unsigned char *payload)
{
	struct frames *fs = ctx;

	ck_assert_int_lt(fs->n, fs->max);
	fs->out[fs->n].ev = *ev;
	fs->out[fs->n++].payload = payload;
	return 0;
}

static int parse_frames(const unsigned char *buf, size_t len, struct frame *out, int max)
{
	struct frames fs = { out, max, 0 };

	ck_assert_int_eq(aux_frames__walk(buf, len, frames__add, &fs), fs.n);
	return fs.n;
}

/* The one frame of c since mark: payload must be stream [from, from + n), then padding. */
static struct frame one_frame(struct capture *c, size_t mark, uint64_t from, size_t n)
{
	struct frame fr[2];

	ck_assert_int_eq(parse_frames(c->buf + mark, c->mem.used - mark, fr, 2), 1);
	ck_assert_uint_eq(fr[0].ev.size, (n + 7) & ~(size_t)7);
	/* One check per frame, not per byte: whole-buffer snapshots are 128 KiB. */
	for (size_t i = 0; i < n; i++) {
		if (fr[0].payload[i] != aux_stream__byte(from + i))
			ck_abort_msg("byte %zu of the frame is not stream byte %llu", i,
				     (unsigned long long)(from + i));
	}
	for (size_t i = n; i < fr[0].ev.size; i++) {
		if (fr[0].payload[i])
			ck_abort_msg("padding byte %zu is not zero", i);
	}
	return fr[0];
}

/* A backend double: reference counter, alignment, read_finish bookkeeping. */
struct test_itr {
	struct auxtrace_record itr;
	struct fixture *f;
	uint64_t ref;
	int finishes;
	uint64_t tail_at_finish;
	int finish_err;
};

static uint64_t test_itr__reference(struct auxtrace_record *itr)
{
	return 0x1000 + ++container_of(itr, struct test_itr, itr)->ref;
}

static int test_itr__read_finish(struct auxtrace_record *itr, int idx)
{
	struct test_itr *t = container_of(itr, struct test_itr, itr);

	ck_assert_int_eq(idx, 3);
	t->finishes++;
	t->tail_at_finish = aux_tail(t->f);
	aux_producer__enable(t->f->p);	/* PERF_EVENT_IOC_ENABLE, as the backend does */
	return t->finish_err;
}

static void test_itr__init(struct test_itr *t, struct fixture *f, unsigned int alignment)
{
	*t = (struct test_itr){
		.itr = {
			.reference = test_itr__reference,
			.read_finish = test_itr__read_finish,
			.alignment = alignment,
		},
		.f = f,
	};
}

START_TEST(test_no_data)
{
	struct fixture f;
	struct capture *c = capture_new();

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), 0);
	ck_assert_uint_eq(c->mem.used, 0);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->empty, 1);
	ck_assert_uint_eq(aux_tail(&f), 0);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_not_needed_maps_nothing)
{
	struct fixture f;
	struct capture *c = capture_new();
	struct aux_producer_config cfg = { .data_pages = DATA_PAGES };

	f.p = aux_producer__new(&cfg);
	f.map = perf_mmap__new(aux_producer__fd(f.p), (struct perf_cpu){ 1 }, DATA_PAGES, false);
	f.mm = auxtrace_mmap__new();
	aux_producer__route_mmap(f.p, f.mm);
	/* A side-band owner, then a session without AUX pages: nothing is mapped. */
	auxtrace_mmap_params__init(&f.mp, perf_mmap__mmap_len(f.map), 1, false);
	f.mp.mmap_needed = false;
	ck_assert_int_eq(auxtrace_mmap__mmap(f.mm, &f.mp, perf_mmap__userpg(f.map),
					     perf_mmap__fd(f.map)), 0);
	ck_assert_ptr_null(auxtrace_mmap__base(f.mm));
	auxtrace_mmap_params__init(&f.mp, perf_mmap__mmap_len(f.map), 0, false);
	f.mp.mmap_needed = true;
	ck_assert_int_eq(auxtrace_mmap__mmap(f.mm, &f.mp, perf_mmap__userpg(f.map),
					     perf_mmap__fd(f.map)), 0);
	ck_assert_ptr_null(auxtrace_mmap__base(f.mm));
	ck_assert_int_eq(aux_producer__nr_maps(f.p), 0);
	ck_assert_uint_eq(perf_mmap__userpg(f.map)->aux_size, 0);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), 0);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_geometry_in_control_page)
{
	struct fixture f;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 2, false);
	ck_assert_uint_eq(perf_mmap__userpg(f.map)->aux_offset, (1 + DATA_PAGES) * PAGE);
	ck_assert_uint_eq(perf_mmap__userpg(f.map)->aux_size, 2 * PAGE);
	ck_assert_int_eq(aux_producer__nr_maps(f.p), 1);
	ck_assert(!aux_producer__overwrite(f.p));	/* PROT_WRITE: full-trace mode */
	ck_assert_int_eq(auxtrace_mmap__idx(f.mm), 3);
	ck_assert_int_eq(auxtrace_mmap__tid(f.mm), 4242);
	ck_assert_int_eq(auxtrace_mmap__cpu(f.mm).cpu, 1);
	ck_assert_uint_eq(auxtrace_mmap__mask(f.mm), 2 * PAGE - 1);
	ck_assert_int_eq(auxtrace_mmap__fd(f.mm), aux_producer__fd(f.p));
	/* Mapped already. */
	ck_assert_int_eq(auxtrace_mmap__mmap(f.mm, &f.mp, perf_mmap__userpg(f.map),
					     perf_mmap__fd(f.map)), -EBUSY);
	auxtrace_mmap__munmap(f.mm);
	ck_assert_ptr_null(auxtrace_mmap__base(f.mm));
	ck_assert_int_eq(aux_producer__nr_maps(f.p), 0);
	/* A mask that is not len - 1 would index past the area: refused before mapping. */
	f.mp.mask = 4 * PAGE - 1;
	ck_assert_int_eq(auxtrace_mmap__mmap(f.mm, &f.mp, perf_mmap__userpg(f.map),
					     perf_mmap__fd(f.map)), -EINVAL);
	ck_assert_int_eq(aux_producer__nr_maps(f.p), 0);
	f.mp.mask = 0;		/* no mask: positions reduced by modulo, also fine */
	ck_assert_int_eq(auxtrace_mmap__mmap(f.mm, &f.mp, perf_mmap__userpg(f.map),
					     perf_mmap__fd(f.map)), 0);
	auxtrace_mmap__munmap(f.mm);
	f.mp.mask = 2 * PAGE - 1;
	/* The kernel refuses an AUX area inside the data ring. */
	f.mp.offset = PAGE;
	ck_assert_int_eq(auxtrace_mmap__mmap(f.mm, &f.mp, perf_mmap__userpg(f.map),
					     perf_mmap__fd(f.map)), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(auxtrace_mmap__base(f.mm));
	ck_assert_uint_eq(perf_mmap__userpg(f.map)->aux_offset, 0);
	ck_assert_uint_eq(perf_mmap__userpg(f.map)->aux_size, 0);
	fixture_teardown(&f);
}
END_TEST

START_TEST(test_contiguous)
{
	struct fixture f;
	struct test_itr t;
	struct capture *c = capture_new();
	struct frame fr;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	test_itr__init(&t, &f, 0);
	ck_assert_uint_eq(produce(f.p, 0, 100), 100);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), HDR + 104);
	fr = one_frame(c, 0, 0, 100);
	ck_assert_uint_eq(fr.ev.offset, 0);
	ck_assert_uint_eq(fr.ev.reference, 0x1001);
	ck_assert_uint_eq(fr.ev.idx, 3);
	ck_assert_uint_eq(fr.ev.tid, 4242);
	ck_assert_uint_eq(fr.ev.cpu, 1);
	/* Header, the bytes in place (no copy), padding. */
	ck_assert_int_eq(c->iovcnt, 3);
	ck_assert_ptr_eq(c->iov[1].iov_base, auxtrace_mmap__base(f.mm));
	ck_assert_uint_eq(c->iov[1].iov_len, 100);
	ck_assert_uint_eq(c->iov[2].iov_len, 4);
	ck_assert_uint_eq(aux_tail(&f), 100);
	ck_assert_uint_eq(auxtrace_mmap__prev(f.mm), 100);
	ck_assert_int_eq(t.finishes, 1);
	ck_assert_uint_eq(t.tail_at_finish, 100);	/* read_finish after the tail */
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->bytes, HDR + 104);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->chunks, 1);
	/* Nothing new: no frame, no read_finish. */
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), 0);
	ck_assert_int_eq(t.finishes, 1);
	fixture_teardown(&f);
	free(c);
}
END_TEST

/* Map f's AUX area anew with f->mp: its records must carry tid want and the params' CPU. */
static void remap_check_record_tid(struct fixture *f, pid_t want)
{
	struct capture *c = capture_new();
	struct frame fr;

	ck_assert_int_eq(auxtrace_mmap__mmap(f->mm, &f->mp, perf_mmap__userpg(f->map),
					     perf_mmap__fd(f->map)), 0);
	ck_assert_int_eq(auxtrace_mmap__tid(f->mm), want);
	ck_assert_uint_eq(produce(f->p, 0, 8), 8);
	ck_assert_int_eq(auxtrace_mmap__read(f->mm, NULL, &c->cb.sink), HDR + 8);
	fr = one_frame(c, 0, 0, 8);
	ck_assert_int_eq((pid_t)fr.ev.tid, want);
	ck_assert_int_eq((int)fr.ev.cpu, f->mp.cpu.cpu);
	free(c);
}

/* The tid of the params as records carry it: never 0 for a CPU's ring. */
START_TEST(test_record_tid)
{
	static const struct { int cpu; pid_t tid, want; } rows[] = {
		{ 1, 0, -1 },		/* a CPU's ring shared by several threads: unknown */
		{ 1, -1, -1 },		/* every thread of the CPU */
		{ 1, 4242, 4242 },	/* a CPU's ring with one thread */
		{ -1, 77, 77 },		/* a thread's ring */
	};
	struct fixture f;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	auxtrace_mmap__munmap(f.mm);
	f.mp.cpu.cpu = rows[_i].cpu;
	f.mp.tid = rows[_i].tid;
	remap_check_record_tid(&f, rows[_i].want);
	fixture_teardown(&f);
}
END_TEST

/*
 * Mapped straight from __set_idx's params, each kind of session records the tid perf 6.1
 * writes, as the evlist's hooks do with the same params (test-auxtrace-evlist).
 */
START_TEST(test_record_tid_from_set_idx)
{
	static const pid_t tids[] = { 1001, 1002 };
	static const struct {
		const char *cpus;	/* "": per-thread */
		int nr_threads;		/* 0: the dummy thread */
		int idx;
		pid_t want;
	} rows[] = {
		{ "0", 0, 0, -1 },	/* every thread of the CPU */
		{ "0", 1, 0, 1001 },
		{ "0", 2, 0, 1001 },	/* shared by two: the map's first thread, not 0 */
		{ "", 2, 1, 1002 },	/* a thread's ring */
	};
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr) };
	struct perf_cpu_map *cpus = perf_cpu_map__new(rows[_i].cpus);
	struct perf_thread_map *threads = rows[_i].nr_threads ?
		perf_thread_map__new_array(rows[_i].nr_threads, tids) :
		perf_thread_map__new_dummy();
	struct evlist *evlist = evlist__new();
	struct evsel *evsel = evsel__new(&attr);
	struct fixture f;

	evsel__set_needs_auxtrace_mmap(evsel, true);
	evlist__add(evlist, evsel);
	ck_assert_int_eq(evlist__set_maps(evlist, cpus, threads), 0);
	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	auxtrace_mmap__munmap(f.mm);
	auxtrace_mmap_params__init(&f.mp, perf_mmap__mmap_len(f.map), 1, false);
	auxtrace_mmap_params__set_idx(&f.mp, evlist, evsel, rows[_i].idx);
	ck_assert(f.mp.mmap_needed);
	remap_check_record_tid(&f, rows[_i].want);
	fixture_teardown(&f);
	evlist__delete(evlist);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
}
END_TEST

START_TEST(test_wrapped)
{
	struct fixture f;
	struct capture *c = capture_new();
	struct frame fr;
	size_t mark;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	ck_assert_uint_eq(produce(f.p, 0, 3000), 3000);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + 3000);
	mark = c->mem.used;
	ck_assert_uint_eq(produce(f.p, 3000, 2000), 2000);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + 2000);
	fr = one_frame(c, mark, 3000, 2000);
	ck_assert_uint_eq(fr.ev.offset, 3000);
	ck_assert_uint_eq(fr.ev.reference, 0);	/* no backend */
	/* The two pieces of the mapping, no padding (2000 is a multiple of 8). */
	ck_assert_int_eq(c->iovcnt, 3);
	ck_assert_ptr_eq(c->iov[1].iov_base, (char *)auxtrace_mmap__base(f.mm) + 3000);
	ck_assert_uint_eq(c->iov[1].iov_len, PAGE - 3000);
	ck_assert_ptr_eq(c->iov[2].iov_base, auxtrace_mmap__base(f.mm));
	ck_assert_uint_eq(c->iov[2].iov_len, 5000 - PAGE);
	ck_assert_uint_eq(aux_tail(&f), 5000);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_exactly_full)
{
	struct fixture f;
	struct capture *c = capture_new();
	struct frame fr;
	size_t mark;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	ck_assert_uint_eq(produce(f.p, 0, 1000), 1000);
	ck_assert_int_gt(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), 0);
	mark = c->mem.used;
	/* A whole buffer: head and tail at the same offset, and no room for one more byte. */
	ck_assert_uint_eq(produce(f.p, 1000, PAGE + 1), PAGE);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + PAGE);
	fr = one_frame(c, mark, 1000, PAGE);
	ck_assert_uint_eq(fr.ev.offset, 1000);
	ck_assert_int_eq(c->iovcnt, 3);
	ck_assert_ptr_eq(c->iov[1].iov_base, (char *)auxtrace_mmap__base(f.mm) + 1000);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns, 0);
	ck_assert_uint_eq(aux_tail(&f), 1000 + PAGE);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_padding_and_offsets)
{
	struct fixture f;
	struct capture *c = capture_new();
	uint64_t pos = 0;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	for (size_t n = 1; n <= 17; n++) {
		size_t mark = c->mem.used, pad = (8 - n % 8) % 8;
		struct frame fr;

		ck_assert_uint_eq(produce(f.p, pos, n), n);
		ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + n + pad);
		fr = one_frame(c, mark, pos, n);
		ck_assert_uint_eq(fr.ev.offset, pos);	/* contiguous: where the last one ended */
		ck_assert_int_eq(c->iovcnt, pad ? 3 : 2);
		pos += n;
	}
	fixture_teardown(&f);
	free(c);
}
END_TEST

/*
 * Across 2^64: a power-of-two buffer (1 page) and one that is not (3 pages), whose head
 * wraps at the last multiple of its size, skipping 2^64 % len.
 */
START_TEST(test_offset_formula_across_u64_wrap)
{
	static const struct { size_t pages; bool pow2; } rows[] = { { 1, true }, { 3, false } };
	struct aux_producer_config cfg = { .allow_non_pow2 = !rows[_i].pow2 };
	size_t len = rows[_i].pages * PAGE;
	uint64_t rem = (0 - (uint64_t)len) % len, wrap = 0 - rem, start = wrap - 100;
	struct capture *c = capture_new();
	struct fixture f;
	struct frame fr;
	size_t mark;

	fixture_setup(&f, cfg, rows[_i].pages, false);
	ck_assert_uint_eq(auxtrace_mmap__mask(f.mm), rows[_i].pow2 ? len - 1 : 0);
	ck_assert_uint_eq(rem, rows[_i].pow2 ? 0 : PAGE);	/* 2^64 % 3 pages = 1 page */
	/* Put the head 100 bytes before the wrap: a read catches up (that is an overrun). */
	aux_producer__set_head(f.p, start);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + len);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns, start - len);
	ck_assert_uint_eq(auxtrace_mmap__prev(f.mm), start);
	mark = c->mem.used;

	ck_assert_uint_eq(produce(f.p, 0, 300), 300);
	ck_assert_uint_eq(aux_producer__head(f.p), 200);	/* wrapped */
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + 304);
	fr = one_frame(c, mark, 0, 300);
	ck_assert_uint_eq(fr.ev.offset, start);
	ck_assert_int_eq(c->iovcnt, 4);
	ck_assert_ptr_eq(c->iov[1].iov_base, (char *)auxtrace_mmap__base(f.mm) + len - 100);
	ck_assert_uint_eq(c->iov[1].iov_len, 100);
	ck_assert_ptr_eq(c->iov[2].iov_base, auxtrace_mmap__base(f.mm));
	ck_assert_uint_eq(c->iov[2].iov_len, 200);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns, start - len);	/* no more */
	ck_assert_uint_eq(aux_tail(&f), 200);
	fixture_teardown(&f);
	free(c);
}
END_TEST

/* BTS records never straddle the end of the buffer; the gap there is not data. */
START_TEST(test_bts_alignment_trim)
{
	bool aligned = _i == 0;
	struct aux_producer_config cfg = { .record_size = sizeof(struct bts_record) };
	size_t gap = PAGE % sizeof(struct bts_record), per_lap = PAGE / sizeof(struct bts_record);
	struct bts_record recs[200];
	struct capture *c = capture_new();
	struct frame fr[2];
	struct test_itr t;
	struct fixture f;
	size_t mark, payload;

	for (int i = 0; i < 200; i++)
		bts_record__make(&recs[i], i);
	fixture_setup(&f, cfg, 1, false);
	test_itr__init(&t, &f, aligned ? sizeof(struct bts_record) : 0);
	ck_assert_uint_eq(aux_producer__write(f.p, recs, 160 * sizeof(recs[0])),
			  160 * sizeof(recs[0]));
	ck_assert_int_gt(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), 0);
	mark = c->mem.used;
	/* 20 more: the lap's last ones, the gap, then the start of the buffer. */
	ck_assert_uint_eq(aux_producer__write(f.p, recs + 160, 20 * sizeof(recs[0])),
			  20 * sizeof(recs[0]));
	ck_assert_uint_eq(aux_producer__head(f.p), PAGE + (180 - per_lap) * sizeof(recs[0]));
	ck_assert_int_gt(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), 0);
	ck_assert_int_eq(parse_frames(c->buf + mark, c->mem.used - mark, fr, 2), 1);
	ck_assert_uint_eq(fr[0].ev.offset, 160 * sizeof(recs[0]));	/* before the trim */
	payload = 20 * sizeof(recs[0]) + (aligned ? 0 : gap);
	ck_assert_uint_eq(fr[0].ev.size, (payload + 7) & ~(size_t)7);
	if (aligned) {
		for (int i = 0; i < 20; i++)
			ck_assert_int_eq(bts_record__seq((const struct bts_record *)fr[0].payload
							 + i), 160 + i);
	} else {
		/* Without the trim the gap's bytes come out in the middle of the records. */
		size_t at = (per_lap - 160) * sizeof(recs[0]);

		ck_assert_int_eq(bts_record__seq((const void *)(fr[0].payload + at)), -1);
	}
	ck_assert_uint_eq(aux_tail(&f), aux_producer__head(f.p));
	fixture_teardown(&f);
	free(c);
}
END_TEST

/*
 * Snapshots of an overwrite buffer of 4 pages, through the backends' wrap rules: the tail
 * rule (Intel PT/BTS, aux_head an offset in the buffer) and the head rule (Arm SPE,
 * aux_head free-running). Each step writes, then snapshots; the frame must hold the newest
 * stream bytes [to - want, to).
 */
START_TEST(test_snapshot_rules)
{
	bool tail_rule = _i == 0;
	size_t len = 4 * PAGE;
	static const struct {
		size_t write;
		size_t snapshot_size;
		size_t want;		/* SIZE_MAX: the whole buffer */
	} steps[] = {
		{ 0, 0, 0 },		/* nothing yet: no frame */
		{ 1000, 0, 1000 },	/* fresh buffer: only what was written */
		{ 500, 0, 500 },	/* only what is new since the last snapshot */
		{ 20000, 0, SIZE_MAX },	/* wrapped: the whole buffer, oldest first */
		{ 100, 1024, 1024 },	/* clamped to the snapshot size: the newest bytes */
		{ 0, 0, SIZE_MAX },	/* wrap is sticky: still the whole buffer */
	};
	struct aux_producer_config cfg = { .head_as_offset = tail_rule };
	struct auxtrace_backend be = { 0 };
	struct capture *c = capture_new();
	struct fixture f;
	uint64_t pos = 0;

	be.itr.find_snapshot = tail_rule ? auxtrace_backend__find_snapshot_tail
					 : auxtrace_backend__find_snapshot_head;
	fixture_setup(&f, cfg, 4, true);
	ck_assert(aux_producer__overwrite(f.p));	/* read-only mapping: overwrite mode */
	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		size_t mark = c->mem.used, want = steps[s].want == SIZE_MAX ? len : steps[s].want;
		ssize_t n;

		ck_assert_uint_eq(produce(f.p, pos, steps[s].write), steps[s].write);
		pos += steps[s].write;
		n = auxtrace_mmap__read_snapshot(f.mm, &be.itr, &c->cb.sink, steps[s].snapshot_size);
		ck_assert_msg(n == (ssize_t)(want ? HDR + ((want + 7) & ~(size_t)7) : 0),
			      "step %zu: %zd bytes", s, n);
		if (want) {
			struct frame fr = one_frame(c, mark, pos - want, want);

			/* Offsets of an overwrite buffer are the normalised positions. */
			ck_assert_uint_eq(fr.ev.offset % len, (pos - want) % len);
		}
	}
	ck_assert_uint_eq(aux_tail(&f), 0);	/* a snapshot never writes the tail */
	free(be.wrapped);
	fixture_teardown(&f);
	free(c);
}
END_TEST

/*
 * Snapshots through the real backends, which auxtrace_record__options sets up for
 * -S<asked> on a 128 KiB area of a fake intel_pt or intel_bts PMU. Each step writes, then
 * snapshots: the record must hold exactly the newest `want` stream bytes (0: no record).
 */
#define SNAP_LEN ((size_t)128 << 10)
#define SNAP_WHOLE SIZE_MAX		/* the whole buffer (for BTS less its 16 unused bytes) */
#define SNAP_END SIZE_MAX		/* a write that ends the steps */

struct snapshot_step {
	size_t write;
	size_t want;
};

static const struct snapshot_case {
	const char *name;
	uint32_t type;			/* 8: intel_pt, 9: intel_bts */
	size_t asked;			/* -S size */
	size_t ref_size;		/* Intel PT's reference window that must result */
	size_t record_size;		/* BTS: 24-byte records, never across the buffer's end */
	struct snapshot_step steps[14];	/* up to { SNAP_END } */
} snapshot_cases[] = {
	/*
	 * psb_period=0 and topa_multiple_entries: a PSB every 2 KiB, a window of two. It starts
	 * at the zeroed end of the buffer, then covers the 4 KiB before the last head.
	 */
	{ "intel_pt, -S128K: the reference window", 8, SNAP_LEN, 4096, 0, {
		{ 0, 0 },				/* nothing yet */
		{ 10000, 10000 },			/* no wrap: what was written */
		{ 5000, 5000 },
		{ SNAP_LEN + 15000, SNAP_WHOLE },	/* the first wrap */
		{ 7000, 7000 },				/* none since: only the new bytes */
		{ SNAP_LEN - 4096, SNAP_LEN - 4096 },	/* up to the window, not into it */
		{ SNAP_LEN - 4095, SNAP_WHOLE },	/* one byte into it: wrapped again */
		{ SNAP_LEN, SNAP_WHOLE },		/* exactly a buffer since the last one */
		{ 0, 0 },				/* nothing new, nothing recorded */
		/* head at 28809: to 1000, so that the window runs over the buffer's end */
		{ SNAP_LEN - 27809, SNAP_LEN - 27809 },
		{ 2000, 2000 },
		{ SNAP_LEN - 4095, SNAP_WHOLE },	/* into that window */
		{ SNAP_END },
	} },
	{ "intel_pt, exactly full at the first snapshot", 8, SNAP_LEN, 4096, 0, {
		{ SNAP_LEN, SNAP_WHOLE },
		{ 100, 100 },
		{ SNAP_END },
	} },
	/* perf keeps no reference for a snapshot size of 64 KiB or less: the sticky test. */
	{ "intel_pt, -S64K: sticky", 8, 64 << 10, 0, 0, {
		{ 10000, 10000 },
		{ SNAP_LEN + 15000, 64 << 10 },		/* whole, clamped to the snapshot size */
		{ 7000, 64 << 10 },
		{ 0, 64 << 10 },
		{ SNAP_END },
	} },
	/* BTS has no reference in perf either: once wrapped, every snapshot is whole. */
	{ "intel_bts, -S128K: sticky", 9, SNAP_LEN, 0, 24, {
		{ 0, 0 },
		{ 240, 240 },
		{ 480, 480 },
		{ 24 * 6000, SNAP_WHOLE },		/* the first wrap */
		{ 240, SNAP_WHOLE },
		{ 0, SNAP_WHOLE },
		{ SNAP_END },
	} },
	{ "intel_bts, exactly full at the first snapshot", 9, SNAP_LEN, 0, 24, {
		{ SNAP_LEN - SNAP_LEN % 24, SNAP_WHOLE },
		{ SNAP_END },
	} },
};

/* The backend of c's PMU after auxtrace_record__options, for a per-thread session. */
static struct auxtrace_record *snapshot_backend(const struct snapshot_case *c,
						const char *sysfs, struct evlist **evlist)
{
	struct perf_event_attr attr = { .type = c->type, .config = c->type == 8 };	/* pt */
	AUXTRACE_OPTS(auxtrace_opts, opts, .privileged = true, .per_thread = true,
		      .auxtrace_snapshot_mode = true, .auxtrace_snapshot_size = c->asked,
		      .auxtrace_mmap_pages = SNAP_LEN / PAGE);
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct auxtrace_record *itr;
	int err;

	*evlist = evlist__new();
	evlist__add(*evlist, evsel__new(&attr));
	ck_assert_int_eq(evlist__set_maps(*evlist, cpus, threads), 0);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	itr = auxtrace_record__init(*evlist, sysfs, &err);
	ck_assert_msg(itr, "%s: no backend (%d)", c->name, err);
	ck_assert_int_eq(auxtrace_record__options(itr, *evlist, &opts), 0);
	ck_assert_uint_eq(auxtrace_backend(itr)->snapshot_ref_size, c->ref_size);
	return itr;
}

START_TEST(test_snapshot_wraps)
{
	const struct snapshot_case *c = &snapshot_cases[_i];
	struct aux_producer_config cfg = { .head_as_offset = true, .record_size = c->record_size };
	/* BTS records never reach the last len % 24 bytes, which the backend trims. */
	size_t whole = SNAP_LEN - (c->record_size ? SNAP_LEN % c->record_size : 0);
	struct capture *c_out = capture_new();
	struct auxtrace_record *itr;
	struct fake_sysfs fs;
	struct evlist *evlist;
	struct fixture f;
	uint64_t pos = 0;

	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
	itr = snapshot_backend(c, fs.root, &evlist);
	fixture_setup(&f, cfg, SNAP_LEN / PAGE, true);
	for (size_t s = 0; c->steps[s].write != SNAP_END; s++) {
		size_t want = c->steps[s].want == SNAP_WHOLE ? whole : c->steps[s].want;
		ssize_t n;

		ck_assert_uint_eq(produce(f.p, pos, c->steps[s].write), c->steps[s].write);
		pos += c->steps[s].write;
		c_out->mem.used = 0;
		n = auxtrace_mmap__read_snapshot(f.mm, itr, &c_out->cb.sink, c->asked);
		ck_assert_msg(n == (ssize_t)(want ? HDR + ((want + 7) & ~(size_t)7) : 0),
			      "%s, step %zu: %zd bytes, want %zu of payload", c->name, s, n, want);
		if (want)
			one_frame(c_out, 0, pos - want, want);
	}
	ck_assert_uint_eq(aux_tail(&f), 0);
	fixture_teardown(&f);
	auxtrace_record__free(itr);
	evlist__delete(evlist);
	fake_sysfs__remove(&fs);
	free(c_out);
}
END_TEST

START_TEST(test_overrun_is_loss)
{
	struct fixture f;
	struct capture *c = capture_new();
	struct frame fr[2];

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	ck_assert_uint_eq(produce(f.p, 0, 1000), 1000);
	ck_assert_int_gt(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), 0);
	c->mem.used = 0;
	/* A producer that ignored aux_tail ran two buffers and 100 bytes ahead. */
	aux_producer__set_head(f.p, 1000 + 2 * PAGE + 100);
	log_capture_start();
	/* A sink that refuses the window: nothing is lost yet, so nothing is counted. */
	c->fail = EIO;
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), -EIO);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns, 0);
	ck_assert_str_eq(log_text, "");
	c->fail = 0;
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + PAGE);
	log_capture_stop();
	/* Offsets alone would say 100 bytes; the newest buffer-full is what is left. */
	ck_assert_int_eq(parse_frames(c->buf, c->mem.used, fr, 2), 1);
	ck_assert_uint_eq(fr[0].ev.size, PAGE);
	ck_assert_uint_eq(fr[0].ev.offset, 1000 + PAGE + 100);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns, PAGE + 100);
	ck_assert_msg(log_captured("AUX data lost") && log_captured("idx 3"), "log: %s",
		      log_text);
	ck_assert_uint_eq(aux_tail(&f), 1000 + 2 * PAGE + 100);
	fixture_teardown(&f);
	free(c);
}
END_TEST

/*
 * Overrun boundaries, where a check off by one byte or by a whole buffer shows: the head
 * a byte less than a buffer ahead of the last read, exactly a buffer (full, nothing lost),
 * a byte more (one byte lost), two buffers, five and a bit; from an ordinary tail, and from
 * one 100 bytes before the head wraps at 2^64, which every case then crosses. For a
 * power-of-two buffer and one that is not (its positions skip 2^64 % len at the wrap).
 */
static const struct overrun_row {
	size_t pages;
	bool at_wrap;
	unsigned int bufs;
	int bytes;		/* the head is bufs * len + bytes past the last read */
} overrun_rows[] = {
#define OVERRUN_ROWS(pages, at_wrap)							\
	{ pages, at_wrap, 1, -1 }, { pages, at_wrap, 1, 0 }, { pages, at_wrap, 1, 1 },	\
	{ pages, at_wrap, 2, 0 }, { pages, at_wrap, 5, 123 }
	OVERRUN_ROWS(1, false), OVERRUN_ROWS(1, true),
	OVERRUN_ROWS(3, false), OVERRUN_ROWS(3, true),
#undef OVERRUN_ROWS
};

/* The producer position k bytes past old: after 2^64 - rem it restarts at 0. */
static uint64_t aux_pos_after(uint64_t old, uint64_t k, uint64_t rem)
{
	uint64_t to_wrap = (0 - rem) - old;

	return k < to_wrap ? old + k : k - to_wrap;
}

START_TEST(test_overrun_boundaries)
{
	const struct overrun_row *r = &overrun_rows[_i];
	struct aux_producer_config cfg = { .allow_non_pow2 = true };
	size_t len = r->pages * PAGE;
	uint64_t rem = (0 - (uint64_t)len) % len;
	uint64_t old = r->at_wrap ? 0 - rem - 100 : 1000;
	uint64_t dist = r->bufs * len + r->bytes, size = dist < len ? dist : len;
	uint64_t head = aux_pos_after(old, dist, rem), lost_before;
	struct capture *c = capture_new();
	unsigned char *base;
	struct fixture f;
	struct frame fr;
	size_t mark;

	fixture_setup(&f, cfg, r->pages, false);
	base = auxtrace_mmap__base(f.mm);
	aux_producer__set_head(f.p, old);
	ck_assert_int_gt(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), 0);
	ck_assert_uint_eq(auxtrace_mmap__prev(f.mm), old);
	lost_before = auxtrace_mmap__stats(f.mm)->overruns;
	mark = c->mem.used;
	/* The area holds stream byte k where the producer wrote the k-th byte past old. */
	for (uint64_t k = dist - size; k < dist; k++)
		base[aux_pos_after(old, k, rem) % len] = aux_stream__byte(k);
	aux_producer__set_head(f.p, head);
	if (r->at_wrap)
		ck_assert_uint_lt(head, old);	/* the case crosses 2^64 */

	log_capture_start();
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), HDR + ((size + 7) & ~7));
	log_capture_stop();
	/* The newest buffer-full at most, in place, named by where it starts. */
	fr = one_frame(c, mark, dist - size, size);
	ck_assert_uint_eq(fr.ev.offset, aux_pos_after(old, dist - size, rem));
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns - lost_before, dist - size);
	ck_assert(log_captured("AUX data lost") == (dist > len));
	ck_assert_uint_eq(aux_tail(&f), head);
	ck_assert_uint_eq(auxtrace_mmap__prev(f.mm), head);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), 0);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_failing_sink_keeps_tail)
{
	struct fixture f;
	struct test_itr t;
	struct capture *c = capture_new();
	struct frame fr;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	test_itr__init(&t, &f, 0);
	ck_assert_uint_eq(produce(f.p, 0, 64), 64);
	c->fail = ENOSPC;
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), -ENOSPC);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_uint_eq(aux_tail(&f), 0);
	ck_assert_uint_eq(auxtrace_mmap__prev(f.mm), 0);
	ck_assert_int_eq(t.finishes, 0);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->sink_errors, 1);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->bytes, 0);
	/* The same bytes again, with more behind them. */
	ck_assert_uint_eq(produce(f.p, 64, 36), 36);
	c->fail = 0;
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), HDR + 104);
	fr = one_frame(c, 0, 0, 100);
	ck_assert_uint_eq(fr.ev.offset, 0);
	ck_assert_uint_eq(aux_tail(&f), 100);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_read_finish_error_after_delivery)
{
	struct fixture f;
	struct test_itr t;
	struct capture *c = capture_new();

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	test_itr__init(&t, &f, 0);
	t.finish_err = -EIO;
	ck_assert_uint_eq(produce(f.p, 0, 40), 40);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), -EIO);
	/* The bytes were delivered and the tail moved: nothing is read twice. */
	ck_assert_uint_eq(c->mem.used, HDR + 40);
	ck_assert_uint_eq(aux_tail(&f), 40);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->bytes, HDR + 40);
	t.finish_err = 0;
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), 0);
	fixture_teardown(&f);
	free(c);
}
END_TEST

START_TEST(test_overwrite_mapping_needs_snapshot_read)
{
	struct fixture f;
	struct capture *c = capture_new();

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, true);
	ck_assert_int_eq(auxtrace_mmap__read(f.mm, NULL, &c->cb.sink), -EINVAL);
	fixture_teardown(&f);
	free(c);
}
END_TEST

/*
 * The kernel's AUX records reach the data ring; the data-ring code counts their flags. A
 * transaction that finds the buffer full is truncated and stops the event until the
 * backend's read_finish enables it again.
 */
START_TEST(test_aux_records_in_data_ring)
{
	struct fixture f;
	struct test_itr t;
	struct capture *c = capture_new();
	unsigned char buf[512];
	struct ring_sink_memory mem;
	static unsigned char out[DATA_PAGES * 4096];
	const struct ring_stats *st;

	fixture_setup(&f, (struct aux_producer_config){ 0 }, 1, false);
	test_itr__init(&t, &f, 0);
	aux_stream__fill(NULL, 0, buf, sizeof(buf));
	ck_assert_uint_eq(aux_producer__transaction(f.p, buf, 100, 0), 100);
	ck_assert_uint_eq(aux_producer__transaction(f.p, buf, 100, PERF_AUX_FLAG_PARTIAL), 100);
	ck_assert_uint_eq(aux_producer__transaction(f.p, buf, 100, PERF_AUX_FLAG_COLLISION), 100);
	ck_assert_uint_eq(produce(f.p, 300, PAGE - 400), PAGE - 400);
	/* 100 fit, 412 do not. */
	ck_assert_uint_eq(aux_producer__transaction(f.p, buf, sizeof(buf), 0), 100);
	ck_assert(!aux_producer__enabled(f.p));
	ck_assert_uint_eq(aux_producer__transaction(f.p, buf, 8, 0), 0);	/* stopped */

	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(perf_mmap__push(f.map, &mem.sink), 4 * sizeof(struct perf_record_aux));
	st = perf_mmap__stats(f.map);
	ck_assert_uint_eq(st->aux_truncated, 1);
	ck_assert_uint_eq(st->aux_partial, 1);
	ck_assert_uint_eq(st->aux_collision, 1);
	for (int i = 0; i < 4; i++) {
		struct perf_record_aux rec;

		memcpy(&rec, out + i * sizeof(rec), sizeof(rec));
		ck_assert_uint_eq(rec.header.type, PERF_RECORD_AUX);
		ck_assert_uint_eq(rec.aux_offset, i < 3 ? 100 * (size_t)i : PAGE - 100);
		ck_assert_uint_eq(rec.aux_size, 100);
	}
	/* Reading out the area re-enables the event through read_finish. */
	ck_assert_int_gt(auxtrace_mmap__read(f.mm, &t.itr, &c->cb.sink), 0);
	ck_assert(aux_producer__enabled(f.p));
	ck_assert_uint_eq(aux_producer__nr_enables(f.p), 1);
	ck_assert_uint_eq(aux_producer__transaction(f.p, buf, 8, 0), 8);
	fixture_teardown(&f);
	free(c);
}
END_TEST

/*
 * Stress: a producer thread writes for a while, the consumer drains into a sink that parses
 * the AUXTRACE framing as a file reader would and checks every payload byte.
 */
struct verifier {
	struct ring_sink_callback cb;
	size_t len;			/* AUX buffer size */
	bool bts;			/* payload is BTS records; else stream bytes */
	unsigned char hdr[HDR];
	size_t hdr_got;
	struct perf_record_auxtrace ev;
	uint64_t left;			/* payload bytes of the current frame still to come */
	unsigned int zeros;		/* trailing zero bytes seen (padding so far) */
	struct bts_record rec;
	size_t rec_got;
	uint64_t stream;		/* next expected stream byte, or BTS record number */
	uint64_t frames;
	char error[256];
};

static void verifier__fail(struct verifier *v, const char *what)
{
	if (!v->error[0])
		snprintf(v->error, sizeof(v->error), "frame %llu (offset %llu): %s",
			 (unsigned long long)v->frames, (unsigned long long)v->ev.offset, what);
}

/* Where BTS record k lies in the AUX stream: whole records per lap, then the gap. */
static uint64_t bts_pos(const struct verifier *v, uint64_t k)
{
	uint64_t per_lap = v->len / sizeof(struct bts_record);

	return k / per_lap * v->len + k % per_lap * sizeof(struct bts_record);
}

static void verifier__frame_start(struct verifier *v)
{
	uint64_t want;

	memcpy(&v->ev, v->hdr, HDR);
	if (v->ev.header.type != PERF_RECORD_AUXTRACE || v->ev.header.size != HDR ||
	    v->ev.size % 8 || v->ev.idx != 3 || v->ev.cpu != 1 || v->ev.tid != 4242)
		verifier__fail(v, "bad AUXTRACE header");
	if (!v->bts) {
		if (v->ev.offset != v->stream)
			verifier__fail(v, "offset is not where the last frame ended");
	} else {
		/* A frame may start at the gap the producer skipped before record k. */
		want = bts_pos(v, v->stream);
		if (v->ev.offset != want &&
		    !(want % v->len == 0 && v->ev.offset + v->len % sizeof(v->rec) == want))
			verifier__fail(v, "offset does not match the next record");
	}
	v->left = v->ev.size;
	v->zeros = 0;
	v->frames++;
}

static void verifier__byte(struct verifier *v, unsigned char b)
{
	if (!v->bts) {
		if (!b) {
			v->zeros++;
		} else if (v->zeros) {
			verifier__fail(v, "zero byte inside the payload");
		} else if (b != aux_stream__byte(v->stream++)) {
			verifier__fail(v, "payload byte out of sequence");
		}
		return;
	}
	((unsigned char *)&v->rec)[v->rec_got++] = b;
	if (v->rec_got < sizeof(v->rec))
		return;
	v->rec_got = 0;
	if (bts_record__seq(&v->rec) != (int64_t)v->stream++)
		verifier__fail(v, "BTS record out of sequence");
}

static void verifier__frame_end(struct verifier *v)
{
	if (v->bts ? v->rec_got != 0 : v->zeros != (8 - (v->ev.size - v->zeros) % 8) % 8)
		verifier__fail(v, "payload does not end on a record or its padding is wrong");
}

static ssize_t verifier_push(void *ctx, const struct iovec *iov, int iovcnt)
{
	struct verifier *v = ctx;
	ssize_t total = 0;

	for (int i = 0; i < iovcnt; i++) {
		const unsigned char *p = iov[i].iov_base;

		for (size_t k = 0; k < iov[i].iov_len; k++) {
			if (v->hdr_got < HDR) {
				v->hdr[v->hdr_got++] = p[k];
				if (v->hdr_got == HDR)
					verifier__frame_start(v);
			} else {
				verifier__byte(v, p[k]);
				v->left--;
			}
			if (v->hdr_got == HDR && !v->left) {
				verifier__frame_end(v);
				v->hdr_got = 0;
			}
		}
		total += iov[i].iov_len;
	}
	return total;
}

static void bts_fill(void *ctx, uint64_t pos, void *dst, size_t len)
{
	struct bts_record *r = dst;

	(void)ctx;
	for (size_t i = 0; i < len / sizeof(*r); i++)
		bts_record__make(&r[i], pos / sizeof(*r) + i);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(test_stress_every_byte_once_in_order)
{
	bool bts = _i == 1;
	struct aux_producer_config cfg = { .record_size = bts ? sizeof(struct bts_record) : 0 };
	struct aux_producer_run run = {
		.fill = bts ? bts_fill : aux_stream__fill,
		.chunk = bts ? 100 * sizeof(struct bts_record) : 3000,
		.vary = true,
	};
	struct verifier *v = calloc(1, sizeof(*v));
	struct test_itr t;
	struct fixture f;
	uint64_t produced;
	double end;
	ssize_t n;

	ck_assert_ptr_nonnull(v);
	fixture_setup(&f, cfg, 4, false);
	test_itr__init(&t, &f, bts ? sizeof(struct bts_record) : 0);
	v->len = 4 * PAGE;
	v->bts = bts;
	ring_sink_callback__init(&v->cb, verifier_push, v);
	ck_assert_int_eq(aux_producer__start(f.p, &run), 0);
	/* The run's length is not checked: only what arrived is. */
	for (end = now_s() + 2; now_s() < end;) {
		n = auxtrace_mmap__read(f.mm, &t.itr, &v->cb.sink);
		ck_assert_int_ge(n, 0);
		if (!n)
			sched_yield();
	}
	produced = aux_producer__stop(f.p);
	while ((n = auxtrace_mmap__read(f.mm, &t.itr, &v->cb.sink)) > 0)
		;
	ck_assert_int_eq(n, 0);
	ck_assert_msg(!v->error[0], "%s", v->error);
	ck_assert_uint_gt(produced, 8 * v->len);	/* it wrapped many times */
	ck_assert_uint_eq(v->stream, bts ? produced / sizeof(struct bts_record) : produced);
	ck_assert_uint_eq(v->hdr_got, 0);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->overruns, 0);
	ck_assert_uint_eq(auxtrace_mmap__stats(f.mm)->chunks, v->frames);
	ck_assert_uint_eq(aux_tail(&f), aux_producer__head(f.p));
	fixture_teardown(&f);
	free(v);
}
END_TEST

/* Intel PT packets from libipt through the layer into a file, and back out intact. */
START_TEST(test_pt_payload_framed_file)
{
	static unsigned char pt[20000], back[sizeof(pt)];
	char path[] = "/tmp/auxtrace-pt-XXXXXX";
	unsigned char *file;
	struct frame fr[16];
	size_t size, got = 0;
	ssize_t used;
	int fd, nr, psb;

	used = pt_payload__fill(pt, sizeof(pt), 1000, 0x400100);
	ck_assert_int_gt(used, 0);
	psb = pt_payload__count_psb(pt, sizeof(pt));
	ck_assert_int_gt(psb, 100);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	nr = aux_payload__write_framed(path, pt, sizeof(pt), 1, NULL);
	ck_assert_int_ge(nr, 5);	/* 20000 bytes through a 1-page area */
	size = lseek(fd, 0, SEEK_END);
	file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(file, MAP_FAILED);
	ck_assert_int_eq(parse_frames(file, size, fr, 16), nr);
	/* The next frame's offset says where this one's padding starts. */
	for (int i = 0; i < nr; i++) {
		uint64_t end = i + 1 < nr ? fr[i + 1].ev.offset : sizeof(pt);

		ck_assert_uint_eq(fr[i].ev.offset, got);
		ck_assert_uint_le(end - got, fr[i].ev.size);
		memcpy(back + got, fr[i].payload, end - got);
		got = end;
	}
	ck_assert_uint_eq(got, sizeof(pt));
	/* What perf would reassemble decodes to the same packets. */
	ck_assert(!memcmp(back, pt, sizeof(pt)));
	ck_assert_int_eq(pt_payload__count_psb(back, sizeof(back)), psb);
	munmap(file, size);
	close(fd);
	unlink(path);
}
END_TEST

static Suite *auxtrace_mmap_suite(void)
{
	Suite *s = suite_create("auxtrace-mmap");
	TCase *tc = tcase_create("read");
	TCase *stress = tcase_create("stress");

	tcase_add_test(tc, test_no_data);
	tcase_add_test(tc, test_not_needed_maps_nothing);
	tcase_add_test(tc, test_geometry_in_control_page);
	tcase_add_test(tc, test_contiguous);
	tcase_add_loop_test(tc, test_record_tid, 0, 4);
	tcase_add_loop_test(tc, test_record_tid_from_set_idx, 0, 4);
	tcase_add_test(tc, test_wrapped);
	tcase_add_test(tc, test_exactly_full);
	tcase_add_test(tc, test_padding_and_offsets);
	tcase_add_loop_test(tc, test_offset_formula_across_u64_wrap, 0, 2);
	tcase_add_loop_test(tc, test_bts_alignment_trim, 0, 2);
	tcase_add_loop_test(tc, test_snapshot_rules, 0, 2);
	tcase_add_loop_test(tc, test_snapshot_wraps, 0, ARRAY_SIZE(snapshot_cases));
	tcase_add_test(tc, test_overrun_is_loss);
	tcase_add_loop_test(tc, test_overrun_boundaries, 0,
			    sizeof(overrun_rows) / sizeof(overrun_rows[0]));
	tcase_add_test(tc, test_failing_sink_keeps_tail);
	tcase_add_test(tc, test_read_finish_error_after_delivery);
	tcase_add_test(tc, test_overwrite_mapping_needs_snapshot_read);
	tcase_add_test(tc, test_aux_records_in_data_ring);
	tcase_add_test(tc, test_pt_payload_framed_file);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(stress, test_stress_every_byte_once_in_order, 0, 2);
	tcase_set_timeout(stress, 60);
	suite_add_tcase(s, stress);
	return s;
}

int main(void)
{
	return testlib_run(auxtrace_mmap_suite());
}
