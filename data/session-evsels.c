// SPDX-License-Identifier: LGPL-2.1
/*
 * The session's evsels: attrs read from the file and checked, the sample IDs each one owns
 * (the ID hash, with where ID_INDEX says each ID was recorded), and which evsel a record
 * belongs to.
 */
#include <stdlib.h>
#include <string.h>

#include <internal/evsel.h>
#include <internal/session.h>

/* ---- evsels from attrs, and where their records carry the sample ID ---- */

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

/* ---- attrs as the file stores them ---- */

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

/* ---- the ID hash: which evsel each sample ID belongs to ---- */

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

int perf_session__add_id(struct perf_session *s, struct evsel *evsel, uint64_t id)
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
