// SPDX-License-Identifier: LGPL-2.1
/*
 * The sub-buffer format on hand-built pages: header_page layouts, the commit word and its
 * lost-events marks, the record walk, and standalone pieces. libtraceevent's kbuffer is the
 * oracle: a piece must read back with the same events and timestamps as the whole page.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kbuffer.h>
#include <tracefs/tracefs-internal.h>
#include "lib/testlib.h"

static const char header_page_64[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const struct rb_layout layout64 = { .data_off = 16, .long_size = 8, .subbuf_size = 4096 };

/* A sub-buffer under construction: records appended at off (data-relative). */
struct page_builder {
	_Alignas(8) char page[4096];
	uint32_t off;
};

static void pb_init(struct page_builder *pb, uint64_t ts)
{
	memset(pb->page, 0x5a, sizeof(pb->page));	/* stale bytes, as in a mapped page */
	memcpy(pb->page, &ts, 8);
	pb->off = 0;
}

static void pb_word(struct page_builder *pb, uint32_t w)
{
	memcpy(pb->page + 16 + pb->off, &w, 4);
	pb->off += 4;
}

static void pb_header(struct page_builder *pb, unsigned int type_len, uint32_t delta)
{
	pb_word(pb, type_len | delta << 5);
}

/* A small data record of n payload words, each word = its event number. */
static void pb_event(struct page_builder *pb, uint32_t delta, unsigned int words, uint32_t tag)
{
	pb_header(pb, words, delta);
	for (unsigned int i = 0; i < words; i++)
		pb_word(pb, tag);
}

/* A large data record of 8 + payload bytes (payload a multiple of 4). */
static void pb_large(struct page_builder *pb, uint32_t delta, unsigned int payload, uint32_t tag)
{
	pb_header(pb, 0, delta);
	pb_word(pb, 4 + payload);
	for (unsigned int i = 0; i < payload / 4; i++)
		pb_word(pb, tag);
}

static void pb_commit(struct page_builder *pb, uint64_t commit)
{
	memcpy(pb->page + 8, &commit, 8);
}

/* Events, an extend, an absolute stamp, a discarded event (padding with a delta). */
static void pb_mixed(struct page_builder *pb)
{
	pb_init(pb, 1000);
	pb_event(pb, 0, 2, 1);
	pb_event(pb, 5, 1, 2);
	pb_header(pb, 30, 3);			/* time extend: (1 << 27) + 3 */
	pb_word(pb, 1);
	pb_event(pb, 7, 3, 3);
	pb_header(pb, 29, 4);			/* discarded event of 16 bytes */
	pb_word(pb, 12);
	pb_word(pb, 0);
	pb_word(pb, 0);
	pb_event(pb, 2, 1, 4);
	pb_header(pb, 31, 123);			/* absolute stamp */
	pb_word(pb, 2);
	pb_event(pb, 0, 2, 5);
	pb_large(pb, 9, 120, 6);
	pb_commit(pb, pb->off);
}

/* header_page text whose data field has the given offset and size (as text). */
static void header_page_with(char *buf, size_t size, const char *data_off, const char *data_size)
{
	snprintf(buf, size,
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: char data;\toffset:%s;\tsize:%s;\tsigned:0;\n", data_off, data_size);
}

/*
 * Sizes that would wrap or that no kernel has are refused: "size:4294967295" once made the
 * sub-buffer 15 bytes and every later bound check void.
 */
START_TEST(test_layout_bounds)
{
	static const char *const bad[][2] = {
		{ "16", "4294967295" },		/* 16 + 2^32 - 1 wraps to 15 in 32 bits */
		{ "16", "18446744073709551615" },
		{ "16", "99999999999999999999999" },
		{ "16", "-4080" },
		{ "16", "4081" },		/* not a power of two */
		{ "16", "0" },
		{ "16", "2032" },		/* 2 KiB: smaller than any page */
		{ "16", "268435440" },		/* 256 MiB: more than a commit word can say */
		{ "16", "" },
		{ "16", "4080x" },
		{ "4294967312", "4080" },
	};
	char text[512];
	struct rb_layout l;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		header_page_with(text, sizeof(text), bad[i][0], bad[i][1]);
		ck_assert_msg(rb_layout__parse(&l, text) == -EINVAL, "accepted data %s@%s",
			      bad[i][1], bad[i][0]);
	}
	header_page_with(text, sizeof(text), "16", "134217712");	/* 128 MiB: the largest */
	ck_assert_int_eq(rb_layout__parse(&l, text), 0);
	ck_assert_uint_eq(l.subbuf_size, 1u << 27);
	header_page_with(text, sizeof(text), " 16 ", "\t4080");
	ck_assert_int_eq(rb_layout__parse(&l, text), 0);
	ck_assert_uint_eq(l.subbuf_size, 4096);
	/* the fields of one line stay on it */
	ck_assert_int_eq(rb_layout__parse(&l, "\tfield: local_t commit;\n offset:8; size:8;\n"
					      "\tfield: char data;\toffset:16;\tsize:4080;\n"),
			 -EINVAL);
}
END_TEST

