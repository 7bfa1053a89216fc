/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * AUX recordings without AUX hardware, made the way a recorder makes them: in a fake
 * sysfs the AUX PMU (intel_bts or intel_pt) has type 1, so a cpu-clock event (never
 * enabled) plays the AUX event on a thread, its real data ring gets the AUX test producer
 * as its AUX area, and the library's backend, AUX layer and perf.data writer write the
 * file. Shared by the suites and the benchmarks, so it reports errors instead of asserting.
 */
#ifndef TESTS_AUX_SESSION_H
#define TESTS_AUX_SESSION_H

#include <stdbool.h>
#include <sys/types.h>
#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/auxtrace.h>
#include <auxtrace/evlist.h>
#include <auxtrace/perf-data.h>

#include "aux-producer.h"
#include "fake-sysfs.h"

struct aux_session {
	struct fake_sysfs fs;
	struct evlist *evlist;
	struct auxtrace_record *itr;
	struct auxtrace_mmaps *aux;
	struct aux_producer *p;
	struct perf_data_writer *w;
	int fd;
};

struct aux_session_opts {
	const char *pmu;	/* "intel_bts" or "intel_pt" */
	bool snapshot;
	pid_t pid;		/* the traced thread (0: this one); its side-band is written */
	bool kernel_mmap;	/* also the kernel's MMAP, so that kernel addresses resolve */
	unsigned int aux_pages;	/* the AUX area (0: 16 pages) */
};

/*
 * Open the session and write the file's start: attrs, ID_INDEX, TIME_CONV, AUXTRACE_INFO,
 * the traced process's COMM and MMAP2 records, FINISHED_INIT. Then write AUX data with
 * aux_producer__write(s->p, ...) and drain it with auxtrace_mmaps__read(s->aux,
 * perf_data_writer__aux_sink(s->w)). 0, or -1 with the cause on stderr.
 */
int aux_session__start(struct aux_session *s, const struct aux_session_opts *opts,
		       const char *file);
/* Drain the data rings, finish the file and free everything. 0, or -1 (stderr). */
int aux_session__finish(struct aux_session *s);

#endif
