/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reading perf.data back: the file format (a regular file, mapped and read in place) and the
 * pipe format (`perf record -o -`, read from a pipe and copied; or stored in a file, then
 * mapped like one), as perf 6.1 writes them, in either byte order.
 *
 *	AUXTRACE_OPTS(perf_session_opts, opts);
 *	struct perf_session *session = perf_session__new("perf.data", &opts);
 *	struct perf_tool tool = { .sz = sizeof(tool), .ordered_events = true,
 *				  .sample = my_sample };
 *	err = perf_session__process_events(session, &tool);
 *	perf_session__delete(session);
 *
 * Every offset and size in the file is checked before it is used: a truncated or damaged
 * file fails with -EINVAL and a message that names the file offset, the record or section,
 * and what was expected there.
 */
#ifndef AUXTRACE_SESSION_H
#define AUXTRACE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <auxtrace/core.h>
#include <auxtrace/cpumap.h>
#include <auxtrace/event.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/perf-data-format.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_session;
struct auxtrace;
struct auxtrace_sample;
struct auxtrace_decode_error;
struct itrace_synth_opts;
struct auxtrace_decoder;
struct auxtrace_index;

struct perf_session_opts {
	size_t sz;			/* sizeof(struct perf_session_opts) */
	/*
	 * AUX decoders to choose from by the type of PERF_RECORD_AUXTRACE_INFO, NULL-terminated.
	 * NULL: decode nothing; AUXTRACE records and their payloads then reach only
	 * tool->auxtrace. With a table, a type it lacks is an error naming the type.
	 */
	const struct auxtrace_decoder *const *decoders;
	/* Queue the AUX data of these CPUs only (perf script -C); NULL: every CPU. A buffer
	 * with cpu -1 (a per-thread ring) is never filtered out. The session takes a reference. */
	struct perf_cpu_map *cpus;
	/*
	 * What the decoders synthesize (perf's --itrace; auxtrace/itrace.h). Options whose
	 * `set` is false mean perf's defaults for their default_no_sample
	 * (itrace_synth_opts__set_default); NULL means perf script's (no_sample). Read when the
	 * decoder is made, during perf_session__process_events: keep it valid until then.
	 */
	const struct itrace_synth_opts *itrace_synth_opts;
	/* Threads each AUX decoder may decode on (auxtrace_decode_opts.nr_threads): 0 or 1, the
	 * caller's alone. The samples and their order are the same whatever it says. */
	unsigned int decode_threads;
};

/*
 * perf_session__new() opens a recording: path (NULL: "perf.data"; "-": standard input, which
 * must then be in the pipe format). A regular file is mapped read-only and its records handed
 * out in place; a pipe is read and copied. Reads the header, the attrs with their IDs and the
 * feature sections (pipe format: up to the first record that is not an attr, a feature or
 * tracing data). opts may be NULL. Returns the session, the caller's (perf_session__delete), or
 * NULL + errno: ENOENT..., EINVAL for a file that is not perf.data or is damaged (the log says
 * where) or for opts the rule of option structs refuses (auxtrace/core.h).
 */
AUXTRACE_API struct perf_session *perf_session__new(const char *path,
						    const struct perf_session_opts *opts);
/*
 * perf_session__new_fd() is perf_session__new on an open fd, which the session uses but
 * does not close. Returns as perf_session__new.
 */
AUXTRACE_API struct perf_session *perf_session__new_fd(int fd,
						       const struct perf_session_opts *opts);
/*
 * perf_session__delete() frees the decoder (struct auxtrace free()), the evlist, unmaps the
 * file and closes it when perf_session__new opened it (NULL: nothing).
 */
AUXTRACE_API void perf_session__delete(struct perf_session *session);

/*
 * perf_session__is_pipe() returns whether the recording is in the pipe format (a 16-byte
 * header, attrs and features as records).
 */
AUXTRACE_API bool perf_session__is_pipe(const struct perf_session *session);
/*
 * perf_session__is_mapped() returns whether it is read through a mapping of a regular file
 * (records in place, AUX payloads mapped lazily), not copied from a stream.
 */
AUXTRACE_API bool perf_session__is_mapped(const struct perf_session *session);
/*
 * perf_session__needs_swap() returns whether it was written on a machine of the other byte
 * order: records are handed out swapped, in copies.
 */
