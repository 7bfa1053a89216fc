// SPDX-License-Identifier: LGPL-2.1
/*
 * The evlist mmap driver. One data ring per mmap idx: per CPU (idx = the CPU's index in
 * all_cpus) or, when no real CPU is in the maps, per thread (idx = thread) followed by one
 * idx per other CPU of the system-wide evsels. At each idx the first fd, in evlist order,
 * owns the ring and every later fd is redirected into it; backward (write_backward) fds get
 * rings of their own, as the kernel only lets rings of one direction be shared.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <auxtrace/evlist-mmap.h>
#include <internal/evlist-ids.h>
#include <internal/evlist-struct.h>
#include <internal/lib.h>
#include <internal/mmap.h>

/* Whether the rings are per thread: no real CPU in the maps. */
bool evlist__per_thread(const struct evlist *evlist)
{
	return perf_cpu_map__is_empty(evlist->all_cpus) ||
	       perf_cpu_map__has_any_cpu(evlist->all_cpus);
}

/* perf's default: what perf_event_mlock_kb allows one CPU, less the control page. */
static unsigned int evlist__default_pages(void)
{
	unsigned long long kb = libauxtrace__perf_mlock_kb(512);
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long long pages;

	if (kb <= psize / 1024)
		return 1;
	pages = (kb - psize / 1024) * 1024 / psize;
	if (pages > 1u << 31)
		pages = 1u << 31;
	return 1u << (63 - __builtin_clzll(pages));
}

/* The state of one pass of the driver. */
struct mmap_pass {
	struct evlist *evlist;
	unsigned int pages;
	int idx;
	struct perf_cpu cpu;	/* all_cpus[cpu_idx]: -1 in per-thread mode */
	int output;		/* fd owning this idx's forward ring, -1 until one does */
	int output_ovw;		/* and its backward ring */
};

/* Hash the kernel's ID of (evsel, c, t), so a sample names its evsel, ring, CPU and tid. */
static int evlist__record_sid(struct evlist *evlist, struct evsel *evsel, int c, int t, int idx)
{
	struct evsel_sid *sid;
	int err;

	if (!evsel->sid) {
		evsel->sid = calloc((size_t)evsel->fd_cpus * evsel->fd_threads, sizeof(*sid));
		if (!evsel->sid)
			return -ENOMEM;
	}
	sid = &evsel->sid[c * evsel->fd_threads + t];
	err = evsel__id(evsel, c, t, &sid->id);
	if (err) {
		pr_err("%s: PERF_EVENT_IOC_ID failed: %s\n", evsel->name, strerror(-err));
		return err;
	}
	sid->where.evsel = evsel;
	sid->where.idx = idx;
	sid->where.cpu = perf_cpu_map__cpu(evsel->cpus, c);
	sid->where.tid = perf_thread_map__pid(evsel->threads, t);
	evlist__id_hash_add(evlist, sid);
	return 0;
}

