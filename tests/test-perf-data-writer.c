// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf.data writer byte by byte: the file and pipe layouts, the records it writes, the
 * feature payloads, what it refuses and why, and the state it leaves after failures. (What
 * perf 6.1 makes of the files: test-perf-data-perf.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <auxtrace/mmap.h>
#include <auxtrace/perf-data.h>
#include <auxtrace/synthesize.h>
#include <internal/lib.h>
#include "data/perf-data-buf.h"
#include "data/perf-data-internal.h"
#include "lib/log-capture.h"
#include "lib/perf-data-testlib.h"
#include "lib/testlib.h"

static char dir[64];
static char file[128];

static void tmpdir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/auxtrace-pdw-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/perf.data", dir);
}

static void tmpdir_teardown(void)
{
	unlink(file);
	rmdir(dir);
}

static int open_file(void)
{
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* A sampling event and a tracking dummy on this process, opened and mapped, not sampling. */
static struct evlist *self_evlist(void)
{
	struct perf_thread_map *threads = perf_thread_map__new_tid(getpid());
	struct evlist *evlist = testlib_sampling_evlist(threads, 1000000000, true);

	perf_thread_map__put(threads);
	ck_assert_msg(evlist, "cpu-clock on this process: %s", strerror(errno));
	return evlist;
}

static struct evsel *evlist__at(struct evlist *evlist, int i)
{
	struct evsel *evsel = evlist__first(evlist);

	while (i--)
		evsel = evlist__next(evlist, evsel);
	return evsel;
}

/* The file as written, with its header. */
struct pdfile {
	unsigned char *buf;
	size_t len;
	struct perf_file_header hdr;
};

static void pdfile__load(struct pdfile *f)
{
	f->buf = testlib_slurp(file, &f->len);
	ck_assert_ptr_nonnull(f->buf);
	ck_assert_uint_ge(f->len, sizeof(f->hdr));
	memcpy(&f->hdr, f->buf, sizeof(f->hdr));
}

static bool pdfile__has(const struct pdfile *f, int feat)
{
	return f->hdr.adds_features[feat / 64] & (1ULL << (feat % 64));
}

/* Feature feat's payload, NULL when absent; the table lists the set bits in order. */
static const unsigned char *pdfile__feature(const struct pdfile *f, int feat, uint64_t *size)
{
	const struct perf_file_section *table =
		(const void *)(f->buf + f->hdr.data.offset + f->hdr.data.size);
	int i = 0;

	if (!pdfile__has(f, feat))
		return NULL;
	for (int b = 1; b < feat; b++)
		i += pdfile__has(f, b);
	ck_assert_uint_le(table[i].offset + table[i].size, f->len);
	*size = table[i].size;
	return f->buf + table[i].offset;
}

/* A feature string: u32 length (a multiple of 64), NUL-terminated text. */
static const char *feature_string(const unsigned char *p, uint64_t size)
{
	uint32_t len;

	memcpy(&len, p, 4);
	ck_assert_uint_eq(len % PERF_DATA_NAME_ALIGN, 0);
	ck_assert_uint_le(4 + len, size);
	ck_assert_ptr_nonnull(memchr(p + 4, '\0', len));
	return (const char *)p + 4;
}

static void pdfile__free(struct pdfile *f)
{
	free(f->buf);
}

/* Records of one type in a data section. */
struct record_pick {
	uint32_t type;
	int nr;
	const union perf_event *ev[64];
};

static int record_pick__add(void *ctx, const union perf_event *ev)
{
	struct record_pick *p = ctx;

	if (ev->header.type == p->type && p->nr < 64)
		p->ev[p->nr++] = ev;
	return 0;
}

static int pick(const void *data, uint64_t size, uint32_t type, struct record_pick *p)
{
	p->type = type;
	p->nr = 0;
	ck_assert_int_gt(testlib_walk_records(data, size, record_pick__add, p), 0);
	return p->nr;
}

START_TEST(test_file_layout)
{
	struct evlist *evlist = self_evlist();
	const char *argv[] = { "myrec", "record", "-e", "cpu-clock" };
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .argc = 4, .argv = argv);
	const struct perf_file_attr *attrs;
	struct perf_data_writer_stats st;
	struct perf_data_writer *w;
	struct record_pick p;
	struct pdfile f;
	struct utsname u;
	const unsigned char *sec;
	uint64_t size, id, end = 0;
	uint32_t nr;
	int fd = open_file();

	w = perf_data_writer__new(fd, evlist, &opts);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_data_writer__write_prologue(w, NULL), 0);
	ck_assert_int_eq(perf_data_writer__write_finished_init(w), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	st = *perf_data_writer__stats(w);
	ck_assert(st.finished);
	ck_assert_uint_eq(st.events, 2);	/* ID_INDEX and FINISHED_INIT */
	perf_data_writer__delete(w);
	close(fd);

	pdfile__load(&f);
	ck_assert_uint_eq(f.hdr.magic, PERF_DATA_MAGIC);
	ck_assert_uint_eq(f.hdr.size, sizeof(struct perf_file_header));
	ck_assert_uint_eq(f.hdr.attr_size, sizeof(struct perf_file_attr));
	/* IDs right after the header, then the attrs, then the data. */
	ck_assert_uint_eq(f.hdr.attrs.offset, sizeof(f.hdr) + 2 * sizeof(uint64_t));
	ck_assert_uint_eq(f.hdr.attrs.size, 2 * sizeof(struct perf_file_attr));
	ck_assert_uint_eq(f.hdr.data.offset, f.hdr.attrs.offset + f.hdr.attrs.size);
	ck_assert_uint_eq(f.hdr.data.offset, st.data_offset);
	ck_assert_uint_eq(f.hdr.data.size, st.data_size);
	attrs = (const void *)(f.buf + f.hdr.attrs.offset);
	for (int i = 0; i < 2; i++) {
		struct evsel *evsel = evlist__at(evlist, i);

		ck_assert_mem_eq(&attrs[i].attr.sample_type, &evsel__attr(evsel)->sample_type, 8);
		ck_assert_uint_eq(attrs[i].attr.config, evsel__attr(evsel)->config);
		ck_assert_uint_eq(attrs[i].attr.size, sizeof(struct perf_event_attr));
		ck_assert_uint_eq(attrs[i].ids.size, sizeof(uint64_t));
		ck_assert_int_eq(evsel__id(evsel, 0, 0, &id), 0);
		ck_assert_mem_eq(f.buf + attrs[i].ids.offset, &id, sizeof(id));
	}

	/* ID_INDEX: each ID's ring (idx 0: the one thread), any CPU, this thread. */
	ck_assert_int_eq(pick(f.buf + f.hdr.data.offset, f.hdr.data.size, PERF_RECORD_ID_INDEX,
			      &p), 1);
	ck_assert_uint_eq(p.ev[0]->id_index.nr, 2);
	for (int i = 0; i < 2; i++) {
		const struct perf_record_id_index_entry *e = &p.ev[0]->id_index.entries[i];

		ck_assert_int_eq(evsel__id(evlist__at(evlist, i), 0, 0, &id), 0);
		ck_assert_uint_eq(e->id, id);
		ck_assert_uint_eq(e->idx, 0);
		ck_assert_int_eq((int64_t)e->cpu, -1);
		ck_assert_int_eq((int64_t)e->tid, getpid());
	}
	ck_assert_int_eq(pick(f.buf + f.hdr.data.offset, f.hdr.data.size,
			      PERF_RECORD_FINISHED_INIT, &p), 1);

	/* Features: what a perf user reads in --header-only, in bit order, up to the end. */
	ck_assert_int_eq(uname(&u), 0);
	sec = pdfile__feature(&f, HEADER_HOSTNAME, &size);
	ck_assert_ptr_nonnull(sec);
	ck_assert_str_eq(feature_string(sec, size), u.nodename);
	sec = pdfile__feature(&f, HEADER_OSRELEASE, &size);
	ck_assert_str_eq(feature_string(sec, size), u.release);
	sec = pdfile__feature(&f, HEADER_ARCH, &size);
	ck_assert_str_eq(feature_string(sec, size), u.machine);
	sec = pdfile__feature(&f, HEADER_VERSION, &size);
	ck_assert(!strncmp(feature_string(sec, size), "libauxtrace ", 12));
	ck_assert_str_eq(feature_string(sec, size) + 12, libauxtrace_version());
	sec = pdfile__feature(&f, HEADER_NRCPUS, &size);
	ck_assert_uint_eq(size, 8);
	memcpy(&nr, sec + 4, 4);
	ck_assert_int_eq(nr, testlib_nr_online_cpus());
	memcpy(&nr, sec, 4);
	ck_assert_int_ge(nr, testlib_nr_online_cpus());
	sec = pdfile__feature(&f, HEADER_CMDLINE, &size);
	memcpy(&nr, sec, 4);
	ck_assert_uint_eq(nr, 4);
	ck_assert_str_eq(feature_string(sec + 4, size - 4), "myrec");
	sec = pdfile__feature(&f, HEADER_EVENT_DESC, &size);
	memcpy(&nr, sec, 4);
	ck_assert_uint_eq(nr, 2);
	memcpy(&nr, sec + 4, 4);
	ck_assert_uint_eq(nr, sizeof(struct perf_event_attr));
	sec += 8 + sizeof(struct perf_event_attr);
	memcpy(&nr, sec, 4);
	ck_assert_uint_eq(nr, 1);			/* cpu-clock:u's one ID */
	ck_assert_str_eq(feature_string(sec + 4, size), "cpu-clock:u");
	ck_assert(pdfile__has(&f, HEADER_PMU_MAPPINGS));
	ck_assert(pdfile__has(&f, HEADER_TOTAL_MEM));
	ck_assert(pdfile__has(&f, HEADER_CPUDESC));
	ck_assert(!pdfile__has(&f, HEADER_AUXTRACE));	/* no AUX data */
	ck_assert(!pdfile__has(&f, HEADER_CLOCKID));	/* the events use perf's clock */
	ck_assert(!pdfile__has(&f, HEADER_TRACING_DATA));
	for (int b = 1; b < HEADER_LAST_FEATURE; b++)
		if (pdfile__feature(&f, b, &size) && pdfile__feature(&f, b, &size) + size > f.buf + end)
			end = (uint64_t)(pdfile__feature(&f, b, &size) - f.buf) + size;
	ck_assert_uint_eq(end, f.len);
	pdfile__free(&f);
	evlist__delete(evlist);
}
END_TEST

