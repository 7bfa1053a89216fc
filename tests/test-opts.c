// SPDX-License-Identifier: LGPL-2.1
/*
 * The one rule for option structs (AUXTRACE_OPTS in auxtrace/core.h), at every entry point
 * that takes a caller's *_opts: a newer caller's larger struct with a byte set past what
 * this library knows is refused with EINVAL and a message naming the struct; the same
 * struct with those bytes 0 works; so does an older caller's smaller one, whose memory past
 * its sz the library neither needs nor touches; an sz that cannot hold sz is refused.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <auxtrace/auxtrace-record.h>
#include <auxtrace/intel-bts-decode.h>
#include <auxtrace/intel-pt-decode.h>
#include <auxtrace/itrace.h>
#include <auxtrace/machine.h>
#include <auxtrace/parse-events.h>
#include <auxtrace/perf-data.h>
#include <auxtrace/ring-set.h>
#include <auxtrace/session.h>
#include <auxtrace/synthesize.h>
#include <tracefs/trace-dat.h>
#include <tracefs.h>

#include "lib/log-capture.h"
#include "lib/perf-data-file.h"
#include "lib/testlib.h"

/* A caller's struct of any version: this build's, then room for a later one's fields. */
union caller_opts {
	max_align_t align;
	unsigned char bytes[1024];
};

/* The return of a call that made an object: 0, or -errno as the library left it. */
static int made(void *obj)
{
	return obj ? 0 : -errno;
}

static int call_ring_set__new(void *opts)
{
	struct ring_set *set = ring_set__new(opts);
	int err = made(set);

	ring_set__delete(set);
	return err;
}

/* A memfd holding the smallest perf.data: one attr, no records. */
static int perf_data_memfd(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_type = PERF_SAMPLE_IP,
	};
	uint64_t id = 1;
	int fd = memfd_create("opts", MFD_CLOEXEC);
	struct pd_file *f;

	ck_assert_int_ge(fd, 0);
	f = pd_file__new(fd, false);
	pd_file__add_attr(f, &attr, &id, 1);
	pd_file__start(f);
	pd_file__finish(f, false);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static int call_perf_session__new_fd(void *opts)
{
	int fd = perf_data_memfd();
	struct perf_session *s = perf_session__new_fd(fd, opts);
	int err = made(s);

	perf_session__delete(s);
	close(fd);
	return err;
}

static int call_perf_session__new(void *opts)
{
	int fd = perf_data_memfd();
	char path[64];
	struct perf_session *s;
	int err;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = perf_session__new(path, opts);
	err = made(s);
	perf_session__delete(s);
	close(fd);
	return err;
}

/* One cpu-clock evsel, not opened: what the writer and the synthesizer take. */
static struct evlist *one_event(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER,
	};
	struct evlist *evlist = evlist__new();

	ck_assert_int_eq(evlist__add(evlist, evsel__new(&attr)), 0);
	return evlist;
}

static int call_perf_data_writer__new(void *opts)
{
	struct evlist *evlist = one_event();
	int fd = memfd_create("opts", MFD_CLOEXEC);
	struct perf_data_writer *w = perf_data_writer__new(fd, evlist, opts);
	int err = made(w);

	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
	return err;
}

static int call_perf_event__synthesize_thread(void *opts)
{
	struct evlist *evlist = one_event();
	struct ring_sink_fd sink;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC), err;

	ring_sink_fd__init(&sink, fd);
	err = perf_event__synthesize_thread(evlist, getpid(), false, opts, &sink.sink);
	close(fd);
	evlist__delete(evlist);
	return err;
}

static int call_perf_machine__new(void *opts)
{
	struct perf_machine *m = perf_machine__new(opts);
	int err = made(m);

	perf_machine__delete(m);
	return err;
}

static int call_intel_pt_decoder__new(void *opts)
{
	struct auxtrace_decode_opts *o = opts;
	struct auxtrace_image *image = auxtrace_image__new();
	struct intel_pt_decoder *dec;
	int err;

	o->image = image;	/* Intel PT needs the code that ran; an empty image will do */
	dec = intel_pt_decoder__new(opts);
	err = made(dec);
	intel_pt_decoder__delete(dec);
	auxtrace_image__delete(image);
	return err;
}

static int call_intel_bts_decoder__new(void *opts)
{
	struct intel_bts_decoder *dec = intel_bts_decoder__new(opts);
	int err = made(dec);

	intel_bts_decoder__delete(dec);
	return err;
}

static int call_parse_events__attr(void *opts)
{
	struct parse_events_event ev;
	struct parse_events_error perr;
	int err = parse_events__attr("cpu-clock", opts, &ev, &perr);

	/* the refusal is in the parse error too, where a caller of this API looks */
	if (err == -EINVAL)
		ck_assert_msg(strstr(perr.msg, "struct parse_events_opts") &&
			      perr.idx == -1, "%d: %s", perr.idx, perr.msg);
	return err;
}