AUXTRACE_API bool perf_session__needs_swap(const struct perf_session *session);
/*
 * perf_session__header() returns the file header in native byte order (pipe format: magic
 * and size only, the rest 0), borrowed: valid while the session lives.
 */
AUXTRACE_API const struct perf_file_header *perf_session__header(const struct perf_session *s);
/* perf_session__size() returns the file's size (a stream: bytes read so far). */
AUXTRACE_API uint64_t perf_session__size(const struct perf_session *session);

/*
 * perf_session__evlist() returns the session's evlist, borrowed: one evsel per attr, in the
 * file's order (pipe format: grows as HEADER_ATTR records come),
 * then the events an AUX decoder synthesizes, once it is made (auxtrace-decoder.h).
 * Names come from HEADER_EVENT_DESC or EVENT_UPDATE records, else from type and config.
 * Owned by the session; do not open them.
 */
AUXTRACE_API struct evlist *perf_session__evlist(const struct perf_session *session);
/*
 * perf_session__evsel_ids() returns the sample IDs the file gives evsel, *nr of them
 * (borrowed: valid while the session lives); NULL, *nr 0 when none.
 */
AUXTRACE_API const uint64_t *perf_session__evsel_ids(const struct perf_session *session,
						      const struct evsel *evsel, size_t *nr);
/*
 * perf_session__id_lookup() fills *out with which evsel a sample ID belongs to, and from
 * PERF_RECORD_ID_INDEX its mmap idx, CPU and tid (-1 until an ID_INDEX names it). Returns
 * 0 or -ENOENT.
 */
AUXTRACE_API int perf_session__id_lookup(const struct perf_session *session, uint64_t id,
					 struct evlist_sample_id *out);

/*
 * perf_session__has_feat() returns whether feature section feat is there (file: the
 * header's bitmap; pipe: HEADER_FEATURE records seen so far).
 */
AUXTRACE_API bool perf_session__has_feat(const struct perf_session *session, int feat);
/*
 * perf_session__feature() returns a feature's payload as stored (in the writer's byte
 * order), *size bytes, borrowed: valid while the session lives; NULL, *size 0 when absent.
 * The pipe format's PERF_RECORD_HEADER_TRACING_DATA payload is HEADER_TRACING_DATA's.
 */
AUXTRACE_API const void *perf_session__feature(const struct perf_session *session, int feat,
					       size_t *size);

struct perf_env_pmu {
	uint32_t type;			/* attr.type of its events */
	const char *name;
};

struct perf_env_build_id {
	int32_t pid;
	uint16_t cpumode;		/* PERF_RECORD_MISC_CPUMODE_MASK bits */
	uint8_t size;			/* bytes of build_id used */
	uint8_t build_id[20];
	const char *filename;
};

/*
 * What the feature sections say about the recording machine: library-owned, filled as the
 * sections are read, NULL / 0 where a feature is absent. Never allocate one: fields may be
 * added at the end.
 */
struct perf_env {
	const char *hostname;		/* HEADER_HOSTNAME */
	const char *os_release;		/* HEADER_OSRELEASE */
	const char *version;		/* HEADER_VERSION: the perf that wrote it */
	const char *arch;		/* HEADER_ARCH */
	const char *cpu_desc;		/* HEADER_CPUDESC */
	const char *cpuid;		/* HEADER_CPUID, e.g. "GenuineIntel,6,69,1" */
	uint32_t nr_cpus_avail;		/* HEADER_NRCPUS */
	uint32_t nr_cpus_online;
	uint64_t total_mem;		/* HEADER_TOTAL_MEM, kB */
	uint32_t nr_cmdline;		/* HEADER_CMDLINE: argv of the recording */
	const char **cmdline;
	uint32_t nr_pmu_mappings;	/* HEADER_PMU_MAPPINGS */
	const struct perf_env_pmu *pmu_mappings;
	uint32_t nr_build_ids;		/* HEADER_BUILD_ID and HEADER_BUILD_ID records */
	const struct perf_env_build_id *build_ids;
	uint64_t clockid_res_ns;	/* HEADER_CLOCKID: resolution of attr.clockid */
	bool has_clock_data;		/* HEADER_CLOCK_DATA: */
	uint32_t clockid;		/*   the clock of the timestamps, */
	uint64_t clock_wall_ns;		/*   and one moment read on it and on the wall clock */
	uint64_t clock_clockid_ns;
	uint64_t first_sample_time;	/* HEADER_SAMPLE_TIME */
	uint64_t last_sample_time;
	uint32_t nr_event_desc;		/* HEADER_EVENT_DESC entries (names went to evsels) */
};

