// SPDX-License-Identifier: LGPL-2.1
/*
 * The mapped ring adapter of a tracefs_cpu (spec §1.4). The kernel lends us one sub-buffer
 * at a time, the reader page named by meta->reader.id; GET_READER accounts what the writer
 * appended to it, or gives it back and lends the next one. We hand out only bytes the kernel
 * already counted as read ([off, read) of the reader page), one GET_READER per step, and never
 * touch a page once the id moved on: a window is handed to the sink before the next
 * GET_READER can return that page to the writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <internal/lib.h>
#include <internal/trace_mmap.h>
#include "tracefs-internal.h"

struct trace_map {
	volatile struct trace_buffer_meta *meta;
	size_t meta_len;
	char *data;			/* sub-buffer k at data + k * subbuf_size */
	size_t data_len;
	uint32_t subbuf_size;		/* the meta's: the owner's layout follows it */
	uint32_t nr_subbufs;

	uint32_t id;			/* the reader sub-buffer we hold */
	uint32_t off;			/* data bytes of it handed out */
	uint32_t read;			/* data bytes of it the kernel counted as read */
	bool first;			/* nothing of it handed out: its lost-events mark is ours */
	bool left;			/* a blocking call left [off, read) of it to the writer */
	uint64_t events;		/* meta->read at the last snapshot */
	uint64_t overrun;		/* meta->overrun at the last snapshot */
	uint64_t lost;			/* overwritten since the last lost-events mark we reported */
	struct rb_piece piece;		/* the window peek built, until commit */
};

static const char *map__page(const struct trace_map *m, const struct rb_layout *l, uint32_t id)
{
	return m->data + (size_t)id * l->subbuf_size;
}

/* What GET_READER left in the meta, read once. */
struct meta_snap {
	uint32_t id, read;
	uint64_t events, overrun;
};

static struct meta_snap map__snapshot(const struct trace_map *m)
{
	return (struct meta_snap){
		.id = m->meta->reader.id,
		.read = m->meta->reader.read,
		.events = m->meta->read,
		.overrun = m->meta->overrun,
	};
}

/*
 * The buffer was reset under the mapping (cleared, trace_clock changed): what we had not
 * handed out is gone, the page we hold starts over, and the kernel's counters restart at 0.
 */
static void map__reset(struct trace_map *m, struct trace_map_reset *reset)
{
	reset->resets++;
	reset->events += m->events;
	m->off = m->read = 0;
	m->first = true;
	m->events = m->overrun = m->lost = 0;
}

/*
 * Take in what the kernel says now. A new id is a fresh page (consumed up to read by the
 * swap); counters going backwards, or the same page with read behind what we handed out,
 * are a reset we had not noticed yet.
 */
static void map__sync(struct trace_map *m, const struct meta_snap *s,
		      struct trace_map_reset *reset)
{
	bool same = s->id == m->id;

	if (s->events < m->events || s->overrun < m->overrun || (same && s->read < m->off))
		map__reset(m, reset);
	if (!same) {
		m->id = s->id;
		m->off = 0;
		m->first = true;
		m->left = false;
	}
	m->read = s->read;
	m->lost += s->overrun - m->overrun;
	m->events = s->events;
	m->overrun = s->overrun;
}

static int map__get_reader(struct tracefs_cpu *tcpu, struct trace_map *m,
			   struct trace_map_reset *reset)
{
	struct meta_snap s;