static int call_parse_events(void *opts)
{
	struct evlist *evlist = evlist__new();
	int err = parse_events(evlist, "cpu-clock", opts, NULL);

	evlist__delete(evlist);
	return err;
}

static int call_itrace_do_parse_synth_opts(void *opts)
{
	return itrace_do_parse_synth_opts(opts, "b", 0);
}

static int call_itrace_synth_opts__set_default(void *opts)
{
	return itrace_synth_opts__set_default(opts, true);
}

static int call_itrace_synth_opts__snprint(void *opts)
{
	char buf[64];
	int n = itrace_synth_opts__snprint(opts, buf, sizeof(buf));

	return n < 0 ? n : 0;
}

static int call_auxtrace_opts__parse_mmap_pages(void *opts)
{
	return auxtrace_opts__parse_mmap_pages(opts, "16,64K");
}

/* A backend of hooks alone: what the option calls hand it is this build's whole struct. */
static int fake_snapshot_options(struct auxtrace_record *itr, struct auxtrace_opts *opts,
				 const char *str)
{
	(void)itr, (void)str;
	ck_assert_uint_eq(opts->sz, sizeof(*opts));
	opts->auxtrace_snapshot_mode = true;
	opts->privileged = true;	/* the last field: an older caller has no room for it */
	return 0;
}

static int fake_recording_options(struct auxtrace_record *itr, struct evlist *evlist,
				  struct auxtrace_opts *opts)
{
	(void)itr, (void)evlist;
	ck_assert_uint_eq(opts->sz, sizeof(*opts));
	opts->mmap_pages = 4;
	opts->privileged = true;
	return 0;
}

static int call_auxtrace_opts__parse_snapshot(void *opts)
{
	struct auxtrace_record itr = { .parse_snapshot_options = fake_snapshot_options };

	return auxtrace_opts__parse_snapshot(&itr, opts, "e");
}

static int call_auxtrace_record__options(void *opts)
{
	struct auxtrace_record itr = { .recording_options = fake_recording_options };
	struct evlist *evlist = evlist__new();
	int err = auxtrace_record__options(&itr, evlist, opts);

	evlist__delete(evlist);
	return err;
}

static int call_trace_dat_writer__new(void *opts)
{
	char name[64], dir[] = "/tmp/test-opts-XXXXXX", path[64];
	struct tracefs_instance *inst;
	struct trace_dat_writer *w;
	int err;

	testlib_instance_name(name, sizeof(name));
	inst = tracefs_instance_create(name);
	ck_assert_ptr_nonnull(inst);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	w = trace_dat_writer__new(path, inst, opts);
	err = made(w);
	trace_dat_writer__delete(w);	/* unfinished: nothing stays in dir */
	ck_assert_int_eq(rmdir(dir), 0);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return err;
}

struct entry {
	const char *name;		/* the entry point */
	const char *type;		/* "struct <its opts>", as the message names it */
	size_t size;			/* sizeof that struct in this build */
	size_t older;			/* an older caller's sz: all but the last field */
	int (*call)(void *opts);	/* the entry point on opts: 0 or -errno */
	bool tracefs;			/* needs root and a mounted tracefs */
};

