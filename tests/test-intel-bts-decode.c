// SPDX-License-Identifier: LGPL-2.1
/*
 * Intel BTS decoding: branch records to exactly those branches, perf 6.1's quirks (the last
 * record unused, zero records skipped, trace begin/end), flags read from code built at run
 * time, errors, the dump, and the x86 branch classifier the flags come from.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/intel-bts-decode.h>
#include <internal/x86-branch.h>

#include "lib/testlib.h"
#include "lib/asm-elf.h"
#include "lib/decode-collect.h"
#include "lib/log-capture.h"

#define BASE	0x7f1234500000ULL	/* where the test ELF is "loaded" */
#define KERNEL	0xffffffff81000000ULL

#define JCC	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CONDITIONAL)
#define CALL	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL)
#define RET	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_RETURN)

struct bts_rec {
	uint64_t from, to, misc;
};

static struct auxtrace_aux_data aux_data_of(const struct bts_rec *recs, size_t nr)
{
	return (struct auxtrace_aux_data){
		.data = recs, .size = nr * sizeof(*recs), .offset = 0x1000,
		.cpu = 1, .pid = 100, .tid = 101,
	};
}

/* Decode recs with branches (and errors) asked for; the decoder's return in *ret. */
static void bts_decode(struct decode_collect *c, const struct bts_rec *recs, size_t nr,
		       struct auxtrace_image *image, bool errors, int *ret)
{
	struct auxtrace_aux_data data = aux_data_of(recs, nr);
	struct auxtrace_decode_opts opts;
	struct intel_bts_decoder *dec;

	decode_collect__opts(c, &opts);
	opts.branches = true;
	opts.errors = errors;
	opts.image = image;
	dec = intel_bts_decoder__new(&opts);
	ck_assert_ptr_nonnull(dec);
	*ret = intel_bts_decoder__decode(dec, &data);
	ck_assert_uint_eq(intel_bts_decoder__stats(dec)->bytes, data.size);
	intel_bts_decoder__delete(dec);
}

/* Sample i is record rec's branch. */
static void assert_branch_of(const struct decode_collect *c, size_t i, size_t rec,
			     uint64_t from, uint64_t to, uint32_t flags)
{
	const struct auxtrace_sample *s;

	ck_assert_uint_gt(c->nr_samples, i);
	s = &c->samples[i];
	ck_assert_msg(s->kind == AUXTRACE_SAMPLE_BRANCH && s->ip == from && s->addr == to &&
		      s->flags == flags,
		      "sample %zu: %#llx -> %#llx flags %#x, want %#llx -> %#llx flags %#x", i,
		      (unsigned long long)s->ip, (unsigned long long)s->addr, s->flags,
		      (unsigned long long)from, (unsigned long long)to, flags);
	/* perf's BTS samples: period 1, no time, the queue's cpu/pid/tid */
	ck_assert_uint_eq(s->period, 1);
	ck_assert_uint_eq(s->time, 0);
	ck_assert_int_eq(s->cpu, 1);
	ck_assert_int_eq(s->pid, 100);
	ck_assert_int_eq(s->tid, 101);
	ck_assert_uint_eq(s->aux_offset, 0x1000 + rec * sizeof(struct bts_rec));
}

static void assert_branch(const struct decode_collect *c, size_t i, uint64_t from,
			  uint64_t to, uint32_t flags)
{
	assert_branch_of(c, i, i, from, to, flags);
}

