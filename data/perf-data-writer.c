// SPDX-License-Identifier: LGPL-2.1
/*
 * The perf.data writer: the file and pipe formats, the one write path, the sinks the
 * consumer core writes into, and finish (features, then the header). The records it
 * writes one by one: perf-data-records.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/evsel.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include "perf-data-buf.h"
#include "perf-data-internal.h"

static size_t iov__total(const struct iovec *iov, int iovcnt)
{
	size_t total = 0;

	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	return total;
}

static const char *perf_data_writer__hint(int err)
{
	switch (err) {
	case -ENOSPC:
	case -EDQUOT:
		return " (the output's file system is full: free space there, or record less)";
	case -EPIPE:
		return " (the reader at the other end of the pipe went away)";
	case -EFBIG:
		return " (the file hit the size limit: ulimit -f)";
	default:
		return "";
	}
}

/*
 * A failed write of records into the data section reached the file up to the fd's offset:
 * the whole records of that part are kept (a ring's drain can be megabytes, of which a
 * full disk took most), so that the data section ends at the last whole record.
 */
static void perf_data_writer__keep_written(struct perf_data_writer *w)
{
	off_t end = lseek(w->fd, 0, SEEK_CUR);
	uint64_t records = 0;

	if (w->offset < w->stats.data_offset || end <= (off_t)w->offset)
		return;		/* the header, or nothing reached the file */
	w->offset += perf_data__walk_records(w->fd, w->offset, (uint64_t)end, &records);
	w->stats.data_size = w->offset - w->stats.data_offset;
}

/*
 * A write failed: no further byte goes out, and in a file the torn tail of the failed
 * write is cut off, so that the data section ends at the last whole record.
 */
static void perf_data_writer__fail(struct perf_data_writer *w, int err)
{
	char kept[256];

	w->stats.error = err;
	if (w->pipe) {
		snprintf(kept, sizeof(kept), "the reader got %llu bytes of records, the last "
			 "one perhaps torn", (unsigned long long)w->stats.data_size);
	} else {
		perf_data_writer__keep_written(w);
		if (ftruncate(w->fd, (off_t)w->offset) < 0 ||
		    lseek(w->fd, (off_t)w->offset, SEEK_SET) < 0)
			snprintf(kept, sizeof(kept), "the data section keeps the %llu bytes of "
				 "whole records that reached the file (the torn end past byte %llu "
				 "could not be cut off: %s; the header will not count it)",
				 (unsigned long long)w->stats.data_size,
				 (unsigned long long)w->offset, strerror(errno));
		else
			snprintf(kept, sizeof(kept), "the data section keeps the %llu bytes of "
				 "whole records that reached the file",
				 (unsigned long long)w->stats.data_size);
	}
	pr_err("perf.data: writing at byte %llu failed: %s%s. %s; stop recording and call "
	       "perf_data_writer__finish()\n", (unsigned long long)w->offset, strerror(-err),
	       perf_data_writer__hint(err), kept);
}

/*
 * Every byte the writer emits goes out here, whole or not at all (as far as the file can
 * tell: a failed write is cut back). -EAGAIN from a full non-blocking fd took nothing and
 * is no failure; any other error sticks.
 */
static ssize_t perf_data_writer__writev(struct perf_data_writer *w, const struct iovec *iov,
					int iovcnt)
{
	ssize_t n;

	if (w->stats.error)
		return w->stats.error;
	if (w->stats.finished) {
		pr_err("perf.data: a write after perf_data_writer__finish(): the file is closed "
		       "for records\n");
		return -EINVAL;
	}
	n = w->out.sink.push(&w->out.sink, iov, iovcnt);
	if (n == -EAGAIN)
		return n;
	if (n < 0) {
		perf_data_writer__fail(w, (int)n);
		return n;
	}
	w->offset += (uint64_t)n;
	if (w->offset > w->stats.data_offset)
		w->stats.data_size = w->offset - w->stats.data_offset;
	return n;
}

static int perf_data_writer__put(struct perf_data_writer *w, const struct iovec *iov,
				 int iovcnt)
{
	ssize_t n = perf_data_writer__writev(w, iov, iovcnt);

	return n < 0 ? (int)n : 0;
}

int perf_data_writer__put_buf(struct perf_data_writer *w, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return perf_data_writer__put(w, &iov, 1);
}

