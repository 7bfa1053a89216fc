// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel PT instruction flow to samples, through libipt (intel-pt-decode.h): the flow of a
 * region, for the caller's decoder (intel-pt-decode.c) and its workers' (intel-pt-par.c).
 * libipt says which instructions ran; a branch is known to be taken only when the next
 * instruction (or event) is seen, so each instruction waits in flow->prev until then.
 *
 * Branch samples need only the last instruction of each run of straight-line code, which
 * libipt's block decoder gives without handing out every instruction (and remembers the
 * runs it decoded once): two to three times faster than its instruction flow decoder, which
 * is used only where instruction samples need every instruction. A block's last instruction
 * is read from the image (decode-insn-cache.h) and waits in flow->prev as an instruction
 * from the instruction flow decoder would; the samples are the same (test-intel-pt-decode
 * compares the two).
 *
 * The stream of payloads is cut into regions that each start at a PSB (intel-pt-feed.c).
 * Regions that follow each other without a gap carry the waiting instruction across, so a
 * branch whose outcome lies in the next region is still resolved; a region decodes until it
 * ends or the trace time passes what the caller asked for.
 */
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include <internal/decode-image.h>
#include <internal/decode-synth.h>
#include <internal/intel-pt-decoder.h>
#include <internal/lib.h>
#include <internal/x86-branch.h>

void intel_pt_flow__close(struct intel_pt_flow *flow)
{
	pt_insn_free_decoder(flow->insn_dec);
	pt_blk_free_decoder(flow->blk_dec);
	flow->insn_dec = NULL;
	flow->blk_dec = NULL;
}

/* The queries both libipt decoders answer, of the one the region uses. */
static int intel_pt_flow__time(const struct intel_pt_flow *flow, uint64_t *tsc)
{
	return flow->blk_dec ? pt_blk_time(flow->blk_dec, tsc, NULL, NULL)
			     : pt_insn_time(flow->insn_dec, tsc, NULL, NULL);
}

static int intel_pt_flow__offset(const struct intel_pt_flow *flow, uint64_t *offset)
{
	return flow->blk_dec ? pt_blk_get_offset(flow->blk_dec, offset)
			     : pt_insn_get_offset(flow->insn_dec, offset);
}

static int intel_pt_flow__sync_offset(const struct intel_pt_flow *flow, uint64_t *offset)
{
	return flow->blk_dec ? pt_blk_get_sync_offset(flow->blk_dec, offset)
			     : pt_insn_get_sync_offset(flow->insn_dec, offset);
}

static int intel_pt_flow__sync_forward(struct intel_pt_flow *flow)
{
	return flow->blk_dec ? pt_blk_sync_forward(flow->blk_dec)
			     : pt_insn_sync_forward(flow->insn_dec);
}

static int intel_pt_flow__set_image(struct intel_pt_flow *flow, struct pt_image *image)
{
	return flow->blk_dec ? pt_blk_set_image(flow->blk_dec, image)
			     : pt_insn_set_image(flow->insn_dec, image);
}

/*
 * libipt wants an image per decoder: build this decoder's own when the shared one changed
 * since, on the image's section cache or, for a worker, on its own (decode-image.h says
 * why), and give it to the open region's decoder.
 */
int intel_pt_decoder__refresh_image(struct intel_pt_decoder *dec)
{
	struct auxtrace_image *image = dec->synth.opts.image;
	struct pt_image *copy;

	if (dec->pt_image && dec->copied == image && dec->image_generation == image->generation)
		return 0;
	copy = pt_image_alloc(NULL);
	if (!copy || auxtrace_image__rebuild(image, copy, dec->iscache ? dec->iscache :
							  image->iscache) < 0) {
		pt_image_free(copy);
		return -ENOMEM;
	}
	if (intel_pt_flow__is_open(&dec->flow) && intel_pt_flow__set_image(&dec->flow, copy) < 0) {
		pt_image_free(copy);
		return -EINVAL;
	}
	pt_image_free(dec->pt_image);
	dec->pt_image = copy;
	dec->copied = image;
	dec->image_generation = image->generation;
	return 0;
}

