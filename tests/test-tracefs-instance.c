// SPDX-License-Identifier: LGPL-2.1
/*
 * Tracing instances and their configuration files, event enabling, and the libtraceevent
 * handle from tracefs_local_events(), on the real tracefs. Every test makes its own instance
 * and checks the top level is left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tracefs.h>
#include "lib/log-capture.h"
#include "lib/testlib.h"

/* Under LeakSanitizer: libtraceevent 1.7 leaks a few bytes parsing some kernel formats. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static char name[128];
static struct tracefs_instance *inst;

#define SETUP()									\
	do {									\
		if (!testlib_is_root() || !testlib_tracefs())			\
			TEST_SKIP("needs root and a mounted tracefs");		\
		testlib_instance_name(name, sizeof(name));			\
		inst = tracefs_instance_create(name);				\
		ck_assert_ptr_nonnull(inst);					\
	} while (0)

static void teardown(void)
{
	ck_assert_int_eq(tracefs_instance_destroy(inst), 0);
	ck_assert(!tracefs_instance_exists(name));
	tracefs_instance_free(inst);
}

START_TEST(test_tracing_dir)
{
	const char *dir = tracefs_tracing_dir();
	char *file;

	if (!testlib_tracefs())
		TEST_SKIP("needs a mounted tracefs");
	ck_assert_ptr_nonnull(dir);
	ck_assert_str_eq(dir, testlib_tracefs());
	ck_assert_ptr_eq(tracefs_tracing_dir(), dir);		/* found once */
	file = tracefs_get_tracing_file("trace_pipe");
	ck_assert_ptr_nonnull(file);
	ck_assert(!access(file, F_OK));
	tracefs_put_tracing_file(file);
}
END_TEST

START_TEST(test_create_attach_destroy)
{
	struct tracefs_instance *again;
	char *dir, *file;

	SETUP();
	ck_assert(tracefs_instance_is_new(inst));
	ck_assert(tracefs_instance_exists(name));
	ck_assert_str_eq(tracefs_instance_get_name(inst), name);
	ck_assert_str_eq(tracefs_instance_get_trace_dir(inst), tracefs_tracing_dir());
	dir = tracefs_instance_get_dir(inst);
	ck_assert_ptr_nonnull(strstr(dir, name));
	file = tracefs_instance_get_file(inst, "trace");
	ck_assert(!strncmp(file, dir, strlen(dir)));
	tracefs_put_tracing_file(file);
	tracefs_put_tracing_file(dir);

	again = tracefs_instance_create(name);			/* attaches: not new */
	ck_assert_ptr_nonnull(again);
	ck_assert(!tracefs_instance_is_new(again));
	tracefs_instance_free(again);

	ck_assert_ptr_null(tracefs_instance_get_name(NULL));	/* the top level */
	ck_assert_ptr_null(tracefs_instance_create("a/b"));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tracefs_instance_destroy(NULL), -EINVAL);
	teardown();
}
END_TEST

/*
 * Exclusive creation never takes over: an instance that exists (with an event enabled)
 * gives EEXIST, quietly, and is left as it was; a free name is created and is new.
 */
START_TEST(test_create_exclusive)
{
	struct tracefs_instance *mine;
	char other[128];
	long long on = 0;

	SETUP();
	ck_assert_int_eq(tracefs_event_enable(inst, "sched", "sched_switch"), 0);
	log_capture_start();
	assert_null_errno(tracefs_instance_create_exclusive(name), EEXIST);
	log_capture_stop();
	ck_assert_msg(!log_text[0], "EEXIST is the caller's to handle, not logged: %s", log_text);
	ck_assert(tracefs_instance_exists(name));
	ck_assert_int_eq(tracefs_instance_file_read_number(inst, "events/sched/sched_switch/enable",
							   &on), 0);
	ck_assert_int_eq(on, 1);
	testlib_instance_name(other, sizeof(other));
	mine = tracefs_instance_create_exclusive(other);
	ck_assert_ptr_nonnull(mine);
	ck_assert(tracefs_instance_is_new(mine));
	ck_assert_int_eq(tracefs_instance_destroy(mine), 0);
	tracefs_instance_free(mine);
	assert_null_errno(tracefs_instance_create_exclusive(NULL), EINVAL);	/* the top level */
	assert_null_errno(tracefs_instance_create_exclusive(".."), EINVAL);
	ck_assert_int_eq(tracefs_event_disable(inst, "sched", "sched_switch"), 0);
	teardown();
}
END_TEST

