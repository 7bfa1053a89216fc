// SPDX-License-Identifier: LGPL-2.1
/*
 * The read(2), splice and kbuffer paths of a tracefs_cpu, with a memfd in place of
 * trace_pipe_raw (tracefs_cpu_alloc_fd, as a caller with its own fd would). Input: a byte
 * that picks the call, then sub-buffers of 4 KiB (the last one zero-filled). A read is
 * repeated until it says there is no more data; a drain (read(2) or splice) runs once.
 *
 * Checks: every read returns a sub-buffer or fails with EAGAIN (the end) or EBADMSG (a
 * malformed one dropped, counted as a loss); what a parsing read returns passes
 * rb_page__check, and kbuffer walks it to its end without leaving it; the calls end. A
 * drain hands every sub-buffer on, once.
 */
#include <sys/mman.h>
#include <unistd.h>
#include <kbuffer.h>
#include <tracefs/tracefs-internal.h>
#include <tracefs.h>
#include "fuzz.h"

#define SUBBUF 4096
#define MAX_PAGES 8

enum how { READ_BUF, BUFFERED_READ_BUF, FLUSH_BUF, READ, BUFFERED_READ, FLUSH, NR_HOW };

/* kbuffer on a sub-buffer we handed out: every event inside it, the walk ends. */
static void walk(struct kbuffer *kb, const char *sub)
{
	const char *data = sub + 16, *end = data + kbuffer_subbuffer_size(kb);
	unsigned long long ts;
	unsigned int steps = 0;

	fuzz__check(end <= sub + SUBBUF);
	for (char *rec = kbuffer_read_event(kb, &ts); rec; rec = kbuffer_next_event(kb, &ts)) {
		int len = kbuffer_event_size(kb);

		fuzz__check(++steps <= SUBBUF / 4);
		fuzz__check(rec >= data && len >= 0 && rec + len <= end);
	}
}

/* One call: true when it gave a sub-buffer, false at the end; a dropped page counts in *bad. */
static bool read_once(struct tracefs_cpu *tcpu, enum how how, struct kbuffer *own, int *bad)
{
	_Alignas(8) static char buf[SUBBUF];
	struct kbuffer *kb = NULL;
	const char *sub = buf;
	int n = 0;

	errno = 0;
	switch (how) {
	case READ_BUF:
		kb = tracefs_cpu_read_buf(tcpu, true);
		break;
	case BUFFERED_READ_BUF:
		kb = tracefs_cpu_buffered_read_buf(tcpu, true);
		break;
	case FLUSH_BUF:
		kb = tracefs_cpu_flush_buf(tcpu);
		break;
	case READ:
		n = tracefs_cpu_read(tcpu, buf, true);
		break;
	case BUFFERED_READ:
		n = tracefs_cpu_buffered_read(tcpu, buf, true);
		break;
	default:
		n = tracefs_cpu_flush(tcpu, buf);
		break;
	}
	if (how <= FLUSH_BUF && kb) {
		sub = tcpu->buffer;	/* unmapped: kbuffer is loaded on the tcpu's own buffer */
	} else if (how > FLUSH_BUF && n > 0) {
		fuzz__check(n == SUBBUF);
		fuzz__check(!rb_page__check(buf, &tcpu->layout, rb_page__commit(buf, &tcpu->layout)));
		kbuffer_load_subbuffer(own, buf);
		kb = own;
	} else {
		fuzz__check(errno == EAGAIN || errno == EBADMSG);
		fuzz__check(n == 0 || n == -errno);
		*bad += errno == EBADMSG;
		return errno == EBADMSG;
	}
	walk(kb, sub);
	return true;
}

/* A drain passes every sub-buffer on unparsed: all of them, once. */
static void drain_all(struct tracefs_cpu *tcpu, bool buffered, size_t len)
{
	static char out[MAX_PAGES * SUBBUF];
	struct ring_sink_memory mem;
	ssize_t n;

	ring_sink_memory__init(&mem, out, sizeof(out));
	n = buffered ? tracefs_cpu_buffered_drain(tcpu, &mem.sink) :
		       tracefs_cpu_flush_drain(tcpu, &mem.sink);
	fuzz__check(n >= 0);
	if (!buffered)
		fuzz__check((size_t)n == len);
	fuzz__check(tracefs_cpu_flush_drain(tcpu, &mem.sink) >= 0);
	fuzz__check(mem.used == len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char pages[MAX_PAGES * SUBBUF];
	struct tracefs_cpu *tcpu;
	struct kbuffer *own;
	size_t len, padded;
	int fd, bad = 0, calls = 0;
	unsigned int how;

	if (!size)
		return 0;
	fuzz__log_quietly();
	how = data[0] % (NR_HOW + 2);
	len = size - 1 > sizeof(pages) ? sizeof(pages) : size - 1;
	padded = (len + SUBBUF - 1) / SUBBUF * SUBBUF;
	memcpy(pages, data + 1, len);
	memset(pages + len, 0, padded - len);
	fd = memfd_create("fuzz-trace_pipe_raw", MFD_CLOEXEC);
	fuzz__check(fd >= 0);
	fuzz__check(write(fd, pages, padded) == (ssize_t)padded);
	fuzz__check(lseek(fd, 0, SEEK_SET) == 0);
	tcpu = tracefs_cpu_alloc_fd(fd, SUBBUF, true);
	fuzz__check(tcpu);
	fuzz__check(tcpu->layout.data_off == 16);	/* walk() assumes a 64-bit kernel */
	if (how >= NR_HOW) {
		drain_all(tcpu, how == NR_HOW, padded);
		tracefs_cpu_close(tcpu);
		return 0;
	}
	own = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_SAME_AS_HOST);
	fuzz__check(own);
	while (read_once(tcpu, how, own, &bad))
		fuzz__check(++calls <= MAX_PAGES + 1);
	/* each dropped page is a loss of unknown size (besides the marks of the pages) */
	fuzz__check(tracefs_cpu_stats(tcpu)->lost_unknown >= (uint64_t)bad);
	kbuffer_free(own);
	tracefs_cpu_close(tcpu);
	return 0;
}