/*
 * perf_session__env() returns what the feature sections say, decoded (borrowed: its strings
 * too, valid while the session lives); fields of absent features are 0 or NULL.
 */
AUXTRACE_API const struct perf_env *perf_session__env(const struct perf_session *session);
/*
 * perf_session__time_conv() returns the last PERF_RECORD_TIME_CONV read (native, a short
 * record's missing fields 0; borrowed), or NULL.
 */
AUXTRACE_API const struct perf_record_time_conv *
perf_session__time_conv(const struct perf_session *session);
/*
 * perf_time_conv__tsc_to_time() returns the perf time of TSC value cyc with a TIME_CONV
 * (perf_event_mmap_page's formula, cap_user_time_short honoured); 0 when tc has no
 * time_mult.
 */
AUXTRACE_API uint64_t perf_time_conv__tsc_to_time(const struct perf_record_time_conv *tc,
						  uint64_t cyc);
/* perf_time_conv__time_to_tsc() returns the TSC value of perf time ns; 0 as above. */
AUXTRACE_API uint64_t perf_time_conv__time_to_tsc(const struct perf_record_time_conv *tc,
						  uint64_t ns);
/*
 * perf_session__auxtrace_index() returns the HEADER_AUXTRACE index (file offsets of the
 * AUXTRACE records), borrowed; NULL when none.
 */
AUXTRACE_API const struct auxtrace_index *
perf_session__auxtrace_index(const struct perf_session *session);
/*
 * perf_session__auxtrace() returns the decoder chosen by PERF_RECORD_AUXTRACE_INFO
 * (borrowed: the session frees it), NULL before it or without a table.
 */
AUXTRACE_API struct auxtrace *perf_session__auxtrace(const struct perf_session *session);

struct perf_sample_regs {
	uint64_t abi;			/* 0: none (a kernel thread's user regs) */
	uint64_t mask;
	const uint64_t *regs;		/* one per bit of mask */
};

struct ip_callchain {
	uint64_t nr;
	uint64_t ips[];
};

/*
 * A record's sample fields, as its evsel's sample_type says (PERF_RECORD_SAMPLE), or from
 * the sample_id_all trailer of another kernel record. Fields the record does not carry are
 * -1 (pid, tid, cpu, time) or 0. Pointers point into the record: valid as long as it is.
 * Filled by the library only: fields may be added at the end.
 */
struct perf_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;			/* -1: none */
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint64_t period;
	uint64_t weight;		/* PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT's whole word */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint32_t cpu;
	uint16_t cpumode;		/* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	struct {			/* PERF_SAMPLE_READ, as read_format lays it out */
		uint64_t time_enabled;
		uint64_t time_running;
		uint64_t nr;		/* 1, or with PERF_FORMAT_GROUP the members */
		uint64_t value;		/* without GROUP: the value, id and lost */
		uint64_t id;
		uint64_t lost;
		const uint64_t *values;	/* GROUP: nr entries of {value, [id], [lost]} */
		unsigned int entry_words;	/* u64s per entry */
	} read;
	const struct ip_callchain *callchain;
	uint32_t raw_size;
	const void *raw_data;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* -1 without PERF_SAMPLE_BRANCH_HW_INDEX */
	const struct perf_branch_entry *branch_entries;
	struct perf_sample_regs user_regs, intr_regs;
	struct {
		uint64_t size;
		const void *data;
		uint64_t dyn_size;
	} user_stack;
	struct {
		uint64_t size;
		const void *data;
	} aux_sample;			/* PERF_SAMPLE_AUX: a copy of the AUX area */
	uint64_t file_offset;		/* where the record is in the file (stream) */
};

/*
 * Callbacks of perf_session__process_events. A negative return stops processing and is
 * returned. The event (and what sample points to) is valid during the call only.
 */