/* A feature's payload into buf; false when it is left out (why: logged). */
static bool perf_data_writer__feature(struct perf_data_writer *w, enum perf_header_feature feat,
				      struct perf_data_buf *buf)
{
	int err = perf_data_feature__build(w, feat, buf);

	if (err && err != -ENOENT)
		pr_warn("perf.data: feature %s left out: %s\n", perf_data_feature__name(feat),
			strerror(-err));
	return !err;
}

/* perf's sample-ID positions: where a sample (id_pos) and other records (is_pos, from the
 * end) carry the ID, -1 when they carry none. */
static int sample_type__id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_IP);
	idx += !!(st & PERF_SAMPLE_TID);
	idx += !!(st & PERF_SAMPLE_TIME);
	idx += !!(st & PERF_SAMPLE_ADDR);
	return idx;
}

static int sample_type__is_pos(uint64_t st)
{
	int idx = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_CPU);
	idx += !!(st & PERF_SAMPLE_STREAM_ID);
	return idx;
}

/*
 * perf opens a file whose events break these rules and then shows nothing (it cannot tell
 * which event a record belongs to): refuse it here, with the fix.
 */
static int perf_data_writer__check_evlist(struct evlist *evlist)
{
	struct evsel *first = evlist__first(evlist), *evsel;
	const struct perf_event_attr *a0;

	if (!first) {
		pr_err("perf.data: the evlist has no events: add them before writing\n");
		return -EINVAL;
	}
	if (evlist__nr_entries(evlist) == 1)
		return 0;
	a0 = &first->attr;
	evlist__for_each_entry(evlist, evsel) {
		const struct perf_event_attr *a = &evsel->attr;

		if (a->sample_id_all != a0->sample_id_all) {
			pr_err("perf.data: %s has sample_id_all %d, %s %d: perf needs the same on "
			       "every event; set attr.sample_id_all alike before evlist__open\n",
			       evsel__name(first), a0->sample_id_all, evsel__name(evsel),
			       a->sample_id_all);
			return -EINVAL;
		}
		if (sample_type__id_pos(a->sample_type) < 0 ||
		    sample_type__id_pos(a->sample_type) != sample_type__id_pos(a0->sample_type) ||
		    sample_type__is_pos(a->sample_type) != sample_type__is_pos(a0->sample_type)) {
			pr_err("perf.data: %s lacks PERF_SAMPLE_IDENTIFIER: with several events "
			       "perf finds a record's event by its sample ID, at the same place in "
			       "every record; set PERF_SAMPLE_IDENTIFIER in the sample_type of "
			       "every event before evlist__open\n", evsel__name(evsel));
			return -EINVAL;
		}
	}
	return 0;
}

/* The attrs as opened, and the sample IDs of every open fd of the evsels that carry IDs. */
static int perf_data_writer__collect_attrs(struct perf_data_writer *w)
{
	struct evsel *evsel;
	int i = 0;

	w->nr_attrs = evlist__nr_entries(w->evlist);
	w->attrs = calloc((size_t)w->nr_attrs, sizeof(*w->attrs));
	if (!w->attrs)
		return -ENOMEM;
	evlist__for_each_entry(w->evlist, evsel) {
		struct perf_data_attr *a = &w->attrs[i++];

		a->evsel = evsel;
		a->attr = evsel->attr;
		a->attr.size = sizeof(a->attr);
		if (!evsel->fd || !evsel__has_ids(evsel))
			continue;
		a->ids = calloc((size_t)evsel->fd_cpus * evsel->fd_threads, sizeof(*a->ids));
		if (!a->ids)
			return -ENOMEM;
		for (int c = 0; c < evsel->fd_cpus; c++) {
			for (int t = 0; t < evsel->fd_threads; t++) {
				int err;

				if (*evsel__fd_slot(evsel, c, t) < 0)
					continue;
				err = evsel__id(evsel, c, t, &a->ids[a->nr_ids]);
				if (err) {
					pr_err("perf.data: %s: PERF_EVENT_IOC_ID failed: %s\n",
					       evsel__name(evsel), strerror(-err));
					return err;
				}
				a->nr_ids++;
			}
		}
	}
	return 0;
}

