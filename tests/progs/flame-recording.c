// SPDX-License-Identifier: LGPL-2.1
/*
 * An Intel PT or BTS recording of a program with a known call tree, for the call slices of
 * auxrec convert and the flame chart of auxrec report --html. This machine has no AUX
 * hardware: the AUX test producer stands in for it (tests/lib/aux-session.h), and the trace
 * is what the hardware would write for the program's one call of f.
 *
 *	flame-recording pt|pt-cut|pt-long|bts FILE
 *
 * The program (built here by gcc around generated code, tests/lib/asm-elf.h) runs
 * f -> run -> load, compute, save, each calling functions of its own (the table below): its
 * side-band (COMM, MMAP2 of its file) is real, and its file stays for the symbols; the
 * directory holding it is printed ("elf DIR") for the caller to remove.
 *  - pt: f's whole call traced (TIP.PGE at f, TIP.PGD at its return), returns compressed
 *    into TNT bits; each function starts with a conditional jump to its next instruction,
 *    whose TNT bit gives the decoder a packet to time its call by (a direct call has none,
 *    and decoders take the time of the packets read up to the next query): a TSC packet
 *    before that bit and before each return, so that a function's time is its own work
 *    plus its callees' (the work given below, in ns of a 1 GHz TSC);
 *  - pt-cut: the trace starts inside load (after its first call returned: load, run and f
 *    were entered before it, their returns are TIPs) and stops at a return inside
 *    compress (TIP.PGD: compress and save are still running);
 *  - pt-long: as pt, but write_out works 2000 times as long (100 ms): most calls are then
 *    shorter than a pixel of the whole recording's view;
 *  - bts: the same branches as pt as BTS records (from, to), one AUX buffer; BTS has no
 *    time of its own.
 * Prints "calls N returns M" of the branches the trace holds.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <intel-pt.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/perf-data.h>
#include "lib/asm-elf.h"
#include "lib/aux-payload.h"
#include "lib/aux-session.h"

#define MAX_CALLEES	4
#define ENTRY_LEN	2	/* jz to the next instruction (jz rel8) */
#define CALL_LEN	5	/* call rel32 */

/* A function of the program: whom it calls, how often each, and its own work (ns). */
struct flame_fn {
	const char *name;
	struct { const char *fn; int times; } calls[MAX_CALLEES];
	uint64_t work;
};

static const struct flame_fn flame_fns[] = {
	{ "f", { { "run", 1 } }, 100 },
	{ "run", { { "load", 1 }, { "compute", 1 }, { "save", 1 } }, 500 },
	{ "load", { { "read_block", 4 } }, 200 },
	{ "read_block", { { "parse_line", 8 } }, 300 },
	{ "parse_line", { { "next_token", 3 } }, 400 },
	{ "next_token", { { NULL } }, 1500 },
	{ "compute", { { "transform", 6 } }, 200 },
	{ "transform", { { "hash", 2 }, { "mix", 1 } }, 1000 },
	{ "hash", { { NULL } }, 20000 },
	{ "mix", { { "rotate", 3 } }, 2000 },
	{ "rotate", { { NULL } }, 5000 },
	{ "save", { { "compress", 1 }, { "write_out", 1 } }, 300 },
	{ "compress", { { "deflate_block", 5 } }, 500 },
	{ "deflate_block", { { NULL } }, 30000 },
	{ "write_out", { { NULL } }, 50000 },
};
#define NR_FNS (sizeof(flame_fns) / sizeof(flame_fns[0]))

/* A branch of the program's run: a call (from the call, to the callee), a return, or the
 * conditional jump each function starts with (not taken). */
struct flame_branch {
	uint64_t from, to, time;
	enum { FLAME_CALL, FLAME_RET, FLAME_ENTRY } kind;
};

struct flame {
	struct traced_prog t;
	bool long_write;		/* pt-long */
	uint64_t addr[NR_FNS];
	struct flame_branch *br;
	size_t nr, cap;
	uint64_t now;
};

static const struct flame_fn *flame_fn(const char *name, size_t *i)
{
	for (*i = 0; *i < NR_FNS; (*i)++)
		if (!strcmp(flame_fns[*i].name, name))
			return &flame_fns[*i];
	abort();
}

