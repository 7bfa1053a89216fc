/* SPDX-License-Identifier: LGPL-2.1 */
/* What kind of branch an x86 instruction is, in perf's sample flags. */
#ifndef AUXTRACE_INTERNAL_X86_BRANCH_H
#define AUXTRACE_INTERNAL_X86_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The AUXTRACE_IP_FLAG_* set perf gives a branch of the instruction in insn[0..len): jumps
 * (branch), conditional jumps and loops (+ conditional), calls, returns, INT/INT3/INTO (call
 * + interrupt), IRET (return + interrupt), SYSCALL/SYSENTER (call + syscallret),
 * SYSRET/SYSEXIT (return + syscallret), VMLAUNCH/VMRESUME (call + vmentry). 0 for anything
 * else, including bytes that end before the opcode does. x86_64 selects 64-bit decoding
 * (REX prefixes; no far direct forms).
 */
uint32_t x86_branch__flags(const uint8_t *insn, size_t len, bool x86_64);
/*
 * The length in bytes of the branch instruction (one x86_branch__flags names) in
 * insn[0..len), prefixes included; 0 when it is no branch or does not fit in len.
 */
unsigned int x86_branch__len(const uint8_t *insn, size_t len, bool x86_64);
/* Is insn[0..len) a near call or jump to where it says (E8, E9, EB), no trace needed? */
bool x86_branch__direct(const uint8_t *insn, size_t len, bool x86_64);
/*
 * The length in bytes of the call instruction (by x86_branch__flags) in insn[0..len), where its
 * return address is; 0 when it is no call or does not fit in len.
 */
unsigned int x86_branch__call_len(const uint8_t *insn, size_t len, bool x86_64);

#endif
