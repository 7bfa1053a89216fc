// SPDX-License-Identifier: LGPL-2.1
/*
 * What the trace-cmd network client reads from a collector: framed messages (trace-net-msg.c)
 * and the RINIT ports in them. Input: a byte whose low 3 bits + 1 are the CPU count asked for,
 * then the bytes the collector sends, through a socket as they would come. Checks: a message
 * received stays inside the protocol's 8192 bytes; every port accepted is 1..65535; nothing
 * reads past what was received (the payload is copied into an exact allocation and its
 * strings walked there).
 */
#include <sys/socket.h>
#include <unistd.h>
#include <tracefs/trace-net-internal.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tn_msg m;
	unsigned int ports[8];
	uint32_t nr_cpus;
	int sv[2];

	if (size < 1 || size > 64 * 1024)
		return 0;
	fuzz__log_quietly();
	nr_cpus = (data[0] & 7) + 1;
	fuzz__check(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	fuzz__check(write(sv[1], data + 1, size - 1) == (ssize_t)(size - 1));
	close(sv[1]);
	while (tn_msg__recv(sv[0], &m, 0, "fuzz") == 0) {
		size_t len = m.fixed_len + m.data_len;
		struct tn_msg *exact;

		fuzz__check(TN_MSG_HDR_LEN + len <= TN_MSG_MAX_LEN);
		/* the message in an allocation of its exact size: an over-read shows */
		exact = malloc(offsetof(struct tn_msg, buf) + len);
		fuzz__check(exact);
		memcpy(exact, &m, offsetof(struct tn_msg, buf) + len);
		fuzz__sink += tn_msg__u32(exact, 0) + tn_msg__u32(exact, 2);
		if (tn_msg__ports(exact, nr_cpus, ports, "fuzz") == 0)
			for (uint32_t cpu = 0; cpu < nr_cpus; cpu++)
				fuzz__check(ports[cpu] >= 1 && ports[cpu] <= 65535);
		free(exact);
	}
	close(sv[0]);
	return 0;
}
