// SPDX-License-Identifier: LGPL-2.1
/* auxrec script beside perf script (script-testlib.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script-testlib.h"

char script_dir[64];

void script_tmpdir_setup(void)
{
	snprintf(script_dir, sizeof(script_dir), "/tmp/auxtrace-script-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(script_dir));
}

void script_tmpdir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), getenv("KEEP") ? "echo %s" : "rm -rf %s", script_dir);
	ck_assert_int_eq(system(cmd), 0);
}

const char *path_in_dir(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", script_dir, name);
	return path;
}

/* A shell command's standard output (malloc'd); the exit status in *rc. */
char *command_output(int *rc, const char *cmd)
{
	char *out = NULL;
	size_t cap = 0, len = 0;
	FILE *p = popen(cmd, "r");

	ck_assert_ptr_nonnull(p);
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			out = realloc(out, cap);
			ck_assert_ptr_nonnull(out);
		}
		size_t n = fread(out + len, 1, cap - len - 1, p);

		if (!n)
			break;
		len += n;
	}
	out[len] = '\0';
	*rc = pclose(p);
	return out;
}

/* The path of $B/auxrec, found once, before a test leaves the source directory. */
const char *auxrec_path(void)
{
	static char path[PATH_MAX];
	const char *b = getenv("B");
	char rel[PATH_MAX];

	if (!path[0]) {
		snprintf(rel, sizeof(rel), "%s/auxrec", b && *b ? b : "build");
		ck_assert_ptr_nonnull(realpath(rel, path));
	}
	return path;
}

/* "timeout 60 $B/auxrec ARGS" with stderr merged; the exit status in *rc. */
char *auxrec(int *rc, const char *fmt, ...)
{
	char args[1024], cmd[PATH_MAX + 1100];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "timeout 60 %s %s 2>&1", auxrec_path(), args);
	return command_output(rc, cmd);
}

/* Every line the same; on a difference, the first line that differs. */
void assert_same_text(const char *ours, const char *theirs)
{
	int line = 1;

	while (*ours && *ours == *theirs) {
		line += *ours == '\n';
		ours++;
		theirs++;
	}
	ck_assert_msg(!*ours && !*theirs, "line %d differs:\n auxrec: %.200s\n perf:   %.200s",
		      line, ours, theirs);
}


int script_same_as_perf(const char *fmt, ...)
{
	char args[1024], cmd[PATH_MAX + 1100], *ours, *theirs;
	int rc, lines = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "timeout 60 %s script %s 2>/dev/null", auxrec_path(), args);
	ours = command_output(&rc, cmd);
	ck_assert_msg(rc == 0, "auxrec script %s: status %d\n%.2000s", args, rc, ours);
	snprintf(cmd, sizeof(cmd), "timeout 60 perf script %s 2>/dev/null", args);
	theirs = command_output(&rc, cmd);
	ck_assert_msg(rc == 0, "perf script %s: status %d", args, rc);
	if (strcmp(ours, theirs))
		fprintf(stderr, "script %s:\n", args);
	assert_same_text(ours, theirs);
	for (const char *p = ours; *p; p++)
		lines += *p == '\n';
	free(ours);
	free(theirs);
	return lines;
}
