// SPDX-License-Identifier: LGPL-2.1
/*
 * Protocol version 3's framed messages on the control connection: a 12-byte header of
 * big-endian u32s (the whole message's size, the command, the size of the command's fixed
 * part), the fixed part (big-endian u32s), then the payload. trace-cmd listen drops a client
 * whose message is larger than 8192 bytes, so bulk data goes in SEND_DATA pieces of at most
 * 8180 bytes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include "trace-net-internal.h"

int tn_msg__send(int fd, uint32_t cmd, const void *fixed, uint32_t fixed_len,
		 const void *data, uint32_t data_len)
{
	uint32_t hdr[3] = { htonl(TN_MSG_HDR_LEN + fixed_len + data_len), htonl(cmd),
			    htonl(fixed_len) };
	struct iovec iov[3] = {
		{ hdr, sizeof(hdr) },
		{ (void *)fixed, fixed_len },
		{ (void *)data, data_len },
	};

	if (TN_MSG_HDR_LEN + fixed_len + data_len > TN_MSG_MAX_LEN)
		return -EMSGSIZE;
	return tn_writev(fd, iov, 3);
}

int tn_msg__recv(int fd, struct tn_msg *m, int timeout_ms, const char *who)
{
	uint32_t hdr[3], size;
	int err = tn_read(fd, hdr, sizeof(hdr), timeout_ms);

	if (err)
		return err;
	size = ntohl(hdr[0]);
	m->cmd = ntohl(hdr[1]);
	m->fixed_len = ntohl(hdr[2]);
	if (size < TN_MSG_HDR_LEN || size > TN_MSG_MAX_LEN || m->cmd >= TN_MSG_MAX ||
	    m->fixed_len > size - TN_MSG_HDR_LEN) {
		pr_err("trace-cmd collector %s sent a message trace-cmd never sends (size %u, command %u, fixed part %u): it does not speak trace-cmd's protocol version 3\n",
		       who, size, m->cmd, m->fixed_len);
		return -EPROTO;
	}
	m->data_len = size - TN_MSG_HDR_LEN - m->fixed_len;
	return tn_read(fd, m->buf, size - TN_MSG_HDR_LEN, timeout_ms);
}

uint32_t tn_msg__u32(const struct tn_msg *m, unsigned int n)
{
	uint32_t v;

	if ((n + 1) * 4 > m->fixed_len)
		return 0;
	memcpy(&v, m->buf + n * 4, 4);
	return ntohl(v);
}

int tn_msg__send_file(int sock, int fd, uint64_t len)
{
	char buf[TN_MSG_MAX_DATA];
	int err = 0;

	for (uint64_t at = 0; at < len && !err; ) {
		size_t want = len - at < sizeof(buf) ? len - at : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		err = tn_msg__send(sock, TN_MSG_SEND_DATA, NULL, 0, buf, (uint32_t)n);
		at += n;
	}
	return err ? err : tn_msg__send(sock, TN_MSG_FIN_DATA, NULL, 0, NULL, 0);
}

int tn_msg__ports(const struct tn_msg *m, uint32_t nr_cpus, unsigned int *ports, const char *who)
{
	const char *p = (const char *)m->buf + m->fixed_len, *end = p + m->data_len;

	/* trace-cmd's own check: a payload that ends in a NUL, so every string ends in it */
	if (m->cmd != TN_MSG_RINIT || tn_msg__u32(m, 0) != nr_cpus || !m->data_len || end[-1]) {
		pr_err("trace-cmd collector %s answered the setup of %u CPUs with message %u (%u CPUs) instead of their ports: is it a trace-cmd listen server (3.x)?\n",
		       who, nr_cpus, m->cmd, tn_msg__u32(m, 0));
		return -EPROTO;
	}
	for (uint32_t cpu = 0; cpu < nr_cpus; cpu++, p += strlen(p) + 1) {
		long port = p < end ? atol(p) : 0;

		if (port < 1 || port > 65535) {
			pr_err("trace-cmd collector %s gave no valid port for CPU %u\n", who, cpu);
			return -EPROTO;
		}
		ports[cpu] = (unsigned int)port;
	}
	return 0;
}
