// SPDX-License-Identifier: LGPL-2.1
/*
 * AUX buffers and their queues (auxtrace/auxtrace-queues.h): built from the HEADER_AUXTRACE
 * index, from a walk of the data section, or from the stream as it comes; payloads mapped
 * from the file only while a decoder works on them, or copied from a pipe.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <auxtrace/auxtrace-queues.h>

#include <internal/session.h>

#define AUXTRACE_QUEUES_INIT 32

struct auxtrace_queues {
	struct auxtrace_queue **queue_array;	/* allocated on first use */
	unsigned int nr_queues;
	uint64_t next_buffer_nr;
	bool new_data;
	bool data_queued;
};

struct auxtrace_queues *auxtrace_queues__new(void)
{
	struct auxtrace_queues *q = calloc(1, sizeof(*q));

	if (!q)
		return libauxtrace__ptr_err(-ENOMEM);
	if (auxtrace_queues__grow(q, AUXTRACE_QUEUES_INIT)) {
		free(q);
		return libauxtrace__ptr_err(-ENOMEM);
	}
	return q;
}

static void auxtrace_buffer__free(struct auxtrace_buffer *buffer)
{
	auxtrace_buffer__drop_data(buffer);
	free(buffer);
}

void auxtrace_queues__delete(struct auxtrace_queues *q)
{
	unsigned int i;

	if (!q)
		return;
	for (i = 0; i < q->nr_queues; i++) {
		struct auxtrace_queue *queue = q->queue_array[i];

		while (queue && queue->head) {
			struct auxtrace_buffer *next = queue->head->next;

			auxtrace_buffer__free(queue->head);
			queue->head = next;
		}
		free(queue);
	}
	free(q->queue_array);
	free(q);
}

unsigned int auxtrace_queues__nr(const struct auxtrace_queues *q)
{
	return q->nr_queues;
}

struct auxtrace_queue *auxtrace_queues__queue(struct auxtrace_queues *q, unsigned int nr)
{
	struct auxtrace_queue *queue;

	if (nr >= q->nr_queues)
		return NULL;
	if (q->queue_array[nr])
		return q->queue_array[nr];
	queue = calloc(1, sizeof(*queue));
	if (!queue)
		return libauxtrace__ptr_err(-ENOMEM);
	queue->tid = -1;
	queue->cpu = -1;
	q->queue_array[nr] = queue;
	return queue;
}

int auxtrace_queues__grow(struct auxtrace_queues *q, unsigned int nr)
{
	unsigned int nr_queues = q->nr_queues ? q->nr_queues : AUXTRACE_QUEUES_INIT;
	struct auxtrace_queue **array;

	if (nr > AUXTRACE_QUEUES_MAX)
		return libauxtrace__err(-EINVAL);
	while (nr_queues < nr)
		nr_queues *= 2;
	if (nr_queues <= q->nr_queues)
		return 0;
	/* Queues are allocated one by one, so growing moves only pointers: a decoder's
	 * pointer to a queue stays valid. */
	array = realloc(q->queue_array, nr_queues * sizeof(*array));
	if (!array)
		return libauxtrace__err(-ENOMEM);
	memset(array + q->nr_queues, 0, (nr_queues - q->nr_queues) * sizeof(*array));
	q->queue_array = array;
	q->nr_queues = nr_queues;
	return 0;
}

/* perf script -C: buffers of other CPUs are not queued; a thread's ring (cpu -1) always is. */
static bool perf_session__cpu_filtered_out(const struct perf_session *s, int cpu)
{
	struct perf_cpu_map *cpus = s->opts.cpus;

	return cpus && cpu != -1 && perf_cpu_map__idx(cpus, (struct perf_cpu){ cpu }) < 0;
}

/* Takes buffer (freed on failure). */
static int auxtrace_queues__queue_buffer(struct auxtrace_queues *q, unsigned int idx,
					 struct auxtrace_buffer *buffer)
{
	struct auxtrace_queue *queue;
	int err = 0;

