// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel PT decoding through libipt: a stream that libipt's encoder writes for a function the
 * test builds at run time decodes, with the image of that ELF, to exactly the branches the
 * function takes; instruction samples; a corrupt stream gives the offset and libipt's error
 * and resumes at the next PSB; the packet dump.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <intel-pt.h>

#include <auxtrace/intel-pt-decode.h>

#include "lib/testlib.h"
#include "lib/asm-elf.h"
#include "lib/aux-payload.h"
#include "lib/decode-collect.h"
#include "lib/log-capture.h"

#define BASE	0x7f1234500000ULL	/* where the test ELF is "loaded" */
#define TSC	0x123457ULL
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define CALLER	0x7f1234400010ULL	/* where f returns to: outside the traced code */

#define JCC	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CONDITIONAL)
#define CALL	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL)
#define RET	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_RETURN)

/* time_zero + tsc * 3 / 2, the mmap page's formula with shift 1, mult 3 */
static const struct auxtrace_tsc_conv tsc_conv = {
	.time_shift = 1, .time_mult = 3, .time_zero = 1000000,
};
#define TIME	(1000000 + TSC * 3 / 2)

/*
 * The instructions f runs (asm_elf_sample), in order: three rounds of the loop (3 odd, 2
 * even, 1 odd: jz falls through, jumps, falls through; jnz jumps twice, then falls through),
 * the call to g and both returns.
 */
static const char *const f_path[] = {
	"f_xor", "f_mov",
	"f_top", "f_test", "f_jz", "f_inc", "f_even", "f_jnz",
	"f_top", "f_test", "f_jz", "f_even", "f_jnz",
	"f_top", "f_test", "f_jz", "f_inc", "f_even", "f_jnz",
	"f_call", "g_nop", "g_ret", "f_ret",
};
#define F_PATH_LEN (sizeof(f_path) / sizeof(f_path[0]))

/* One call of f, as pt_stream__f_unit encodes it, returning to CALLER. */
static void pt_stream__f_call(struct pt_stream *s, uint64_t f)
{
	ck_assert_int_eq(pt_stream__f_unit(s, f, CALLER, TSC), 0);
}

struct pt_fixture {
	struct asm_elf elf;
	struct auxtrace_image *image;
	uint64_t f;
};

/* The code of source "loaded" at BASE, in fx->image; fx->f is its symbol f. */
static bool pt_fixture__init_source(struct pt_fixture *fx, const char *source)
{
	fx->image = auxtrace_image__new();
	ck_assert_ptr_nonnull(fx->image);
	if (asm_elf__build(&fx->elf, source, BASE))
		return false;
	ck_assert_int_eq(asm_elf__map(&fx->elf, fx->image), 0);
	fx->f = asm_elf__sym(&fx->elf, "f");
	ck_assert_uint_ne(fx->f, 0);
	return true;
}

static bool pt_fixture__init(struct pt_fixture *fx)
{
	return pt_fixture__init_source(fx, asm_elf_sample);
}

static void pt_fixture__fini(struct pt_fixture *fx)
{
	asm_elf__remove(&fx->elf);
	auxtrace_image__delete(fx->image);
}

static uint64_t sym(const struct pt_fixture *fx, const char *name)
{
	uint64_t addr = asm_elf__sym(&fx->elf, name);

	ck_assert_msg(addr, "no label %s", name);
	return addr;
}

static struct auxtrace_aux_data aux_data_of(const struct pt_stream *s)
{
	return (struct auxtrace_aux_data){
		.data = s->buf, .size = s->len, .offset = 0x20000, .cpu = 1, .pid = 100, .tid = 101,
	};
}

static unsigned int nr_threads;	/* the decoders' opts.nr_threads */
static struct auxtrace_decode_stats last_stats;	/* pt_buf__decode_cut's decoder's */
/* pt_buf__decode_cut: the samples made when each run stopped at its time, and how many */
static size_t paused_at[4096], nr_paused;

static struct intel_pt_decoder *pt_decoder(struct decode_collect *c, struct auxtrace_image *image,
					   bool branches, uint64_t insn_period)
{
	struct auxtrace_decode_opts opts;
	struct intel_pt_decoder *dec;

	decode_collect__opts(c, &opts);
	opts.branches = branches;
	opts.instructions = insn_period != 0;
	opts.insn_period = insn_period;
	opts.errors = true;
	opts.image = image;
	opts.tsc = tsc_conv;
	opts.nr_threads = nr_threads;
	dec = intel_pt_decoder__new(&opts);
	ck_assert_ptr_nonnull(dec);
	return dec;
}

