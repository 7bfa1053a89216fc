// SPDX-License-Identifier: LGPL-2.1
/* Start a command stopped, so that events can be opened on its pid before it runs. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

int workload__prepare(struct workload *w, char **argv)
{
	int go[2], err_pipe[2];
	char c;
	int err = 0;
	ssize_t n;

	sigset_t all, old;

	if (pipe2(go, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC))
		return -errno;
	/*
	 * auxrec's handlers are not the command's: until exec they would keep it alive. Held
	 * off across the fork, a signal reaches the child only once its handlers are reset.
	 */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	w->pid = fork();
	if (w->pid != 0)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (w->pid < 0)
		return -errno;
	if (w->pid == 0) {
		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[1]);
		close(err_pipe[0]);
		/* Wait for the parent: EOF or a byte both mean go. */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		execvp(argv[0], argv);
		err = errno;
		/* Tell the parent why exec failed; the pipe closes on a successful exec. */
		n = write(err_pipe[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(go[0]);
	close(err_pipe[1]);
	w->go_fd = go[1];
	w->exec_err_fd = err_pipe[0];
	w->exited = false;
	w->status = 0;
	return 0;
}

int workload__start(struct workload *w)
{
	int err = 0;
	ssize_t n;

	close(w->go_fd);
	w->go_fd = -1;
	n = read(w->exec_err_fd, &err, sizeof(err));
	close(w->exec_err_fd);
	w->exec_err_fd = -1;
	if (n == (ssize_t)sizeof(err))
		return -err;	/* exec failed: the child already exited with 127 */
	return 0;
}

bool workload__poll_exit(struct workload *w)
{
	int status;

	if (w->exited)
		return true;
	if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
		w->exited = true;
		w->status = status;
	}
	return w->exited;
}

/*
 * SIGTERM, and SIGKILL after a grace period: a workload that ignores SIGTERM must not keep
 * auxrec (and the recording it finalizes) waiting for ever.
 */
void workload__kill(struct workload *w)
{
	if (w->pid <= 0 || w->exited)
		return;
	kill(w->pid, SIGTERM);
	for (int waited_ms = 0; waited_ms < 2000; waited_ms += 10) {
		if (workload__poll_exit(w))
			return;
		usleep(10000);
	}
	fprintf(stderr, "auxrec: '%d' ignored SIGTERM for 2 s: killed\n", (int)w->pid);
	kill(w->pid, SIGKILL);
	if (waitpid(w->pid, &w->status, 0) == w->pid)
		w->exited = true;
}
