/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the AUX decoders (Intel BTS, Intel PT) share: the piece of AUX data they are handed,
 * the samples and errors they synthesize, the options that say which, and the process image
 * they read code from.
 *
 * A decoder is standalone: it knows nothing of perf.data, queues or sessions. Its caller hands
 * it the payload of each PERF_RECORD_AUXTRACE of one queue in order, and gets back, through
 * callbacks, branch and instruction samples as `perf script --itrace` synthesizes them, and
 * decode errors as perf's PERF_RECORD_AUXTRACE_ERROR carries them.
 */
#ifndef AUXTRACE_DECODE_H
#define AUXTRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <auxtrace/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One AUXTRACE payload: the bytes and the fields of its record that a decoder uses. */
struct auxtrace_aux_data {
	const void *data;	/* borrowed for the duration of the decode call */
	size_t size;
	uint64_t offset;	/* where data[0] lies in the AUX stream (AUXTRACE offset) */
	int cpu;		/* -1 in a per-thread recording */
	int pid;		/* -1 when unknown */
	int tid;		/* -1 when unknown */
};

/* A sample's flags: perf's PERF_IP_FLAG_* bits, so `perf script -F flags` letters apply. */
enum auxtrace_ip_flag {
	AUXTRACE_IP_FLAG_BRANCH		= 1U << 0,
	AUXTRACE_IP_FLAG_CALL		= 1U << 1,
	AUXTRACE_IP_FLAG_RETURN		= 1U << 2,
	AUXTRACE_IP_FLAG_CONDITIONAL	= 1U << 3,
	AUXTRACE_IP_FLAG_SYSCALLRET	= 1U << 4,
	AUXTRACE_IP_FLAG_ASYNC		= 1U << 5,
	AUXTRACE_IP_FLAG_INTERRUPT	= 1U << 6,
	AUXTRACE_IP_FLAG_TX_ABORT	= 1U << 7,
	AUXTRACE_IP_FLAG_TRACE_BEGIN	= 1U << 8,
	AUXTRACE_IP_FLAG_TRACE_END	= 1U << 9,
	AUXTRACE_IP_FLAG_IN_TX		= 1U << 10,
	AUXTRACE_IP_FLAG_VMENTRY	= 1U << 11,
	AUXTRACE_IP_FLAG_VMEXIT		= 1U << 12,
};

enum auxtrace_sample_kind {
	AUXTRACE_SAMPLE_BRANCH,		/* --itrace=b: one per taken branch */
	AUXTRACE_SAMPLE_INSTRUCTION,	/* --itrace=i<period>: one per period instructions */
};

struct auxtrace_sample {
	enum auxtrace_sample_kind kind;
	uint64_t ip;		/* branch: its source, 0 when tracing begins; else the instruction */
	uint64_t addr;		/* branch: its target, 0 when tracing ends; else 0 */
	uint64_t time;		/* perf clock ns; 0 when the trace carries no usable time */
	uint64_t period;	/* 1 for a branch; instructions since the previous sample */
	uint32_t flags;		/* enum auxtrace_ip_flag */
	uint8_t insn_len;	/* length of the instruction at ip, 0 when unknown */
	int cpu;		/* as in struct auxtrace_aux_data */
	int pid;
	int tid;
	uint64_t aux_offset;	/* AUX stream position of the trace that produced it */
};

enum auxtrace_decode_error_kind {
	AUXTRACE_DECODE_ERR_TRACE = 1,	/* the trace itself is bad or out of sync */
	AUXTRACE_DECODE_ERR_NOINSN,	/* no code at ip in the image: flags are unknown */
	AUXTRACE_DECODE_ERR_OVERFLOW,	/* the hardware dropped trace (Intel PT OVF) */
	AUXTRACE_DECODE_ERR_LOST,	/* the kernel lost AUX data (PERF_RECORD_AUX truncated) */
};

/* What perf's PERF_RECORD_AUXTRACE_ERROR carries, plus where in the buffer. */
struct auxtrace_decode_error {
	enum auxtrace_decode_error_kind kind;
	int lib_code;		/* libipt's pt_error_code, 0 when libipt did not report it */
	const char *msg;	/* e.g. "libipt: unknown opcode"; valid during the callback */
	uint64_t offset;	/* byte in the buffer where decoding failed (decoding a stream:
				 * in the piece decoded, which may join two buffers) */
	uint64_t aux_offset;	/* the same byte in the AUX stream */
	uint64_t ip;		/* last known instruction address, 0 when none */
	uint64_t time;
	int cpu;
	int pid;
	int tid;
	/* The code perf's PERF_RECORD_AUXTRACE_ERROR would carry (Intel PT and BTS: 5 no
	 * instruction, 3 bad trace, 7 overflow, 8 or 9 lost): set by the session decoders,
	 * 0 from a decoder used on its own. */
	int perf_code;
};

