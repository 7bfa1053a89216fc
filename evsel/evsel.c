// SPDX-License-Identifier: LGPL-2.1
/* An event selector: an attr, its maps, and the fd table it opens on them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <internal/evsel.h>
#include <internal/lib.h>

static const char *const hw_names[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES]		= "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= "branches",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES]		= "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= "ref-cycles",
};

static const char *const sw_names[PERF_COUNT_SW_MAX] = {
	[PERF_COUNT_SW_CPU_CLOCK]		= "cpu-clock",
	[PERF_COUNT_SW_TASK_CLOCK]		= "task-clock",
	[PERF_COUNT_SW_PAGE_FAULTS]		= "page-faults",
	[PERF_COUNT_SW_CONTEXT_SWITCHES]	= "context-switches",
	[PERF_COUNT_SW_CPU_MIGRATIONS]		= "cpu-migrations",
	[PERF_COUNT_SW_PAGE_FAULTS_MIN]		= "minor-faults",
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ]		= "major-faults",
	[PERF_COUNT_SW_ALIGNMENT_FAULTS]	= "alignment-faults",
	[PERF_COUNT_SW_EMULATION_FAULTS]	= "emulation-faults",
	[PERF_COUNT_SW_DUMMY]			= "dummy",
	[PERF_COUNT_SW_BPF_OUTPUT]		= "bpf-output",
	[PERF_COUNT_SW_CGROUP_SWITCHES]		= "cgroup-switches",
};

/* Until a parser names it: perf's name for generic events, else type and config. */
static char *evsel__default_name(const struct perf_event_attr *attr)
{
	const char *known = NULL;
	char buf[64];

	if (attr->type == PERF_TYPE_HARDWARE && attr->config < ARRAY_SIZE(hw_names))
		known = hw_names[attr->config];
	else if (attr->type == PERF_TYPE_SOFTWARE && attr->config < ARRAY_SIZE(sw_names))
		known = sw_names[attr->config];
	if (known)
		return strdup(known);
	if (attr->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, sizeof(buf), "tracepoint:%llu", (unsigned long long)attr->config);
	else
		snprintf(buf, sizeof(buf), "type%u/config=%#llx/", attr->type,
			 (unsigned long long)attr->config);
	return strdup(buf);
}

struct evsel *evsel__new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return libauxtrace__ptr_err(-ENOMEM);
	evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->name = evsel__default_name(attr);
	if (!evsel->name) {
		free(evsel);
		return libauxtrace__ptr_err(-ENOMEM);
	}
	evsel->idx = -1;
	evsel->leader = evsel;
	evsel->nr_members = 1;
	return evsel;
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	/* Its leader may be gone already (an evlist frees in list order): leave it be. */
	evsel__close(evsel);
	perf_cpu_map__put(evsel->pmu_cpus);
	evsel__set_maps(evsel, NULL, NULL);
	free(evsel->name);
	free(evsel);
}

struct perf_event_attr *evsel__attr(struct evsel *evsel)
{
	return &evsel->attr;
}

const char *evsel__name(const struct evsel *evsel)
{
	return evsel->name;
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return libauxtrace__err(-ENOMEM);
	free(evsel->name);
	evsel->name = copy;
	return 0;
}

int evsel__idx(const struct evsel *evsel)
{
	return evsel->idx;
}

void evsel__set_leader(struct evsel *evsel, struct evsel *leader)
{
	if (!leader)
		leader = evsel;
	if (evsel->leader != evsel)
		evsel->leader->nr_members--;
	evsel->leader = leader;
	if (leader != evsel)
		leader->nr_members++;
}

struct evsel *evsel__leader(struct evsel *evsel)
{
	return evsel->leader;
}

void evsel__set_system_wide(struct evsel *evsel, bool system_wide)
{
	evsel->system_wide = system_wide;
}

bool evsel__system_wide(const struct evsel *evsel)
{
	return evsel->system_wide;
}

void evsel__set_requires_cpu(struct evsel *evsel, bool requires_cpu)
{
	evsel->requires_cpu = requires_cpu;
}

