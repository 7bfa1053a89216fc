// SPDX-License-Identifier: LGPL-2.1
/*
 * The AUXTRACE index reader (auxtrace_index__read, the HEADER_AUXTRACE section of a
 * perf.data file) on a memfd holding the input after one flags byte (bit 0: the file is of
 * the other byte order; bit 1: the section is claimed 8 bytes longer than the file, or
 * with bit 2 as long as the largest u64). A read appends every entry or none; what it
 * read is written back byte for byte (swapped for a file of the other byte order).
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include <auxtrace/auxtrace-index.h>
#include "fuzz.h"

static int memfd_with(const void *buf, size_t len)
{
	int fd = memfd_create("fuzz-auxtrace-index", MFD_CLOEXEC);

	fuzz__check(fd >= 0);
	fuzz__check(write(fd, buf, len) == (ssize_t)len);
	fuzz__check(lseek(fd, 0, SEEK_SET) == 0);
	return fd;
}

/* The index written out is the section read in, in this machine's byte order. */
static void check_round_trip(const struct auxtrace_index *index, const uint8_t *section,
			     size_t len, bool swap)
{
	int fd = memfd_create("fuzz-auxtrace-index-out", MFD_CLOEXEC);
	uint64_t *out = malloc(len), in;

	fuzz__check(fd >= 0 && out && len % 8 == 0);
	fuzz__check(auxtrace_index__write(index, fd) == 0);
	fuzz__check((uint64_t)lseek(fd, 0, SEEK_CUR) == auxtrace_index__section_size(index));
	fuzz__check(pread(fd, out, len, 0) == (ssize_t)len);
	for (size_t i = 0; i < len / 8; i++) {
		memcpy(&in, section + 8 * i, sizeof(in));
		fuzz__check(out[i] == (swap ? __builtin_bswap64(in) : in));
	}
	free(out);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct auxtrace_index *index;
	uint64_t section_size, nr;
	bool swap;
	int fd, ret;

	if (!size)
		return 0;
	fuzz__log_quietly();
	swap = data[0] & 1;
	section_size = data[0] & 4 ? UINT64_MAX : size - 1 + (data[0] & 2 ? 8 : 0);
	index = auxtrace_index__new();
	fuzz__check(index);
	/* An entry already there stays first: a read appends. */
	fuzz__check(auxtrace_index__add(index, 1, 48) == 0);
	fd = memfd_with(data + 1, size - 1);
	ret = auxtrace_index__read(index, fd, section_size, swap);
	if (ret) {
		fuzz__check(ret == -EINVAL && errno == EINVAL);
		fuzz__check(auxtrace_index__nr(index) == 1);
	} else {
		fuzz__check(size - 1 >= 8);
		memcpy(&nr, data + 1, sizeof(nr));
		if (swap)
			nr = __builtin_bswap64(nr);
		fuzz__check(auxtrace_index__nr(index) == 1 + nr);
		fuzz__check(auxtrace_index__section_size(index) == 8 + 16 * (1 + nr));
		fuzz__check(auxtrace_index__entry(index, 0)->file_offset == 1);
		fuzz__check(!auxtrace_index__entry(index, 1 + nr));
		if (nr) {
			/* Without the entry added first, the same bytes come back out. */
			struct auxtrace_index *alone = auxtrace_index__new();

			fuzz__check(lseek(fd, 0, SEEK_SET) == 0);
			fuzz__check(auxtrace_index__read(alone, fd, section_size, swap) == 0);
			check_round_trip(alone, data + 1, 8 + 16 * nr, swap);
			auxtrace_index__delete(alone);
		}
	}
	close(fd);
	auxtrace_index__delete(index);
	return 0;
}