#define ENTRY(fn, TYPE, last, ...)						\
	{ #fn, "struct " #TYPE, sizeof(struct TYPE), offsetof(struct TYPE, last),	\
	  call_##fn, ##__VA_ARGS__ }

static const struct entry entries[] = {
	ENTRY(ring_set__new, ring_set_opts, round_ms),
	ENTRY(perf_session__new_fd, perf_session_opts, itrace_synth_opts),
	ENTRY(perf_session__new, perf_session_opts, itrace_synth_opts),
	ENTRY(perf_data_writer__new, perf_data_writer_opts, no_build_ids),
	ENTRY(perf_event__synthesize_thread, perf_synth_opts, mmap_data),
	ENTRY(perf_machine__new, perf_machine_opts, debug_dir),
	ENTRY(intel_pt_decoder__new, auxtrace_decode_opts, insn_period_ticks),
	ENTRY(intel_bts_decoder__new, auxtrace_decode_opts, insn_period_ticks),
	ENTRY(parse_events__attr, parse_events_opts, ctx),
	ENTRY(parse_events, parse_events_opts, ctx),
	ENTRY(itrace_do_parse_synth_opts, itrace_synth_opts, log_on_error_size),
	ENTRY(itrace_synth_opts__set_default, itrace_synth_opts, log_on_error_size),
	ENTRY(itrace_synth_opts__snprint, itrace_synth_opts, log_on_error_size),
	ENTRY(auxtrace_opts__parse_mmap_pages, auxtrace_opts, privileged),
	ENTRY(auxtrace_opts__parse_snapshot, auxtrace_opts, privileged),
	ENTRY(auxtrace_record__options, auxtrace_opts, privileged),
	ENTRY(trace_dat_writer__new, trace_dat_writer_opts, mode, true),
};

#define NR_ENTRIES ((int)(sizeof(entries) / sizeof(entries[0])))

/* Bytes of a newer caller's struct past this build's: a field or two of a later release. */
#define NEWER_BYTES 16

/* Call e with a struct of sz bytes, all 0 past sz but set_at (when not 0), with the log
 * captured. */
static int entry__call(const struct entry *e, size_t sz, size_t set_at)
{
	union caller_opts o;
	int err;

	memset(&o, 0, sizeof(o));
	memcpy(o.bytes, &sz, sizeof(sz));
	if (set_at)
		o.bytes[set_at] = 1;
	log_capture_start();
	err = e->call(&o);
	log_capture_stop();
	return err;
}

static bool entry__skip(const struct entry *e)
{
	return e->tracefs && (!testlib_is_root() || !testlib_tracefs());
}

START_TEST(test_newer_caller_with_unknown_fields_refused)
{
	const struct entry *e = &entries[_i];
	int err;

	if (entry__skip(e))
		TEST_SKIP("%s needs root and a mounted tracefs", e->name);
	/* the first byte this library does not know, and the last of the newer struct */
	for (size_t at = e->size; at < e->size + NEWER_BYTES; at += NEWER_BYTES - 1) {
		err = entry__call(e, e->size + NEWER_BYTES, at);
		ck_assert_msg(err == -EINVAL, "%s, byte %zu set: %d", e->name, at, err);
		ck_assert_msg(log_captured(e->type) &&
			      log_captured("built against a newer libauxtrace"),
			      "%s: %s", e->name, log_text);
	}
}
END_TEST

START_TEST(test_newer_caller_with_zero_tail_works)
{
	const struct entry *e = &entries[_i];
	int err;

	if (entry__skip(e))
		TEST_SKIP("%s needs root and a mounted tracefs", e->name);
	err = entry__call(e, e->size + NEWER_BYTES, 0);
	ck_assert_msg(!err, "%s: %d: %s", e->name, err, log_text);
}
END_TEST

START_TEST(test_older_caller_works)
{
	const struct entry *e = &entries[_i];
	union caller_opts o;
	int err;

	if (entry__skip(e))
		TEST_SKIP("%s needs root and a mounted tracefs", e->name);
	/* what lies past an older caller's struct is someone else's: poison it */
	memset(&o, 0x5a, sizeof(o));
	memset(o.bytes, 0, e->older);
	memcpy(o.bytes, &e->older, sizeof(e->older));
	log_capture_start();
	err = e->call(&o);
	log_capture_stop();
	ck_assert_msg(!err, "%s: %d: %s", e->name, err, log_text);
	for (size_t i = e->older; i < sizeof(o); i++)
		ck_assert_msg(o.bytes[i] == 0x5a, "%s wrote byte %zu of a %zu-byte struct",
			      e->name, i, e->older);
}
END_TEST

START_TEST(test_unsized_refused)
{
	const struct entry *e = &entries[_i];

	if (entry__skip(e))
		TEST_SKIP("%s needs root and a mounted tracefs", e->name);
	/* sz 0 (never set), and an sz that does not even hold sz */
	for (size_t sz = 0; sz < sizeof(size_t); sz += sizeof(size_t) - 1) {
		int err = entry__call(e, sz, 0);

		ck_assert_msg(err == -EINVAL, "%s, sz %zu: %d", e->name, sz, err);
		ck_assert_msg(log_captured(e->type) && log_captured("AUXTRACE_OPTS"),
			      "%s: %s", e->name, log_text);
	}
}
END_TEST

/* What the macro declares: sz set, the fields given, every other byte 0 (padding too). */
START_TEST(test_macro)
{
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .argc = 2, .no_build_ids = true);
	AUXTRACE_OPTS(ring_set_opts, plain);
	struct perf_data_writer_opts want;

	ck_assert_uint_eq(opts.sz, sizeof(opts));
	ck_assert_int_eq(opts.argc, 2);
	ck_assert(opts.no_build_ids);
	memset(&want, 0, sizeof(want));
	want.sz = sizeof(want);
	want.argc = 2;
	want.no_build_ids = true;
	ck_assert_int_eq(memcmp(&opts, &want, sizeof(opts)), 0);
	ck_assert_uint_eq(plain.sz, sizeof(plain));
	ck_assert(!plain.pass_done && !plain.ctx && !plain.round_ms);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("opts");
	TCase *tc = tcase_create("rule");

	tcase_add_loop_test(tc, test_newer_caller_with_unknown_fields_refused, 0, NR_ENTRIES);
	tcase_add_loop_test(tc, test_newer_caller_with_zero_tail_works, 0, NR_ENTRIES);
	tcase_add_loop_test(tc, test_older_caller_works, 0, NR_ENTRIES);
	tcase_add_loop_test(tc, test_unsized_refused, 0, NR_ENTRIES);
	tcase_add_test(tc, test_macro);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