void evsel__set_needs_auxtrace_mmap(struct evsel *evsel, bool needs)
{
	evsel->needs_auxtrace_mmap = needs;
}

bool evsel__needs_auxtrace_mmap(const struct evsel *evsel)
{
	return evsel->needs_auxtrace_mmap;
}

void evsel__set_pmu_cpus(struct evsel *evsel, struct perf_cpu_map *cpus)
{
	struct perf_cpu_map *old = evsel->pmu_cpus;

	evsel->pmu_cpus = perf_cpu_map__get(cpus);
	perf_cpu_map__put(old);
}

struct perf_cpu_map *evsel__pmu_cpus(const struct evsel *evsel)
{
	return evsel->pmu_cpus;
}

struct perf_cpu_map *evsel__cpus(const struct evsel *evsel)
{
	return evsel->cpus;
}

struct perf_thread_map *evsel__threads(const struct evsel *evsel)
{
	return evsel->threads;
}

void perf_maps__assign(struct perf_cpu_map **cpus, struct perf_thread_map **threads,
		       struct perf_cpu_map *new_cpus, struct perf_thread_map *new_threads)
{
	struct perf_cpu_map *old_cpus = *cpus;
	struct perf_thread_map *old_threads = *threads;

	*cpus = perf_cpu_map__get(new_cpus);
	*threads = perf_thread_map__get(new_threads);
	perf_cpu_map__put(old_cpus);
	perf_thread_map__put(old_threads);
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* One line naming the event, where it failed, why, and what to do about it. */
static void evsel__log_open_error(const struct evsel *evsel, int err, int cpu, pid_t tid)
{
	char where[64];

	snprintf(where, sizeof(where), "CPU %d, thread %d", cpu, (int)tid);
	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("%s (%s): %s: perf_event_paranoid is %d; run as root or with CAP_PERFMON, "
		       "or lower it (sysctl kernel.perf_event_paranoid=-1; per-CPU events need <= 0, "
		       "kernel profiling <= 1)\n",
		       evsel->name, where, strerror(err), libauxtrace__perf_paranoid());
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		pr_err("%s (%s): %s: this kernel or CPU does not provide the event "
		       "(type %u, config %#llx); check the event name against "
		       "/sys/bus/event_source/devices and /sys/kernel/tracing/events\n",
		       evsel->name, where, strerror(err), evsel->attr.type,
		       (unsigned long long)evsel->attr.config);
		break;
	case EINVAL:
		pr_err("%s (%s): %s: the kernel rejected the attr (type %u, config %#llx, "
		       "sample_type %#llx, read_format %#llx); an unknown event or a field this "
		       "event or kernel does not support: drop options one by one to find it\n",
		       evsel->name, where, strerror(err), evsel->attr.type,
		       (unsigned long long)evsel->attr.config,
		       (unsigned long long)evsel->attr.sample_type,
		       (unsigned long long)evsel->attr.read_format);
		break;
	case EMFILE:
	case ENFILE:
		pr_err("%s (%s): %s: one fd per event, CPU and thread; raise the limit "
		       "(ulimit -n) or record fewer CPUs, threads or events\n",
		       evsel->name, where, strerror(err));
		break;
	case ESRCH:
		pr_err("%s (%s): %s: the thread exited or never existed; check the pid/tid list\n",
		       evsel->name, where, strerror(err));
		break;
	case EBUSY:
		pr_err("%s (%s): %s: another user holds the PMU exclusively; stop it and retry\n",
		       evsel->name, where, strerror(err));
		break;
	default:
		pr_err("%s (%s): perf_event_open failed: %s\n", evsel->name, where, strerror(err));
	}
}

static int evsel__alloc_fd(struct evsel *evsel, int ncpus, int nthreads)
{
	int i, n = ncpus * nthreads;

	evsel->fd = malloc(sizeof(*evsel->fd) * n);
	if (!evsel->fd)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		evsel->fd[i] = -1;
	evsel->fd_cpus = ncpus;
	evsel->fd_threads = nthreads;
	return 0;
}