/* A record of the pipe format: its header and where the next one starts. */
static const union perf_event *pipe_next(const unsigned char *buf, size_t len, size_t *pos)
{
	const union perf_event *ev = (const void *)(buf + *pos);

	ck_assert_uint_ge(len - *pos, sizeof(ev->header));
	ck_assert_uint_ge(ev->header.size, sizeof(ev->header));
	ck_assert_uint_eq(ev->header.size % 8, 0);
	*pos += ev->header.size;
	ck_assert_uint_le(*pos, len);
	return ev;
}

START_TEST(test_pipe_layout)
{
	struct evlist *evlist = self_evlist();
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .pipe = true);
	struct perf_data_writer_stats st;
	const union perf_event *ev;
	struct perf_data_writer *w;
	struct utsname u;
	uint64_t id, last_feat = 0;
	size_t pos = sizeof(struct perf_pipe_file_header);
	struct pdfile f;
	int fd = open_file(), feats = 0, nrcpus = 0;

	w = perf_data_writer__new(fd, evlist, &opts);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_data_writer__write_prologue(w, NULL), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	st = *perf_data_writer__stats(w);
	perf_data_writer__delete(w);
	close(fd);
	f.buf = testlib_slurp(file, &f.len);
	ck_assert_ptr_nonnull(f.buf);
	ck_assert_uint_eq(((const struct perf_pipe_file_header *)f.buf)->magic, PERF_DATA_MAGIC);
	ck_assert_uint_eq(((const struct perf_pipe_file_header *)f.buf)->size, 16);

	/* One HEADER_ATTR per evsel: the attr, then its IDs. */
	for (int i = 0; i < 2; i++) {
		ev = pipe_next(f.buf, f.len, &pos);
		ck_assert_uint_eq(ev->header.type, PERF_RECORD_HEADER_ATTR);
		ck_assert_uint_eq(ev->header.size, 8 + sizeof(struct perf_event_attr) + 8);
		ck_assert_int_eq(evsel__id(evlist__at(evlist, i), 0, 0, &id), 0);
		ck_assert_mem_eq((const char *)ev + 8 + sizeof(struct perf_event_attr), &id, 8);
	}
	/* The features as records, in bit order; none that needs the finished file. */
	ck_assert_int_eq(uname(&u), 0);
	while ((ev = pipe_next(f.buf, f.len, &pos))->header.type == PERF_RECORD_HEADER_FEATURE) {
		const struct perf_record_header_feature *fe = (const void *)ev;

		ck_assert_uint_gt(fe->feat_id, last_feat);
		ck_assert_uint_ne(fe->feat_id, HEADER_BUILD_ID);
		ck_assert_uint_ne(fe->feat_id, HEADER_AUXTRACE);
		if (fe->feat_id == HEADER_HOSTNAME)
			ck_assert_str_eq(feature_string((const void *)fe->data,
							fe->header.size - sizeof(*fe)),
					 u.nodename);
		/* 8 bytes (available and online CPUs): aligned already, so no padding */
		if (fe->feat_id == HEADER_NRCPUS)
			ck_assert_uint_eq(fe->header.size, sizeof(*fe) + 8);
		nrcpus += fe->feat_id == HEADER_NRCPUS;
		last_feat = fe->feat_id;
		feats++;
	}
	ck_assert_int_gt(feats, 8);
	ck_assert_int_eq(nrcpus, 1);
	ck_assert_uint_eq(st.data_offset, pos - ev->header.size);
	ck_assert_uint_eq(ev->header.type, PERF_RECORD_ID_INDEX);
	ck_assert_uint_eq(pos, f.len);
	ck_assert_uint_eq(st.data_size, ev->header.size);
	free(f.buf);
	evlist__delete(evlist);
}
END_TEST

