// SPDX-License-Identifier: LGPL-2.1
/* Intel BTS branch records to branch samples, as perf 6.1 makes them (intel-bts-decode.h). */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/intel-bts-decode.h>

#include <internal/decode-image.h>
#include <internal/decode-insn-cache.h>
#include <internal/decode-synth.h>
#include <internal/lib.h>

/* As the hardware writes it; misc bit 4 says the branch was predicted. */
struct intel_bts_record {
	uint64_t from;
	uint64_t to;
	uint64_t misc;
};

#define INTEL_BTS_PREDICTED	0x10

struct intel_bts_decoder {
	struct decode_synth synth;
	struct decode_insn_cache insns;
};

struct intel_bts_decoder *intel_bts_decoder__new(const struct auxtrace_decode_opts *opts)
{
	struct intel_bts_decoder *dec = calloc(1, sizeof(*dec));
	int err;

	if (!dec)
		return libauxtrace__ptr_err(ENOMEM);
	err = decode_synth__init(&dec->synth, opts, "intel_bts decoder");
	if (err) {
		free(dec);
		return libauxtrace__ptr_err(err);
	}
	return dec;
}

void intel_bts_decoder__delete(struct intel_bts_decoder *dec)
{
	free(dec);
}

const struct auxtrace_decode_stats *intel_bts_decoder__stats(const struct intel_bts_decoder *dec)
{
	return &dec->synth.stats;
}

static void intel_bts_record__load(struct intel_bts_record *r, const unsigned char *p)
{
	memcpy(r, p, sizeof(*r));	/* payloads need not be 8-byte aligned */
	r->from = le64toh(r->from);
	r->to = le64toh(r->to);
	r->misc = le64toh(r->misc);
}

/*
 * The flags of a branch, from the instruction at its source. -errno only from the error
 * callback: code that cannot be read gives flags 0 (and an error when asked), as in perf.
 */
static int intel_bts_decoder__flags(struct intel_bts_decoder *dec,
				    const struct decode_where *where,
				    const struct intel_bts_record *r, uint32_t *flags,
				    uint8_t *insn_len)
{
	struct decode_synth *synth = &dec->synth;
	const struct decode_insn *insn;

	*insn_len = 0;
	if (!r->from) {
		*flags = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_BEGIN;
		return 0;
	}
	if (!r->to) {
		*flags = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_END;
		return 0;
	}
	insn = decode_insn_cache__get(&dec->insns, synth->opts.image, r->from);
	if (!insn) {
		*flags = 0;
		return decode_synth__error(synth, where, AUXTRACE_DECODE_ERR_NOINSN, 0, r->from,
					   "Failed to get instruction");
	}
	*flags = insn->flags;
	/* a call's: where it returns to, for the thread stacks of callindent */
	*insn_len = insn->flags & AUXTRACE_IP_FLAG_CALL ? insn->len : 0;
	if (!decode_synth__is_kernel(synth, r->from) && decode_synth__is_kernel(synth, r->to) &&
	    *flags != (AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL |
		       AUXTRACE_IP_FLAG_SYSCALLRET))
		*flags = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL |
			 AUXTRACE_IP_FLAG_ASYNC | AUXTRACE_IP_FLAG_INTERRUPT;
	return 0;
}

int intel_bts_decoder__decode(struct intel_bts_decoder *dec,
			      const struct auxtrace_aux_data *data)
{
	const unsigned char *p = data->data;
	struct decode_where where = { .data = data };
	struct intel_bts_record r;
	size_t left = data->size;
	uint32_t flags;
	uint8_t insn_len;
	int err = 0;

	dec->synth.stats.bytes += data->size;
	if (!dec->synth.opts.branches)
		return 0;
	/* "More than one record left", not "one": perf never uses a payload's last record. */
	for (; left > sizeof(r) && err >= 0; p += sizeof(r), left -= sizeof(r)) {
		intel_bts_record__load(&r, p);
		if (!r.from && !r.to)
			continue;
		where.offset = data->size - left;
		err = intel_bts_decoder__flags(dec, &where, &r, &flags, &insn_len);
		if (err >= 0)
			err = decode_synth__branch(&dec->synth, &where, r.from, r.to, flags,
						   insn_len);
	}
	return err < 0 ? libauxtrace__err(err) : 0;
}

int intel_bts_decoder__dump(const void *buf, size_t size, auxtrace_dump_fn fn, void *ctx)
{
	const unsigned char *p = buf;
	struct intel_bts_record r;
	size_t pos;
	int err;

	err = decode_dump__line(fn, ctx, ". ... Intel BTS data: size %zu bytes", size);
	for (pos = 0; pos < size && err >= 0; pos += sizeof(r)) {
		size_t n = size - pos < sizeof(r) ? size - pos : sizeof(r), i;
		char line[160];
		int len = snprintf(line, sizeof(line), ".  %08zx: ", pos);

		for (i = 0; i < n; i++)
			len += snprintf(line + len, sizeof(line) - len, " %02x", p[pos + i]);
		for (; i < sizeof(r); i++)
			len += snprintf(line + len, sizeof(line) - len, "   ");
		if (n < sizeof(r)) {
			err = decode_dump__line(fn, ctx, "%s Bad record!", line);
			break;
		}
		intel_bts_record__load(&r, p + pos);
		err = decode_dump__line(fn, ctx, "%s %llx -> %llx %s", line,
					(unsigned long long)r.from, (unsigned long long)r.to,
					r.misc & INTEL_BTS_PREDICTED ? "pred" : "miss");
	}
	return err < 0 ? libauxtrace__err(err) : 0;
}