static int evsel__group_fd(const struct evsel *evsel, int cpu_map_idx, int thread)
{
	const struct evsel *leader = evsel->leader;

	if (leader == evsel)
		return -1;
	if (!leader->fd)
		return -ENOTCONN;
	if (cpu_map_idx >= leader->fd_cpus || thread >= leader->fd_threads ||
	    *evsel__fd_slot(leader, cpu_map_idx, thread) < 0)
		return -EBADF;
	return *evsel__fd_slot(leader, cpu_map_idx, thread);
}

int evsel__open(struct evsel *evsel, struct perf_cpu_map *cpus, struct perf_thread_map *threads)
{
	struct perf_cpu_map *any = NULL;
	struct perf_thread_map *dummy = NULL;
	int ncpus, nthreads, c, t, err;

	if (evsel->fd)
		return libauxtrace__err(-EBUSY);
	if (!cpus)
		cpus = any = perf_cpu_map__new_any_cpu();
	if (!threads || evsel->system_wide)
		threads = dummy = perf_thread_map__new_dummy();
	if (!cpus || !threads) {
		err = -ENOMEM;
		goto out;
	}
	evsel__set_maps(evsel, cpus, threads);
	ncpus = perf_cpu_map__nr(cpus);
	nthreads = perf_thread_map__nr(threads);
	err = evsel__alloc_fd(evsel, ncpus, nthreads);
	if (err)
		goto out;
	for (c = 0; c < ncpus; c++) {
		int cpu = perf_cpu_map__cpu(cpus, c).cpu;

		for (t = 0; t < nthreads; t++) {
			pid_t tid = perf_thread_map__pid(threads, t);
			int group_fd = evsel__group_fd(evsel, c, t);
			int fd;

			if (group_fd < -1) {
				err = group_fd;
				pr_err("%s (CPU %d, thread %d): its group leader %s is not open "
				       "there; open the leader first\n",
				       evsel->name, cpu, (int)tid, evsel->leader->name);
				goto out_close;
			}
			fd = sys_perf_event_open(&evsel->attr, tid, cpu, group_fd,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				err = -errno;
				evsel__log_open_error(evsel, -err, cpu, tid);
				goto out_close;
			}
			*evsel__fd_slot(evsel, c, t) = fd;
		}
	}
	err = 0;
	goto out;
out_close:
	evsel__close(evsel);
out:
	perf_cpu_map__put(any);
	perf_thread_map__put(dummy);
	return libauxtrace__err(err);
}

void evsel__close(struct evsel *evsel)
{
	int i;

	if (!evsel->fd)
		return;
	for (i = 0; i < evsel->fd_cpus * evsel->fd_threads; i++) {
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
	}
	free(evsel->fd);
	free(evsel->sid);
	evsel->fd = NULL;
	evsel->sid = NULL;
	evsel->fd_cpus = evsel->fd_threads = 0;
}

bool evsel__is_open(const struct evsel *evsel)
{
	return evsel->fd != NULL;
}

int evsel__fd(const struct evsel *evsel, int cpu_map_idx, int thread)
{
	if (!evsel->fd || cpu_map_idx < 0 || thread < 0 || cpu_map_idx >= evsel->fd_cpus ||
	    thread >= evsel->fd_threads)
		return -1;
	return *evsel__fd_slot(evsel, cpu_map_idx, thread);
}

/* ioctl on the fds of the rectangle [c0, c1) x [t0, t1); the first error wins. */
static int evsel__ioctl_range(struct evsel *evsel, unsigned long request, unsigned long arg,
			      int c0, int c1, int t0, int t1)
{
	int c, t;

	if (!evsel->fd)
		return libauxtrace__err(-EBADF);
	if (c0 < 0 || t0 < 0 || c1 > evsel->fd_cpus || t1 > evsel->fd_threads || c0 >= c1 ||
	    t0 >= t1)
		return libauxtrace__err(-EINVAL);
	for (c = c0; c < c1; c++) {
		for (t = t0; t < t1; t++) {
			int fd = *evsel__fd_slot(evsel, c, t);

			if (fd >= 0 && ioctl(fd, request, arg) < 0)
				return libauxtrace__err(-errno);
		}
	}
	return 0;
}

