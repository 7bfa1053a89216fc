// SPDX-License-Identifier: LGPL-2.1
/*
 * The ring set: one epoll set, one entry per ring. epoll tells which fds are ready and the
 * set drains the rings behind them, and only those: the cost of a wakeup follows the number
 * of ready rings, not the number of rings. A data ring and the AUX area of the same idx are
 * one entry, since the kernel signals both through the same event fd.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/auxtrace.h>
#include <auxtrace/ring-set.h>
#include <internal/evlist.h>
#include <internal/lib.h>
#include <internal/ring.h>

struct ring_entry {
	enum ring_source_kind kind;
	int cpu;
	/* perf: the data ring, and the AUX area at its idx when there is one */
	struct perf_mmap *map;
	struct auxtrace_mmaps *aux;
	int idx;
	struct ring_sink *sink;
	struct ring_sink *aux_sink;
	/* any other source */
	const struct ring_source_ops *ops;
	void *ctx;
	uint64_t pass;		/* the last poll that drained it */
};

/* A watched fd: data.ptr of its epoll_event. Several fds may feed one ring (SET_OUTPUT). */
struct ring_watch {
	int fd;
	int entry;		/* index into set->entries */
	bool task_bound;	/* hangs up when its task exits */
	bool alive;		/* still in the epoll set */
};

struct ring_set {
	int epoll_fd;
	int stop_fd;
	int stopped;			/* atomic: set from signal handlers */
	struct ring_entry *entries;
	int nr_entries;
	struct ring_watch **watches;	/* stable pointers: epoll hands them back */
	int nr_watches;
	int nr_task_bound, nr_alive;
	uint64_t pass;		/* polls so far */
	size_t round_bytes;	/* moved since the last round ended */
	uint64_t round_end_ns;	/* CLOCK_MONOTONIC when it ended */
	struct ring_set_opts opts;
};

/* The stop eventfd's epoll tag: never a watch pointer. */
static char stop_tag;

static uint64_t ring_set__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

struct ring_set *ring_set__new(const struct ring_set_opts *opts)
{
	struct ring_set *set = calloc(1, sizeof(*set));
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &stop_tag };
	int err;

	if (!set)
		return libauxtrace__ptr_err(-ENOMEM);
	err = opts__copy(ring_set_opts, &set->opts, opts);
	if (err) {
		free(set);
		return libauxtrace__ptr_err(err);
	}
	set->round_end_ns = ring_set__now_ns();
	set->stop_fd = -1;
	set->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (set->epoll_fd >= 0)
		set->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (set->epoll_fd < 0 || set->stop_fd < 0 ||
	    epoll_ctl(set->epoll_fd, EPOLL_CTL_ADD, set->stop_fd, &ev) < 0) {
		err = -errno;
		pr_err("ring set: cannot create its epoll set: %s\n", strerror(-err));
		ring_set__delete(set);
		return libauxtrace__ptr_err(err);
	}
	return set;
}

void ring_set__delete(struct ring_set *set)
{
	if (!set)
		return;
	for (int i = 0; i < set->nr_watches; i++)
		free(set->watches[i]);
	free(set->watches);
	free(set->entries);
	if (set->stop_fd >= 0)
		close(set->stop_fd);
	if (set->epoll_fd >= 0)
		close(set->epoll_fd);
	free(set);
}

