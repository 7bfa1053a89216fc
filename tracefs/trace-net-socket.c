// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace-cmd network client's sockets: TCP connections made, read and written with a
 * deadline on every wait, so that a collector that is slow, silent or gone costs at most the
 * timeout, never a hang; and no write raises SIGPIPE in the caller's process.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <internal/lib.h>
#include "trace-net-internal.h"

/* Split where into host and port: "HOST:PORT", "[V6]:PORT", or a bare PORT on localhost. */
static int tn_split(const char *where, char *host, size_t host_size, char *port,
		    size_t port_size)
{
	const char *colon = strrchr(where, ':'), *p;
	size_t len;

	if (*where == '[') {
		const char *close = strchr(where, ']');

		if (!close || close[1] != ':')
			goto bad;
		len = close - where - 1;
		colon = close + 1;
		where++;
	} else if (!colon) {
		colon = where - 1;
		len = 0;
	} else {
		len = colon - where;
	}
	if (len >= host_size || strlen(colon + 1) >= port_size || !colon[1])
		goto bad;
	for (p = colon + 1; *p; p++)
		if (*p < '0' || *p > '9')
			goto bad;
	if (atol(colon + 1) < 1 || atol(colon + 1) > 65535)
		goto bad;
	snprintf(host, host_size, "%.*s", (int)len, where);
	if (!*host)
		snprintf(host, host_size, "localhost");
	snprintf(port, port_size, "%s", colon + 1);
	return 0;
bad:
	pr_err("trace-cmd collector '%s': give HOST:PORT (e.g. 192.0.2.1:12345, [::1]:12345, or a port on this machine) with a port 1..65535, as trace-cmd listen -p PORT serves it\n",
	       where);
	return -EINVAL;
}

/* Wait for events on fd at most timeout_ms. 1 ready, 0 timed out, -errno. */
static int tn_wait(int fd, short events, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	for (;;) {
		int n = poll(&pfd, 1, timeout_ms);

		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -errno : n;
	}
}

/* A non-blocking connect, waited for; the fd is blocking again when it returns. */
static int tn_connect_addr(const struct sockaddr *sa, socklen_t len, int timeout_ms)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_TCP);
	int err = 0, ready;
	socklen_t err_len = sizeof(err);

	if (fd < 0)
		return -errno;
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS) {
			err = -errno;
			goto fail;
		}
		ready = tn_wait(fd, POLLOUT, timeout_ms);
		if (ready <= 0) {
			err = ready ? ready : -ETIMEDOUT;
			goto fail;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_len) < 0 || err) {
			err = err ? -err : -errno;
			goto fail;
		}
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		err = -errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

int tn_connect(const char *where, int timeout_ms, struct sockaddr_storage *addr,
	       socklen_t *addr_len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	char host[256], port[8];
	int fd = -EHOSTUNREACH, gai;

	if (tn_split(where, host, sizeof(host), port, sizeof(port)))
		return -EINVAL;
	gai = getaddrinfo(host, port, &hints, &res);
	if (gai) {
		pr_err("trace-cmd collector %s: cannot resolve host '%s': %s\n", where, host,
		       gai == EAI_SYSTEM ? strerror(errno) : gai_strerror(gai));
		return -EHOSTUNREACH;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = tn_connect_addr(ai->ai_addr, ai->ai_addrlen, timeout_ms);
		if (fd >= 0) {
			memcpy(addr, ai->ai_addr, ai->ai_addrlen);
			*addr_len = ai->ai_addrlen;
			break;
		}
	}
	freeaddrinfo(res);
	if (fd == -ECONNREFUSED)
		pr_err("trace-cmd collector %s: connection refused: nothing listens there (start trace-cmd listen -p %s on %s)\n",
		       where, port, host);
	else if (fd == -ETIMEDOUT)
		pr_err("trace-cmd collector %s: no answer within %d ms: is the host up and the port open?\n",
		       where, timeout_ms);
	else if (fd < 0)
		pr_err("trace-cmd collector %s: cannot connect: %s\n", where, strerror(-fd));
	return fd;
}

int tn_connect_port(const struct sockaddr_storage *addr, socklen_t addr_len, unsigned int port,
		    int timeout_ms)
{
	struct sockaddr_storage to = *addr;

	if (to.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&to)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)&to)->sin_port = htons(port);
	return tn_connect_addr((struct sockaddr *)&to, addr_len, timeout_ms);
}

int tn_read(int fd, void *buf, size_t len, int timeout_ms)
{
	size_t done = 0;

	while (done < len) {
		int ready = tn_wait(fd, POLLIN, timeout_ms);
		ssize_t n;

		if (ready <= 0)
			return ready ? ready : -ETIMEDOUT;
		n = recv(fd, (char *)buf + done, len - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;	/* the peer hung up; a reset is ECONNRESET */
		done += n;
	}
	return 0;
}

int tn_writev(int fd, const struct iovec *iov, int iovcnt)
{
	struct iovec v[64];
	size_t off = 0;		/* bytes of iov[0] already sent */

	while (iovcnt) {
		int nr = iovcnt < 64 ? iovcnt : 64;
		struct msghdr mh = { .msg_iov = v, .msg_iovlen = nr };
		ssize_t n;

		memcpy(v, iov, nr * sizeof(*v));
		v[0].iov_base = (char *)v[0].iov_base + off;
		v[0].iov_len -= off;
		n = sendmsg(fd, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		for (n += off, off = 0; iovcnt && (size_t)n >= iov->iov_len; iov++, iovcnt--)
			n -= iov->iov_len;
		off = n;
	}
	return 0;
}

void tn_send_timeout(int fd, int timeout_ms)
{
	struct timeval tv = { .tv_sec = timeout_ms / 1000, .tv_usec = timeout_ms % 1000 * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}
