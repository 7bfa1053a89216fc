/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The perf.data container as perf 6.1 reads it: the file header, its sections, the feature
 * bits, and the short header of the pipe format. Shared by the writer and the reader; the
 * records inside the data section are in <auxtrace/event.h>.
 */
#ifndef AUXTRACE_PERF_DATA_FORMAT_H
#define AUXTRACE_PERF_DATA_FORMAT_H

#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "PERFILE2" read as a little-endian u64; a file from a machine of the other byte order
 * shows it byte-swapped. */
#define PERF_DATA_MAGIC		0x32454c4946524550ULL

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

#define PERF_DATA_FEATURE_WORDS	4	/* a 256-bit feature bitmap */

/* 104 bytes at offset 0 of a perf.data file. */
struct perf_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct perf_file_header) */
	uint64_t attr_size;		/* sizeof one attrs entry: the attr as stored + its ids section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused: {0, 0} */
	uint64_t adds_features[PERF_DATA_FEATURE_WORDS];
};

/* The pipe format starts with only these 16 bytes; attrs and features follow as records. */
struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct perf_pipe_file_header) */
};

/*
 * One attrs entry: the attr (attr_size - 16 bytes of it as the writer knew it) and where its
 * sample IDs are. The in-memory struct holds the build host's perf_event_attr; a reader copies
 * min(attr_size - 16, sizeof(struct perf_event_attr)) bytes and zeroes the rest.
 */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

/* Feature bits, in perf 6.1's numbering. Their sections follow the data section, one
 * perf_file_section per set bit, in bit order. */
enum perf_header_feature {
	HEADER_RESERVED		= 0,
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID		= 2,
	HEADER_HOSTNAME		= 3,
	HEADER_OSRELEASE	= 4,
	HEADER_VERSION		= 5,
	HEADER_ARCH		= 6,
	HEADER_NRCPUS		= 7,
	HEADER_CPUDESC		= 8,
	HEADER_CPUID		= 9,
	HEADER_TOTAL_MEM	= 10,
	HEADER_CMDLINE		= 11,
	HEADER_EVENT_DESC	= 12,
	HEADER_CPU_TOPOLOGY	= 13,
	HEADER_NUMA_TOPOLOGY	= 14,
	HEADER_BRANCH_STACK	= 15,
	HEADER_PMU_MAPPINGS	= 16,
	HEADER_GROUP_DESC	= 17,
	HEADER_AUXTRACE		= 18,
	HEADER_STAT		= 19,
	HEADER_CACHE		= 20,
	HEADER_SAMPLE_TIME	= 21,
	HEADER_MEM_TOPOLOGY	= 22,
	HEADER_CLOCKID		= 23,
	HEADER_DIR_FORMAT	= 24,
	HEADER_BPF_PROG_INFO	= 25,
	HEADER_BPF_BTF		= 26,
	HEADER_COMPRESSED	= 27,
	HEADER_CPU_PMU_CAPS	= 28,
	HEADER_CLOCK_DATA	= 29,
	HEADER_HYBRID_TOPOLOGY	= 30,
	HEADER_PMU_CAPS		= 31,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_BITS	= 256,
};

/* Strings in feature sections: a length that includes the NUL and padding to 64 bytes. */
#define PERF_DATA_NAME_ALIGN	64

#ifdef __cplusplus
}
#endif
#endif