START_TEST(test_layout_from_header_page)
{
	static const char header_page_32[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
	static const char header_page_8k[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:8176;\tsigned:0;\n";
	struct rb_layout l;

	ck_assert_int_eq(rb_layout__parse(&l, header_page_64), 0);
	ck_assert_uint_eq(l.data_off, 16);
	ck_assert_uint_eq(l.long_size, 8);
	ck_assert_uint_eq(l.subbuf_size, 4096);
	ck_assert_int_eq(rb_layout__parse(&l, header_page_32), 0);
	ck_assert_uint_eq(l.data_off, 12);
	ck_assert_uint_eq(l.long_size, 4);
	ck_assert_uint_eq(l.subbuf_size, 4096);
	ck_assert_int_eq(rb_layout__parse(&l, header_page_8k), 0);
	ck_assert_uint_eq(l.subbuf_size, 8192);
	ck_assert_int_eq(rb_layout__parse(&l, "field: char data; offset:16; size:4080;\n"), -EINVAL);
}
END_TEST

/* The commit word as a 64-bit kernel writes it after an overrun: sign-extended flags. */
START_TEST(test_commit_flags_and_lost_count)
{
	struct page_builder pb;
	uint64_t lost = 1904;

	pb_init(&pb, 1);
	pb_commit(&pb, 0xffffffffc0000f24ULL);
	memcpy(pb.page + 16 + 0xf24, &lost, 8);
	uint32_t commit = rb_page__commit(pb.page, &layout64);

	ck_assert_uint_eq(commit, 0xc0000f24u);
	ck_assert_uint_eq(rb_commit__size(commit), 3876);
	ck_assert_int_eq(rb_page__lost(pb.page, &layout64, commit), 1904);

	pb_commit(&pb, 0xffffffff80000100ULL);	/* missed, count not stored */
	ck_assert_int_eq(rb_page__lost(pb.page, &layout64, rb_page__commit(pb.page, &layout64)), -1);
	pb_commit(&pb, 0x100);
	ck_assert_int_eq(rb_page__lost(pb.page, &layout64, rb_page__commit(pb.page, &layout64)), 0);
}
END_TEST

/* A page the writer left keeps less room than one of its events; a live page has more. */
START_TEST(test_maybe_live)
{
	struct page_builder pb;

	pb_init(&pb, 0);
	for (int i = 0; i < 31; i++)
		pb_large(&pb, 1, 120, i);		/* 128-byte records: 3968 bytes, 112 left */
	pb_commit(&pb, pb.off);
	ck_assert(!rb_page__maybe_live(pb.page, &layout64, pb.off));
	pb_event(&pb, 1, 1, 99);			/* a small one still fitted: left all the same */
	pb_commit(&pb, pb.off);
	ck_assert(!rb_page__maybe_live(pb.page, &layout64, pb.off));

	/* small events first: only the long one at the end proves the page finished */
	pb_init(&pb, 0);
	for (int i = 0; i < 300; i++)
		pb_event(&pb, 1, 2, i);			/* 12-byte records: 3600 bytes */
	pb_large(&pb, 1, 392, 300);			/* 400 bytes: 4000 in all, 80 left */
	ck_assert(!rb_page__maybe_live(pb.page, &layout64, pb.off));
	ck_assert(rb_page__maybe_live(pb.page, &layout64, pb.off - 400));	/* 480 left */

	pb_init(&pb, 0);
	pb_event(&pb, 0, 1, 1);
	ck_assert(rb_page__maybe_live(pb.page, &layout64, pb.off));
	ck_assert(!rb_page__maybe_live(pb.page, &layout64, pb.off | RB_MISSED_EVENTS));
	ck_assert(!rb_page__maybe_live(pb.page, &layout64, 4080 - 4));	/* no room for 8 */
	ck_assert(!rb_page__maybe_live(pb.page, &layout64, 4096));	/* a commit past the page */
}
END_TEST

static struct kbuffer *kbuf_new(void)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_SAME_AS_HOST);

	ck_assert_ptr_nonnull(kb);
	return kb;
}

