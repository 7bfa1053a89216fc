/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The AUXTRACE index: where each PERF_RECORD_AUXTRACE lies in a perf.data file, so that a
 * decoder can queue the AUX data without reading the whole file. perf.data keeps it in the
 * HEADER_AUXTRACE feature section (bit 18):
 *
 *	u64 nr;
 *	struct { u64 file_offset; u64 sz; } entries[nr];
 *
 * file_offset is where an AUXTRACE record's header starts, sz its header.size (48; the
 * payload is not counted). Native byte order; a reader of a foreign-endian file swaps.
 * A recorder adds one entry per AUXTRACE record written to a regular file (none for a
 * pipe: it cannot be seeked back to).
 */
#ifndef AUXTRACE_AUXTRACE_INDEX_H
#define AUXTRACE_AUXTRACE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct auxtrace_index_entry {
	uint64_t file_offset;
	uint64_t sz;
};

/*
 * Entries are kept in chunks of 256 that never move: an entry pointer stays valid. A NULL
 * index is a legal empty one to the functions that only read it (__nr, __entry,
 * __section_size, __write), as a NULL cpu map is; those that change it (__add, __read)
 * refuse it with -EINVAL.
 */
struct auxtrace_index;

/* auxtrace_index__new() returns an empty index (auxtrace_index__delete); NULL + ENOMEM. */
AUXTRACE_API struct auxtrace_index *auxtrace_index__new(void);
/* auxtrace_index__delete() frees index and its entries (NULL: nothing). */
AUXTRACE_API void auxtrace_index__delete(struct auxtrace_index *index);

/* auxtrace_index__add() appends one entry. Returns 0 or -errno: ENOMEM, EINVAL (index NULL). */
AUXTRACE_API int auxtrace_index__add(struct auxtrace_index *index, uint64_t file_offset,
				     uint64_t sz);
/* auxtrace_index__nr() returns how many entries it holds (0 for NULL). */
AUXTRACE_API size_t auxtrace_index__nr(const struct auxtrace_index *index);
/*
 * auxtrace_index__entry() returns the i-th entry in the order added (borrowed: valid while
 * index lives), NULL past the end (always, for a NULL index).
 */
AUXTRACE_API const struct auxtrace_index_entry *
auxtrace_index__entry(const struct auxtrace_index *index, size_t i);

/*
 * auxtrace_index__section_size() returns the bytes of its HEADER_AUXTRACE section: 8 + 16 * nr
 * (8 for NULL).
 */
AUXTRACE_API uint64_t auxtrace_index__section_size(const struct auxtrace_index *index);

/*
 * auxtrace_index__write() writes the section at fd's current offset, straight from the
 * chunks (no copy); short writes are retried; a NULL index writes the empty section (nr 0).
 * Returns 0 or -errno from write(2), not logged.
 */
AUXTRACE_API int auxtrace_index__write(const struct auxtrace_index *index, int fd);

/*
 * auxtrace_index__read() reads a section of section_size bytes at fd's current offset and
 * appends its entries, byte-swapping each u64 when needs_swap (a file of the other
 * endianness). Returns 0 or -errno: -EINVAL when nr does not fit the section or the file ends
 * inside it (then nothing is appended), or index is NULL, -ENOMEM, or -errno from read.
 */
AUXTRACE_API int auxtrace_index__read(struct auxtrace_index *index, int fd,
				      uint64_t section_size, bool needs_swap);

#ifdef __cplusplus
}
#endif
#endif
