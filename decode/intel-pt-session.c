// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel PT in a perf_session, as perf 6.1's intel-pt.c: a queue per CPU (or thread), each a
 * stream that the decoder follows across its buffers (intel_pt_decoder__feed), stopped
 * whenever its trace reaches the time of what comes next, so that queues and side-band
 * interleave in time. Without timestamps (no tsc in the event's config, or a record
 * without time) the trace is decoded when its thread exits and at the end, as perf does.
 */
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/intel-pt-decode.h>

#include <internal/auxtrace-info.h>
#include <internal/decode-session.h>
#include <internal/decode-synth.h>
#include <internal/intel-pt-decoder.h>
#include <internal/lib.h>
#include <internal/session.h>

static void *intel_pt_session__dec_new(struct decode_queue *q,
				       const struct auxtrace_decode_opts *opts)
{
	(void)q;
	return intel_pt_decoder__new(opts);
}

static void intel_pt_session__dec_free(void *dec)
{
	intel_pt_decoder__delete(dec);
}

/* When the queue's next buffer begins: its first timestamp (mapped for a look). */
static uint64_t intel_pt_session__start_time(struct decode_queue *q)
{
	struct auxtrace_buffer *b = auxtrace_buffer__next(q->queue, q->buffer);
	bool mapped = b->mmap_addr != NULL;
	const void *data = auxtrace_buffer__get_data(b);
	uint64_t tsc = data ? intel_pt__first_tsc(data, b->size) : 0;

	if (!mapped)
		auxtrace_buffer__put_data(b);
	return tsc ? auxtrace_tsc_conv__time(&q->ds->tc, tsc) : 0;
}

/* Feed the stream buffer after buffer; at the last one of the recording, end it. */
static int intel_pt_session__run(struct decode_queue *q, uint64_t until, uint64_t *next)
{
	struct intel_pt_decoder *dec = q->dec;
	struct auxtrace_aux_data data;
	bool final;
	int err;

	for (;;) {
		struct auxtrace_image *image = decode_queue__image(q);

		if (!image)
			return -errno;
		intel_pt_decoder__set_image(dec, image);	/* the thread may have changed */
		err = intel_pt_decoder__run(dec, until, next);
		if (err)
			return err;
		if (q->ended) {
			q->done = true;
			return 0;
		}
		if (decode_queue__next_buffer(q, &data, &final)) {
			err = intel_pt_decoder__feed(dec, &data);
		} else if (errno) {
			return -errno;
		} else if (!final) {
			return 0;	/* more comes through the pipe */
		} else {
			q->ended = true;
			err = intel_pt_decoder__end(dec);
		}
		if (err)
			return err;
	}
}

static const struct decode_session_ops intel_pt_session_ops = {
	.name = "intel_pt",
	.instructions = true,
	.dec_new = intel_pt_session__dec_new,
	.dec_free = intel_pt_session__dec_free,
	.run = intel_pt_session__run,
	.start_time = intel_pt_session__start_time,
	/* perf's INTEL_PT_ERR_BADPKT, _NOINSN, _OVR and _LOST */
	.perf_codes = { [AUXTRACE_DECODE_ERR_TRACE] = 3, [AUXTRACE_DECODE_ERR_NOINSN] = 5,
			[AUXTRACE_DECODE_ERR_OVERFLOW] = 7, [AUXTRACE_DECODE_ERR_LOST] = 8 },
};

/*
 * perf's rule: trace is decoded in time only when every event samples the time and the
 * Intel PT events trace with TSC packets, converted with a time_zero the kernel gave.
 */
static bool intel_pt_session__timeless(const struct decode_session *ds, uint64_t tsc_bit,
				       bool cap_user_time_zero)
{
	const struct itrace_synth_opts *o = ds->session->opts.itrace_synth_opts;
	struct evlist *evlist = perf_session__evlist(ds->session);
	struct evsel *evsel;

	if (!tsc_bit || !cap_user_time_zero || !ds->tc.time_mult ||
	    (o && o->set && o->timeless_decoding))
		return true;
	evlist__for_each_entry(evlist, evsel) {
		const struct perf_event_attr *attr = evsel__attr(evsel);

		if (!(attr->sample_type & PERF_SAMPLE_TIME))
			return true;
		if (attr->type == ds->pmu_type && !(attr->config & tsc_bit))
			return true;
	}
	return false;
}

static struct auxtrace *intel_pt_session__new(struct perf_session *session,
					      const struct perf_record_auxtrace_info *info)
{
	size_t nr = (info->header.size - sizeof(*info)) / sizeof(uint64_t);
	struct decode_session *ds = decode_session__new(info, &intel_pt_session_ops,
							INTEL_PT_PER_CPU_MMAPS);

	if (!ds)
		return NULL;
	ds->session = session;
	ds->per_cpu = nr > INTEL_PT_PER_CPU_MMAPS && info->priv[INTEL_PT_PER_CPU_MMAPS];
	ds->timeless = intel_pt_session__timeless(ds, info->priv[INTEL_PT_TSC_BIT],
						  info->priv[INTEL_PT_CAP_USER_TIME_ZERO]);
	return decode_session__start(ds, session);
}

const struct auxtrace_decoder intel_pt_auxtrace_decoder = {
	.sz = sizeof(struct auxtrace_decoder),
	.name = "intel_pt",
	.type = PERF_AUXTRACE_INTEL_PT,
	.new = intel_pt_session__new,
};