/* Sample i is that branch; at TIME, the time of a stream of one TSC, unless untimed. */
static void assert_branch_of(const struct decode_collect *c, size_t i, uint64_t from,
			     uint64_t to, uint32_t flags, uint8_t insn_len, bool untimed)
{
	const struct auxtrace_sample *s;

	ck_assert_msg(c->nr_samples > i, "%zu samples, want more than %zu", c->nr_samples, i);
	s = &c->samples[i];
	ck_assert_msg(s->kind == AUXTRACE_SAMPLE_BRANCH && s->ip == from && s->addr == to &&
		      s->flags == flags && s->insn_len == insn_len,
		      "sample %zu: %#llx -> %#llx flags %#x len %u, want %#llx -> %#llx flags "
		      "%#x len %u", i, (unsigned long long)s->ip, (unsigned long long)s->addr,
		      s->flags, s->insn_len, (unsigned long long)from, (unsigned long long)to,
		      flags, insn_len);
	ck_assert_uint_eq(s->period, 1);
	if (!untimed)
		ck_assert_uint_eq(s->time, TIME);
	ck_assert_int_eq(s->cpu, 1);
	ck_assert_int_eq(s->pid, 100);
	ck_assert_int_eq(s->tid, 101);
}

static void assert_branch(const struct decode_collect *c, size_t i, uint64_t from,
			  uint64_t to, uint32_t flags, uint8_t insn_len)
{
	assert_branch_of(c, i, from, to, flags, insn_len, false);
}

/* Length of the instruction at label: the distance to the label after it in the source. */
static uint8_t insn_len(const struct pt_fixture *fx, const char *label, const char *next)
{
	return (uint8_t)(sym(fx, next) - sym(fx, label));
}

/* The branches of one call of f, from sample first on (untimed: at any time). */
static void assert_f_branches_of(const struct pt_fixture *fx, const struct decode_collect *c,
				 size_t first, bool untimed)
{
	const uint64_t f_top = sym(fx, "f_top"), f_jz = sym(fx, "f_jz"),
		       f_jnz = sym(fx, "f_jnz");
	const uint8_t jz_len = insn_len(fx, "f_jz", "f_inc"),
		      jnz_len = insn_len(fx, "f_jnz", "f_call"),
		      call_len = insn_len(fx, "f_call", "f_ret");

	const bool u = untimed;

	assert_branch_of(c, first + 0, 0, fx->f,
			 AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_BEGIN, 0, u);
	assert_branch_of(c, first + 1, f_jnz, f_top, JCC, jnz_len, u);		/* round 1 */
	assert_branch_of(c, first + 2, f_jz, sym(fx, "f_even"), JCC, jz_len, u);	/* round 2 */
	assert_branch_of(c, first + 3, f_jnz, f_top, JCC, jnz_len, u);
	assert_branch_of(c, first + 4, sym(fx, "f_call"), sym(fx, "g"), CALL, call_len, u);
	assert_branch_of(c, first + 5, sym(fx, "g_ret"), sym(fx, "f_ret"), RET, 1, u);
	assert_branch_of(c, first + 6, sym(fx, "f_ret"), CALLER,
			 RET | AUXTRACE_IP_FLAG_TRACE_END, 1, u);
}

static void assert_f_branches(const struct pt_fixture *fx, const struct decode_collect *c,
			      size_t first)
{
	assert_f_branches_of(fx, c, first, false);
}

START_TEST(test_pt_function_branches)
{
	struct decode_collect c = { 0 };
	struct pt_stream s = { .len = 0 };
	struct intel_pt_decoder *dec;
	struct auxtrace_aux_data data;
	struct pt_fixture fx;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	pt_stream__f_call(&s, fx.f);
	data = aux_data_of(&s);
	dec = pt_decoder(&c, fx.image, true, 0);
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);
	ck_assert_uint_eq(c.nr_errors, 0);
	ck_assert_uint_eq(c.nr_samples, 7);
	assert_f_branches(&fx, &c, 0);
	ck_assert_uint_eq(intel_pt_decoder__stats(dec)->instructions, F_PATH_LEN);
	ck_assert_uint_eq(intel_pt_decoder__stats(dec)->branches, 7);
	ck_assert_uint_eq(intel_pt_decoder__stats(dec)->bytes, s.len);
	/* libipt's position when each is known: past TIP.PGE, past TIP.PGD (the last packet) */
	ck_assert_uint_eq(c.samples[0].aux_offset, data.offset + s.pge_end);
	ck_assert_uint_eq(c.samples[6].aux_offset, data.offset + s.len);
	intel_pt_decoder__delete(dec);
	decode_collect__free(&c);
	pt_fixture__fini(&fx);
}
END_TEST

