// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec script on what perf record (perf 6.1, under timeout) writes itself, against perf
 * script on the same files, line for line: tracepoints with their fields (sched, syscalls,
 * timer, kmem: libtraceevent's formats from the file's tracing data, kernel addresses as
 * perf resolves them), in the file and the pipe format; callchains of a program built here
 * with frame pointers; and each selection perf script users type (-C, --pid, --tid, --comm,
 * --time, -F, --ns) with the same arguments.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/perf-data-testlib.h"
#include "lib/script-testlib.h"
#include "lib/testlib.h"

/* perf record ARGS -o DIR/name; its path. */
static const char *perf_record(const char *name, const char *args)
{
	const char *path = path_in_dir(name);
	char *out;
	int rc;

	rc = testlib_perf(&out, "record -o %s %s", path, args);
	ck_assert_msg(rc == 0, "perf record %s: %d\n%s", args, rc, out);
	free(out);
	return path;
}

/* perf script's output of file (stderr left out), malloc'd. */
static char *perf_script(const char *file)
{
	char cmd[PATH_MAX + 64], *out;
	int rc;

	snprintf(cmd, sizeof(cmd), "timeout 60 perf script -i %s 2>/dev/null", file);
	out = command_output(&rc, cmd);
	ck_assert_int_eq(rc, 0);
	return out;
}

/* The line nr (0-based) of text, copied into line. */
static void nth_line(const char *text, int nr, char *line, size_t size)
{
	for (; nr > 0 && text; nr--) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	ck_assert_ptr_nonnull(text);
	snprintf(line, size, "%.*s", (int)strcspn(text, "\n"), text);
}

/* The time of a default-format line ("comm tid [cpu] 1234.567890: ..."), as printed. */
static void line_time(const char *line, char *time, size_t size)
{
	const char *cpu_end = strstr(line, "] ");

	ck_assert_ptr_nonnull(cpu_end);
	cpu_end += 2;
	while (*cpu_end == ' ')
		cpu_end++;
	snprintf(time, size, "%.*s", (int)strcspn(cpu_end, ":"), cpu_end);
}

/* The pid the workload wrote into script_dir/name (path_in_dir's buffer stays as it was). */
static int pid_in_file(const char *name)
{
	char path[PATH_MAX];
	FILE *f;
	int pid = 0;

	snprintf(path, sizeof(path), "%s/%s", script_dir, name);
	f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%d", &pid), 1);
	fclose(f);
	return pid;
}

/*
 * The whole system's scheduler, syscall, timer and allocation tracepoints while a
 * getppid loop and a cat run: every line the same, with the fields (not two tools showing
 * nothing alike), through the file and perf's pipe format.
 */
