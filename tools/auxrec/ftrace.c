// SPDX-License-Identifier: LGPL-2.1
/* auxrec's ftrace side: events in a tracefs instance of its own, drained per CPU. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/cpumap.h>
#include <auxtrace/tracepoints.h>
#include <tracefs.h>
#include <trace-dat.h>
#include "error.h"
#include "ftrace.h"

struct ftrace_session {
	struct tracefs_instance *instance;
	enum ftrace_mode mode;
	bool all_mapped;
	pid_t followed;		/* set_event_pid's process, 0: none */
	int nr_cpus;
	int *cpus;
	struct tracefs_cpu **tcpus;
};

/*
 * ftrace:print, the trace_marker's event, has no switch: writes to the top level's
 * trace_marker reach an instance when its copy_trace_marker option is on (Linux 6.16+).
 */
static int ftrace_session__copy_markers(struct ftrace_session *fs, const char *spec)
{
	if (tracefs_instance_file_write(fs->instance, "options/copy_trace_marker", "1") >= 0)
		return 0;
	auxrec_error("--ftrace '%s': this kernel cannot copy trace_marker writes into auxrec's "
		     "instance (options/copy_trace_marker: %s; Linux 6.16 or later has it)", spec,
		     auxrec_strerror(errno));
	return -EINVAL;
}

/* One tracepoint a --ftrace pattern matched: its switch in our instance. */
struct ftrace_enabling {
	struct tracefs_instance *instance;
	int nr;			/* switched on */
};

static int ftrace__enable_one(const char *system, const char *event, void *ctx)
{
	struct ftrace_enabling *e = ctx;
	char file[2 * NAME_MAX + 16];
	int ret;

	snprintf(file, sizeof(file), "events/%s/%s/enable", system, event);
	ret = tracefs_instance_file_write(e->instance, file, "1");
	/* the ftrace system's events (function, print, ...) have no switch: not events to enable */
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ret;
	e->nr++;
	return 0;
}

/*
 * One --ftrace spec as trace-cmd -e and perf take them: SYSTEM:EVENT with globs in either
 * part ("sched:*", "syscalls:sys_enter_*", "*:*switch*"), a bare SYSTEM for all of its
 * events, or, when the globs match nothing, regular expressions as before. Matched against
 * our own instance's events; nothing matching names the closest ones.
 */
static int ftrace_session__enable_spec(struct ftrace_session *fs, const char *spec,
				       const char *events_root)
{
	struct ftrace_enabling e = { .instance = fs->instance };
	char *sys = strdup(spec), *event, closest[256];
	int ret;

	if (!sys)
		return -ENOMEM;
	event = strchr(sys, ':');
	if (event)
		*event++ = '\0';
	else
		event = "*";	/* trace-cmd -e sched: the whole system */
	/* names come from readdir, but a path is a mistake worth naming, not a mismatch */
	if (strchr(spec, '/')) {
		auxrec_error("--ftrace '%s' refused: system and event are names or patterns, "
			     "without '/'", spec);
		free(sys);
		return -EINVAL;
	}
	if (!*sys || !*event) {
		auxrec_error("--ftrace '%s': give SYSTEM:EVENT (globs allowed: sched:*, "
			     "syscalls:sys_enter_*) or a SYSTEM", spec);
		free(sys);
		return -EINVAL;
	}
	ret = tracepoints__for_each(events_root, sys, event, ftrace__enable_one, &e);
	if (ret < 0) {
		auxrec_error("--ftrace '%s': %s", spec, auxrec_strerror(-ret));
	} else if (ret == 0) {
		if (tracepoints__closest(events_root, sys, event, closest, sizeof(closest)) <= 0)
			closest[0] = '\0';
		auxrec_error("--ftrace '%s': no ftrace event matches%s%s", spec,
			     closest[0] ? "; closest: " : "", closest);
		ret = -ENOENT;
	} else if (!e.nr) {
		auxrec_error("--ftrace '%s': matches only events that cannot be switched on "
			     "(the ftrace system's; ftrace:print has its own way)", spec);
		ret = -EINVAL;
	}
	free(sys);
	return ret < 0 ? ret : 0;
}

static int ftrace_session__enable_events(struct ftrace_session *fs, char **events, int nr)
{
	char *root = tracefs_instance_get_dir(fs->instance);
	int err = root ? 0 : -errno;

	for (int i = 0; !err && i < nr; i++) {
		if (!strcmp(events[i], "ftrace:print"))
			err = ftrace_session__copy_markers(fs, events[i]);
		else
			err = ftrace_session__enable_spec(fs, events[i], root);
	}
	if (!root)
		auxrec_error("auxrec's tracefs instance: %s", auxrec_strerror(-err));
	tracefs_put_tracing_file(root);
	return err ? -EINVAL : 0;
}

