/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * struct intel_pt_decoder inside, shared by its two halves: the flow that decodes regions
 * (intel-pt-decode.c) and the feeding that cuts a stream of payloads into them
 * (intel-pt-feed.c).
 */
#ifndef AUXTRACE_INTERNAL_INTEL_PT_DECODER_H
#define AUXTRACE_INTERNAL_INTEL_PT_DECODER_H

#include <stdbool.h>
#include <stdint.h>

#include <intel-pt.h>
#include <auxtrace/decode.h>

#include <internal/decode-insn-cache.h>
#include <internal/decode-synth.h>

/* Trace after a stream's last PSB waits for the next payload, up to this much; beyond it
 * (a payload without any PSB), it is decoded alone. */
#define INTEL_PT_MAX_PENDING	(16u << 20)
#define INTEL_PT_PSB_LEN	16
#define INTEL_PT_MAX_PAD	7	/* what perf's AUXTRACE framing pads a payload with */
/* Regions are cut at the first PSB past this many bytes, a quarter of it in the last four
 * pieces' worth of a stretch (intel_pt_decoder__add_regions). */
#define INTEL_PT_PIECE		(16u << 10)

/* Bytes that start at a PSB, decoded as one libipt buffer. */
struct intel_pt_region {
	const uint8_t *buf;
	size_t size;
	struct auxtrace_aux_data data;	/* samples' cpu, pid, tid; offset of buf[0] */
	bool continues;			/* right after the previous region: no gap */
	uint64_t next_tsc;		/* the TSC of the PSB+ after it; 0: unknown (no workers) */
};

/* The region being decoded. */
struct intel_pt_flow {
	struct intel_pt_decoder *dec;
	/* The region's libipt decoder: one of the two, none when no region is open. */
	struct pt_insn_decoder *insn_dec;
	struct pt_block_decoder *blk_dec;
	/* libipt's time and position before the block being taken, and whether a sample
	 * gets them rather than libipt's now (intel_pt_flow__block) */
	uint64_t blk_tsc, blk_offset;
	bool at_blk_start;
	struct decode_where where;
	int status;			/* libipt's, between runs */
	struct pt_insn prev;		/* the last instruction, when have_prev */
	bool have_prev;
	uint64_t skip_to;		/* decoded already up to this branch; 0: nothing */
	uint64_t last_ip;		/* of the last instruction or event: errors name it */
	uint64_t tick_tsc;		/* periods in ticks: libipt's time when it last changed, */
	uint64_t tick_insns;		/* and the instructions since */
	/*
	 * No block that ends in a branch decoded yet in this region: where decoding it after
	 * the region before (passing over what that one decoded) and decoding it alone can
	 * differ, and head_unsure says they may have: a trace stop or an error came then,
	 * whose sample or message depends on what was decoded before (intel-pt-par.c).
	 */
	bool in_head, head_unsure;
};

struct intel_pt_decoder {
	struct decode_synth synth;
	struct pt_image *pt_image;	/* this decoder's copy of opts.image, */
	/* a worker's: the cache of its own it builds that copy on; NULL: the image's */
	struct pt_image_section_cache *iscache;
	const struct auxtrace_image *copied;	/* the image it copies, */
	uint64_t image_generation;		/* as it was then */
	struct intel_pt_flow flow;
	struct decode_insn_cache insns;	/* the blocks' last instructions */
	struct intel_pt_region *regions;	/* what the last feed left to decode */
	unsigned int nr_regions, next_region, alloc_regions;
	bool fed;			/* a stream has begun: stream_end is valid */
	uint64_t stream_end;		/* AUX offset after the last byte fed */
	uint8_t *pending;		/* the stream's bytes after its last PSB */
	size_t pending_len, pending_alloc;
	uint64_t pending_offset;
	struct auxtrace_aux_data pending_of;	/* cpu, pid, tid of the payload it came from */
	/* the end of a stream without a PSB yet: what may begin one, and padding */
	uint8_t fragment[INTEL_PT_PSB_LEN - 1 + INTEL_PT_MAX_PAD];
	size_t fragment_len;
	uint8_t *join;			/* a region of pending and the next payload's head */
	size_t join_alloc;
	struct intel_pt_par *par;	/* workers (opts.nr_threads > 1); NULL: none */
};

static inline bool intel_pt_flow__is_open(const struct intel_pt_flow *flow)
{
	return flow->insn_dec || flow->blk_dec;
}

/* intel-pt-feed.c: the TSC of the first PSB+ in buf, 0 when it has none. */
uint64_t intel_pt__first_tsc(const void *buf, size_t size);

/* Nothing asked for: payloads are only counted. */
static inline bool intel_pt_decoder__wants_nothing(const struct intel_pt_decoder *dec)
{
	const struct auxtrace_decode_opts *o = &dec->synth.opts;

	return !o->branches && !o->instructions && !o->errors;
}

/*
 * intel-pt-flow.c: a decoder's copy of its image brought up to date (0, -ENOMEM, -EINVAL);
 * a region opened, decoded until it ends (0) or its time reaches until_tsc (1), and closed;
 * libipt's time where the flow is (0 before any).
 */
int intel_pt_decoder__refresh_image(struct intel_pt_decoder *dec);
int intel_pt_flow__open(struct intel_pt_flow *flow, const struct intel_pt_region *r);
int intel_pt_flow__run(struct intel_pt_flow *flow, uint64_t until_tsc);
void intel_pt_flow__close(struct intel_pt_flow *flow);
uint64_t intel_pt_flow__tsc(const struct intel_pt_flow *flow);

/*
 * intel-pt-par.c. intel_pt_par__new() starts opts->nr_threads - 1 workers, each with a
 * decoder dec_new makes (intel_pt_decoder__new: handed in, so that the files call each
 * other one way only); NULL, nothing started, when it cannot. intel_pt_par__give_out() queues the regions of dec that end before
 * until_tsc from dec->next_region on; intel_pt_par__take() hands out region's samples
 * when a worker decoded it (1), or leaves it to the caller (0: a worker did not take it, or
 * its list differs from what decoding in order makes), or returns a callback's -errno.
 * intel_pt_par__cancel() waits for the workers and forgets what was queued;
 * intel_pt_par__restart() forgets it at a new feed, whose regions count from 0 again.
 */
struct intel_pt_par *intel_pt_par__new(const struct auxtrace_decode_opts *opts,
				       struct intel_pt_decoder *(*dec_new)(
					       const struct auxtrace_decode_opts *opts),
				       void (*dec_delete)(struct intel_pt_decoder *dec));
void intel_pt_par__delete(struct intel_pt_par *par);
void intel_pt_par__give_out(struct intel_pt_decoder *dec, uint64_t until_tsc);
int intel_pt_par__take(struct intel_pt_decoder *dec, unsigned int region);
void intel_pt_par__cancel(struct intel_pt_decoder *dec);
void intel_pt_par__restart(struct intel_pt_par *par);

#endif
