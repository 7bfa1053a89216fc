/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Intel BTS decoding: the AUX area holds 24-byte branch records {from, to, misc}, and each
 * becomes a branch sample as perf 6.1 makes it, quirks included:
 *
 *  - the last whole record of a payload is never used (perf's loop stops while more than one
 *    record remains; the driver ends a buffer with one);
 *  - a record with from = to = 0 gives no sample;
 *  - from = 0 begins the trace (flags branch + trace begin), to = 0 ends it (branch + trace
 *    end);
 *  - otherwise the flags come from the instruction at from, read from the image (64-bit
 *    code); with no code there the flags are 0, and with opts.errors an
 *    AUXTRACE_DECODE_ERR_NOINSN error ("Failed to get instruction") comes first;
 *  - a user-space branch into the kernel that is not a system call is an interrupt
 *    (call + async + interrupt);
 *  - samples carry no time and period 1; insn_len is 0 (perf's is the length at from).
 *
 * Records are little-endian as the hardware writes them.
 */
#ifndef AUXTRACE_INTEL_BTS_DECODE_H
#define AUXTRACE_INTEL_BTS_DECODE_H

#include <auxtrace/decode.h>

#ifdef __cplusplus
extern "C" {
#endif

struct intel_bts_decoder;

/*
 * intel_bts_decoder__new() returns a decoder (intel_bts_decoder__delete); opts is copied,
 * its image borrowed. NULL + errno: EINVAL when opts is inconsistent (the log says which
 * field) or refused by the rule of option structs (auxtrace/core.h), ENOMEM.
 */
AUXTRACE_API struct intel_bts_decoder *
intel_bts_decoder__new(const struct auxtrace_decode_opts *opts);
/* intel_bts_decoder__delete() frees dec (NULL: nothing). */
AUXTRACE_API void intel_bts_decoder__delete(struct intel_bts_decoder *dec);

/*
 * intel_bts_decoder__decode() synthesizes the samples of one payload (borrowed for the call).
 * Records are independent, so payloads may come in any order. Returns 0, or the first negative
 * value a callback returned.
 */
AUXTRACE_API int intel_bts_decoder__decode(struct intel_bts_decoder *dec,
					   const struct auxtrace_aux_data *data);

/* intel_bts_decoder__stats() returns its counters, borrowed: valid while dec lives. */
AUXTRACE_API const struct auxtrace_decode_stats *
intel_bts_decoder__stats(const struct intel_bts_decoder *dec);

/*
 * intel_bts_decoder__dump() hands fn (with ctx) perf report -D's view of a payload, one
 * line per call of fn:
 *	". ... Intel BTS data: size 72 bytes"
 *	".  00000000:  00 01 40 00 ... 00  400100 -> 400200 miss"
 * (pred when misc bit 4 is set), and " Bad record!" for a trailing partial record.
 * Returns 0 or what fn returned first when negative.
 */
AUXTRACE_API int intel_bts_decoder__dump(const void *buf, size_t size, auxtrace_dump_fn fn,
					 void *ctx);

#ifdef __cplusplus
}
#endif
#endif