/* An open CPU buffer keeps the instance: destroy says EBUSY until it is closed. */
START_TEST(test_destroy_busy_while_open)
{
	struct tracefs_cpu *tcpu;

	SETUP();
	tcpu = tracefs_cpu_open_mapped(inst, 0, true);
	ck_assert_ptr_nonnull(tcpu);
	ck_assert_int_eq(tracefs_instance_destroy(inst), -EBUSY);
	ck_assert_int_eq(errno, EBUSY);
	tracefs_cpu_close(tcpu);
	teardown();
}
END_TEST

START_TEST(test_file_read_write)
{
	long long val;
	char *text;
	int size = 0, fd;

	SETUP();
	ck_assert_int_eq(tracefs_instance_file_write(inst, "buffer_percent", "17"), 2);
	text = tracefs_instance_file_read(inst, "buffer_percent", &size);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "17\n");
	ck_assert_int_eq(size, 3);
	free(text);
	ck_assert_int_eq(tracefs_instance_file_read_number(inst, "buffer_percent", &val), 0);
	ck_assert_int_eq(val, 17);
	ck_assert_ptr_null(tracefs_instance_file_read(inst, "no-such-file", NULL));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(tracefs_instance_file_write(inst, "no-such-file", "1"), -ENOENT);
	fd = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY);
	ck_assert_int_ge(fd, 0);
	close(fd);
	/* event formats are big: reading grows past the first buffer */
	text = tracefs_instance_file_read(NULL, "available_events", &size);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_gt(size, 4096);
	ck_assert_int_eq((int)strlen(text), size);
	free(text);
	teardown();
}
END_TEST

START_TEST(test_buffer_configuration)
{
	long long top_kb, top_sub;

	SETUP();
	ck_assert_int_eq(tracefs_instance_file_read_number(NULL, "buffer_size_kb", &top_kb), 0);
	ck_assert_int_eq(tracefs_instance_file_read_number(NULL, "buffer_subbuf_size_kb", &top_sub), 0);

	/* the kernel rounds up to whole sub-buffers of data */
	ck_assert_int_eq(tracefs_instance_set_buffer_size(inst, 96, -1), 0);
	ck_assert_int_ge(tracefs_instance_get_buffer_size(inst, -1), 96);
	ck_assert_int_lt(tracefs_instance_get_buffer_size(inst, -1), 96 + 4);
	ck_assert_int_eq(tracefs_instance_get_buffer_size(inst, 0),
			 tracefs_instance_get_buffer_size(inst, -1));
	ck_assert_int_eq(tracefs_instance_set_buffer_size(inst, 48, 0), 0);
	ck_assert_int_ge(tracefs_instance_get_buffer_size(inst, 0), 48);
	ck_assert_int_lt(tracefs_instance_get_buffer_size(inst, 0), 48 + 4);

	ck_assert_int_eq(tracefs_instance_set_subbuf_size(inst, 8), 0);
	ck_assert_int_eq(tracefs_instance_get_subbuf_size(inst), 8);

	ck_assert_int_eq(tracefs_instance_set_buffer_percent(inst, 0), 0);
	ck_assert_int_eq(tracefs_instance_get_buffer_percent(inst), 0);
	ck_assert_int_eq(tracefs_instance_set_buffer_percent(inst, 101), -EINVAL);

	ck_assert_int_eq(tracefs_trace_is_on(inst), 1);
	ck_assert_int_eq(tracefs_trace_off(inst), 0);
	ck_assert_int_eq(tracefs_trace_is_on(inst), 0);
	ck_assert_int_eq(tracefs_trace_on(inst), 0);
	ck_assert_int_eq(tracefs_trace_is_on(inst), 1);

	/* none of it reached the top level */
	ck_assert_int_eq(tracefs_instance_get_buffer_size(NULL, -1), top_kb);
	ck_assert_int_eq(tracefs_instance_get_subbuf_size(NULL), top_sub);
	teardown();
}
END_TEST

