// SPDX-License-Identifier: LGPL-2.1
/*
 * Sample fields of kernel records, by the attr's sample_type: a PERF_RECORD_SAMPLE from its
 * start, the sample_id_all trailer of any other kernel record from its end. One walk both
 * checks every field against the record's size and, for a foreign file, swaps it in place.
 */
#include <internal/session.h>

struct sample_cursor {
	struct perf_session *s;
	const union perf_event *event;
	unsigned char *p, *end;
	uint64_t offset;	/* the record's file offset, for messages */
	bool swap;
	int err;
};

/* n bytes of `what` must follow; else the error names it and later reads see nothing. */
static bool cursor__need(struct sample_cursor *c, uint64_t n, const char *what)
{
	char name[32];

	if (c->err)
		return false;
	if (n <= (uint64_t)(c->end - c->p))
		return true;
	c->err = perf_session__corrupt(c->s, c->offset, "a %s record of %u bytes ends inside "
				       "its %s (%llu bytes needed at byte %zu, %zu left)",
				       perf_event__name(c->event->header.type, name, sizeof(name)),
				       c->event->header.size, what, (unsigned long long)n,
				       (size_t)(c->p - (unsigned char *)c->event),
				       (size_t)(c->end - c->p));
	return false;
}

static uint64_t cursor__u64(struct sample_cursor *c, const char *what)
{
	uint64_t v;

	if (!cursor__need(c, 8, what))
		return 0;
	v = perf_u64(c->p, c->swap);
	if (c->swap)
		memcpy(c->p, &v, 8);
	c->p += 8;
	return v;
}

/* Two u32 in one u64 slot (pid/tid, cpu/reserved). */
static void cursor__u32_pair(struct sample_cursor *c, uint32_t *a, uint32_t *b,
			     const char *what)
{
	uint32_t v[2];

	if (!cursor__need(c, 8, what))
		return;
	v[0] = perf_u32(c->p, c->swap);
	v[1] = perf_u32(c->p + 4, c->swap);
	if (c->swap)
		memcpy(c->p, v, 8);
	c->p += 8;
	*a = v[0];
	*b = v[1];
}

/* nr u64s (swapped in place), or NULL. */
static const uint64_t *cursor__u64s(struct sample_cursor *c, uint64_t nr, const char *what)
{
	const uint64_t *start = (const uint64_t *)c->p;
	uint64_t i;

	if (nr > UINT64_MAX / 8 || !cursor__need(c, nr * 8, what))
		return NULL;
	for (i = 0; i < nr; i++)
		cursor__u64(c, what);
	return start;
}

/* size bytes that are not integers (a stack, AUX data); whole u64s so what follows stays
 * aligned. */
static const void *cursor__bytes(struct sample_cursor *c, uint64_t size, const char *what)
{
	const void *start = c->p;

	if (c->err)
		return NULL;
	if (size % 8) {
		c->err = perf_session__corrupt(c->s, c->offset, "a record's %s of %llu bytes is "
					       "not whole u64s", what, (unsigned long long)size);
		return NULL;
	}
	if (!cursor__need(c, size, what))
		return NULL;
	c->p += size;
	return start;
}

static void sample__read(struct sample_cursor *c, uint64_t read_format,
			 struct perf_sample *sample)
{
	unsigned int extra = !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);

	if (!(read_format & PERF_FORMAT_GROUP)) {
		sample->read.nr = 1;
		sample->read.value = cursor__u64(c, "read value");
	} else {
		sample->read.nr = cursor__u64(c, "read group size");
	}
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		sample->read.time_enabled = cursor__u64(c, "read time_enabled");
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		sample->read.time_running = cursor__u64(c, "read time_running");
	if (read_format & PERF_FORMAT_GROUP) {
		sample->read.entry_words = 1 + extra;
		if (sample->read.nr > UINT64_MAX / 8 / sample->read.entry_words)
			cursor__need(c, UINT64_MAX, "read group values");
		else
			sample->read.values = cursor__u64s(c, sample->read.nr *
							   sample->read.entry_words,
							   "read group values");
		return;
	}
	if (read_format & PERF_FORMAT_ID)
		sample->read.id = cursor__u64(c, "read id");
	if (read_format & PERF_FORMAT_LOST)
		sample->read.lost = cursor__u64(c, "read lost");
}

