// SPDX-License-Identifier: LGPL-2.1
/*
 * A workload with known ftrace events: marker-getppid N M [BYTES] writes N lines
 * "auxtrace-marker <i>" (padded to BYTES with '.') to the top level's trace_marker, then
 * makes M getppid() calls.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, m = argc > 2 ? atol(argv[2]) : 10;
	size_t bytes = argc > 3 ? (size_t)atol(argv[3]) : 0;
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
	char line[4096];

	if (fd < 0) {
		perror("trace_marker");
		return 1;
	}
	if (bytes >= sizeof(line))
		bytes = sizeof(line) - 1;
	for (long i = 0; i < n; i++) {
		int len = snprintf(line, sizeof(line), "auxtrace-marker %ld ", i);

		while ((size_t)len < bytes)
			line[len++] = '.';
		if (write(fd, line, len) != len) {
			perror("trace_marker");
			return 1;
		}
	}
	close(fd);
	for (long i = 0; i < m; i++)
		getppid();
	return 0;
}
