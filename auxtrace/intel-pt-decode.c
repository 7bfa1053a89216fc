// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel PT instruction flow to samples, through libipt's instruction flow decoder
 * (intel-pt-decode.h). libipt says which instructions ran; a branch is known to be taken
 * only when the next instruction (or event) is seen, so each instruction waits in
 * flow->prev until then.
 */
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>
#include <auxtrace/intel-pt-decode.h>

#include <internal/decode-image.h>
#include <internal/decode-synth.h>
#include <internal/lib.h>
#include <internal/x86-branch.h>

struct intel_pt_decoder {
	struct decode_synth synth;
	struct pt_image *pt_image;	/* this decoder's copy of opts.image */
	uint64_t image_generation;	/* of opts.image when copied */
};

/* One decode call. */
struct intel_pt_flow {
	struct intel_pt_decoder *dec;
	struct pt_insn_decoder *insn_dec;
	struct decode_where where;
	struct pt_insn prev;		/* the last instruction, when have_prev */
	bool have_prev;
	uint64_t last_ip;		/* of the last instruction or event: errors name it */
};

struct intel_pt_decoder *intel_pt_decoder__new(const struct auxtrace_decode_opts *opts)
{
	struct intel_pt_decoder *dec = calloc(1, sizeof(*dec));
	int err;

	if (!dec)
		return libauxtrace__ptr_err(ENOMEM);
	err = decode_synth__init(&dec->synth, opts, "intel_pt decoder");
	if (!err && !dec->synth.opts.image) {
		pr_err("intel_pt decoder: no image: Intel PT records only where branches go, "
		       "so the code that ran must be given (auxtrace_image__add_file)\n");
		err = -EINVAL;
	}
	if (err) {
		free(dec);
		return libauxtrace__ptr_err(err);
	}
	return dec;
}

void intel_pt_decoder__delete(struct intel_pt_decoder *dec)
{
	if (!dec)
		return;
	pt_image_free(dec->pt_image);
	free(dec);
}

const struct auxtrace_decode_stats *intel_pt_decoder__stats(const struct intel_pt_decoder *dec)
{
	return &dec->synth.stats;
}

/* libipt wants an image per decoder: copy the shared one when it grew since the last copy. */
static int intel_pt_decoder__refresh_image(struct intel_pt_decoder *dec)
{
	struct auxtrace_image *image = dec->synth.opts.image;
	struct pt_image *copy;

	if (dec->pt_image && dec->image_generation == image->generation)
		return 0;
	copy = pt_image_alloc(NULL);
	if (!copy || pt_image_copy(copy, image->pt_image) < 0) {
		pt_image_free(copy);
		return -ENOMEM;
	}
	pt_image_free(dec->pt_image);
	dec->pt_image = copy;
	dec->image_generation = image->generation;
	return 0;
}

/* Position and time for a sample or an error about to be made. */
static const struct decode_where *intel_pt_flow__where(struct intel_pt_flow *flow,
						       const struct pt_event *ev)
{
	uint64_t tsc = 0, offset = 0;

	if (ev && ev->has_tsc)
		tsc = ev->tsc;
	else if (pt_insn_time(flow->insn_dec, &tsc, NULL, NULL) < 0)
		tsc = 0;
	pt_insn_get_offset(flow->insn_dec, &offset);
	flow->where.offset = offset;
	flow->where.time = tsc ? decode_synth__time(&flow->dec->synth, tsc) : 0;
	return &flow->where;
}

static uint32_t intel_pt_insn__flags(const struct pt_insn *insn)
{
	return x86_branch__flags(insn->raw, insn->size, insn->mode == ptem_64bit);
}

static int intel_pt_flow__branch(struct intel_pt_flow *flow, const struct pt_event *ev,
				 uint64_t from, uint64_t to, uint32_t flags, uint8_t insn_len)
{
	if (!flow->dec->synth.opts.branches)
		return 0;
	return decode_synth__branch(&flow->dec->synth, intel_pt_flow__where(flow, ev), from, to,
				    flags, insn_len);
}