START_TEST(test_tracepoints_match_perf)
{
	static const char events[] = "-e sched:sched_switch -e sched:sched_wakeup "
		"-e syscalls:sys_enter_getppid -e syscalls:sys_enter_openat "
		"-e syscalls:sys_exit_openat -e timer:hrtimer_start -e kmem:kmalloc";
	char args[PATH_MAX + 512], cmd[2 * PATH_MAX + 700], *text;
	const char *file;
	int n;

	REQUIRE_PERF();
	snprintf(args, sizeof(args), "-a %s -- sh -c '%s 3000; cat /etc/hostname >/dev/null'",
		 events, testlib_prog("getppid-loop"));
	file = perf_record("tp.data", args);
	n = script_same_as_perf("-i %s", file);
	text = perf_script(file);
	ck_assert_int_ge(testlib_count_lines(text, "sys_enter_getppid: "), 3000);
	ck_assert_int_gt(testlib_count_lines(text, "sched:sched_switch: prev_comm="), 0);
	ck_assert_int_gt(testlib_count_lines(text, "filename: 0x"), 0);
	ck_assert_int_gt(testlib_count_lines(text, "kmem:kmalloc: call_site="), 0);
	ck_assert_int_gt(testlib_count_lines(text, "function="), 0);
	ck_assert_int_gt(n, 3000);
	free(text);

	snprintf(cmd, sizeof(cmd), "timeout 60 perf record -o - %s 2>/dev/null > %s/pipe.data",
		 args, script_dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_gt(script_same_as_perf("-i - < %s/pipe.data", script_dir), 3000);
}
END_TEST

/*
 * Each selection on the same recording, with perf script's own arguments: every line the
 * same, and fewer lines than the whole (not two tools ignoring the option alike).
 */
START_TEST(test_selection_matches_perf)
{
	char args[PATH_MAX + 256], first[256], last[256], t0[64], t1[64], *text;
	const char *file;
	int all, tid, n;

	REQUIRE_PERF();
	/* the loop's pid from itself: on a busy machine, other tests run getppid-loops too */
	snprintf(args, sizeof(args), "-a -e sched:sched_switch -e sched:sched_wakeup "
		 "-e syscalls:sys_enter_getppid -- sh -c 'echo $$ >%s; exec %s 2000'",
		 path_in_dir("loop.pid"), testlib_prog("getppid-loop"));
	file = perf_record("sel.data", args);
	text = perf_script(file);
	all = 0;
	for (const char *c = text; *c; c++)
		all += *c == '\n';
	ck_assert_int_gt(all, 2000);
	tid = pid_in_file("loop.pid");
	ck_assert_int_gt(tid, 0);
	nth_line(text, all / 3, first, sizeof(first));
	nth_line(text, 2 * all / 3, last, sizeof(last));
	line_time(first, t0, sizeof(t0));
	line_time(last, t1, sizeof(t1));
	free(text);

	n = script_same_as_perf("-i %s -C 0", file);
	ck_assert_int_lt(n, all);
	n = script_same_as_perf("-i %s --pid %d", file, tid);
	ck_assert(n >= 2000 && n < all);
	n = script_same_as_perf("-i %s --tid 0,%d", file, tid);
	ck_assert(n >= 2000 && n < all);
	n = script_same_as_perf("-i %s --comm getppid-loop,swapper", file);
	ck_assert(n >= 2000 && n < all);
	n = script_same_as_perf("-i %s --time %s,%s", file, t0, t1);
	ck_assert_msg(n > 0 && n < all - all / 3, "--time %s,%s: %d lines of %d", t0, t1, n, all);
	ck_assert_int_lt(script_same_as_perf("-i %s --time %s,", file, t0), all);
	ck_assert_int_lt(script_same_as_perf("-i %s --time ,%s", file, t1), all);
	ck_assert_int_eq(script_same_as_perf("-i %s --ns", file), all);
	script_same_as_perf("-i %s -F comm,pid,tid,cpu,time,event,trace", file);
	script_same_as_perf("-i %s -F comm,tid,time,event,trace,ip,sym,dso --ns", file);
	script_same_as_perf("-i %s -F -cpu,+pid", file);
	script_same_as_perf("-i %s -F trace:tid,event,trace", file);
}
END_TEST

/* leaf, called through mid and top from main, built with frame pointers. */
static const char chain_c[] =
	"#include <stdlib.h>\n"
	"volatile unsigned long sink;\n"
	"__attribute__((noinline)) void leaf(unsigned long n)\n"
	"{ for (unsigned long i = 0; i < n; i++) sink += i; }\n"
	"__attribute__((noinline)) void mid(unsigned long n) { leaf(n); sink++; }\n"
	"__attribute__((noinline)) void top(unsigned long n) { mid(n); sink++; }\n"
	"int main(int argc, char **argv) { top(strtoul(argv[1], 0, 0)); return 0; }\n";

/* Whether the line at line holds needle. */
static bool line_has(const char *line, const char *needle)
{
	const char *at = strstr(line, needle), *end = strchr(line, '\n');

	return at && (!end || at < end);
}

/* Whether text has a sample whose frames go leaf, mid, top, main. */
static bool has_chain(const char *text)
{
	static const char *const frames[] = { " leaf+0x", " mid+0x", " top+0x", " main+0x" };

	for (const char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *l = line;
		size_t i;

		for (i = 0; i < 4 && l && line_has(l, frames[i]); i++) {
			l = strchr(l, '\n');
			l = l ? l + 1 : NULL;
		}
		if (i == 4)
			return true;
	}
	return false;
}

/*
 * perf record -g of a program with a known chain, user and kernel frames: the same lines
 * (frames in their files' addresses, the context markers left out, a blank line after each
 * sample), and the program's chain among them.
 */
START_TEST(test_callchain_matches_perf)
{
	char cmd[PATH_MAX + 256], args[PATH_MAX + 128], *text;
	const char *file;

	REQUIRE_PERF();
	snprintf(cmd, sizeof(cmd), "cd %s && cat > chain.c <<'EOF'\n%sEOF\ngcc -O0 -g "
		 "-fno-omit-frame-pointer -o chain chain.c", script_dir, chain_c);
	if (system(cmd))
		TEST_SKIP("gcc cannot build the program");
	snprintf(args, sizeof(args), "-g -e cpu-clock -c 200000 -- %s/chain 100000000", script_dir);
	file = perf_record("cg.data", args);
	ck_assert_int_gt(script_same_as_perf("-i %s", file), 50);
	text = perf_script(file);
	ck_assert_msg(has_chain(text), "no leaf, mid, top, main chain in:\n%.3000s", text);
	free(text);
	script_same_as_perf("-i %s -F comm,tid,time,event,ip,sym,dso --ns", file);
	script_same_as_perf("-i %s -F +pid,-dso", file);
	script_same_as_perf("-i %s -F tid,ip", file);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("auxrec-script-perf");
	TCase *tc = tcase_create("perf");

	tcase_add_checked_fixture(tc, script_tmpdir_setup, script_tmpdir_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_tracepoints_match_perf);
	tcase_add_test(tc, test_selection_matches_perf);
	tcase_add_test(tc, test_callchain_matches_perf);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