	tcpu->sys.get_reader++;
	if (ioctl(tcpu->fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
		return -errno;
	s = map__snapshot(m);
	/* never from a sane kernel: refuse to read outside the mapping */
	if (s.id >= m->nr_subbufs || s.read > m->subbuf_size - tcpu->layout.data_off)
		return -EPROTO;
	map__sync(m, &s, reset);
	return 0;
}

/* The piece [off, read) of the page we hold, as peek hands it out. */
static void map__piece(struct trace_map *m, const char *page, uint32_t commit)
{
	m->piece.page = page;
	m->piece.from = m->off;
	m->piece.to = m->read;
	m->piece.flags = m->first ? commit & RB_MISSED_FLAGS : 0;
	m->piece.page_size = rb_commit__size(commit);
}

/*
 * Whether the writer may still be on a page whose commit is `commit`: one it left is closed
 * by a padding record that its commit counts, or has no room for the smallest record (8
 * bytes). A page with a lost-events mark was swapped in behind the writer.
 */
static bool map__page_is_open(const struct rb_layout *l, uint32_t commit)
{
	return !(commit & RB_MISSED_EVENTS) && rb_commit__size(commit) + 8 <= rb_layout__capacity(l);
}

int trace_map__peek(struct tracefs_cpu *tcpu, bool leave_open, struct ring_window *win,
		    struct trace_map_reset *reset)
{
	const struct rb_layout *l = &tcpu->layout;
	struct trace_map *m = tcpu->map;
	bool asked = false;
	uint32_t id, read;
	int ret;

	for (;;) {
		const char *page = map__page(m, l, m->id);
		uint32_t commit = rb_page__commit(page, l);
		bool open = map__page_is_open(l, commit);

		/* a page only grows while we hold it: less than the kernel counted is a reset */
		if (rb_commit__size(commit) < m->read) {
			map__reset(m, reset);
			continue;
		}
		/*
		 * What we hold goes out at once, unless the writer appended since the last
		 * GET_READER: then the kernel's read is behind its commit, so GET_READER advances
		 * on this page (it cannot give the page back to the writer yet), and the growth
		 * comes out with the rest instead of as a piece of its own.
		 */
		if (m->off < m->read && (asked || rb_commit__size(commit) == m->read)) {
			/*
			 * The writer's page, for a caller that may sleep: leave it once (a
			 * GET_READER for every few events would chase the writer, the kernel
			 * advancing event by event); the next look takes what is there.
			 */
			if (open && leave_open && !m->left) {
				m->left = true;
				return 0;
			}
			map__piece(m, page, commit);
			rb_piece__window(&m->piece, l, tcpu->zeros, win);
			/* the writer is on this page: asking again would only catch it event by event */
			win->edge = open;
			win->priv = m;
			tcpu->sys.edge += open;
			return 1;
		}
		id = m->id;
		read = m->read;
		ret = map__get_reader(tcpu, m, reset);
		if (ret)
			return ret;
		asked = true;
		if (m->off == m->read && m->id == id && m->read == read)
			return 0;	/* nothing new: wait (poll) before asking again */
	}
}

bool trace_map__left_open(const struct trace_map *m)
{
	return m && m->left && m->off < m->read;
}

void trace_map__commit(struct trace_map *m, struct ring *ring, const struct rb_layout *l)
{
	const struct rb_piece *p = &m->piece;

	/*
	 * A full page has no room for the lost count (MISSED without STORED): the kernel's own
	 * overrun counter says how many, so the count is exact on every mark.
	 */
	if (p->flags & RB_MISSED_EVENTS) {
		ring__account_loss(ring, m->lost ? (int64_t)m->lost :
					 rb_page__lost(p->page, l, p->flags | p->page_size));
		m->lost = 0;
	}
	m->off = p->to;
	m->first = false;
	m->left = false;
}

int trace_map__check(const struct trace_map *m, const struct rb_layout *l)
{
	return rb_piece__check(&m->piece, l);
}

const char *trace_map__whole_page(const struct trace_map *m, const struct iovec *iov,
				  int iovcnt)
{
	if (!m || iovcnt < 2 || iov[0].iov_base != m->piece.hdr || m->piece.from)
		return NULL;
	return m->piece.page;
}

static void map__unmap(struct trace_map *m)
{
	if (m->data)
		munmap(m->data, m->data_len);
	if (m->meta)
		munmap((void *)m->meta, m->meta_len);
	free(m);
}

static int map__fail(struct tracefs_cpu *tcpu, struct trace_map *m, const char *what, int err)
{
	const char *hint = err == -EBUSY ? "a snapshot or latency tracer uses this instance" :
			   err == -ENODEV ? "kernel before 6.10, or a memmap= boot instance" :
			   err == -EINVAL ? "the kernel's meta page does not match this library" :
					    "see mmap(2)";

	pr_info("tracefs cpu%d: cannot map the ring buffer (%s: %s; %s); reading with read(2)/splice instead\n",
		tcpu->cpu, what, strerror(-err), hint);
	map__unmap(m);
	return libauxtrace__err(err);
}

int trace_map__new(struct tracefs_cpu *tcpu, struct trace_map **mapp)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct trace_map *m = calloc(1, sizeof(*m));
	struct rb_layout layout;
	void *p;

	if (!m)
		return libauxtrace__err(-ENOMEM);
	/* One page shows the struct; the meta area may be longer (6.12+: one sub-buffer). */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, tcpu->fd, 0);
	if (p == MAP_FAILED)
		return map__fail(tcpu, m, "meta page", -errno);
	m->meta = p;
	m->meta_len = page;
	if (m->meta->meta_page_size > page) {
		size_t len = m->meta->meta_page_size;

		munmap(p, page);
		m->meta = NULL;
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, tcpu->fd, 0);
		if (p == MAP_FAILED)
			return map__fail(tcpu, m, "meta area", -errno);
		m->meta = p;
		m->meta_len = len;
	}
	/* The meta is authoritative: buffer_subbuf_size_kb may have changed since the open. */
	layout = tcpu->layout;
	if (m->meta->meta_struct_len < offsetof(struct trace_buffer_meta, Reserved1) ||
	    rb_layout__set_subbuf_size(&layout, m->meta->subbuf_size) || !m->meta->nr_subbufs)
		return map__fail(tcpu, m, "meta page", -EINVAL);
	m->subbuf_size = layout.subbuf_size;
	m->nr_subbufs = m->meta->nr_subbufs;
	m->data_len = (size_t)m->subbuf_size * m->nr_subbufs;
	p = mmap(NULL, m->data_len, PROT_READ, MAP_SHARED, tcpu->fd, m->meta->meta_page_size);
	if (p == MAP_FAILED)
		return map__fail(tcpu, m, "sub-buffers", -errno);
	m->data = p;
	/* An earlier read(2) may have consumed part of the reader page: start after it. */
	m->id = m->meta->reader.id;
	m->off = m->read = m->meta->reader.read;
	m->first = m->off == 0;
	m->events = m->meta->read;
	m->overrun = m->meta->overrun;
	*mapp = m;
	return 0;
}

bool trace_map__delete(struct trace_map *m, const struct rb_layout *l, const void *zeros,
		       char *dst)
{
	bool copied = false;

	if (!m)
		return false;
	/* Bytes the kernel counted as read but nobody took yet: keep a copy, lose nothing. */
	if (dst && m->off < m->read) {
		const char *page = map__page(m, l, m->id);
		uint32_t commit = rb_page__commit(page, l);

		if (rb_commit__size(commit) >= m->read) {
			struct ring_sink_memory copy;
			struct ring_window win;

			ring_window__reset(&win);
			map__piece(m, page, commit);
			rb_piece__window(&m->piece, l, zeros, &win);
			ring_sink_memory__init(&copy, dst, l->subbuf_size);
			copy.sink.push(&copy.sink, win.iov, win.iovcnt);
			copied = true;
		}
	}
	map__unmap(m);
	return copied;
}

unsigned int trace_map__subbuf_size(const struct trace_map *m)
{
	return m->subbuf_size;
}

uint64_t trace_map__events_read(const struct trace_map *m)
{
	return m->events;
}
