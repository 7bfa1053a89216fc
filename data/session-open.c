// SPDX-License-Identifier: LGPL-2.1
/*
 * Opening a perf.data, file or pipe format (the file format's header, attrs and feature
 * table; the pipe format's first records), and closing it. The top of the reader: it calls
 * the others, none of them calls it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <internal/evsel.h>
#include <internal/opts.h>
#include <internal/session.h>

/* The first perf.data magic ("PERFFILE"), from before 2009: refused by name. */
#define PERF_DATA_MAGIC_V1	0x454c494646524550ULL
/* A file header written before the feature bitmap existed. */
#define PERF_FILE_HEADER_SIZE_V0 offsetof(struct perf_file_header, adds_features)
#define PERF_STREAM_BUF		(256 * 1024)

static bool section__inside(const struct perf_file_section *sec, uint64_t file_size)
{
	return sec->offset <= file_size && sec->size <= file_size - sec->offset;
}

static void perf_file_header__swap(struct perf_file_header *h)
{
	uint64_t *w = (uint64_t *)h;
	size_t i;

	for (i = 0; i < sizeof(*h) / sizeof(*w); i++)
		w[i] = __builtin_bswap64(w[i]);
}

static int perf_session__read_attrs(struct perf_session *s)
{
	const struct perf_file_header *h = &s->header;
	uint64_t nr, i;

	if (h->attr_size < sizeof(struct perf_file_section) + PERF_ATTR_SIZE_VER0 ||
	    h->attr_size > 64 * 1024)
		return perf_session__corrupt(s, 16, "attr_size %llu is not the size of an attr "
					     "entry (%zu to 64 KiB)",
					     (unsigned long long)h->attr_size,
					     sizeof(struct perf_file_section) + PERF_ATTR_SIZE_VER0);
	if (!section__inside(&h->attrs, s->file_size) || h->attrs.size % h->attr_size)
		return perf_session__corrupt(s, 24, "the attrs section [%#llx, +%llu) is not "
					     "whole %llu-byte entries inside the %llu-byte file",
					     (unsigned long long)h->attrs.offset,
					     (unsigned long long)h->attrs.size,
					     (unsigned long long)h->attr_size,
					     (unsigned long long)s->file_size);
	nr = h->attrs.size / h->attr_size;
	if (!nr)
		return perf_session__corrupt(s, 24, "the attrs section is empty: a recording "
					     "has at least one event");
	for (i = 0; i < nr; i++) {
		uint64_t at = h->attrs.offset + i * h->attr_size;
		size_t stored = h->attr_size - sizeof(struct perf_file_section);
		const unsigned char *raw = s->map + at;
		struct perf_file_section ids;
		struct perf_event_attr attr;
		int err = perf_session__read_attr(s, raw, stored, &attr, at, s->needs_swap);

		if (err)
			return err;
		ids.offset = perf_u64(raw + stored, s->needs_swap);
		ids.size = perf_u64(raw + stored + 8, s->needs_swap);
		if (!section__inside(&ids, s->file_size) || ids.size % sizeof(uint64_t))
			return perf_session__corrupt(s, at + stored, "attr %llu's IDs [%#llx, "
						     "+%llu) are not whole u64s inside the file",
						     (unsigned long long)i,
						     (unsigned long long)ids.offset,
						     (unsigned long long)ids.size);
		err = perf_session__add_evsel(s, &attr, s->map + ids.offset,
					      ids.size / sizeof(uint64_t), s->needs_swap);
		if (err)
			return libauxtrace__err(err);
	}
	return 0;
}

