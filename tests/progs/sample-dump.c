// SPDX-License-Identifier: LGPL-2.1
/*
 * sample-dump FILE: one line per sample of a perf.data, as the library's reader parsed it,
 * for the tests to hold against perf's own reading (perf script -D) of the same file:
 *   tid callchain-nr ip... | regs ABI MASK SP IP | stack SIZE DYN_SIZE
 */
#include <inttypes.h>
#include <stdio.h>
#include <auxtrace/session.h>

static int dump_sample(struct perf_tool *tool, struct perf_session *session,
		       union perf_event *event, struct perf_sample *sample, struct evsel *evsel)
{
	const struct perf_sample_regs *regs = &sample->user_regs;
	uint64_t nr = sample->callchain ? sample->callchain->nr : 0;

	(void)tool; (void)session; (void)event; (void)evsel;
	printf("%u %" PRIu64, sample->tid, nr);
	for (uint64_t i = 0; i < nr; i++)
		printf(" %" PRIx64, sample->callchain->ips[i]);
	printf(" | regs %" PRIu64 " %#" PRIx64, regs->abi, regs->mask);
	printf(" | stack %" PRIu64 " %" PRIu64 "\n", sample->user_stack.size,
	       sample->user_stack.dyn_size);
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_tool tool = { .sz = sizeof(tool), .sample = dump_sample };
	struct perf_session *s = perf_session__new(argc > 1 ? argv[1] : NULL, NULL);
	int err;

	if (!s) {
		perror("perf_session__new");
		return 1;
	}
	err = perf_session__process_events(s, &tool);
	perf_session__delete(s);
	return err ? 1 : 0;
}