/* Whether pid is a live auxrec: the owner of an instance named after it. */
static bool ftrace__owner_alive(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strcmp(comm, "auxrec\n");
}

/* The pid in an instance name auxrec gives (auxrec-PID, auxrec-PID.N), or 0. */
static long ftrace__instance_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "auxrec-", 7))
		return 0;
	pid = strtol(name + 7, &end, 10);
	if (*end == '.' && end[1] >= '1' && end[1] <= '9')
		strtol(end + 1, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

bool ftrace_instance__abandoned(const char *name, long *pid)
{
	*pid = ftrace__instance_pid(name);
	return *pid && !ftrace__owner_alive(*pid);
}

/*
 * Instances of ours whose auxrec is gone (SIGKILL leaves them, tracing on): remove them, and
 * say so. One whose pid now belongs to another program is ours all the same. One of a live
 * auxrec is left alone, whoever made it.
 */
static void ftrace__remove_stale_instances(const char *tracing)
{
	char dir[PATH_MAX];
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/instances", tracing);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)) != NULL) {
		struct tracefs_instance *stale;
		long pid;

		if (!ftrace_instance__abandoned(d->d_name, &pid))
			continue;
		stale = tracefs_instance_alloc(NULL, d->d_name);
		if (stale && tracefs_instance_destroy(stale) == 0)
			fprintf(stderr, "auxrec: removed tracefs instance %s, left behind by an "
				"auxrec that is gone (killed with SIGKILL?)\n", d->d_name);
		else
			auxrec_error("tracefs instance %s was left by an auxrec that is gone, and "
				     "cannot be removed: %s; remove it with rmdir %s/%s", d->d_name,
				     auxrec_strerror(errno), dir, d->d_name);
		tracefs_instance_free(stale);
	}
	closedir(dp);
}

/*
 * An instance that is ours alone: auxrec-PID, or auxrec-PID.N when that name is taken. An
 * instance that exists is somebody else's (its events enabled, readers of its own): taken
 * over, we would record its events and remove it at the end. So it is left as it is.
 */
static struct tracefs_instance *ftrace__create_instance(void)
{
	char name[80], first[64];

	snprintf(first, sizeof(first), "auxrec-%d", (int)getpid());
	for (int n = 0; n < 100; n++) {
		struct tracefs_instance *inst;

		if (n)
			snprintf(name, sizeof(name), "%s.%d", first, n);
		inst = tracefs_instance_create_exclusive(n ? name : first);
		if (inst && n)
			auxrec_warning("tracefs instance %s exists and is not this recording's: "
				       "recording in %s instead, and leaving %s as it is", first,
				       name, first);
		if (inst || errno != EEXIST)
			return inst;	/* any other failure: the library said why, naming it */
	}
	auxrec_error("tracefs instances %s to %s.99 all exist: remove those no recording uses "
		     "(rmdir %s/instances/%s*)", first, first, tracefs_tracing_dir(), first);
	return NULL;
}

static struct tracefs_cpu *ftrace_session__open_cpu(struct ftrace_session *fs, int cpu)
{
	if (fs->mode == FTRACE_MAPPED)
		return tracefs_cpu_open_mapped(fs->instance, cpu, true);
	return tracefs_cpu_open(fs->instance, cpu, true);
}

struct ftrace_session *ftrace_session__new(char **events, int nr_events, enum ftrace_mode mode,
					   const char *clock, int buffer_kb,
					   struct perf_cpu_map *cpus)
{
	struct ftrace_session *fs = calloc(1, sizeof(*fs));
	struct perf_cpu_map *online = cpus ? perf_cpu_map__get(cpus) :
					     perf_cpu_map__new_online_cpus();

