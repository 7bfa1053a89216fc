// SPDX-License-Identifier: LGPL-2.1
/*
 * perf_session__process_events: user records are used as they come (attrs, features, the
 * ID index, the time conversion, the decoder choice, AUXTRACE payloads); kernel records go,
 * in time order or not, to the decoder and then the tool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <internal/session.h>

/* Give back the pages of the mapping that were read, in steps this large: the mapping
 * then costs memory for what is in flight, not for the file's size. */
#define PERF_SESSION_DROP_STEP (8ull * 1024 * 1024)

/* A caller's struct of sz bytes into this build's (missing fields zero): callbacks a
 * caller built against an older header lacks are NULL, not garbage. */
#define COPY_SIZED(dst, src)							\
	do {									\
		memset(&(dst), 0, sizeof(dst));					\
		memcpy(&(dst), (src), (src)->sz < sizeof(dst) ? (src)->sz : sizeof(dst)); \
	} while (0)

static const char *auxtrace_type__name(uint32_t type)
{
	static const char *const names[] = {
		[PERF_AUXTRACE_INTEL_PT] = "intel_pt", [PERF_AUXTRACE_INTEL_BTS] = "intel_bts",
		[PERF_AUXTRACE_CS_ETM] = "cs_etm", [PERF_AUXTRACE_ARM_SPE] = "arm_spe",
		[PERF_AUXTRACE_S390_CPUMSF] = "s390_cpumsf", [PERF_AUXTRACE_HISI_PTT] = "hisi_ptt",
	};

	return type < ARRAY_SIZE(names) && names[type] ? names[type] : "unknown";
}

static int perf_session__auxtrace_info(struct perf_session *s, union perf_event *event,
				       uint64_t offset)
{
	const struct perf_record_auxtrace_info *info = &event->auxtrace_info;
	const struct auxtrace_decoder *const *d;
	char names[256] = "";
	struct auxtrace *aux;

	if (!s->opts.decoders)
		return 0;	/* nothing to decode with: payloads reach only the tool */
	if (s->auxtrace) {
		pr_warn("%s: a second AUXTRACE_INFO at 0x%llx: ignored, the first chose the "
			"decoder\n", s->path, (unsigned long long)offset);
		return 0;
	}
	for (d = s->opts.decoders; *d; d++) {
		size_t len = strlen(names);

		if ((*d)->sz >= offsetof(struct auxtrace_decoder, new) + sizeof((*d)->new) &&
		    (*d)->type == info->type)
			break;
		snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "", (*d)->name);
	}
	if (!*d) {
		pr_err("%s: the AUXTRACE_INFO at 0x%llx is of type %u (%s), which none of the "
		       "decoders given reads (%s): add its decoder, or read without decoders\n",
		       s->path, (unsigned long long)offset, info->type,
		       auxtrace_type__name(info->type), names[0] ? names : "none");
		return libauxtrace__err(-EINVAL);
	}
	errno = 0;
	aux = (*d)->new(s, info);
	if (!aux) {
		int err = errno ? -errno : -EINVAL;

		pr_err("%s: the %s decoder refused the AUXTRACE_INFO at 0x%llx (%s)\n", s->path,
		       (*d)->name, (unsigned long long)offset, strerror(-err));
		return libauxtrace__err(err);
	}
	s->auxtrace = aux;
	COPY_SIZED(s->aux_ops, aux);
	return 0;
}

