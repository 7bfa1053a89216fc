// SPDX-License-Identifier: LGPL-2.1
/*
 * The AUX recording options: -m DATA[,AUX] (auxtrace_opts__parse_mmap_pages) and
 * -S[e][SIZE] (auxtrace_opts__parse_snapshot), then what the backend makes of the sizes
 * (auxtrace_record__options). Input: one selector byte (bits 0-1: intel_pt, intel_bts or
 * arm_spe_0 of the fake sysfs; bit 2: privileged), then the -m argument, and after a
 * newline the -S argument, if any.
 */
#include <errno.h>
#include <unistd.h>
#include <auxtrace/auxtrace-record.h>
#include <auxtrace/evlist.h>
#include "lib/fake-sysfs.h"
#include "fuzz.h"

static struct fake_sysfs sysfs;
static const uint32_t pmu_types[] = { 8, 9, 10, 8 };	/* intel_pt, intel_bts, arm_spe_0 */

static void remove_tree(void)
{
	fake_sysfs__remove(&sysfs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (fake_sysfs__standard(&sysfs))
		abort();
	atexit(remove_tree);
	fuzz__log_quietly();
	return 0;
}

static bool is_pow2(unsigned long long v)
{
	return v && !(v & (v - 1));
}

/* -m: all or nothing; what it sets is a power of two. */
static int parse_mmap_pages(struct auxtrace_opts *opts, const char *arg)
{
	struct auxtrace_opts before = *opts;
	int ret = auxtrace_opts__parse_mmap_pages(opts, arg);

	if (ret) {
		fuzz__check(ret == -EINVAL && errno == EINVAL);
		fuzz__check(!memcmp(&before, opts, sizeof(before)));
		return ret;
	}
	fuzz__check(opts->mmap_pages == before.mmap_pages || is_pow2(opts->mmap_pages));
	fuzz__check(opts->auxtrace_mmap_pages == before.auxtrace_mmap_pages ||
		    is_pow2(opts->auxtrace_mmap_pages));
	return 0;
}

static void record_options(struct auxtrace_record *itr, struct evlist *evlist,
			   struct auxtrace_opts *opts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int ret = auxtrace_record__options(itr, evlist, opts);

	if (ret) {
		fuzz__check(ret == -EINVAL);
		return;
	}
	fuzz__check(opts->full_auxtrace && is_pow2(opts->auxtrace_mmap_pages));
	fuzz__check(!opts->mmap_pages || is_pow2(opts->mmap_pages));
	if (opts->auxtrace_snapshot_mode)
		fuzz__check(opts->auxtrace_snapshot_size &&
			    opts->auxtrace_snapshot_size <= (size_t)opts->auxtrace_mmap_pages * page);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr = { 0 };
	struct auxtrace_opts opts;
	struct auxtrace_record *itr;
	struct evlist *evlist;
	char *arg, *snapshot;
	int err;

	if (!size)
		return 0;
	arg = fuzz__string(data + 1, size - 1);
	if (!arg)
		return 0;
	snapshot = strchr(arg, '\n');
	if (snapshot)
		*snapshot++ = '\0';
	attr.type = pmu_types[data[0] & 3];
	auxtrace_opts__init(&opts);
	opts.privileged = data[0] & 4;

	evlist = evlist__new();
	fuzz__check(evlist && !evlist__add(evlist, evsel__new(&attr)));
	itr = auxtrace_record__init(evlist, sysfs.root, &err);
	fuzz__check(itr);
	if (parse_mmap_pages(&opts, arg))
		goto out;
	if (snapshot) {
		struct auxtrace_opts before = opts;

		err = auxtrace_opts__parse_snapshot(itr, &opts, snapshot);
		if (err) {
			/* intel_bts and arm_spe_0 have no snapshot mode here, the others may refuse */
			fuzz__check(err == -EINVAL && !memcmp(&before, &opts, sizeof(before)));
			goto out;
		}
		fuzz__check(opts.auxtrace_snapshot_mode);
		fuzz__check(opts.auxtrace_snapshot_on_exit == (snapshot[0] == 'e'));
	}
	record_options(itr, evlist, &opts);
out:
	auxtrace_record__free(itr);
	evlist__delete(evlist);
	free(arg);
	return 0;
}
