/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * perf record layouts: the kernel's records as they appear in the data ring, and the user
 * records perf writes into perf.data (types >= 64), with perf's numbering.
 */
#ifndef AUXTRACE_EVENT_H
#define AUXTRACE_EVENT_H

#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START	= 64,
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,	/* obsolete; never written */
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE_INFO	= 70,
	PERF_RECORD_AUXTRACE		= 71,
	PERF_RECORD_AUXTRACE_ERROR	= 72,
	PERF_RECORD_THREAD_MAP		= 73,
	PERF_RECORD_CPU_MAP		= 74,
	PERF_RECORD_STAT_CONFIG		= 75,
	PERF_RECORD_STAT		= 76,
	PERF_RECORD_STAT_ROUND		= 77,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_TIME_CONV		= 79,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_COMPRESSED		= 81,
	PERF_RECORD_FINISHED_INIT	= 82,
};

struct perf_record_lost {
	struct perf_event_header header;
	uint64_t id;
	uint64_t lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

struct perf_record_aux {
	struct perf_event_header header;
	uint64_t aux_offset;
	uint64_t aux_size;
	uint64_t flags;
};

struct perf_record_itrace_start {
	struct perf_event_header header;
	uint32_t pid;
	uint32_t tid;
};

struct perf_record_sample {
	struct perf_event_header header;
	uint64_t array[];
};

enum auxtrace_type {
	PERF_AUXTRACE_UNKNOWN,
	PERF_AUXTRACE_INTEL_PT,
	PERF_AUXTRACE_INTEL_BTS,
	PERF_AUXTRACE_CS_ETM,
	PERF_AUXTRACE_ARM_SPE,
	PERF_AUXTRACE_S390_CPUMSF,
	PERF_AUXTRACE_HISI_PTT,
};

struct perf_record_auxtrace_info {
	struct perf_event_header header;
	uint32_t type;
	uint32_t reserved__;	/* keeps priv 8-byte aligned */
	uint64_t priv[];
};

/* 48 bytes; the payload (size bytes, padded to 8) follows and is not in header.size. */
struct perf_record_auxtrace {
	struct perf_event_header header;
	uint64_t size;
	uint64_t offset;
	uint64_t reference;
	uint32_t idx;
	uint32_t tid;
	uint32_t cpu;
	uint32_t reserved__;
};

struct perf_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
	uint8_t reserved[6];
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_aux aux;
	struct perf_record_itrace_start itrace_start;
	struct perf_record_sample sample;
	struct perf_record_auxtrace_info auxtrace_info;
	struct perf_record_auxtrace auxtrace;
	struct perf_record_time_conv time_conv;
};

#ifdef __cplusplus
}
#endif
#endif
