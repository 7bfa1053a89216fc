// SPDX-License-Identifier: LGPL-2.1
/*
 * Whatever ends auxrec record short of SIGKILL, it finalizes what it captured and leaves no
 * tracing state behind. So the handlers go in before anything is created, every signal
 * whose default would kill us becomes a stop request, and the session checks the request
 * between its setup steps as well as in its loop. A signal ignored when we started (nohup
 * ignores SIGHUP) stays ignored, but for SIGINT and SIGTERM, which perf record always
 * catches: a shell starts a script's background job with SIGINT ignored, and scripts stop
 * a background recording with kill -INT. A second request aborts: the final drain stops
 * after the ring it is in, but the files are still finished so that the readers accept them.
 */
#include <signal.h>
#include <string.h>

#include <auxtrace/ring-set.h>
#include "record.h"

static volatile sig_atomic_t stop_requests;
static volatile sig_atomic_t snapshot_requests;
static volatile sig_atomic_t snapshot_signal;	/* SIGUSR2 takes snapshots (-S) */
static volatile sig_atomic_t switch_requests;
static volatile sig_atomic_t switch_signal;	/* SIGUSR2 switches (--switch-output) */
static volatile sig_atomic_t stop_signal;	/* the first signal that asked us to stop */
static struct ring_set *volatile signal_set;

/* Signals whose default action ends the process, and that a handler may catch. */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGVTALRM,
	SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL, SIGSYS,
};

static void record__on_signal(int sig)
{
	struct ring_set *set = signal_set;

	/* as perf: with both, the snapshot goes into the piece the switch then ends */
	if (sig == SIGUSR2 && (snapshot_signal || switch_signal)) {
		snapshot_requests += snapshot_signal;
		switch_requests += switch_signal;
	} else if (sig != SIGCHLD) {
		if (!stop_requests++)
			stop_signal = sig;
	}
	/* wake the loop: it resumes after a snapshot or a child that did not end it */
	if (set)
		ring_set__stop(set);
}

int record__install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record__on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction old;

		/* ignored when we started (nohup's SIGHUP): it stays ignored */
		if (sigaction(stop_signals[i], NULL, &old) < 0)
			return -1;
		if (old.sa_handler == SIG_IGN && stop_signals[i] != SIGINT &&
		    stop_signals[i] != SIGTERM)
			continue;
		if (sigaction(stop_signals[i], &sa, NULL) < 0)
			return -1;
	}
	/* a workload that exits wakes the loop; restarting keeps our own system calls simple */
	sa.sa_flags = SA_NOCLDSTOP;
	return sigaction(SIGCHLD, &sa, NULL);
}

void record__signals_wake(struct ring_set *set)
{
	signal_set = set;
	/* a request that came before the set existed must still end its first poll */
	if (set && (stop_requests || snapshot_requests || switch_requests))
		ring_set__stop(set);
}

void record__signals_take_snapshots(bool on)
{
	snapshot_signal = on;
}

void record__signals_switch_output(bool on)
{
	switch_signal = on;
}

bool record__stop_requested(void)
{
	return stop_requests > 0;
}

bool record__abort_requested(void)
{
	return stop_requests > 1;
}

int record__stop_signal(void)
{
	return stop_signal;
}

/* Requests that came while one was served count once: a piece per burst of signals. */
static bool record__take_request(volatile sig_atomic_t *requests)
{
	if (!*requests)
		return false;
	*requests = 0;
	return true;
}

bool record__take_snapshot_request(void)
{
	return record__take_request(&snapshot_requests);
}

bool record__take_switch_request(void)
{
	return record__take_request(&switch_requests);
}
