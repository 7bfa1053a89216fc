// SPDX-License-Identifier: LGPL-2.1
/* perf_session: opening perf.data (file or pipe format), its header, attrs and sample IDs. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <internal/evsel.h>
#include <internal/session.h>

/* The first perf.data magic ("PERFFILE"), from before 2009: refused by name. */
#define PERF_DATA_MAGIC_V1	0x454c494646524550ULL
/* A file header written before the feature bitmap existed. */
#define PERF_FILE_HEADER_SIZE_V0 offsetof(struct perf_file_header, adds_features)
#define PERF_STREAM_BUF		(256 * 1024)

int perf_session__corrupt(const struct perf_session *s, uint64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s: at file offset 0x%llx: %s: the file is damaged or truncated\n", s->path,
	       (unsigned long long)offset, msg);
	return libauxtrace__err(-EINVAL);
}

const char *perf_event__name(uint32_t type, char *buf, size_t size)
{
	static const char *const names[] = {
		[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_READ] = "READ",
		[PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
		[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
		[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
		[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
		[PERF_RECORD_HEADER_ATTR] = "HEADER_ATTR",
		[PERF_RECORD_HEADER_TRACING_DATA] = "HEADER_TRACING_DATA",
		[PERF_RECORD_HEADER_BUILD_ID] = "HEADER_BUILD_ID",
		[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
		[PERF_RECORD_ID_INDEX] = "ID_INDEX", [PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
		[PERF_RECORD_AUXTRACE] = "AUXTRACE", [PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
		[PERF_RECORD_THREAD_MAP] = "THREAD_MAP", [PERF_RECORD_CPU_MAP] = "CPU_MAP",
		[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG", [PERF_RECORD_STAT] = "STAT",
		[PERF_RECORD_STAT_ROUND] = "STAT_ROUND", [PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
		[PERF_RECORD_TIME_CONV] = "TIME_CONV", [PERF_RECORD_HEADER_FEATURE] = "HEADER_FEATURE",
		[PERF_RECORD_COMPRESSED] = "COMPRESSED", [PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	};

	if (type < ARRAY_SIZE(names) && names[type])
		return names[type];
	snprintf(buf, size, "type %u", type);
	return buf;
}

/* ---- sample IDs ---- */

static unsigned int perf_sid__bucket(uint64_t id)
{
	return (unsigned int)((id * 0x9E3779B97F4A7C15ull) >> 56) % PERF_SID_BUCKETS;
}

struct perf_sid *perf_session__sid(const struct perf_session *s, uint64_t id)
{
	struct perf_sid *sid;

	for (sid = s->sid_hash[perf_sid__bucket(id)]; sid; sid = sid->next)
		if (sid->id == id)
			return sid;
	return NULL;
}

/*
 * Where a record carries its sample ID, as perf finds it: id_pos counts u64s from the start
 * of a sample, is_pos from the end of a sample_id_all trailer. -1: it has none.
 */
static int sample_type__id_pos(uint64_t type)
{
	if (type & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(type & PERF_SAMPLE_ID))
		return -1;
	return __builtin_popcountll(type & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					    PERF_SAMPLE_ADDR));
}

static int sample_type__is_pos(uint64_t type)
{
	if (type & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(type & PERF_SAMPLE_ID))
		return -1;
	return 1 + __builtin_popcountll(type & (PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID));
}

#define PERF_SAMPLE_KNOWN (PERF_SAMPLE_MAX - 1)

/* Every evsel must put its ID where the first one does, or records cannot be told apart. */
static int perf_session__check_attr(struct perf_session *s, const struct perf_event_attr *attr,
				    uint64_t offset)
{
	const struct perf_event_attr *first;

	if (attr->sample_type & ~(uint64_t)PERF_SAMPLE_KNOWN)
		return perf_session__corrupt(s, offset, "attr %d has sample_type %#llx with bits "
					     "this reader does not know (%#llx)", s->nr_evsels,
					     (unsigned long long)attr->sample_type,
					     (unsigned long long)(attr->sample_type &
								  ~(uint64_t)PERF_SAMPLE_KNOWN));
	if (!s->nr_evsels)
		return 0;
	first = evsel__attr(s->evsel_ids[0].evsel);
	if (sample_type__id_pos(attr->sample_type) != s->id_pos ||
	    sample_type__is_pos(attr->sample_type) != s->is_pos || s->id_pos < 0)
		return perf_session__corrupt(s, offset, "attr %d (sample_type %#llx) and attr 0 "
					     "(%#llx) do not carry a sample ID at the same place, "
					     "so records cannot be matched to events",
					     s->nr_evsels, (unsigned long long)attr->sample_type,
					     (unsigned long long)first->sample_type);
	if (attr->sample_id_all != first->sample_id_all)
		return perf_session__corrupt(s, offset, "attr %d and attr 0 disagree on "
					     "sample_id_all", s->nr_evsels);
	return 0;
}

static int perf_session__add_id(struct perf_session *s, struct evsel *evsel, uint64_t id)
{
	struct perf_sid *sid = perf_session__sid(s, id);

	if (!sid) {
		sid = calloc(1, sizeof(*sid));
		if (!sid)
			return -ENOMEM;
		sid->id = id;
		sid->next = s->sid_hash[perf_sid__bucket(id)];
		s->sid_hash[perf_sid__bucket(id)] = sid;
	}
	sid->where = (struct evlist_sample_id){ .evsel = evsel, .idx = -1,
						.cpu = { -1 }, .tid = -1 };
	return 0;
}

int perf_session__add_evsel(struct perf_session *s, const struct perf_event_attr *attr,
			    const void *ids, size_t nr_ids, bool swap)
{
	struct perf_evsel_ids *e, *arr;
	struct evsel *evsel;
	size_t i;
	int err;

	arr = realloc(s->evsel_ids, (s->nr_evsels + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	s->evsel_ids = arr;
	evsel = evsel__new(attr);
	if (!evsel)
		return -ENOMEM;
	e = &arr[s->nr_evsels];
	e->evsel = evsel;
	e->nr = nr_ids;
	e->ids = nr_ids ? malloc(nr_ids * sizeof(uint64_t)) : NULL;
	if (nr_ids && !e->ids) {
		evsel__delete(evsel);
		return -ENOMEM;
	}
	err = evlist__add(s->evlist, evsel);
	if (err) {
		free(e->ids);
		evsel__delete(evsel);
		return err;
	}
	s->nr_evsels++;
	if (s->nr_evsels == 1) {
		s->id_pos = sample_type__id_pos(attr->sample_type);
		s->is_pos = sample_type__is_pos(attr->sample_type);
		s->sample_id_all = attr->sample_id_all;
	}
	for (i = 0; i < nr_ids; i++) {
		e->ids[i] = perf_u64((const uint64_t *)ids + i, swap);
		err = perf_session__add_id(s, evsel, e->ids[i]);
		if (err)
			return err;
	}
	return 0;
}

/* perf's rule: one evsel, or no sample_id_all on a side-band record, or ID 0 (records perf
 * synthesized): the first evsel; otherwise the one its ID names. */
struct evsel *perf_session__event_evsel(struct perf_session *s, const union perf_event *event,
				       bool raw)
{
	size_t n = (event->header.size - sizeof(event->header)) / sizeof(uint64_t);
	const uint64_t *array = event->sample.array;
	struct perf_sid *sid;
	uint64_t id;

	if (!s->nr_evsels)
		return NULL;
	if (s->nr_evsels == 1)
		return s->evsel_ids[0].evsel;
	if (event->header.type != PERF_RECORD_SAMPLE && !s->sample_id_all)
		return s->evsel_ids[0].evsel;
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if ((size_t)s->id_pos >= n)
			return NULL;
		id = perf_u64(&array[s->id_pos], raw && s->needs_swap);
	} else {
		if ((size_t)s->is_pos > n)
			return NULL;
		id = perf_u64(&array[n - s->is_pos], raw && s->needs_swap);
	}
	if (!id)
		return s->evsel_ids[0].evsel;
	sid = perf_session__sid(s, id);
	return sid ? sid->where.evsel : NULL;
}

int perf_session__process_id_index(struct perf_session *s, const union perf_event *event,
				   uint64_t offset)
{
	const struct perf_record_id_index *ii = &event->id_index;
	uint64_t max = (ii->header.size - sizeof(*ii)) / sizeof(ii->entries[0]), i;

	if (ii->header.size < sizeof(*ii) || ii->nr > max)
		return perf_session__corrupt(s, offset, "ID_INDEX of %u bytes cannot hold %llu "
					     "entries", ii->header.size,
					     (unsigned long long)ii->nr);
	for (i = 0; i < ii->nr; i++) {
		const struct perf_record_id_index_entry *e = &ii->entries[i];
		struct perf_sid *sid = perf_session__sid(s, e->id);

		if (!sid) {
			pr_debug("%s: ID_INDEX at %#llx names ID %llu of no attr\n", s->path,
				 (unsigned long long)offset, (unsigned long long)e->id);
			continue;
		}
		sid->where.idx = (int)e->idx;
		sid->where.cpu.cpu = (int)e->cpu;
		sid->where.tid = (pid_t)e->tid;
	}
	return 0;
}

/* ---- the file format header ---- */

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

/*
 * An attr as the writer stored it (stored bytes of it, in its byte order) into a native
 * one of this build: a shorter one zero-filled, a longer one only when what we do not know
 * of it is zero.
 */
int perf_session__read_attr(struct perf_session *s, const void *raw, size_t stored,
			    struct perf_event_attr *attr, uint64_t offset, bool swap)
{
	size_t n = stored < sizeof(*attr) ? stored : sizeof(*attr), i;
	uint32_t size;

	memset(attr, 0, sizeof(*attr));
	memcpy(attr, raw, n);
	if (swap)
		perf_event_attr__swap(attr, n);
	size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > stored)
		return perf_session__corrupt(s, offset, "attr %d says it has %u bytes, its "
					     "entry holds %zu", s->nr_evsels, size, stored);
	for (i = sizeof(*attr); i < size; i++)
		if (((const unsigned char *)raw)[i])
			return perf_session__corrupt(s, offset, "attr %d has %u bytes and uses "
						     "some past the %zu this reader knows (a "
						     "newer perf wrote it)", s->nr_evsels, size,
						     sizeof(*attr));
	if (size < sizeof(*attr))
		memset((char *)attr + size, 0, sizeof(*attr) - size);
	attr->size = sizeof(*attr);
	return perf_session__check_attr(s, attr, offset);
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

struct perf_session *perf_session__new_fd(int fd, const struct perf_session_opts *opts)
{
	struct perf_session *s = calloc(1, sizeof(*s));
	char name[32];
	int err = -ENOMEM;

	if (!s)
		return libauxtrace__ptr_err(-ENOMEM);
	s->fd = fd;
	s->stream.fd = -1;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	if (s->opts.cpus)
		perf_cpu_map__get(s->opts.cpus);
	snprintf(name, sizeof(name), "perf.data fd %d", fd);
	s->path = strdup(name);
	s->evlist = evlist__new();
	s->scratch = malloc(64 * 1024 + 8);
	s->oe = ordered_events__new();
	if (s->path && s->evlist && s->scratch && s->oe)
		err = perf_session__open_source(s);
	if (err) {
		perf_session__delete(s);
		return libauxtrace__ptr_err(err);
	}
	return s;
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
	s = perf_session__new_fd(fd, opts);
	if (!s) {
		err = errno;
		if (!is_stdin)
			close(fd);
		return libauxtrace__ptr_err(err);
	}
	s->owns_fd = !is_stdin;
	free(s->path);
	s->path = strdup(is_stdin ? "pipe" : path);
	if (!s->path) {
		perf_session__delete(s);
		return libauxtrace__ptr_err(-ENOMEM);
	}
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

bool perf_session__map_offset(const struct perf_session *s, const void *ptr, uint64_t *offset)
{
	const unsigned char *p = ptr;

	if (!s->map || p < s->map || p >= s->map + s->file_size || s->needs_swap)
		return false;
	*offset = p - s->map;
	return true;
}

/* ---- accessors ---- */

bool perf_session__is_pipe(const struct perf_session *s)
{
	return s->pipe_format;
}

bool perf_session__is_mapped(const struct perf_session *s)
{
	return s->map != NULL;
}

bool perf_session__needs_swap(const struct perf_session *s)
{
	return s->needs_swap;
}

const struct perf_file_header *perf_session__header(const struct perf_session *s)
{
	return &s->header;
}

uint64_t perf_session__size(const struct perf_session *s)
{
	return s->map ? s->file_size : s->stream.offset + s->stream.len - s->stream.pos;
}

struct evlist *perf_session__evlist(const struct perf_session *s)
{
	return s->evlist;
}

const uint64_t *perf_session__evsel_ids(const struct perf_session *s, const struct evsel *evsel,
					size_t *nr)
{
	int i;

	for (i = 0; i < s->nr_evsels; i++) {
		if (s->evsel_ids[i].evsel == evsel) {
			*nr = s->evsel_ids[i].nr;
			return s->evsel_ids[i].ids;
		}
	}
	*nr = 0;
	return NULL;
}

int perf_session__id_lookup(const struct perf_session *s, uint64_t id,
			    struct evlist_sample_id *out)
{
	const struct perf_sid *sid = perf_session__sid(s, id);

	if (!sid)
		return libauxtrace__err(-ENOENT);
	*out = sid->where;
	return 0;
}

bool perf_session__has_feat(const struct perf_session *s, int feat)
{
	return feat >= 0 && feat < HEADER_FEAT_BITS && s->feat_data[feat];
}

const void *perf_session__feature(const struct perf_session *s, int feat, size_t *size)
{
	if (!perf_session__has_feat(s, feat)) {
		*size = 0;
		return NULL;
	}
	*size = s->feat_sec[feat].size;
	return s->feat_data[feat];
}

const struct perf_env *perf_session__env(const struct perf_session *s)
{
	return &s->env;
}

const struct perf_record_time_conv *perf_session__time_conv(const struct perf_session *s)
{
	return s->has_time_conv ? &s->time_conv : NULL;
}

const struct auxtrace_index *perf_session__auxtrace_index(const struct perf_session *s)
{
	return s->auxtrace_index;
}

struct auxtrace *perf_session__auxtrace(const struct perf_session *s)
{
	return s->auxtrace;
}

const struct perf_session_stats *perf_session__stats(const struct perf_session *s)
{
	return &s->stats;
}
