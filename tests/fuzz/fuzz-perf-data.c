// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf.data reader on arbitrary bytes: as a mapped file (a memfd) and, when it fits a
 * pipe, as a stream. Every byte the reader hands out is read (sample fields, strings of the
 * env, AUX payloads through the queues), so that a bound it failed to check shows up under
 * the sanitizers. Errors are expected; crashes, hangs and out-of-bounds reads are not.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <auxtrace/auxtrace-decoder.h>
#include <auxtrace/auxtrace-queues.h>
#include <auxtrace/session.h>
#include "fuzz.h"

#define FUZZ_PIPE_MAX (1 << 20)

static int fuzz_kernel(struct perf_tool *tool, struct perf_session *s, union perf_event *event,
		       struct perf_sample *sample, struct evsel *evsel)
{
	(void)tool; (void)s;
	fuzz__touch(event, event->header.size);
	fuzz__touch_str(evsel__name(evsel));
	if (sample->callchain)
		fuzz__touch(sample->callchain->ips, sample->callchain->nr * 8);
	fuzz__touch(sample->raw_data, sample->raw_size);
	fuzz__touch(sample->branch_entries, sample->branch_nr * sizeof(*sample->branch_entries));
	fuzz__touch(sample->read.values, sample->read.nr * sample->read.entry_words * 8);
	fuzz__touch(sample->user_stack.data, sample->user_stack.size);
	fuzz__touch(sample->aux_sample.data, sample->aux_sample.size);
	if (sample->user_regs.regs)
		fuzz__touch(sample->user_regs.regs, __builtin_popcountll(sample->user_regs.mask) * 8);
	return 0;
}

static int fuzz_user(struct perf_tool *tool, struct perf_session *s, union perf_event *event,
		     uint64_t offset)
{
	(void)tool; (void)s; (void)offset;
	fuzz__touch(event, event->header.size);
	return 0;
}

static int fuzz_auxtrace(struct perf_tool *tool, struct perf_session *s, union perf_event *event,
			 uint64_t data_offset, const void *data)
{
	(void)tool; (void)s; (void)data_offset;
	fuzz__touch(data, event->auxtrace.size);
	return 0;
}

/* A decoder that queues everything and reads every buffer at the end. */
struct fuzz_decoder {
	struct auxtrace aux;
	struct auxtrace_queues *queues;
};

static struct fuzz_decoder fuzz_dec;

static int fuzz_dec__auxtrace(struct auxtrace *aux, struct perf_session *s,
			      union perf_event *event, uint64_t data_offset)
{
	(void)aux;
	if (auxtrace_queues__data_queued(fuzz_dec.queues))
		return 0;
	return auxtrace_queues__add_event(fuzz_dec.queues, s, event, data_offset, NULL);
}

static int fuzz_dec__flush(struct auxtrace *aux, struct perf_session *s)
{
	unsigned int i;

	(void)aux; (void)s;
	for (i = 0; i < auxtrace_queues__nr(fuzz_dec.queues); i++) {
		struct auxtrace_queue *q = auxtrace_queues__queue(fuzz_dec.queues, i);
		struct auxtrace_buffer *b = NULL;

		while (q && (b = auxtrace_buffer__next(q, b))) {
			fuzz__touch(auxtrace_buffer__get_data(b), b->size);
			auxtrace_buffer__put_data(b);
		}
	}
	return 0;
}

static void fuzz_dec__free(struct auxtrace *aux, struct perf_session *s)
{
	(void)aux; (void)s;
	auxtrace_queues__delete(fuzz_dec.queues);
	fuzz_dec.queues = NULL;
}

static struct auxtrace *fuzz_dec__new(struct perf_session *s,
				      const struct perf_record_auxtrace_info *info)
{
	fuzz__touch(info, info->header.size);
	fuzz_dec.aux = (struct auxtrace){ .sz = sizeof(fuzz_dec.aux),
					  .process_auxtrace_event = fuzz_dec__auxtrace,
					  .flush_events = fuzz_dec__flush, .free = fuzz_dec__free };
	fuzz_dec.queues = auxtrace_queues__new();
	if (!fuzz_dec.queues || auxtrace_queues__populate(fuzz_dec.queues, s) < 0) {
		auxtrace_queues__delete(fuzz_dec.queues);
		fuzz_dec.queues = NULL;
		return NULL;
	}
	return &fuzz_dec.aux;
}

static void fuzz_session(int fd, uint32_t type)
{
	const struct auxtrace_decoder dec = { .sz = sizeof(dec), .name = "fuzz", .type = type,
					      .new = fuzz_dec__new };
	const struct auxtrace_decoder *const decoders[] = { &dec, NULL };
	AUXTRACE_OPTS(perf_session_opts, opts, .decoders = decoders);
	struct perf_tool tool = { .sz = sizeof(tool), .ordered_events = true,
				  .sample = fuzz_kernel, .event = fuzz_kernel,
				  .user_event = fuzz_user, .auxtrace = fuzz_auxtrace };
	struct perf_session *s = perf_session__new_fd(fd, &opts);
	const struct perf_env *env;
	uint32_t i;

	if (!s)
		return;
	env = perf_session__env(s);
	fuzz__touch_str(env->hostname);
	for (i = 0; i < env->nr_cmdline; i++)
		fuzz__touch_str(env->cmdline[i]);
	for (i = 0; i < env->nr_pmu_mappings; i++)
		fuzz__touch_str(env->pmu_mappings[i].name);
	for (i = 0; i < env->nr_build_ids; i++)
		fuzz__touch_str(env->build_ids[i].filename);
	perf_session__process_events(s, &tool);
	perf_session__delete(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int memfd = -1;
	/* Whatever AUXTRACE_INFO type the input names, decode with the first 8 bits of it. */
	uint32_t type = size > 0 ? data[size - 1] % 8 : 0;
	int p[2];

	if (memfd < 0)
		memfd = memfd_create("fuzz-perf-data", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		return 0;
	fuzz_session(memfd, type);

	if (size > FUZZ_PIPE_MAX || pipe2(p, O_CLOEXEC))
		return 0;
	if (fcntl(p[1], F_SETPIPE_SZ, FUZZ_PIPE_MAX) >= (int)size &&
	    write(p[1], data, size) == (ssize_t)size) {
		close(p[1]);
		fuzz_session(p[0], type);
	} else {
		close(p[1]);
	}
	close(p[0]);
	return 0;
}
