/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Big AUX recordings of the traced program (asm-elf.h) calling f over and over, the AUX test
 * producer standing in for the hardware (aux-session.h), for bench-decode and for the tests
 * that need many AUX buffers and many samples:
 *  - Intel BTS: the 7 branches of one call of f, over and over; each AUX buffer ends with a
 *    zero record (perf never decodes a buffer's last record);
 *  - Intel PT: libipt's encoder writes f's trace (TIP.PGE, two TNTs, TIP.PGD) over and
 *    over, a PSB+ every 4 KiB as the hardware's default psb_period does, and the AUX
 *    buffers are cut mid-trace, so that every buffer boundary is one the decoder must
 *    decode across.
 */
#ifndef TESTS_AUX_F_CALLS_H
#define TESTS_AUX_F_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include "asm-elf.h"

#define AUX_F_CALL_BRANCHES	7	/* branches of one call of f */
#define AUX_F_CALLS_AUX_PAGES	256	/* 1 MiB AUX area, drained buffer by buffer */

struct aux_session;

struct aux_f_calls {
	uint64_t branches;		/* in the recording */
	uint64_t buffers;		/* AUXTRACE records */
};

/*
 * aux_f_calls__record() records to path t's calls of f as pmu ("intel_bts" or "intel_pt")
 * traces them: branches of them (PT: rounded up to whole calls), in AUX buffers of about
 * buffer_bytes; t is finished (traced_prog__finish). 0, or -1 with the cause on stderr.
 */
int aux_f_calls__record(const char *path, const char *pmu, struct traced_prog *t,
			uint64_t branches, size_t buffer_bytes, struct aux_f_calls *r);
/*
 * aux_f_calls__write() writes the same AUX data into s, a session of pmu tracing t (opened
 * with aux_pages AUX_F_CALLS_AUX_PAGES), for a caller that writes more around it. 0 or -1.
 */
int aux_f_calls__write(struct aux_session *s, const char *pmu, const struct traced_prog *t,
		       uint64_t branches, size_t buffer_bytes, struct aux_f_calls *r);

#endif
