/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The kernel ABI of a memory-mapped tracefs ring buffer (Linux 6.10+), for build hosts whose
 * headers lack <linux/trace_mmap.h>. Layout: offset 0 of per_cpu/cpuN/trace_pipe_raw holds
 * meta_page_size bytes of meta area (this struct first); sub-buffer k starts at
 * meta_page_size + k * subbuf_size. Fields change under a reader: load them atomically and
 * take one snapshot per GET_READER.
 */
#ifndef AUXTRACE_INTERNAL_TRACE_MMAP_H
#define AUXTRACE_INTERNAL_TRACE_MMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#ifndef TRACE_MMAP_IOCTL_GET_READER
/*
 * Hand the reader the next sub-buffer (or account what the writer appended to the current
 * one) and refresh the meta. _IO('R', 0x20); the pre-6.10 _IO('T', 0x1) was never released.
 */
#define TRACE_MMAP_IOCTL_GET_READER _IO('R', 0x20)
#endif

/*
 * Guarded by the uapi header's own include guard so that a future system header that
 * defines the struct does not clash with this copy.
 */
#ifndef _TRACE_MMAP_H_
struct trace_buffer_meta {
	uint32_t meta_page_size;	/* bytes of meta area = file offset of sub-buffer 0 */
	uint32_t meta_struct_len;	/* bytes of this struct the kernel fills in */

	uint32_t subbuf_size;		/* whole sub-buffer, header included */
	uint32_t nr_subbufs;		/* reader sub-buffer included */

	struct {
		uint64_t lost_events;	/* a hint: a swap moves the count into the sub-buffer */
		uint32_t id;		/* the sub-buffer the reader owns now */
		uint32_t read;		/* data bytes of it the kernel counts as consumed */
	} reader;

	uint64_t flags;
	uint64_t entries;		/* events written since the last reset */
	uint64_t overrun;		/* events overwritten (overwrite mode) */
	uint64_t read;			/* events consumed, by any reader */

	uint64_t Reserved1;		/* later kernels: pages_lost */
	uint64_t Reserved2;		/* later kernels: pages_touched */
};
#endif

_Static_assert(sizeof(struct trace_buffer_meta) == 80, "trace_buffer_meta is 80 bytes");
_Static_assert(offsetof(struct trace_buffer_meta, meta_page_size) == 0, "meta_page_size");
_Static_assert(offsetof(struct trace_buffer_meta, meta_struct_len) == 4, "meta_struct_len");
_Static_assert(offsetof(struct trace_buffer_meta, subbuf_size) == 8, "subbuf_size");
_Static_assert(offsetof(struct trace_buffer_meta, nr_subbufs) == 12, "nr_subbufs");
_Static_assert(offsetof(struct trace_buffer_meta, reader.lost_events) == 16, "lost_events");
_Static_assert(offsetof(struct trace_buffer_meta, reader.id) == 24, "reader.id");
_Static_assert(offsetof(struct trace_buffer_meta, reader.read) == 28, "reader.read");
_Static_assert(offsetof(struct trace_buffer_meta, flags) == 32, "flags");
_Static_assert(offsetof(struct trace_buffer_meta, entries) == 40, "entries");
_Static_assert(offsetof(struct trace_buffer_meta, overrun) == 48, "overrun");
_Static_assert(offsetof(struct trace_buffer_meta, read) == 56, "read");
_Static_assert(offsetof(struct trace_buffer_meta, Reserved1) == 64, "Reserved1");
_Static_assert(offsetof(struct trace_buffer_meta, Reserved2) == 72, "Reserved2");
_Static_assert(TRACE_MMAP_IOCTL_GET_READER == 0x5220, "GET_READER is _IO('R', 0x20)");

#endif