/* The program's code: each function its calls in a row, then its return. */
static char *flame_source(void)
{
	size_t size = 1 << 16, len = 0;
	char *s = malloc(size);

	len += (size_t)snprintf(s + len, size - len, "	.text\n");
	for (size_t i = 0; i < NR_FNS; i++) {
		const struct flame_fn *fn = &flame_fns[i];

		len += (size_t)snprintf(s + len, size - len, "	.type %s, @function\n%s:\n"
					"	jz 1f\n1:\n", fn->name, fn->name);
		for (int c = 0; c < MAX_CALLEES && fn->calls[c].fn; c++)
			for (int k = 0; k < fn->calls[c].times; k++)
				len += (size_t)snprintf(s + len, size - len, "	call %s\n",
							fn->calls[c].fn);
		len += (size_t)snprintf(s + len, size - len, "	ret\n	.size %s, .-%s\n",
					fn->name, fn->name);
	}
	return s;
}

static void flame_add(struct flame *fl, uint64_t from, uint64_t to, int kind)
{
	if (fl->nr == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 256;
		fl->br = realloc(fl->br, fl->cap * sizeof(*fl->br));
		if (!fl->br)
			abort();
	}
	fl->br[fl->nr++] = (struct flame_branch){ from, to, fl->now, kind };
}

/* Run function i, returning to ret: its branches, time passing at each return. */
static void flame_run(struct flame *fl, size_t i, uint64_t ret)
{
	const struct flame_fn *fn = &flame_fns[i];
	uint64_t at = fl->addr[i] + ENTRY_LEN;

	flame_add(fl, fl->addr[i], at, FLAME_ENTRY);
	for (int c = 0; c < MAX_CALLEES && fn->calls[c].fn; c++) {
		for (int k = 0; k < fn->calls[c].times; k++) {
			size_t callee;

			flame_fn(fn->calls[c].fn, &callee);
			flame_add(fl, at, fl->addr[callee], FLAME_CALL);
			flame_run(fl, callee, at + CALL_LEN);
			at += CALL_LEN;
		}
	}
	fl->now += fn->work * (fl->long_write && !strcmp(fn->name, "write_out") ? 2000 : 1);
	flame_add(fl, at, ret, FLAME_RET);
}

static void put(struct pt_encoder *enc, const struct pt_packet *pkt)
{
	if (pt_enc_next(enc, pkt) < 0)
		abort();
}

/*
 * The PT of branches [first, last]: tracing enabled at the first one's source (or its
 * target when tracing starts after it), returns compressed while the call is in the trace,
 * TIPs when it is not, and the last one a TIP.PGD.
 */
static size_t flame_pt(struct flame *fl, uint8_t *buf, size_t size, size_t first, size_t last,
		       uint64_t start_ip)
{
	struct pt_packet pkts[PT_PSB_PACKETS];
	struct pt_config config;
	struct pt_encoder *enc;
	uint64_t used;
	int open = 0;

	pt_config_init(&config);
	config.begin = buf;
	config.end = buf + size;
	enc = pt_alloc_encoder(&config);
	pt_packets__psb(pkts, 0x1000 + fl->br[first].time);
	if (!enc || pt_packets__encode(enc, pkts, PT_PSB_PACKETS))
		abort();
	put(enc, &(struct pt_packet){ .type = ppt_tip_pge,
				      .payload.ip = { .ipc = pt_ipc_sext_48, .ip = start_ip } });
	for (size_t b = first; b <= last; b++) {
		const struct flame_branch *br = &fl->br[b];

		if (br->kind == FLAME_CALL) {
			open++;
			continue;
		}
		put(enc, &(struct pt_packet){ .type = ppt_tsc,
					      .payload.tsc.tsc = 0x1000 + br->time });
		if (br->kind == FLAME_ENTRY)
			put(enc, &(struct pt_packet){ .type = ppt_tnt_8,
						      .payload.tnt = { .bit_size = 1, .payload = 0 } });
		else if (b == last)
			put(enc, &(struct pt_packet){ .type = ppt_tip_pgd, .payload.ip = {
				.ipc = pt_ipc_sext_48, .ip = br->to } });
		else if (open)
			put(enc, &(struct pt_packet){ .type = ppt_tnt_8,
						      .payload.tnt = { .bit_size = 1, .payload = 1 } });
		else
			put(enc, &(struct pt_packet){ .type = ppt_tip, .payload.ip = {
				.ipc = pt_ipc_sext_48, .ip = br->to } });
		if (br->kind == FLAME_RET && open)
			open--;
	}
	pt_enc_get_offset(enc, &used);
	pt_free_encoder(enc);
	return used;
}

