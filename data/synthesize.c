// SPDX-License-Identifier: LGPL-2.1
/*
 * Side-band from /proc: COMM and MMAP2 for the processes that were running before the
 * recording started, and the kernel's MMAP, each with the tracking evsel's sample_id
 * trailer. Shared by every synthesizer: the trailer and the one record buffer.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <internal/evsel.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include "perf-data-internal.h"
#include "synthesize-internal.h"

#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

/* The evsel whose records mmap/comm/task side-band come in, as perf picks it. */
static struct evsel *synth__tracking(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		const struct perf_event_attr *a = &evsel->attr;

		if (a->mmap || a->mmap2 || a->comm || a->task)
			return evsel;
	}
	return evlist__first(evlist);
}

/* The sample ID of the evsel's first open fd, and that fd's CPU (0 for any CPU). */
static void synth__first_id(struct synth *s, const struct evsel *evsel)
{
	for (int c = 0; evsel->fd && c < evsel->fd_cpus; c++) {
		for (int t = 0; t < evsel->fd_threads; t++) {
			int cpu = perf_cpu_map__cpu(evsel->cpus, c).cpu;

			if (evsel__id(evsel, c, t, &s->id))
				continue;
			s->cpu = cpu < 0 ? 0 : (uint32_t)cpu;
			return;
		}
	}
}

int synth__init(struct synth *s, struct evlist *evlist, const struct perf_synth_opts *opts,
		struct ring_sink *sink)
{
	struct evsel *tracking;
	int err;

	*s = (struct synth){ .sink = sink };
	if (!evlist || !sink) {
		pr_err("synthesize: give the session's evlist and a sink for the records\n");
		return -EINVAL;
	}
	err = opts__copy(perf_synth_opts, &s->opts, opts);
	if (err)
		return err;
	tracking = s->opts.tracking ? s->opts.tracking : synth__tracking(evlist);
	if (!tracking) {
		pr_err("synthesize: the evlist has no events: the records need the tracking "
		       "event's sample_id layout\n");
		return -EINVAL;
	}
	if (tracking->attr.sample_id_all)
		s->sample_type = tracking->attr.sample_type;
	if (evsel__has_ids(tracking))
		synth__first_id(s, tracking);
	s->ev = calloc(1, sizeof(*s->ev) + SYNTH_TRAILER_MAX + 8);
	return s->ev ? 0 : -ENOMEM;
}

void synth__exit(struct synth *s)
{
	free(s->ev);
	s->ev = NULL;
}

size_t synth__set_name(struct synth *s, size_t off, const char *name, size_t len)
{
	char *dst = (char *)s->ev + off;

	memcpy(dst, name, len);
	memset(dst + len, 0, ALIGN8(off + len + 1) - off - len);
	return off + len + 1;
}

/* The fields sample_id_all appends, in the kernel's order. Time 0: before everything. */
static size_t synth__trailer(const struct synth *s, unsigned char *p, uint32_t pid,
			     uint32_t tid)
{
	const uint64_t st = s->sample_type;
	unsigned char *start = p;

#define PUT(v) do { uint64_t v_ = (v); memcpy(p, &v_, 8); p += 8; } while (0)
	if (st & PERF_SAMPLE_TID)
		PUT((uint64_t)tid << 32 | pid);
	if (st & PERF_SAMPLE_TIME)
		PUT(0);
	if (st & PERF_SAMPLE_ID)
		PUT(s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		PUT(s->id);
	if (st & PERF_SAMPLE_CPU)
		PUT(s->cpu);
	if (st & PERF_SAMPLE_IDENTIFIER)
		PUT(s->id);
#undef PUT
	return (size_t)(p - start);
}

int synth__emit(struct synth *s, size_t body_len, uint32_t pid, uint32_t tid)
{
	size_t body = ALIGN8(body_len);
	size_t size = body + synth__trailer(s, (unsigned char *)s->ev + body, pid, tid);
	struct iovec iov = { s->ev, size };
	ssize_t n;

	s->ev->header.size = (uint16_t)size;
	n = s->sink->push(s->sink, &iov, 1);
	return n < 0 ? (int)n : 0;
}

/* "Tgid:" of /proc/<pid>/status: the process a thread belongs to. -ESRCH when gone. */
static int proc__tgid(pid_t pid, pid_t *tgid)
{
	char path[64], text[2048], value[32];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (libauxtrace__read_file(path, text, sizeof(text)) < 0 ||
	    !perf_data__cpuinfo_value(text, "Tgid", value, sizeof(value)))
		return -ESRCH;
	*tgid = (pid_t)atoi(value);
	return 0;
}

static int synth__comm(struct synth *s, pid_t tgid, pid_t tid)
{
	struct perf_record_comm *ev = &s->ev->comm;
	char path[64], comm[PERF_RECORD_COMM_LEN + 1];
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)tgid, (int)tid);
	if (libauxtrace__read_file(path, comm, sizeof(comm)) < 0)
		return -ESRCH;
	comm[strcspn(comm, "\n")] = '\0';
	ev->header.type = PERF_RECORD_COMM;
	ev->header.misc = 0;
	ev->pid = (uint32_t)tgid;
	ev->tid = (uint32_t)tid;
	len = synth__set_name(s, offsetof(struct perf_record_comm, comm), comm, strlen(comm));
	return synth__emit(s, len, ev->pid, ev->tid);
}

