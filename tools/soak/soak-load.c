// SPDX-License-Identifier: LGPL-2.1
/*
 * The soak's load: soak-load getppid|marker SECONDS [BURST_MS PERIOD_MS]
 *
 * getppid: getppid() as fast as one thread can (the perf tracepoint's load).
 * marker:  lines "soak-marker <pid> <seq>" written to the top level's trace_marker as fast
 *          as one thread can (the ftrace load: an instance with copy_trace_marker gets a
 *          copy of each).
 *
 * Flat out for BURST_MS of every PERIOD_MS (default: all the time), idle in between: each
 * burst runs at the machine's full rate and overflows the recorder's rings, while the duty
 * cycle bounds what a long run writes. Ends after SECONDS or on SIGTERM/SIGINT and prints
 * "<mode> <count> <refused>": the calls made and, for markers, the writes the kernel refused
 * (they cannot be in any trace), so that the soak can hold every marker against the
 * recording and the losses it counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MARKER "/sys/kernel/tracing/trace_marker"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct load {
	double end;		/* when the run ends */
	double burst, period;	/* seconds; burst == period: no pause */
	double burst_end;	/* when the current burst ends */
	int marker_fd;		/* marker mode */
	long count, refused;
};

/*
 * Whether to go on, sleeping through the idle part of the period when a burst is over. The
 * clock is read every 256 calls, so it costs nothing worth counting.
 */
static bool load__running(struct load *l)
{
	double t;

	if (stop)
		return false;
	if ((l->count + l->refused) & 255)
		return true;
	t = now();
	if (t >= l->burst_end) {
		double next = l->burst_end - l->burst + l->period;

		if (next > t)
			nanosleep(&(struct timespec){ .tv_sec = (time_t)(next - t),
				  .tv_nsec = (long)((next - t - (time_t)(next - t)) * 1e9) }, NULL);
		l->burst_end = next + l->burst;
		t = now();
	}
	return !stop && t < l->end;
}

static void load__getppid(struct load *l)
{
	while (load__running(l)) {
		getppid();
		l->count++;
	}
}

/*
 * A write the kernel refuses (Linux 6.18 returns EBADF to a writer while another instance
 * turns copy_trace_marker on or off) is counted and the next line goes on.
 */
static int load__marker(struct load *l)
{
	char line[64];

	while (load__running(l)) {
		int len = snprintf(line, sizeof(line), "soak-marker %d %ld", (int)getpid(),
				   l->count + l->refused);

		if (write(l->marker_fd, line, len) == len) {
			l->count++;
		} else if (errno == EBADF) {
			l->refused++;
		} else {
			fprintf(stderr, "soak-load: writing %s: %s\n", MARKER, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 0, t = now();
	struct load l = { .end = t + secs, .marker_fd = -1 };
	bool marker = argc > 1 && !strcmp(argv[1], "marker");

	l.burst = argc > 4 ? atof(argv[3]) / 1e3 : secs;
	l.period = argc > 4 ? atof(argv[4]) / 1e3 : secs;
	l.burst_end = t + l.burst;
	if (!(secs > 0) || !(l.burst > 0) || l.period < l.burst || argc == 4 ||
	    (!marker && (argc < 2 || strcmp(argv[1], "getppid")))) {
		fprintf(stderr, "usage: soak-load getppid|marker SECONDS [BURST_MS PERIOD_MS]\n");
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (marker) {
		l.marker_fd = open(MARKER, O_WRONLY | O_CLOEXEC);
		if (l.marker_fd < 0) {
			fprintf(stderr, "soak-load: %s: %s\n", MARKER, strerror(errno));
			return 1;
		}
		if (load__marker(&l))
			return 1;
	} else {
		load__getppid(&l);
	}
	printf("%s %ld %ld\n", argv[1], l.count, l.refused);
	return 0;
}