/* File format: header (data size 0 until finish), the ID arrays, the attrs. */
static int perf_data_writer__start_file(struct perf_data_writer *w)
{
	struct perf_file_header *hdr = &w->header;
	struct perf_file_attr *fattrs;
	struct iovec *iov;
	uint64_t off = sizeof(*hdr);
	int flags, n = 0, err;

	flags = fcntl(w->fd, F_GETFL);
	if (flags >= 0 && (flags & O_APPEND)) {
		pr_err("perf.data: fd %d is open with O_APPEND, but the header at offset 0 is "
		       "rewritten at the end: open it without O_APPEND\n", w->fd);
		return -EINVAL;
	}
	if (lseek(w->fd, 0, SEEK_SET) < 0) {
		err = -errno;
		pr_err("perf.data: fd %d cannot seek (%s: a pipe or a socket?), and the file "
		       "format rewrites its header at the end: write perf's pipe format "
		       "(opts.pipe)\n", w->fd, strerror(-err));
		return err;
	}
	if (ftruncate(w->fd, 0) < 0) {
		err = -errno;
		pr_err("perf.data: cannot empty the file on fd %d: %s (open it for writing)\n",
		       w->fd, strerror(-err));
		return err;
	}
	fattrs = calloc((size_t)w->nr_attrs, sizeof(*fattrs));
	iov = calloc((size_t)w->nr_attrs + 2, sizeof(*iov));
	if (!fattrs || !iov) {
		free(fattrs);
		free(iov);
		return -ENOMEM;
	}
	*hdr = (struct perf_file_header){
		.magic = PERF_DATA_MAGIC,
		.size = sizeof(*hdr),
		.attr_size = sizeof(struct perf_file_attr),
	};
	iov[n++] = (struct iovec){ hdr, sizeof(*hdr) };
	for (int i = 0; i < w->nr_attrs; i++) {
		size_t len = (size_t)w->attrs[i].nr_ids * sizeof(uint64_t);

		fattrs[i].attr = w->attrs[i].attr;
		fattrs[i].ids = (struct perf_file_section){ len ? off : 0, len };
		if (len)
			iov[n++] = (struct iovec){ w->attrs[i].ids, len };
		off += len;
	}
	hdr->attrs = (struct perf_file_section){ off, w->nr_attrs * sizeof(*fattrs) };
	iov[n++] = (struct iovec){ fattrs, w->nr_attrs * sizeof(*fattrs) };
	hdr->data.offset = off + hdr->attrs.size;
	w->stats.data_offset = hdr->data.offset;
	err = perf_data_writer__put(w, iov, n);
	free(fattrs);
	free(iov);
	return err;
}

/* Pipe format: a feature section as a PERF_RECORD_HEADER_FEATURE, padded to 8. */
static int perf_data_writer__pipe_feature(struct perf_data_writer *w,
					  enum perf_header_feature feat,
					  const struct perf_data_buf *buf)
{
	static const uint64_t zeros;
	struct perf_record_header_feature fe = { .header.type = PERF_RECORD_HEADER_FEATURE };
	size_t pad = (8 - buf->len % 8) % 8;
	size_t size = sizeof(fe) + buf->len + pad;
	struct iovec iov[3] = {
		{ &fe, sizeof(fe) }, { buf->data, buf->len }, { (void *)&zeros, pad },
	};

	if (size > PERF_RECORD_MAX_SIZE) {
		pr_warn("perf.data: feature %s takes %zu bytes, more than a record of the pipe "
			"format holds: left out\n", perf_data_feature__name(feat), size);
		return 0;
	}
	fe.header.size = (uint16_t)size;
	fe.feat_id = feat;
	return perf_data_writer__put(w, iov, 3);
}

/* Pipe format: one PERF_RECORD_HEADER_ATTR per evsel: the attr, then its IDs. */
static int perf_data_writer__pipe_attr(struct perf_data_writer *w, const struct perf_data_attr *a)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_HEADER_ATTR };
	size_t size = sizeof(hdr) + sizeof(a->attr) + a->nr_ids * sizeof(uint64_t);
	struct iovec iov[3] = {
		{ &hdr, sizeof(hdr) }, { (void *)&a->attr, sizeof(a->attr) },
		{ a->ids, a->nr_ids * sizeof(uint64_t) },
	};

	if (size > PERF_RECORD_MAX_SIZE) {
		pr_err("perf.data: %s has %d sample IDs, more than one PERF_RECORD_HEADER_ATTR of "
		       "the pipe format holds: record on fewer CPUs or threads, or write the file "
		       "format\n", evsel__name(a->evsel), a->nr_ids);
		return -E2BIG;
	}
	hdr.size = (uint16_t)size;
	return perf_data_writer__put(w, iov, 3);
}

