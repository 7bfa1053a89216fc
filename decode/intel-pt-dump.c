// SPDX-License-Identifier: LGPL-2.1
/* Intel PT packets of a payload, one line each, in the columns of libipt's ptdump. */
#include <inttypes.h>
#include <stdio.h>

#include <intel-pt.h>
#include <auxtrace/intel-pt-decode.h>

#include <internal/decode-synth.h>
#include <internal/lib.h>

/* ptdump's columns: offset, then the opcode padded to 10 when a payload follows. */
#define PT_DUMP_OPCODE_WIDTH 10

struct pt_dump_text {
	const char *opcode;
	char payload[72];
};

static uint64_t pt_dump__sext48(uint64_t ip)
{
	return ip & (1ULL << 47) ? ip | ~((1ULL << 48) - 1) : ip & ((1ULL << 48) - 1);
}

/* An IP payload shows its compression and, as ?, the bytes it leaves to the last IP. */
static void pt_dump__ip(struct pt_dump_text *t, const struct pt_packet_ip *ip)
{
	char *p = t->payload;
	size_t n = sizeof(t->payload);

	switch (ip->ipc) {
	case pt_ipc_suppressed:
		snprintf(p, n, "%x: ????????????????", ip->ipc);
		break;
	case pt_ipc_update_16:
		snprintf(p, n, "%x: ????????????%04" PRIx64, ip->ipc, ip->ip);
		break;
	case pt_ipc_update_32:
		snprintf(p, n, "%x: ????????%08" PRIx64, ip->ipc, ip->ip);
		break;
	case pt_ipc_update_48:
		snprintf(p, n, "%x: ????%012" PRIx64, ip->ipc, ip->ip);
		break;
	case pt_ipc_sext_48:
		snprintf(p, n, "%x: %016" PRIx64, ip->ipc, pt_dump__sext48(ip->ip));
		break;
	default:
		snprintf(p, n, "%x: %016" PRIx64, ip->ipc, ip->ip);
		break;
	}
}

/* Oldest branch first: ! taken, . not taken. */
static void pt_dump__tnt(struct pt_dump_text *t, const struct pt_packet_tnt *tnt)
{
	unsigned int i, bits = tnt->bit_size < sizeof(t->payload) ? tnt->bit_size
								    : sizeof(t->payload) - 1;

	for (i = 0; i < bits; i++)
		t->payload[i] = tnt->payload & (1ULL << (bits - 1 - i)) ? '!' : '.';
	t->payload[bits] = '\0';
}

static const char *pt_dump__pair(bool a, const char *an, bool b, const char *bn, char *buf,
				 size_t n)
{
	snprintf(buf, n, "%s%s%s", a ? an : "", a && b ? ", " : "", b ? bn : "");
	return buf;
}

static void pt_dump__mode(struct pt_dump_text *t, const struct pt_packet_mode *m)
{
	char *p = t->payload;
	size_t n = sizeof(t->payload);

	switch (m->leaf) {
	case pt_mol_exec:
		t->opcode = "mode.exec";
		pt_dump__pair(m->bits.exec.csd, "cs.d", m->bits.exec.csl, "cs.l", p, n);
		break;
	case pt_mol_tsx:
		t->opcode = "mode.tsx";
		pt_dump__pair(m->bits.tsx.intx, "intx", m->bits.tsx.abrt, "abrt", p, n);
		break;
	default:
		t->opcode = "mode";
		snprintf(p, n, "leaf: %x", m->leaf);
		break;
	}
}

static const char *pt_dump__pwrx_reason(const struct pt_packet_pwrx *pwrx)
{
	if (pwrx->interrupt + pwrx->store + pwrx->autonomous != 1)
		return "bad";
	return pwrx->interrupt ? "int" : pwrx->store ? " st" : " hw";
}

