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
 *  - instructions: one sample every insn_period instructions;
 *  - errors: where libipt rejects the trace, the offset and libipt's message; decoding then
 *    resumes at the next PSB. An overflow (OVF) is an error too, as in perf.
 * Times are libipt's TSC estimate converted with opts.tsc.
 *
 * Each payload is decoded on its own, from its first PSB: trace before it, or trace that
 * continues into the next payload past the last PSB, is decoded only as far as libipt can
 * without the missing bytes.
 */
#ifndef AUXTRACE_INTEL_PT_DECODE_H
#define AUXTRACE_INTEL_PT_DECODE_H

#include <auxtrace/decode.h>

#ifdef __cplusplus
extern "C" {
#endif

struct intel_pt_decoder;

/* opts is copied; its image is borrowed. NULL with errno EINVAL when opts is inconsistent or
 * has no image (the log says which field), ENOMEM. */
AUXTRACE_API struct intel_pt_decoder *
intel_pt_decoder__new(const struct auxtrace_decode_opts *opts);
AUXTRACE_API void intel_pt_decoder__delete(struct intel_pt_decoder *dec);

/*
 * Decode one payload. A decode error is not a failure: it is counted, reported to error_fn
 * when opts.errors, and decoding goes on at the next PSB. Returns 0, -ENOMEM, or the first
 * negative value a callback returned. Allocates nothing per branch.
 */
AUXTRACE_API int intel_pt_decoder__decode(struct intel_pt_decoder *dec,
					  const struct auxtrace_aux_data *data);

AUXTRACE_API const struct auxtrace_decode_stats *
intel_pt_decoder__stats(const struct intel_pt_decoder *dec);

/*
 * The packets of a payload as libipt decodes them, one line per call of fn: the header
 * ". ... Intel Processor Trace data: size N bytes", then each packet as libipt's ptdump
 * prints it, its offset in the payload first:
 *	"0000000000000000  psb"
 *	"0000000000000014  tip.pge    3: 0000000000400100"
 *	"000000000000001b  tnt.8      !.!!.!"
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