/* Every event of a sub-buffer as kbuffer sees it: timestamps and first payload word. */
static int kbuf_events(struct kbuffer *kb, void *page, unsigned long long *ts, uint32_t *tag,
		       int max)
{
	unsigned long long t;
	int n = 0;

	kbuffer_load_subbuffer(kb, page);
	for (void *rec = kbuffer_read_event(kb, &t); rec && n < max; rec = kbuffer_next_event(kb, &t)) {
		ts[n] = t;
		memcpy(&tag[n], rec, 4);
		n++;
	}
	return n;
}

/* Our timestamp walk agrees with kbuffer before every event (the event's own delta on top). */
START_TEST(test_walk_matches_kbuffer)
{
	struct page_builder pb;
	struct kbuffer *kb = kbuf_new();
	unsigned long long ts;
	int n = 0;

	pb_mixed(&pb);
	kbuffer_load_subbuffer(kb, pb.page);
	for (void *rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts)) {
		uint32_t at = kbuffer_curr_offset(kb) - 16, w;

		memcpy(&w, pb.page + 16 + at, 4);
		ck_assert_uint_eq(rb_page__ts_at(pb.page, &layout64, at) + (w >> 5), ts);
		n++;
	}
	ck_assert_int_eq(n, 6);
	/* the extend before the third event, the absolute stamp before the fifth */
	ck_assert_uint_eq(rb_page__ts_at(pb.page, &layout64, 0), 1000);
	kbuffer_load_subbuffer(kb, pb.page);
	for (int i = 0; i < 4; i++)
		kbuffer_next_event(kb, NULL);
	kbuffer_read_event(kb, &ts);
	ck_assert_uint_eq(ts, (2ULL << 27) | 123);
	kbuffer_free(kb);
}
END_TEST

/*
 * A large record whose length is not a multiple of 4 (6 payload bytes) takes its length
 * rounded up, as kbuffer steps over it: the walk lands on the next record, not inside it.
 */
START_TEST(test_walk_rounds_odd_lengths)
{
	struct page_builder pb;
	struct kbuffer *kb = kbuf_new();
	unsigned long long ts[4];
	uint32_t tag[4];

	pb_init(&pb, 1000);
	pb_header(&pb, 0, 5);
	pb_word(&pb, 4 + 6);			/* the length word and 6 bytes */
	pb_word(&pb, 1);
	pb_word(&pb, 0xffff0000);		/* 2 bytes of payload, 2 of the rounding */
	pb_event(&pb, 7, 1, 2);
	pb_event(&pb, 3, 1, 3);
	pb_commit(&pb, pb.off);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off), 0);
	ck_assert_int_eq(kbuf_events(kb, pb.page, ts, tag, 4), 3);
	ck_assert_uint_eq(tag[1], 2);
	ck_assert_uint_eq(rb_page__ts_at(pb.page, &layout64, 16) + 7, ts[1]);
	ck_assert_uint_eq(rb_page__ts_at(pb.page, &layout64, 24) + 3, ts[2]);
	ck_assert_uint_eq(ts[2], 1015);
	kbuffer_free(kb);
}
END_TEST