static void log_expect(const char *what)
{
	ck_assert_msg(log_captured(what), "log lacks \"%s\": %s", what, log_text);
}

/* Two events, one without PERF_SAMPLE_IDENTIFIER (or with another sample_id_all). */
START_TEST(test_refuses_unreadable_sample_types)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
				     .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID,
				     .sample_id_all = 1 };
	struct perf_event_attr b = a;
	bool id_all = _i == 1, none = _i == 2;
	struct evlist *evlist = evlist__new();
	struct perf_data_writer *w;
	struct evsel *second;
	int fd = open_file();

	if (id_all)
		b.sample_id_all = 0;
	else
		b.sample_type = PERF_SAMPLE_TID;
	if (none)
		a.sample_type = PERF_SAMPLE_TID;
	ck_assert_int_eq(evlist__add(evlist, evsel__new(&a)), 0);
	ck_assert_int_eq(evlist__add(evlist, evsel__new(&b)), 0);
	log_capture_start();
	assert_null_errno(perf_data_writer__new(fd, evlist, NULL), EINVAL);
	log_capture_stop();
	log_expect(id_all ? "perf needs the same on every event; set attr.sample_id_all alike"
			  : "lacks PERF_SAMPLE_IDENTIFIER: with several events perf finds a "
			    "record's event by its sample ID");
	/* One event alone needs neither. */
	second = evlist__next(evlist, evlist__first(evlist));
	evlist__remove(evlist, second);
	evsel__delete(second);
	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_refuses_bad_opts_and_fds)
{
	struct evlist *evlist = self_evlist();
	struct perf_data_writer_opts older = { .sz = offsetof(struct perf_data_writer_opts, argc),
					       .pipe = true };
	struct perf_data_writer *w;
	int fd = open_file(), afd, pfd[2];

	log_capture_start();
	assert_null_errno(perf_data_writer__new(-1, evlist, NULL), EINVAL);
	assert_null_errno(perf_data_writer__new(fd, NULL, NULL), EINVAL);
	/* The file format rewrites its header: not on a pipe, nor with O_APPEND. */
	ck_assert_int_eq(pipe(pfd), 0);
	assert_null_errno(perf_data_writer__new(pfd[1], evlist, NULL), ESPIPE);
	log_expect("cannot seek (Illegal seek: a pipe or a socket?)");
	log_expect("write perf's pipe format (opts.pipe)");
	afd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC);
	assert_null_errno(perf_data_writer__new(afd, evlist, NULL), EINVAL);
	log_expect("open it without O_APPEND");
	close(afd);
	afd = open(file, O_RDONLY | O_CLOEXEC);
	assert_null_errno(perf_data_writer__new(afd, evlist, NULL), EINVAL);
	log_expect("cannot empty the file on fd");
	log_capture_stop();
	/* A caller built against an older header: the fields it has are read, no more. */
	w = perf_data_writer__new(pfd[1], evlist, &older);
	ck_assert_ptr_nonnull(w);
	perf_data_writer__delete(w);
	close(pfd[0]);
	close(pfd[1]);
	close(afd);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* An AUXTRACE frame of size payload bytes (all 0xab) as the AUX layer hands it out. */
struct aux_frame {
	struct perf_record_auxtrace ev;
	unsigned char payload[64];
	struct iovec iov[2];
};

