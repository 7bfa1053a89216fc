// SPDX-License-Identifier: LGPL-2.1
/*
 * The sub-buffer format on hand-built pages: header_page layouts, the commit word and its
 * lost-events marks, the record walk, and standalone pieces. libtraceevent's kbuffer is the
 * oracle: a piece must read back with the same events and timestamps as the whole page.
 */
#include <errno.h>
#include <string.h>

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

int main(void)
{
	Suite *s = suite_create("tracefs-page");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_layout_from_header_page);
	tcase_add_test(tc, test_commit_flags_and_lost_count);
	tcase_add_test(tc, test_maybe_live);
	tcase_add_test(tc, test_walk_matches_kbuffer);
	tcase_add_test(tc, test_walk_stops_on_corrupt_length);
	tcase_add_test(tc, test_piece_reads_back_like_the_page);
	tcase_add_test(tc, test_piece_keeps_lost_events);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