/* A record that claims to run past the data must end a walk, not overrun the page. */
START_TEST(test_walk_stops_on_corrupt_length)
{
	struct page_builder pb;

	pb_init(&pb, 1000);
	pb_event(&pb, 5, 1, 1);
	pb_header(&pb, 0, 77);
	pb_word(&pb, 100000);
	pb_commit(&pb, pb.off);
	ck_assert_uint_eq(rb_page__ts_at(pb.page, &layout64, pb.off), 1005);
	ck_assert(rb_page__maybe_live(pb.page, &layout64, pb.off));
	pb_init(&pb, 1000);
	pb_event(&pb, 5, 1, 1);
	pb_header(&pb, 29, 0);			/* null padding: the rest is unused */
	pb_header(&pb, 1, 77);
	pb_commit(&pb, 4080);
	ck_assert_uint_eq(rb_page__ts_at(pb.page, &layout64, pb.off), 1005);
}
END_TEST

/* Gather a window into one standalone sub-buffer. */
static size_t window_gather(const struct ring_window *win, char *out)
{
	size_t pos = 0;

	for (int i = 0; i < win->iovcnt; i++) {
		memcpy(out + pos, win->iov[i].iov_base, win->iov[i].iov_len);
		pos += win->iov[i].iov_len;
	}
	return pos;
}

START_TEST(test_piece_reads_back_like_the_page)
{
	static const char zeros[4096];
	_Alignas(8) char out[4096];
	struct page_builder pb;
	unsigned long long ts_all[16], ts_piece[16];
	uint32_t tag_all[16], tag_piece[16];
	struct kbuffer *kb = kbuf_new();
	struct ring_window win;
	/* cut after the third event: its extend comes before it, the padding after it */
	struct rb_piece p = { .page = pb.page, .from = 4 * 3 + 4 * 2 + 8 + 16, .to = 0 };
	int n_all, n_piece;

	pb_mixed(&pb);
	p.to = pb.off;
	p.page_size = pb.off;
	n_all = kbuf_events(kb, pb.page, ts_all, tag_all, 16);
	ring_window__reset(&win);
	rb_piece__window(&p, &layout64, zeros, &win);
	ck_assert_uint_eq(win.bytes, 4096);
	ck_assert_ptr_eq(win.iov[1].iov_base, pb.page + 16 + p.from);	/* data in place */
	ck_assert_uint_eq(window_gather(&win, out), 4096);
	n_piece = kbuf_events(kb, out, ts_piece, tag_piece, 16);
	ck_assert_int_eq(n_piece, n_all - 3);
	for (int i = 0; i < n_piece; i++) {
		ck_assert_uint_eq(ts_piece[i], ts_all[i + 3]);
		ck_assert_uint_eq(tag_piece[i], tag_all[i + 3]);
	}
	for (size_t i = 16 + p.to - p.from; i < sizeof(out); i++)
		ck_assert_int_eq(out[i], 0);	/* no stale bytes leave the library */
	kbuffer_free(kb);
}
END_TEST

/* The first piece of a page keeps MISSED_EVENTS and the count, placed after its own data. */
START_TEST(test_piece_keeps_lost_events)
{
	static const char zeros[4096];
	_Alignas(8) char out[4096];
	struct page_builder pb;
	struct ring_window win;
	struct kbuffer *kb = kbuf_new();
	uint64_t lost = 77;
	uint32_t commit;
	struct rb_piece p = { .page = pb.page, .from = 0, .to = 8 };

	pb_init(&pb, 5);
	pb_event(&pb, 0, 1, 1);
	pb_event(&pb, 1, 1, 2);
	pb_commit(&pb, 0xffffffffc0000000ULL | pb.off);
	memcpy(pb.page + 16 + pb.off, &lost, 8);
	commit = rb_page__commit(pb.page, &layout64);
	p.flags = commit & RB_MISSED_FLAGS;
	p.page_size = rb_commit__size(commit);

	ring_window__reset(&win);
	rb_piece__window(&p, &layout64, zeros, &win);
	ck_assert_int_eq(win.iovcnt, 4);
	window_gather(&win, out);
	commit = rb_page__commit(out, &layout64);
	ck_assert_uint_eq(commit, RB_MISSED_FLAGS | 8);
	ck_assert_int_eq(rb_page__lost(out, &layout64, commit), 77);
	kbuffer_load_subbuffer(kb, out);
	ck_assert_int_eq(kbuffer_missed_events(kb), 77);
	kbuffer_free(kb);

	/* the next piece of the same page carries no mark */
	p.from = 8;
	p.to = 16;
	p.flags = 0;
	ring_window__reset(&win);
	rb_piece__window(&p, &layout64, zeros, &win);
	ck_assert_int_eq(win.iovcnt, 3);
	window_gather(&win, out);
	ck_assert_uint_eq(rb_page__commit(out, &layout64), 8);
}
END_TEST