START_TEST(test_clock)
{
	char *clock, *top = tracefs_get_clock(NULL);

	SETUP();
	ck_assert_ptr_nonnull(top);
	ck_assert_int_eq(tracefs_instance_set_clock(inst, "mono"), 0);
	clock = tracefs_get_clock(inst);
	ck_assert_str_eq(clock, "mono");
	free(clock);
	ck_assert_int_eq(tracefs_instance_set_clock(inst, "no-such-clock"), -EINVAL);
	clock = tracefs_get_clock(NULL);
	ck_assert_str_eq(clock, top);
	free(clock);
	free(top);
	teardown();
}
END_TEST

/* Markers go into the buffer; clear empties it. */
START_TEST(test_clear)
{
	char *text;
	int fd;

	SETUP();
	fd = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY);
	ck_assert_int_eq(write(fd, "cleared-marker", 14), 14);
	close(fd);
	text = tracefs_instance_file_read(inst, "trace", NULL);
	ck_assert_ptr_nonnull(strstr(text, "cleared-marker"));
	free(text);
	ck_assert_int_eq(tracefs_instance_clear(inst), 0);
	text = tracefs_instance_file_read(inst, "trace", NULL);
	ck_assert_ptr_null(strstr(text, "cleared-marker"));
	free(text);
	teardown();
}
END_TEST

static bool enabled(struct tracefs_instance *in, const char *file)
{
	char *text = tracefs_instance_file_read(in, file, NULL);
	bool on;

	ck_assert_ptr_nonnull(text);
	on = text[0] == '1';
	free(text);
	return on;
}

START_TEST(test_event_enable_disable)
{
	const char *file = "events/syscalls/sys_enter_getppid/enable";
	char *path;
	bool top_on;

	SETUP();
	path = tracefs_instance_get_file(inst, file);
	top_on = !access(path, F_OK);
	tracefs_put_tracing_file(path);
	if (!top_on) {
		teardown();
		TEST_SKIP("no syscalls:sys_enter_getppid tracepoint (CONFIG_FTRACE_SYSCALLS)");
	}
	top_on = enabled(NULL, file);
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", "sys_enter_getppid"), 0);
	ck_assert(enabled(inst, file));
	ck_assert_int_eq(enabled(NULL, file), top_on);		/* the instance only */
	ck_assert_int_eq(tracefs_event_disable(inst, "syscalls", "sys_enter_getppid"), 0);
	ck_assert(!enabled(inst, file));
	/* libtracefs: -1 when nothing matched; a NULL system means every system */
	errno = 0;
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", "no_such_event"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(tracefs_event_enable(inst, NULL, "sys_enter_getppid"), 0);
	ck_assert(enabled(inst, file));
	ck_assert_int_eq(tracefs_event_disable(inst, NULL, "sys_enter_getppid"), 0);
	ck_assert(!enabled(inst, file));
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", NULL), 0);
	ck_assert(enabled(inst, file));
	ck_assert_int_eq(tracefs_event_disable(inst, NULL, NULL), 0);
	ck_assert(!enabled(inst, file));
	teardown();
}
END_TEST

static bool syscall_tracepoints(void)
{
	char *path = tracefs_instance_get_file(inst, "events/syscalls/sys_enter_getppid/enable");
	bool there = !access(path, F_OK);

	tracefs_put_tracing_file(path);
	return there;
}