/* Note that fd feeds map, for a ring set to watch. 0 or -ENOMEM. */
static int evlist__add_ring_fd(struct evlist *evlist, int fd, struct perf_mmap *map,
			       bool task_bound)
{
	struct evlist_ring_fd *grown;

	grown = realloc(evlist->ring_fds, (evlist->nr_ring_fds + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	evlist->ring_fds = grown;
	evlist->ring_fds[evlist->nr_ring_fds++] = (struct evlist_ring_fd){
		.fd = fd, .map = map, .task_bound = task_bound,
	};
	return 0;
}

/* Map the ring of this idx on fd, with the hooks around it. */
static int evlist__mmap_owner(struct mmap_pass *p, struct evsel *evsel, int fd, bool overwrite)
{
	struct evlist *evlist = p->evlist;
	const struct evlist_mmap_hooks *hooks = evlist->hooks;
	struct perf_mmap *map;
	int err;

	/* The AUX area hangs off a forward ring: backward rings get no hooks. */
	if (!overwrite && hooks && hooks->idx) {
		err = hooks->idx(evlist, evsel, p->idx, hooks->ctx);
		if (err)
			return err;
	}
	pr_debug("idx %d: mmapping fd %d\n", p->idx, fd);
	map = perf_mmap__map(fd, p->cpu, p->pages, overwrite);
	if (!map) {
		err = -errno;
		perf_mmap__log_map_error(-err, fd, p->pages, evlist->nr_mmaps);
		return err;
	}
	if (overwrite) {
		evlist->mmap_ovw[p->idx] = map;
		return 0;
	}
	evlist->mmap[p->idx] = map;
	if (hooks && hooks->mmap) {
		err = hooks->mmap(evlist, evsel, map, p->idx, hooks->ctx);
		if (err)
			return err;
		evlist->hooked[p->idx] = true;
	}
	return 0;
}

/* Every evsel's fd at (cpu_idx of all_cpus, thread) into the ring of p->idx. */
static int evlist__mmap_per_evsel(struct mmap_pass *p, int thread)
{
	struct evlist *evlist = p->evlist;
	int i, err;

	for (i = 0; i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];
		bool overwrite = evsel->attr.write_backward;
		int *output = overwrite ? &p->output_ovw : &p->output;
		struct perf_mmap *map;
		int c, fd;

		if (evsel->system_wide && thread > 0)
			continue;
		c = perf_cpu_map__idx(evsel->cpus, p->cpu);
		if (c < 0)
			continue;
		fd = evsel__fd(evsel, c, thread);
		if (fd < 0) {
			pr_err("%s is not open on CPU %d, thread %d: open the evlist before "
			       "mapping it\n", evsel->name, p->cpu.cpu,
			       (int)perf_thread_map__pid(evsel->threads, thread));
			return -EBADF;
		}
		if (*output < 0) {
			err = evlist__mmap_owner(p, evsel, fd, overwrite);
			if (err)
				return err;
			*output = fd;
		} else {
			pr_debug("idx %d: set output fd %d -> %d\n", p->idx, fd, *output);
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *output) < 0) {
				err = -errno;
				pr_err("%s: redirecting fd %d into the ring of fd %d failed: %s; "
				       "events sharing a ring must agree on CPU, task, clock and "
				       "write_backward\n", evsel->name, fd, *output, strerror(-err));
				return err;
			}
		}
		map = overwrite ? evlist->mmap_ovw[p->idx] : evlist->mmap[p->idx];
		err = evlist__add_ring_fd(evlist, fd, map, !evsel->system_wide);
		if (!err && evsel__has_ids(evsel))
			err = evlist__record_sid(evlist, evsel, c, thread, p->idx);
		if (err)
			return err;
	}
	return 0;
}

/* One pass over (cpu_idx, threads) for idx: the outputs start afresh. */
static int evlist__mmap_idx(struct mmap_pass *p, int idx, int cpu_idx, int thread0,
			    int nr_threads)
{
	int t, err;

	p->idx = idx;
	p->cpu = perf_cpu_map__cpu(p->evlist->all_cpus, cpu_idx);
	p->output = p->output_ovw = -1;
	for (t = thread0; t < thread0 + nr_threads; t++) {
		err = evlist__mmap_per_evsel(p, t);
		if (err)
			return err;
	}
	return 0;
}

static int evlist__mmap_all(struct evlist *evlist, unsigned int pages)
{
	struct mmap_pass pass = { .evlist = evlist, .pages = pages };
	int nr_cpus = perf_cpu_map__nr(evlist->all_cpus);
	int nr_threads = perf_thread_map__nr(evlist->threads);
	int idx = 0, c, t, err;

	if (!evlist__per_thread(evlist)) {
		for (c = 0; c < nr_cpus; c++) {
			err = evlist__mmap_idx(&pass, idx++, c, 0, nr_threads);
			if (err)
				return err;
		}
		return 0;
	}
	for (t = 0; t < nr_threads; t++) {
		err = evlist__mmap_idx(&pass, idx++, 0, t, 1);
		if (err)
			return err;
	}
	/* all_cpus[0] is the any-CPU entry; the others belong to system-wide evsels. */
	for (c = 1; c < nr_cpus; c++) {
		err = evlist__mmap_idx(&pass, idx++, c, 0, 1);
		if (err)
			return err;
	}
	return 0;
}