/* Execution went on at ip after flow->prev: a branch sample if prev branched there. */
static int intel_pt_flow__resolve(struct intel_pt_flow *flow, const struct pt_event *ev,
				  uint64_t ip)
{
	const struct pt_insn *prev = &flow->prev;

	if (!flow->have_prev)
		return 0;
	flow->have_prev = false;
	switch (prev->iclass) {
	case ptic_cond_jump:
		/* libipt does not say taken; a jump to the next instruction reads as not */
		if (ip == prev->ip + prev->size)
			return 0;
		/* fall through */
	case ptic_call:
	case ptic_return:
	case ptic_jump:
	case ptic_far_call:
	case ptic_far_return:
	case ptic_far_jump:
		return intel_pt_flow__branch(flow, ev, prev->ip, ip, intel_pt_insn__flags(prev),
					     prev->size);
	default:
		return 0;
	}
}

static int intel_pt_flow__event(struct intel_pt_flow *flow, const struct pt_event *ev)
{
	const uint32_t async = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL |
			       AUXTRACE_IP_FLAG_ASYNC | AUXTRACE_IP_FLAG_INTERRUPT;
	int err;

	switch (ev->type) {
	case ptev_enabled:
		flow->have_prev = false;
		flow->last_ip = ev->variant.enabled.ip;
		if (ev->variant.enabled.resumed)
			return 0;
		return intel_pt_flow__branch(flow, ev, 0, ev->variant.enabled.ip,
					     AUXTRACE_IP_FLAG_BRANCH |
					     AUXTRACE_IP_FLAG_TRACE_BEGIN, 0);
	case ptev_disabled:
		if (!flow->have_prev)
			return 0;
		flow->have_prev = false;
		return intel_pt_flow__branch(flow, ev, flow->prev.ip,
					     ev->ip_suppressed ? 0 : ev->variant.disabled.ip,
					     intel_pt_insn__flags(&flow->prev) |
					     AUXTRACE_IP_FLAG_TRACE_END, flow->prev.size);
	case ptev_async_disabled:
		err = intel_pt_flow__resolve(flow, ev, ev->variant.async_disabled.at);
		if (err < 0)
			return err;
		return intel_pt_flow__branch(flow, ev, ev->variant.async_disabled.at, 0,
					     AUXTRACE_IP_FLAG_BRANCH |
					     AUXTRACE_IP_FLAG_TRACE_END, 0);
	case ptev_async_branch:
		err = intel_pt_flow__resolve(flow, ev, ev->variant.async_branch.from);
		if (err < 0)
			return err;
		return intel_pt_flow__branch(flow, ev, ev->variant.async_branch.from,
					     ev->variant.async_branch.to, async, 0);
	case ptev_overflow:
		flow->have_prev = false;
		return decode_synth__error(&flow->dec->synth, intel_pt_flow__where(flow, ev),
					   AUXTRACE_DECODE_ERR_OVERFLOW, 0, 0,
					   "Overflow packet: the hardware dropped trace, which "
					   "resumes at %#llx",
					   (unsigned long long)ev->variant.overflow.ip);
	default:
		return 0;	/* mode, paging, timing and power events make no sample */
	}
}

/* Take the events libipt has queued. The new status, or -errno from a callback. */
static int intel_pt_flow__events(struct intel_pt_flow *flow, int status, int *cb_err)
{
	while (status >= 0 && (status & pts_event_pending)) {
		struct pt_event ev;

		status = pt_insn_event(flow->insn_dec, &ev, sizeof(ev));
		if (status >= 0)
			*cb_err = intel_pt_flow__event(flow, &ev);
		if (*cb_err < 0)
			break;
	}
	return status;
}