/* Position and time for a sample or an error about to be made. */
static const struct decode_where *intel_pt_flow__where(struct intel_pt_flow *flow,
						       const struct pt_event *ev)
{
	uint64_t tsc = 0, offset = 0;

	if (flow->at_blk_start) {
		tsc = flow->blk_tsc;
		offset = flow->blk_offset;
	} else {
		if (ev && ev->has_tsc)
			tsc = ev->tsc;
		else if (intel_pt_flow__time(flow, &tsc) < 0)
			tsc = 0;
		intel_pt_flow__offset(flow, &offset);
	}
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

/*
 * perf counts a period in ticks over straight runs of code: one ends where tracing starts,
 * stops or is interrupted, and where it stops (or the hardware lost trace) the next
 * boundary is found afresh.
 */
static void intel_pt_flow__tick_restart(struct intel_pt_flow *flow, const struct pt_event *ev)
{
	switch (ev->type) {
	case ptev_enabled:
	case ptev_async_branch:
		decode_synth__tick_restart(&flow->dec->synth, false);
		break;
	case ptev_disabled:
	case ptev_async_disabled:
	case ptev_overflow:
		decode_synth__tick_restart(&flow->dec->synth, true);
		break;
	default:
		break;	/* mode, paging, timing and power events do not break the flow */
	}
}

static int intel_pt_flow__event(struct intel_pt_flow *flow, const struct pt_event *ev)
{
	const uint32_t async = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL |
			       AUXTRACE_IP_FLAG_ASYNC | AUXTRACE_IP_FLAG_INTERRUPT;
	int err;

	intel_pt_flow__tick_restart(flow, ev);
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
		flow->head_unsure = flow->head_unsure || flow->in_head;
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

		status = flow->blk_dec ? pt_blk_event(flow->blk_dec, &ev, sizeof(ev))
				       : pt_insn_event(flow->insn_dec, &ev, sizeof(ev));
		if (status >= 0)
			*cb_err = intel_pt_flow__event(flow, &ev);
		if (*cb_err < 0)
			break;
	}
	return status;
}

/*
 * Passing over what the previous region decoded (intel_pt_flow__open): true for the
 * instructions up to the branch it stopped at, which becomes prev again. A branch that is
 * not that one means the trace went elsewhere: decoding goes on normally from it.
 */
static bool intel_pt_flow__seen(struct intel_pt_flow *flow, const struct pt_insn *insn)
{
	if (insn->ip == flow->skip_to) {
		flow->skip_to = 0;
		flow->prev = *insn;
		flow->have_prev = true;
		flow->last_ip = insn->ip;
		return true;
	}
	if (insn->iclass != ptic_other) {
		flow->skip_to = 0;
		return false;
	}
	flow->last_ip = insn->ip;
	return true;
}

/* libipt's estimate of the trace time at the decoder's position: 0 before any timestamp. */
uint64_t intel_pt_flow__tsc(const struct intel_pt_flow *flow)
{
	uint64_t tsc = 0;

	return intel_pt_flow__time(flow, &tsc) < 0 ? 0 : tsc;
}

/*
 * Does insn complete a period of instructions or ticks? In ticks, perf's estimate of the
 * time: libipt's (which moves at timing packets only, unless CYC packets refine it) plus
 * one tick per instruction since it last moved.
 */
static bool intel_pt_flow__insn_due(struct intel_pt_flow *flow, const struct pt_insn *insn)
{
	struct decode_synth *synth = &flow->dec->synth;
	uint64_t tsc;

	if (!synth->opts.insn_period_ticks)
		return decode_synth__insn_due(synth);
	tsc = intel_pt_flow__tsc(flow);
	if (tsc != flow->tick_tsc) {
		flow->tick_tsc = tsc;
		flow->tick_insns = 0;
	}
	return decode_synth__tick_due(synth, tsc + flow->tick_insns++,
				      insn->iclass != ptic_other && insn->iclass != ptic_ptwrite);
}