static int perf_session__header_feature(struct perf_session *s, union perf_event *event,
					uint64_t offset)
{
	uint64_t feat = event->feat.feat_id;
	size_t size = event->header.size - sizeof(event->feat);
	void *copy;
	int err;

	if (feat >= HEADER_FEAT_BITS)
		return perf_session__corrupt(s, offset, "HEADER_FEATURE names feature %llu, past "
					     "the %d there can be", (unsigned long long)feat,
					     HEADER_FEAT_BITS);
	if (s->feat_data[feat]) {
		pr_warn("%s: feature %llu comes a second time at 0x%llx: ignored\n", s->path,
			(unsigned long long)feat, (unsigned long long)offset);
		return 0;
	}
	/* Kept for the session's life: the env points into it. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, event->feat.data, size);
	s->feat_data[feat] = copy;
	s->feat_owned[feat] = true;
	s->feat_sec[feat] = (struct perf_file_section){ offset + sizeof(event->feat), size };
	err = perf_session__process_feature(s, (int)feat, copy, size, offset +
					    sizeof(event->feat));
	if (err) {
		free(copy);
		s->feat_data[feat] = NULL;
		s->feat_owned[feat] = false;
	}
	return err;
}

/* The pipe format's tracing data, kept as the file format's HEADER_TRACING_DATA section. */
static int perf_session__tracing_data(struct perf_session *s, uint64_t offset)
{
	void *copy;

	if (s->feat_data[HEADER_TRACING_DATA])
		return 0;	/* perf sends it once; a second one would describe the same events */
	copy = perf_session__take_payload(s);
	if (!copy)
		return -ENOMEM;
	s->feat_data[HEADER_TRACING_DATA] = copy;
	s->feat_owned[HEADER_TRACING_DATA] = true;
	s->feat_sec[HEADER_TRACING_DATA] = (struct perf_file_section){
		offset + sizeof(struct perf_record_header_tracing_data), s->payload_size };
	return 0;
}

static int perf_session__header_attr(struct perf_session *s, union perf_event *event,
				     uint64_t offset)
{
	uint32_t size = event->attr.attr.size ? event->attr.attr.size : PERF_ATTR_SIZE_VER0;
	const unsigned char *ids = (const unsigned char *)&event->attr.attr + size;
	size_t nr_ids = (event->header.size - sizeof(event->header) - size) / sizeof(uint64_t);
	struct perf_event_attr attr;
	int err;

	/* The layout check made the record native and sized: attr, then whole IDs. */
	err = perf_session__read_attr(s, &event->attr.attr, size, &attr, offset, false);
	if (!err)
		err = perf_session__add_evsel(s, &attr, ids, nr_ids, false);
	return libauxtrace__err(err);
}

static int perf_session__event_update(struct perf_session *s, union perf_event *event,
				      uint64_t offset)
{
	const struct perf_record_event_update *ev = &event->event_update;
	size_t len = ev->header.size - sizeof(*ev);

	if (ev->type != PERF_EVENT_UPDATE__NAME)
		return 0;
	if (!memchr(ev->data, 0, len))
		return perf_session__corrupt(s, offset, "the name in an EVENT_UPDATE record has "
					     "no terminating NUL");
	if (!perf_session__sid(s, ev->id))
		return 0;
	return perf_session__set_evsel_name(s, ev->id, SIZE_MAX, ev->data);
}

static int perf_session__flush_round(struct perf_session *s);

int perf_session__process_user_event(struct perf_session *s, union perf_event *event,
				     uint64_t offset)
{
	const struct perf_tool *tool = s->tool ? &s->tool_ops : NULL;
	int err = 0;

	if (event->header.type < PERF_SESSION_NR_TYPES)
		s->stats.nr_events[event->header.type]++;
	switch (event->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		err = perf_session__header_attr(s, event, offset);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		err = perf_session__header_feature(s, event, offset);
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		err = perf_env__add_build_id(s, event, event->header.size, false);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		if (tool && tool->ordered_events)
			err = perf_session__flush_round(s);
		break;
	case PERF_RECORD_ID_INDEX:
		err = perf_session__process_id_index(s, event, offset);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		err = perf_session__auxtrace_info(s, event, offset);
		break;
	case PERF_RECORD_AUXTRACE:
		s->stats.auxtrace_bytes += s->payload_size;
		if (s->auxtrace && s->aux_ops.process_auxtrace_event)
			err = s->aux_ops.process_auxtrace_event(s->auxtrace, s, event,
								s->payload_offset);
		if (!err && tool && tool->auxtrace)
			err = tool->auxtrace(s->tool, s, event, s->payload_offset, s->payload);
		return err;
	case PERF_RECORD_AUXTRACE_ERROR:
		s->stats.nr_auxtrace_errors++;
		break;
	case PERF_RECORD_TIME_CONV:
		memset(&s->time_conv, 0, sizeof(s->time_conv));
		memcpy(&s->time_conv, event, event->header.size < sizeof(s->time_conv) ?
		       event->header.size : sizeof(s->time_conv));
		s->has_time_conv = true;
		break;
	case PERF_RECORD_EVENT_UPDATE:
		err = perf_session__event_update(s, event, offset);
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		err = perf_session__tracing_data(s, offset);
		break;
	default:
		break;
	}
	if (!err && tool && tool->user_event)
		err = tool->user_event(s->tool, s, event, offset);
	return err;
}

static void perf_session__account(struct perf_session *s, const union perf_event *event,
				  const struct perf_sample *sample)
{
	struct perf_session_stats *st = &s->stats;

	if (event->header.type < PERF_SESSION_NR_TYPES)
		st->nr_events[event->header.type]++;
	switch (event->header.type) {
	case PERF_RECORD_LOST:
		st->total_lost += event->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		st->total_lost_samples += event->lost_samples.lost;
		break;
	case PERF_RECORD_AUX:
		st->total_aux_lost += !!(event->aux.flags & PERF_AUX_FLAG_TRUNCATED);
		st->total_aux_partial += !!(event->aux.flags & PERF_AUX_FLAG_PARTIAL);
		st->total_aux_collision += !!(event->aux.flags & PERF_AUX_FLAG_COLLISION);
		break;
	default:
		break;
	}
	if (sample->time != (uint64_t)-1) {
		if (!st->first_time || sample->time < st->first_time)
			st->first_time = sample->time;
		if (sample->time > st->last_time)
			st->last_time = sample->time;
	}
}

static int perf_session__deliver(struct perf_session *s, union perf_event *event,
				 struct perf_sample *sample, struct evsel *evsel)
{
	const struct perf_tool *tool = &s->tool_ops;
	int err = 0;

	perf_session__account(s, event, sample);
	if (s->auxtrace && s->aux_ops.process_event)
		err = s->aux_ops.process_event(s->auxtrace, s, event, sample, evsel);
	if (err)
		return err;
	if (event->header.type == PERF_RECORD_SAMPLE)
		return tool->sample ? tool->sample(s->tool, s, event, sample, evsel) : 0;
	return tool->event ? tool->event(s->tool, s, event, sample, evsel) : 0;
}

static int perf_session__unknown_id(struct perf_session *s, uint64_t offset)
{
	if (!s->stats.nr_unknown_id++)
		pr_warn("%s: the record at 0x%llx has a sample ID of no attr: skipped (and any "
			"more, counted in nr_unknown_id)\n", s->path, (unsigned long long)offset);
	return 0;
}

/* An event the ordered queue hands back: it was checked when read. */
static int perf_session__deliver_queued(void *ctx, union perf_event *event, uint64_t offset)
{
	struct perf_session *s = ctx;
	struct perf_sample sample;
	struct evsel *evsel;
	int err = perf_session__parse_sample(s, event, &sample, &evsel, offset);

	return err ? err : perf_session__deliver(s, event, &sample, evsel);
}

/* madvise() only hints: a failure leaves the pages mapped, which costs memory, not data. */
static void perf_session__drop_behind(struct perf_session *s, uint64_t upto)
{
	uint64_t page = sysconf(_SC_PAGESIZE);

	upto &= ~(page - 1);
	if (!s->map || upto < s->dropped_to + PERF_SESSION_DROP_STEP)
		return;
	madvise((void *)(s->map + s->dropped_to), upto - s->dropped_to, MADV_DONTNEED);
	s->dropped_to = upto;
}

/*
 * Give back the pages read so far, but those of records queued for delivery, after every
 * record: AUX payloads between the records are passed over, yet each read maps the pages
 * around it, so rounds alone would leave a file of few records mapped whole.
 */
static void perf_session__drop_passed(struct perf_session *s)
{
	uint64_t queued;

	if (!s->map || s->pos < s->dropped_to + PERF_SESSION_DROP_STEP || s->pos < s->drop_check_at)
		return;
	/*
	 * Finding the oldest queued record walks the queue: once per quarter step read, not
	 * after every record while a long round holds the pages (that made a 2 M record file
	 * quadratic: 35 s).
	 */
	s->drop_check_at = s->pos + PERF_SESSION_DROP_STEP / 4;
	queued = ordered_events__min_offset(s->oe);
	perf_session__drop_behind(s, queued < s->pos ? queued : s->pos);
}

static int perf_session__flush_round(struct perf_session *s)
{
	return ordered_events__flush_round(s->oe, perf_session__deliver_queued, s);
}

static int perf_session__process_kernel_event(struct perf_session *s, union perf_event *event,
					      uint64_t offset)
{
	const struct perf_tool *tool = &s->tool_ops;
	struct perf_sample sample;
	struct evsel *evsel;
	int err = perf_session__parse_sample(s, event, &sample, &evsel, offset);
	uint64_t in_map;

	if (err == -ENOENT)
		return perf_session__unknown_id(s, offset);
	if (err)
		return err;
	if (event->header.type == PERF_RECORD_SAMPLE &&
	    perf_session__sample_damaged(s, &sample, offset))
		return 0;
	/* perf's rule: a record without a time (or with 0) cannot be sorted: it goes now. */
	if (!tool->ordered_events || !sample.time || sample.time == (uint64_t)-1) {
		return perf_session__deliver(s, event, &sample, evsel);
	}
	err = ordered_events__queue(s->oe, event, sample.time, offset,
				    !perf_session__map_offset(s, event, &in_map));
	if (err == 1 && !s->stats.nr_unordered_events++)
		pr_warn("%s: the record at 0x%llx has a time (%llu) older than records already "
			"delivered: its ring was read late; it goes out late (counted in "
			"nr_unordered_events)\n", s->path, (unsigned long long)offset,
			(unsigned long long)sample.time);
	return err < 0 ? err : 0;
}

int perf_session__process_events(struct perf_session *s, struct perf_tool *tool)
{
	union perf_event *event;
	uint64_t offset;
	int err, stop = 0;	/* stop: a callback's or the decoder's error */

	if (!tool || tool->sz <= offsetof(struct perf_tool, ordered_events)) {
		pr_err("perf_session__process_events: set tool->sz to sizeof(struct perf_tool)\n");
		return libauxtrace__err(-EINVAL);
	}
	if (s->processed) {
		pr_err("%s: its events were processed already: open it again\n", s->path);
		return libauxtrace__err(-EBUSY);
	}
	s->processed = true;
	s->tool = tool;
	COPY_SIZED(s->tool_ops, tool);
	while ((err = perf_session__read_event(s, &event, &offset)) > 0) {
		if (event->header.type >= PERF_RECORD_USER_TYPE_START)
			stop = perf_session__process_user_event(s, event, offset);
		else
			stop = perf_session__process_kernel_event(s, event, offset);
		perf_session__release_payload(s);
		if (stop)
			break;
		perf_session__drop_passed(s);
	}
	/* at the end, or at a damaged record (err < 0): what was read before it still goes out */
	if (!stop)
		stop = ordered_events__flush_all(s->oe, perf_session__deliver_queued, s);
	if (!stop && s->auxtrace && s->aux_ops.flush_events)
		stop = s->aux_ops.flush_events(s->auxtrace, s);
	if (s->auxtrace && s->aux_ops.free_events)
		s->aux_ops.free_events(s->auxtrace, s);
	s->tool = NULL;
	return libauxtrace__err(stop ? stop : err);
}

int perf_session__read_pipe_header(struct perf_session *s)
{
	union perf_event *event;
	uint64_t offset;
	int ret;

	while ((ret = perf_session__read_event(s, &event, &offset)) > 0) {
		switch (event->header.type) {
		case PERF_RECORD_HEADER_ATTR:
		case PERF_RECORD_HEADER_FEATURE:
		case PERF_RECORD_HEADER_TRACING_DATA:
			ret = perf_session__process_user_event(s, event, offset);
			perf_session__release_payload(s);
			if (ret)
				return ret;
			continue;
		default:
			s->held = true;
			s->held_event = event;
			s->held_offset = offset;
			return 0;
		}
	}
	return ret;
}