	if (!fs || !online)
		goto fail;
	if (!tracefs_tracing_dir())
		goto fail;	/* the library said why (not mounted, or not root), once */
	ftrace__remove_stale_instances(tracefs_tracing_dir());
	fs->instance = ftrace__create_instance();
	if (!fs->instance)
		goto fail;
	fs->mode = mode;
	/* Events go in while tracing is off so that the first sub-buffer is ours. */
	tracefs_trace_off(fs->instance);
	/* perf.data's clock, so that the two files share one timeline (as trace-cmd -C perf) */
	if (tracefs_instance_set_clock(fs->instance, clock) < 0)
		fprintf(stderr, "auxrec: the ftrace instance keeps its default clock (%s clock: "
			"%s): trace.dat's times will not line up with perf.data's\n", clock,
			auxrec_strerror(errno));
	if (buffer_kb && tracefs_instance_set_buffer_size(fs->instance, buffer_kb, -1) < 0) {
		auxrec_error("--ftrace-buffer-kb %d: %s", buffer_kb, auxrec_strerror(errno));
		goto fail;
	}
	if (ftrace_session__enable_events(fs, events, nr_events) < 0)
		goto fail;
	fs->nr_cpus = perf_cpu_map__nr(online);
	fs->cpus = calloc(fs->nr_cpus, sizeof(*fs->cpus));
	fs->tcpus = calloc(fs->nr_cpus, sizeof(*fs->tcpus));
	if (!fs->cpus || !fs->tcpus)
		goto fail;
	fs->all_mapped = true;
	for (int i = 0; i < fs->nr_cpus; i++) {
		fs->cpus[i] = perf_cpu_map__cpu(online, i).cpu;
		fs->tcpus[i] = ftrace_session__open_cpu(fs, fs->cpus[i]);
		if (!fs->tcpus[i]) {
			auxrec_error("cannot open the ftrace ring of CPU %d: %s", fs->cpus[i],
				     auxrec_strerror(errno));
			goto fail;
		}
		fs->all_mapped &= tracefs_cpu_is_mapped(fs->tcpus[i]);
	}
	perf_cpu_map__put(online);
	return fs;
fail:
	perf_cpu_map__put(online);
	ftrace_session__delete(fs);
	return NULL;
}

/* "tid tid ..." of pid's threads: set_event_pid takes tasks, and -p's process may have many. */
static char *ftrace__thread_list(pid_t pid)
{
	char dir[64], *list = NULL;
	size_t len = 0;
	struct dirent *d;
	FILE *f = open_memstream(&list, &len);
	DIR *dp;

	if (!f)
		return NULL;
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	dp = opendir(dir);
	while (dp && (d = readdir(dp)))
		if (d->d_name[0] != '.')
			fprintf(f, "%s ", d->d_name);
	if (dp)
		closedir(dp);
	else
		fprintf(f, "%d", (int)pid);	/* gone already: the kernel says so below */
	fclose(f);
	return list;
}

int ftrace_session__follow(struct ftrace_session *fs, pid_t pid)
{
	char *tids = ftrace__thread_list(pid);
	int err;

	if (!tids)
		return -ENOMEM;
	err = tracefs_instance_file_write(fs->instance, "set_event_pid", tids);
	free(tids);
	if (err >= 0)
		err = tracefs_instance_file_write(fs->instance, "options/event-fork", "1");
	if (err < 0) {
		auxrec_error("cannot keep the ftrace events to pid %d (set_event_pid, "
			     "options/event-fork): %s; --ftrace-all-tasks records every task's",
			     (int)pid, auxrec_strerror(err));
		return err;
	}
	fs->followed = pid;
	return 0;
}

pid_t ftrace_session__followed(const struct ftrace_session *fs)
{
	return fs->followed;
}

int ftrace_session__enable(struct ftrace_session *fs, bool on)
{
	return on ? tracefs_trace_on(fs->instance) : tracefs_trace_off(fs->instance);
}

int ftrace_session__add_to_ring_set(struct ftrace_session *fs, struct ring_set *set,
				    struct ring_sink *(*sink_of)(void *ctx, int cpu), void *ctx)
{
	for (int i = 0; i < fs->nr_cpus; i++) {
		struct ring_sink *sink = sink_of(ctx, fs->cpus[i]);
		int err = sink ? tracefs_cpu_add_to_ring_set(fs->tcpus[i], set,
							     fs->mode == FTRACE_SPLICE, sink) : -errno;

		if (err < 0)
			return err;
	}
	return 0;
}

struct tracefs_instance *ftrace_session__instance(const struct ftrace_session *fs)
{
	return fs->instance;
}

const char *ftrace_session__mode(const struct ftrace_session *fs)
{
	if (fs->mode == FTRACE_MAPPED)
		return fs->all_mapped ? "mapped" : "read (mapping refused by the kernel)";
	return fs->mode == FTRACE_SPLICE ? "splice" : "read";
}

void ftrace_session__delete(struct ftrace_session *fs)
{
	if (!fs)
		return;
	for (int i = 0; fs->tcpus && i < fs->nr_cpus; i++)
		if (fs->tcpus[i])
			tracefs_cpu_close(fs->tcpus[i]);
	if (fs->instance) {
		if (tracefs_instance_is_new(fs->instance))	/* what we made, and nothing else */
			tracefs_instance_destroy(fs->instance);
		tracefs_instance_free(fs->instance);
	}
	free(fs->tcpus);
	free(fs->cpus);
	free(fs);
}