static void sample__regs(struct sample_cursor *c, uint64_t mask, struct perf_sample_regs *regs,
			 const char *what)
{
	regs->abi = cursor__u64(c, what);
	if (!regs->abi)
		return;
	regs->mask = mask;
	regs->regs = cursor__u64s(c, __builtin_popcountll(mask), what);
}

static void sample__raw(struct sample_cursor *c, struct perf_sample *sample)
{
	uint32_t size;

	if (!cursor__need(c, 4, "raw size"))
		return;
	size = perf_u32(c->p, c->swap);
	if (c->swap)
		memcpy(c->p, &size, 4);
	/* The kernel pads the data so that the size word and it end on a u64. */
	if ((4 + (uint64_t)size) % 8) {
		c->err = perf_session__corrupt(c->s, c->offset, "a SAMPLE's raw data of %u bytes "
					       "does not end on a u64", size);
		return;
	}
	if (!cursor__need(c, 4 + (uint64_t)size, "raw data"))
		return;
	sample->raw_size = size;
	sample->raw_data = c->p + 4;
	c->p += 4 + (uint64_t)size;
}

static void sample__branch_stack(struct sample_cursor *c, const struct perf_event_attr *attr,
				 struct perf_sample *sample)
{
	uint64_t nr = cursor__u64(c, "branch stack size");

	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		sample->branch_hw_idx = cursor__u64(c, "branch hw_idx");
	if (nr > UINT64_MAX / 24) {
		cursor__need(c, UINT64_MAX, "branch stack");
		return;
	}
	sample->branch_nr = nr;
	sample->branch_entries = (const void *)cursor__u64s(c, nr * 3, "branch stack");
}

static void sample__user_stack(struct sample_cursor *c, struct perf_sample *sample)
{
	sample->user_stack.size = cursor__u64(c, "user stack size");
	sample->user_stack.data = cursor__bytes(c, sample->user_stack.size, "user stack");
	if (sample->user_stack.size)
		sample->user_stack.dyn_size = cursor__u64(c, "user stack dyn_size");
}

static void perf_sample__init(struct perf_sample *sample, const union perf_event *event,
			      uint64_t offset)
{
	memset(sample, 0, sizeof(*sample));
	sample->pid = sample->tid = sample->cpu = (uint32_t)-1;
	sample->time = (uint64_t)-1;
	sample->branch_hw_idx = (uint64_t)-1;
	sample->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	sample->file_offset = offset;
}

static void sample__body(struct sample_cursor *c, const struct perf_event_attr *attr,
			 struct perf_sample *sample)
{
	uint64_t type = attr->sample_type;
	uint32_t reserved;

	if (type & PERF_SAMPLE_IDENTIFIER)
		sample->id = cursor__u64(c, "identifier");
	if (type & PERF_SAMPLE_IP)
		sample->ip = cursor__u64(c, "ip");
	if (type & PERF_SAMPLE_TID)
		cursor__u32_pair(c, &sample->pid, &sample->tid, "pid/tid");
	if (type & PERF_SAMPLE_TIME)
		sample->time = cursor__u64(c, "time");
	if (type & PERF_SAMPLE_ADDR)
		sample->addr = cursor__u64(c, "addr");
	if (type & PERF_SAMPLE_ID)
		sample->id = cursor__u64(c, "id");
	if (type & PERF_SAMPLE_STREAM_ID)
		sample->stream_id = cursor__u64(c, "stream_id");
	if (type & PERF_SAMPLE_CPU)
		cursor__u32_pair(c, &sample->cpu, &reserved, "cpu");
	if (type & PERF_SAMPLE_PERIOD)
		sample->period = cursor__u64(c, "period");
	if (type & PERF_SAMPLE_READ)
		sample__read(c, attr->read_format, sample);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		const void *chain = c->p;
		uint64_t nr = cursor__u64(c, "callchain size");

