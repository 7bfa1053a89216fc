// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script's ftrace formatter (tools/auxrec/script-ftrace.c) as the merged stream will
 * call it, one record at a time: on a recording auxrec makes (sched_switch, getppid's
 * syscalls, trace_marker writes), its lines are those `auxrec script FILE` prints (which
 * test-auxrec-script-ftrace.sh holds to trace-cmd report), and with SCRIPT_FTRACE_MARK each is
 * "ftrace: " followed by that same line.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs/trace-dat-reader.h>
#include "tools/auxrec/script-ftrace.h"
#include "tools/auxrec/script-line.h"
#include "lib/testlib.h"

static char dir[64];

static void tmpdir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/auxtrace-ftrace-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void tmpdir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* $B/NAME as an absolute path */
static const char *built(const char *name, char *buf)
{
	const char *b = getenv("B");
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/%s", b && *b ? b : "build", name);
	ck_assert_ptr_nonnull(realpath(rel, buf));
	return buf;
}

/* Every record of path through a fresh reader and formatter, one line each, into out. */
static void format_file(const char *path, unsigned int flags, const char *out)
{
	struct trace_dat_reader *r = trace_dat_reader__open(path);
	struct script_line *l = calloc(1, sizeof(*l));
	const struct trace_dat_record *rec;
	struct trace_dat_cursor *c;
	struct script_ftrace *f;
	FILE *o = fopen(out, "w");

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_nonnull(o);
	f = script_ftrace__new(r, flags);
	ck_assert_ptr_nonnull(f);
	c = trace_dat_cursor__new(r, -1);
	ck_assert_ptr_nonnull(c);
	while ((rec = trace_dat_cursor__next(c))) {
		script_ftrace__line(f, rec, l);
		ck_assert_int_eq(script_line__write(l, o), 0);
	}
	ck_assert_int_eq(errno, 0);
	ck_assert_int_eq(fclose(o), 0);
	trace_dat_cursor__delete(c);
	script_ftrace__delete(f);
	trace_dat_reader__close(r);
	free(l);
}

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

START_TEST(test_lines_and_mark)
{
	char auxrec[PATH_MAX], workload[PATH_MAX];

	TEST_REQUIRE_ROOT();
	if (!testlib_tracefs())
		TEST_SKIP("tracefs is not mounted");
	run("timeout 60 %s record -o %s/rec -e dummy --ftrace sched:sched_switch "
	    "--ftrace syscalls:sys_enter_getppid --ftrace syscalls:sys_exit_getppid "
	    "--ftrace ftrace:print -- %s 50 500 >/dev/null 2>&1",
	    built("auxrec", auxrec), dir, built("tests/progs/marker-getppid", workload));
	run("timeout 60 %s script %s/rec/trace.dat | tail -n +2 > %s/script.txt",
	    auxrec, dir, dir);
	run("grep -q sys_exit_getppid %s/script.txt", dir);
	run("grep -q 'tracing_mark_write: auxtrace-marker 49' %s/script.txt", dir);

	char path[128], plain[128], marked[128];

	snprintf(path, sizeof(path), "%s/rec/trace.dat", dir);
	snprintf(plain, sizeof(plain), "%s/plain.txt", dir);
	snprintf(marked, sizeof(marked), "%s/marked.txt", dir);
	format_file(path, 0, plain);
	format_file(path, SCRIPT_FTRACE_MARK, marked);
	/* one record at a time, as auxrec script prints the file */
	run("cmp %s %s/script.txt", plain, dir);
	/* every marked line is the prefix, then the plain line */
	run("sed 's/^/" SCRIPT_FTRACE_PREFIX "/' %s | cmp - %s", plain, marked);
	run("grep -v '^" SCRIPT_FTRACE_PREFIX "' %s | wc -l | grep -qx 0", marked);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("script-ftrace");
	TCase *tc = tcase_create("lines");

	tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_lines_and_mark);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