/* Write data into the session's AUX area in pieces it holds, draining each. */
static void flame_write(struct aux_session *s, const void *data, size_t len, size_t piece)
{
	for (size_t at = 0; at < len; at += piece) {
		size_t n = len - at < piece ? len - at : piece;

		if (aux_producer__write(s->p, (const char *)data + at, n) != n ||
		    auxtrace_mmaps__read(s->aux, perf_data_writer__aux_sink(s->w)) <= 0)
			abort();
	}
}

int main(int argc, char **argv)
{
	static struct flame fl;
	const char *mode = argc > 2 ? argv[1] : "";
	struct aux_session_opts opts = { .pmu = "intel_pt", .aux_pages = 64 };
	struct aux_session s;
	size_t first = 0, last, calls = 0, rets = 0, len, fi;
	uint64_t start_ip;
	uint8_t *buf;
	char *src;

	if (strcmp(mode, "pt") && strcmp(mode, "pt-cut") && strcmp(mode, "pt-long") &&
	    strcmp(mode, "bts")) {
		fprintf(stderr, "usage: flame-recording pt|pt-cut|pt-long|bts FILE\n");
		return 2;
	}
	src = flame_source();
	if (traced_prog__start_source(&fl.t, src))
		return 77;
	free(src);
	for (size_t i = 0; i < NR_FNS; i++)
		fl.addr[i] = asm_elf__sym(&fl.t.elf, flame_fns[i].name);
	fl.long_write = !strcmp(mode, "pt-long");
	flame_fn("f", &fi);
	flame_run(&fl, fi, fl.t.after_f);
	last = fl.nr - 1;
	start_ip = fl.addr[fi];
	if (!strcmp(mode, "pt-cut")) {
		size_t load;

		flame_fn("load", &load);
		/* after load's first call returned; up to a return inside compress */
		while (fl.br[first].to != fl.addr[load] + ENTRY_LEN + CALL_LEN)
			first++;
		start_ip = fl.br[first++].to;
		flame_fn("deflate_block", &fi);
		for (last = first; fl.br[last].to != fl.addr[fi]; last++)
			;
		last += 5;	/* the third deflate_block's return */
	}
	for (size_t b = first; b <= last; b++) {
		calls += fl.br[b].kind == FLAME_CALL;
		rets += fl.br[b].kind == FLAME_RET;
	}
	buf = calloc(1, 1 << 20);
	opts.pid = fl.t.pid;
	if (!strcmp(mode, "bts")) {
		struct bts_record *r = (struct bts_record *)buf;
		size_t n = 0;

		opts.pmu = "intel_bts";
		for (size_t b = first; b <= last; b++)
			if (fl.br[b].kind != FLAME_ENTRY)	/* not taken: no record */
				r[n++] = (struct bts_record){ fl.br[b].from, fl.br[b].to };
		/* a zero record last: perf 6.1 never decodes a buffer's last record */
		len = (n + 1) * sizeof(*r);
	} else {
		len = flame_pt(&fl, buf, 1 << 20, first, last, start_ip);
	}
	if (aux_session__start(&s, &opts, argv[2]))
		return 1;
	flame_write(&s, buf, len, 64 << 10);
	if (aux_session__finish(&s) || traced_prog__finish(&fl.t))
		return 1;
	printf("elf %s\ncalls %zu returns %zu\n", fl.t.elf.dir, calls, rets);
	free(buf);
	free(fl.br);
	return 0;
}
