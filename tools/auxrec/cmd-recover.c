// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec recover: make the files of a recording whose auxrec died (SIGKILL, the OOM killer,
 * a power cut) whole from what it left: perf.data's header and feature sections from the
 * records present and DIR/perf.data.features, trace.dat from its spool DIR/trace.dat.spool/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/perf-data.h>
#include <tracefs/trace-dat.h>
#include <tracefs/tracefs.h>
#include "cmd.h"
#include "error.h"
#include "ftrace.h"
#include "recording-file.h"

static const char recover_usage[] =
	"usage: auxrec recover [DIR]\n"
	"\n"
	"Make the files of a recording whose auxrec record died (killed, out of memory, a\n"
	"power cut) readable by perf and trace-cmd, up to what was drained: perf.data gets\n"
	"the data size of the whole records in it (a torn last one is cut off) and the\n"
	"feature sections saved at the start (DIR/perf.data.features); trace.dat is laid\n"
	"out of its spool (DIR/trace.dat.spool/: the description written at the start and\n"
	"each CPU's sub-buffers), compressed when it was recorded with -z. What the dead\n"
	"recording's tracefs instance still holds goes in first, and the instance is\n"
	"removed. DIR defaults to auxrec.data. A finished recording is left as it is.\n";

static char *path_of(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static int recover_perf_data(const char *dir)
{
	char *path = path_of(dir, "perf.data"), *feat = path_of(dir, "perf.data.features");
	struct perf_data_recovery r;
	int fd = path ? open(path, O_RDWR | O_CLOEXEC) : -1, ffd = -1, err;

	if (!path || !feat || fd < 0) {
		err = path && feat ? -errno : -ENOMEM;
		if (err != -ENOENT)
			auxrec_error("%s: %s", path ? path : dir, auxrec_strerror(-err));
		goto out;
	}
	ffd = open(feat, O_RDONLY | O_CLOEXEC);
	err = perf_data__recover(fd, ffd, &r);
	if (err)
		auxrec_file_error(path, "cannot recover it", err);
	else if (r.finished)
		printf("%s: finished, left as it is\n", path);
	else
		printf("%s: %llu records (%.1f KiB) kept%s%s\n", path,
		       (unsigned long long)r.records, r.data_size / 1024.0,
		       r.torn_bytes ? ", a torn last record cut off" : "",
		       ffd < 0 ? ", without feature sections (no perf.data.features)" : "");
	if (!err && ffd >= 0)
		unlink(feat);
out:
	if (ffd >= 0)
		close(ffd);
	if (fd >= 0)
		close(fd);
	free(path);
	free(feat);
	return err == -ENOENT ? 0 : err;
}

/*
 * The dead recording's tracefs instance, when it is still there: its events kept writing
 * into its ring buffer after the kill. What it holds goes into the spool, as the recording's
 * last drain would have put it, and the instance goes. One that is gone says nothing; one
 * whose auxrec lives is that recording's, and is left alone.
 */
static void recover_instance(const char *path)
{
	char *name = trace_dat__spool_instance(path);
	struct tracefs_instance *inst;
	int64_t drained;
	long pid;

	if (!name || !tracefs_instance_exists(name)) {
		free(name);
		return;
	}
	if (!ftrace_instance__abandoned(name, &pid)) {
		auxrec_warning("tracefs instance %s, which this recording used, belongs to a "
			       "running %s: left as it is, and what it holds is not in %s", name,
			       pid ? "auxrec" : "program (not named by auxrec)", path);
		free(name);
		return;
	}
	inst = tracefs_instance_alloc(NULL, name);
	drained = inst ? trace_dat__spool_drain(path, inst) : -errno;
	if (drained >= 0)
		printf("%s: drained %.1f KiB still in tracefs instance %s, left by the dead "
		       "recording (its events were still enabled)\n", path, drained / 1024.0, name);
	else
		auxrec_file_error(path, "cannot add what its tracefs instance still holds",
				  (int)drained);
	if (inst && tracefs_instance_destroy(inst) == 0)
		printf("%s: removed tracefs instance %s\n", path, name);
	else
		auxrec_error("cannot remove tracefs instance %s: %s; remove it with rmdir "
			     "%s/instances/%s", name, auxrec_strerror(errno),
			     tracefs_tracing_dir(), name);
	tracefs_instance_free(inst);
	free(name);
}

/* "version 7, zstd" or "version 6": what trace-cmd will find. */
static const char *trace_dat_version(const char *path)
{
	char head[16] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, head, sizeof(head) - 1) < 0)
			head[0] = '\0';
		close(fd);
	}
	return !strcmp(head + 10, "7") ? "version 7, zstd" : "version 6";
}

static int recover_trace_dat(const char *dir)
{
	char *path = path_of(dir, "trace.dat"), *spool = path_of(dir, "trace.dat.spool");
	struct stat st;
	int err = path && spool ? 0 : -ENOMEM;

	if (!err && stat(spool, &st) == 0) {
		recover_instance(path);
		err = trace_dat__recover(path);
		if (err)
			auxrec_file_error(spool, "cannot lay out trace.dat from it", err);
		else if (stat(path, &st) == 0)
			printf("%s: laid out of its spool (%.1f KiB, %s)\n", path,
			       st.st_size / 1024.0, trace_dat_version(path));
	}
	free(path);
	free(spool);
	return err;
}

int cmd_recover(int argc, char **argv)
{
	const char *dir = "auxrec.data";
	int err;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(recover_usage, stdout);
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fputs(recover_usage, stderr);
		return 2;
	}
	if (argc == 2)
		dir = argv[1];
	if (!recording_file__unfinished(dir)) {
		printf("%s: a finished recording (no spool, no perf.data.features): nothing to recover\n",
		       dir);
		return 0;
	}
	err = recover_perf_data(dir);
	err = recover_trace_dat(dir) ?: err;
	return err ? 1 : 0;
}