START_TEST(test_pt_instruction_samples)
{
	struct decode_collect c = { 0 };
	struct pt_stream s = { .len = 0 };
	struct intel_pt_decoder *dec;
	struct auxtrace_aux_data data;
	struct pt_fixture fx;
	size_t i;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	pt_stream__f_call(&s, fx.f);
	data = aux_data_of(&s);
	dec = pt_decoder(&c, fx.image, false, 5);
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);
	ck_assert_uint_eq(c.nr_samples, F_PATH_LEN / 5);
	for (i = 0; i < c.nr_samples; i++) {
		const struct auxtrace_sample *smp = &c.samples[i];

		ck_assert_int_eq(smp->kind, AUXTRACE_SAMPLE_INSTRUCTION);
		ck_assert_msg(smp->ip == sym(&fx, f_path[5 * i + 4]),
			      "sample %zu at %#llx, want %s", i, (unsigned long long)smp->ip,
			      f_path[5 * i + 4]);
		ck_assert_uint_eq(smp->period, 5);
		ck_assert_uint_eq(smp->time, TIME);
		ck_assert_uint_eq(smp->addr, 0);
	}
	ck_assert_uint_eq(intel_pt_decoder__stats(dec)->insn_samples, F_PATH_LEN / 5);
	ck_assert_uint_eq(intel_pt_decoder__stats(dec)->branches, 0);
	intel_pt_decoder__delete(dec);
	decode_collect__free(&c);
	pt_fixture__fini(&fx);
}
END_TEST

/*
 * Two calls of f, the first with an unknown packet where the TNT of g's return was: an error
 * naming that offset and libipt's message, then the second call decoded from its PSB in full.
 */
START_TEST(test_pt_corrupt_stream_resumes)
{
	struct decode_collect c = { 0 };
	struct pt_stream s = { .len = 0 };
	struct intel_pt_decoder *dec;
	struct auxtrace_aux_data data;
	struct pt_fixture fx;
	size_t bad, second;
	char want[128];

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	pt_stream__f_call(&s, fx.f);
	bad = s.ret_tnt;
	second = s.len;
	pt_stream__f_call(&s, fx.f);
	s.buf[bad] = 0x02;		/* an extended opcode ... */
	s.buf[bad + 1] = 0x00;		/* ... that does not exist */
	data = aux_data_of(&s);
	dec = pt_decoder(&c, fx.image, true, 0);
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);

	ck_assert_uint_eq(c.nr_errors, 1);
	ck_assert_int_eq(c.errors[0].e.kind, AUXTRACE_DECODE_ERR_TRACE);
	ck_assert_int_eq(c.errors[0].e.lib_code, pte_bad_opc);
	snprintf(want, sizeof(want), "libipt: %s", pt_errstr(pte_bad_opc));
	ck_assert_str_eq(c.errors[0].msg, want);
	ck_assert_uint_eq(c.errors[0].e.offset, bad);
	ck_assert_uint_eq(c.errors[0].e.aux_offset, data.offset + bad);
	ck_assert_uint_eq(c.errors[0].e.ip, sym(&fx, "f_jz"));	/* the branch that needed it */
	ck_assert_int_eq(c.errors[0].e.tid, 101);
	ck_assert_uint_lt(bad, second);

	/* the first call got as far as its start; the second is whole */
	ck_assert_uint_eq(c.nr_samples, 1 + 7);
	assert_branch(&c, 0, 0, fx.f, AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_BEGIN, 0);
	assert_f_branches(&fx, &c, 1);
	ck_assert_uint_gt(c.samples[1].aux_offset, data.offset + second);
	ck_assert_uint_eq(intel_pt_decoder__stats(dec)->errors, 1);
	intel_pt_decoder__delete(dec);
	decode_collect__free(&c);
	pt_fixture__fini(&fx);
}
END_TEST

/* The image may grow after the decoder was made (MMAP2 records arrive as the trace goes). */
START_TEST(test_pt_image_missing_then_added)
{
	struct auxtrace_image *image = auxtrace_image__new();
	struct decode_collect c = { 0 };
	struct pt_stream s = { .len = 0 };
	struct intel_pt_decoder *dec;
	struct auxtrace_aux_data data;
	struct pt_fixture fx;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	pt_stream__f_call(&s, fx.f);
	data = aux_data_of(&s);
	dec = pt_decoder(&c, image, true, 0);
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);
	ck_assert_uint_eq(c.nr_samples, 1);		/* the trace begins ... */
	ck_assert_uint_eq(c.nr_errors, 1);		/* ... where there is no code */
	ck_assert_int_eq(c.errors[0].e.kind, AUXTRACE_DECODE_ERR_NOINSN);
	ck_assert_int_eq(c.errors[0].e.lib_code, pte_nomap);
	ck_assert_msg(strstr(c.errors[0].msg, "the image has no code there"), "%s",
		      c.errors[0].msg);
	decode_collect__free(&c);

	ck_assert_int_eq(asm_elf__map(&fx.elf, image), 0);
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);
	ck_assert_uint_eq(c.nr_errors, 0);
	assert_f_branches(&fx, &c, 0);
	intel_pt_decoder__delete(dec);
	decode_collect__free(&c);
	auxtrace_image__delete(image);
	pt_fixture__fini(&fx);
}
END_TEST