/* libtracefs' matching: anchored regular expressions, any case, NULL for all. */
START_TEST(test_event_enable_regex)
{
	static const char *const getp[] = { "getpid", "getppid", "getpgid" };
	char file[128];
	bool on[3];

	SETUP();
	if (!syscall_tracepoints()) {
		teardown();
		TEST_SKIP("no syscalls tracepoints (CONFIG_FTRACE_SYSCALLS)");
	}
	ck_assert_int_eq(tracefs_event_enable(inst, "SYSCALLS", "sys_enter_getp[p]*id"), 0);
	for (int i = 0; i < 3; i++) {
		snprintf(file, sizeof(file), "events/syscalls/sys_enter_%s/enable", getp[i]);
		on[i] = enabled(inst, file);
	}
	ck_assert(on[0] && on[1] && !on[2]);
	/* anchored at both ends: a part of a name matches nothing */
	errno = 0;
	ck_assert_int_eq(tracefs_event_disable(inst, "syscalls", "getppid"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(tracefs_event_disable(inst, "^sys.*s$", "sys_enter_getppid$"), 0);
	ck_assert(!enabled(inst, "events/syscalls/sys_enter_getppid/enable"));
	ck_assert(enabled(inst, "events/syscalls/sys_enter_getpid/enable"));
	/* a system alone: its own switch */
	ck_assert_int_eq(tracefs_event_enable(inst, "OO.", NULL), 0);
	ck_assert(enabled(inst, "events/oom/enable"));
	errno = 0;
	ck_assert_int_eq(tracefs_event_enable(inst, "sys[", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tracefs_event_disable(inst, NULL, NULL), 0);
	ck_assert(!enabled(inst, "events/oom/enable"));
	ck_assert(!enabled(inst, "events/syscalls/sys_enter_getpid/enable"));
	teardown();
}
END_TEST

/*
 * No name a caller passes leads out of the instance (auxrec's --ftrace
 * '../../../events/syscalls:sys_enter_getppid' once enabled the top-level event). The top
 * level is put back before asserting, so that a failure leaves nothing enabled.
 */
START_TEST(test_names_cannot_leave_instance)
{
	const char *top_file = "events/syscalls/sys_enter_getppid/enable";
	int ev_up, ev_dot, file_up, file_abs;
	bool top_before, top_after;
	char *path;

	SETUP();
	if (!syscall_tracepoints()) {
		teardown();
		TEST_SKIP("no syscalls tracepoints (CONFIG_FTRACE_SYSCALLS)");
	}
	top_before = enabled(NULL, top_file);
	errno = 0;
	ev_up = tracefs_event_enable(inst, "../../../events/syscalls", "sys_enter_getppid") == -1 &&
		errno == EINVAL;
	errno = 0;
	ev_dot = tracefs_event_enable(inst, "..", NULL) == -1 && errno == EINVAL;
	file_up = tracefs_instance_file_write(inst, "../../events/syscalls/sys_enter_getppid/enable",
					      "1");
	file_abs = tracefs_instance_file_write(inst, "/proc/self/comm", "x");
	top_after = enabled(NULL, top_file);
	if (top_after != top_before)
		tracefs_instance_file_write(NULL, top_file, top_before ? "1" : "0");
	ck_assert(top_after == top_before);
	ck_assert(ev_up && ev_dot);
	ck_assert_int_eq(file_up, -EINVAL);
	ck_assert_int_eq(file_abs, -EINVAL);
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", "."), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", "sys_enter_getppid/.."), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_lt(tracefs_instance_file_open(inst, "events/../../../trace", O_RDONLY), 0);
	ck_assert_int_eq(errno, EINVAL);
	assert_null_errno(tracefs_instance_file_read(inst, "..", NULL), EINVAL);
	assert_null_errno(tracefs_get_tracing_file("instances/../../x"), EINVAL);
	/* a name with dots is still a name */
	path = tracefs_instance_get_file(inst, "events/..x/.enable..");
	ck_assert_ptr_nonnull(path);
	tracefs_put_tracing_file(path);

	assert_null_errno(tracefs_instance_create(".."), EINVAL);
	assert_null_errno(tracefs_instance_create("."), EINVAL);
	assert_null_errno(tracefs_instance_create(""), EINVAL);
	assert_null_errno(tracefs_instance_create("../x"), EINVAL);
	assert_null_errno(tracefs_instance_alloc(NULL, ".."), EINVAL);
	ck_assert(!tracefs_instance_exists(".."));
	ck_assert(!tracefs_instance_exists("."));
	teardown();
}
END_TEST

/* tracefs_instance_alloc: a handle on what exists, in the tracing directory given. */
START_TEST(test_instance_alloc)
{
	char tmp[] = "/tmp/auxtrace-tracing-XXXXXX", path[256];
	struct tracefs_instance *again, *top, *fake;
	char *dir;
	FILE *f;

	SETUP();
	again = tracefs_instance_alloc(NULL, name);
	ck_assert_ptr_nonnull(again);
	ck_assert(!tracefs_instance_is_new(again));
	ck_assert_str_eq(tracefs_instance_get_name(again), name);
	ck_assert_int_eq(tracefs_instance_set_buffer_percent(again, 23), 0);
	ck_assert_int_eq(tracefs_instance_get_buffer_percent(inst), 23);
	tracefs_instance_free(again);
	assert_null_errno(tracefs_instance_alloc(NULL, "auxtrace-test-no-such-instance"), ENOENT);
	assert_null_errno(tracefs_instance_alloc("/nonexistent-tracing-dir", NULL), ENOENT);

	top = tracefs_instance_alloc(NULL, NULL);	/* the top level, as a handle */
	ck_assert_ptr_nonnull(top);
	ck_assert_ptr_null(tracefs_instance_get_name(top));
	ck_assert_str_eq(tracefs_instance_get_trace_dir(top), tracefs_tracing_dir());
	dir = tracefs_instance_get_dir(top);
	ck_assert_str_eq(dir, tracefs_tracing_dir());
	tracefs_put_tracing_file(dir);
	ck_assert_int_eq(tracefs_instance_destroy(top), -EINVAL);
	tracefs_instance_free(top);
	ck_assert_ptr_null(tracefs_instance_get_trace_dir(NULL));

	/* another tracing directory: files are read there */
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s/instances", tmp);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/instances/other", tmp);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/instances/other/buffer_percent", tmp);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("42\n", f);
	fclose(f);
	fake = tracefs_instance_alloc(tmp, "other");
	ck_assert_ptr_nonnull(fake);
	ck_assert_str_eq(tracefs_instance_get_trace_dir(fake), tmp);
	ck_assert_int_eq(tracefs_instance_get_buffer_percent(fake), 42);
	tracefs_instance_free(fake);
	unlink(path);
	snprintf(path, sizeof(path), "%s/instances/other", tmp);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/instances", tmp);
	rmdir(path);
	rmdir(tmp);
	teardown();
}
END_TEST

/* libtracefs: a NULL name is the top level, which exists and cannot be destroyed. */
START_TEST(test_create_null_is_top_level)
{
	struct tracefs_instance *top;

	if (!testlib_is_root() || !testlib_tracefs())
		TEST_SKIP("needs root and a mounted tracefs");
	top = tracefs_instance_create(NULL);
	ck_assert_ptr_nonnull(top);
	ck_assert(!tracefs_instance_is_new(top));
	ck_assert_ptr_null(tracefs_instance_get_name(top));
	ck_assert_int_eq(tracefs_instance_get_buffer_size(top, -1),
			 tracefs_instance_get_buffer_size(NULL, -1));
	ck_assert_int_eq(tracefs_instance_destroy(top), -EINVAL);
	tracefs_instance_free(top);
}
END_TEST

/* Whether saved_cmdlines has pid. */
static bool saved_comm(int pid)
{
	char *text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL), key[32];
	bool found;

	ck_assert_ptr_nonnull(text);
	snprintf(key, sizeof(key), "\n%d ", pid);
	found = strstr(text, key) || !strncmp(text, key + 1, strlen(key + 1));
	free(text);
	return found;
}

