/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Intel PT decoding through libipt, Intel's reference decoder.
 *
 * The instruction flow decoder follows the trace through the image (opts.image, required)
 * and synthesizes, as perf's --itrace does:
 *  - branches: one sample per taken branch (a conditional branch that falls through gives
 *    none), from = the branch instruction, to = where execution went; tracing that begins
 *    (TIP.PGE) gives from = 0 with trace begin, tracing that ends (TIP.PGD) gives to = 0 (or
 *    the target the packet names) with trace end and the flags of the last instruction; an
 *    interrupt gives call + async + interrupt;
 *  - instructions: one sample every insn_period instructions, or with insn_period_ticks
 *    when the trace's time passes each period of TSC ticks, as perf does;
 *  - errors: where libipt rejects the trace, the offset and libipt's message; decoding then
 *    resumes at the next PSB. An overflow (OVF) is an error too, as in perf.
 * Times are libipt's TSC estimate converted with opts.tsc.
 *
 * Two ways to hand it trace. intel_pt_decoder__decode() takes one payload on its own, from
 * its first PSB: trace before it, or after its last PSB that continues into a next payload,
 * is decoded only as far as libipt can without the missing bytes. The stream calls take
 * the payloads of one AUX queue in order and decode them as the one trace they are, up to
 * a time the caller chooses:
 *
 *	intel_pt_decoder__feed(dec, &payload1);
 *	while ((err = intel_pt_decoder__run(dec, until, &now)) == 1)
 *		(the trace reached until: do what comes first, choose a later until)
 *	(err 0: payload1 is used up; it may be unmapped now)
 *	intel_pt_decoder__feed(dec, &payload2);	(its offset where payload1's trace ended: the
 *	...					 trace goes on across the boundary)
 *	intel_pt_decoder__end(dec); intel_pt_decoder__run(dec, UINT64_MAX, NULL);
 *
 * libipt decodes one contiguous buffer from a PSB, so the decoder copies a payload's bytes
 * after its last PSB and joins them with the next payload's bytes before its first PSB.
 * A payload continues the previous one when its offset is where that one's trace ended,
 * up to 7 bytes before its end (the zero padding perf's AUXTRACE framing adds, dropped);
 * any other starts a new trace at its first PSB, as after a loss. The two ways are not
 * mixed on one decoder.
 */
#ifndef AUXTRACE_INTEL_PT_DECODE_H
#define AUXTRACE_INTEL_PT_DECODE_H

#include <auxtrace/decode.h>

#ifdef __cplusplus
extern "C" {
#endif

struct intel_pt_decoder;

/*
 * intel_pt_decoder__new() returns a decoder (intel_pt_decoder__delete); opts is copied, its
 * image borrowed. NULL + errno: EINVAL when opts is inconsistent, has no image (the log says
 * which field) or is refused by the rule of option structs (auxtrace/core.h), ENOMEM.
 */
AUXTRACE_API struct intel_pt_decoder *
intel_pt_decoder__new(const struct auxtrace_decode_opts *opts);
/* intel_pt_decoder__delete() frees dec and what it kept of fed payloads (NULL: nothing). */
AUXTRACE_API void intel_pt_decoder__delete(struct intel_pt_decoder *dec);

/*
 * intel_pt_decoder__decode() decodes one payload (borrowed for the call). A decode error is not
 * a failure: it is counted, reported to error_fn when opts.errors, and decoding goes on at the
 * next PSB. Returns 0, -ENOMEM, or the first negative value a callback returned. Allocates
 * nothing per branch.
 */
AUXTRACE_API int intel_pt_decoder__decode(struct intel_pt_decoder *dec,
					  const struct auxtrace_aux_data *data);

/*
 * intel_pt_decoder__feed() hands in the next payload of the stream, borrowed until
 * intel_pt_decoder__run returns 0. Returns 0, -ENOMEM, or -EBUSY (logged) while the last
 * payload is not decoded yet.
 */
AUXTRACE_API int intel_pt_decoder__feed(struct intel_pt_decoder *dec,
					const struct auxtrace_aux_data *data);
/*
 * intel_pt_decoder__run() decodes what was fed until the trace time (perf time, as samples
 * carry it) reaches until, checked between instructions. Returns 1, with that time in *time
 * (may be NULL), when it did; 0 when everything fed is decoded (but the bytes after its last
 * PSB, kept for the next payload). UINT64_MAX, or a decoder without a time conversion, decodes
 * everything. -ENOMEM, or the first negative value a callback returned.
 */
AUXTRACE_API int intel_pt_decoder__run(struct intel_pt_decoder *dec, uint64_t until,
				       uint64_t *time);
/*
 * intel_pt_decoder__end() ends the stream: what was kept after its last PSB is decoded
 * alone by the next runs. A later feed starts a new stream. Returns 0, -ENOMEM, or -EBUSY
 * as feed.
 */
AUXTRACE_API int intel_pt_decoder__end(struct intel_pt_decoder *dec);
/*
 * intel_pt_decoder__set_image() decodes with another image (borrowed) from now on (another
 * process runs on the traced CPU). Returns 0, or -EINVAL for a NULL image.
 */
AUXTRACE_API int intel_pt_decoder__set_image(struct intel_pt_decoder *dec,
					     struct auxtrace_image *image);

/* intel_pt_decoder__stats() returns its counters, borrowed: valid while dec lives. */
AUXTRACE_API const struct auxtrace_decode_stats *
intel_pt_decoder__stats(const struct intel_pt_decoder *dec);

/*
 * intel_pt_decoder__dump() hands fn (with ctx) the packets of a payload as libipt decodes them,
 * one line per call of fn: the header ". ... Intel Processor Trace data: size N bytes", then
 * each packet as libipt's ptdump prints it, its offset in the payload first: "0000000000000000
 * psb" "0000000000000014  tip.pge    3: 0000000000400100" "000000000000001b  tnt.8      !.!!.!"
 * Bytes before the first PSB cannot be decoded without a sync point and are summed up in one
 * line; a packet libipt rejects gives "[<offset>: error decoding packet: <libipt's message>]"
 * and the dump goes on at the next PSB. Returns 0, -ENOMEM, or what fn returned first when
 * negative.
 */
AUXTRACE_API int intel_pt_decoder__dump(const void *buf, size_t size, auxtrace_dump_fn fn,
					void *ctx);

#ifdef __cplusplus
}
#endif
#endif
