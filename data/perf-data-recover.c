// SPDX-License-Identifier: LGPL-2.1
/*
 * A perf.data whose writer died: the header says how far the data went at the last round
 * (or 0, from an older writer), the records after it are whole but for perhaps the last,
 * and the feature sections are missing. Walk the records to the last whole one, cut off
 * the rest, append the features the writer saved at the start, and give the header the
 * truth.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/event.h>
#include <auxtrace/perf-data-format.h>
#include <internal/lib.h>
#include "perf-data-internal.h"

/* Records are read in windows of this size; one larger than that is read alone. */
#define RECOVER_WINDOW	(1u << 20)
/* Beyond the user types: what a torn or never-written stretch holds, not a record. */
#define RECOVER_MAX_TYPE	(PERF_RECORD_FINISHED_INIT + 16)

/* The size of the record at off (with an AUXTRACE frame's payload), 0 if none is whole. */
static uint64_t recover__record(int fd, uint64_t off, uint64_t end)
{
	struct perf_record_auxtrace ev;
	ssize_t n = pread(fd, &ev, sizeof(ev), (off_t)off);
	uint64_t size;

	if (n < (ssize_t)sizeof(ev.header))
		return 0;
	size = ev.header.size;
	/* -z's COMPRESSED records are as long as their zstd frame: perf does not pad them */
	if (size < sizeof(ev.header) || (size % 8 && ev.header.type != PERF_RECORD_COMPRESSED) ||
	    !ev.header.type || ev.header.type >= RECOVER_MAX_TYPE)
		return 0;
	if (ev.header.type == PERF_RECORD_AUXTRACE) {
		if (n < (ssize_t)sizeof(ev) || size != sizeof(ev) || ev.size % 8 ||
		    ev.size > end - off)
			return 0;
		size += ev.size;
	}
	return size <= end - off ? size : 0;
}

uint64_t perf_data__walk_records(int fd, uint64_t off, uint64_t end, uint64_t *records)
{
	uint64_t start = off, size;

	while (off < end && (size = recover__record(fd, off, end))) {
		off += size;
		(*records)++;
	}
	return off - start;
}

/*
 * The recovery file's sections, their table's offsets moved to start at base, into *data,
 * which the caller frees also when this fails.
 */
static int recover__features(int features_fd, uint64_t base, void **data, size_t *len,
			     uint64_t *features)
{
	struct perf_data_recovery_head head;
	struct perf_file_section *table;
	struct stat st;
	int nr = 0;

	if (fstat(features_fd, &st) < 0)
		return -errno;
	if (pread(features_fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    head.magic != PERF_DATA_RECOVERY_MAGIC || st.st_size < (off_t)sizeof(head)) {
		pr_err("perf.data: the recovery file is not one perf_data_writer__write_recovery() wrote\n");
		return -EINVAL;
	}
	*len = (size_t)st.st_size - sizeof(head);
	*data = malloc(*len ?: 1);
	if (!*data)
		return -ENOMEM;
	if (pread(features_fd, *data, *len, sizeof(head)) != (ssize_t)*len)
		return -EIO;
	for (int w = 0; w < PERF_DATA_FEATURE_WORDS; w++)
		nr += __builtin_popcountll(head.features[w]);
	table = *data;
	if ((size_t)nr * sizeof(*table) > *len)
		return -EINVAL;
	for (int i = 0; i < nr; i++)
		table[i].offset += base;
	memcpy(features, head.features, sizeof(head.features));
	return 0;
}

int perf_data__recover(int fd, int features_fd, struct perf_data_recovery *r)
{
	struct perf_data_recovery none;
	struct perf_file_header hdr;
	struct stat st;
	void *feat = NULL;
	size_t feat_len = 0;
	uint64_t end;
	int err = 0;

	r = r ?: &none;
	memset(r, 0, sizeof(*r));
	if (fstat(fd, &st) < 0)
		return libauxtrace__err(-errno);
	if (pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    hdr.magic != PERF_DATA_MAGIC || hdr.size != sizeof(hdr) ||
	    hdr.data.offset < sizeof(hdr) || hdr.data.offset > (uint64_t)st.st_size) {
		pr_err("perf.data: not a perf.data file in the file format (magic, header size or data offset wrong)\n");
		return libauxtrace__err(-EINVAL);
	}
	for (int w = 0; w < PERF_DATA_FEATURE_WORDS; w++)
		r->finished |= hdr.adds_features[w] != 0;
	if (r->finished && hdr.data.size) {
		r->data_size = hdr.data.size;
		return 0;
	}
	end = (uint64_t)st.st_size;
	r->data_size = perf_data__walk_records(fd, hdr.data.offset, end, &r->records);
	r->torn_bytes = end - hdr.data.offset - r->data_size;
	hdr.data.size = r->data_size;
	memset(hdr.adds_features, 0, sizeof(hdr.adds_features));
	if (features_fd >= 0)
		err = recover__features(features_fd, hdr.data.offset + hdr.data.size, &feat,
					&feat_len, hdr.adds_features);
	if (!err && ftruncate(fd, (off_t)(hdr.data.offset + hdr.data.size)) < 0)
		err = -errno;
	if (!err && feat_len &&
	    pwrite(fd, feat, feat_len, (off_t)(hdr.data.offset + hdr.data.size)) !=
	    (ssize_t)feat_len)
		err = -errno ?: -EIO;
	if (!err && pwrite(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		err = -errno ?: -EIO;
	free(feat);
	if (err)
		pr_err("perf.data: recovering the file failed: %s\n", strerror(-err));
	return libauxtrace__err(err);
}