static void aux_frame__init(struct aux_frame *fr, uint64_t size, uint64_t offset)
{
	fr->ev = (struct perf_record_auxtrace){
		.header = { .type = PERF_RECORD_AUXTRACE, .size = sizeof(fr->ev) },
		.size = size, .offset = offset, .idx = 0, .tid = (uint32_t)getpid(),
		.cpu = (uint32_t)-1,
	};
	memset(fr->payload, 0xab, sizeof(fr->payload));
	fr->iov[0] = (struct iovec){ &fr->ev, sizeof(fr->ev) };
	fr->iov[1] = (struct iovec){ fr->payload, size };
}

static struct perf_record_auxtrace_info *bts_info(uint32_t type)
{
	static uint64_t buf[8];
	struct perf_record_auxtrace_info *info = (void *)buf;

	memset(buf, 0, sizeof(buf));
	info->header.type = PERF_RECORD_AUXTRACE_INFO;
	info->header.size = sizeof(buf);
	info->type = type;
	info->priv[2] = 1;	/* time_mult */
	return info;
}

START_TEST(test_refuses_records_perf_rejects)
{
	struct evlist *evlist = self_evlist();
	struct perf_data_writer *w;
	struct aux_frame fr;
	uint64_t rec[3] = { 0 };
	struct perf_event_header *hdr = (void *)rec;
	struct ring_sink *data, *aux;
	int fd = open_file();

	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	data = perf_data_writer__data_sink(w);
	aux = perf_data_writer__aux_sink(w);
	log_capture_start();
	*hdr = (struct perf_event_header){ .type = PERF_RECORD_COMM, .size = 12 };
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)rec), -EINVAL);
	log_expect("records are whole 8-byte multiples");
	*hdr = (struct perf_event_header){ .type = PERF_RECORD_AUXTRACE, .size = 8 };
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)rec), -EINVAL);
	log_expect("push it through perf_data_writer__aux_sink()");
	/* Types perf 6.1 does not know make it refuse the whole file. */
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)bts_info(0)), -EINVAL);
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)bts_info(7)), -EINVAL);
	log_expect("AUXTRACE_INFO of type 7: perf 6.1 knows types 1 (Intel PT) to 6");
	/* AUX data before AUXTRACE_INFO: perf fails on the first AUXTRACE. */
	aux_frame__init(&fr, 16, 0);
	ck_assert_int_eq(aux->push(aux, fr.iov, 2), -EINVAL);
	log_expect("PERF_RECORD_AUXTRACE before any PERF_RECORD_AUXTRACE_INFO");
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)bts_info(2)), 0);
	ck_assert_int_eq(aux->push(aux, fr.iov, 2), (int)sizeof(fr.ev) + 16);
	/* A frame whose size is not what follows it, or not padded to 8. */
	fr.iov[1].iov_len = 8;
	ck_assert_int_eq(aux->push(aux, fr.iov, 2), -EINVAL);
	log_expect("one PERF_RECORD_AUXTRACE frame per push");
	aux_frame__init(&fr, 12, 16);
	ck_assert_int_eq(aux->push(aux, fr.iov, 2), -EINVAL);
	ck_assert_int_eq(aux->push(aux, fr.iov, 1), -EINVAL);
	fr.iov[1].iov_len = 0;
	ck_assert_int_eq(data->push(data, &fr.iov[0], 1), (int)sizeof(fr.ev));
	fr.iov[0].iov_len = 20;
	ck_assert_int_eq(data->push(data, &fr.iov[0], 1), -EINVAL);
	log_expect("the data sink takes whole perf records (8-byte multiples), not 20 bytes");
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), -EALREADY);
	ck_assert_int_eq(perf_data_writer__write_finished_init(w), -EINVAL);
	log_expect("a write after perf_data_writer__finish()");
	log_capture_stop();
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* ID_INDEX and TIME_CONV come from the mapped evlist. */
START_TEST(test_needs_mapped_evlist)
{
	struct evlist *evlist = self_evlist();
	struct perf_data_writer *w;
	int fd = open_file();

	evlist__munmap(evlist);
	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	log_capture_start();
	ck_assert_int_eq(perf_data_writer__write_id_index(w), -EINVAL);
	log_expect("is not in the evlist's ID table: map the evlist (evlist__mmap) before "
		   "writing ID_INDEX");
	ck_assert_int_eq(perf_data_writer__write_time_conv(w), -EINVAL);
	log_expect("TIME_CONV comes from a data ring's control page: map the evlist");
	log_capture_stop();
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* The kernel's conversion, when it publishes one, field by field into TIME_CONV. */
START_TEST(test_time_conv)
{
	struct evlist *evlist = self_evlist();
	struct perf_event_mmap_page *pc = perf_mmap__userpg(evlist__mmap_at(evlist, 0));
	struct perf_data_writer *w;
	struct record_pick p;
	struct pdfile f;
	int fd = open_file();

	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	if (!pc->cap_user_time_zero) {
		/* Written only when published (this VM's kernel may not): then nothing. */
		ck_assert_int_eq(perf_data_writer__write_time_conv(w), 0);
		ck_assert_uint_eq(perf_data_writer__stats(w)->events, 0);
		/* The events never run, so the kernel leaves the page alone: play one that does. */
		pc->time_shift = 31;
		pc->time_mult = 0x12345;
		ck_assert_int_eq(perf_data_writer__write_time_conv(w), 0);	/* no cap yet */
		ck_assert_uint_eq(perf_data_writer__stats(w)->events, 0);
		pc->time_zero = 0xabcdef;
		pc->time_cycles = 0x777;
		pc->time_mask = 0xffff;
		pc->cap_user_time_zero = 1;
		pc->cap_user_time_short = 1;
	}
	ck_assert_int_eq(perf_data_writer__write_time_conv(w), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	pdfile__load(&f);
	ck_assert_int_eq(pick(f.buf + f.hdr.data.offset, f.hdr.data.size, PERF_RECORD_TIME_CONV,
			      &p), 1);
	ck_assert_uint_eq(p.ev[0]->header.size, sizeof(struct perf_record_time_conv));
	ck_assert_uint_eq(p.ev[0]->time_conv.time_shift, pc->time_shift);
	ck_assert_uint_eq(p.ev[0]->time_conv.time_mult, pc->time_mult);
	ck_assert_uint_eq(p.ev[0]->time_conv.time_zero, pc->time_zero);
	ck_assert_uint_eq(p.ev[0]->time_conv.time_cycles, pc->time_cycles);
	ck_assert_uint_eq(p.ev[0]->time_conv.time_mask, pc->time_mask);
	ck_assert_uint_eq(p.ev[0]->time_conv.cap_user_time_zero, 1);
	ck_assert_uint_eq(p.ev[0]->time_conv.cap_user_time_short, pc->cap_user_time_short);
	pdfile__free(&f);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* One index entry per frame, at the frame's record; none in the pipe format. */
START_TEST(test_auxtrace_index)
{
	bool pipe_format = _i == 1;
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .pipe = pipe_format);
	struct evlist *evlist = self_evlist();
	struct ring_sink *aux;
	struct perf_data_writer *w;
	struct aux_frame fr;
	struct pdfile f;
	uint64_t at[3], size, sec[7];
	const unsigned char *p;
	int fd = open_file();

	w = perf_data_writer__new(fd, evlist, &opts);
	ck_assert_ptr_nonnull(w);
	aux = perf_data_writer__aux_sink(w);
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)bts_info(2)), 0);
	for (int i = 0; i < 3; i++) {
		at[i] = perf_data_writer__stats(w)->data_offset + perf_data_writer__stats(w)->data_size;
		aux_frame__init(&fr, 8 * (i + 1), 0);
		ck_assert_int_eq(aux->push(aux, fr.iov, 2), (int)sizeof(fr.ev) + 8 * (i + 1));
		ck_assert_int_eq(perf_data_writer__write_finished_round(w), 0);
	}
	/* Side-band after the frames: the build-ID scan steps over their payloads. */
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, getpid(), false, NULL,
						       perf_data_writer__data_sink(w)), 0);
	ck_assert_uint_eq(perf_data_writer__stats(w)->aux_frames, 3);
	ck_assert_uint_eq(perf_data_writer__stats(w)->aux_bytes, 3 * sizeof(fr.ev) + 48);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	perf_data_writer__delete(w);
	close(fd);
	pdfile__load(&f);
	if (pipe_format) {
		/* The frames are in the stream, and no index could point at them. */
		ck_assert_int_gt(testlib_walk_records(f.buf + at[0], f.len - at[0], NULL, NULL), 6);
		ck_assert_uint_eq(((const struct perf_event_header *)(f.buf + at[2]))->type,
				  PERF_RECORD_AUXTRACE);
		goto out;
	}
	p = pdfile__feature(&f, HEADER_AUXTRACE, &size);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(size, 8 + 3 * 16);
	memcpy(sec, p, sizeof(sec));	/* feature sections need not be aligned */
	ck_assert_uint_eq(sec[0], 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(sec[1 + 2 * i], at[i]);
		ck_assert_uint_eq(sec[2 + 2 * i], sizeof(fr.ev));
		ck_assert_uint_eq(((const struct perf_event_header *)(f.buf + at[i]))->type,
				  PERF_RECORD_AUXTRACE);
	}
	ck_assert(pdfile__has(&f, HEADER_BUILD_ID));
