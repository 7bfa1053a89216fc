// SPDX-License-Identifier: LGPL-2.1
/*
 * Feeding an Intel PT decoder a stream of payloads (intel-pt-decode.h). libipt decodes one
 * contiguous buffer from a sync point (PSB), so the stream is cut into regions that each
 * start at one: a payload's bytes from its first PSB to its last one, and the join of what
 * follows that last PSB with the next payload's bytes before its first PSB, copied into a
 * buffer of the decoder's own.
 */
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>
#include <auxtrace/intel-pt-decode.h>

#include <internal/intel-pt-decoder.h>
#include <internal/lib.h>

/* Offset of the first PSB in buf (last: of the last one), or size when there is none. */
static size_t intel_pt__psb_offset(const void *buf, size_t size, bool last)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	uint64_t offset = size;

	pt_config_init(&config);
	config.begin = (uint8_t *)buf;
	config.end = config.begin + size;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return size;
	if ((last ? pt_pkt_sync_backward(dec) : pt_pkt_sync_forward(dec)) < 0 ||
	    pt_pkt_get_sync_offset(dec, &offset) < 0)
		offset = size;
	pt_pkt_free_decoder(dec);
	return (size_t)offset;
}

static int intel_pt__append(uint8_t **buf, size_t *len, size_t *alloc, const void *src,
			    size_t n)
{
	if (*len + n > *alloc) {
		size_t want = *alloc ? *alloc : 64 << 10;
		uint8_t *grown;

		while (want < *len + n)
			want *= 2;
		grown = realloc(*buf, want);
		if (!grown)
			return -ENOMEM;
		*buf = grown;
		*alloc = want;
	}
	memcpy(*buf + *len, src, n);
	*len += n;
	return 0;
}

uint64_t intel_pt__first_tsc(const void *buf, size_t size)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet pkt;
	uint64_t tsc = 0;

	pt_config_init(&config);
	config.begin = (uint8_t *)buf;
	config.end = config.begin + size;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return 0;
	if (pt_pkt_sync_forward(dec) >= 0) {
		while (pt_pkt_next(dec, &pkt, sizeof(pkt)) >= 0 && pkt.type != ppt_psbend) {
			if (pkt.type == ppt_tsc) {
				tsc = pkt.payload.tsc.tsc;
				break;
			}
		}
	}
	pt_pkt_free_decoder(dec);
	return tsc;
}

/*
 * Bytes from a PSB as regions to decode, cut at the first PSB past every
 * INTEL_PT_PIECE bytes: pieces that workers can decode each on its own (intel-pt-par.c),
 * cut the same way whatever the threads, so that the samples are the same. The last four
 * pieces' worth is cut four times finer: at a payload's end one thread decodes the last
 * piece while the others have none left, and a smaller one leaves them idle for less
 * (bench-decode's PT -j2: 2.5-4.5% faster, the medians of two sets of 24 paired runs; -j1
 * the same). Each piece after the first continues the one before it; each knows the TSC
 * its successor starts at, so that a run that stops at a time can tell which pieces end
 * before it.
 */
static int intel_pt_decoder__add_regions(struct intel_pt_decoder *dec, const uint8_t *buf,
					 size_t size, const struct auxtrace_aux_data *of,
					 uint64_t offset, bool continues)
{
	while (size) {
		size_t piece = size > 4 * INTEL_PT_PIECE ? INTEL_PT_PIECE : INTEL_PT_PIECE / 4;
		size_t cut = size > piece ?
			     piece + intel_pt__psb_offset(buf + piece, size - piece, false) :
			     size;
		struct intel_pt_region *r;

		if (dec->nr_regions == dec->alloc_regions) {
			unsigned int n = dec->alloc_regions ? 2 * dec->alloc_regions : 8;

			r = reallocarray(dec->regions, n, sizeof(*r));
			if (!r)
				return -ENOMEM;
			dec->regions = r;
			dec->alloc_regions = n;
		}
		r = &dec->regions[dec->nr_regions++];
		*r = (struct intel_pt_region){ .buf = buf, .size = cut, .data = *of,
					       .continues = continues };
		r->data.data = buf;
		r->data.size = cut;
		r->data.offset = offset;
		/* only the workers look at it */
		r->next_tsc = dec->par && cut < size ? intel_pt__first_tsc(buf + cut, size - cut)
						     : 0;
		buf += cut;
		size -= cut;
		offset += cut;
		continues = true;
	}
	return 0;
}

/* The pending bytes, and head bytes of the payload that follows them, as a region. */
static int intel_pt_decoder__add_join(struct intel_pt_decoder *dec,
				      const struct auxtrace_aux_data *data, size_t head)
{
	size_t len = 0;

	if (intel_pt__append(&dec->join, &len, &dec->join_alloc, dec->pending, dec->pending_len) ||
	    intel_pt__append(&dec->join, &len, &dec->join_alloc, data->data, head))
		return -ENOMEM;
	dec->pending_len = 0;
	return intel_pt_decoder__add_regions(dec, dec->join, len, data, dec->pending_offset, true);
}

/*
 * A stream's first PSB may begin in one payload and end in a later one: the bytes that
 * could be its start were kept; if they are, they become the pending trace.
 */
