// SPDX-License-Identifier: LGPL-2.1
/*
 * Where auxrec record's data goes: a directory holding perf.data (always) and trace.dat
 * (with ftrace events), or perf.data in perf's pipe format on stdout. An existing recording
 * is kept as DIR.old, as perf keeps perf.data.old; a directory that is not a recording is
 * never touched. Both files are finished whatever ended the recording, so that perf and
 * trace-cmd read what was captured, and the summary says where they are.
 */
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/synthesize.h>
#include "disk-full.h"
#include "error.h"
#include "record.h"

/* What a recording directory may hold: anything else means it is not ours to replace. */
/* and what a recording that died leaves for auxrec recover: saved features, the spool */
static const char *const recording_files[] = { "perf.data", "trace.dat", "report.html",
					      "perf.data.features", "trace.dat.spool" };

static bool record__is_recording_file(const char *name)
{
	for (size_t i = 0; i < sizeof(recording_files) / sizeof(recording_files[0]); i++)
		if (!strcmp(name, recording_files[i]))
			return true;
	return false;
}

/* 1: dir is a recording (or empty), 0: it holds something else, -errno: unreadable. */
static int record__is_recording_dir(const char *dir, char *stranger, size_t size)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int ours = 1;

	if (!dp)
		return -errno;
	while (ours && (d = readdir(dp)) != NULL) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (!record__is_recording_file(d->d_name)) {
			snprintf(stranger, size, "%s", d->d_name);
			ours = 0;
		}
	}
	closedir(dp);
	return ours;
}

/* trace.dat.spool/ of a recording that died: its files (head, clock, cpuN), then itself. */
static int record__remove_spool(const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *d;

	if (!dp)
		return -errno;
	while ((d = readdir(dp)) != NULL)
		if (d->d_name[0] != '.')
			unlinkat(dirfd(dp), d->d_name, 0);
	closedir(dp);
	return rmdir(path) < 0 ? -errno : 0;
}

/* Remove a recording directory: only the files a recording holds, then the directory. */
int record__remove_recording(const char *dir)
{
	char path[4096];

	for (size_t i = 0; i < sizeof(recording_files) / sizeof(recording_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, recording_files[i]);
		if (unlink(path) < 0 && errno != ENOENT &&
		    (errno != EISDIR || record__remove_spool(path) < 0))
			return -errno;
	}
	return rmdir(dir) < 0 ? -errno : 0;
}

/* DIR exists: keep it as DIR.old (replacing an older one), if it is a recording. */
static int record__keep_old(const char *dir)
{
	char old[4096], stranger[256] = "";
	int ours = record__is_recording_dir(dir, stranger, sizeof(stranger));

	if (ours < 0) {
		auxrec_error("-o %s: exists and is not a directory auxrec can read (%s); give a new "
			     "directory with -o DIR", dir, auxrec_strerror(-ours));
		return ours;
	}
	if (!ours) {
		auxrec_error("-o %s: exists and is not an auxrec recording (it holds %s); give a new "
			     "directory with -o DIR", dir, stranger);
		return -EEXIST;
	}
	snprintf(old, sizeof(old), "%s.old", dir);
	if (access(old, F_OK) == 0) {
		ours = record__is_recording_dir(old, stranger, sizeof(stranger));
		if (ours <= 0 || record__remove_recording(old) < 0) {
			auxrec_error("%s: cannot replace it with the previous recording (%s); remove "
				     "it or give another directory with -o DIR", old,
				     ours == 0 ? "it is not an auxrec recording" : auxrec_strerror(errno));
			return -EEXIST;
		}
	}
	if (rename(dir, old) < 0) {
		int err = -errno;

		auxrec_error("cannot keep the previous recording %s as %s: %s", dir, old,
			     auxrec_strerror(-err));
		return err;
	}
	return 0;
}

/* FILE exists: keep it as FILE.old, as perf record keeps perf.data.old. */
static int record__keep_old_file(const char *file)
{
	char old[4096];

	snprintf(old, sizeof(old), "%s.old", file);
	if (rename(file, old) == 0)
		return 0;
	auxrec_error("cannot keep the previous recording %s as %s: %s", file, old,
		     auxrec_strerror(errno));
	return -errno;
}

static bool record__ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n > m && !strcmp(s + n - m, end);
}