out:
	pdfile__free(&f);
	evlist__delete(evlist);
}
END_TEST

/*
 * A writer that dies: the header says the data size of the last round; perf_data__recover()
 * keeps every whole record after it (an AUXTRACE frame with its payload), cuts a torn one
 * off, appends the sections perf_data_writer__write_recovery() saved (case 0; case 1:
 * none), and leaves the finished file alone.
 */
START_TEST(test_recover_killed_file)
{
	struct evlist *evlist = self_evlist();
	struct ring_sink *aux;
	struct perf_data_writer *w;
	struct perf_data_recovery r;
	struct aux_frame fr;
	struct pdfile f;
	struct utsname u;
	const unsigned char *sec;
	uint64_t round_size, whole, size;
	char features[160];
	const uint64_t torn[3] = { (uint64_t)PERF_RECORD_COMM | (64ULL << 48), 1, 2 };
	int fd = open_file(), ffd = -1;

	snprintf(features, sizeof(features), "%s.features", file);
	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	aux = perf_data_writer__aux_sink(w);
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)bts_info(2)), 0);
	if (_i == 0) {
		ffd = open(features, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		ck_assert_int_ge(ffd, 0);
		ck_assert_int_eq(perf_data_writer__write_recovery(w, ffd), 0);
	}
	aux_frame__init(&fr, 40, 0);
	ck_assert_int_eq(aux->push(aux, fr.iov, 2), (int)sizeof(fr.ev) + 40);
	ck_assert_int_eq(perf_data_writer__write_finished_round(w), 0);
	round_size = perf_data_writer__stats(w)->data_size;
	pdfile__load(&f);
	ck_assert_uint_eq(f.hdr.data.size, round_size);	/* the header at the round */
	ck_assert_uint_eq(f.hdr.adds_features[0], 0);
	pdfile__free(&f);
	/* records after the round, then a record the writer died in the middle of */
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, getpid(), false, NULL,
						       perf_data_writer__data_sink(w)), 0);
	whole = perf_data_writer__stats(w)->data_size;
	ck_assert_uint_gt(whole, round_size);
	ck_assert_int_eq(write(fd, torn, sizeof(torn)), (int)sizeof(torn));

	ck_assert_int_eq(perf_data__recover(fd, ffd, &r), 0);
	ck_assert(!r.finished);
	ck_assert_uint_eq(r.data_size, whole);
	ck_assert_uint_eq(r.torn_bytes, sizeof(torn));
	pdfile__load(&f);
	ck_assert_uint_eq(f.hdr.data.size, whole);
	ck_assert_int_eq(testlib_walk_records(f.buf + f.hdr.data.offset, f.hdr.data.size, NULL,
					      NULL), (int)r.records);
	if (_i == 0) {
		ck_assert_int_eq(uname(&u), 0);
		sec = pdfile__feature(&f, HEADER_HOSTNAME, &size);
		ck_assert_ptr_nonnull(sec);
		ck_assert_str_eq(feature_string(sec, size), u.nodename);
		ck_assert(pdfile__has(&f, HEADER_EVENT_DESC));
		ck_assert(!pdfile__has(&f, HEADER_AUXTRACE));	/* no index of the frames yet */
	} else {
		ck_assert_uint_eq(f.hdr.adds_features[0], 0);
		ck_assert_uint_eq(f.len, f.hdr.data.offset + whole);
	}
	pdfile__free(&f);
	if (_i == 0) {
		/* finished now: a second recovery changes nothing */
		ck_assert_int_eq(perf_data__recover(fd, ffd, &r), 0);
		ck_assert(r.finished);
		ck_assert_uint_eq(r.data_size, whole);
		close(ffd);
		unlink(features);
	}
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* FINISHED_ROUND only after records came, so a caller may write one after every pass. */
START_TEST(test_finished_round_after_data_only)
{
	struct evlist *evlist = self_evlist();
	struct perf_data_writer *w;
	int fd = open_file();

	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_data_writer__write_finished_round(w), 0);
	ck_assert_uint_eq(perf_data_writer__stats(w)->data_size, 0);
	ck_assert_int_eq(perf_data_writer__write_finished_init(w), 0);
	ck_assert_int_eq(perf_data_writer__write_finished_round(w), 0);
	ck_assert_int_eq(perf_data_writer__write_finished_round(w), 0);
	ck_assert_uint_eq(perf_data_writer__stats(w)->rounds, 1);
	ck_assert_uint_eq(perf_data_writer__stats(w)->data_size, 16);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/*
 * Until finish (and before the first round), the header says data size 0, which perf
 * reports as an unfinished recording; when finish cannot rewrite it (the fd went read-only), it stays so and the
 * error says it.
 */
