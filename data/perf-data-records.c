// SPDX-License-Identifier: LGPL-2.1
/*
 * The records the writer makes one by one: what perf record writes before the side-band
 * (ID_INDEX, TIME_CONV, AUXTRACE_INFO), the round and init marks, and any record a caller
 * built, checked against what makes perf refuse a file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/auxtrace-record.h>
#include <internal/auxtrace-backend.h>
#include <internal/evsel.h>
#include <internal/lib.h>
#include "perf-data-buf.h"
#include "perf-data-internal.h"

/* A record of the writer's own making (header.size bytes). */
static int perf_data_writer__write_record(struct perf_data_writer *w, const void *event)
{
	const struct perf_event_header *hdr = event;
	int err = perf_data_writer__put_buf(w, event, hdr->size);

	if (!err)
		w->stats.events++;
	return libauxtrace__err(err);
}

int perf_data_writer__write_event(struct perf_data_writer *w, const union perf_event *event)
{
	const struct perf_record_auxtrace_info *info = &event->auxtrace_info;
	uint16_t size = event->header.size;
	int err;

	if (size < sizeof(event->header) || size % 8) {
		pr_err("perf.data: a record of type %u has size %u: records are whole 8-byte "
		       "multiples\n", event->header.type, size);
		return libauxtrace__err(-EINVAL);
	}
	if (event->header.type == PERF_RECORD_AUXTRACE) {
		pr_err("perf.data: PERF_RECORD_AUXTRACE carries a payload after its record: push "
		       "it through perf_data_writer__aux_sink()\n");
		return libauxtrace__err(-EINVAL);
	}
	if (event->header.type == PERF_RECORD_AUXTRACE_INFO &&
	    (size < sizeof(*info) || info->type == PERF_AUXTRACE_UNKNOWN ||
	     info->type > PERF_AUXTRACE_HISI_PTT)) {
		pr_err("perf.data: AUXTRACE_INFO of type %u: perf 6.1 knows types 1 (Intel PT) "
		       "to 6 (HiSilicon PTT) and refuses a whole file with any other\n",
		       size < sizeof(*info) ? 0 : info->type);
		return libauxtrace__err(-EINVAL);
	}
	err = perf_data_writer__write_record(w, event);
	if (!err && event->header.type == PERF_RECORD_AUXTRACE_INFO)
		w->wrote_auxtrace_info = true;
	if (!err)
		perf_data_build_ids__note(w, &(struct iovec){ (void *)event, size }, 1);
	return err;
}

/* Write ev (nr entries) and empty it. */
static int perf_data_writer__flush_id_index(struct perf_data_writer *w,
					    struct perf_record_id_index *ev)
{
	int err;

	ev->header.type = PERF_RECORD_ID_INDEX;
	ev->header.size = (uint16_t)(sizeof(*ev) + ev->nr * sizeof(ev->entries[0]));
	err = perf_data_writer__write_record(w, ev);
	ev->nr = 0;
	return err;
}

int perf_data_writer__write_id_index(struct perf_data_writer *w)
{
	const size_t max_nr = (PERF_RECORD_MAX_SIZE - sizeof(struct perf_record_id_index)) /
			      sizeof(struct perf_record_id_index_entry);
	struct perf_record_id_index *ev;
	size_t total = 0;
	int err = 0;

	for (int i = 0; i < w->nr_attrs; i++)
		total += (size_t)w->attrs[i].nr_ids;
	if (!total)
		return 0;
	ev = calloc(1, sizeof(*ev) + (total < max_nr ? total : max_nr) * sizeof(ev->entries[0]));
	if (!ev)
		return libauxtrace__err(-ENOMEM);
	for (int i = 0; !err && i < w->nr_attrs; i++) {
		const struct perf_data_attr *a = &w->attrs[i];

		for (int k = 0; !err && k < a->nr_ids; k++) {
			struct evlist_sample_id where;

			if (evlist__id_lookup(w->evlist, a->ids[k], &where)) {
				pr_err("perf.data: sample ID %llu of %s is not in the evlist's ID "
				       "table: map the evlist (evlist__mmap) before writing "
				       "ID_INDEX\n", (unsigned long long)a->ids[k],
				       evsel__name(a->evsel));
				err = -EINVAL;
				break;
			}
			ev->entries[ev->nr++] = (struct perf_record_id_index_entry){
				.id = a->ids[k],
				.idx = (uint64_t)where.idx,
				.cpu = (uint64_t)(int64_t)where.cpu.cpu,
				.tid = (uint64_t)(int64_t)where.tid,
			};
			if (ev->nr == max_nr)
				err = perf_data_writer__flush_id_index(w, ev);
		}
	}
	if (!err && ev->nr)
		err = perf_data_writer__flush_id_index(w, ev);
	free(ev);
	return libauxtrace__err(err);
}

