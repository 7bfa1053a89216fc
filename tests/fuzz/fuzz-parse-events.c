// SPDX-License-Identifier: LGPL-2.1
/*
 * Event strings (parse_events, what -e passes) against the fake sysfs of the tests (Intel
 * PT, Arm SPE, a split-range uncore PMU, aliases) and a fake tracefs: any string gives
 * evsels, or -EINVAL with a message and an offset inside the string and no evsel added.
 */
#include <errno.h>
#include <auxtrace/evlist.h>
#include <auxtrace/parse-events.h>
#include "lib/fake-sysfs.h"
#include "fuzz.h"

static struct fake_sysfs sysfs, tracefs;
static struct parse_events_opts opts = { .sz = sizeof(opts) };	/* static: all 0 but sz */

static const char *pmu_defaults(const struct perf_pmu *pmu, void *ctx)
{
	(void)ctx;
	return strcmp(perf_pmu__name(pmu), "intel_pt") ? NULL : "tsc,mtc,psb_period=3";
}

static void remove_trees(void)
{
	fake_sysfs__remove(&sysfs);
	fake_sysfs__remove(&tracefs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (fake_sysfs__standard(&sysfs) || fake_sysfs__create(&tracefs) ||
	    fake_sysfs__write(&tracefs, "events/sched/sched_switch/id", "316\n") ||
	    fake_sysfs__write(&tracefs, "events/my-sys/my.event/id", "7\n") ||
	    fake_sysfs__write(&tracefs, "events/syscalls/sys_enter_getppid/id", "0x1c2\n"))
		abort();
	atexit(remove_trees);
	opts.sysfs_root = sysfs.root;
	opts.tracefs_root = tracefs.root;
	opts.default_terms = pmu_defaults;
	fuzz__log_quietly();
	return 0;
}

static void check_error(int ret, const struct parse_events_error *err, size_t len)
{
	fuzz__check(ret == -EINVAL);
	fuzz__check(err->idx >= -1 && (size_t)(err->idx + 1) <= len + 1);
	fuzz__check(strnlen(err->msg, sizeof(err->msg)) < sizeof(err->msg) && err->msg[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = fuzz__string(data, size);
	struct parse_events_event ev;
	struct parse_events_error err;
	struct evlist *evlist;
	int ret;

	if (!str)
		return 0;
	evlist = evlist__new();
	fuzz__check(evlist);
	memset(&err, 0xa5, sizeof(err));
	ret = parse_events(evlist, str, &opts, &err);
	if (ret)
		check_error(ret, &err, size);
	/* All or nothing. */
	fuzz__check(ret ? evlist__nr_entries(evlist) == 0 : evlist__nr_entries(evlist) > 0);
	evlist__delete(evlist);

	memset(&err, 0xa5, sizeof(err));
	ret = parse_events__attr(str, &opts, &ev, &err);
	if (ret) {
		check_error(ret, &err, size);
	} else {
		fuzz__check(ev.attr.size == sizeof(ev.attr));
		fuzz__check(strnlen(ev.name, sizeof(ev.name)) < sizeof(ev.name));
		fuzz__check(strnlen(ev.pmu, sizeof(ev.pmu)) < sizeof(ev.pmu));
	}
	free(str);
	return 0;
}