START_TEST(test_unfinished_file_says_so)
{
	struct evlist *evlist = self_evlist();
	struct perf_data_writer *w;
	struct pdfile f;
	int fd = open_file(), ro;

	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_data_writer__write_prologue(w, NULL), 0);
	pdfile__load(&f);
	ck_assert_uint_eq(f.hdr.magic, PERF_DATA_MAGIC);
	ck_assert_uint_eq(f.hdr.data.size, 0);
	ck_assert_uint_eq(f.hdr.adds_features[0], 0);
	ck_assert_uint_gt(f.len, f.hdr.data.offset);
	pdfile__free(&f);

	ro = open(file, O_RDONLY | O_CLOEXEC);
	ck_assert_int_eq(dup2(ro, fd), fd);
	log_capture_start();
	ck_assert_int_eq(perf_data_writer__finish(w), -EBADF);
	log_capture_stop();
	log_expect("rewriting the header failed");
	log_expect("perf sees an unfinished recording (data size 0, of the last round");
	ck_assert(!perf_data_writer__stats(w)->finished);
	pdfile__load(&f);
	ck_assert_uint_eq(f.hdr.data.size, 0);
	pdfile__free(&f);
	perf_data_writer__delete(w);
	close(ro);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

START_TEST(test_cpuid_from_cpuinfo)
{
	static const char intel[] =
		"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
		"model name\t: Intel(R) Xeon(R)   Gold 6130 CPU @ 2.10GHz\nstepping\t: 4\n"
		"microcode\t: 0x2006e05\n";
	static const char arm[] = "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n";
	char out[128];

	ck_assert_int_eq(perf_data__cpuid_from_cpuinfo(intel, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "GenuineIntel,6,85,4");
	/* "model" is not "model name"; blanks are squeezed as perf prints them. */
	ck_assert(perf_data__cpuinfo_value(intel, "model name", out, sizeof(out)));
	ck_assert_str_eq(out, "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz");
	ck_assert(perf_data__cpuinfo_value(intel, "model", out, sizeof(out)));
	ck_assert_str_eq(out, "85");
	ck_assert(perf_data__cpuinfo_value("model name\t: x\nmodel\t: 7\n", "model", out,
					   sizeof(out)));
	ck_assert_str_eq(out, "7");
	ck_assert_int_eq(perf_data__cpuid_from_cpuinfo(arm, out, sizeof(out)), -ENOENT);
	ck_assert(!perf_data__cpuinfo_value(arm, "cpu", out, sizeof(out)));
}
END_TEST

/* perf's tracing data, laid out by hand: a section is its size (width bytes), then text. */
static void tracing_section(struct perf_data_buf *b, int width, const char *text)
{
	if (width == 4)
		perf_data_buf__add_u32(b, (uint32_t)strlen(text));
	else
		perf_data_buf__add_u64(b, strlen(text));
	perf_data_buf__add(b, text, strlen(text));
}

/* The formats, then (with tables) kernel symbols, printk formats and, from 0.6, cmdlines. */
static void tracing_data(struct perf_data_buf *b, bool tables, bool cmdlines)
{
	const char le[] = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, sizeof(long) };

	perf_data_buf__add(b, "\027\010\104tracing0.6", 14);
	perf_data_buf__add(b, le, 2);
	perf_data_buf__add_u32(b, 4096);
	perf_data_buf__add(b, "header_page", 12);
	tracing_section(b, 8, "field: u64 timestamp;");
	perf_data_buf__add(b, "header_event", 13);
	tracing_section(b, 8, "# compressed entry header");
	perf_data_buf__add_u32(b, 1);				/* ftrace formats */
	tracing_section(b, 8, "name: function");
	perf_data_buf__add_u32(b, 1);				/* systems */
	perf_data_buf__add(b, "syscalls", 9);
	perf_data_buf__add_u32(b, 2);
	tracing_section(b, 8, "name: sys_enter_getppid");
	tracing_section(b, 8, "name: sys_exit_getppid");
	if (!tables)
		return;
	tracing_section(b, 4, "ffffffff81000000 T _text\n");
	tracing_section(b, 4, "0xffffffff82000000 : \"rcu\"\n");
	if (cmdlines)
		tracing_section(b, 8, "1 systemd\n2 kthreadd\n");
}

