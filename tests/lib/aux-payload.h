/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Real AUX payloads for tests, and a writer of the framed stream the AUX layer emits, so
 * that a later perf.data test can hand both to perf 6.1 (`perf report -D`, `perf script
 * --itrace=b`).
 */
#ifndef TESTS_AUX_PAYLOAD_H
#define TESTS_AUX_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <intel-pt.h>
#include <auxtrace/auxtrace.h>

/*
 * A checkable byte stream: byte p of it. Never zero, so zero padding cannot pass for data
 * and a byte out of place is caught. aux_stream__fill has the aux_producer_run fill shape.
 */
unsigned char aux_stream__byte(uint64_t p);
void aux_stream__fill(void *ctx, uint64_t pos, void *dst, size_t len);

/*
 * The PERF_RECORD_AUXTRACE frames of buf (48-byte record, then ev.size bytes of payload
 * and padding): fn(ctx, ev, payload) for each, stopping at a non-zero return. Returns the
 * frames walked, or -EINVAL when a frame is malformed or cut short.
 */
int aux_frames__walk(const void *buf, size_t len,
		     int (*fn)(void *ctx, const struct perf_record_auxtrace *ev,
			       const unsigned char *payload),
		     void *ctx);

/* Intel BTS: one branch record as the hardware writes it. */
struct bts_record {
	uint64_t from;
	uint64_t to;
	uint64_t misc;
};

/*
 * Branch number seq as a BTS record: from = 0x400000 + 16 * seq, to = from + 0x100,
 * misc = a check word of both, so a reader can tell a record from its neighbours and from
 * garbage.
 */
void bts_record__make(struct bts_record *r, uint64_t seq);
/* seq of a record made above, or -1 when it is not one. */
int64_t bts_record__seq(const struct bts_record *r);

/*
 * Intel PT packets from libipt's encoder, repeated until size is filled: PSB, TSC(tsc),
 * MODE.Exec 64-bit, PSBEND, TIP.PGE(ip), TNT-8, TIP.PGD, and PAD to the end. Returns the
 * bytes of packets before the padding, or -errno.
 */
ssize_t pt_payload__fill(void *buf, size_t size, uint64_t tsc, uint64_t ip);
/* The PSB+ a trace starts with: PSB, TSC(tsc), MODE.Exec 64-bit, PSBEND. */
#define PT_PSB_PACKETS 4
void pt_packets__psb(struct pt_packet *pkts, uint64_t tsc);
/*
 * One call of asm_elf_sample's f (asm-elf.h) at address f, traced: TIP.PGE at f; its
 * conditional branches in a TNT.8 (not taken, taken, taken, taken, not taken, not taken),
 * g's return compressed to one taken bit in a second TNT.8 (the call is on the decoder's
 * return stack), and f's own return leaving the traced code: TIP.PGD to caller, as when
 * tracing is filtered to f (without a filter, a near return with a suppressed TIP.PGD
 * reads as a trace stop, not an exit).
 */
#define PT_F_CALL_PACKETS 4
void pt_packets__f_call(struct pt_packet *pkts, uint64_t f, uint64_t caller);
/* Encode n packets. 0, or libipt's error. */
int pt_packets__encode(struct pt_encoder *enc, const struct pt_packet *pkts, size_t n);

/* Intel PT packets appended one by one with libipt's encoder. */
struct pt_stream {
	uint8_t buf[4096];
	size_t len;
	size_t pge_end;		/* where the last unit's TIP.PGE ends */
	size_t ret_tnt;		/* offset of the last unit's TNT packet for g's return */
};

/* 0, or -ENOSPC / libipt's error when the packet does not encode. */
int pt_stream__put(struct pt_stream *s, const struct pt_packet *pkt);

/* A PSB+ (pt_packets__psb) and one call of f (pt_packets__f_call). 0 or -errno. */
int pt_stream__f_unit(struct pt_stream *s, uint64_t f, uint64_t caller, uint64_t tsc);

/* PSB packets libipt's packet decoder finds in buf (every other packet must decode), or
 * -EINVAL at the first undecodable byte. */
int pt_payload__count_psb(const void *buf, size_t size);

/*
 * Push payload through the AUX layer (a test producer with an AUX area of aux_pages pages
 * and an auxtrace_mmap with itr) and write the output, PERF_RECORD_AUXTRACE records each
 * followed by its payload and padding, to path. Returns the records written or -errno.
 */
int aux_payload__write_framed(const char *path, const void *payload, size_t size,
			      unsigned int aux_pages, struct auxtrace_record *itr);

struct auxtrace_backend;
struct auxtrace_time_conv;
struct evlist;

/*
 * A backend's time_conv hook: the kernel's TSC conversion from the control page when it
 * publishes one; VMs often do not (time_mult 0, which the backend refuses), so then the one
 * a kernel with a 1 GHz TSC would publish.
 */
int aux_time_conv__or_stand_in(struct auxtrace_backend *be, struct evlist *evlist,
			       struct auxtrace_time_conv *tc);

#endif