static int evsel__ioctl_all(struct evsel *evsel, unsigned long request, unsigned long arg)
{
	return evsel__ioctl_range(evsel, request, arg, 0, evsel->fd_cpus, 0, evsel->fd_threads);
}

int evsel__enable(struct evsel *evsel)
{
	return evsel__ioctl_all(evsel, PERF_EVENT_IOC_ENABLE, 0);
}

int evsel__disable(struct evsel *evsel)
{
	return evsel__ioctl_all(evsel, PERF_EVENT_IOC_DISABLE, 0);
}

int evsel__enable_cpu(struct evsel *evsel, int cpu_map_idx)
{
	return evsel__ioctl_range(evsel, PERF_EVENT_IOC_ENABLE, 0, cpu_map_idx, cpu_map_idx + 1,
				  0, evsel->fd_threads);
}

int evsel__disable_cpu(struct evsel *evsel, int cpu_map_idx)
{
	return evsel__ioctl_range(evsel, PERF_EVENT_IOC_DISABLE, 0, cpu_map_idx, cpu_map_idx + 1,
				  0, evsel->fd_threads);
}

int evsel__enable_thread(struct evsel *evsel, int thread)
{
	return evsel__ioctl_range(evsel, PERF_EVENT_IOC_ENABLE, 0, 0, evsel->fd_cpus, thread,
				  thread + 1);
}

int evsel__apply_filter(struct evsel *evsel, const char *filter)
{
	int err = evsel__ioctl_all(evsel, PERF_EVENT_IOC_SET_FILTER, (unsigned long)filter);

	if (err == -EINVAL && evsel->attr.type == PERF_TYPE_TRACEPOINT)
		pr_err("%s: the kernel rejected the filter \"%s\"; check its syntax and the "
		       "event's field names (tracefs events/<sys>/<event>/format)\n",
		       evsel->name, filter);
	else if (err == -EINVAL || err == -EOPNOTSUPP)
		pr_err("%s: the kernel rejected the address filter \"%s\": only tracepoints "
		       "take other filters, and only PMUs with nr_addr_filters in sysfs (intel_pt, "
		       "cs_etm) take address filters, kernel ones when the event counts the "
		       "kernel, file ones naming a regular file\n", evsel->name, filter);
	else if (err == -EEXIST)
		pr_err("%s: it has a filter already and the kernel does not replace one; close "
		       "and reopen the event to filter it differently\n", evsel->name);
	return err;
}

int evsel__id(const struct evsel *evsel, int cpu_map_idx, int thread, uint64_t *id)
{
	int fd = evsel__fd(evsel, cpu_map_idx, thread);

	if (fd < 0)
		return libauxtrace__err(-EBADF);
	if (ioctl(fd, PERF_EVENT_IOC_ID, id) < 0)
		return libauxtrace__err(-errno);
	return 0;
}

/*
 * The read_format layout: value (a group: nr instead), time_enabled, time_running, then a
 * group's first entry (the leader's value), id, lost; each word only when asked for.
 */
int evsel__read(struct evsel *evsel, int cpu_map_idx, int thread,
		struct perf_counts_values *count)
{
	uint64_t rf = evsel->attr.read_format;
	bool group = rf & PERF_FORMAT_GROUP;
	int fd = evsel__fd(evsel, cpu_map_idx, thread);
	size_t per_value = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t words = group + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
		       per_value * (group ? evsel->leader->nr_members : 1);
	uint64_t *buf;
	size_t i = 0;
	int err = 0;

	if (fd < 0)
		return libauxtrace__err(-EBADF);
	buf = calloc(words, sizeof(*buf));
	if (!buf)
		return libauxtrace__err(-ENOMEM);
	if (read(fd, buf, words * sizeof(*buf)) < 0) {
		err = -errno;
		goto out;
	}
	*count = (struct perf_counts_values){ 0 };
	if (group)
		i++;
	else
		count->val = buf[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		count->ena = buf[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		count->run = buf[i++];
	if (group)
		count->val = buf[i++];
	if (rf & PERF_FORMAT_ID)
		count->id = buf[i++];
	if (rf & PERF_FORMAT_LOST)
		count->lost = buf[i];
out:
	free(buf);
	return libauxtrace__err(err);
}