/* Pipe format: header, the attrs, the features; the records follow. */
static int perf_data_writer__start_pipe(struct perf_data_writer *w)
{
	struct perf_pipe_file_header ph = { .magic = PERF_DATA_MAGIC, .size = sizeof(ph) };
	int err = perf_data_writer__put_buf(w, &ph, sizeof(ph));

	for (int i = 0; !err && i < w->nr_attrs; i++)
		err = perf_data_writer__pipe_attr(w, &w->attrs[i]);
	for (int feat = HEADER_RESERVED + 1; !err && feat < HEADER_LAST_FEATURE; feat++) {
		struct perf_data_buf buf;

		perf_data_buf__init(&buf);
		if (perf_data_writer__feature(w, feat, &buf))
			err = perf_data_writer__pipe_feature(w, feat, &buf);
		perf_data_buf__exit(&buf);
	}
	w->stats.data_offset = w->offset;
	w->stats.data_size = 0;
	return err;
}

static ssize_t perf_data_writer__push_data(struct ring_sink *sink, const struct iovec *iov,
					   int iovcnt)
{
	struct perf_data_writer *w = container_of(sink, struct perf_data_writer, data_sink);
	size_t total = iov__total(iov, iovcnt);
	ssize_t n;

	if (total % 8) {
		pr_err("perf.data: the data sink takes whole perf records (8-byte multiples), "
		       "not %zu bytes\n", total);
		return libauxtrace__err(-EINVAL);
	}
	if (w->compressor) {
		int err = perf_data_compressor__push(w->compressor, iov, iovcnt);

		n = err ? err : (ssize_t)total;
	} else {
		n = perf_data_writer__writev(w, iov, iovcnt);
	}
	if (n > 0) {
		w->stats.ring_bytes += (uint64_t)n;
		perf_data_build_ids__note(w, iov, iovcnt);
	}
	return n;
}

/* The compressor's records (and what it stores plain) take the one write path. */
static ssize_t perf_data_writer__push_raw(struct ring_sink *sink, const struct iovec *iov,
					  int iovcnt)
{
	return perf_data_writer__writev(container_of(sink, struct perf_data_writer, raw_sink),
					iov, iovcnt);
}

static ssize_t perf_data_writer__push_aux(struct ring_sink *sink, const struct iovec *iov,
					  int iovcnt)
{
	struct perf_data_writer *w = container_of(sink, struct perf_data_writer, aux_sink);
	struct perf_record_auxtrace ev = { 0 };
	uint64_t at = w->offset;
	ssize_t n;

	if (iovcnt >= 1 && iov[0].iov_len >= sizeof(ev))
		memcpy(&ev, iov[0].iov_base, sizeof(ev));
	if (ev.header.type != PERF_RECORD_AUXTRACE || ev.header.size != sizeof(ev) ||
	    ev.size % 8 || iov__total(iov, iovcnt) != sizeof(ev) + ev.size) {
		pr_err("perf.data: the AUX sink takes one PERF_RECORD_AUXTRACE frame per push, as "
		       "auxtrace_mmap__read makes them (the 48-byte record, then its size bytes "
		       "of payload padded to 8)\n");
		return libauxtrace__err(-EINVAL);
	}
	if (!w->wrote_auxtrace_info) {
		pr_err("perf.data: PERF_RECORD_AUXTRACE before any PERF_RECORD_AUXTRACE_INFO: perf "
		       "refuses such a file; write it first (perf_data_writer__write_prologue or "
		       "__write_auxtrace_info)\n");
		return libauxtrace__err(-EINVAL);
	}
	n = perf_data_writer__writev(w, iov, iovcnt);
	if (n < 0)
		return n;
	w->stats.aux_frames++;
	w->stats.aux_bytes += (uint64_t)n;
	/*
	 * The frame is in the file: failing now would make the ring offer it again. Without
	 * its index entry the index is wrong, so finish leaves the index out and perf finds
	 * the AUX data as it reads the records.
	 */
	if (w->index && auxtrace_index__add(w->index, at, sizeof(ev))) {
		pr_warn("perf.data: no memory for the AUXTRACE index: the file goes without it "
			"(perf then reads the AUX data in record order)\n");
		auxtrace_index__delete(w->index);
		w->index = NULL;
	}
	return n;
}

