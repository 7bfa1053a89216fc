/* SPDX-License-Identifier: LGPL-2.1 */
/* What a recording that filled its filesystem says about it. */
#ifndef AUXREC_DISK_FULL_H
#define AUXREC_DISK_FULL_H

/*
 * "the filesystem mounted at M (type, size) is full: FILE holds N KiB, ..." for the files
 * (NULL-terminated, NULL entries skipped) of a recording in dir, on stderr.
 */
void disk_full__say(const char *dir, const char *const *files, int nr);

struct perf_data_writer_stats;
/*
 * A perf.data whose writer finished after the write error err: how many samples perf reads
 * in it (read back from path), or that perf cannot read it and why, on stderr.
 */
void disk_full__say_perf_data(const char *path, const struct perf_data_writer_stats *st,
			      int err);

#endif
