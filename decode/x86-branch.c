// SPDX-License-Identifier: LGPL-2.1
/*
 * Just enough of the x86 encoding to name a branch: prefixes, then the opcode and, for the
 * groups that need it, the ModRM reg field; and the length of a call, where its return
 * address is (ModRM, SIB and displacement), which a thread's call stack needs.
 */
#include <auxtrace/decode.h>

#include <internal/x86-branch.h>

#define JUMP	AUXTRACE_IP_FLAG_BRANCH
#define JCC	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CONDITIONAL)
#define CALL	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_CALL)
#define RET	(AUXTRACE_IP_FLAG_BRANCH | AUXTRACE_IP_FLAG_RETURN)
#define INT	(CALL | AUXTRACE_IP_FLAG_INTERRUPT)
#define IRET	(RET | AUXTRACE_IP_FLAG_INTERRUPT)
#define SYSCALL	(CALL | AUXTRACE_IP_FLAG_SYSCALLRET)
#define SYSRET	(RET | AUXTRACE_IP_FLAG_SYSCALLRET)
#define VMENTRY	(CALL | AUXTRACE_IP_FLAG_VMENTRY)

static bool x86_is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:	/* segment */
	case 0x66: case 0x67:							/* sizes */
	case 0xf0: case 0xf2: case 0xf3:				/* lock, rep, bnd */
		return true;
	default:
		return false;
	}
}

/* Opcodes after 0x0f. */
static uint32_t x86_branch__escape(const uint8_t *p, const uint8_t *end)
{
	if (p >= end)
		return 0;
	if (*p >= 0x80 && *p <= 0x8f)
		return JCC;
	switch (*p) {
	case 0x05: case 0x34:
		return SYSCALL;
	case 0x07: case 0x35:
		return SYSRET;
	case 0x01:
		return p + 1 < end && (p[1] == 0xc2 || p[1] == 0xc3) ? VMENTRY : 0;
	default:
		return 0;
	}
}

/* Group 5 (0xff): the ModRM reg field picks the operation. */
static uint32_t x86_branch__group5(const uint8_t *p, const uint8_t *end)
{
	if (p >= end)
		return 0;
	switch ((*p >> 3) & 7) {
	case 2: case 3:
		return CALL;
	case 4: case 5:
		return JUMP;
	default:
		return 0;
	}
}

/* Past the legacy prefixes and a REX prefix. */
static const uint8_t *x86_skip_prefixes(const uint8_t *p, const uint8_t *end, bool x86_64)
{
	while (p < end && x86_is_legacy_prefix(*p))
		p++;
	if (x86_64 && p < end && (*p & 0xf0) == 0x40)	/* REX */
		p++;
	return p;
}

uint32_t x86_branch__flags(const uint8_t *insn, size_t len, bool x86_64)
{
	const uint8_t *end = insn + len, *p = x86_skip_prefixes(insn, end, x86_64);

	if (p >= end)
		return 0;
	if ((*p >= 0x70 && *p <= 0x7f) || (*p >= 0xe0 && *p <= 0xe3))	/* jcc, loop, jcxz */
		return JCC;
	switch (*p) {
	case 0xe8:
		return CALL;
	case 0xe9: case 0xeb:
		return JUMP;
	case 0x9a:					/* call far ptr16:32 */
		return x86_64 ? 0 : CALL;
	case 0xea:					/* jmp far ptr16:32 */
		return x86_64 ? 0 : JUMP;
	case 0xc2: case 0xc3: case 0xca: case 0xcb:
		return RET;
	case 0xcc: case 0xcd:
		return INT;
	case 0xce:					/* into */
		return x86_64 ? 0 : INT;
	case 0xcf:
		return IRET;
	case 0xff:
		return x86_branch__group5(p + 1, end);
	case 0x0f:
		return x86_branch__escape(p + 1, end);
	default:
		return 0;
	}
}

/* Bytes of a ModRM operand (32- or 64-bit addressing): ModRM, SIB, displacement. */
static unsigned int x86_modrm__len(const uint8_t *p, const uint8_t *end)
{
	unsigned int mod, rm, n = 1;

	if (p >= end)
		return 0;
	mod = *p >> 6;
	rm = *p & 7;
	if (mod == 3)
		return n;
	if (rm == 4) {				/* a SIB byte */
		if (p + 1 >= end)
			return 0;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			return n + 4;		/* no base: disp32 */
	}
	if (mod == 1)
		return n + 1;
	if (mod == 2 || (mod == 0 && rm == 5))	/* disp32, or RIP-relative */
		return n + 4;
	return n;
}

unsigned int x86_branch__len(const uint8_t *insn, size_t len, bool x86_64)
{
	const uint8_t *end = insn + len, *p = x86_skip_prefixes(insn, end, x86_64);
	unsigned int op = 0, m;

	if (!x86_branch__flags(insn, len, x86_64))
		return 0;
	if ((*p >= 0x70 && *p <= 0x7f) || (*p >= 0xe0 && *p <= 0xe3))	/* rel8 */
		op = 2;
	switch (*p) {
	case 0xe8: case 0xe9:			/* rel32: 64-bit mode ignores an operand-size */
		op = 5;				/* prefix here, as Intel's CPUs and libipt do */
		break;
	case 0xeb: case 0xcd:			/* rel8, int imm8 */
		op = 2;
		break;
	case 0x9a: case 0xea:			/* ptr16:32 */
		op = 7;
		break;
	case 0xc2: case 0xca:			/* ret imm16 */
		op = 3;
		break;
	case 0xc3: case 0xcb: case 0xcc: case 0xce: case 0xcf:
		op = 1;
		break;
	case 0xff:
		m = x86_modrm__len(p + 1, end);
		op = m ? 1 + m : 0;
		break;
	case 0x0f:				/* jcc rel32: 6; vmlaunch, vmresume: 3; */
		op = p[1] >= 0x80 && p[1] <= 0x8f ? 6 : p[1] == 0x01 ? 3 : 2;	/* sys*: 2 */
		break;
	}
	return op && (size_t)(p - insn) + op <= len ? (unsigned int)(p - insn) + op : 0;
}

bool x86_branch__direct(const uint8_t *insn, size_t len, bool x86_64)
{
	const uint8_t *p = x86_skip_prefixes(insn, insn + len, x86_64);

	return p < insn + len && (*p == 0xe8 || *p == 0xe9 || *p == 0xeb);
}

unsigned int x86_branch__call_len(const uint8_t *insn, size_t len, bool x86_64)
{
	if (!(x86_branch__flags(insn, len, x86_64) & AUXTRACE_IP_FLAG_CALL))
		return 0;
	return x86_branch__len(insn, len, x86_64);
}