struct perf_tool {
	size_t sz;			/* sizeof(struct perf_tool) */
	/*
	 * Deliver kernel records in time order, as perf does: sorted between FINISHED_ROUNDs
	 * (a round flushes what is older than the previous round's newest); a file without
	 * them is sorted whole at its end. Records without a time go out at once. false:
	 * in file order.
	 */
	bool ordered_events;
	/* PERF_RECORD_SAMPLE of a known evsel (one whose ID matches no attr is counted in
	 * nr_unknown_id and skipped). */
	int (*sample)(struct perf_tool *tool, struct perf_session *session,
		      union perf_event *event, struct perf_sample *sample, struct evsel *evsel);
	/* Every other kernel record (MMAP, COMM, AUX, LOST, ITRACE_START, ...). */
	int (*event)(struct perf_tool *tool, struct perf_session *session,
		     union perf_event *event, struct perf_sample *sample, struct evsel *evsel);
	/* User records (type >= 64) in file order, after the session used them (attrs,
	 * features, ID_INDEX, TIME_CONV, AUXTRACE_INFO, FINISHED_ROUND after its flush, ...). */
	int (*user_event)(struct perf_tool *tool, struct perf_session *session,
			  union perf_event *event, uint64_t file_offset);
	/* PERF_RECORD_AUXTRACE, after the decoder had it: data is the payload (event->auxtrace.size
	 * bytes at data_offset; NULL when that is 0), in the file mapping or a copy from the
	 * pipe. */
	int (*auxtrace)(struct perf_tool *tool, struct perf_session *session,
			union perf_event *event, uint64_t data_offset, const void *data);
	/*
	 * What the decoder synthesized from the AUX data (auxtrace/decode.h), evsel being the
	 * AUX event it came from. With ordered_events, in time order with the kernel records
	 * (each sample before the first record that is not older); a trace without usable
	 * timestamps is decoded, as perf does it, when its thread exits and at the end.
	 * Samples carry the pid and tid of the thread that ran the code (-1 when unknown).
	 */
	int (*auxtrace_sample)(struct perf_tool *tool, struct perf_session *session,
			       const struct auxtrace_sample *sample, struct evsel *evsel);
	/* A decode error (itrace's e): where in the AUX data, and the decoder's message. */
	int (*auxtrace_error)(struct perf_tool *tool, struct perf_session *session,
			      const struct auxtrace_decode_error *err, struct evsel *evsel);
};

/*
 * perf_session__process_events() reads every record of the data section (the rest of the
 * stream) and deliver it: user records to the session (and the decoder) first, then to
 * tool->user_event; kernel records, ordered or not, to the decoder's process_event, then to
 * tool->sample or tool->event. At the end the decoder's flush_events, then free_events. Call it
 * once; tool is borrowed for the call. At a damaged record the records read before it still
 * go out (the ordered queue and the decoder are flushed), then it fails; a callback's error
 * stops at once. Returns 0 or -errno: EINVAL (tool->sz not set, a damaged record: logged),
 * EBUSY on a second call, the read's, or the first error a callback or the decoder returned.
 */
AUXTRACE_API int perf_session__process_events(struct perf_session *session,
					      struct perf_tool *tool);

#define PERF_SESSION_NR_TYPES 128

/* What process_events saw. Library-owned: fields may be added at the end. */
struct perf_session_stats {
	uint64_t nr_events[PERF_SESSION_NR_TYPES];	/* per record type */
	uint64_t nr_unknown_events;	/* types this reader does not know, skipped */
	uint64_t nr_unknown_id;		/* records whose sample ID matches no attr, skipped */
	uint64_t nr_unordered_events;	/* arrived after a flush passed their time */
	uint64_t total_lost;		/* PERF_RECORD_LOST counts */
	uint64_t total_lost_samples;	/* PERF_RECORD_LOST_SAMPLES counts */
	uint64_t total_aux_lost;	/* PERF_RECORD_AUX TRUNCATED */
	uint64_t total_aux_partial;	/* ... PARTIAL */
	uint64_t total_aux_collision;	/* ... COLLISION */
	uint64_t auxtrace_bytes;	/* AUXTRACE payload bytes */
	uint64_t nr_auxtrace_errors;	/* PERF_RECORD_AUXTRACE_ERROR */
	uint64_t first_time, last_time;	/* of the records delivered with a time */
	uint64_t nr_damaged_samples;	/* impossible given the header (a CPU beyond NRCPUS, a
					 * pid beyond PID_MAX_LIMIT, a time outside SAMPLE_TIME):
					 * not delivered */
};

/*
 * perf_session__stats() returns what process_events saw, borrowed: valid while the session
 * lives.
 */
AUXTRACE_API const struct perf_session_stats *
perf_session__stats(const struct perf_session *session);

#ifdef __cplusplus
}
#endif
#endif