/*
 * A page with no room to spare: the kernel stores the lost count in its last 8 bytes. The
 * count is read there, a piece keeps it there, and 4 bytes less room would not hold it.
 */
START_TEST(test_lost_count_in_last_bytes)
{
	static const char zeros[4096];
	_Alignas(8) char out[4096];
	struct page_builder pb;
	struct ring_window win;
	uint64_t lost = 3910;
	uint32_t commit;
	struct rb_piece p = { .page = pb.page };

	pb_init(&pb, 1);
	pb_large(&pb, 1, 4072 - 8, 1);		/* one record of 4072 bytes: 8 left */
	ck_assert_uint_eq(pb.off, 4080 - 8);
	pb_commit(&pb, 0xffffffffc0000000ULL | pb.off);
	memcpy(pb.page + 16 + pb.off, &lost, 8);
	commit = rb_page__commit(pb.page, &layout64);
	ck_assert_int_eq(rb_page__lost(pb.page, &layout64, commit), 3910);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, commit), 0);

	p.to = p.page_size = pb.off;
	p.flags = commit & RB_MISSED_FLAGS;
	ring_window__reset(&win);
	rb_piece__window(&p, &layout64, zeros, &win);
	ck_assert_uint_eq(win.bytes, 4096);
	window_gather(&win, out);
	commit = rb_page__commit(out, &layout64);
	ck_assert_uint_eq(commit, RB_MISSED_FLAGS | (4080 - 8));
	ck_assert_int_eq(rb_page__lost(out, &layout64, commit), 3910);

	/* 4 bytes more data: the count cannot be there, whatever the flags say */
	commit = RB_MISSED_FLAGS | (4080 - 4);
	ck_assert_int_eq(rb_page__lost(pb.page, &layout64, commit), -1);
	ck_assert_int_eq(rb_commit__check(commit, &layout64), -EBADMSG);
}
END_TEST

/*
 * A page that libtraceevent 1.7.1's kbuffer_load_subbuffer never returns from: both missed
 * flags, then junk whose first record is a padding of 2^32 - 4 bytes (its next record is
 * itself).
 */
static void pb_endless(struct page_builder *pb)
{
	pb_init(pb, 7);
	pb_header(pb, 29, 0x3ffffff);
	pb_word(pb, 0xfffffffc);
	pb_commit(pb, 0xffffffffc0000000ULL | 64);
}

/* Only what kbuffer can walk without leaving the data passes. */
START_TEST(test_check_page)
{
	struct page_builder pb;
	uint32_t commit;

	pb_mixed(&pb);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off), 0);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, 0), 0);		/* empty */
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off - 2), -EBADMSG);	/* cut */
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, 4081), -EBADMSG);	/* past the page */

	pb_endless(&pb);
	commit = rb_page__commit(pb.page, &layout64);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, commit), -EBADMSG);

	/* records that claim to run past the data */
	pb_init(&pb, 1);
	pb_event(&pb, 1, 2, 1);
	pb_large(&pb, 1, 8, 2);
	pb_commit(&pb, pb.off);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off), 0);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off - 4), -EBADMSG);
	memcpy(pb.page + 16 + 12 + 4, &(uint32_t){ 0xfffffffc }, 4);	/* large: 2^32 - 4 */
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off), -EBADMSG);
	memcpy(pb.page + 16 + 12 + 4, &(uint32_t){ 2 }, 4);		/* large, shorter than itself */
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, pb.off), -EBADMSG);
	pb_init(&pb, 1);
	pb_event(&pb, 1, 28, 1);		/* 116 bytes */
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, 116), 0);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, 112), -EBADMSG);
	pb_init(&pb, 1);
	pb_header(&pb, 30, 1);			/* a time extend needs its second word */
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, 4), -EBADMSG);
	ck_assert_int_eq(rb_page__check(pb.page, &layout64, 8), 0);

	/* the 32-bit layout: a 4-byte commit word and count */
	static const struct rb_layout layout32 = { .data_off = 12, .long_size = 4,
						   .subbuf_size = 4096 };
	ck_assert_int_eq(rb_commit__check(RB_MISSED_FLAGS | (4084 - 4), &layout32), 0);
	ck_assert_int_eq(rb_commit__check(RB_MISSED_FLAGS | (4084 - 3), &layout32), -EBADMSG);
	ck_assert_int_eq(rb_commit__check(RB_MISSED_EVENTS | 4084, &layout32), 0);
}
END_TEST