/* Append an entry; its index, or -ENOMEM. */
static int ring_set__new_entry(struct ring_set *set, const struct ring_entry *e)
{
	struct ring_entry *grown = realloc(set->entries, (set->nr_entries + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	set->entries = grown;
	set->entries[set->nr_entries] = *e;
	return set->nr_entries++;
}

static int ring_set__watch(struct ring_set *set, int fd, int entry, bool task_bound)
{
	struct ring_watch **grown, *w;
	struct epoll_event ev = { .events = EPOLLIN };

	grown = realloc(set->watches, (set->nr_watches + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	set->watches = grown;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	*w = (struct ring_watch){ .fd = fd, .entry = entry, .task_bound = task_bound,
				  .alive = true };
	ev.data.ptr = w;
	if (epoll_ctl(set->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = -errno;

		pr_err("ring set: cannot watch fd %d: %s%s\n", fd, strerror(-err),
		       err == -ENOSPC ? "; raise /proc/sys/fs/epoll/max_user_watches" :
		       err == -EPERM ? "; regular files cannot be polled" : "");
		free(w);
		return err;
	}
	set->watches[set->nr_watches++] = w;
	if (task_bound) {
		set->nr_task_bound++;
		set->nr_alive++;
	}
	return 0;
}

/* The entry of the data ring map, made on its first fd. Its index, or -errno. */
static int ring_set__perf_entry(struct ring_set *set, struct evlist *evlist,
				struct perf_mmap *map, struct auxtrace_mmaps *aux,
				struct ring_sink *data_sink, struct ring_sink *aux_sink)
{
	int idx;

	for (int i = 0; i < set->nr_entries; i++)
		if (set->entries[i].map == map)
			return i;
	for (idx = 0; idx < evlist__nr_mmaps(evlist); idx++)
		if (evlist__mmap_at(evlist, idx) == map)
			break;
	return ring_set__new_entry(set, &(struct ring_entry){
		.kind = RING_SOURCE_PERF,
		.cpu = perf_mmap__cpu(map).cpu,
		.map = map,
		.aux = aux && auxtrace_mmaps__at(aux, idx) ? aux : NULL,
		.idx = idx,
		.sink = data_sink,
		.aux_sink = aux_sink,
	});
}

int ring_set__add_evlist(struct ring_set *set, struct evlist *evlist,
			 struct auxtrace_mmaps *aux, struct ring_sink *data_sink,
			 struct ring_sink *aux_sink)
{
	int added = 0;

	if (!set || !evlist || !data_sink || (aux && !aux_sink))
		return libauxtrace__err(-EINVAL);
	for (int i = 0; i < evlist->nr_pollfd; i++) {
		const struct evlist_pollfd *p = &evlist->pollfd[i];
		int entry, err;

		/* backward rings are read after pausing them, not on wakeups */
		if (p->fd < 0 || !p->map || perf_mmap__overwrite(p->map))
			continue;
		entry = ring_set__perf_entry(set, evlist, p->map, aux, data_sink, aux_sink);
		err = entry < 0 ? entry : ring_set__watch(set, p->fd, entry, p->counted);
		if (err)
			return libauxtrace__err(err);
		added++;
	}
	if (!added) {
		pr_err("ring set: the evlist has no mapped data ring; call evlist__mmap_ex first\n");
		return libauxtrace__err(-ENOENT);
	}
	return 0;
}

int ring_set__add_source(struct ring_set *set, int fd, int cpu, enum ring_source_kind kind,
			 const struct ring_source_ops *ops, void *ctx, struct ring_sink *sink)
{
	int entry;

	if (!set || fd < 0 || !ops || !ops->drain || !sink || kind < 0 ||
	    kind >= RING_SOURCE__MAX)
		return libauxtrace__err(-EINVAL);
	entry = ring_set__new_entry(set, &(struct ring_entry){
		.kind = kind, .cpu = cpu, .idx = -1, .sink = sink, .ops = ops, .ctx = ctx,
	});
	if (entry < 0)
		return libauxtrace__err(entry);
	return libauxtrace__err(ring_set__watch(set, fd, entry, false));
}

/* Drain one entry: its data ring, then the AUX area beside it. Bytes, or the first -errno. */
static ssize_t ring_entry__drain(struct ring_entry *e, bool final)
{
	ssize_t n, total = 0;
	int err = 0;

	if (e->ops)
		return e->ops->drain(e->ctx, e->sink, final);
	n = perf_mmap__push(e->map, e->sink);
	if (n < 0)
		err = (int)n;
	else
		total += n;
	/* the AUX records refer to PERF_RECORD_AUX records that the data ring already gave */
	if (e->aux) {
		n = auxtrace_mmaps__read_idx(e->aux, e->idx, e->aux_sink);
		if (n < 0 && !err)
			err = (int)n;
		else if (n > 0)
			total += n;
	}
	return err ? err : total;
}

/* A hung-up fd stays readable for ever: out of the set, so the loop does not spin. */
static void ring_set__forget(struct ring_set *set, struct ring_watch *w)
{
	if (!w->alive)
		return;
	epoll_ctl(set->epoll_fd, EPOLL_CTL_DEL, w->fd, NULL);
	w->alive = false;
	if (w->task_bound)
		set->nr_alive--;
}

static bool ring_set__stopped(const struct ring_set *set)
{
	return __atomic_load_n(&set->stopped, __ATOMIC_ACQUIRE);
}

/* The round ends here: every perf data ring has been drained since the last. */
static void ring_set__round_done(struct ring_set *set)
{
	set->opts.pass_done(set->opts.ctx, set->round_bytes);
	set->round_bytes = 0;
	set->round_end_ns = ring_set__now_ns();
}

/*
 * Before a round ends with pass_done, the perf data rings that were not ready are drained
 * too (a load of the head each when empty, as perf record reads every ring in each round):
 * a perf.data writer ends the round there, and perf sorts records one round behind, so a
 * record left waiting in a ring under its wakeup mark would come out after newer ones.
 * Other sources are left alone: they need no rounds, and draining one may cost a call.
 */
static int ring_set__end_round(struct ring_set *set)
{
	int err = 0;

	for (int i = 0; i < set->nr_entries; i++) {
		struct ring_entry *e = &set->entries[i];
		ssize_t moved;

		if (e->ops || e->pass == set->pass)
			continue;
		moved = ring_entry__drain(e, false);
		if (moved < 0 && !err)
			err = (int)moved;
		if (moved > 0)
			set->round_bytes += moved;
	}
	ring_set__round_done(set);
	return err;
}

/* ms until a round with data pending is due (0: now), or -1 when none is pending. */
static int ring_set__round_wait_ms(const struct ring_set *set)
{
	uint64_t due, now;

	if (!set->round_bytes || !set->opts.pass_done)
		return -1;
	due = set->round_end_ns + (uint64_t)set->opts.round_ms * 1000000;
	now = ring_set__now_ns();
	return now >= due ? 0 : (int)((due - now + 999999) / 1000000);
}

int ring_set__poll(struct ring_set *set, int timeout_ms)
{
	struct epoll_event ev[64];
	int n, round_ms, drained = 0, err = 0;

	if (!set)
		return libauxtrace__err(-EINVAL);
	if (ring_set__stopped(set))
		return libauxtrace__err(-ECANCELED);
	round_ms = ring_set__round_wait_ms(set);
	if (round_ms >= 0 && (timeout_ms < 0 || round_ms < timeout_ms))
		timeout_ms = round_ms;		/* a due round is not left waiting for data */
	n = epoll_wait(set->epoll_fd, ev, ARRAY_SIZE(ev), timeout_ms);
	if (n < 0) {
		/* a handler that called ring_set__stop may be why the wait was interrupted */
		int err = ring_set__stopped(set) ? -ECANCELED : -errno;

		return libauxtrace__err(err);
	}
	set->pass++;
	for (int i = 0; i < n; i++) {
		struct ring_watch *w = ev[i].data.ptr;
		struct ring_entry *e;
		ssize_t moved;

		if (w == (void *)&stop_tag)
			continue;
		e = &set->entries[w->entry];
		/* what the task wrote before it went is still in the ring: drain it now */
		if (ev[i].events & (EPOLLHUP | EPOLLERR))
			ring_set__forget(set, w);
		moved = ring_entry__drain(e, false);
		e->pass = set->pass;
		if (moved < 0 && !err)
			err = (int)moved;
		if (moved > 0)
			set->round_bytes += moved;
		drained++;
	}
	if (ring_set__round_wait_ms(set) == 0) {
		int round_err = ring_set__end_round(set);

		if (round_err && !err)
			err = round_err;
	}
	if (err)
		return libauxtrace__err(err);
	if (ring_set__stopped(set))
		return libauxtrace__err(-ECANCELED);
	return drained;
}

ssize_t ring_set__drain_all(struct ring_set *set, bool final)
{
	size_t bytes = 0;
	int err = 0;

	if (!set)
		return libauxtrace__err(-EINVAL);
	for (int i = 0; i < set->nr_entries && !ring_set__stopped(set); i++) {
		ssize_t n = ring_entry__drain(&set->entries[i], final);

		if (n < 0 && !err)
			err = (int)n;
		if (n > 0)
			bytes += n;
	}
	if (ring_set__stopped(set) && !err)
		err = -ECANCELED;	/* what was drained stays drained: its round ends */
	set->round_bytes += bytes;
	if (set->round_bytes && set->opts.pass_done)
		ring_set__round_done(set);
	return err ? libauxtrace__err(err) : (ssize_t)bytes;
}

void ring_set__stop(struct ring_set *set)
{
	uint64_t one = 1;

	/* Only an atomic store and write(2): safe in a signal handler. */
	__atomic_store_n(&set->stopped, 1, __ATOMIC_RELEASE);
	if (write(set->stop_fd, &one, sizeof(one)) < 0) {
		/* The counter is saturated: a stop is pending already. */
	}
}

void ring_set__resume(struct ring_set *set)
{
	uint64_t count;

	__atomic_store_n(&set->stopped, 0, __ATOMIC_RELEASE);
	if (read(set->stop_fd, &count, sizeof(count)) < 0) {
		/* EAGAIN: no stop was pending. */
	}
}

int ring_set__fd(const struct ring_set *set)
{
	return set ? set->epoll_fd : libauxtrace__err(-EINVAL);
}

int ring_set__nr_alive(const struct ring_set *set)
{
	return set->nr_task_bound ? set->nr_alive : -1;
}

int ring_set__nr_rings(const struct ring_set *set)
{
	return set->nr_entries;
}

/* The stats of entry e as a source of kind: its data ring, or the AUX area beside it. */
static bool ring_entry__stats(const struct ring_entry *e, enum ring_source_kind kind,
			      struct ring_stats *out)
{
	const struct ring_stats *s;

	if (kind == RING_SOURCE_AUX)
		return e->aux && auxtrace_mmaps__stats(e->aux, e->idx, out) == 0;	/* full size */
	if (e->kind != kind)
		return false;
	s = e->ops ? (e->ops->stats ? e->ops->stats(e->ctx) : NULL) : perf_mmap__stats(e->map);
	*out = s ? *s : (struct ring_stats){ 0 };
	return true;
}

int ring_set__stats_sz(const struct ring_set *set, enum ring_source_kind kind, int cpu,
		       struct ring_stats *out, size_t sz)
{
	struct ring_stats sum = { .sz = sizeof(sum) };
	bool found = false;

	for (int i = 0; i < set->nr_entries; i++) {
		const struct ring_entry *e = &set->entries[i];
		struct ring_stats s;

		if ((cpu >= 0 && e->cpu != cpu) || !ring_entry__stats(e, kind, &s))
			continue;
		ring_stats__add(&sum, &s);
		found = true;
	}
	if (!found)
		return libauxtrace__err(-ENOENT);
	return ring_stats__copy_out(out, sz, &sum);
}
