/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A test double of the kernel's side of the AUX protocol, in shared memory: the control
 * page (aux_head/aux_tail/aux_offset/aux_size), the AUX pages, and optionally a data ring
 * that receives PERF_RECORD_AUX (and PERF_RECORD_LOST) records. The library reaches it
 * through the same code as a real AUX area: its data ring is a memfd mapped by the data-ring
 * code, its AUX area is mapped through the library's one replaceable step, the mmap(2) of
 * the area (aux_producer__route_mmap()). Built into the test-support library that the
 * suites and the benchmarks link.
 *
 * Like the kernel: the AUX mapping is checked against the control page, a writable mapping
 * means full-trace mode (aux_tail honoured: data never overwritten unread), a read-only one
 * overwrite mode (aux_tail ignored; aux_head free-running or, with head_as_offset, an offset
 * within the buffer as Intel PT and BTS report it); data is published before aux_head
 * (release). A buffer that is not a power of two has its head wrap at the largest multiple
 * of its size below 2^64, so head % len stays continuous.
 */
#ifndef TESTS_AUX_PRODUCER_H
#define TESTS_AUX_PRODUCER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <auxtrace/auxtrace.h>

struct aux_producer;

struct aux_producer_config {
	/* Pages of a simulated data ring (a power of two) in the producer's memfd; 0: none,
	 * and the producer attaches to the control page the consumer maps the AUX area for
	 * (a real perf fd's ring, whose aux_head the kernel leaves alone without an AUX PMU). */
	unsigned int data_pages;
	/* Whole records of this size that never straddle the buffer's end (BTS: 24): the
	 * producer skips the gap at the end, which the consumer trims with itr->alignment. */
	size_t record_size;
	bool head_as_offset;	/* overwrite mode: aux_head = position % len */
	bool allow_non_pow2;	/* accept AUX sizes the kernel refuses, for the modulo paths */
	int mmap_errno;		/* make the AUX mmap fail with this errno (EPERM, ENOMEM...) */
};

struct aux_producer *aux_producer__new(const struct aux_producer_config *cfg);
/* Stops the thread and unmaps the producer's own views (the consumer unmaps its own). */
void aux_producer__delete(struct aux_producer *p);

/* Make the AUX mapping step of mm (or of every area of aux) lead to this producer. */
void aux_producer__route_mmap(struct aux_producer *p, struct auxtrace_mmap *mm);
struct auxtrace_mmaps;
void aux_producer__route_mmaps(struct aux_producer *p, struct auxtrace_mmaps *aux);
/* The memfd: map the simulated data ring from it (perf_mmap__new(fd, cpu, data_pages)). */
int aux_producer__fd(const struct aux_producer *p);
/* The control page as the producer sees it (NULL in attach mode until mapped). */
struct perf_event_mmap_page *aux_producer__userpg(const struct aux_producer *p);
size_t aux_producer__len(const struct aux_producer *p);
bool aux_producer__overwrite(const struct aux_producer *p);
/* Live consumer mappings of the AUX area. */
int aux_producer__nr_maps(const struct aux_producer *p);

/* Free-running producer position (what aux_head is in full-trace mode). */
uint64_t aux_producer__head(const struct aux_producer *p);
/* Put the head at pos and publish it, e.g. to start near 2^64 or to run past the tail. */
void aux_producer__set_head(struct aux_producer *p, uint64_t pos);

/*
 * Append bytes at the head and publish it. Full-trace: only what fits before aux_tail
 * (whole records with record_size); overwrite: everything. Returns the bytes written.
 */
size_t aux_producer__write(struct aux_producer *p, const void *buf, size_t len);
/*
 * One AUX transaction ended as the kernel ends it: write what fits, then a PERF_RECORD_AUX
 * {aux_offset = head before, aux_size = bytes written, flags} into the data ring, with
 * PERF_AUX_FLAG_TRUNCATED added when not everything fitted; a truncated full-trace event is
 * stopped (the driver disables it) until aux_producer__enable(). Returns the bytes written.
 */
size_t aux_producer__transaction(struct aux_producer *p, const void *buf, size_t len,
				 uint64_t flags);
/* PERF_EVENT_IOC_ENABLE as the simulated driver sees it; how many so far. */
void aux_producer__enable(struct aux_producer *p);
bool aux_producer__enabled(const struct aux_producer *p);
unsigned int aux_producer__nr_enables(const struct aux_producer *p);

/*
 * A producer thread. fill(ctx, pos, dst, len) writes the stream bytes [pos, pos + len)
 * straight into the AUX area (the producer never copies). Writes are `chunk` bytes
 * (pseudo-random 1..chunk with vary; whole records with record_size), each published as
 * soon as written; full-trace mode waits for aux_tail when the area is full. Runs until
 * aux_producer__stop() or `limit` stream bytes (0: no limit).
 */
struct aux_producer_run {
	void (*fill)(void *ctx, uint64_t pos, void *dst, size_t len);
	void *ctx;
	size_t chunk;
	bool vary;
	uint64_t limit;
};
int aux_producer__start(struct aux_producer *p, const struct aux_producer_run *run);
/* Stops and joins the thread; returns the stream bytes it produced. */
uint64_t aux_producer__stop(struct aux_producer *p);

#endif
