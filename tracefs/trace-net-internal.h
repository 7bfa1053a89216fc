/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Private to the trace-cmd network client (tracefs/trace-net-*.c, trace-dat-net.c): sockets
 * with bounded waits, and the framed messages of protocol version 3.
 */
#ifndef AUXTRACE_TRACEFS_TRACE_NET_INTERNAL_H
#define AUXTRACE_TRACEFS_TRACE_NET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

/* ---- trace-net-socket.c: connections whose every wait has a deadline ---- */

/*
 * Resolve where ("HOST:PORT", "[V6]:PORT" or "PORT" on localhost) and connect to it over TCP
 * within timeout_ms. The fd, with *addr the address it reached (for the data connections),
 * or -errno with a message naming where: -EINVAL, -EHOSTUNREACH, -ECONNREFUSED, -ETIMEDOUT.
 */
int tn_connect(const char *where, int timeout_ms, struct sockaddr_storage *addr,
	       socklen_t *addr_len);
/* Connect to addr with port, within timeout_ms. The fd or -errno (not logged). */
int tn_connect_port(const struct sockaddr_storage *addr, socklen_t addr_len, unsigned int port,
		    int timeout_ms);
/*
 * Exactly len bytes, each wait at most timeout_ms. 0, -ETIMEDOUT, -EPIPE (the peer hung up),
 * -ECONNRESET (it reset the connection), -errno.
 */
int tn_read(int fd, void *buf, size_t len, int timeout_ms);
/* All of iov, never raising SIGPIPE; sends time out per the socket's SO_SNDTIMEO. 0 or -errno. */
int tn_writev(int fd, const struct iovec *iov, int iovcnt);
/* Give every send of fd a deadline of timeout_ms (SO_SNDTIMEO). */
void tn_send_timeout(int fd, int timeout_ms);

/* ---- trace-net-msg.c: protocol version 3's messages ---- */

enum {
	TN_MSG_CLOSE		= 0,
	TN_MSG_TINIT		= 1,
	TN_MSG_RINIT		= 2,
	TN_MSG_SEND_DATA	= 3,
	TN_MSG_FIN_DATA		= 4,
	TN_MSG_NOT_SUPP		= 5,
	TN_MSG_MAX		= 12,	/* the first number no message has */
};

/* The largest message, header included, and so the most a SEND_DATA carries. */
#define TN_MSG_MAX_LEN		8192u
#define TN_MSG_HDR_LEN		12u
#define TN_MSG_MAX_DATA		(TN_MSG_MAX_LEN - TN_MSG_HDR_LEN)

struct tn_msg {
	uint32_t cmd;
	uint32_t fixed_len;		/* of the command's fixed part at buf */
	uint32_t data_len;		/* of the payload after it */
	unsigned char buf[TN_MSG_MAX_LEN];
};

/*
 * Send one message: the header (size, cmd, fixed part's size, big-endian), the fixed part,
 * the payload. 0 or -errno.
 */
int tn_msg__send(int fd, uint32_t cmd, const void *fixed, uint32_t fixed_len,
		 const void *data, uint32_t data_len);
/*
 * Receive one message within timeout_ms. 0, or -errno: -EPROTO for a header no trace-cmd
 * sends (a size below the header or above TN_MSG_MAX_LEN, an unknown command), logged with
 * who sent it; -ETIMEDOUT, -EPIPE, -ECONNRESET, socket errors.
 */
int tn_msg__recv(int fd, struct tn_msg *m, int timeout_ms, const char *who);
/* The fixed part's n-th big-endian u32 (0 past its end). */
uint32_t tn_msg__u32(const struct tn_msg *m, unsigned int n);
/*
 * RINIT's nr_cpus ports (decimal strings, each NUL-terminated) into ports. 0, or -EPROTO for
 * another message, another CPU count or a port outside 1..65535, logged with who sent it.
 */
int tn_msg__ports(const struct tn_msg *m, uint32_t nr_cpus, unsigned int *ports, const char *who);
/* Send the bytes of fd from offset 0 to len as SEND_DATA messages, then FIN_DATA. 0, -errno. */
int tn_msg__send_file(int sock, int fd, uint64_t len);

#endif