START_TEST(test_pt_callback_stops_decode)
{
	struct decode_collect c = { .stop_after = 3 };
	struct pt_stream s = { .len = 0 };
	struct intel_pt_decoder *dec;
	struct auxtrace_aux_data data;
	struct pt_fixture fx;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	pt_stream__f_call(&s, fx.f);
	data = aux_data_of(&s);
	dec = pt_decoder(&c, fx.image, true, 0);
	errno = 0;
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), -ECANCELED);
	ck_assert_int_eq(errno, ECANCELED);
	ck_assert_uint_eq(c.nr_samples, 3);
	intel_pt_decoder__delete(dec);
	decode_collect__free(&c);
	pt_fixture__fini(&fx);
}
END_TEST

/* A PSB+ while tracing, at ip: its FUP says where the code is. */
static void pt_stream__psb_at(struct pt_stream *s, uint64_t tsc, uint64_t ip)
{
	struct pt_packet psb[PT_PSB_PACKETS + 1];

	pt_packets__psb(psb, tsc);
	psb[PT_PSB_PACKETS] = psb[PT_PSB_PACKETS - 1];		/* PSBEND last */
	psb[PT_PSB_PACKETS - 1] = (struct pt_packet){
		.type = ppt_fup, .payload.ip = { .ipc = pt_ipc_sext_48, .ip = ip } };
	for (size_t i = 0; i < ARRAY_LEN(psb); i++)
		ck_assert_int_eq(pt_stream__put(s, &psb[i]), 0);
}

/*
 * A stream whose time moves between branches: calls of f as pt_stream__f_unit encodes
 * them, but each conditional branch in a TNT of its own with a TSC after some of them (and
 * an MTC and a CYC, which libipt reads without a conversion for them), a TSC between the
 * calls, and a PSB+ before every third call only and in the middle of every third, its
 * FUP at f_top (where the code is after the loop's first round). With f_test, every third
 * call (another third) also has that PSB+ and stops there: TIP.PGD at f_test. Returns the
 * calls encoded.
 */
static unsigned int pt_stream__timed_calls(struct pt_stream *s, uint64_t tsc, uint64_t f,
					   uint64_t f_top, uint64_t f_test)
{
	static const uint8_t loop_bits[] = { 0, 1, 1, 1, 0, 0 };	/* f's, oldest first */
	unsigned int calls = 0;

	for (; s->len + 200 < sizeof(s->buf); calls++) {
		struct pt_packet pkt;
		size_t i;

		if (calls % 3 == 0) {
			struct pt_packet psb[PT_PSB_PACKETS];

			pt_packets__psb(psb, tsc);
			for (size_t i = 0; i < PT_PSB_PACKETS; i++)
				ck_assert_int_eq(pt_stream__put(s, &psb[i]), 0);
		}
		pkt = (struct pt_packet){ .type = ppt_tip_pge,
					  .payload.ip = { .ipc = pt_ipc_sext_48, .ip = f } };
		ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
		for (i = 0; i <= ARRAY_LEN(loop_bits); i++) {
			/* the last bit is g's return, compressed */
			pkt = (struct pt_packet){ .type = ppt_tnt_8, .payload.tnt = {
				.bit_size = 1,
				.payload = i < ARRAY_LEN(loop_bits) ? loop_bits[i] : 1 } };
			ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
			if (i == 1 && calls % 3 == 1)
				pt_stream__psb_at(s, tsc, f_top);
			if (i == 1 && calls % 3 == 2 && f_test) {
				/* a trace stop before the next branch: the call ends there */
				pt_stream__psb_at(s, tsc, f_top);
				pkt = (struct pt_packet){ .type = ppt_tip_pgd, .payload.ip = {
					.ipc = pt_ipc_sext_48, .ip = f_test } };
				ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
				break;
			}
			if ((i + calls) % 2)
				continue;
			tsc += 7 + i;
			pkt = (struct pt_packet){ .type = ppt_tsc, .payload.tsc.tsc = tsc };
			ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
		}
		if (i <= ARRAY_LEN(loop_bits)) {
			tsc += 100;
			continue;
		}
		pkt = (struct pt_packet){ .type = ppt_mtc, .payload.mtc.ctc = (uint8_t)calls };
		ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
		pkt = (struct pt_packet){ .type = ppt_cyc, .payload.cyc.value = 3 + calls };
		ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
		pkt = (struct pt_packet){ .type = ppt_tip_pgd,
					  .payload.ip = { .ipc = pt_ipc_sext_48, .ip = CALLER } };
		ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
		tsc += 100;
		pkt = (struct pt_packet){ .type = ppt_tsc, .payload.tsc.tsc = tsc };
		ck_assert_int_eq(pt_stream__put(s, &pkt), 0);
	}
	return calls;
}

