// SPDX-License-Identifier: LGPL-2.1
/* Intel BTS branch records to branch samples, as perf 6.1 makes them (intel-bts-decode.h). */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/intel-bts-decode.h>

#include <internal/decode-image.h>
#include <internal/decode-synth.h>
#include <internal/lib.h>
#include <internal/x86-branch.h>

/* As the hardware writes it; misc bit 4 says the branch was predicted. */
struct intel_bts_record {
	uint64_t from;
	uint64_t to;
	uint64_t misc;
};

#define INTEL_BTS_PREDICTED	0x10
#define X86_MAX_INSN		15

/*
 * What the instruction at a branch's source says, kept by address: BTS records the same
 * few branches over and over, and reading each one's code through libipt's locked section
 * cache and decoding it anew was a third of the decoder's time. Valid for one image at one
 * generation (a new mapping may put other code at the address).
 */
#define INTEL_BTS_INSNS		256

struct intel_bts_insn {
	uint64_t from;
	uint32_t flags;			/* x86_branch__flags */
	uint8_t len;			/* x86_branch__call_len */
	bool valid;
};

struct intel_bts_decoder {
	struct decode_synth synth;
	const struct auxtrace_image *insns_image;	/* what insns were read from, */
	uint64_t insns_gen;				/* at its generation */
	struct intel_bts_insn insns[INTEL_BTS_INSNS];
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
 * The slot of the instruction at from (its own when valid and from matches, else to fill);
 * NULL without an image. A changed image empties them all.
 */
static struct intel_bts_insn *intel_bts_decoder__insn(struct intel_bts_decoder *dec,
						      uint64_t from)
{
	const struct auxtrace_image *image = dec->synth.opts.image;
	struct intel_bts_insn *slot;

	if (!image)
		return NULL;
	if (image != dec->insns_image || image->generation != dec->insns_gen) {
		memset(dec->insns, 0, sizeof(dec->insns));
		dec->insns_image = image;
		dec->insns_gen = image->generation;
	}
	slot = &dec->insns[(from ^ (from >> 8)) % INTEL_BTS_INSNS];
	if (slot->valid && slot->from != from)
		slot->valid = false;
	return slot;
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
	uint8_t insn[X86_MAX_INSN];
	struct intel_bts_insn *kept;
	ssize_t n = -ENOENT;

	*insn_len = 0;
	if (!r->from) {
		*flags = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_BEGIN;
		return 0;
	}
	if (!r->to) {
		*flags = AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_END;
		return 0;
	}
	kept = intel_bts_decoder__insn(dec, r->from);
	if (!kept || !kept->valid) {
		if (synth->opts.image)
			n = auxtrace_image__read(synth->opts.image, r->from, insn, sizeof(insn));
		if (n <= 0) {
			*flags = 0;
			return decode_synth__error(synth, where, AUXTRACE_DECODE_ERR_NOINSN, 0,
						   r->from, "Failed to get instruction");
		}
		*flags = x86_branch__flags(insn, (size_t)n, true);
		/* a call's: where it returns to, for the thread stacks of callindent */
		*insn_len = (uint8_t)x86_branch__call_len(insn, (size_t)n, true);
		if (kept)
			*kept = (struct intel_bts_insn){ r->from, *flags, *insn_len, true };
	} else {
		*flags = kept->flags;
		*insn_len = kept->len;
	}
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