	if (idx >= q->nr_queues)
		err = auxtrace_queues__grow(q, idx + 1);
	queue = err ? NULL : auxtrace_queues__queue(q, idx);
	if (!queue) {
		if (!err)
			err = -ENOMEM;
		if (err == -EINVAL)
			pr_err("AUX buffer of mmap idx %u: more than %u rings cannot be: the file "
			       "is damaged\n", idx, AUXTRACE_QUEUES_MAX);
		auxtrace_buffer__free(buffer);
		return libauxtrace__err(err);
	}
	if (!queue->set) {
		queue->tid = buffer->tid;
		queue->cpu = buffer->cpu;
		queue->set = true;
	}
	buffer->buffer_nr = q->next_buffer_nr++;
	if (queue->tail)
		queue->tail->next = buffer;
	else
		queue->head = buffer;
	queue->tail = buffer;
	q->new_data = true;
	return 0;
}

/* session: the mapped session whose file holds the payload, NULL: none does. */
static struct auxtrace_buffer *auxtrace_buffer__new(struct perf_session *session)
{
	struct auxtrace_buffer *buffer = calloc(1, sizeof(*buffer));

	if (buffer) {
		buffer->pid = -1;
		buffer->fd = session ? session->fd : -1;
		buffer->session = session;
	}
	return buffer;
}

int auxtrace_queues__add_event(struct auxtrace_queues *q, struct perf_session *session,
			       const union perf_event *event, uint64_t data_offset,
			       struct auxtrace_buffer **buffer_ptr)
{
	const struct perf_record_auxtrace *ev = &event->auxtrace;
	struct auxtrace_buffer *buffer;
	int err;

	if (buffer_ptr)
		*buffer_ptr = NULL;
	if (perf_session__cpu_filtered_out(session, (int)ev->cpu))
		return 0;
	if (session->map && (data_offset > session->file_size ||
			     ev->size > session->file_size - data_offset)) {
		pr_err("%s: the %llu-byte payload at %#llx of an AUXTRACE record (idx %u) runs "
		       "past the end of the %llu-byte file\n", session->path,
		       (unsigned long long)ev->size, (unsigned long long)data_offset, ev->idx,
		       (unsigned long long)session->file_size);
		return libauxtrace__err(-EINVAL);
	}
	buffer = auxtrace_buffer__new(session->map ? session : NULL);
	if (!buffer)
		return libauxtrace__err(-ENOMEM);
	buffer->tid = (pid_t)ev->tid;
	buffer->cpu = (int)ev->cpu;
	buffer->data_offset = data_offset;
	buffer->offset = ev->offset;
	buffer->reference = ev->reference;
	buffer->size = ev->size;
	if (!session->map) {
		buffer->data = perf_session__take_payload(session);
		if (!buffer->data) {
			free(buffer);
			return libauxtrace__err(-ENOMEM);
		}
		buffer->data_needs_freeing = true;
	}
	err = auxtrace_queues__queue_buffer(q, ev->idx, buffer);
	if (!err && buffer_ptr)
		*buffer_ptr = buffer;
	return err;
}

int auxtrace_queues__add_sample(struct auxtrace_queues *q, struct perf_session *session,
				const struct perf_sample *sample, uint64_t reference)
{
	struct auxtrace_buffer *buffer;
	const struct perf_sid *sid;
	uint64_t offset;

	if (!sample->id)
		return libauxtrace__err(-EINVAL);
	sid = perf_session__sid(session, sample->id);
	if (!sid || sid->where.idx < 0)
		return libauxtrace__err(-ENOENT);
	if (perf_session__cpu_filtered_out(session, sid->where.cpu.cpu))
		return 0;
	buffer = auxtrace_buffer__new(NULL);
	if (!buffer)
		return libauxtrace__err(-ENOMEM);
	buffer->tid = sid->where.tid;
	buffer->cpu = sid->where.cpu.cpu;
	buffer->reference = reference;
	buffer->size = sample->aux_sample.size;
	if (perf_session__map_offset(session, sample->aux_sample.data, &offset)) {
		buffer->fd = session->fd;
		buffer->session = session;
		buffer->data_offset = offset;
	} else {
		buffer->data = malloc(buffer->size ? buffer->size : 1);
		if (!buffer->data) {
			free(buffer);
			return libauxtrace__err(-ENOMEM);
		}
		memcpy(buffer->data, sample->aux_sample.data, buffer->size);
		buffer->data_needs_freeing = true;
	}
	return auxtrace_queues__queue_buffer(q, (unsigned int)sid->where.idx, buffer);
}