/* s's bytes after the len bytes of buf (alloc of them, grown as needed): the buffer. */
static uint8_t *pt_buf__append(uint8_t *buf, size_t *len, size_t *alloc,
			       const struct pt_stream *s)
{
	if (*len + s->len > *alloc) {
		*alloc = *alloc ? 2 * *alloc : 65536;
		buf = realloc(buf, *alloc);
		ck_assert_ptr_nonnull(buf);
	}
	memcpy(buf + *len, s->buf, s->len);
	*len += s->len;
	return buf;
}

/*
 * Decode s as a stream of payloads cut at the given offsets (not at PSBs), running each
 * until one time after another, through the block decoder (branches alone) or the
 * instruction flow decoder (instruction samples asked for too, at a period no run reaches).
 */
static void pt_buf__decode_cut(const uint8_t *buf, size_t len, struct auxtrace_image *image,
			       bool insn_flow, const size_t *cuts, size_t nr_cuts, uint64_t step,
			       struct decode_collect *c)
{
	struct intel_pt_decoder *dec = pt_decoder(c, image, true, insn_flow ? 1ULL << 40 : 0);
	size_t start = 0;
	uint64_t until = TIME;

	for (size_t i = 0; i <= nr_cuts; i++) {
		struct auxtrace_aux_data data = {
			.data = buf + start, .offset = 0x20000 + start, .cpu = 1, .pid = 100,
			.tid = 101,
		};
		size_t end = i < nr_cuts ? cuts[i] : len;
		int err;

		data.size = end - start;
		ck_assert_int_eq(intel_pt_decoder__feed(dec, &data), 0);
		while ((err = intel_pt_decoder__run(dec, until, NULL)) == 1) {
			if (nr_paused < ARRAY_LEN(paused_at))
				paused_at[nr_paused++] = c->nr_samples;
			until += step;
		}
		ck_assert_int_eq(err, 0);
		start = end;
	}
	ck_assert_int_eq(intel_pt_decoder__end(dec), 0);
	ck_assert_int_eq(intel_pt_decoder__run(dec, UINT64_MAX, NULL), 0);
	last_stats = *intel_pt_decoder__stats(dec);
	intel_pt_decoder__delete(dec);
}

/*
 * s as one payload, into blk through the block decoder (branches alone) and into insn
 * through the instruction flow decoder (instruction samples asked for too, at a period no
 * run reaches).
 */
static void pt_stream__decode_both(const struct pt_stream *s, struct auxtrace_image *image,
				   struct decode_collect *blk, struct decode_collect *insn)
{
	struct auxtrace_aux_data data = aux_data_of(s);
	struct intel_pt_decoder *dec = pt_decoder(blk, image, true, 0);

	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);
	intel_pt_decoder__delete(dec);
	dec = pt_decoder(insn, image, true, 1ULL << 40);
	ck_assert_int_eq(intel_pt_decoder__decode(dec, &data), 0);
	intel_pt_decoder__delete(dec);
}

static void assert_same_samples(const struct decode_collect *a, const struct decode_collect *b)
{
	ck_assert_uint_eq(a->nr_samples, b->nr_samples);
	ck_assert_uint_eq(a->nr_errors, b->nr_errors);
	for (size_t i = 0; i < a->nr_samples; i++) {
		const struct auxtrace_sample *x = &a->samples[i], *y = &b->samples[i];

		ck_assert_msg(x->kind == y->kind && x->ip == y->ip && x->addr == y->addr &&
			      x->flags == y->flags && x->insn_len == y->insn_len &&
			      x->time == y->time,
			      "sample %zu: %#llx -> %#llx flags %#x len %u time %llu, against "
			      "%#llx -> %#llx flags %#x len %u time %llu", i,
			      (unsigned long long)x->ip, (unsigned long long)x->addr, x->flags,
			      x->insn_len, (unsigned long long)x->time, (unsigned long long)y->ip,
			      (unsigned long long)y->addr, y->flags, y->insn_len,
			      (unsigned long long)y->time);
	}
}

/*
 * Branch samples come from libipt's block decoder, instruction samples from its instruction
 * flow decoder: the two give the same branches at the same times, in one payload and in a
 * stream cut anywhere and paused at times between its branches. (Their AUX offsets may
 * differ by the packets one decoder has read ahead of the other.)
 */