static int intel_pt_decoder__complete_psb(struct intel_pt_decoder *dec,
					  const struct auxtrace_aux_data *data)
{
	uint8_t both[sizeof(dec->fragment) + INTEL_PT_PSB_LEN];
	size_t head = data->size < INTEL_PT_PSB_LEN ? data->size : INTEL_PT_PSB_LEN;
	size_t at, len = dec->fragment_len;

	memcpy(both, dec->fragment, len);
	memcpy(both + len, data->data, head);
	at = intel_pt__psb_offset(both, len + head, false);
	if (at >= len)
		return 0;	/* not yet, or never: keep_tail keeps what may still be one */
	dec->fragment_len = 0;
	dec->pending_offset = data->offset - (len - at);
	dec->pending_of = *data;
	return intel_pt__append(&dec->pending, &dec->pending_len, &dec->pending_alloc,
				dec->fragment + at, len - at);
}

/*
 * Keep what the payload ends with after its last PSB; without one, the stream's last bytes
 * that may begin a PSB.
 */
static int intel_pt_decoder__keep_tail(struct intel_pt_decoder *dec,
				       const struct auxtrace_aux_data *data, size_t last)
{
	const uint8_t *p = data->data;
	size_t keep = sizeof(dec->fragment), old;

	if (last < data->size) {
		dec->fragment_len = 0;
		dec->pending_offset = data->offset + last;
		dec->pending_of = *data;
		return intel_pt__append(&dec->pending, &dec->pending_len, &dec->pending_alloc,
					p + last, data->size - last);
	}
	if (dec->pending_len)
		return 0;
	if (data->size >= keep) {
		memcpy(dec->fragment, p + data->size - keep, keep);
		dec->fragment_len = keep;
		return 0;
	}
	old = dec->fragment_len + data->size > keep ? keep - data->size : dec->fragment_len;
	memmove(dec->fragment, dec->fragment + dec->fragment_len - old, old);
	memcpy(dec->fragment + old, p, data->size);
	dec->fragment_len = old + data->size;
	return 0;
}

/*
 * Does data continue the stream? perf's AUXTRACE framing pads each payload to 8 bytes with
 * zeros and gives the next one the offset where the trace really went on: the padding is
 * not trace, and is cut from what was kept.
 */
static bool intel_pt_decoder__continues(struct intel_pt_decoder *dec,
					const struct auxtrace_aux_data *data)
{
	uint64_t pad = dec->stream_end - data->offset;

	if (!dec->fed || data->offset > dec->stream_end || pad > INTEL_PT_MAX_PAD)
		return false;
	dec->pending_len -= pad < dec->pending_len ? pad : dec->pending_len;
	dec->fragment_len -= pad < dec->fragment_len ? pad : dec->fragment_len;
	return true;
}

int intel_pt_decoder__feed(struct intel_pt_decoder *dec, const struct auxtrace_aux_data *data)
{
	bool continues = intel_pt_decoder__continues(dec, data);
	size_t first, last;
	int err = 0;

	if (dec->next_region < dec->nr_regions || intel_pt_flow__is_open(&dec->flow)) {
		pr_err("intel_pt decoder: a payload fed before the last one was decoded: call "
		       "intel_pt_decoder__run until it returns 0 first\n");
		return libauxtrace__err(-EBUSY);
	}
	dec->synth.stats.bytes += data->size;
	dec->nr_regions = dec->next_region = 0;
	intel_pt_par__restart(dec->par);
	dec->fed = true;
	dec->stream_end = data->offset + data->size;
	if (intel_pt_decoder__wants_nothing(dec))
		return 0;
	if (!continues)
		dec->fragment_len = 0;
	else if (dec->fragment_len && (err = intel_pt_decoder__complete_psb(dec, data)))
		return libauxtrace__err(err);
	first = intel_pt__psb_offset(data->data, data->size, false);
	if (dec->pending_len && continues && first == data->size &&
	    dec->pending_len + data->size <= INTEL_PT_MAX_PENDING)
		return libauxtrace__err(intel_pt__append(&dec->pending, &dec->pending_len,
							 &dec->pending_alloc, data->data,
							 data->size));
	continues = continues && dec->pending_len + first <= INTEL_PT_MAX_PENDING;
	if (dec->pending_len)
		err = intel_pt_decoder__add_join(dec, data, continues ? first : 0);
	last = first == data->size ? first : intel_pt__psb_offset(data->data, data->size, true);
	if (!err && last > first)
		err = intel_pt_decoder__add_regions(dec, (const uint8_t *)data->data + first,
						    last - first, data, data->offset + first,
						    continues);
	if (!err)
		err = intel_pt_decoder__keep_tail(dec, data, last);
	return libauxtrace__err(err);
}

int intel_pt_decoder__end(struct intel_pt_decoder *dec)
{
	struct auxtrace_aux_data data = dec->pending_of;

	if (dec->next_region < dec->nr_regions || intel_pt_flow__is_open(&dec->flow)) {
		pr_err("intel_pt decoder: a stream ended before its last payload was decoded: "
		       "call intel_pt_decoder__run until it returns 0 first\n");
		return libauxtrace__err(-EBUSY);
	}
	dec->nr_regions = dec->next_region = 0;
	intel_pt_par__restart(dec->par);
	dec->fed = false;
	dec->fragment_len = 0;
	if (!dec->pending_len)
		return 0;
	return libauxtrace__err(intel_pt_decoder__add_join(dec, &data, 0));
}