static int perf_session__read_features(struct perf_session *s)
{
	const struct perf_file_header *h = &s->header;
	uint64_t table = s->data_end, nr = 0, left;
	int feat;

	for (feat = 0; feat < HEADER_FEAT_BITS; feat++)
		nr += (h->adds_features[feat / 64] >> (feat % 64)) & 1;
	left = s->file_size - table;
	if (nr > left / sizeof(struct perf_file_section))
		return perf_session__corrupt(s, table, "the table of %llu feature sections "
					     "needs %llu bytes, the file has %llu after the data",
					     (unsigned long long)nr, (unsigned long long)nr * 16,
					     (unsigned long long)left);
	for (feat = 0; feat < HEADER_FEAT_BITS; feat++) {
		struct perf_file_section *sec = &s->feat_sec[feat];
		int err;

		if (!((h->adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		sec->offset = perf_u64(s->map + table, s->needs_swap);
		sec->size = perf_u64(s->map + table + 8, s->needs_swap);
		if (!section__inside(sec, s->file_size))
			return perf_session__corrupt(s, table, "feature %d's section [%#llx, "
						     "+%llu) ends past the %llu-byte file", feat,
						     (unsigned long long)sec->offset,
						     (unsigned long long)sec->size,
						     (unsigned long long)s->file_size);
		table += sizeof(*sec);
		s->feat_data[feat] = s->map + sec->offset;
		err = perf_session__process_feature(s, feat, s->map + sec->offset, sec->size,
						    sec->offset);
		if (err)
			return err;
	}
	return 0;
}

static int perf_session__open_file_format(struct perf_session *s)
{
	struct perf_file_header *h = &s->header;
	uint64_t size = perf_u64(s->map + 8, s->needs_swap);

	if (size != sizeof(*h) && size != PERF_FILE_HEADER_SIZE_V0)
		return perf_session__corrupt(s, 8, "header size %llu is neither %zu (the file "
					     "format) nor 16 (the pipe format)",
					     (unsigned long long)size, sizeof(*h));
	if (s->file_size < size)
		return perf_session__corrupt(s, 0, "the file has %llu bytes, its header %llu",
					     (unsigned long long)s->file_size,
					     (unsigned long long)size);
	memset(h, 0, sizeof(*h));
	memcpy(h, s->map, size);
	if (s->needs_swap)
		perf_file_header__swap(h);
	if (!section__inside(&h->data, s->file_size))
		return perf_session__corrupt(s, 40, "the data section [%#llx, +%llu) ends past "
					     "the end of the %llu-byte file",
					     (unsigned long long)h->data.offset,
					     (unsigned long long)h->data.size,
					     (unsigned long long)s->file_size);
	if (h->data.offset < size)
		return perf_session__corrupt(s, 40, "the data section starts at %#llx, inside "
					     "the header", (unsigned long long)h->data.offset);
	s->data_offset = h->data.offset;
	s->data_end = h->data.offset + h->data.size;
	if (!h->data.size && s->file_size > s->data_offset) {
		pr_warn("%s: the header says the data section is empty, yet the file goes on: "
			"the recorder did not finish; reading records to the end of the file\n",
			s->path);
		s->data_end = s->file_size;
		memset(h->adds_features, 0, sizeof(h->adds_features));
	}
	s->pos = s->data_offset;
	return perf_session__read_attrs(s) ?: perf_session__read_features(s);
}

static int perf_session__open_source(struct perf_session *s)
{
	unsigned char head[16];
	struct stat st;
	uint64_t magic, size;

	if (fstat(s->fd, &st))
		return libauxtrace__err(-errno);
	if (S_ISREG(st.st_mode)) {
		s->file_size = st.st_size;
		if (s->file_size < sizeof(head))
			return perf_session__corrupt(s, 0, "the file has %llu bytes, less than "
						     "any perf.data header",
						     (unsigned long long)s->file_size);
		s->map = mmap(NULL, s->file_size, PROT_READ, MAP_SHARED, s->fd, 0);
		if (s->map == MAP_FAILED) {
			s->map = NULL;
			pr_err("%s: cannot map it (%s)\n", s->path, strerror(errno));
			return libauxtrace__err(-errno);
		}
		memcpy(head, s->map, sizeof(head));
	} else {
		ssize_t n;

		s->stream.fd = s->fd;
		s->stream.cap = PERF_STREAM_BUF;
		s->stream.buf = malloc(s->stream.cap);
		if (!s->stream.buf)
			return -ENOMEM;
		n = libauxtrace__read_full(s->fd, head, sizeof(head));
		if (n < 0)
			return libauxtrace__err((int)n);
		if (n < (ssize_t)sizeof(head))
			return perf_session__corrupt(s, n, "the stream ended after %zd bytes, "
						     "inside the header", n);
		s->stream.offset = sizeof(head);
	}
	magic = perf_u64(head, false);
	if (magic == __builtin_bswap64(PERF_DATA_MAGIC))
		s->needs_swap = true;
	else if (magic == PERF_DATA_MAGIC_V1 || magic == __builtin_bswap64(PERF_DATA_MAGIC_V1))
		return perf_session__corrupt(s, 0, "this is perf.data version 1 (\"PERFFILE\"), "
					     "which no perf since 2009 writes: record again");
	else if (magic != PERF_DATA_MAGIC)
		return perf_session__corrupt(s, 0, "no \"PERFILE2\" magic: not a perf.data file");
	size = perf_u64(head + 8, s->needs_swap);
	if (size == sizeof(struct perf_pipe_file_header)) {
		s->pipe_format = true;
		s->header.magic = PERF_DATA_MAGIC;
		s->header.size = size;
		s->data_offset = s->pos = size;
		s->data_end = s->map ? s->file_size : UINT64_MAX;
		return perf_session__read_pipe_header(s);
	}
	if (!s->map)
		return perf_session__corrupt(s, 8, "a perf.data file in the file format cannot "
					     "be read from a pipe: give its path, or record with "
					     "`-o -` for a pipe");
	return perf_session__open_file_format(s);
}

/* A session on fd, named in its messages by name (the path, "pipe", or "perf.data fd N"). */
static struct perf_session *perf_session__new_named(int fd, const struct perf_session_opts *opts,
						    const char *name)
{
	struct perf_session *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return libauxtrace__ptr_err(-ENOMEM);
	err = opts__copy(perf_session_opts, &s->opts, opts);
	if (err) {
		free(s);
		return libauxtrace__ptr_err(err);
	}
	s->fd = fd;
	s->stream.fd = -1;
	if (s->opts.cpus)
		perf_cpu_map__get(s->opts.cpus);
	s->path = strdup(name);
	s->evlist = evlist__new();
	s->scratch = malloc(64 * 1024 + 8);
	s->oe = ordered_events__new();
	err = s->path && s->evlist && s->scratch && s->oe ? perf_session__open_source(s) : -ENOMEM;
	if (err) {
		perf_session__delete(s);
		return libauxtrace__ptr_err(err);
	}
	return s;
}

struct perf_session *perf_session__new_fd(int fd, const struct perf_session_opts *opts)
{
	char name[32];

	snprintf(name, sizeof(name), "perf.data fd %d", fd);
	return perf_session__new_named(fd, opts, name);
}

struct perf_session *perf_session__new(const char *path, const struct perf_session_opts *opts)
{
	struct perf_session *s;
	bool is_stdin;
	int fd, err;

	if (!path)
		path = "perf.data";
	is_stdin = !strcmp(path, "-");
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		pr_err("%s: cannot open it (%s)\n", path, strerror(errno));
		return libauxtrace__ptr_err(err);
	}
	/* named by its path from the start: the header's checks already say where */
	s = perf_session__new_named(fd, opts, is_stdin ? "pipe" : path);
	if (!s) {
		err = errno;
		if (!is_stdin)
			close(fd);
		return libauxtrace__ptr_err(err);
	}
	s->owns_fd = !is_stdin;
	return s;
}

void perf_session__delete(struct perf_session *s)
{
	int i;

	if (!s)
		return;
	if (s->auxtrace && s->aux_ops.free)
		s->aux_ops.free(s->auxtrace, s);
	perf_session__release_payload(s);
	perf_decomp__delete(s);
	ordered_events__delete(s->oe);
	for (i = 0; i < PERF_SID_BUCKETS; i++) {
		while (s->sid_hash[i]) {
			struct perf_sid *next = s->sid_hash[i]->next;

			free(s->sid_hash[i]);
			s->sid_hash[i] = next;
		}
	}
	for (i = 0; i < s->nr_evsels; i++)
		free(s->evsel_ids[i].ids);
	free(s->evsel_ids);
	evlist__delete(s->evlist);
	for (i = 0; i < HEADER_FEAT_BITS; i++)
		if (s->feat_owned[i])
			free((void *)s->feat_data[i]);
	perf_env__exit(s);
	auxtrace_index__delete(s->auxtrace_index);
	perf_cpu_map__put(s->opts.cpus);
	if (s->map)
		munmap((void *)s->map, s->file_size);
	free(s->stream.buf);
	free(s->scratch);
	if (s->owns_fd)
		close(s->fd);
	free(s->path);
	free(s);
}

