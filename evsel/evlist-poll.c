// SPDX-License-Identifier: LGPL-2.1
/*
 * One epoll set for the whole session: every ring fd, the caller's fds (tracefs CPUs) and a
 * stop eventfd that a signal handler or another thread writes to end a wait.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <internal/evlist.h>
#include <internal/lib.h>

#define STOP_TAG UINT64_MAX

int evlist__poll_init(struct evlist *evlist)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = STOP_TAG };

	evlist->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (evlist->epoll_fd < 0)
		return -errno;
	evlist->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (evlist->stop_fd < 0 ||
	    epoll_ctl(evlist->epoll_fd, EPOLL_CTL_ADD, evlist->stop_fd, &ev) < 0) {
		int err = -errno;

		evlist__poll_exit(evlist);
		return err;
	}
	return 0;
}

void evlist__poll_exit(struct evlist *evlist)
{
	if (evlist->stop_fd >= 0)
		close(evlist->stop_fd);
	if (evlist->epoll_fd >= 0)
		close(evlist->epoll_fd);
	evlist->stop_fd = evlist->epoll_fd = -1;
	free(evlist->pollfd);
	evlist->pollfd = NULL;
	evlist->nr_pollfd = 0;
}

/* A free slot (reused after munmap) or a new one; its number, or -ENOMEM. */
static int evlist__pollfd_slot(struct evlist *evlist)
{
	struct evlist_pollfd *grown;
	int i;

	for (i = 0; i < evlist->nr_pollfd; i++) {
		if (evlist->pollfd[i].fd < 0)
			return i;
	}
	grown = realloc(evlist->pollfd, (evlist->nr_pollfd + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	evlist->pollfd = grown;
	evlist->pollfd[evlist->nr_pollfd] = (struct evlist_pollfd){ .fd = -1 };
	return evlist->nr_pollfd++;
}

static const char *evlist__pollfd_fix(int err)
{
	switch (err) {
	case EEXIST:
		return "it is in the set already";
	case EPERM:
		return "regular files and directories cannot be polled";
	case ENOSPC:
		return "raise /proc/sys/fs/epoll/max_user_watches";
	case EBADF:
		return "pass an open fd";
	default:
		return "poll fewer fds";
	}
}

static int evlist__pollfd_add(struct evlist *evlist, int fd, uint32_t events,
			      struct perf_mmap *map, bool counted)
{
	struct epoll_event ev = { .events = events };
	int slot = evlist__pollfd_slot(evlist);

	if (slot >= 0) {
		ev.data.u64 = (uint64_t)slot;
		if (epoll_ctl(evlist->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0)
			slot = -errno;
	}
	if (slot < 0) {
		pr_err("adding fd %d to the evlist's poll set failed: %s; %s\n", fd,
		       strerror(-slot), evlist__pollfd_fix(-slot));
		return slot;
	}
	evlist->pollfd[slot] = (struct evlist_pollfd){
		.fd = fd, .map = map, .alive = true, .counted = counted,
	};
	return 0;
}

int evlist__add_ring_pollfd(struct evlist *evlist, int fd, struct perf_mmap *map,
			    bool overwrite, bool counted)
{
	/* A backward ring is read after pausing it, never on wakeups: hang-ups only. */
	return evlist__pollfd_add(evlist, fd, overwrite ? 0 : EPOLLIN, map, counted);
}

int evlist__add_pollfd(struct evlist *evlist, int fd, uint32_t epoll_events)
{
	return libauxtrace__err(evlist__pollfd_add(evlist, fd, epoll_events, NULL, false));
}

static void evlist__pollfd_forget(struct evlist *evlist, struct evlist_pollfd *p)
{
	if (p->alive)
		epoll_ctl(evlist->epoll_fd, EPOLL_CTL_DEL, p->fd, NULL);
	p->alive = false;
}

void evlist__drop_ring_pollfds(struct evlist *evlist)
{
	int i;

	for (i = 0; i < evlist->nr_pollfd; i++) {
		struct evlist_pollfd *p = &evlist->pollfd[i];

		if (p->fd < 0 || !p->map)
			continue;
		evlist__pollfd_forget(evlist, p);
		p->fd = -1;
	}
}

static bool evlist__stopped(const struct evlist *evlist)
{
	return __atomic_load_n(&evlist->stopped, __ATOMIC_ACQUIRE);
}

int evlist__poll(struct evlist *evlist, int timeout_ms)
{
	struct epoll_event ev[64];
	int n, i, ready = 0;

	if (evlist__stopped(evlist))
		return libauxtrace__err(-ECANCELED);
	n = epoll_wait(evlist->epoll_fd, ev, ARRAY_SIZE(ev), timeout_ms);
	/* A handler that called evlist__stop may be why the wait was interrupted. */
	if (evlist__stopped(evlist))
		return libauxtrace__err(-ECANCELED);
	if (n < 0)
		return libauxtrace__err(-errno);
	for (i = 0; i < n; i++) {
		struct evlist_pollfd *p;

		if (ev[i].data.u64 == STOP_TAG)
			continue;
		p = &evlist->pollfd[ev[i].data.u64];
		ready++;
		/*
		 * A hung-up fd (its task exited) stays readable for ever: take it out of the
		 * set so the loop does not spin. Its ring stays mapped until evlist__munmap,
		 * so what the kernel wrote before is still drained.
		 */
		if (ev[i].events & (EPOLLHUP | EPOLLERR))
			evlist__pollfd_forget(evlist, p);
	}
	return ready;
}

int evlist__poll_nr_alive(const struct evlist *evlist)
{
	int i, alive = 0;

	for (i = 0; i < evlist->nr_pollfd; i++)
		alive += evlist->pollfd[i].alive && evlist->pollfd[i].counted;
	return alive;
}

void evlist__stop(struct evlist *evlist)
{
	uint64_t one = 1;

	/* Only an atomic store and write(2): safe in a signal handler. */
	__atomic_store_n(&evlist->stopped, 1, __ATOMIC_RELEASE);
	if (write(evlist->stop_fd, &one, sizeof(one)) < 0) {
		/* The counter is saturated: a stop is pending already. */
	}
}

void evlist__resume(struct evlist *evlist)
{
	uint64_t count;

	__atomic_store_n(&evlist->stopped, 0, __ATOMIC_RELEASE);
	if (read(evlist->stop_fd, &count, sizeof(count)) < 0) {
		/* EAGAIN: no stop was pending. */
	}
}

int evlist__poll_fd(const struct evlist *evlist)
{
	return evlist->epoll_fd;
}