START_TEST(test_pt_block_flow_matches_insn_flow)
{
	const size_t cuts[] = { 97, 1000, 1001, 2500 };
	struct decode_collect blk = { 0 }, insn = { 0 }, whole = { 0 };
	struct pt_stream s = { .len = 0 };
	struct pt_fixture fx;
	unsigned int calls;
	size_t times = 0;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	calls = pt_stream__timed_calls(&s, TSC, fx.f, sym(&fx, "f_top"), 0);
	ck_assert_uint_ge(calls, 20);
	ck_assert_uint_gt(s.len, cuts[ARRAY_LEN(cuts) - 1]);

	pt_stream__decode_both(&s, fx.image, &blk, &insn);
	ck_assert_uint_eq(blk.nr_errors, 0);
	ck_assert_uint_eq(blk.nr_samples, 7 * calls);
	for (unsigned int i = 0; i < calls; i++)
		assert_f_branches_of(&fx, &blk, 7 * i, true);
	for (size_t i = 1; i < blk.nr_samples; i++)
		times += blk.samples[i].time != blk.samples[i - 1].time;
	ck_assert_uint_gt(times, 3 * calls);	/* the time moves inside the calls */
	assert_same_samples(&blk, &insn);
	decode_collect__free(&blk);
	decode_collect__free(&insn);

	pt_buf__decode_cut(s.buf, s.len, fx.image, false, cuts, ARRAY_LEN(cuts), 20, &blk);
	pt_buf__decode_cut(s.buf, s.len, fx.image, true, cuts, ARRAY_LEN(cuts), 20, &insn);
	pt_buf__decode_cut(s.buf, s.len, fx.image, false, NULL, 0, 20, &whole);
	ck_assert_uint_eq(blk.nr_errors, 0);
	ck_assert_uint_eq(blk.nr_samples, 7 * calls);
	assert_same_samples(&blk, &insn);
	assert_same_samples(&blk, &whole);
	decode_collect__free(&blk);
	decode_collect__free(&insn);
	decode_collect__free(&whole);
	pt_fixture__fini(&fx);
}
END_TEST

/*
 * Blocks of one conditional branch each, a TSC between their TNTs: a branch's sample takes
 * the time libipt has when the branch it went to is decoded, as the instruction flow
 * decoder has it then, not the time before that block.
 */
START_TEST(test_pt_block_of_one_branch_timed)
{
	static const char chain[] =
		"	.text\n"
		"	.globl f\n"
		"f:	jz f_a\n"
		"	nop\n"
		"f_a:	jz f_b\n"
		"	nop\n"
		"f_b:	jz f_c\n"
		"	nop\n"
		"f_c:	ret\n";
	struct decode_collect blk = { 0 }, insn = { 0 };
	struct pt_stream s = { .len = 0 };
	struct pt_fixture fx;
	uint64_t tsc = TSC;

	if (!pt_fixture__init_source(&fx, chain))
		TEST_SKIP("gcc cannot build the test code");
	for (int call = 0; call < 4; call++) {
		struct pt_packet psb[PT_PSB_PACKETS], pkt;

		pt_packets__psb(psb, tsc);
		for (size_t i = 0; i < PT_PSB_PACKETS; i++)
			ck_assert_int_eq(pt_stream__put(&s, &psb[i]), 0);
		pkt = (struct pt_packet){ .type = ppt_tip_pge,
					  .payload.ip = { .ipc = pt_ipc_sext_48, .ip = fx.f } };
		ck_assert_int_eq(pt_stream__put(&s, &pkt), 0);
		for (int jump = 0; jump < 3; jump++) {
			pkt = (struct pt_packet){ .type = ppt_tnt_8,
						  .payload.tnt = { .bit_size = 1, .payload = 1 } };
			ck_assert_int_eq(pt_stream__put(&s, &pkt), 0);
			tsc += 10;
			pkt = (struct pt_packet){ .type = ppt_tsc, .payload.tsc.tsc = tsc };
			ck_assert_int_eq(pt_stream__put(&s, &pkt), 0);
		}
		pkt = (struct pt_packet){ .type = ppt_tip_pgd,
					  .payload.ip = { .ipc = pt_ipc_sext_48, .ip = CALLER } };
		ck_assert_int_eq(pt_stream__put(&s, &pkt), 0);
		tsc += 100;
	}
	pt_stream__decode_both(&s, fx.image, &blk, &insn);
	ck_assert_uint_eq(blk.nr_errors, 0);
	ck_assert_uint_eq(blk.nr_samples, 4 * 5);	/* begin, three jumps, the return */
	ck_assert_uint_eq(blk.samples[1].ip, fx.f);
	ck_assert_uint_eq(blk.samples[1].addr, sym(&fx, "f_a"));
	ck_assert_uint_ne(blk.samples[1].time, blk.samples[2].time);
	assert_same_samples(&blk, &insn);
	decode_collect__free(&blk);
	decode_collect__free(&insn);
	pt_fixture__fini(&fx);
}
END_TEST

