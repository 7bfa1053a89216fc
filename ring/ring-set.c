// SPDX-License-Identifier: LGPL-2.1
/*
 * The ring set: one epoll set, one entry per source. epoll tells which fds are ready and the
 * set drains the sources behind them, and only those: the cost of a wakeup follows the
 * number of ready rings, not the number of rings. What a source is (a perf data ring, an
 * AUX area, a tracefs CPU) is for its ops to know: the set only calls them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/ring-set.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include <internal/ring.h>

struct ring_entry {
	struct ring_source src;
	int leader;		/* the entry it follows, -1: none */
	int followers;		/* its first follower, -1: none */
	int next;		/* the next follower of its leader, -1: none */
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

int ring_set__add(struct ring_set *set, const struct ring_source *src)
{
	struct ring_entry *grown, e = { .leader = -1, .followers = -1, .next = -1 };
	int err;

	if (!set)
		return libauxtrace__err(-EINVAL);
	/* the option structs' rule: what a later release adds at its end is optional */
	err = opts__copy(ring_source, &e.src, src);
	if (err)
		return err;
	if (!e.src.ops || !e.src.ops->drain || !e.src.sink || e.src.kind < 0 ||
	    e.src.kind >= RING_SOURCE__MAX || (e.src.flags & ~RING_SOURCE_F_ROUND))
		return libauxtrace__err(-EINVAL);
	grown = realloc(set->entries, (set->nr_entries + 1) * sizeof(*grown));
	if (!grown)
		return libauxtrace__err(-ENOMEM);
	set->entries = grown;
	set->entries[set->nr_entries] = e;
	return set->nr_entries++;
}

static bool ring_set__has(const struct ring_set *set, int id)
{
	return set && id >= 0 && id < set->nr_entries;
}