/*
 * One line of /proc/<pid>/maps as MMAP2: "start-end perms offset maj:min inode   path".
 * 0 (also for a mapping not recorded: not executable without mmap_data), or -errno.
 */
static int synth__mmap2_line(struct synth *s, pid_t tgid, const char *line)
{
	struct perf_record_mmap2 *ev = &s->ev->mmap2;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[5];
	const char *name;
	int pos = 0;
	size_t len;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &pos) < 7 || !pos || end < start)
		return 0;
	memset(ev, 0, offsetof(struct perf_record_mmap2, filename));
	ev->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		   (perms[2] == 'x' ? PROT_EXEC : 0);
	ev->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	ev->header.misc = PERF_RECORD_MISC_USER;
	if (!(ev->prot & PROT_EXEC)) {
		if (!s->opts.mmap_data)
			return 0;
		ev->header.misc |= PERF_RECORD_MISC_MMAP_DATA;
	}
	name = line + pos;
	len = strcspn(name, "\n");
	ev->header.type = PERF_RECORD_MMAP2;
	ev->pid = ev->tid = (uint32_t)tgid;
	ev->start = start;
	ev->len = end - start;
	ev->pgoff = pgoff;
	ev->maj = maj;
	ev->min = min;
	ev->ino = ino;
	if (!len) {
		name = "//anon";	/* perf's name for anonymous executable memory (JITs) */
		len = strlen(name);
	}
	len = synth__set_name(s, offsetof(struct perf_record_mmap2, filename), name,
			      len < PATH_MAX ? len : PATH_MAX - 1);
	return synth__emit(s, len, ev->pid, ev->tid);
}

static int synth__mmaps(struct synth *s, pid_t tgid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	while (!err && getline(&line, &cap, f) > 0)
		err = synth__mmap2_line(s, tgid, line);
	free(line);
	fclose(f);
	return err;
}

/* COMM of every thread of tgid. */
static int synth__comms(struct synth *s, pid_t tgid)
{
	struct dirent *de;
	char path[64];
	int err = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while (!err && (de = readdir(dir)))
		if (isdigit((unsigned char)de->d_name[0]))
			err = synth__comm(s, tgid, (pid_t)atoi(de->d_name));
	closedir(dir);
	return err == -ESRCH ? 0 : err;		/* a thread that ended meanwhile */
}

static int synth__thread(struct synth *s, pid_t pid, bool whole_process, pid_t *tgid_out)
{
	pid_t tgid;
	int err = proc__tgid(pid, &tgid);

	if (!err)
		err = whole_process ? synth__comms(s, tgid) : synth__comm(s, tgid, pid);
	if (!err)
		err = synth__mmaps(s, tgid);
	if (tgid_out)
		*tgid_out = err ? -1 : tgid;
	return err;
}

int perf_event__synthesize_thread(struct evlist *evlist, pid_t pid, bool whole_process,
				  const struct perf_synth_opts *opts, struct ring_sink *sink)
{
	struct synth s;
	int err = synth__init(&s, evlist, opts, sink);

	if (!err)
		err = synth__thread(&s, pid, whole_process, NULL);
	synth__exit(&s);
	return libauxtrace__err(err);
}

