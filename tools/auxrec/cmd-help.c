// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec help [COMMAND]: the command's manual page, auxrec-COMMAND(1) (auxrec(1) without
 * one), shown by man, as perf help record shows perf-record(1). When man or the page is
 * missing the command's usage is printed instead, after saying so: help always says
 * something, and fails only for a command that does not exist.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "commands.h"
#include "error.h"

extern char **environ;

/* man-db's status for "no such page" (man(1), EXIT STATUS). */
#define MAN_EXIT_NOT_FOUND 16

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * man looks first where this auxrec's own pages are: PREFIX/share/man beside PREFIX/bin
 * when installed, and build/man beside build/auxrec in the build tree, so that the page
 * shown is the one of this version even when auxrec is not on PATH. A MANPATH the user set
 * is searched after them; none set, man's own search path is (the trailing colon).
 */
static void help__set_manpath(void)
{
	static const char *const beside[] = { "man", "../share/man" };
	char exe[PATH_MAX], dir[PATH_MAX + 16], *manpath = NULL, *slash;
	const char *old = getenv("MANPATH");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool found = false;
	size_t len;
	FILE *f;

	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash || !(f = open_memstream(&manpath, &len)))
		return;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", exe, beside[i]);
		if (is_dir(dir)) {
			fprintf(f, "%s:", dir);
			found = true;
		}
	}
	fputs(old ? old : "", f);
	if (!fclose(f) && found)
		setenv("MANPATH", manpath, 1);
	free(manpath);
}

/* man PAGE: 0 once it was shown; otherwise why not has been said. */
static int help__man(const char *page)
{
	char *args[] = { "man", (char *)page, NULL };
	int status, err;
	pid_t pid;

	help__set_manpath();
	err = posix_spawnp(&pid, "man", NULL, NULL, args, environ);
	if (err) {
		auxrec_error("cannot run man to show %s(1): %s", page, strerror(err));
		return -err;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == MAN_EXIT_NOT_FOUND)
		auxrec_error("man has no page %s(1): make install puts the pages under "
			     "PREFIX/share/man, make man builds them into build/man (MANPATH "
			     "names other places to look)", page);
	else
		auxrec_error("man %s failed (%s %d)", page,
			     WIFEXITED(status) ? "exit status" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -ENOENT;
}

int cmd_help(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	auxrec_cmd_fn run = NULL;
	char page[64];

	if (argc > 2 || (cmd && *cmd == '-')) {
		bool asked = argc == 2 && (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"));

		fputs("usage: auxrec help [COMMAND]\n", asked ? stdout : stderr);
		return asked ? 0 : 2;
	}
	/* help's own page is auxrec(1), which lists every command */
	if (cmd && !strcmp(cmd, "help"))
		cmd = NULL;
	if (cmd && !(run = auxrec_command(cmd)))
		return auxrec_unknown_command(cmd);
	snprintf(page, sizeof(page), "auxrec%s%s", cmd ? "-" : "", cmd ? cmd : "");
	if (!help__man(page))
		return 0;
	fprintf(stderr, "auxrec: the usage instead:\n");
	if (!cmd) {
		auxrec_usage(stdout);
		return 0;
	}
	return run(2, (char *[]){ (char *)cmd, "-h", NULL });
}