/* mkdir's or open's ENOENT: which part of the path is missing, or that it takes no entries. */
static const char *record__why_enoent(const char *path, char *buf, size_t size)
{
	char *copy = strdup(path), *slash = copy ? strrchr(copy, '/') : NULL;

	if (!slash)
		snprintf(buf, size, "%s", "");
	else {
		*slash = '\0';
		if (!*copy)
			strcpy(copy, "/");
		if (access(copy, F_OK) < 0)
			snprintf(buf, size, " (%s does not exist)", copy);
		else
			snprintf(buf, size, " (%s takes no new entries: choose a writable place "
				 "with -o)", copy);
	}
	free(copy);
	return buf;
}

/* perf.data (or FILE.data), new. */
static int record__open_perf_file(struct record *rec)
{
	char why[PATH_MAX + 64];
	int err;

	rec->perf_fd = open(rec->perf_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (rec->perf_fd >= 0)
		return 0;
	err = -errno;
	auxrec_error("cannot create %s: %s%s", rec->perf_path, auxrec_strerror(-err),
		     err == -ENOENT ? record__why_enoent(rec->perf_path, why, sizeof(why)) : "");
	return err;
}

/*
 * -o FILE.data with perf events only: the file itself, as perf record -o writes it, so that
 * perf report -i FILE.data opens what a perf user named.
 */
static int record__prepare_file(struct record *rec)
{
	struct stat st;
	int err;

	if (stat(rec->output, &st) == 0) {
		err = S_ISDIR(st.st_mode) ? record__keep_old(rec->output) :
					    record__keep_old_file(rec->output);
		if (err < 0)
			return err;
	}
	rec->perf_path = strdup(rec->output);
	if (!rec->perf_path)
		return -ENOMEM;
	err = record__open_perf_file(rec);
	if (err) {
		free(rec->perf_path);
		rec->perf_path = NULL;
	}
	return err;
}

/* The output directory, new; nothing is made when it fails. */
static int record__make_dir(struct record *rec)
{
	char why[PATH_MAX + 64];
	int err;

	if (mkdir(rec->output, 0755) == 0)
		return 0;
	err = -errno;
	auxrec_error("cannot create the output directory %s: %s%s", rec->output,
		     auxrec_strerror(-err),
		     err == -ENOENT ? record__why_enoent(rec->output, why, sizeof(why)) :
		     err == -EACCES || err == -EROFS ? " (choose a writable place with -o DIR)" :
		     "");
	return err;
}

int record__create_files(struct record *rec)
{
	int err = rec->output_file ? 0 : record__make_dir(rec);

	return err ? err : record__open_perf_file(rec);
}

int record__prepare_output(struct record *rec)
{
	bool data_name = rec->output_given && record__ends_with(rec->output, ".data");
	struct stat st;
	int err;

	if (rec->to_stdout) {
		if (isatty(STDOUT_FILENO)) {
			auxrec_error("-o - writes binary perf.data to stdout, which is a terminal: pipe "
				     "it (auxrec record -o - ... | perf script -i -) or give -o DIR");
			return -EINVAL;
		}
		rec->perf_fd = STDOUT_FILENO;
		return 0;
	}
	rec->output_file = data_name && !rec->nr_ftrace_events;
	if (rec->output_file)
		return record__prepare_file(rec);
	if (stat(rec->output, &st) == 0 && (err = record__keep_old(rec->output)) < 0)
		return err;
	err = record__make_dir(rec);
	if (err)
		return err;
	/* a perf user's FILE.data that must be a directory: say where perf's file is */
	if (data_name && !rec->quiet)
		fprintf(stderr, "auxrec: -o %s is a directory, for perf.data and trace.dat of the "
			"ftrace events: perf report -i %s/perf.data, trace-cmd report %s/trace.dat\n",
			rec->output, rec->output, rec->output);
	if (asprintf(&rec->perf_path, "%s/perf.data", rec->output) < 0 ||
	    (rec->nr_ftrace_events && asprintf(&rec->trace_path, "%s/trace.dat", rec->output) < 0))
		return -ENOMEM;
	return record__open_perf_file(rec);
}

/*
 * What existed before the recording started, as perf record synthesizes it: the processes
 * in scope and their mappings, the kernel's text, the BPF programs already loaded.
 */
static int record__synthesize(struct record *rec)
{
	struct ring_sink *sink = perf_data_writer__data_sink(rec->perf_data);
	/*
	 * A command of our own is still a copy of auxrec, waiting to exec: its mappings are
	 * ours, and perf would keep them beside the program's (a dwarf unwind then stops short).
	 * Its exec brings COMM and every mapping live, as perf record's workload.
	 */
	bool own_command = rec->have_workload && !rec->system_wide && !rec->cpu_list &&
			   !rec->sw.pieces;	/* a later piece: the command has run since */
	int err = own_command ? 0 : perf_event__synthesize_threads(rec->evlist, NULL, sink);

	if (!err && (err = perf_event__synthesize_kernel_mmap(rec->evlist, NULL, sink)) == -ENOENT)
		err = 0;	/* kallsyms hides the kernel: skipped, the library warns */
	if (!err && !rec->no_bpf_event &&
	    (err = perf_event__synthesize_bpf_events(rec->evlist, NULL, sink)) == -EPERM)
		err = 0;	/* not root: no BPF side-band, the library warns */
	return err;
}

/*
 * Tracepoint events: perf reads their samples only with the formats of those events in the
 * file, as perf record writes them.
 */
static int record__write_tracing_data(struct record *rec)
{
	char **names = calloc(evlist__nr_entries(rec->evlist) + 1, sizeof(*names));
	struct evsel *evsel;
	void *data = NULL;
	size_t size;
	int nr = 0, err = 0;

	if (!names)
		return -ENOMEM;
	evlist__for_each_entry(rec->evlist, evsel) {
		const char *name = evsel__name(evsel), *mods;

		if (evsel__attr(evsel)->type != PERF_TYPE_TRACEPOINT)
			continue;
		/* "sched:sched_switch:u" is the event sched:sched_switch */
		mods = strchr(name, ':') ? strchr(strchr(name, ':') + 1, ':') : NULL;
		names[nr] = mods ? strndup(name, mods - name) : strdup(name);
		if (!names[nr++])
			err = -ENOMEM;
	}
	if (!err && nr && trace_dat__tracing_data(NULL, (const char **)names, &data, &size) < 0)
		err = -errno;
	if (!err && nr)
		err = perf_data_writer__write_tracing_data(rec->perf_data, data, size);
	if (err)
		auxrec_error("the tracepoints' formats for perf.data: %s", auxrec_strerror(-err));
	free(data);
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return err;
}

/*
 * DIR/perf.data.features: the feature sections as they are at the start, which auxrec
 * recover adds to a perf.data whose recording died (perf needs them for tracepoints).
 * remove: the recording finished, the file has its own.
 */
static int record__recovery_file(struct record *rec, bool remove)
{
	char *path;
	int fd, err;

	if (!rec->perf_path)
		return 0;	/* stdout */
	if (asprintf(&path, "%s.features", rec->perf_path) < 0)
		return -ENOMEM;
	if (remove) {
		unlink(path);
		free(path);
		return 0;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	err = fd < 0 ? -errno : perf_data_writer__write_recovery(rec->perf_data, fd);
	if (fd >= 0)
		close(fd);
	if (err) {
		auxrec_warning("cannot write %s (%s): if this recording dies, auxrec recover "
			       "cannot give its perf.data the feature sections", path,
			       auxrec_strerror(-err));
		unlink(path);
	}
	free(path);
	return 0;
}

int record__open_perf_data(struct record *rec)
{
	/* the cmdline: /proc/self/cmdline, auxrec's whole */
	AUXTRACE_OPTS(perf_data_writer_opts, opts, .pipe = rec->to_stdout,
		      .compression_level = rec->compression_level);
	int err;

	/*
	 * perf's default clock: the dates of its times come from a reference taken now (a -k
	 * clock the writer reads itself). Without one (no perf events allowed on ourselves?)
	 * the file just has no dates, as perf's own.
	 */
	if (rec->clockid < 0)
		record__clock_ref(&opts.clock_ref_ns, &opts.wall_ref_ns);

	rec->perf_data = perf_data_writer__new(rec->perf_fd, rec->evlist, &opts);
	if (!rec->perf_data) {
		err = -errno;
		auxrec_error("cannot write %s: %s", rec->perf_path ? rec->perf_path : "stdout",
			     auxrec_strerror(-err));
		return err;
	}
	err = record__write_tracing_data(rec);
	if (!err)
		err = perf_data_writer__write_prologue(rec->perf_data, rec->itr);
	if (!err)
		err = record__synthesize(rec);
	if (!err)
		err = perf_data_writer__write_finished_init(rec->perf_data);
	if (!err && !rec->to_stdout)
		err = record__recovery_file(rec, false);
	if (err)
		auxrec_error("writing the start of %s: %s", rec->perf_path ? rec->perf_path :
			     "stdout", auxrec_strerror(-err));
	return err;
}

int record__open_trace_dat(struct record *rec)
{
	/* the formats of the events enabled in the instance: --ftrace may name patterns */
	AUXTRACE_OPTS(trace_dat_writer_opts, opts, .compression_level = rec->compression_level);

	if (rec->collector)
		return record__open_net(rec);
	rec->trace_dat = trace_dat_writer__new(rec->trace_path,
					       ftrace_session__instance(rec->ftrace), &opts);
	if (!rec->trace_dat) {
		auxrec_error("cannot write %s: %s", rec->trace_path, auxrec_strerror(errno));
		return -errno;
	}
	return 0;
}

static void record__say_file(const char *path, int err, bool quiet)
{
	struct stat st;

	if (err)
		fprintf(stderr, "auxrec: %s is incomplete (%s): it holds what was written before "
			"the error, the log above says how far\n", path, auxrec_strerror(-err));
	else if (!quiet && stat(path, &st) == 0)
		fprintf(stderr, "auxrec: wrote %s (%.1f KiB)\n", path, st.st_size / 1024.0);
}

/* -z: how much the compressor saved, and what it had to store plain to keep up. */
static void record__say_compression(struct record *rec)
{
	const struct perf_data_writer_stats *st = perf_data_writer__stats(rec->perf_data);

	if (!rec->compression_level)
		return;
	fprintf(stderr, "auxrec: zstd level %d: %.1f KiB of records in %.1f KiB (%.1fx) in %llu "
		"COMPRESSED records\n", rec->compression_level, st->compressed_input / 1024.0,
		st->compressed_bytes / 1024.0, st->compressed_bytes ?
		(double)st->compressed_input / st->compressed_bytes : 0.0,
		(unsigned long long)st->compressed_records);
	if (st->stored_uncompressed)
		fprintf(stderr, "auxrec: %.1f KiB stored uncompressed: compressing took longer than "
			"the rings could wait (a lower -z level keeps up)\n",
			st->stored_uncompressed / 1024.0);
}

int record__finish_output(struct record *rec)
{
	const struct perf_data_writer_stats *st = NULL;
	int err = 0, e;

	if (rec->perf_data) {
		st = perf_data_writer__stats(rec->perf_data);
		/* a full disk: the saved features make room for the file's own */
		if (st->error == -ENOSPC)
			record__recovery_file(rec, true);
		e = perf_data_writer__finish(rec->perf_data);
		if (st->finished)
			record__recovery_file(rec, true);
		/* what perf reads of a file a write error cut short, or that it reads none */
		if (rec->perf_path && e && (st->finished || st->unreadable))
			disk_full__say_perf_data(rec->perf_path, st, e);
		/* a piece of --switch-output is said under the name it is then given */
		else if (rec->perf_path)
			record__say_file(rec->perf_path, e, rec->quiet || rec->sw.on);
		else if (e)
			auxrec_error("the perf.data stream on stdout ended with an error: %s",
				     auxrec_strerror(-e));
		record__say_compression(rec);
		err = e;
	}
	if (rec->net) {
		e = record__finish_net(rec);
		err = err ? err : e;
	} else if (rec->trace_dat) {
		e = trace_dat_writer__finish(rec->trace_dat);
		if (e)
			auxrec_error("%s was not written: %s (nothing half-written is left)",
				     rec->trace_path, auxrec_strerror(-e));
		else
			record__say_file(rec->trace_path, 0, rec->quiet || rec->sw.on);
		err = err ? err : e;
	}
	if (rec->perf_path && (err == -ENOSPC || err == -EDQUOT ||
	    (st && st->error == -ENOSPC))) {
		const char *files[] = { rec->perf_path, rec->trace_path };

		disk_full__say(rec->output, files, 2);
	}
	return err;
}

void record__discard_output(struct record *rec)
{
	if (!rec->perf_path)
		return;	/* stdout, or nothing created yet */
	if (rec->perf_fd >= 0)
		close(rec->perf_fd);
	rec->perf_fd = -1;
	if (rec->output_file ? unlink(rec->perf_path) == 0 :
			       record__remove_recording(rec->output) == 0)
		return;
	auxrec_error("could not remove the unfinished %s: %s", rec->output, auxrec_strerror(errno));
}

void record__close_files(struct record *rec)
{
	perf_data_writer__delete(rec->perf_data);
	trace_dat_net__delete(rec->net);
	trace_dat_writer__delete(rec->trace_dat);
	if (rec->perf_fd > STDOUT_FILENO)
		close(rec->perf_fd);
	rec->perf_data = NULL;
	rec->trace_dat = NULL;
	rec->perf_fd = -1;
}

void record__close_output(struct record *rec)
{
	record__close_files(rec);
	free(rec->perf_path);
	free(rec->trace_path);
}