/*
 * opts.nr_threads: pieces of a stream longer than many INTEL_PT_PIECEs (16 KiB) decoded on
 * workers give the samples of one thread, in order: run to the end, and run to times a few
 * pieces apart, in payloads cut anywhere. Every call begins with TIP.PGE (a trace begin
 * sample at the start of each piece); every third stops after a PSB+ in its middle, before
 * its next branch, where decoding a piece alone makes a trace end sample that decoding it
 * in order does not.
 */
START_TEST(test_pt_threads_same_samples)
{
	const size_t cuts[] = { 5000, 70001, 70002, 150000 };
	struct decode_collect one = { 0 }, three = { 0 };
	struct pt_fixture fx;
	size_t len = 0, alloc = 0;
	unsigned int calls = 0;
	uint8_t *buf = NULL;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	while (len < 150000) {
		struct pt_stream s = { .len = 0 };

		calls += pt_stream__timed_calls(&s, TSC + len, fx.f, sym(&fx, "f_top"),
						sym(&fx, "f_test"));
		buf = pt_buf__append(buf, &len, &alloc, &s);
	}
	for (int steps = 0; steps < 2; steps++) {
		uint64_t step = steps ? 20000 : UINT64_MAX / 2;
		size_t paused_one[ARRAY_LEN(paused_at)], nr_paused_one;

		nr_threads = 1;
		nr_paused = 0;
		pt_buf__decode_cut(buf, len, fx.image, false, cuts, ARRAY_LEN(cuts), step, &one);
		ck_assert_uint_eq(last_stats.worker_pieces, 0);
		memcpy(paused_one, paused_at, sizeof(paused_at));
		nr_paused_one = nr_paused;
		nr_threads = 3;
		nr_paused = 0;
		pt_buf__decode_cut(buf, len, fx.image, false, cuts, ARRAY_LEN(cuts), step, &three);
		nr_threads = 0;
		/* each run stopped where one thread's did, with the same samples made */
		ck_assert_uint_eq(nr_paused, nr_paused_one);
		if (steps)
			ck_assert_uint_gt(nr_paused, 10);
		ck_assert(!memcmp(paused_at, paused_one, nr_paused * sizeof(paused_at[0])));
		/*
		 * How many of the 9 or so pieces the workers decode depends on when they are
		 * scheduled (the caller's thread decodes a piece it reaches first itself); run
		 * to the end, at least one of the pieces given out, the caller at the first.
		 * Not under valgrind, which runs one thread at a time: there the caller's thread
		 * can get to every piece first.
		 */
		if (!steps && !getenv("AUXTRACE_TEST_MEMCHECK"))
			ck_assert_uint_ge(last_stats.worker_pieces, 1);
		ck_assert_uint_eq(one.nr_errors, 0);
		ck_assert_uint_gt(one.nr_samples, 5 * calls);
		assert_same_samples(&one, &three);
		decode_collect__free(&one);
		decode_collect__free(&three);
	}
	free(buf);
	pt_fixture__fini(&fx);
}
END_TEST

/*
 * Errors decoded on workers: calls of f whose return's TNT is an opcode that does not
 * exist, 150 KB of them, one error per call and many in each piece (their list grows while
 * the worker decodes): the errors of 1 and 3 threads are the same, messages and places.
 */
START_TEST(test_pt_threads_same_errors)
{
	struct decode_collect one = { 0 }, three = { 0 };
	struct pt_fixture fx;
	size_t len = 0, alloc = 0;
	uint8_t *buf = NULL;

	if (!pt_fixture__init(&fx))
		TEST_SKIP("gcc cannot build the test code");
	while (len < 150000) {
		struct pt_stream s = { .len = 0 };

		pt_stream__f_call(&s, fx.f);
		s.buf[s.ret_tnt] = 0x02;	/* an extended opcode ... */
		s.buf[s.ret_tnt + 1] = 0x00;	/* ... that does not exist */
		buf = pt_buf__append(buf, &len, &alloc, &s);
	}
	nr_threads = 1;
	pt_buf__decode_cut(buf, len, fx.image, false, NULL, 0, UINT64_MAX / 2, &one);
	nr_threads = 3;
	pt_buf__decode_cut(buf, len, fx.image, false, NULL, 0, UINT64_MAX / 2, &three);
	nr_threads = 0;
	ck_assert_uint_gt(one.nr_errors, 1000);
	assert_same_samples(&one, &three);
	for (size_t i = 0; i < one.nr_errors; i++) {
		ck_assert_str_eq(three.errors[i].msg, one.errors[i].msg);
		ck_assert_uint_eq(three.errors[i].e.aux_offset, one.errors[i].e.aux_offset);
		ck_assert_uint_eq(three.errors[i].e.ip, one.errors[i].e.ip);
	}
	decode_collect__free(&one);
	decode_collect__free(&three);
	free(buf);
	pt_fixture__fini(&fx);
}
END_TEST