/* A full disk's tracing data: the formats as they were, the tables after them empty. */
START_TEST(test_tracing_data_formats_only)
{
	struct perf_data_buf in, formats, out;

	for (int cmdlines = 0; cmdlines < 2; cmdlines++) {
		perf_data_buf__init(&in);
		perf_data_buf__init(&formats);
		perf_data_buf__init(&out);
		tracing_data(&in, true, cmdlines);
		tracing_data(&formats, false, false);
		perf_data_buf__add_zeros(&formats, cmdlines ? 16 : 8);
		ck_assert_int_eq(perf_data_tracing__formats_only(in.data, in.len, &out), 0);
		ck_assert_uint_eq(out.len, formats.len);
		ck_assert_mem_eq(out.data, formats.data, formats.len);
		/* cut short before the printk formats end (their last byte, and the cmdlines'
		 * 8 + 21 bytes after them): not perf's layout */
		out.len = 0;
		ck_assert_int_eq(perf_data_tracing__formats_only(in.data, in.len - (cmdlines ? 30 : 1),
								 &out), -EINVAL);
		ck_assert_int_eq(perf_data_tracing__formats_only(in.data, 40, &out), -EINVAL);
		ck_assert_uint_eq(out.len, 0);
		in.data[0] = 'X';
		ck_assert_int_eq(perf_data_tracing__formats_only(in.data, in.len, &out), -EINVAL);
		perf_data_buf__exit(&in);
		perf_data_buf__exit(&formats);
		perf_data_buf__exit(&out);
	}
}
END_TEST

/* The build ID of the running program, from its loaded PT_NOTE (not from the file). */
struct self_note {
	uint8_t id[20];
	size_t size;
};

static int self_note__phdr(struct dl_phdr_info *info, size_t sz, void *ctx)
{
	struct self_note *n = ctx;

	(void)sz;
	for (int i = 0; i < info->dlpi_phnum && !n->size; i++) {
		const unsigned char *p = (const void *)(info->dlpi_addr +
							 info->dlpi_phdr[i].p_vaddr);
		size_t pos = 0, len = info->dlpi_phdr[i].p_memsz;

		if (info->dlpi_phdr[i].p_type != PT_NOTE)
			continue;
		while (pos + sizeof(ElfW(Nhdr)) <= len) {
			const ElfW(Nhdr) *nh = (const void *)(p + pos);
			size_t desc = pos + sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + pos + sizeof(*nh), "GNU", 4) && nh->n_descsz <= 20) {
				memcpy(n->id, p + desc, nh->n_descsz);
				n->size = nh->n_descsz;
			}
			pos = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;	/* the first object is the program */
}

/* The BUILD_ID entry for name, NULL when there is none. */
static const struct perf_record_header_build_id *
build_id_entry(const unsigned char *sec, uint64_t size, const char *name)
{
	for (uint64_t pos = 0; pos < size; ) {
		const struct perf_record_header_build_id *e = (const void *)(sec + pos);

		ck_assert_uint_ge(e->header.size, sizeof(*e) + PERF_DATA_NAME_ALIGN);
		ck_assert_uint_eq((e->header.size - sizeof(*e)) % PERF_DATA_NAME_ALIGN, 0);
		if (!strcmp(e->filename, name))
			return e;
		pos += e->header.size;
	}
	return NULL;
}

/*
 * BUILD_ID from the mappings the data section names: the program (from its ELF note), the
 * kernel (/sys/kernel/notes), a MMAP2 that carries its own ID, and not [vdso] or anon.
 */
START_TEST(test_build_ids)
{
	bool no_build_ids = _i == 1;
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .no_build_ids = no_build_ids);
	struct evlist *evlist = self_evlist();
	const struct perf_record_header_build_id *e;
	struct self_note self = { 0 };
	struct perf_data_writer *w;
	struct {
		struct perf_record_mmap2 ev;
	} carried = { 0 };
	char exe[PATH_MAX];
	const unsigned char *sec;
	struct pdfile f;
	uint64_t size;
	ssize_t n;
	int fd = open_file();

	dl_iterate_phdr(self_note__phdr, &self);
	ck_assert_uint_eq(self.size, 20);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	/* A file named [vdso] where the writer runs must not pass for the vDSO. */
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(symlink(exe, "[vdso]"), 0);
	carried.ev.header = (struct perf_event_header){
		.type = PERF_RECORD_MMAP2,
		.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
		.size = offsetof(struct perf_record_mmap2, filename) + 32,
	};
	carried.ev.build_id_size = 20;
	memset(carried.ev.build_id, 0x5a, 20);
	carried.ev.prot = 5;
	strcpy(carried.ev.filename, "/nonexistent/libcarried.so");

	w = perf_data_writer__new(fd, evlist, &opts);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, getpid(), false, NULL,
						       perf_data_writer__data_sink(w)), 0);
	ck_assert_int_eq(perf_event__synthesize_kernel_mmap(evlist, NULL,
							    perf_data_writer__data_sink(w)), 0);
	ck_assert_int_eq(perf_data_writer__write_event(w, (void *)&carried.ev), 0);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	pdfile__load(&f);
	sec = pdfile__feature(&f, HEADER_BUILD_ID, &size);
	if (no_build_ids) {
		ck_assert_ptr_null(sec);
		goto out;
	}
	ck_assert_ptr_nonnull(sec);
	e = build_id_entry(sec, size, exe);
	ck_assert_msg(e, "no build ID for %s", exe);
	ck_assert_uint_eq(e->header.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE);
	ck_assert_int_eq(e->pid, -1);
	ck_assert_uint_eq(e->size, 20);
	ck_assert_mem_eq(e->build_id, self.id, 20);
	e = build_id_entry(sec, size, "/nonexistent/libcarried.so");
	ck_assert_ptr_nonnull(e);
	ck_assert_mem_eq(e->build_id, carried.ev.build_id, 20);
	e = build_id_entry(sec, size, "[kernel.kallsyms]");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->header.misc, PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE);
	ck_assert_uint_gt(e->size, 0);
	ck_assert_ptr_null(build_id_entry(sec, size, "[vdso]"));
	ck_assert_ptr_null(build_id_entry(sec, size, "//anon"));
	ck_assert_uint_ge(perf_data_writer__stats(w)->build_ids, 3);