START_TEST(test_bts_records_become_branches)
{
	const struct bts_rec recs[] = {
		{ 0x400100, 0x400200, 0 }, { 0x400210, 0x400300, 0x10 },
		{ 0x400310, 0x401000, 0 }, { 0, 0, 0 },	/* the driver's end of buffer */
	};
	struct decode_collect c = { 0 };
	int ret;

	bts_decode(&c, recs, 4, NULL, false, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(c.nr_samples, 3);
	/* no image: perf cannot read the instruction, so no flags */
	assert_branch(&c, 0, 0x400100, 0x400200, 0);
	assert_branch(&c, 1, 0x400210, 0x400300, 0);
	assert_branch(&c, 2, 0x400310, 0x401000, 0);
	decode_collect__free(&c);
}
END_TEST

/* perf 6.1's loop runs while more than one record is left (peers.md §2.6, verified). */
START_TEST(test_bts_last_record_unused)
{
	const struct bts_rec recs[] = {
		{ 0x400100, 0x400200, 0 }, { 0x400210, 0x400300, 0 }, { 0x400310, 0x401000, 0 },
	};
	unsigned char partial[3 * sizeof(struct bts_rec) + 8] = { 0 };
	struct auxtrace_aux_data data;
	struct auxtrace_decode_opts opts;
	struct decode_collect c = { 0 };
	struct intel_bts_decoder *dec;
	int ret;

	bts_decode(&c, recs, 3, NULL, false, &ret);
	ck_assert_uint_eq(c.nr_samples, 2);
	assert_branch(&c, 1, 0x400210, 0x400300, 0);
	decode_collect__free(&c);

	bts_decode(&c, recs, 1, NULL, false, &ret);
	ck_assert_uint_eq(c.nr_samples, 0);
	decode_collect__free(&c);

	/* A partial record at the end is the one left over: every whole record is used. */
	memcpy(partial, recs, sizeof(recs));
	data = aux_data_of(recs, 3);
	data.data = partial;
	data.size = sizeof(partial);
	decode_collect__opts(&c, &opts);
	opts.branches = true;
	dec = intel_bts_decoder__new(&opts);
	ck_assert_int_eq(intel_bts_decoder__decode(dec, &data), 0);
	ck_assert_uint_eq(c.nr_samples, 3);
	intel_bts_decoder__delete(dec);
	decode_collect__free(&c);
}
END_TEST

START_TEST(test_bts_zero_begin_end)
{
	const struct bts_rec recs[] = {
		{ 0, 0, 0 }, { 0, 0x400100, 0 }, { 0, 0, 0x10 }, { 0x400200, 0, 0 }, { 0, 0, 0 },
	};
	struct decode_collect c = { 0 };
	int ret;

	bts_decode(&c, recs, 5, NULL, true, &ret);
	ck_assert_uint_eq(c.nr_samples, 2);
	ck_assert_uint_eq(c.nr_errors, 0);	/* begin and end need no instruction */
	assert_branch_of(&c, 0, 1, 0, 0x400100,
			 AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_BEGIN);
	assert_branch_of(&c, 1, 3, 0x400200, 0,
			 AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_TRACE_END);
	decode_collect__free(&c);
}
END_TEST

/* The flags come from the instruction at from, in code the test built. */
START_TEST(test_bts_flags_from_image)
{
	struct auxtrace_image *image = auxtrace_image__new();
	struct decode_collect c = { 0 };
	struct asm_elf elf;
	int ret;

	ck_assert_ptr_nonnull(image);
	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	ck_assert_int_eq(asm_elf__map(&elf, image), 0);
	{
		const uint64_t f_top = asm_elf__sym(&elf, "f_top"), g = asm_elf__sym(&elf, "g"),
			       f_ret = asm_elf__sym(&elf, "f_ret"),
			       f_inc = asm_elf__sym(&elf, "f_inc"),
			       sys = asm_elf__sym(&elf, "x_syscall");
		const struct bts_rec recs[] = {
			{ asm_elf__sym(&elf, "f_jnz"), f_top, 0 },
			{ asm_elf__sym(&elf, "f_call"), g, 0 },
			{ asm_elf__sym(&elf, "g_ret"), f_ret, 0 },
			{ sys, KERNEL, 0 },		/* a system call stays one */
			{ f_inc, KERNEL + 0x40, 0 },	/* anything else into the kernel: irq */
			{ KERNEL + 0x80, f_inc, 0 },	/* no kernel code in the image */
			{ 0, 0, 0 },
		};

		ck_assert_uint_ne(f_top, 0);
		bts_decode(&c, recs, 7, image, true, &ret);
		ck_assert_int_eq(ret, 0);
		ck_assert_uint_eq(c.nr_samples, 6);
		assert_branch(&c, 0, recs[0].from, f_top, JCC);
		assert_branch(&c, 1, recs[1].from, g, CALL);
		assert_branch(&c, 2, recs[2].from, f_ret, RET);
		assert_branch(&c, 3, sys, KERNEL, CALL | AUXTRACE_IP_FLAG_SYSCALLRET);
		assert_branch(&c, 4, f_inc, KERNEL + 0x40,
			      CALL | AUXTRACE_IP_FLAG_ASYNC | AUXTRACE_IP_FLAG_INTERRUPT);
		assert_branch(&c, 5, KERNEL + 0x80, f_inc, 0);
		/* errors asked for: the unreadable instruction is one, before its sample */
		ck_assert_uint_eq(c.nr_errors, 1);
		ck_assert_int_eq(c.errors[0].e.kind, AUXTRACE_DECODE_ERR_NOINSN);
		ck_assert_str_eq(c.errors[0].msg, "Failed to get instruction");
		ck_assert_uint_eq(c.errors[0].e.ip, KERNEL + 0x80);
		ck_assert_uint_eq(c.errors[0].e.offset, 5 * sizeof(struct bts_rec));
		ck_assert_uint_eq(c.errors[0].e.aux_offset, 0x1000 + 5 * sizeof(struct bts_rec));
		ck_assert_int_eq(c.errors[0].e.tid, 101);
		decode_collect__free(&c);

		/* errors not asked for: the same samples, no error callback */
		bts_decode(&c, recs, 7, image, false, &ret);
		ck_assert_uint_eq(c.nr_samples, 6);
		ck_assert_uint_eq(c.nr_errors, 0);
		decode_collect__free(&c);
	}
	asm_elf__remove(&elf);
	auxtrace_image__delete(image);
}
END_TEST

/*
 * A decoder keeps what it read at a branch's source, for the image as it was: when the
 * image changes (a new mapping puts other code there), it reads the code again.
 */
START_TEST(test_bts_flags_follow_image)
{
	struct auxtrace_image *image = auxtrace_image__new();
	struct decode_collect c = { 0 };
	struct auxtrace_decode_opts opts;
	struct intel_bts_decoder *dec;
	struct asm_elf elf;

	ck_assert_ptr_nonnull(image);
	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	ck_assert_int_eq(asm_elf__map(&elf, image), 0);
	{
		const uint64_t call = asm_elf__sym(&elf, "f_call"), g = asm_elf__sym(&elf, "g"),
			       ret = asm_elf__sym(&elf, "f_ret");
		const struct bts_rec recs[] = { { call, g, 0 }, { call, g, 0 }, { 0, 0, 0 } };
		struct auxtrace_aux_data data = aux_data_of(recs, 3);

		decode_collect__opts(&c, &opts);
		opts.branches = true;
		opts.image = image;
		dec = intel_bts_decoder__new(&opts);
		ck_assert_ptr_nonnull(dec);
		ck_assert_int_eq(intel_bts_decoder__decode(dec, &data), 0);
		/* the code again, shifted so that f_ret's return is where f_call's call was */
		ck_assert_int_eq(auxtrace_image__add_file(image, elf.path, elf.pgoff, elf.len,
							  elf.start + call - ret), 0);
		ck_assert_int_eq(intel_bts_decoder__decode(dec, &data), 0);
		ck_assert_uint_eq(c.nr_samples, 4);
		assert_branch(&c, 0, call, g, CALL);
		assert_branch(&c, 1, call, g, CALL);
		assert_branch_of(&c, 2, 0, call, g, RET);	/* the same records, decoded again */
		assert_branch_of(&c, 3, 1, call, g, RET);
		intel_bts_decoder__delete(dec);
		decode_collect__free(&c);
	}
	asm_elf__remove(&elf);
	auxtrace_image__delete(image);
}
END_TEST

/*
 * Every kind of branch the classifier knows, as gcc assembled it into the test code: its
 * flags, and its length (the distance to the label after it; 0 for no branch).
 */
START_TEST(test_x86_branch_flags)
{
	static const struct {
		const char *label;
		uint32_t flags;
		const char *next;
	} kinds[] = {
		{ "f_jz", JCC, "f_inc" }, { "x_loop", JCC, "x_jrcxz" },
		{ "x_jrcxz", JCC, "x_jcc32" }, { "x_jcc32", JCC, "x_ret_imm" },
		{ "f_call", CALL, "f_ret" }, { "x_call_ind", CALL, "x_call_far" },
		{ "x_call_far", CALL, "x_loop" }, { "f_ret", RET, "g" },
		{ "x_ret_imm", RET, "x_ret_far" }, { "x_ret_far", RET, "x_bnd_ret" },
		{ "x_bnd_ret", RET, "x_vmlaunch" },
		{ "x_jmp_ind", AUXTRACE_IP_FLAG_BRANCH, "x_jmp_r11" },
		{ "x_jmp_r11", AUXTRACE_IP_FLAG_BRANCH, "x_call_ind" },
		{ "x_syscall", CALL | AUXTRACE_IP_FLAG_SYSCALLRET, "x_sysret" },
		{ "x_sysenter", CALL | AUXTRACE_IP_FLAG_SYSCALLRET, "x_int3" },
		{ "x_sysret", RET | AUXTRACE_IP_FLAG_SYSCALLRET, "x_sysenter" },
		{ "x_int3", CALL | AUXTRACE_IP_FLAG_INTERRUPT, "x_int80" },
		{ "x_int80", CALL | AUXTRACE_IP_FLAG_INTERRUPT, "x_iret" },
		{ "x_iret", RET | AUXTRACE_IP_FLAG_INTERRUPT, "x_jmp_ind" },
		{ "x_vmlaunch", CALL | AUXTRACE_IP_FLAG_VMENTRY, "x_vmcall" },
		{ "x_vmcall", 0, NULL }, { "x_mov", 0, NULL }, { "x_push", 0, NULL },
		{ "f_inc", 0, NULL },
	};
	/* 32-bit code: 0x40 is inc, not REX; far direct forms exist */
	static const uint8_t inc_jmp[] = { 0x40, 0xeb, 0x00 }, far_call[] = { 0x9a };
	struct auxtrace_image *image = auxtrace_image__new();
	struct asm_elf elf;
	size_t i;

	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	ck_assert_int_eq(asm_elf__map(&elf, image), 0);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		uint64_t addr = asm_elf__sym(&elf, kinds[i].label), want_len;
		uint8_t insn[15];
		ssize_t n;

		ck_assert_msg(addr, "no label %s", kinds[i].label);
		n = auxtrace_image__read(image, addr, insn, sizeof(insn));
		ck_assert_int_gt(n, 0);
		ck_assert_msg(x86_branch__flags(insn, (size_t)n, true) == kinds[i].flags,
			      "%s: flags %#x, want %#x", kinds[i].label,
			      x86_branch__flags(insn, (size_t)n, true), kinds[i].flags);
		want_len = kinds[i].next ? asm_elf__sym(&elf, kinds[i].next) - addr : 0;
		ck_assert_msg(x86_branch__len(insn, (size_t)n, true) == want_len,
			      "%s: length %u, want %llu", kinds[i].label,
			      x86_branch__len(insn, (size_t)n, true), (unsigned long long)want_len);
		/* of these, only the call rel32 goes where it says, without trace */
		ck_assert_msg(x86_branch__direct(insn, (size_t)n, true) ==
			      !strcmp(kinds[i].label, "f_call"), "%s: direct?", kinds[i].label);
		/* cut short, it is no branch of that length */
		if (want_len)
			ck_assert_uint_eq(x86_branch__len(insn, want_len - 1, true), 0);
	}
	ck_assert_uint_eq(x86_branch__flags(inc_jmp, 3, true), AUXTRACE_IP_FLAG_BRANCH);
	ck_assert_uint_eq(x86_branch__flags(inc_jmp, 3, false), 0);
	ck_assert_uint_eq(x86_branch__flags(far_call, 1, false), CALL);
	ck_assert_uint_eq(x86_branch__flags(far_call, 1, true), 0);
	/* bytes that end inside the instruction name nothing */
	ck_assert_uint_eq(x86_branch__flags((const uint8_t *)"\x0f", 1, true), 0);
	ck_assert_uint_eq(x86_branch__flags((const uint8_t *)"\x66\x48", 2, true), 0);
	ck_assert_uint_eq(x86_branch__flags((const uint8_t *)"\xff", 1, true), 0);
	asm_elf__remove(&elf);
	auxtrace_image__delete(image);
}
END_TEST