struct auxtrace_queue *auxtrace_queues__sample_queue(struct auxtrace_queues *q,
						     struct perf_session *session,
						     const struct perf_sample *sample)
{
	const struct perf_sid *sid = sample->id ? perf_session__sid(session, sample->id) : NULL;

	if (!sid || sid->where.idx < 0 || (unsigned int)sid->where.idx >= q->nr_queues)
		return NULL;
	return q->queue_array[sid->where.idx];
}

/* Each index entry must name an AUXTRACE record of its size whose payload is in the data. */
static int auxtrace_queues__process_index(struct auxtrace_queues *q, struct perf_session *s)
{
	const struct auxtrace_index *index = s->auxtrace_index;
	size_t i, nr = auxtrace_index__nr(index);

	for (i = 0; i < nr; i++) {
		const struct auxtrace_index_entry *e = auxtrace_index__entry(index, i);
		union perf_event ev;
		int err;

		if (e->file_offset < s->data_offset || e->file_offset > s->data_end ||
		    s->data_end - e->file_offset < sizeof(ev.auxtrace))
			return perf_session__corrupt(s, e->file_offset, "AUXTRACE index entry "
						     "%zu points outside the data section [%#llx, "
						     "%#llx)", i, (unsigned long long)s->data_offset,
						     (unsigned long long)s->data_end);
		/* Read, not touched in the mapping: see perf_session__unmap_data. */
		if (pread(s->fd, &ev, sizeof(ev.auxtrace), (off_t)e->file_offset) !=
		    (ssize_t)sizeof(ev.auxtrace))
			return perf_session__corrupt(s, e->file_offset, "AUXTRACE index entry "
						     "%zu cannot be read (%s)", i, strerror(errno));
		if (s->needs_swap) {
			ev.header.type = __builtin_bswap32(ev.header.type);
			ev.header.size = __builtin_bswap16(ev.header.size);
		}
		if (ev.header.type != PERF_RECORD_AUXTRACE)
			continue;	/* perf ignores entries of other records too */
		if (ev.header.size != e->sz || e->sz != sizeof(ev.auxtrace))
			return perf_session__corrupt(s, e->file_offset, "AUXTRACE index entry %zu "
						     "says %llu bytes, the AUXTRACE record there has "
						     "%u, and it has %zu", i,
						     (unsigned long long)e->sz, ev.header.size,
						     sizeof(ev.auxtrace));
		err = perf_event__check_layout(s, &ev, e->file_offset, 0, s->needs_swap);
		if (err)
			return err;
		if (ev.auxtrace.size > s->data_end - e->file_offset - e->sz)
			return perf_session__corrupt(s, e->file_offset, "the %llu-byte payload of "
						     "the AUXTRACE record of index entry %zu runs "
						     "past the data section",
						     (unsigned long long)ev.auxtrace.size, i);
		err = auxtrace_queues__add_event(q, s, &ev, e->file_offset + e->sz, NULL);
		if (err)
			return err;
	}
	return 0;
}

static bool perf_session__has_aux_samples(const struct perf_session *s)
{
	int i;

	for (i = 0; i < s->nr_evsels; i++)
		if (evsel__attr(s->evsel_ids[i].evsel)->sample_type & PERF_SAMPLE_AUX)
			return true;
	return false;
}

/*
 * Reading a record through the mapping maps the pages around it too (the kernel's
 * fault-around: the payloads between the records), so a pass over the data section would
 * map all of it. Give back what was passed: pages come back from the page cache when read.
 */
#define PERF_SESSION_UNMAP_STEP (32ull << 20)

/*
 * A walk of the data section, each record checked as the stream reader checks it. It runs
 * while the session is inside a record (AUXTRACE_INFO, whose decoder populates): that
 * record's scratch copy, payload and the counters are the session's, so the walk has its
 * own and leaves the session's as they were.
 */