out:
	unlink("[vdso]");
	pdfile__free(&f);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/* Events on a clock of their own: its resolution, and a moment on it and on the wall clock. */
START_TEST(test_clockid_features)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		.use_clockid = 1, .clockid = CLOCK_MONOTONIC_RAW,
	};
	struct evlist *evlist = evlist__new();
	struct perf_data_writer *w;
	const unsigned char *sec;
	struct timespec res;
	struct pdfile f;
	uint64_t size, v;
	uint32_t u;
	int fd = open_file();

	ck_assert_int_eq(evlist__add(evlist, evsel__new(&attr)), 0);
	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	pdfile__load(&f);
	sec = pdfile__feature(&f, HEADER_CLOCKID, &size);
	ck_assert_ptr_nonnull(sec);
	ck_assert_uint_eq(size, 8);
	ck_assert_int_eq(clock_getres(CLOCK_MONOTONIC_RAW, &res), 0);
	memcpy(&v, sec, 8);
	ck_assert_uint_eq(v, (uint64_t)res.tv_sec * 1000000000 + res.tv_nsec);
	sec = pdfile__feature(&f, HEADER_CLOCK_DATA, &size);
	ck_assert_ptr_nonnull(sec);
	ck_assert_uint_eq(size, 24);
	memcpy(&u, sec, 4);
	ck_assert_uint_eq(u, 1);
	memcpy(&u, sec + 4, 4);
	ck_assert_uint_eq(u, CLOCK_MONOTONIC_RAW);
	memcpy(&v, sec + 8, 8);
	ck_assert_uint_gt(v, 1600000000ULL * 1000000000);	/* the wall clock, in ns */
	pdfile__free(&f);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

/*
 * Build IDs come from the MMAP records as they went into the data section, not from reading
 * the file back: a data section changed under the writer afterwards (here: a record header
 * zeroed through another fd) does not take them away, and nothing is read back.
 */
START_TEST(test_build_ids_of_a_changed_file)
{
	struct evlist *evlist = self_evlist();
	struct perf_data_writer *w;
	uint64_t zero = 0, at, size;
	const unsigned char *sec;
	char exe[PATH_MAX];
	struct pdfile f;
	int fd = open_file(), other;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	w = perf_data_writer__new(fd, evlist, NULL);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(perf_event__synthesize_thread(evlist, getpid(), false, NULL,
						       perf_data_writer__data_sink(w)), 0);
	at = perf_data_writer__stats(w)->data_offset;
	other = open(file, O_WRONLY | O_CLOEXEC);
	ck_assert_int_eq(pwrite(other, &zero, sizeof(zero), (off_t)at), (ssize_t)sizeof(zero));
	close(other);
	ck_assert_int_eq(perf_data_writer__finish(w), 0);
	pdfile__load(&f);
	ck_assert(pdfile__has(&f, HEADER_BUILD_ID));
	sec = pdfile__feature(&f, HEADER_BUILD_ID, &size);
	ck_assert_ptr_nonnull(build_id_entry(sec, size, exe));
	ck_assert(pdfile__has(&f, HEADER_HOSTNAME));
	pdfile__free(&f);
	perf_data_writer__delete(w);
	close(fd);
	evlist__delete(evlist);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perf-data-writer");
	TCase *layout = tcase_create("layout");
	TCase *rules = tcase_create("rules");
	TCase *all[] = { layout, rules };

	tcase_add_test(layout, test_file_layout);
	tcase_add_test(layout, test_pipe_layout);
	tcase_add_test(layout, test_time_conv);
	tcase_add_loop_test(layout, test_auxtrace_index, 0, 2);
	tcase_add_test(layout, test_finished_round_after_data_only);
	tcase_add_test(layout, test_cpuid_from_cpuinfo);
	tcase_add_test(layout, test_tracing_data_formats_only);
	tcase_add_loop_test(layout, test_build_ids, 0, 2);
	tcase_add_test(layout, test_build_ids_of_a_changed_file);
	tcase_add_test(layout, test_clockid_features);
	tcase_add_loop_test(rules, test_refuses_unreadable_sample_types, 0, 3);
	tcase_add_test(rules, test_refuses_bad_opts_and_fds);
	tcase_add_test(rules, test_refuses_records_perf_rejects);
	tcase_add_test(rules, test_needs_mapped_evlist);
	tcase_add_test(rules, test_unfinished_file_says_so);
	tcase_add_loop_test(rules, test_recover_killed_file, 0, 2);
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		tcase_add_checked_fixture(all[i], tmpdir_setup, tmpdir_teardown);
		suite_add_tcase(s, all[i]);
	}
	return testlib_run(s);
}
