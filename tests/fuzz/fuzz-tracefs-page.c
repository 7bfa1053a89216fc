// SPDX-License-Identifier: LGPL-2.1
/*
 * The sub-buffer parser of tracefs-page.c on one page, with libtraceevent's kbuffer as the
 * oracle for what rb_page__check lets through. Input: a flags byte (bit 0: a 32-bit
 * kernel's layout, bit 1: 8 KiB sub-buffers), two 16-bit offsets for a piece [from, to),
 * then the page (zero-filled to its size). The page ends where a PROT_NONE page begins, so
 * any read past it, ours or kbuffer's (which ASan does not see), faults.
 *
 * Checks: the commit word, lost count, live-page test and timestamp walk never leave the
 * page; a page rb_page__check accepts is walked by kbuffer to its end, every event inside
 * the data, never stepping in place; a piece rb_piece__check accepts becomes a standalone
 * sub-buffer that rb_page__check accepts too.
 */
#include <sys/mman.h>
#include <unistd.h>
#include <kbuffer.h>
#include <tracefs/tracefs-internal.h>
#include "fuzz.h"

#define MAX_SUBBUF 8192

/* A mapping of MAX_SUBBUF bytes followed by a PROT_NONE guard page. */
static char *guarded(void)
{
	static char *base;

	if (!base) {
		base = mmap(NULL, MAX_SUBBUF + 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		fuzz__check(base != MAP_FAILED);
		fuzz__check(!mprotect(base + MAX_SUBBUF, 4096, PROT_NONE));
	}
	return base;
}

/* kbuffer's walk of a page rb_page__check accepted: to the end, inside the data. */
static void kbuffer_walk(const struct rb_layout *l, char *page)
{
	struct kbuffer *kb = kbuffer_alloc(l->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   KBUFFER_ENDIAN_SAME_AS_HOST);
	uint32_t size = rb_commit__size(rb_page__commit(page, l));
	const char *data = page + l->data_off, *last = NULL;
	unsigned long long ts;
	unsigned int steps = 0;

	fuzz__check(kb);
	kbuffer_load_subbuffer(kb, page);
	fuzz__check((uint32_t)kbuffer_subbuffer_size(kb) == size);
	for (char *rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts)) {
		int len = kbuffer_event_size(kb);

		fuzz__check(++steps <= size / 4 + 1);
		fuzz__check(rec != last);
		fuzz__check(rec >= data && len >= 0 && rec + len <= data + size);
		last = rec;
	}
	kbuffer_free(kb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char zeros[MAX_SUBBUF];
	_Alignas(8) static char out[MAX_SUBBUF];
	struct rb_layout l = { .data_off = 16, .long_size = 8 };
	struct ring_window win;
	struct rb_piece p;
	uint16_t from, to;
	uint32_t commit;
	char *page;
	size_t pos;

	if (size < 5)
		return 0;
	fuzz__log_quietly();
	if (data[0] & 1)
		l = (struct rb_layout){ .data_off = 12, .long_size = 4 };
	fuzz__check(!rb_layout__set_subbuf_size(&l, data[0] & 2 ? 8192 : 4096));
	memcpy(&from, data + 1, 2);
	memcpy(&to, data + 3, 2);
	page = guarded() + MAX_SUBBUF - l.subbuf_size;
	size -= 5;
	if (size > l.subbuf_size)
		size = l.subbuf_size;
	memcpy(page, data + 5, size);
	memset(page + size, 0, l.subbuf_size - size);

	commit = rb_page__commit(page, &l);
	rb_page__lost(page, &l, commit);
	rb_page__maybe_live(page, &l, commit);
	rb_page__ts_at(page, &l, from % (rb_layout__capacity(&l) + 1));
	if (!rb_page__check(page, &l, commit))
		kbuffer_walk(&l, page);

	p = (struct rb_piece){
		.page = page, .from = from, .to = to,
		.flags = from ? 0 : commit & RB_MISSED_FLAGS,
		.page_size = rb_commit__size(commit),
	};
	if (rb_piece__check(&p, &l))
		return 0;
	ring_window__reset(&win);
	rb_piece__window(&p, &l, zeros, &win);
	fuzz__check(win.bytes == l.subbuf_size);
	pos = 0;
	for (int i = 0; i < win.iovcnt; i++) {
		memcpy(out + pos, win.iov[i].iov_base, win.iov[i].iov_len);
		pos += win.iov[i].iov_len;
	}
	fuzz__check(!rb_page__check(out, &l, rb_page__commit(out, &l)));
	kbuffer_walk(&l, out);
	return 0;
}