static int auxtrace_queues__walk(struct auxtrace_queues *q, struct perf_session *s,
				 bool events, bool samples)
{
	struct perf_session_stats stats = s->stats;
	uint64_t *scratch = s->scratch;
	uint64_t pos = s->pos, offset, unmapped = s->data_offset;
	const void *payload = s->payload;
	uint64_t payload_offset = s->payload_offset, payload_size = s->payload_size;
	union perf_event *event;
	int err;

	s->scratch = malloc(64 * 1024 + 8);
	if (!s->scratch) {
		s->scratch = scratch;
		return -ENOMEM;
	}
	s->pos = s->data_offset;
	while ((err = perf_session__read_event(s, &event, &offset)) > 0) {
		struct perf_sample sample;
		struct evsel *evsel;

		err = 0;
		if (offset - unmapped >= PERF_SESSION_UNMAP_STEP) {
			perf_session__give_back(s, unmapped, offset);
			unmapped = offset;
		}
		if (event->header.type == PERF_RECORD_ID_INDEX) {
			err = perf_session__process_id_index(s, event, offset);
		} else if (event->header.type == PERF_RECORD_AUXTRACE && events) {
			err = auxtrace_queues__add_event(q, s, event, s->payload_offset, NULL);
		} else if (event->header.type == PERF_RECORD_SAMPLE && samples) {
			err = perf_session__parse_sample(s, event, &sample, &evsel, offset);
			if (!err && sample.aux_sample.size)
				err = auxtrace_queues__add_sample(q, s, &sample, 0);
			if (err == -ENOENT || err == -EINVAL)
				err = 0;	/* no attr or no ring to queue it on: not ours */
		}
		if (err)
			break;
	}
	perf_session__give_back(s, unmapped, s->pos);
	free(s->scratch);
	s->scratch = scratch;
	s->pos = pos;
	s->payload = payload;
	s->payload_offset = payload_offset;
	s->payload_size = payload_size;
	s->stats = stats;
	return err;
}


int auxtrace_queues__populate(struct auxtrace_queues *q, struct perf_session *s)
{
	bool from_index = s->auxtrace_index && auxtrace_index__nr(s->auxtrace_index);
	bool samples = perf_session__has_aux_samples(s);
	uint64_t before = q->next_buffer_nr;
	int err = 0;

	if (!s->map)
		return 0;
	if (from_index)
		err = auxtrace_queues__process_index(q, s);
	if (!err && (!from_index || samples))
		err = auxtrace_queues__walk(q, s, !from_index, samples);
	if (err < 0)
		return libauxtrace__err(err);
	q->data_queued = true;
	return (int)(q->next_buffer_nr - before);
}

bool auxtrace_queues__data_queued(const struct auxtrace_queues *q)
{
	return q->data_queued;
}

bool auxtrace_queues__take_new_data(struct auxtrace_queues *q)
{
	bool new_data = q->new_data;

	q->new_data = false;
	return new_data;
}

struct auxtrace_buffer *auxtrace_buffer__next(struct auxtrace_queue *queue,
					      struct auxtrace_buffer *buffer)
{
	return buffer ? buffer->next : queue->head;
}

/*
 * In place in the session's mapping of the file: a mapping of its own per payload cost a
 * munmap each, and with it a TLB shootdown on every other CPU the decoder runs on.
 */
void *auxtrace_buffer__get_data(struct auxtrace_buffer *buffer)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t adj = buffer->data_offset & (page - 1);

	if (buffer->data)
		return buffer->data;
	if (!buffer->session || !buffer->size)
		return libauxtrace__ptr_err(-ENODATA);
	buffer->data = (void *)(buffer->session->map + buffer->data_offset);
	buffer->mmap_addr = (char *)buffer->data - adj;
	buffer->mmap_size = buffer->size + adj;
	return buffer->data;
}

void auxtrace_buffer__put_data(struct auxtrace_buffer *buffer)
{
	if (!buffer->mmap_addr)
		return;
	perf_session__aux_done(buffer->session, buffer->data_offset,
			       buffer->data_offset + buffer->size);
	buffer->mmap_addr = NULL;
	buffer->mmap_size = 0;
	buffer->data = NULL;
	buffer->use_data = NULL;
}

void auxtrace_buffer__drop_data(struct auxtrace_buffer *buffer)
{
	auxtrace_buffer__put_data(buffer);
	if (buffer->data_needs_freeing) {
		free(buffer->data);
		buffer->data = NULL;
		buffer->use_data = NULL;
		buffer->data_needs_freeing = false;
	}
	buffer->size = 0;
}
