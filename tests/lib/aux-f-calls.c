// SPDX-License-Identifier: LGPL-2.1
/* Big AUX recordings of the traced program's calls of f (aux-f-calls.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <intel-pt.h>

#include <auxtrace/auxtrace-mmaps.h>
#include "aux-f-calls.h"
#include "aux-payload.h"
#include "aux-session.h"

#define PSB_EVERY	4096		/* bytes of PT trace between PSBs */

/* The branches of one call of f, as BTS records them. */
static void bts_f_call(const struct traced_prog *t, struct bts_record *r)
{
	static const char *const from[] = { NULL, "f_jnz", "f_jz", "f_jnz", "f_call", "g_ret",
					     "f_ret" };
	static const char *const to[] = { "f", "f_top", "f_even", "f_top", "g", "f_ret", NULL };

	for (int i = 0; i < AUX_F_CALL_BRANCHES; i++) {
		r[i].from = from[i] ? asm_elf__sym(&t->elf, from[i]) : t->after_f - 5;
		r[i].to = to[i] ? asm_elf__sym(&t->elf, to[i]) : t->after_f;
		r[i].misc = 0;
	}
}

/* Drain what the producer wrote into one AUXTRACE record. */
static int drain(struct aux_session *s)
{
	return auxtrace_mmaps__read(s->aux, perf_data_writer__aux_sink(s->w)) < 0 ? -1 : 0;
}

static int record_bts(struct aux_session *s, const struct traced_prog *t, uint64_t branches,
		      size_t buffer_bytes, struct aux_f_calls *r)
{
	const size_t per_buffer = buffer_bytes / sizeof(struct bts_record) - 1;
	struct bts_record *buf = calloc(per_buffer + 1, sizeof(*buf)), call[AUX_F_CALL_BRANCHES];

	if (!buf)
		return -1;
	bts_f_call(t, call);
	while (r->branches < branches) {
		size_t n = 0;

		while (n < per_buffer && r->branches < branches)
			buf[n++] = call[r->branches++ % AUX_F_CALL_BRANCHES];
		memset(&buf[n], 0, sizeof(buf[n]));
		n++;
		if (aux_producer__write(s->p, buf, n * sizeof(*buf)) != n * sizeof(*buf) ||
		    drain(s))
			break;
		r->buffers++;
	}
	free(buf);
	return r->branches == branches ? 0 : -1;
}

/* One call of f traced (aux-payload.h), after a PSB+ when psb. */
static int pt_encode(struct pt_encoder *enc, const struct traced_prog *t, uint64_t tsc,
		     bool psb)
{
	struct pt_packet pkts[PT_PSB_PACKETS + PT_F_CALL_PACKETS];

	pt_packets__psb(pkts, tsc);
	pt_packets__f_call(pkts + PT_PSB_PACKETS, asm_elf__sym(&t->elf, "f"), t->after_f);
	return psb ? pt_packets__encode(enc, pkts, PT_PSB_PACKETS + PT_F_CALL_PACKETS)
		   : pt_packets__encode(enc, pkts + PT_PSB_PACKETS, PT_F_CALL_PACKETS);
}

static int record_pt(struct aux_session *s, const struct traced_prog *t, uint64_t branches,
		     size_t buffer_bytes, struct aux_f_calls *r)
{
	size_t size = (size_t)(branches / AUX_F_CALL_BRANCHES + 1) * 24 + (64u << 20);
	uint8_t *trace = malloc(size);
	uint64_t used = 0, psb_at = 0, done = 0;
	struct pt_config config;
	struct pt_encoder *enc;
	int err = -1;

	if (!trace)
		return -1;
	pt_config_init(&config);
	config.begin = trace;
	config.end = trace + size;
	enc = pt_alloc_encoder(&config);
	for (uint64_t tsc = 1000; enc && r->branches < branches; tsc += 100) {
		if (pt_encode(enc, t, tsc, !r->branches || used - psb_at >= PSB_EVERY))
			goto out;
		if (!r->branches || used - psb_at >= PSB_EVERY)
			psb_at = used;
		pt_enc_get_offset(enc, &used);
		r->branches += AUX_F_CALL_BRANCHES;
	}
	/* Buffers of buffer_bytes and a little: their ends fall anywhere in the trace. */
	while (done < used) {
		size_t n = buffer_bytes + (done * 7 % 61);

		n = n < used - done ? n : used - done;
		if (aux_producer__write(s->p, trace + done, n) != n || drain(s))
			goto out;
		done += n;
		r->buffers++;
	}
	err = 0;
out:
	pt_free_encoder(enc);
	free(trace);
	return err;
}

int aux_f_calls__write(struct aux_session *s, const char *pmu, const struct traced_prog *t,
		       uint64_t branches, size_t buffer_bytes, struct aux_f_calls *r)
{
	*r = (struct aux_f_calls){ 0 };
	return !strcmp(pmu, "intel_bts") ? record_bts(s, t, branches, buffer_bytes, r)
					 : record_pt(s, t, branches, buffer_bytes, r);
}

int aux_f_calls__record(const char *path, const char *pmu, struct traced_prog *t,
			uint64_t branches, size_t buffer_bytes, struct aux_f_calls *r)
{
	struct aux_session_opts opts = { .pmu = pmu, .aux_pages = AUX_F_CALLS_AUX_PAGES,
					 .pid = t->pid };
	struct aux_session s;
	int err;

	err = aux_session__start(&s, &opts, path);
	if (!err) {
		err = aux_f_calls__write(&s, pmu, t, branches, buffer_bytes, r);
		err |= aux_session__finish(&s);
	}
	err |= traced_prog__finish(t);
	if (err)
		fprintf(stderr, "aux_f_calls__record: %s: %s's recording failed\n", path, pmu);
	return err ? -1 : 0;
}