int evlist__mmap_ex(struct evlist *evlist, unsigned int pages,
		    const struct evlist_mmap_hooks *hooks)
{
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	int idx, err;

	if (evlist->mmap) {
		pr_err("evlist__mmap: already mapped; evlist__munmap first\n");
		return libauxtrace__err(-EBUSY);
	}
	if (!evlist->nr_entries) {
		pr_err("evlist__mmap: no events to map\n");
		return libauxtrace__err(-EINVAL);
	}
	if (!evlist->maps_set) {
		/* The rings follow the evlist's maps: without them every fd would be skipped. */
		pr_err("evlist__mmap: no CPUs or threads to map; call evlist__set_maps and "
		       "evlist__open first\n");
		return libauxtrace__err(-EINVAL);
	}
	if (hooks && hooks->sz < sizeof(*hooks)) {
		/* every hook today is in the first layout: a smaller struct is no hooks */
		pr_err("evlist__mmap_ex: struct evlist_mmap_hooks without its size: set .sz = "
		       "sizeof(struct evlist_mmap_hooks)\n");
		return libauxtrace__err(-EINVAL);
	}
	if (!pages) {
		pages = evlist__default_pages();
	} else if (!perf_mmap__pages_ok(pages)) {
		perf_mmap__log_map_error(EINVAL, -1, pages, 1);
		return libauxtrace__err(-EINVAL);
	}
	evlist->nr_mmaps = perf_cpu_map__nr(evlist->all_cpus);
	if (evlist__per_thread(evlist))
		evlist->nr_mmaps += perf_thread_map__nr(evlist->threads) - 1;
	evlist->mmap = calloc(evlist->nr_mmaps, sizeof(*evlist->mmap));
	evlist->mmap_ovw = calloc(evlist->nr_mmaps, sizeof(*evlist->mmap_ovw));
	evlist->hooked = calloc(evlist->nr_mmaps, sizeof(*evlist->hooked));
	if (hooks) {
		evlist->hooks = malloc(sizeof(*hooks));
		if (evlist->hooks)
			*evlist->hooks = *hooks;
	}
	if (!evlist->mmap || !evlist->mmap_ovw || !evlist->hooked || (hooks && !evlist->hooks)) {
		evlist__munmap(evlist);
		return libauxtrace__err(-ENOMEM);
	}
	evlist->mmap_len = ((size_t)pages + 1) * psize;
	err = evlist__mmap_all(evlist, pages);
	if (err) {
		evlist__munmap(evlist);
		return libauxtrace__err(err);
	}
	for (idx = 0; idx < evlist->nr_mmaps; idx++) {
		if (!evlist->mmap[idx] && !evlist->mmap_ovw[idx])
			pr_debug("Miscounted nr_mmaps: no ring at idx %d of %d\n", idx,
				 evlist->nr_mmaps);
	}
	return 0;
}

int evlist__mmap(struct evlist *evlist, unsigned int pages)
{
	return evlist__mmap_ex(evlist, pages, NULL);
}

void evlist__munmap(struct evlist *evlist)
{
	const struct evlist_mmap_hooks *hooks = evlist->hooks;
	int idx, i;

	if (!evlist->mmap && !evlist->mmap_ovw && !evlist->hooked && !evlist->hooks)
		return;
	free(evlist->ring_fds);
	evlist->ring_fds = NULL;
	evlist->nr_ring_fds = 0;
	evlist__id_hash_clear(evlist);
	for (i = 0; i < evlist->nr_entries; i++) {
		free(evlist->entries[i]->sid);
		evlist->entries[i]->sid = NULL;
	}
	for (idx = 0; idx < evlist->nr_mmaps; idx++) {
		if (evlist->hooked && evlist->hooked[idx] && hooks && hooks->munmap)
			hooks->munmap(evlist, evlist->mmap[idx], idx, hooks->ctx);
		if (evlist->mmap)
			perf_mmap__delete(evlist->mmap[idx]);
		if (evlist->mmap_ovw)
			perf_mmap__delete(evlist->mmap_ovw[idx]);
	}
	free(evlist->mmap);
	free(evlist->mmap_ovw);
	free(evlist->hooked);
	evlist->mmap = evlist->mmap_ovw = NULL;
	evlist->hooked = NULL;
	evlist->nr_mmaps = 0;
	evlist->mmap_len = 0;
	free(evlist->hooks);
	evlist->hooks = NULL;
}

size_t evlist__mmap_len(const struct evlist *evlist)
{
	return evlist->mmap_len;
}

int evlist__nr_mmaps(const struct evlist *evlist)
{
	return evlist->nr_mmaps;
}

struct perf_mmap *evlist__mmap_at(const struct evlist *evlist, int idx)
{
	if (!evlist->mmap || idx < 0 || idx >= evlist->nr_mmaps)
		return NULL;
	return evlist->mmap[idx];
}

struct perf_mmap *evlist__mmap_ovw_at(const struct evlist *evlist, int idx)
{
	if (!evlist->mmap_ovw || idx < 0 || idx >= evlist->nr_mmaps)
		return NULL;
	return evlist->mmap_ovw[idx];
}
