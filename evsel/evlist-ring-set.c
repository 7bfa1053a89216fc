// SPDX-License-Identifier: LGPL-2.1
/*
 * An evlist's perf data rings as ring set sources: one source per forward ring, woken by
 * every fd that feeds it (the owner and the fds redirected into it).
 */
#include <errno.h>

#include <auxtrace/ring-set.h>
#include <auxtrace/evlist.h>
#include <internal/evlist-struct.h>
#include <internal/lib.h>
#include <internal/mmap.h>

static ssize_t perf_ring_source__drain(void *ctx, struct ring_sink *sink, bool final)
{
	/* the last drain also takes what comes while it runs; the others leave it for later */
	return perf_mmap__drain(ctx, sink, final);
}

static const struct ring_stats *perf_ring_source__stats(void *ctx)
{
	return perf_mmap__stats(ctx);
}

static const struct ring_source_ops perf_ring_source_ops = {
	.drain = perf_ring_source__drain,
	.stats = perf_ring_source__stats,
};

/* The source of map in set, added on its first fd. Its id, or -errno. */
static int evlist__ring_source(struct ring_set *set, struct perf_mmap *map,
			       struct ring_sink *sink)
{
	int id = ring_set__find_source(set, map);

	if (id != -ENOENT)
		return id;
	return ring_set__add(set, &(struct ring_source){
		.sz = sizeof(struct ring_source),
		.kind = RING_SOURCE_PERF,
		.cpu = perf_mmap__cpu(map).cpu,
		/* perf sorts one round behind: no record may wait in a ring past its round */
		.flags = RING_SOURCE_F_ROUND,
		.ops = &perf_ring_source_ops,
		.ctx = map,
		.sink = sink,
	});
}

int evlist__add_to_ring_set(struct evlist *evlist, struct ring_set *set, struct ring_sink *sink)
{
	struct perf_mmap *map = NULL;
	int id = -1, added = 0;

	if (!evlist || !set || !sink)
		return libauxtrace__err(-EINVAL);
	for (int i = 0; i < evlist->nr_ring_fds; i++) {
		const struct evlist_ring_fd *r = &evlist->ring_fds[i];
		int err;

		/* backward rings are read after pausing them, not on wakeups */
		if (perf_mmap__overwrite(r->map))
			continue;
		if (r->map != map) {
			map = r->map;
			id = evlist__ring_source(set, map, sink);
			if (id < 0)
				return libauxtrace__err(id);
		}
		err = ring_set__watch(set, id, r->fd, r->task_bound ? RING_WATCH_F_TASK : 0);
		if (err)
			return libauxtrace__err(err);
		added++;
	}
	if (!added) {
		pr_err("ring set: the evlist has no mapped data ring; call evlist__mmap first\n");
		return libauxtrace__err(-ENOENT);
	}
	return 0;
}