		if (cursor__u64s(c, nr, "callchain"))
			sample->callchain = chain;
	}
	if (type & PERF_SAMPLE_RAW)
		sample__raw(c, sample);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		sample__branch_stack(c, attr, sample);
	if (type & PERF_SAMPLE_REGS_USER)
		sample__regs(c, attr->sample_regs_user, &sample->user_regs, "user regs");
	if (type & PERF_SAMPLE_STACK_USER)
		sample__user_stack(c, sample);
	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		sample->weight = cursor__u64(c, "weight");
	if (type & PERF_SAMPLE_DATA_SRC)
		sample->data_src = cursor__u64(c, "data_src");
	if (type & PERF_SAMPLE_TRANSACTION)
		sample->transaction = cursor__u64(c, "transaction");
	if (type & PERF_SAMPLE_REGS_INTR)
		sample__regs(c, attr->sample_regs_intr, &sample->intr_regs, "intr regs");
	if (type & PERF_SAMPLE_PHYS_ADDR)
		sample->phys_addr = cursor__u64(c, "phys_addr");
	if (type & PERF_SAMPLE_CGROUP)
		sample->cgroup = cursor__u64(c, "cgroup");
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		sample->data_page_size = cursor__u64(c, "data_page_size");
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		sample->code_page_size = cursor__u64(c, "code_page_size");
	if (type & PERF_SAMPLE_AUX) {
		sample->aux_sample.size = cursor__u64(c, "aux sample size");
		sample->aux_sample.data = cursor__bytes(c, sample->aux_sample.size, "aux sample");
	}
}

/* The sample_id_all trailer: the same order as in a sample, only these fields. */
static void sample__trailer(struct sample_cursor *c, const struct perf_event_attr *attr,
			    struct perf_sample *sample)
{
	uint64_t type = attr->sample_type;
	uint32_t reserved;

	if (type & PERF_SAMPLE_TID)
		cursor__u32_pair(c, &sample->pid, &sample->tid, "sample_id pid/tid");
	if (type & PERF_SAMPLE_TIME)
		sample->time = cursor__u64(c, "sample_id time");
	if (type & PERF_SAMPLE_ID)
		sample->id = cursor__u64(c, "sample_id id");
	if (type & PERF_SAMPLE_STREAM_ID)
		sample->stream_id = cursor__u64(c, "sample_id stream_id");
	if (type & PERF_SAMPLE_CPU)
		cursor__u32_pair(c, &sample->cpu, &reserved, "sample_id cpu");
	if (type & PERF_SAMPLE_IDENTIFIER)
		sample->id = cursor__u64(c, "sample_id identifier");
}

int perf_sample__walk(struct perf_session *s, const struct evsel *evsel, union perf_event *event,
		      struct perf_sample *sample, uint64_t offset, bool swap)
{
	const struct perf_event_attr *attr = evsel__attr((struct evsel *)evsel);
	struct sample_cursor c = {
		.s = s, .event = event, .offset = offset, .swap = swap,
		.p = (unsigned char *)event->sample.array,
		.end = (unsigned char *)event + event->header.size,
	};

	perf_sample__init(sample, event, offset);
	if (event->header.type == PERF_RECORD_SAMPLE) {
		sample__body(&c, attr, sample);
	} else if (event->header.type < PERF_RECORD_USER_TYPE_START && attr->sample_id_all) {
		size_t size = perf_sample_id__size(attr);

		if (!cursor__need(&c, size, "sample_id trailer"))
			return c.err;
		c.p = c.end - size;
		sample__trailer(&c, attr, sample);
	}
	return c.err;
}

int perf_session__parse_sample(struct perf_session *s, const union perf_event *event,
			       struct perf_sample *sample, struct evsel **evsel, uint64_t offset)
{
	*evsel = perf_session__event_evsel(s, event, false);
	if (!*evsel)
		return -ENOENT;
	return perf_sample__walk(s, *evsel, (union perf_event *)event, sample, offset, false);
}
