// SPDX-License-Identifier: LGPL-2.1
/* The session decoders this library has, for perf_session_opts.decoders. */
#include <auxtrace/auxtrace-decoder.h>

#include <internal/decode-session.h>

const struct auxtrace_decoder *const *auxtrace_decoders__builtin(void)
{
	static const struct auxtrace_decoder *const decoders[] = {
		&intel_pt_auxtrace_decoder, &intel_bts_auxtrace_decoder, NULL,
	};

	return decoders;
}