/* ---- the read(2), splice and kbuffer paths on a memfd: tracefs_cpu_alloc_fd ---- */

/* A page of n small events tagged first, first + 1, ... */
static void pb_events(struct page_builder *pb, uint32_t first, int n)
{
	pb_init(pb, 1000 + first);
	for (int i = 0; i < n; i++)
		pb_event(pb, 1, 2, first + i);
	pb_commit(pb, pb->off);
}

/* A memfd holding the pages, and a tcpu reading it; pages[i] NULL: a malformed page. */
static struct tracefs_cpu *fd_tcpu(struct page_builder *pages, int n, int *fdp)
{
	struct tracefs_cpu *tcpu;
	int fd = memfd_create("trace_pipe_raw", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(write(fd, pages[i].page, 4096), 4096);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	tcpu = tracefs_cpu_alloc_fd(fd, 4096, true);
	ck_assert_ptr_nonnull(tcpu);
	ck_assert_int_eq(tracefs_cpu_read_size(tcpu), 4096);
	*fdp = fd;
	return tcpu;
}

/* Events of a kbuffer: their tags in order from next on. */
static void kbuf_tags(struct kbuffer *kb, uint32_t *next)
{
	unsigned long long ts;

	for (void *rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts)) {
		uint32_t tag;

		memcpy(&tag, rec, 4);
		ck_assert_uint_eq(tag, *next);
		(*next)++;
	}
}

enum fd_how { FD_READ_BUF, FD_BUFFERED_BUF, FD_READ, FD_FLUSH };

/* One public read: true with the events walked, false with errno (EAGAIN, EBADMSG). */
static bool fd_read_one(struct tracefs_cpu *tcpu, enum fd_how how, uint32_t *next)
{
	_Alignas(8) char buf[4096];
	struct kbuffer *kb;
	int n;

	errno = 0;
	switch (how) {
	case FD_READ_BUF:
		kb = tracefs_cpu_read_buf(tcpu, true);
		break;
	case FD_BUFFERED_BUF:
		kb = tracefs_cpu_buffered_read_buf(tcpu, true);
		break;
	default:
		n = how == FD_READ ? tracefs_cpu_read(tcpu, buf, true) : tracefs_cpu_flush(tcpu, buf);
		if (n < 0)
			ck_assert_int_eq(n, -errno);
		if (n <= 0)
			return false;
		ck_assert_int_eq(n, 4096);
		kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_SAME_AS_HOST);
		kbuffer_load_subbuffer(kb, buf);
		kbuf_tags(kb, next);
		kbuffer_free(kb);
		return true;
	}
	if (!kb)
		return false;
	kbuf_tags(kb, next);
	return true;
}

/* Whole pages from a memfd through each path: every event once, in order, then EAGAIN. */
START_TEST(test_fd_paths)
{
	struct page_builder pages[3];
	struct tracefs_cpu *tcpu;
	uint32_t next = 0;
	int fd, calls = 0;

	for (int i = 0; i < 3; i++)
		pb_events(&pages[i], 100 * i, 100);
	tcpu = fd_tcpu(pages, 3, &fd);
	ck_assert(fcntl(fd, F_GETFL) & O_NONBLOCK);
	for (; fd_read_one(tcpu, _i, &next); calls++)
		ck_assert_int_lt(calls, 10);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_uint_eq(next, 300);
	ck_assert_int_eq(calls, 3);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->chunks, 3);
	ck_assert_uint_gt(_i == FD_BUFFERED_BUF ? tcpu->sys.splices : tcpu->sys.reads, 0);
	tracefs_cpu_free_fd(tcpu);
	ck_assert_int_ge(fcntl(fd, F_GETFD), 0);	/* free_fd leaves it open */
	close(fd);
}
END_TEST

