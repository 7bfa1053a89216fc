// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel BTS in a perf_session, as perf 6.1's intel-bts.c: a queue per traced thread, one
 * buffer decoded whole at a time, queues ordered by their buffers' references (TSC), the
 * samples without time or CPU.
 */
#include <auxtrace/intel-bts-decode.h>

#include <internal/auxtrace-info.h>
#include <internal/decode-session.h>
#include <internal/decode-synth.h>
#include <internal/lib.h>

static void *intel_bts_session__dec_new(struct decode_queue *q,
					const struct auxtrace_decode_opts *opts)
{
	(void)q;
	return intel_bts_decoder__new(opts);
}

static void intel_bts_session__dec_free(void *dec)
{
	intel_bts_decoder__delete(dec);
}

static uint64_t intel_bts_session__buffer_time(const struct decode_queue *q,
					       const struct auxtrace_buffer *b)
{
	return auxtrace_tsc_conv__time(&q->ds->tc, b->reference);
}

static uint64_t intel_bts_session__start_time(struct decode_queue *q)
{
	return intel_bts_session__buffer_time(q, auxtrace_buffer__next(q->queue, q->buffer));
}

/* The next buffer, whatever until says: a buffer's branches carry no time of their own. */
static int intel_bts_session__run(struct decode_queue *q, uint64_t until, uint64_t *next)
{
	struct auxtrace_aux_data data;
	struct auxtrace_buffer *b, *after;
	bool final;
	int err;

	(void)until;
	if (!decode_queue__image(q))	/* up to date with the side-band so far */
		return -errno;
	b = decode_queue__next_buffer(q, &data, &final);
	if (!b) {
		q->done = !errno && final;
		return errno ? -errno : 0;
	}
	err = intel_bts_decoder__decode(q->dec, &data);
	auxtrace_buffer__drop_data(b);
	if (err)
		return err;
	after = auxtrace_buffer__next(q->queue, b);
	if (!after)
		return 0;
	*next = intel_bts_session__buffer_time(q, after);
	return 1;
}

static const struct decode_session_ops intel_bts_session_ops = {
	.name = "intel_bts",
	.dec_new = intel_bts_session__dec_new,
	.dec_free = intel_bts_session__dec_free,
	.run = intel_bts_session__run,
	.start_time = intel_bts_session__start_time,
	/* perf's intel-bts.c has only these two */
	.perf_codes = { [AUXTRACE_DECODE_ERR_NOINSN] = 5, [AUXTRACE_DECODE_ERR_LOST] = 9 },
};

static struct auxtrace *intel_bts_session__new(struct perf_session *session,
					       const struct perf_record_auxtrace_info *info)
{
	struct decode_session *ds = decode_session__new(info, &intel_bts_session_ops,
							INTEL_BTS_SNAPSHOT_MODE);

	if (!ds)
		return NULL;
	ds->untimed_samples = true;
	return decode_session__start(ds, session);
}

const struct auxtrace_decoder intel_bts_auxtrace_decoder = {
	.sz = sizeof(struct auxtrace_decoder),
	.name = "intel_bts",
	.type = PERF_AUXTRACE_INTEL_BTS,
	.new = intel_bts_session__new,
};
