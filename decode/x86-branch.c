// SPDX-License-Identifier: LGPL-2.1
/*
 * Just enough of the x86 encoding to name a branch: prefixes, then the opcode and, for the
 * groups that need it, the ModRM reg field. Lengths are not needed, so nothing past that is
 * decoded.
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

uint32_t x86_branch__flags(const uint8_t *insn, size_t len, bool x86_64)
{
	const uint8_t *p = insn, *end = insn + len;

	while (p < end && x86_is_legacy_prefix(*p))
		p++;
	if (x86_64 && p < end && (*p & 0xf0) == 0x40)	/* REX */
		p++;
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