static int perf_data_writer__copy_opts(struct perf_data_writer *w,
				       const struct perf_data_writer_opts *o)
{
	w->pipe = o->pipe;
	w->no_build_ids = o->no_build_ids;
	if (o->clock_ref_ns && o->wall_ref_ns) {
		w->clock_ref_ns = o->clock_ref_ns;
		w->wall_ref_ns = o->wall_ref_ns;
	}
	if (o->compression_level &&
	    !(w->compressor = perf_data_compressor__new(o->compression_level, &w->raw_sink,
							&w->stats)))
		return -errno;
	if (o->sysfs_root && !(w->sysfs_root = strdup(o->sysfs_root)))
		return -ENOMEM;
	if (!o->argv)
		return 0;
	if (o->argc < 0) {
		pr_err("perf.data: opts.argc is %d: give the number of strings in opts.argv\n",
		       o->argc);
		return -EINVAL;
	}
	w->argv = calloc((size_t)o->argc + 1, sizeof(*w->argv));
	if (!w->argv)
		return -ENOMEM;
	for (w->argc = 0; w->argc < o->argc; w->argc++)
		if (!(w->argv[w->argc] = strdup(o->argv[w->argc] ? o->argv[w->argc] : "")))
			return -ENOMEM;
	return 0;
}

struct perf_data_writer *perf_data_writer__new(int fd, struct evlist *evlist,
					       const struct perf_data_writer_opts *opts)
{
	struct perf_data_writer_opts o;
	struct perf_data_writer *w;
	int err;

	if (fd < 0 || !evlist) {
		pr_err("perf.data: a writer needs an fd and the session's evlist\n");
		return libauxtrace__ptr_err(-EINVAL);
	}
	err = opts__copy(perf_data_writer_opts, &o, opts);
	if (err)
		return libauxtrace__ptr_err(err);
	err = perf_data_writer__check_evlist(evlist);
	if (err)
		return libauxtrace__ptr_err(err);
	w = calloc(1, sizeof(*w));
	if (!w)
		return libauxtrace__ptr_err(-ENOMEM);
	w->fd = fd;
	w->evlist = evlist;
	ring_sink_fd__init(&w->out, fd);
	w->data_sink.push = perf_data_writer__push_data;
	w->aux_sink.push = perf_data_writer__push_aux;
	w->raw_sink.push = perf_data_writer__push_raw;
	err = perf_data_writer__copy_opts(w, &o);
	if (!err)
		err = perf_data_writer__collect_attrs(w);
	if (!err && !w->pipe && !(w->index = auxtrace_index__new()))
		err = -ENOMEM;
	if (!err && !w->pipe && !w->no_build_ids)
		err = perf_data_build_ids__new(w);
	if (!err)
		err = w->pipe ? perf_data_writer__start_pipe(w) : perf_data_writer__start_file(w);
	if (err) {
		perf_data_writer__delete(w);
		return libauxtrace__ptr_err(err);
	}
	return w;
}