static int intel_pt_flow__insn(struct intel_pt_flow *flow, const struct pt_insn *insn)
{
	int err;

	if (flow->skip_to && intel_pt_flow__seen(flow, insn))
		return 0;
	err = intel_pt_flow__resolve(flow, NULL, insn->ip);
	if (err < 0)
		return err;
	if (intel_pt_flow__insn_due(flow, insn)) {
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
	bool synced = intel_pt_flow__sync_offset(flow, &before) >= 0;
	enum pt_error_code code = pt_errcode(status);

	flow->head_unsure = flow->head_unsure || flow->in_head;
	*cb_err = decode_synth__error(&flow->dec->synth, intel_pt_flow__where(flow, NULL),
				      code == pte_nomap ? AUXTRACE_DECODE_ERR_NOINSN :
				      AUXTRACE_DECODE_ERR_TRACE, code, flow->last_ip, "libipt: %s%s",
				      pt_errstr(code), code == pte_nomap ?
				      ": the image has no code there" : "");
	flow->have_prev = false;
	decode_synth__tick_restart(&flow->dec->synth, true);
	if (*cb_err < 0)
		return -pte_eos;
	status = intel_pt_flow__sync_forward(flow);
	/* A sync point that does not move on would decode the same error forever. */
	if (status >= 0 && synced && intel_pt_flow__sync_offset(flow, &after) >= 0 &&
	    after <= before)
		return -pte_eos;
	return status;
}

/* libipt's class of an instruction, from the branch it is (x86_branch__flags). */
static enum pt_insn_class intel_pt_insn__class(uint32_t flags)
{
	if (flags & AUXTRACE_IP_FLAG_CONDITIONAL)
		return ptic_cond_jump;
	if (flags & AUXTRACE_IP_FLAG_RETURN)
		return ptic_return;
	if (flags & AUXTRACE_IP_FLAG_CALL)
		return ptic_call;
	return flags ? ptic_jump : ptic_other;
}

/*
 * The last instruction of block as the instruction flow decoder gives it, as far as the
 * flow uses it: address, class, size and bytes of a branch (an instruction that is none
 * gets size 0). Whether libipt needed trace to go on after it is true for conditional and
 * indirect branches, returns and far transfers: direct calls and jumps are the branches it
 * follows alone (they end a block only because the flow asks it to).
 */
static void intel_pt_block__last(struct intel_pt_decoder *dec, const struct pt_block *block,
				 struct pt_insn *last, bool *needed_trace)
{
	const bool x86_64 = block->mode == ptem_64bit;
	const struct decode_insn *insn = NULL;
	struct decode_insn one;

	if (block->truncated || !x86_64) {	/* rare: not worth the cache */
		ssize_t n = block->size;

		if (block->truncated)
			memcpy(one.raw, block->raw, sizeof(one.raw));
		else
			n = auxtrace_image__read_hint(dec->synth.opts.image, block->end_ip,
						      one.raw, sizeof(one.raw), &dec->insns.hint);
		if (n > 0) {
			decode_insn__classify(&one, (size_t)n, x86_64);
			insn = &one;
		}
	} else {
		insn = decode_insn_cache__get(&dec->insns, dec->synth.opts.image, block->end_ip);
	}
	memset(last, 0, sizeof(*last));
	last->ip = block->end_ip;
	last->mode = block->mode;
	/* none: unreadable now, though libipt read it, so the image changed since */
	if (insn) {
		memcpy(last->raw, insn->raw, sizeof(last->raw));
		last->size = insn->len;
	}
	last->iclass = intel_pt_insn__class(insn ? insn->flags : 0);
	*needed_trace = insn && insn->flags && !insn->direct;
}

/*
 * A block ran: the instruction waiting in prev branched to its first instruction or not,
 * and its last one waits now. Its sample gets the time the instruction flow decoder would
 * have when giving the block's first instruction: libipt's time before the block, or after
 * it when that instruction is the block's only one and libipt needed trace to go on after
 * it; the same for its position. Passing over what the previous region decoded
 * (intel_pt_flow__open) ends in the block that holds skip_to or ends in a branch, as
 * intel_pt_flow__seen ends it.
 */
static int intel_pt_flow__block(struct intel_pt_flow *flow, const struct pt_block *block)
{
	struct pt_insn last;
	bool needed_trace;
	int err = 0;

	flow->dec->synth.stats.instructions += block->ninsn;
	intel_pt_block__last(flow->dec, block, &last, &needed_trace);
	if (flow->skip_to) {
		if ((flow->skip_to < block->ip || flow->skip_to > block->end_ip) &&
		    last.iclass == ptic_other) {
			flow->last_ip = last.ip;
			return 0;
		}
		flow->skip_to = 0;
	} else {
		flow->at_blk_start = block->ninsn > 1 || !needed_trace;
		err = intel_pt_flow__resolve(flow, NULL, block->ip);
		flow->at_blk_start = false;
	}
	flow->prev = last;
	flow->have_prev = true;
	flow->last_ip = last.ip;
	flow->in_head = flow->in_head && last.iclass == ptic_other;
	return err;
}

/* The next block or instruction: 0 or libipt's status in *status, -errno from a callback. */
static int intel_pt_flow__step(struct intel_pt_flow *flow, int *status)
{
	if (flow->blk_dec) {
		struct pt_block block;

		block.ninsn = 0;
		flow->blk_tsc = intel_pt_flow__tsc(flow);
		intel_pt_flow__offset(flow, &flow->blk_offset);
		*status = pt_blk_next(flow->blk_dec, &block, sizeof(block));
		/* An error may come after valid instructions: take them. */
		return block.ninsn ? intel_pt_flow__block(flow, &block) : 0;
	} else {
		struct pt_insn insn;

		insn.iclass = ptic_error;
		*status = pt_insn_next(flow->insn_dec, &insn, sizeof(insn));
		/* An error may come after a valid instruction: take the instruction. */
		return insn.iclass != ptic_error ? intel_pt_flow__insn(flow, &insn) : 0;
	}
}

/*
 * Decode the open region until it ends (0) or, before the next instruction, the trace time
 * reaches until_tsc (1: paused, the state kept for the next call). -errno from a callback.
 */
int intel_pt_flow__run(struct intel_pt_flow *flow, uint64_t until_tsc)
{
	int status = flow->status, cb_err = 0;

	while (status != -pte_eos) {
		uint64_t tsc;

		if (until_tsc != UINT64_MAX && (tsc = intel_pt_flow__tsc(flow)) &&
		    tsc >= until_tsc) {
			flow->status = status;
			return 1;
		}
		if (status >= 0)
			status = intel_pt_flow__events(flow, status, &cb_err);
		if (cb_err < 0)
			return cb_err;
		if (status >= 0) {
			cb_err = intel_pt_flow__step(flow, &status);
			if (cb_err < 0)
				return cb_err;
		}
		if (status < 0 && status != -pte_eos)
			status = intel_pt_flow__recover(flow, status, &cb_err);
		if (cb_err < 0)
			return cb_err;
	}
	flow->status = status;
	return 0;
}

/*
 * Start decoding a region at its first PSB. A region that continues the previous one
 * starts where the trace was at its PSB, before the branch the previous region stopped at
 * for want of its outcome: the instructions up to that branch ran once and were decoded
 * already, so they are passed over (see intel_pt_flow__insn).
 */
int intel_pt_flow__open(struct intel_pt_flow *flow, const struct intel_pt_region *r)
{
	struct pt_config config;

	intel_pt_flow__close(flow);
	flow->where.data = &r->data;
	flow->skip_to = r->continues && flow->have_prev ? flow->prev.ip : 0;
	flow->have_prev = false;
	flow->in_head = true;
	flow->head_unsure = false;
	/* a region after a gap is synced to afresh, as perf syncs after a loss */
	decode_synth__tick_restart(&flow->dec->synth, !r->continues);
	pt_config_init(&config);
	config.begin = (uint8_t *)r->buf;	/* libipt only reads it */
	config.end = config.begin + r->size;
	if (flow->dec->synth.opts.instructions) {
		flow->insn_dec = pt_insn_alloc_decoder(&config);
	} else {
		/* a block per branch: the flow samples direct calls and jumps too */
		config.flags.variant.block.end_on_call = 1;
		config.flags.variant.block.end_on_jump = 1;
		flow->blk_dec = pt_blk_alloc_decoder(&config);
	}
	if (!intel_pt_flow__is_open(flow))
		return -ENOMEM;
	if (intel_pt_flow__set_image(flow, flow->dec->pt_image) < 0)
		return -EINVAL;
	flow->status = intel_pt_flow__sync_forward(flow);
	return 0;
}
