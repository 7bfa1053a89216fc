// SPDX-License-Identifier: LGPL-2.1
/* The AUXTRACE index and its HEADER_AUXTRACE section (auxtrace/auxtrace-index.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include <auxtrace/auxtrace-index.h>
#include <auxtrace/ring.h>

#include <internal/lib.h>

#define AUXTRACE_INDEX_CHUNK 256

struct auxtrace_index {
	struct auxtrace_index_entry **chunks;	/* each AUXTRACE_INDEX_CHUNK entries */
	size_t nr_chunks;
	size_t nr;
};

struct auxtrace_index *auxtrace_index__new(void)
{
	struct auxtrace_index *index = calloc(1, sizeof(*index));

	return index ? index : libauxtrace__ptr_err(-ENOMEM);
}

void auxtrace_index__delete(struct auxtrace_index *index)
{
	size_t i;

	if (!index)
		return;
	for (i = 0; i < index->nr_chunks; i++)
		free(index->chunks[i]);
	free(index->chunks);
	free(index);
}

/* Room for `total` entries: allocate the chunks they fall in. */
static int auxtrace_index__reserve(struct auxtrace_index *index, size_t total)
{
	size_t need = (total + AUXTRACE_INDEX_CHUNK - 1) / AUXTRACE_INDEX_CHUNK;
	struct auxtrace_index_entry **chunks;

	if (need <= index->nr_chunks)
		return 0;
	chunks = realloc(index->chunks, need * sizeof(*chunks));
	if (!chunks)
		return -ENOMEM;
	index->chunks = chunks;
	while (index->nr_chunks < need) {
		chunks[index->nr_chunks] = malloc(AUXTRACE_INDEX_CHUNK * sizeof(**chunks));
		if (!chunks[index->nr_chunks])
			return -ENOMEM;
		index->nr_chunks++;
	}
	return 0;
}

static struct auxtrace_index_entry *auxtrace_index__slot(const struct auxtrace_index *index,
							 size_t i)
{
	return &index->chunks[i / AUXTRACE_INDEX_CHUNK][i % AUXTRACE_INDEX_CHUNK];
}

int auxtrace_index__add(struct auxtrace_index *index, uint64_t file_offset, uint64_t sz)
{
	struct auxtrace_index_entry *e;
	int err;

	if (!index)
		return libauxtrace__err(-EINVAL);
	err = auxtrace_index__reserve(index, index->nr + 1);
	if (err)
		return libauxtrace__err(err);
	e = auxtrace_index__slot(index, index->nr++);
	e->file_offset = file_offset;
	e->sz = sz;
	return 0;
}

/* A NULL index reads as an empty one, as a NULL cpu map does (auxtrace-index.h). */
size_t auxtrace_index__nr(const struct auxtrace_index *index)
{
	return index ? index->nr : 0;
}

const struct auxtrace_index_entry *auxtrace_index__entry(const struct auxtrace_index *index,
							 size_t i)
{
	return i < auxtrace_index__nr(index) ? auxtrace_index__slot(index, i) : NULL;
}

uint64_t auxtrace_index__section_size(const struct auxtrace_index *index)
{
	return sizeof(uint64_t) + auxtrace_index__nr(index) * sizeof(struct auxtrace_index_entry);
}

/*
 * Straight from the chunks through an fd sink (it retries short writes), RING_MAX_IOV
 * pieces at a time: the count, then each chunk's used entries.
 */
int auxtrace_index__write(const struct auxtrace_index *index, int fd)
{
	uint64_t nr = auxtrace_index__nr(index);
	size_t nr_chunks = (nr + AUXTRACE_INDEX_CHUNK - 1) / AUXTRACE_INDEX_CHUNK;
	struct iovec iov[RING_MAX_IOV];
	struct ring_sink_fd out;
	size_t chunk = 0;
	int n = 0;

	ring_sink_fd__init(&out, fd);
	iov[n++] = (struct iovec){ &nr, sizeof(nr) };
	for (;;) {
		ssize_t ret;

		for (; n < RING_MAX_IOV && chunk < nr_chunks; chunk++) {
			size_t left = nr - chunk * AUXTRACE_INDEX_CHUNK;
			size_t used = left < AUXTRACE_INDEX_CHUNK ? left : AUXTRACE_INDEX_CHUNK;

			iov[n++] = (struct iovec){ index->chunks[chunk],
						   used * sizeof(**index->chunks) };
		}
		ret = out.sink.push(&out.sink, iov, n);
		if (ret < 0)
			return libauxtrace__err((int)ret);
		if (chunk == nr_chunks)
			return 0;
		n = 0;
	}
}

/* Read exactly len bytes; -EINVAL when the file ends first. */
static int auxtrace__read_all(int fd, void *buf, size_t len)
{
	ssize_t n = libauxtrace__read_full(fd, buf, len);

	if (n < 0)
		return (int)n;
	return (size_t)n < len ? -EINVAL : 0;
}

static uint64_t auxtrace__u64(uint64_t v, bool swap)
{
	return swap ? __builtin_bswap64(v) : v;
}

static int auxtrace_index__read_entries(struct auxtrace_index *index, int fd, uint64_t nr,
					bool needs_swap)
{
	size_t first = index->nr, i;
	int err = 0;

	/*
	 * A chunk at a time, read into its final place: one read per 256 entries, and a
	 * file that ends early fails before a huge nr made us allocate for all of it.
	 */
	for (i = first; !err && i < first + nr; ) {
		size_t room = AUXTRACE_INDEX_CHUNK - i % AUXTRACE_INDEX_CHUNK;
		size_t n = first + nr - i < room ? first + nr - i : room;

		err = auxtrace_index__reserve(index, i + n);
		if (!err)
			err = auxtrace__read_all(fd, auxtrace_index__slot(index, i),
						 n * sizeof(struct auxtrace_index_entry));
		i += n;
	}
	if (err)
		return err;
	for (i = first; i < first + nr; i++) {
		struct auxtrace_index_entry *e = auxtrace_index__slot(index, i);

		e->file_offset = auxtrace__u64(e->file_offset, needs_swap);
		e->sz = auxtrace__u64(e->sz, needs_swap);
	}
	index->nr = first + nr;
	return 0;
}

int auxtrace_index__read(struct auxtrace_index *index, int fd, uint64_t section_size,
			 bool needs_swap)
{
	const uint64_t entry_size = sizeof(struct auxtrace_index_entry);
	uint64_t nr;
	int err;

	if (!index)
		return libauxtrace__err(-EINVAL);
	if (section_size < sizeof(nr)) {
		pr_err("AUXTRACE index: section of %llu bytes cannot hold its entry count: the "
		       "file is damaged\n", (unsigned long long)section_size);
		return libauxtrace__err(-EINVAL);
	}
	err = auxtrace__read_all(fd, &nr, sizeof(nr));
	if (err)
		goto out;
	nr = auxtrace__u64(nr, needs_swap);
	if (nr > (section_size - sizeof(nr)) / entry_size || nr > SIZE_MAX / entry_size) {
		pr_err("AUXTRACE index: %llu entries do not fit its %llu-byte section: the file "
		       "is damaged (or its byte order was guessed wrong)\n",
		       (unsigned long long)nr, (unsigned long long)section_size);
		return libauxtrace__err(-EINVAL);
	}
	err = auxtrace_index__read_entries(index, fd, nr, needs_swap);
out:
	if (err == -EINVAL)
		pr_err("AUXTRACE index: the file ends inside its %llu-byte section: it is "
		       "truncated\n", (unsigned long long)section_size);
	return libauxtrace__err(err);
}