/*
 * Malformed pages (a commit past the page, which kbuffer read past; the page kbuffer never
 * returns from) are dropped one call each, counted as losses, never handed to kbuffer.
 */
START_TEST(test_fd_drops_malformed_pages)
{
	struct page_builder pages[5];
	struct tracefs_cpu *tcpu;
	uint32_t next = 0;
	int fd, bad = 0, good = 0;

	pb_events(&pages[0], 0, 50);
	pb_events(&pages[1], 50, 50);
	pb_commit(&pages[1], 4096 + 512);
	pb_events(&pages[2], 50, 50);
	pb_endless(&pages[3]);
	pb_events(&pages[4], 100, 50);
	tcpu = fd_tcpu(pages, 5, &fd);
	for (int calls = 0; calls < 10; calls++) {
		if (fd_read_one(tcpu, _i, &next)) {
			good++;
			continue;
		}
		if (errno == EAGAIN)
			break;
		ck_assert_int_eq(errno, EBADMSG);
		bad++;
	}
	ck_assert_int_eq(good, 3);
	ck_assert_int_eq(bad, 2);
	ck_assert_uint_eq(next, 150);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->lost_unknown, 2);
	ck_assert_uint_eq(tracefs_cpu_stats(tcpu)->chunks, 3);
	tracefs_cpu_close(tcpu);
	ck_assert_int_lt(fcntl(fd, F_GETFD), 0);	/* close closes it */
}
END_TEST

/* Drains pass sub-buffers on unparsed: the consumer of a file checks them (or not). */
START_TEST(test_fd_drain_passes_pages_on)
{
	struct page_builder pages[2];
	_Alignas(8) char out[2 * 4096];
	struct ring_sink_memory mem;
	struct tracefs_cpu *tcpu;
	int fd;

	pb_events(&pages[0], 0, 10);
	pb_endless(&pages[1]);
	tcpu = fd_tcpu(pages, 2, &fd);
	ring_sink_memory__init(&mem, out, sizeof(out));
	ck_assert_int_eq(tracefs_cpu_flush_drain(tcpu, &mem.sink), sizeof(out));
	ck_assert_int_eq(memcmp(out + 4096, pages[1].page, 4096), 0);
	tracefs_cpu_close(tcpu);
}
END_TEST

START_TEST(test_fd_bad_sizes)
{
	int fd = memfd_create("x", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	assert_null_errno(tracefs_cpu_alloc_fd(fd, 0, true), EINVAL);
	assert_null_errno(tracefs_cpu_alloc_fd(fd, -4096, true), EINVAL);
	assert_null_errno(tracefs_cpu_alloc_fd(fd, 6144, true), EINVAL);
	assert_null_errno(tracefs_cpu_alloc_fd(fd, 1 << 28, true), EINVAL);
	assert_null_errno(tracefs_cpu_alloc_fd(-1, 4096, true), EINVAL);
	ck_assert_int_ge(fcntl(fd, F_GETFD), 0);
	close(fd);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tracefs-page");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_layout_from_header_page);
	tcase_add_test(tc, test_layout_bounds);
	tcase_add_test(tc, test_lost_count_in_last_bytes);
	tcase_add_test(tc, test_check_page);
	tcase_add_test(tc, test_commit_flags_and_lost_count);
	tcase_add_test(tc, test_maybe_live);
	tcase_add_test(tc, test_walk_matches_kbuffer);
	tcase_add_test(tc, test_walk_stops_on_corrupt_length);
	tcase_add_test(tc, test_walk_rounds_odd_lengths);
	tcase_add_test(tc, test_piece_reads_back_like_the_page);
	tcase_add_test(tc, test_piece_keeps_lost_events);
	suite_add_tcase(s, tc);

	tc = tcase_create("fd");
	tcase_add_loop_test(tc, test_fd_paths, FD_READ_BUF, FD_FLUSH + 1);
	tcase_add_loop_test(tc, test_fd_drops_malformed_pages, FD_READ_BUF, FD_FLUSH + 1);
	tcase_add_test(tc, test_fd_drain_passes_pages_on);
	tcase_add_test(tc, test_fd_bad_sizes);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