int perf_data_writer__write_time_conv(struct perf_data_writer *w)
{
	struct perf_mmap *map = evlist__mmap_at(w->evlist, 0);
	struct perf_record_time_conv ev = {
		.header = { .type = PERF_RECORD_TIME_CONV, .size = sizeof(ev) },
	};
	struct auxtrace_time_conv tc;
	int err;

	if (!map) {
		pr_err("perf.data: TIME_CONV comes from a data ring's control page: map the "
		       "evlist before writing it\n");
		return libauxtrace__err(-EINVAL);
	}
	err = auxtrace_time_conv__from_userpg(perf_mmap__userpg(map), &tc);
	if (err == -EINVAL || (!err && !tc.cap_user_time_zero)) {
		pr_debug("perf.data: the kernel publishes no TSC conversion: no TIME_CONV, as "
			 "perf record does\n");
		return 0;
	}
	if (err) {
		pr_err("perf.data: the perf control page kept changing while its time fields "
		       "were read: try again\n");
		return libauxtrace__err(err);
	}
	ev.time_shift = tc.time_shift;
	ev.time_mult = tc.time_mult;
	ev.time_zero = tc.time_zero;
	ev.time_cycles = tc.time_cycles;
	ev.time_mask = tc.time_mask;
	ev.cap_user_time_zero = tc.cap_user_time_zero;
	ev.cap_user_time_short = tc.cap_user_time_short;
	return perf_data_writer__write_record(w, &ev);
}

int perf_data_writer__write_auxtrace_info(struct perf_data_writer *w,
					  struct auxtrace_record *itr)
{
	struct perf_record_auxtrace_info *info = auxtrace_record__info_new(itr, w->evlist);
	int err;

	if (!info)
		return -errno;
	err = perf_data_writer__write_event(w, (const union perf_event *)info);
	free(info);
	return err;
}

int perf_data_writer__write_prologue(struct perf_data_writer *w, struct auxtrace_record *itr)
{
	int err = perf_data_writer__write_id_index(w);

	if (!err)
		err = perf_data_writer__write_time_conv(w);
	if (!err && itr)
		err = perf_data_writer__write_auxtrace_info(w, itr);
	return err;
}

static int perf_data_writer__write_bare(struct perf_data_writer *w, uint32_t type)
{
	struct perf_event_header hdr = { .type = type, .size = sizeof(hdr) };

	return perf_data_writer__write_record(w, &hdr);
}

int perf_data_writer__write_tracing_data(struct perf_data_writer *w, const void *data,
					 size_t size)
{
	struct perf_record_header_tracing_data ev = {
		.header = { .type = PERF_RECORD_HEADER_TRACING_DATA, .size = sizeof(ev) },
	};
	size_t padded = (size + 7) & ~(size_t)7;
	struct perf_data_buf rec;
	void *copy;
	int err;

	if (!w || !data || !size || padded > UINT32_MAX)
		return libauxtrace__err(-EINVAL);
	if (w->pipe) {
		/* the payload follows the record, not counted in its size, padded to 8 */
		ev.size = (uint32_t)padded;
		perf_data_buf__init(&rec);
		perf_data_buf__add(&rec, &ev, sizeof(ev));
		perf_data_buf__add(&rec, data, size);
		perf_data_buf__add(&rec, (const uint64_t[1]){ 0 }, padded - size);
		err = rec.err ? rec.err : perf_data_writer__put_buf(w, rec.data, rec.len);
		perf_data_buf__exit(&rec);
		return libauxtrace__err(err);
	}
	copy = malloc(size);
	if (!copy)
		return libauxtrace__err(-ENOMEM);
	memcpy(copy, data, size);
	free(w->tracing_data);
	w->tracing_data = copy;
	w->tracing_data_size = size;
	return 0;
}

int perf_data_writer__write_finished_init(struct perf_data_writer *w)
{
	return perf_data_writer__write_bare(w, PERF_RECORD_FINISHED_INIT);
}

int perf_data_writer__write_finished_round(struct perf_data_writer *w)
{
	int err;

	if (w->stats.data_size == w->round_mark)
		return 0;
	err = perf_data_writer__write_bare(w, PERF_RECORD_FINISHED_ROUND);
	if (err)
		return err;
	w->round_mark = w->stats.data_size;
	w->round_marks[w->stats.rounds++ % PERF_DATA_ROUND_MARKS] = w->round_mark;
	return perf_data_writer__sync_header(w);
}