/* Callbacks return 0 to go on, or a negative errno that stops the decode and is returned. */
typedef int (*auxtrace_sample_fn)(void *ctx, const struct auxtrace_sample *sample);
typedef int (*auxtrace_error_fn)(void *ctx, const struct auxtrace_decode_error *err);
/* One line of a dump, without its newline; valid during the call. */
typedef int (*auxtrace_dump_fn)(void *ctx, const char *line);

/* TSC to perf time, as PERF_RECORD_TIME_CONV or the AUXTRACE_INFO priv of Intel PT gives it. */
struct auxtrace_tsc_conv {
	uint16_t time_shift;
	uint32_t time_mult;	/* 0: no conversion, samples carry time 0 */
	uint64_t time_zero;
};

struct auxtrace_image;

/*
 * What a decoder synthesizes and where it goes. The three flags are perf's --itrace letters
 * b, i<period> and e; a caller with a struct itrace_synth_opts copies them from it. Callers
 * declare it with AUXTRACE_OPTS (auxtrace/core.h): sz set, the fields not given 0.
 */
struct auxtrace_decode_opts {
	size_t sz;
	bool branches;			/* b: a sample per taken branch, and at trace begin/end */
	bool instructions;		/* i: a sample every insn_period instructions or ticks
					 * (Intel PT; see insn_period_ticks) */
	uint64_t insn_period;		/* >= 1 when instructions is set */
	bool errors;			/* e: decode errors reach error_fn */
	auxtrace_sample_fn sample_fn;	/* required when branches or instructions is set */
	auxtrace_error_fn error_fn;	/* required when errors is set */
	void *ctx;			/* passed to both */
	/* The code that ran (BTS: for branch flags; PT: required to follow the flow). Borrowed:
	 * it must outlive the decoder, and may grow between decode calls. */
	struct auxtrace_image *image;
	struct auxtrace_tsc_conv tsc;	/* Intel PT */
	/* First kernel address; 0 means x86-64's 0xffff800000000000 (BTS: user to kernel
	 * branches that are not system calls are interrupts, as perf says). */
	uint64_t kernel_start;
	/*
	 * insn_period counts TSC ticks of the trace's time, not instructions (Intel PT; perf's
	 * i<N>t, and i<N>ns converted with the TSC conversion). As perf's decoder: the period
	 * is rounded down to a power of 2, and a sample is due when the trace's time passes
	 * the next multiple of it, the time between timing packets (TSC, MTC, CYC) moving on
	 * one tick per instruction; the distance to that multiple is counted afresh after
	 * each branch, event and sample.
	 */
	bool insn_period_ticks;
	/*
	 * Threads to decode on (Intel PT branch samples): 0 or 1, the caller's alone; N, N - 1
	 * workers besides. The stream is cut into pieces at PSBs (the same whatever N); a
	 * piece that ends before the time a run stops at goes to a worker, and the caller's
	 * thread hands its samples out in order: the samples, their order and the callbacks'
	 * thread are those of one thread. Instruction samples decode on the caller's thread.
	 */
	unsigned int nr_threads;
};

/* Totals of one decoder since it was made. */
struct auxtrace_decode_stats {
	uint64_t bytes;		/* payload bytes handed in */
	uint64_t branches;	/* branch samples synthesized (before the callback's verdict) */
	uint64_t instructions;	/* instructions decoded (Intel PT) */
	uint64_t insn_samples;	/* instruction samples synthesized */
	uint64_t errors;	/* decode errors, reported to error_fn or not */
	uint64_t worker_pieces;	/* pieces of trace whose samples workers made (nr_threads) */
};

/*
 * The memory image of a traced process: the files it had mapped, as its MMAP2 records say
 * (file, page offset, length, address). Backed by libipt's image section cache, so that
 * every decoder using the image shares one mapping of each file.
 */
/* auxtrace_image__new() returns an empty image (auxtrace_image__delete); NULL + ENOMEM. */
AUXTRACE_API struct auxtrace_image *auxtrace_image__new(void);
/* auxtrace_image__delete() frees image and its file mappings (NULL: nothing). */
AUXTRACE_API void auxtrace_image__delete(struct auxtrace_image *image);

/*
 * auxtrace_image__add_file() maps size bytes of filename (copied), from file offset pgoff, at
 * vaddr. A later mapping that overlaps an earlier one hides it there, as mmap does. Returns 0,
 * or -ENOENT/-EACCES when the file cannot be read, -EINVAL for a zero size, an offset past the
 * file's end or a range that wraps, -ENOMEM.
 */
AUXTRACE_API int auxtrace_image__add_file(struct auxtrace_image *image, const char *filename,
					  uint64_t pgoff, uint64_t size, uint64_t vaddr);

/*
 * auxtrace_image__read() copies up to size bytes of the image at vaddr into buf, stopping at
 * the end of the mapping that holds vaddr. Returns the bytes copied, or -ENOENT when nothing is
 * mapped at vaddr.
 */
AUXTRACE_API ssize_t auxtrace_image__read(struct auxtrace_image *image, uint64_t vaddr,
					  void *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