int ring_set__watch(struct ring_set *set, int id, int fd, unsigned int flags)
{
	struct ring_watch **grown, *w;
	struct epoll_event ev = { .events = EPOLLIN };

	if (!ring_set__has(set, id) || fd < 0 || (flags & ~RING_WATCH_F_TASK))
		return libauxtrace__err(-EINVAL);
	grown = realloc(set->watches, (set->nr_watches + 1) * sizeof(*grown));
	if (!grown)
		return libauxtrace__err(-ENOMEM);
	set->watches = grown;
	w = calloc(1, sizeof(*w));
	if (!w)
		return libauxtrace__err(-ENOMEM);
	*w = (struct ring_watch){ .fd = fd, .entry = id, .task_bound = flags & RING_WATCH_F_TASK,
				  .alive = true };
	ev.data.ptr = w;
	if (epoll_ctl(set->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = -errno;

		pr_err("ring set: cannot watch fd %d: %s%s\n", fd, strerror(-err),
		       err == -ENOSPC ? "; raise /proc/sys/fs/epoll/max_user_watches" :
		       err == -EPERM ? "; regular files cannot be polled" :
		       err == -EEXIST ? "; it wakes another source already: let this one follow "
					"that one (ring_set__follow)" : "");
		free(w);
		return libauxtrace__err(err);
	}
	set->watches[set->nr_watches++] = w;
	if (w->task_bound) {
		set->nr_task_bound++;
		set->nr_alive++;
	}
	return 0;
}

int ring_set__follow(struct ring_set *set, int id, int leader)
{
	struct ring_entry *e, *l;
	int *link;

	if (!ring_set__has(set, id) || !ring_set__has(set, leader) || id == leader)
		return libauxtrace__err(-EINVAL);
	e = &set->entries[id];
	l = &set->entries[leader];
	/* one level: a drain then reaches every follower without a walk that could loop */
	if (e->leader >= 0 || e->followers >= 0 || l->leader >= 0)
		return libauxtrace__err(-EINVAL);
	for (link = &l->followers; *link >= 0; link = &set->entries[*link].next)
		;
	*link = id;
	e->leader = leader;
	return 0;
}

int ring_set__find_source(const struct ring_set *set, const void *ctx)
{
	if (!set)
		return libauxtrace__err(-EINVAL);
	for (int i = 0; i < set->nr_entries; i++)
		if (set->entries[i].src.ctx == ctx)
			return i;
	return libauxtrace__err(-ENOENT);
}

int ring_set__set_sinks(struct ring_set *set, enum ring_source_kind kind,
			struct ring_sink *(*sink_of)(void *ctx, int cpu), void *ctx)
{
	struct ring_sink **sinks;
	int nr = 0, err = 0;

	if (!set || !sink_of || kind < 0 || kind >= RING_SOURCE__MAX)
		return libauxtrace__err(-EINVAL);
	/* every new sink first: a source that cannot have one leaves all of them as they were */
	sinks = calloc(set->nr_entries ? set->nr_entries : 1, sizeof(*sinks));
	if (!sinks)
		return libauxtrace__err(-ENOMEM);
	for (int i = 0; i < set->nr_entries && !err; i++) {
		if (set->entries[i].src.kind != kind)
			continue;
		errno = 0;
		sinks[i] = sink_of(ctx, set->entries[i].src.cpu);
		if (!sinks[i])
			err = errno ? -errno : -EINVAL;
	}
	for (int i = 0; i < set->nr_entries && !err; i++) {
		if (!sinks[i])
			continue;
		set->entries[i].src.sink = sinks[i];
		nr++;
	}
	free(sinks);
	return err ? libauxtrace__err(err) : nr;
}

int ring_set__add_source(struct ring_set *set, int fd, int cpu, enum ring_source_kind kind,
			 const struct ring_source_ops *ops, void *ctx, struct ring_sink *sink)
{
	int id, err;

	if (fd < 0)
		return libauxtrace__err(-EINVAL);
	id = ring_set__add(set, &(struct ring_source){
		.sz = sizeof(struct ring_source), .kind = kind, .cpu = cpu, .ops = ops,
		.ctx = ctx, .sink = sink,
	});
	if (id < 0)
		return id;
	err = ring_set__watch(set, id, fd, 0);
	if (err)
		set->nr_entries--;	/* the last one added: no fd, no follower */
	return err;
}

/* Drain one entry. Bytes, or -errno; either way it counts as drained in this pass. */
static ssize_t ring_set__drain_one(struct ring_set *set, struct ring_entry *e, bool final)
{
	e->pass = set->pass;
	return e->src.ops->drain(e->src.ctx, e->src.sink, final);
}

/* Entry i, then its followers. Bytes, or the first -errno (the others are drained anyway). */
static ssize_t ring_set__drain_entry(struct ring_set *set, int i, bool final)
{
	ssize_t n = ring_set__drain_one(set, &set->entries[i], final);
	ssize_t total = n > 0 ? n : 0;
	int err = n < 0 ? (int)n : 0;

	for (int f = set->entries[i].followers; f >= 0; f = set->entries[f].next) {
		n = ring_set__drain_one(set, &set->entries[f], final);
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
 * Before a round ends with pass_done, the RING_SOURCE_F_ROUND sources that were not ready
 * are drained too (for a perf data ring, a load of the head when empty, as perf record reads
 * every ring in each round): a perf.data writer ends the round there, and perf sorts records
 * one round behind, so a record left waiting in a ring under its wakeup mark would come out
 * after newer ones. Other sources are left alone: they need no rounds, and draining one may
 * cost a call. Followers come with their leaders.
 */
static int ring_set__end_round(struct ring_set *set)
{
	int err = 0;

	for (int i = 0; i < set->nr_entries; i++) {
		struct ring_entry *e = &set->entries[i];
		ssize_t moved;

		if (!(e->src.flags & RING_SOURCE_F_ROUND) || e->leader >= 0 ||
		    e->pass == set->pass)
			continue;
		moved = ring_set__drain_entry(set, i, false);
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
		ssize_t moved;

		if (w == (void *)&stop_tag)
			continue;
		/* what the task wrote before it went is still in the ring: drain it now */
		if (ev[i].events & (EPOLLHUP | EPOLLERR))
			ring_set__forget(set, w);
		moved = ring_set__drain_entry(set, w->entry, false);
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
		ssize_t n;

		if (set->entries[i].leader >= 0)
			continue;	/* drained with its leader */
		n = ring_set__drain_entry(set, i, final);
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

/* The stats of entry e, when it is a source of kind. */
static bool ring_entry__stats(const struct ring_entry *e, enum ring_source_kind kind,
			      struct ring_stats *out)
{
	const struct ring_stats *s;

	if (e->src.kind != kind)
		return false;
	s = e->src.ops->stats ? e->src.ops->stats(e->src.ctx) : NULL;
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

		if ((cpu >= 0 && e->src.cpu != cpu) || !ring_entry__stats(e, kind, &s))
			continue;
		ring_stats__add(&sum, &s);
		found = true;
	}
	if (!found)
		return libauxtrace__err(-ENOENT);
	return ring_stats__copy_out(out, sz, &sum);
}
