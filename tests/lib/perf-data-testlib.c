// SPDX-License-Identifier: LGPL-2.1
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/mmap.h>
#include "lib/perf-data-testlib.h"

const char *testlib_prog(const char *name)
{
	static char path[512];
	const char *b = getenv("B");

	snprintf(path, sizeof(path), "%s/tests/progs/%s", b && *b ? b : "build", name);
	return path;
}

int test_workload__prepare(struct test_workload *w, char *const argv[])
{
	int go[2];

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	w->pid = fork();
	if (w->pid < 0)
		return -errno;
	if (w->pid == 0) {
		char c;

		close(go[1]);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		execv(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	w->go_fd = go[1];
	return 0;
}

void test_workload__start(struct test_workload *w)
{
	close(w->go_fd);
	w->go_fd = -1;
}

int test_workload__wait(struct test_workload *w)
{
	int status = -1;

	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

struct evlist *testlib_sampling_evlist(struct perf_thread_map *threads, uint64_t period_ns,
				       bool enable_on_exec)
{
	struct perf_event_attr sampling = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period_ns,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = enable_on_exec,
		.enable_on_exec = enable_on_exec,
	};
	struct perf_event_attr tracking = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = enable_on_exec,
		.enable_on_exec = enable_on_exec,
	};
	struct perf_cpu_map *cpus = perf_cpu_map__new_any_cpu();
	struct evlist *evlist = evlist__new();
	struct evsel *s = evsel__new(&sampling), *t = evsel__new(&tracking);
	int err = -ENOMEM;

	if (cpus && evlist && s && t && !evsel__set_name(s, "cpu-clock:u") &&
	    !evsel__set_name(t, "dummy:u") && !evlist__add(evlist, s)) {
		s = NULL;
		if (!evlist__add(evlist, t)) {
			t = NULL;
			err = evlist__set_maps(evlist, cpus, threads);
			if (!err)
				err = evlist__open(evlist);
			if (!err)
				err = evlist__mmap(evlist, 64);
		}
	}
	evsel__delete(s);
	evsel__delete(t);
	perf_cpu_map__put(cpus);
	if (err) {
		evlist__delete(evlist);
		errno = -err;
		return NULL;
	}
	return evlist;
}

ssize_t testlib_push_rings(struct evlist *evlist, struct ring_sink *sink)
{
	ssize_t total = 0;

	for (int idx = 0; idx < evlist__nr_mmaps(evlist); idx++) {
		struct perf_mmap *map = evlist__mmap_at(evlist, idx);
		ssize_t n;

		if (!map)
			continue;
		n = perf_mmap__push(map, sink);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

void *testlib_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size + 1)) && fread(buf, 1, (size_t)size, f) == (size_t)size) {
		buf[size] = '\0';
		*len = (size_t)size;
	} else {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	fclose(f);
	return buf;
}

int testlib_walk_records(const void *data, uint64_t size,
			 int (*fn)(void *ctx, const union perf_event *ev), void *ctx)
{
	const unsigned char *p = data;
	uint64_t pos = 0;
	int n = 0;

	while (pos < size) {
		const union perf_event *ev = (const void *)(p + pos);
		uint64_t len;

		if (size - pos < sizeof(ev->header) || ev->header.size < sizeof(ev->header) ||
		    ev->header.size > size - pos)
			return -EINVAL;
		len = ev->header.size;
		if (ev->header.type == PERF_RECORD_AUXTRACE) {
			if (len != sizeof(ev->auxtrace) || ev->auxtrace.size > size - pos - len)
				return -EINVAL;
			len += ev->auxtrace.size;
		}
		n++;
		if (fn && fn(ctx, ev))
			break;
		pos += len;
	}
	return n;
}

int testlib_perf(char **out, const char *fmt, ...)
{
	char cmd[4096];
	size_t len = 0, cap = 1 << 16;
	va_list ap;
	FILE *p;
	size_t n;
	int status;

	va_start(ap, fmt);
	snprintf(cmd, sizeof(cmd), "timeout 60 perf ");
	vsnprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	*out = malloc(cap);
	p = popen(cmd, "r");
	if (!p || !*out) {
		if (p)
			pclose(p);
		return -1;
	}
	while ((n = fread(*out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 4096) {
			char *bigger = realloc(*out, cap * 2);

			if (!bigger)
				break;
			*out = bigger;
			cap *= 2;
		}
	}
	(*out)[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool testlib_have_perf(void)
{
	char *out = NULL;
	int rc = testlib_perf(&out, "version");

	free(out);
	return rc == 0;
}

int testlib_count_lines(const char *text, const char *needle)
{
	int n = 0;

	for (const char *line = text; line && *line; ) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (memmem(line, len, needle, strlen(needle)))
			n++;
		line = end ? end + 1 : NULL;
	}
	return n;
}