/* Every process in /proc, each with all its threads. */
static int synth__all(struct synth *s)
{
	struct dirent *de;
	int err = 0;
	DIR *dir = opendir("/proc");

	if (!dir) {
		err = -errno;
		pr_err("synthesize: cannot list /proc: %s (is procfs mounted?)\n", strerror(-err));
		return err;
	}
	while (!err && (de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		err = synth__thread(s, (pid_t)atoi(de->d_name), true, NULL);
		if (err == -ESRCH)
			err = 0;	/* it exited meanwhile */
	}
	closedir(dir);
	return err;
}

/* Each thread of the map; the mappings of each process once. */
static int synth__thread_map(struct synth *s, struct perf_thread_map *threads)
{
	int nr = perf_thread_map__nr(threads), nr_done = 0, err = 0;
	pid_t *done = calloc((size_t)nr, sizeof(*done));

	if (!done)
		return -ENOMEM;
	for (int i = 0; !err && i < nr; i++) {
		pid_t tid = perf_thread_map__pid(threads, i), tgid;
		bool seen = false;

		err = proc__tgid(tid, &tgid);
		for (int k = 0; !err && k < nr_done; k++)
			seen |= done[k] == tgid;
		if (!err)
			err = synth__comm(s, tgid, tid);
		if (!err && !seen) {
			err = synth__mmaps(s, tgid);
			done[nr_done++] = tgid;
		}
		if (err == -ESRCH)
			err = 0;	/* it exited meanwhile */
	}
	free(done);
	return err;
}

int perf_event__synthesize_threads(struct evlist *evlist, const struct perf_synth_opts *opts,
				   struct ring_sink *sink)
{
	struct perf_thread_map *threads;
	struct synth s;
	int err = synth__init(&s, evlist, opts, sink);

	if (!err) {
		threads = evlist__threads(evlist);
		if (!threads || (perf_thread_map__nr(threads) == 1 &&
				 perf_thread_map__pid(threads, 0) == -1))
			err = synth__all(&s);
		else
			err = synth__thread_map(&s, threads);
	}
	synth__exit(&s);
	return libauxtrace__err(err);
}

/* _text's address from /proc/kallsyms into *addr, 0 when hidden or absent. 0 or -errno. */
static int kallsyms__text(uint64_t *addr)
{
	char line[512], name[256], type;
	uint64_t a;
	FILE *f = fopen("/proc/kallsyms", "re");

	*addr = 0;
	if (!f)
		return -errno;
	while (!*addr && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) == 3 &&
		    !strcmp(name, "_text"))
			*addr = a;
	fclose(f);
	return 0;
}

int perf_event__synthesize_kernel_mmap(struct evlist *evlist, const struct perf_synth_opts *opts,
				       struct ring_sink *sink)
{
	struct perf_record_mmap *ev;
	uint64_t text;
	struct synth s;
	size_t len;
	int err = kallsyms__text(&text);

	if (err) {
		pr_err("synthesize: cannot read /proc/kallsyms: %s\n", strerror(-err));
		return libauxtrace__err(err);
	}
	if (!text) {
		/* a warning: the recording goes on, only kernel addresses stay unresolved */
		pr_warn("synthesize: kernel map skipped: /proc/kallsyms shows no address for "
			"_text (kernel.kptr_restrict hides it); run as root, or set "
			"kernel.kptr_restrict to 0\n");
		return libauxtrace__err(-ENOENT);
	}
	err = synth__init(&s, evlist, opts, sink);
	if (!err) {
		ev = &s.ev->mmap;
		memset(ev, 0, offsetof(struct perf_record_mmap, filename));
		ev->header.type = PERF_RECORD_MMAP;
		ev->header.misc = PERF_RECORD_MISC_KERNEL;
		ev->pid = (uint32_t)-1;
		ev->start = text;
		ev->len = ~0ULL - text;
		ev->pgoff = text;	/* perf's reference: where _text is */
		len = synth__set_name(&s, offsetof(struct perf_record_mmap, filename),
				      "[kernel.kallsyms]_text", strlen("[kernel.kallsyms]_text"));
		err = synth__emit(&s, len, ev->pid, 0);
	}
	synth__exit(&s);
	return libauxtrace__err(err);
}