static void pt_dump__text(struct pt_dump_text *t, const struct pt_packet *pkt)
{
	char *p = t->payload;
	size_t n = sizeof(t->payload);

	p[0] = '\0';
	switch (pkt->type) {
	case ppt_pad:	 t->opcode = "pad"; break;
	case ppt_psb:	 t->opcode = "psb"; break;
	case ppt_psbend: t->opcode = "psbend"; break;
	case ppt_ovf:	 t->opcode = "ovf"; break;
	case ppt_stop:	 t->opcode = "stop"; break;
	case ppt_fup:	 t->opcode = "fup"; pt_dump__ip(t, &pkt->payload.ip); break;
	case ppt_tip:	 t->opcode = "tip"; pt_dump__ip(t, &pkt->payload.ip); break;
	case ppt_tip_pge: t->opcode = "tip.pge"; pt_dump__ip(t, &pkt->payload.ip); break;
	case ppt_tip_pgd: t->opcode = "tip.pgd"; pt_dump__ip(t, &pkt->payload.ip); break;
	case ppt_tnt_8:	 t->opcode = "tnt.8"; pt_dump__tnt(t, &pkt->payload.tnt); break;
	case ppt_tnt_64: t->opcode = "tnt.64"; pt_dump__tnt(t, &pkt->payload.tnt); break;
	case ppt_mode:	 pt_dump__mode(t, &pkt->payload.mode); break;
	case ppt_pip:
		t->opcode = "pip";
		snprintf(p, n, "%" PRIx64 "%s", pkt->payload.pip.cr3,
			 pkt->payload.pip.nr ? ", nr" : "");
		break;
	case ppt_tsc:
		t->opcode = "tsc";
		snprintf(p, n, "%" PRIx64, pkt->payload.tsc.tsc);
		break;
	case ppt_cbr:
		t->opcode = "cbr";
		snprintf(p, n, "%x", pkt->payload.cbr.ratio);
		break;
	case ppt_tma:
		t->opcode = "tma";
		snprintf(p, n, "%x, %x", pkt->payload.tma.ctc, pkt->payload.tma.fc);
		break;
	case ppt_mtc:
		t->opcode = "mtc";
		snprintf(p, n, "%x", pkt->payload.mtc.ctc);
		break;
	case ppt_cyc:
		t->opcode = "cyc";
		snprintf(p, n, "%" PRIx64, pkt->payload.cyc.value);
		break;
	case ppt_vmcs:
		t->opcode = "vmcs";
		snprintf(p, n, "%" PRIx64, pkt->payload.vmcs.base);
		break;
	case ppt_mnt:
		t->opcode = "mnt";
		snprintf(p, n, "%" PRIx64, pkt->payload.mnt.payload);
		break;
	case ppt_exstop:
		t->opcode = "exstop";
		snprintf(p, n, "%s", pkt->payload.exstop.ip ? "ip" : "");
		break;
	case ppt_mwait:
		t->opcode = "mwait";
		snprintf(p, n, "%08x, %08x", pkt->payload.mwait.hints, pkt->payload.mwait.ext);
		break;
	case ppt_pwre:
		t->opcode = "pwre";
		snprintf(p, n, "c%u.%u%s", (pkt->payload.pwre.state + 1) & 0xf,
			 (pkt->payload.pwre.sub_state + 1) & 0xf, pkt->payload.pwre.hw ? ", hw" : "");
		break;
	case ppt_pwrx:
		t->opcode = "pwrx";
		snprintf(p, n, "%s: c%u, c%u", pt_dump__pwrx_reason(&pkt->payload.pwrx),
			 (pkt->payload.pwrx.last + 1) & 0xf, (pkt->payload.pwrx.deepest + 1) & 0xf);
		break;
	case ppt_ptw:
		t->opcode = "ptw";
		snprintf(p, n, "%x: %" PRIx64 "%s", pkt->payload.ptw.plc, pkt->payload.ptw.payload,
			 pkt->payload.ptw.ip ? ", ip" : "");
		break;
	case ppt_invalid:
		t->opcode = "<invalid>";
		break;
	default:
		t->opcode = "<unknown>";
		break;
	}
}

static int pt_dump__packet(auxtrace_dump_fn fn, void *ctx, uint64_t offset,
			   const struct pt_packet *pkt)
{
	struct pt_dump_text t;

	pt_dump__text(&t, pkt);
	if (!t.payload[0])
		return decode_dump__line(fn, ctx, "%016" PRIx64 "  %s", offset, t.opcode);
	return decode_dump__line(fn, ctx, "%016" PRIx64 "  %-*s %s", offset,
				 PT_DUMP_OPCODE_WIDTH, t.opcode, t.payload);
}

/* Packets from the decoder's sync point to the end; at a bad packet, on from the next PSB. */
static int pt_dump__packets(struct pt_packet_decoder *dec, auxtrace_dump_fn fn, void *ctx)
{
	uint64_t offset = 0, sync = 0, resync;
	int status = 0;

	pt_pkt_get_sync_offset(dec, &sync);
	while (status >= 0) {
		struct pt_packet pkt;

		pt_pkt_get_offset(dec, &offset);
		status = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (status >= 0) {
			status = pt_dump__packet(fn, ctx, offset, &pkt);
			if (status < 0)
				return status;
			continue;
		}
		if (status == -pte_eos)
			return 0;
		status = decode_dump__line(fn, ctx, "[%" PRIx64 ": error decoding packet: %s]",
					   offset, pt_errstr(pt_errcode(status)));
		if (status < 0)
			return status;
		status = pt_pkt_sync_forward(dec);
		/* A sync point that does not move on would dump the same packets forever. */
		if (status >= 0 && (pt_pkt_get_sync_offset(dec, &resync) < 0 || resync <= sync))
			return 0;
		sync = resync;
	}
	return 0;
}

int intel_pt_decoder__dump(const void *buf, size_t size, auxtrace_dump_fn fn, void *ctx)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	uint64_t sync = 0;
	int err;

	err = decode_dump__line(fn, ctx, ". ... Intel Processor Trace data: size %zu bytes",
				size);
	if (err < 0 || !size)
		return err < 0 ? libauxtrace__err(err) : 0;
	pt_config_init(&config);
	config.begin = (uint8_t *)buf;	/* libipt only reads it */
	config.end = config.begin + size;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return libauxtrace__err(-ENOMEM);
	if (pt_pkt_sync_forward(dec) < 0) {
		err = decode_dump__line(fn, ctx, "[0: no PSB in %zu bytes: nothing to decode from]",
					size);
	} else {
		pt_pkt_get_sync_offset(dec, &sync);
		if (sync)
			err = decode_dump__line(fn, ctx, "[0: %" PRIx64 " bytes before the first "
						"PSB skipped: no sync point]", sync);
		if (err >= 0)
			err = pt_dump__packets(dec, fn, ctx);
	}
	pt_pkt_free_decoder(dec);
	return err < 0 ? libauxtrace__err(err) : 0;
}