void perf_data_writer__delete(struct perf_data_writer *w)
{
	if (!w)
		return;
	for (int i = 0; w->attrs && i < w->nr_attrs; i++)
		free(w->attrs[i].ids);
	free(w->attrs);
	for (int i = 0; w->argv && i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	free(w->sysfs_root);
	free(w->tracing_data);
	perf_data_build_ids__delete(w);
	perf_data_compressor__delete(w->compressor);
	auxtrace_index__delete(w->index);
	free(w);
}

struct ring_sink *perf_data_writer__data_sink(struct perf_data_writer *w)
{
	return &w->data_sink;
}

struct ring_sink *perf_data_writer__aux_sink(struct perf_data_writer *w)
{
	return &w->aux_sink;
}

const struct perf_data_writer_stats *perf_data_writer__stats(const struct perf_data_writer *w)
{
	return &w->stats;
}

/* iov whole at offset off of fd (w->fd, or the recovery file), or -errno. */
static int perf_data_writer__write_at(int fd, const struct iovec *iov, int iovcnt,
				      uint64_t off)
{
	struct ring_sink_fd out;
	ssize_t n;

	if (lseek(fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	ring_sink_fd__init(&out, fd);
	n = out.sink.push(&out.sink, iov, iovcnt);
	return n < 0 ? (int)n : 0;
}

struct perf_data_section {
	enum perf_header_feature feat;
	struct perf_data_buf buf;
	bool index;		/* the AUXTRACE index, written from its chunks */
};

/* Which feature sections: all, or only those perf cannot read the records without. */
enum perf_data_features {
	PERF_DATA_FEATURES_ALL,
	PERF_DATA_FEATURES_NEEDED,	/* the tracepoints' tracing data, -z's parameters */
	PERF_DATA_FEATURES_FORMATS,	/* those, the tracing data cut to its formats */
};

/* Where a set of feature sections goes: the file, or the recovery file. */
struct perf_data_feature_target {
	int fd;
	uint64_t at;			/* where the table is written */
	uint64_t base;			/* what the table's offsets count from, minus at */
	uint64_t *features;		/* the bitmap of those written */
	enum perf_data_features which;
	uint64_t size;			/* out: the bytes they take, table included */
};

/* Section feat of the set which into buf (empty); false when it is not in the file. */
static bool perf_data_writer__section(struct perf_data_writer *w, enum perf_header_feature feat,
				      enum perf_data_features which, struct perf_data_buf *buf)
{
	if (which != PERF_DATA_FEATURES_ALL && feat != HEADER_TRACING_DATA &&
	    feat != HEADER_COMPRESSED)
		return false;
	if (which == PERF_DATA_FEATURES_FORMATS && feat == HEADER_TRACING_DATA &&
	    w->tracing_data &&
	    !perf_data_tracing__formats_only(w->tracing_data, w->tracing_data_size, buf))
		return true;
	/* and tracing data not laid out as perf's goes whole */
	perf_data_buf__exit(buf);
	perf_data_buf__init(buf);
	return perf_data_writer__feature(w, feat, buf);
}

/*
 * The feature table at t->at, then the payloads in bit order. A feature that cannot be
 * built is left out; a write error leaves none (the file is cut back to t->at) and is
 * returned.
 */
static int perf_data_writer__write_features(struct perf_data_writer *w,
					    struct perf_data_feature_target *t)
{
	struct perf_data_section secs[HEADER_LAST_FEATURE];
	struct perf_file_section table[HEADER_LAST_FEATURE];
	struct iovec iov[HEADER_LAST_FEATURE + 1];
	uint64_t off;
	int nr = 0, n = 0, err = 0;

	for (int feat = HEADER_RESERVED + 1; feat < HEADER_LAST_FEATURE; feat++) {
		struct perf_data_section *s = &secs[nr];

		s->feat = feat;
		s->index = feat == HEADER_AUXTRACE;
		perf_data_buf__init(&s->buf);
		if (s->index ? t->which == PERF_DATA_FEATURES_ALL && w->index &&
			       auxtrace_index__nr(w->index)
			     : perf_data_writer__section(w, feat, t->which, &s->buf))
			nr++;
		else
			perf_data_buf__exit(&s->buf);
	}
	off = t->base + t->at + nr * sizeof(table[0]);
	iov[n++] = (struct iovec){ table, nr * sizeof(table[0]) };
	for (int i = 0; i < nr; i++) {
		uint64_t size = secs[i].index ? auxtrace_index__section_size(w->index)
					      : secs[i].buf.len;

		table[i] = (struct perf_file_section){ off, size };
		t->features[secs[i].feat / 64] |= 1ULL << (secs[i].feat % 64);
		off += size;
	}
	t->size = off - t->base - t->at;
	/* One write up to the index, the index from its chunks, one write for the rest. */
	off = t->at;
	for (int i = 0; !err && i <= nr; i++) {
		if (i < nr && !secs[i].index) {
			iov[n++] = (struct iovec){ secs[i].buf.data, secs[i].buf.len };
			continue;
		}
		err = perf_data_writer__write_at(t->fd, iov, n, off);
		off += iov__total(iov, n);
		n = 0;
		if (!err && i < nr) {
			err = auxtrace_index__write(w->index, t->fd);
			off += auxtrace_index__section_size(w->index);
		}
	}
	for (int i = 0; i < nr; i++)
		perf_data_buf__exit(&secs[i].buf);
	if (err) {
		memset(t->features, 0, PERF_DATA_FEATURE_WORDS * sizeof(*t->features));
		if (ftruncate(t->fd, (off_t)t->at) < 0)
			pr_debug("perf.data: cutting the features off failed: %s\n",
				 strerror(errno));
	}
	return err;
}

int perf_data_writer__write_recovery(struct perf_data_writer *w, int fd)
{
	struct perf_data_recovery_head head = { .magic = PERF_DATA_RECOVERY_MAGIC };
	struct perf_data_feature_target t = {
		.fd = fd, .at = sizeof(head), .base = -(uint64_t)sizeof(head),
		.features = head.features,
	};
	struct iovec iov = { &head, sizeof(head) };
	int err;

	if (!w || fd < 0 || w->pipe)
		return libauxtrace__err(-EINVAL);
	err = perf_data_writer__write_features(w, &t);
	if (!err)
		err = perf_data_writer__write_at(fd, &iov, 1, 0);
	return libauxtrace__err(err);
}

int perf_data_writer__sync_header(struct perf_data_writer *w)
{
	struct perf_file_header hdr = w->header;

	if (w->pipe || w->stats.finished || w->stats.error)
		return 0;
	/* the whole records so far; the feature bits wait for finish (no sections yet) */
	hdr.data.size = w->stats.data_size;
	if (pwrite(w->fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return -errno ?: -EIO;
	return 0;
}

static bool error__is_space(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EFBIG;
}

/*
 * The data section's last record boundary at or before data size want: walked from the
 * newest round boundary before it (the data's start when the rounds were all later).
 */
static uint64_t perf_data_writer__boundary(struct perf_data_writer *w, uint64_t want)
{
	uint64_t from = 0, records = 0;

	for (int i = 0; i < PERF_DATA_ROUND_MARKS; i++)
		if (w->round_marks[i] <= want && w->round_marks[i] > from)
			from = w->round_marks[i];
	return from + perf_data__walk_records(w->fd, w->stats.data_offset + from,
					      w->stats.data_offset + want, &records);
}

/* Cut the records after data size keep (a record boundary) off the data section and file. */
static int perf_data_writer__cut_records(struct perf_data_writer *w, uint64_t keep)
{
	uint64_t end = w->stats.data_offset + keep, records = 0;

	perf_data__walk_records(w->fd, end, w->stats.data_offset + w->stats.data_size, &records);
	if (ftruncate(w->fd, (off_t)end) < 0)
		return -errno;
	w->stats.cut_bytes += w->stats.data_size - keep;
	w->stats.cut_records += records;
	w->stats.data_size = keep;
	w->offset = end;
	return 0;
}

/*
 * The feature sections after the data, as many as fit. When they do not (a full disk,
 * ulimit -f), those perf can do without go first, then the tracing data's tables after
 * the formats; if what perf needs to read the records still does not fit, records are cut
 * off the end, at a record boundary, until it does: perf reads no tracepoint sample without
 * its format, so records without it are lost anyway. They are cut only when that can make
 * the room (no more than what is needed, give or take a few pages of the file system);
 * otherwise the file keeps them all and goes without (unreadable). *which: the set written.
 * Returns 0, or the error of the first, whole set.
 */
static int perf_data_writer__fit_features(struct perf_data_writer *w,
					  enum perf_data_features *which)
{
	struct perf_data_feature_target t = {
		.fd = w->fd, .at = w->stats.data_offset + w->stats.data_size,
		.features = w->header.adds_features,
	};
	int err = perf_data_writer__write_features(w, &t), e = err;
	bool can_cut;

	for (int i = PERF_DATA_FEATURES_NEEDED; e && i <= PERF_DATA_FEATURES_FORMATS; i++) {
		t.which = i;
		e = perf_data_writer__write_features(w, &t);
	}
	*which = t.which;
	w->stats.needed_bytes = t.which == PERF_DATA_FEATURES_ALL ? 0 : t.size;
	w->stats.features_left_out = err != 0;
	/* t.size: what perf needs, which the records can make room for when they are more */
	can_cut = e && error__is_space(e) && t.size <= w->stats.data_size;
	for (uint64_t room = t.size + 4096; can_cut && e && w->stats.data_size; room *= 2) {
		uint64_t keep = w->stats.data_size > room ? w->stats.data_size - room : 0;

		e = perf_data_writer__cut_records(w, perf_data_writer__boundary(w, keep));
		t.at = w->stats.data_offset + w->stats.data_size;
		if (!e)
			e = perf_data_writer__write_features(w, &t);
	}
	w->stats.unreadable = e != 0;
	return err;
}

/* What perf needs of the feature sections to read this file's records, for messages. */
static const char *perf_data_writer__needs(const struct perf_data_writer *w)
{
	if (w->tracing_data && w->compressor)
		return "the tracepoints' formats and -z's parameters";
	return w->tracing_data ? "the tracepoints' formats" : "-z's parameters";
}

/* What the file is, now that finish is done with it: the end of its message. */
static void perf_data_writer__say_kept(const struct perf_data_writer *w,
				       enum perf_data_features which, char *buf, size_t size)
{
	const struct perf_data_writer_stats *st = &w->stats;
	int n = 0;

	if (st->unreadable) {
		snprintf(buf, size, "perf cannot read the file: the sections it needs for these "
			 "events (%s: %llu bytes) do not fit on the file system%s; the file keeps "
			 "%llu bytes of records%s, without feature sections: free space (or record "
			 "elsewhere) and record again", perf_data_writer__needs(w),
			 (unsigned long long)st->needed_bytes, st->cut_bytes ?
			 ", not even in place of the records cut" :
			 ", not even in place of all the records", (unsigned long long)st->data_size,
			 st->cut_bytes ? " (more were cut off its end)" : "");
		return;
	}
	n += snprintf(buf + n, size - n, "the file is valid %s %llu bytes of records",
		      st->error ? "and incomplete, with the" : st->cut_bytes ? "with" : "with all",
		      (unsigned long long)st->data_size);
	if (st->error && n < (int)size)
		n += snprintf(buf + n, size - n, " written before it");
	if (st->cut_bytes && n < (int)size)
		n += snprintf(buf + n, size - n, ", after %llu bytes (%llu records) were cut off "
			      "its end to make room for %s, without which perf reads none",
			      (unsigned long long)st->cut_bytes, (unsigned long long)st->cut_records,
			      perf_data_writer__needs(w));
	if (st->features_left_out && n < (int)size)
		snprintf(buf + n, size - n, "; it goes without hostname, event names, build IDs "
			 "and the AUXTRACE index%s", which == PERF_DATA_FEATURES_FORMATS &&
			 w->tracing_data ? ", and the tracing data without kernel symbols, printk "
			 "formats and saved cmdlines" : "");
}

static int perf_data_writer__finish_file(struct perf_data_writer *w)
{
	struct iovec iov = { &w->header, sizeof(w->header) };
	enum perf_data_features which;
	int err = w->stats.error, ferr, herr;
	char kept[768];

	ferr = perf_data_writer__fit_features(w, &which);
	w->header.data.size = w->stats.data_size;
	herr = perf_data_writer__write_at(w->fd, &iov, 1, 0);
	if (herr) {
		/* perf refuses tracepoint events without the formats, and -z without its setup */
		w->stats.unreadable = w->tracing_data || w->compressor;
		pr_err("perf.data: rewriting the header failed: %s%s. perf sees an unfinished "
		       "recording (data size %llu, of the last round, and no feature sections: "
		       "perf_data__recover() completes it); the whole records end at byte %llu\n",
		       strerror(-herr), perf_data_writer__hint(herr),
		       (unsigned long long)w->round_mark,
		       (unsigned long long)(w->stats.data_offset + w->stats.data_size));
		return err ? err : herr;
	}
	w->stats.finished = true;
	if (!err && !ferr)
		return 0;
	perf_data_writer__say_kept(w, which, kept, sizeof(kept));
	if (err)
		pr_err("perf.data: the recording stopped at a write error (%s): %s\n",
		       strerror(-err), kept);
	else
		pr_err("perf.data: writing the feature sections failed: %s%s. %s\n",
		       strerror(-ferr), perf_data_writer__hint(ferr), kept);
	return err ? err : ferr;
}

int perf_data_writer__finish(struct perf_data_writer *w)
{
	if (w->stats.finished)
		return libauxtrace__err(-EALREADY);
	if (w->pipe) {
		w->stats.finished = true;
		return libauxtrace__err(w->stats.error);
	}
	return libauxtrace__err(perf_data_writer__finish_file(w));
}