static int intel_pt_flow__insn(struct intel_pt_flow *flow, const struct pt_insn *insn)
{
	int err = intel_pt_flow__resolve(flow, NULL, insn->ip);

	if (err < 0)
		return err;
	if (decode_synth__insn_due(&flow->dec->synth)) {
		err = decode_synth__insn_sample(&flow->dec->synth, intel_pt_flow__where(flow, NULL),
						insn->ip, insn->size);
		if (err < 0)
			return err;
	}
	flow->prev = *insn;
	flow->have_prev = true;
	flow->last_ip = insn->ip;
	return 0;
}

/*
 * libipt rejected the trace: report where and why, then go on at the next PSB. Returns the
 * sync status (-pte_eos: nothing left), or -errno from the callback in *cb_err.
 */
static int intel_pt_flow__recover(struct intel_pt_flow *flow, int status, int *cb_err)
{
	uint64_t before = 0, after = 0;
	bool synced = pt_insn_get_sync_offset(flow->insn_dec, &before) >= 0;
	enum pt_error_code code = pt_errcode(status);

	*cb_err = decode_synth__error(&flow->dec->synth, intel_pt_flow__where(flow, NULL),
				      code == pte_nomap ? AUXTRACE_DECODE_ERR_NOINSN :
				      AUXTRACE_DECODE_ERR_TRACE, code, flow->last_ip, "libipt: %s%s",
				      pt_errstr(code), code == pte_nomap ?
				      ": the image has no code there" : "");
	flow->have_prev = false;
	if (*cb_err < 0)
		return -pte_eos;
	status = pt_insn_sync_forward(flow->insn_dec);
	/* A sync point that does not move on would decode the same error forever. */
	if (status >= 0 && synced && pt_insn_get_sync_offset(flow->insn_dec, &after) >= 0 &&
	    after <= before)
		return -pte_eos;
	return status;
}

static int intel_pt_flow__run(struct intel_pt_flow *flow)
{
	int status = pt_insn_sync_forward(flow->insn_dec), cb_err = 0;

	while (status != -pte_eos) {
		struct pt_insn insn;

		if (status >= 0)
			status = intel_pt_flow__events(flow, status, &cb_err);
		if (cb_err < 0)
			return cb_err;
		if (status >= 0) {
			insn.iclass = ptic_error;
			status = pt_insn_next(flow->insn_dec, &insn, sizeof(insn));
			/* An error may come after a valid instruction: take the instruction. */
			if (insn.iclass != ptic_error)
				cb_err = intel_pt_flow__insn(flow, &insn);
			if (cb_err < 0)
				return cb_err;
		}
		if (status < 0 && status != -pte_eos)
			status = intel_pt_flow__recover(flow, status, &cb_err);
		if (cb_err < 0)
			return cb_err;
	}
	return 0;
}

int intel_pt_decoder__decode(struct intel_pt_decoder *dec, const struct auxtrace_aux_data *data)
{
	struct intel_pt_flow flow = { .dec = dec, .where = { .data = data } };
	struct pt_config config;
	int err;

	dec->synth.stats.bytes += data->size;
	if (!dec->synth.opts.branches && !dec->synth.opts.instructions && !dec->synth.opts.errors)
		return 0;
	if (!data->size)
		return 0;
	err = intel_pt_decoder__refresh_image(dec);
	if (err)
		return libauxtrace__err(err);
	pt_config_init(&config);
	config.begin = (uint8_t *)data->data;	/* libipt only reads it */
	config.end = config.begin + data->size;
	flow.insn_dec = pt_insn_alloc_decoder(&config);
	if (!flow.insn_dec)
		return libauxtrace__err(-ENOMEM);
	err = pt_insn_set_image(flow.insn_dec, dec->pt_image) < 0 ? -EINVAL
									: intel_pt_flow__run(&flow);
	pt_insn_free_decoder(flow.insn_dec);
	return err < 0 ? libauxtrace__err(err) : 0;
}