START_TEST(test_bts_dump)
{
	const struct bts_rec recs[] = {
		{ 0x400100, 0x400200, 0 }, { 0x1122334455667788ULL, 0x400300, 0x10 },
	};
	unsigned char buf[sizeof(recs) + 5];
	struct decode_collect c = { 0 };
	char want[512];

	/* a partial record: its bytes, three columns per missing byte, then the verdict */
	snprintf(want, sizeof(want), "%s%s%s%*s%s",
		 ". ... Intel BTS data: size 53 bytes\n"
		 ".  00000000:  00 01 40 00 00 00 00 00 00 02 40 00 00 00 00 00 00 00 00 00 00 00 "
		 "00 00 400100 -> 400200 miss\n",
		 ".  00000018:  88 77 66 55 44 33 22 11 00 03 40 00 00 00 00 00 10 00 00 00 00 00 "
		 "00 00 1122334455667788 -> 400300 pred\n",
		 ".  00000030:  01 02 03 04 05", 19 * 3, "", " Bad record!\n");
	memcpy(buf, recs, sizeof(recs));
	memcpy(buf + sizeof(recs), "\x01\x02\x03\x04\x05", 5);
	ck_assert_int_eq(intel_bts_decoder__dump(buf, sizeof(buf), decode_collect__dump, &c), 0);
	ck_assert_str_eq(c.dump, want);

	/* the callback's error stops the dump and comes back */
	c.dump_len = sizeof(c.dump) - 10;
	errno = 0;
	ck_assert_int_eq(intel_bts_decoder__dump(buf, sizeof(buf), decode_collect__dump, &c),
			 -ENOSPC);
	ck_assert_int_eq(errno, ENOSPC);
}
END_TEST