START_TEST(test_pt_needs_image)
{
	struct decode_collect c = { 0 };
	struct auxtrace_decode_opts opts;

	decode_collect__opts(&c, &opts);
	opts.branches = true;
	log_capture_start();
	assert_null_errno(intel_pt_decoder__new(&opts), EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("no image"), "log: %s", log_text);
}
END_TEST

START_TEST(test_pt_dump)
{
	const struct pt_packet pkts[] = {
		{ .type = ppt_psb },
		{ .type = ppt_tsc, .payload.tsc.tsc = 0x1234 },
		{ .type = ppt_cbr, .payload.cbr.ratio = 0x2a },
		{ .type = ppt_mode, .payload.mode = { .leaf = pt_mol_exec,
						      .bits.exec = { .csl = 1 } } },
		{ .type = ppt_psbend },
		{ .type = ppt_tip_pge, .payload.ip = { .ipc = pt_ipc_sext_48, .ip = 0x400100 } },
		{ .type = ppt_tnt_8, .payload.tnt = { .bit_size = 6, .payload = 0x2d } },
		{ .type = ppt_tip, .payload.ip = { .ipc = pt_ipc_update_16, .ip = 0xbeef } },
		{ .type = ppt_pad },
		{ .type = ppt_mtc, .payload.mtc.ctc = 0x12 },
		{ .type = ppt_tip_pgd, .payload.ip = { .ipc = pt_ipc_suppressed } },
	};
	struct decode_collect c = { 0 };
	struct pt_stream s = { .len = 0 };
	size_t i, second;

	s.buf[s.len++] = 0x99;	/* the tail of an earlier packet: before any sync point */
	for (i = 0; i < sizeof(pkts) / sizeof(pkts[0]); i++)
		ck_assert_int_eq(pt_stream__put(&s, &pkts[i]), 0);
	second = s.len;
	for (i = 0; i < sizeof(pkts) / sizeof(pkts[0]); i++)
		ck_assert_int_eq(pt_stream__put(&s, &pkts[i]), 0);
	ck_assert_int_eq(pt_stream__put(&s, &pkts[0]), 0);	/* a PSB to go on from after the bad packet */
	ck_assert_int_eq(pt_stream__put(&s, &pkts[ARRAY_LEN(pkts) - 1]), 0);
	s.buf[second + 16] = 0x02;	/* the second TSC becomes an unknown extended opcode */
	s.buf[second + 17] = 0x00;
	ck_assert_uint_eq(second, 0x30);
	ck_assert_int_eq(intel_pt_decoder__dump(s.buf, s.len, decode_collect__dump, &c), 0);
	ck_assert_str_eq(c.dump,
		". ... Intel Processor Trace data: size 112 bytes\n"
		"[0: 1 bytes before the first PSB skipped: no sync point]\n"
		"0000000000000001  psb\n"
		"0000000000000011  tsc        1234\n"
		"0000000000000019  cbr        2a\n"
		"000000000000001d  mode.exec  cs.l\n"
		"000000000000001f  psbend\n"
		"0000000000000021  tip.pge    3: 0000000000400100\n"
		"0000000000000028  tnt.8      !.!!.!\n"
		"0000000000000029  tip        1: ????????????beef\n"
		"000000000000002c  pad\n"
		"000000000000002d  mtc        12\n"
		"000000000000002f  tip.pgd    0: ????????????????\n"
		"0000000000000030  psb\n"
		"[40: error decoding packet: unknown opcode]\n"
		"000000000000005f  psb\n"
		"000000000000006f  tip.pgd    0: ????????????????\n");
	decode_collect__free(&c);

	/* no sync point at all */
	ck_assert_int_eq(intel_pt_decoder__dump(s.buf + 0x31, 8, decode_collect__dump, &c), 0);
	ck_assert_str_eq(c.dump, ". ... Intel Processor Trace data: size 8 bytes\n"
				 "[0: no PSB in 8 bytes: nothing to decode from]\n");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("intel-pt-decode");
	TCase *tc = tcase_create("decode");

	/* each test builds its code with gcc; sanitized and under valgrind that is slow */
	tcase_set_timeout(tc, 60);

	tcase_add_test(tc, test_pt_function_branches);
	tcase_add_test(tc, test_pt_instruction_samples);
	tcase_add_test(tc, test_pt_corrupt_stream_resumes);
	tcase_add_test(tc, test_pt_image_missing_then_added);
	tcase_add_test(tc, test_pt_callback_stops_decode);
	tcase_add_test(tc, test_pt_block_flow_matches_insn_flow);
	tcase_add_test(tc, test_pt_block_of_one_branch_timed);
	tcase_add_test(tc, test_pt_threads_same_samples);
	tcase_add_test(tc, test_pt_threads_same_errors);
	tcase_add_test(tc, test_pt_needs_image);
	tcase_add_test(tc, test_pt_dump);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
