// SPDX-License-Identifier: LGPL-2.1
/* AUX recordings through the library's own path, with the test producer (aux-session.h). */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/auxtrace-record.h>
#include <auxtrace/mmap.h>
#include <auxtrace/synthesize.h>
#include <internal/auxtrace-backend.h>

#include "aux-payload.h"
#include "aux-session.h"
#include "perf-data-testlib.h"

#define PMU "bus/event_source/devices/"

/*
 * The kernel's TSC conversion from the control page when it publishes one; VMs often do
 * not (time_mult 0, which the backend refuses), so then one that a kernel with a 1 GHz
 * TSC would publish.
 */
static int time_conv_or_stand_in(struct auxtrace_backend *be, struct evlist *evlist,
				 struct auxtrace_time_conv *tc)
{
	if (auxtrace_backend__time_conv(be, evlist, tc) == 0)
		return 0;
	*tc = (struct auxtrace_time_conv){ .time_shift = 10, .time_mult = 1 << 10,
					   .cap_user_time_zero = true };
	return 0;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "aux_session: %s failed (%s)\n", what, strerror(err < 0 ? -err : err));
	return -1;
}

/* In the fake sysfs, the AUX PMU takes the software PMU's type. */
static int aux_session__sysfs(struct aux_session *s, const char *pmu)
{
	char path[256];

	if (fake_sysfs__standard(&s->fs))
		return fail("a fake sysfs", errno);
	snprintf(path, sizeof(path), "%s/" PMU "software/type", s->fs.root);
	if (unlink(path) || rmdir(dirname(path)))
		return fail("removing the fake software PMU", errno);
	snprintf(path, sizeof(path), PMU "%s/type", pmu);
	return fake_sysfs__write(&s->fs, path, "1\n") ? fail("the PMU's type", errno) : 0;
}

static int aux_session__open(struct aux_session *s, const struct aux_session_opts *o)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME,
		.sample_id_all = 1, .exclude_kernel = 1, .disabled = 1,
	};
	struct aux_producer_config cfg = { 0 };
	struct perf_thread_map *threads = perf_thread_map__new_tid(o->pid ? o->pid : getpid());
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct auxtrace_opts opts;
	int err = -ENOMEM;

	s->evlist = evlist__new();
	if (s->evlist && threads && cpus && !evlist__add(s->evlist, evsel__new(&attr)))
		err = evlist__set_maps(s->evlist, cpus, threads);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	if (err)
		return fail("the evlist", err);
	s->itr = auxtrace_record__init(s->evlist, s->fs.root, &err);
	if (!s->itr)
		return fail("the AUX backend", err ? err : -ENODEV);
	auxtrace_backend(s->itr)->time_conv = time_conv_or_stand_in;
	auxtrace_opts__init(&opts);
	opts.privileged = true;
	if (o->snapshot && (err = auxtrace_opts__parse_snapshot(s->itr, &opts, "")))
		return fail("snapshot mode", err);
	err = auxtrace_record__options(s->itr, s->evlist, &opts);
	if (!err)
		err = evlist__open(s->evlist);
	if (err)
		return fail("opening cpu-clock", err);
	auxtrace_record__set_user_disabled(s->itr, true);	/* cpu-clock stays off */
	cfg.record_size = !strcmp(o->pmu, "intel_bts") ? sizeof(struct bts_record) : 0;
	s->p = aux_producer__new(&cfg);
	s->aux = auxtrace_mmaps__new(s->evlist, s->itr, o->aux_pages ? o->aux_pages : 16,
				     o->snapshot);
	if (!s->p || !s->aux)
		return fail("the AUX producer", -ENOMEM);
	aux_producer__route_mmaps(s->p, s->aux);
	err = evlist__mmap_ex(s->evlist, 4, auxtrace_mmaps__hooks(s->aux));
	return err ? fail("mapping the rings", err) : 0;
}

static int aux_session__prologue(struct aux_session *s, const struct aux_session_opts *o,
				 const char *file)
{
	AUXTRACE_OPTS(perf_data_writer_opts, wopts, .sysfs_root = s->fs.root);
	struct ring_sink *sink;
	int err;

	s->fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (s->fd < 0)
		return fail(file, errno);
	s->w = perf_data_writer__new(s->fd, s->evlist, &wopts);
	if (!s->w)
		return fail("the writer", errno);
	sink = perf_data_writer__data_sink(s->w);
	err = perf_data_writer__write_prologue(s->w, s->itr);
	if (!err)
		err = perf_event__synthesize_thread(s->evlist, o->pid ? o->pid : getpid(), false,
						    NULL, sink);
	if (!err && o->kernel_mmap)
		err = perf_event__synthesize_kernel_mmap(s->evlist, NULL, sink);
	if (!err)
		err = perf_data_writer__write_finished_init(s->w);
	return err ? fail("the side-band", err) : 0;
}

int aux_session__start(struct aux_session *s, const struct aux_session_opts *opts,
		       const char *file)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (aux_session__sysfs(s, opts->pmu) || aux_session__open(s, opts) ||
	    aux_session__prologue(s, opts, file)) {
		aux_session__finish(s);
		return -1;
	}
	return 0;
}

int aux_session__finish(struct aux_session *s)
{
	int err = 0;

	if (s->w && (testlib_push_rings(s->evlist, perf_data_writer__data_sink(s->w)) < 0 ||
		     perf_data_writer__write_finished_round(s->w) ||
		     perf_data_writer__finish(s->w)))
		err = fail("finishing the file", errno);
	perf_data_writer__delete(s->w);
	if (s->fd >= 0)
		close(s->fd);
	evlist__delete(s->evlist);
	auxtrace_mmaps__delete(s->aux);
	aux_producer__delete(s->p);
	auxtrace_record__free(s->itr);
	if (s->fs.root[0])
		fake_sysfs__remove(&s->fs);
	memset(s, 0, sizeof(*s));
	return err;
}