START_TEST(test_bts_callback_stops_decode)
{
	const struct bts_rec recs[] = {
		{ 0x400100, 0x400200, 0 }, { 0x400210, 0x400300, 0 }, { 0x400310, 0x401000, 0 },
		{ 0, 0, 0 },
	};
	struct decode_collect c = { .stop_after = 2 };
	int ret;

	errno = 0;
	bts_decode(&c, recs, 4, NULL, false, &ret);
	ck_assert_int_eq(ret, -ECANCELED);
	ck_assert_int_eq(errno, ECANCELED);
	ck_assert_uint_eq(c.nr_samples, 2);
	decode_collect__free(&c);
}
END_TEST

/* What the options ask for must be possible; their sz is test-opts.c's. */
START_TEST(test_bts_opts_checked)
{
	struct decode_collect c = { 0 };
	struct auxtrace_decode_opts opts;

	log_capture_start();
	assert_null_errno(intel_bts_decoder__new(NULL), EINVAL);
	ck_assert_msg(log_captured("no decode options"), "log: %s", log_text);

	decode_collect__opts(&c, &opts);
	opts.branches = true;
	opts.sample_fn = NULL;
	assert_null_errno(intel_bts_decoder__new(&opts), EINVAL);
	ck_assert_msg(log_captured("no sample_fn"), "log: %s", log_text);

	decode_collect__opts(&c, &opts);
	opts.errors = true;
	opts.error_fn = NULL;
	assert_null_errno(intel_bts_decoder__new(&opts), EINVAL);
	ck_assert_msg(log_captured("no error_fn"), "log: %s", log_text);
	log_capture_stop();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("intel-bts-decode");
	TCase *tc = tcase_create("decode");

	tcase_add_test(tc, test_bts_records_become_branches);
	tcase_add_test(tc, test_bts_last_record_unused);
	tcase_add_test(tc, test_bts_zero_begin_end);
	tcase_add_test(tc, test_bts_flags_from_image);
	tcase_add_test(tc, test_bts_flags_follow_image);
	tcase_add_test(tc, test_x86_branch_flags);
	tcase_add_test(tc, test_bts_dump);
	tcase_add_test(tc, test_bts_callback_stops_decode);
	tcase_add_test(tc, test_bts_opts_checked);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