/* Like libtracefs', the handle knows the comms of saved_cmdlines without being asked. */
START_TEST(test_local_events_know_comms)
{
	struct tep_handle *tep;

	SETUP();
	if (!syscall_tracepoints()) {
		teardown();
		TEST_SKIP("no syscalls tracepoints (CONFIG_FTRACE_SYSCALLS)");
	}
	/* an enabled event records the comm of its task at the next switch away from it */
	ck_assert_int_eq(tracefs_event_enable(inst, "syscalls", "sys_enter_getppid"), 0);
	for (int i = 0; i < 20 && !saved_comm(getpid()); i++) {
		syscall(SYS_getppid);
		usleep(1000);
	}
	ck_assert_int_eq(tracefs_event_disable(inst, NULL, NULL), 0);
	ck_assert(saved_comm(getpid()));
	tep = tracefs_local_events(NULL);
	ck_assert_ptr_nonnull(tep);
	ck_assert(tep_is_pid_registered(tep, getpid()));
	tep_free(tep);
	teardown();
}
END_TEST

/* The handle prints a trace_marker event read from the instance, with its text. */
START_TEST(test_local_events_print_marker)
{
	struct tep_handle *tep;
	struct tracefs_cpu *tcpu;
	struct kbuffer *kb;
	struct tep_record rec = { 0 };
	struct trace_seq seq;
	unsigned long long ts;
	int fd;

	SETUP();
	ck_assert_int_eq(testlib_pin_cpu(0), 0);
	tep = tracefs_local_events(NULL);
	ck_assert_ptr_nonnull(tep);
	ck_assert_ptr_nonnull(tep_find_event_by_name(tep, "ftrace", "print"));
	ck_assert_int_eq(tracefs_load_cmdlines(NULL, tep), 0);
	fd = tracefs_instance_file_open(inst, "trace_marker", O_WRONLY);
	ck_assert_int_eq(write(fd, "hello from the test", 19), 19);
	close(fd);
	tcpu = tracefs_cpu_open_mapped(inst, 0, true);
	kb = tracefs_cpu_read_buf(tcpu, true);
	ck_assert_ptr_nonnull(kb);
	rec.data = kbuffer_read_event(kb, &ts);
	ck_assert_ptr_nonnull(rec.data);
	rec.ts = ts;
	rec.size = kbuffer_event_size(kb);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	ck_assert_ptr_nonnull(strstr(seq.buffer, "print: "));
	ck_assert_ptr_nonnull(strstr(seq.buffer, "hello from the test"));
	trace_seq_destroy(&seq);
	tracefs_cpu_close(tcpu);
	tep_free(tep);
	teardown();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tracefs-instance");
	TCase *tc = tcase_create("instance");

	tcase_add_test(tc, test_tracing_dir);
	tcase_add_test(tc, test_create_attach_destroy);
	tcase_add_test(tc, test_create_exclusive);
	tcase_add_test(tc, test_destroy_busy_while_open);
	tcase_add_test(tc, test_file_read_write);
	tcase_add_test(tc, test_buffer_configuration);
	tcase_add_test(tc, test_clock);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_event_enable_disable);
	tcase_add_test(tc, test_event_enable_regex);
	tcase_add_test(tc, test_names_cannot_leave_instance);
	tcase_add_test(tc, test_instance_alloc);
	tcase_add_test(tc, test_create_null_is_top_level);
	tcase_add_test(tc, test_local_events_know_comms);
	tcase_add_test(tc, test_local_events_print_marker);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
