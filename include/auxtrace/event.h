/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * perf record layouts: the kernel's records as they appear in the data ring, and the user
 * records perf writes into perf.data (types >= 64), with perf's numbering.
 */
#ifndef AUXTRACE_EVENT_H
#define AUXTRACE_EVENT_H

#include <stdint.h>
#include <linux/limits.h>
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

/*
 * Kernel records. Where the kernel appends a sample_id trailer (attr.sample_id_all), it
 * follows the last field; the fixed-size name arrays are upper bounds, the record's
 * header.size says how much is there (names are NUL-terminated and padded to 8).
 */
struct perf_record_mmap {
	struct perf_event_header header;
	uint32_t pid;
	uint32_t tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	char filename[PATH_MAX];
};

#define PERF_RECORD_MMAP2_BUILD_ID_MAX	20

struct perf_record_mmap2 {
	struct perf_event_header header;
	uint32_t pid;
	uint32_t tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	union {
		struct {
			uint32_t maj;
			uint32_t min;
			uint64_t ino;
			uint64_t ino_generation;
		};
		/* With PERF_RECORD_MISC_MMAP_BUILD_ID in header.misc (attr.build_id). */
		struct {
			uint8_t build_id_size;
			uint8_t reserved_1__;
			uint16_t reserved_2__;
			uint8_t build_id[PERF_RECORD_MMAP2_BUILD_ID_MAX];
		};
	};
	uint32_t prot;
	uint32_t flags;
	char filename[PATH_MAX];
};

/* The kernel's TASK_COMM_LEN. */
#define PERF_RECORD_COMM_LEN	16

struct perf_record_comm {
	struct perf_event_header header;
	uint32_t pid;
	uint32_t tid;
	char comm[PERF_RECORD_COMM_LEN];
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT. */
struct perf_record_fork {
	struct perf_event_header header;
	uint32_t pid;
	uint32_t ppid;
	uint32_t tid;
	uint32_t ptid;
	uint64_t time;
};

/* The kernel's KSYM_NAME_LEN. */
#define PERF_RECORD_KSYMBOL_NAME_LEN	512

struct perf_record_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;	/* PERF_RECORD_KSYMBOL_TYPE_BPF, ... */
	uint16_t flags;		/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
	char name[PERF_RECORD_KSYMBOL_NAME_LEN];
};

#define PERF_RECORD_BPF_TAG_SIZE	8

struct perf_record_bpf_event {
	struct perf_event_header header;
	uint16_t type;		/* PERF_BPF_EVENT_PROG_LOAD, PERF_BPF_EVENT_PROG_UNLOAD */
	uint16_t flags;
	uint32_t id;		/* the program's id */
	uint8_t tag[PERF_RECORD_BPF_TAG_SIZE];
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

/* perf's own misc bit: build_id[20] of a BUILD_ID record holds the build ID's size. */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
#define PERF_RECORD_BUILD_ID_MAX	20

/* PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE. */
struct perf_record_throttle {
	struct perf_event_header header;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
};

/* PERF_RECORD_SWITCH_CPU_WIDE (PERF_RECORD_SWITCH has no fields before the trailer). */
struct perf_record_switch {
	struct perf_event_header header;
	uint32_t next_prev_pid;
	uint32_t next_prev_tid;
};

struct perf_record_cgroup {
	struct perf_event_header header;
	uint64_t id;
	char path[];
};

struct perf_record_text_poke {
	struct perf_event_header header;
	uint64_t addr;
	uint16_t old_len;
	uint16_t new_len;
	uint8_t bytes[];
};

struct perf_record_aux_output_hw_id {
	struct perf_event_header header;
	uint64_t hw_id;
};

/*
 * User records. PERF_RECORD_HEADER_ATTR (pipe format): the attr as the writer knew it
 * (attr.size bytes, which may differ from this build's struct), then u64 IDs up to
 * header.size.
 */
struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;
	uint64_t id[];		/* where a writer of this build's attr puts the IDs */
};

/* PERF_RECORD_HEADER_FEATURE (pipe format): one feature section's payload, as in a file. */
struct perf_record_header_feature {
	struct perf_event_header header;
	uint64_t feat_id;
	char data[];
};

/* PERF_RECORD_HEADER_TRACING_DATA: size bytes of tracing data follow, not in header.size. */
struct perf_record_header_tracing_data {
	struct perf_event_header header;
	uint32_t size;
	uint32_t pad;
};

/* PERF_RECORD_HEADER_BUILD_ID, also the entries of the HEADER_BUILD_ID feature. */
struct perf_record_header_build_id {
	struct perf_event_header header;	/* misc: cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE */
	int32_t pid;
	union {
		uint8_t build_id[24];
		struct {
			uint8_t data[20];
			uint8_t size;
			uint8_t reserved_1__;
			uint16_t reserved_2__;
		};
	};
	char filename[];
};

struct perf_record_id_index_entry {
	uint64_t id;
	uint64_t idx;		/* mmap idx: the AUXTRACE queue of the ID's ring */
	uint64_t cpu;
	uint64_t tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_id_index_entry entries[];
};

enum perf_event_update_type {
	PERF_EVENT_UPDATE__UNIT		= 0,
	PERF_EVENT_UPDATE__SCALE	= 1,
	PERF_EVENT_UPDATE__NAME		= 2,
	PERF_EVENT_UPDATE__CPUS		= 3,
};

struct perf_record_event_update {
	struct perf_event_header header;
	uint64_t type;
	uint64_t id;
	char data[];		/* NAME and UNIT: a string */
};

#define PERF_AUXTRACE_ERROR_ITRACE	1
#define PERF_AUXTRACE_ERROR_MSG_SIZE	64

/* fmt 0 has no time (msg starts where time is); fmt 2 adds machine_pid and vcpu. */
struct perf_record_auxtrace_error {
	struct perf_event_header header;
	uint32_t type;
	uint32_t code;
	uint32_t cpu;
	uint32_t pid;
	uint32_t tid;
	uint32_t fmt;
	uint64_t ip;
	uint64_t time;
	char msg[PERF_AUXTRACE_ERROR_MSG_SIZE];
	uint32_t machine_pid;
	uint32_t vcpu;
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_throttle throttle;
	struct perf_record_switch context_switch;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_bpf_event bpf;
	struct perf_record_cgroup cgroup;
	struct perf_record_text_poke text_poke;
	struct perf_record_aux_output_hw_id aux_output_hw_id;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_aux aux;
	struct perf_record_itrace_start itrace_start;
	struct perf_record_sample sample;
	struct perf_record_header_attr attr;
	struct perf_record_header_feature feat;
	struct perf_record_header_tracing_data tracing_data;
	struct perf_record_header_build_id build_id;
	struct perf_record_id_index id_index;
	struct perf_record_event_update event_update;
	struct perf_record_auxtrace_info auxtrace_info;
	struct perf_record_auxtrace auxtrace;
	struct perf_record_auxtrace_error auxtrace_error;
	struct perf_record_time_conv time_conv;
};

#ifdef __cplusplus
}
#endif
#endif
