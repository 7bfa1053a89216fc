// SPDX-License-Identifier: LGPL-2.1
/* Tracing instances and the files that configure their ring buffers (libtracefs names). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

/* An instance name is one directory entry of instances/, and no way out of it. */
static bool instance_name__valid(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static struct tracefs_instance *instance_name__refuse(const char *name)
{
	pr_err("tracing instance name '%s' refused: give a plain directory name, without '/', and not '.' or '..'\n",
	       name);
	return libauxtrace__ptr_err(-EINVAL);
}

/* A handle on trace_dir/instances/<name>, or on trace_dir itself for a NULL name. */
static struct tracefs_instance *instance__new(const char *trace_dir, const char *name)
{
	struct tracefs_instance *inst = calloc(1, sizeof(*inst));
	int ret;

	if (!inst)
		return libauxtrace__ptr_err(-ENOMEM);
	inst->trace_dir = strdup(trace_dir);
	inst->name = name ? strdup(name) : NULL;
	ret = name ? asprintf(&inst->dir, "%s/instances/%s", trace_dir, name) :
		     asprintf(&inst->dir, "%s", trace_dir);
	if (ret < 0)
		inst->dir = NULL;
	if (!inst->trace_dir || (name && !inst->name) || !inst->dir) {
		tracefs_instance_free(inst);
		return libauxtrace__ptr_err(-ENOMEM);
	}
	return inst;
}

/*
 * mkdir instances/<name>. An existing one is attached to (libtracefs' create), unless
 * exclusive: then it is left alone and EEXIST says so, quietly, since a caller that wants an
 * instance of its own is expected to try another name.
 */
static struct tracefs_instance *instance__create(const char *name, bool exclusive)
{
	const char *top = tracefs_tracing_dir();
	struct tracefs_instance *inst;
	int err;

	if (!top)
		return NULL;
	if (name && !instance_name__valid(name))
		return instance_name__refuse(name);
	if (exclusive && !name)
		return libauxtrace__ptr_err(-EINVAL);	/* the top level is everybody's */
	inst = instance__new(top, name);
	if (!inst || !name)
		return inst;
	if (mkdir(inst->dir, 0755) == 0) {
		inst->is_new = true;
		return inst;
	}
	err = -errno;
	if (err == -EEXIST && !exclusive)
		return inst;
	if (err != -EEXIST)
		pr_err("cannot create tracing instance %s: %s (needs root or CAP_SYS_ADMIN over tracefs)\n",
		       inst->dir, strerror(-err));
	tracefs_instance_free(inst);
	return libauxtrace__ptr_err(err);
}

struct tracefs_instance *tracefs_instance_create(const char *name)
{
	return instance__create(name, false);
}

struct tracefs_instance *tracefs_instance_create_exclusive(const char *name)
{
	return instance__create(name, true);
}

struct tracefs_instance *tracefs_instance_alloc(const char *tracing_dir, const char *name)
{
	const char *top = tracing_dir ? tracing_dir : tracefs_tracing_dir();
	struct tracefs_instance *inst;
	struct stat st;
	int err;

	if (!top)
		return NULL;
	if (name && !instance_name__valid(name))
		return instance_name__refuse(name);
	inst = instance__new(top, name);
	if (!inst)
		return NULL;
	err = stat(inst->dir, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (err) {
		tracefs_instance_free(inst);
		return libauxtrace__ptr_err(err);
	}
	return inst;
}

int tracefs_instance_destroy(struct tracefs_instance *instance)
{
	if (!instance || !instance->name)
		return libauxtrace__err(-EINVAL);	/* the top level cannot go */
	if (rmdir(instance->dir) < 0) {
		int err = -errno;

		if (err == -EBUSY)
			pr_err("cannot remove tracing instance %s: still open or mapped; close every tracefs_cpu of it first\n",
			       instance->name);
		return libauxtrace__err(err);
	}
	return 0;
}

void tracefs_instance_free(struct tracefs_instance *instance)
{
	if (!instance)
		return;
	free(instance->name);
	free(instance->trace_dir);
	free(instance->dir);
	free(instance);
}

bool tracefs_instance_is_new(struct tracefs_instance *instance)
{
	return instance && instance->is_new;
}

bool tracefs_instance_exists(const char *name)
{
	const char *top = tracefs_tracing_dir();
	char path[4096];
	struct stat st;

	if (!top || !name || !instance_name__valid(name))
		return false;
	snprintf(path, sizeof(path), "%s/instances/%s", top, name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tracefs_instance_get_name(struct tracefs_instance *instance)
{
	return instance ? instance->name : NULL;
}

const char *tracefs_instance_get_trace_dir(struct tracefs_instance *instance)
{
	return instance ? instance->trace_dir : NULL;
}

char *tracefs_instance_get_dir(struct tracefs_instance *instance)
{
	const char *dir = tracefs__dir(instance);
	char *copy;

	if (!dir)
		return NULL;
	copy = strdup(dir);
	return copy ? copy : libauxtrace__ptr_err(-ENOMEM);
}

char *tracefs_instance_get_file(struct tracefs_instance *instance, const char *file)
{
	return tracefs__path(instance, file);
}

int tracefs_instance_file_open(struct tracefs_instance *instance, const char *file, int mode)
{
	char *path = tracefs__path(instance, file);
	int fd;

	if (!path)
		return libauxtrace__err(-errno);
	fd = open(path, (mode < 0 ? O_RDWR : mode) | O_CLOEXEC);
	free(path);
	return fd < 0 ? libauxtrace__err(-errno) : fd;
}

char *tracefs_instance_file_read(struct tracefs_instance *instance, const char *file, int *psize)
{
	char *path = tracefs__path(instance, file), *buf = NULL;
	ssize_t n;

	if (!path)
		return NULL;
	n = tracefs__read_path(path, &buf);
	free(path);
	if (n < 0)
		return libauxtrace__ptr_err((int)n);
	if (psize)
		*psize = (int)n;
	return buf;
}

int tracefs_instance_file_read_number(struct tracefs_instance *instance, const char *file,
				      long long *res)
{
	char *buf = tracefs_instance_file_read(instance, file, NULL), *end;
	int err = 0;

	if (!buf)
		return libauxtrace__err(-errno);
	errno = 0;
	*res = strtoll(buf, &end, 0);
	/* "7 (expanded: 1408)" in buffer_size_kb: the number comes first, words may follow */
	if (errno || end == buf)
		err = -EINVAL;
	free(buf);
	return libauxtrace__err(err);
}

int tracefs_instance_file_write(struct tracefs_instance *instance, const char *file,
				const char *str)
{
	char *path = tracefs__path(instance, file);
	int ret;

	if (!path)
		return libauxtrace__err(-errno);
	ret = tracefs__write_path(path, str);
	free(path);
	return ret;
}

int tracefs_instance_file_clear(struct tracefs_instance *instance, const char *file)
{
	int ret = tracefs_instance_file_write(instance, file, "");

	return ret < 0 ? ret : 0;
}

static int write_number(struct tracefs_instance *instance, const char *file, long long val)
{
	char buf[32];
	int ret;

	snprintf(buf, sizeof(buf), "%lld", val);
	ret = tracefs_instance_file_write(instance, file, buf);
	if (ret == -EBUSY)
		pr_err("%s of instance %s is busy: a CPU buffer of it is memory-mapped; unmap it first\n",
		       file, instance ? instance->name : "(top)");
	return ret < 0 ? ret : 0;
}

static long long read_number(struct tracefs_instance *instance, const char *file)
{
	long long val;
	int err = tracefs_instance_file_read_number(instance, file, &val);

	return err < 0 ? err : val;
}

ssize_t tracefs_instance_get_buffer_size(struct tracefs_instance *instance, int cpu)
{
	char file[64];

	if (cpu < 0)
		return read_number(instance, "buffer_size_kb");
	snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", cpu);
	return read_number(instance, file);
}

int tracefs_instance_set_buffer_size(struct tracefs_instance *instance, size_t size, int cpu)
{
	char file[64];

	if (cpu < 0)
		return write_number(instance, "buffer_size_kb", (long long)size);
	snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", cpu);
	return write_number(instance, file, (long long)size);
}

ssize_t tracefs_instance_get_subbuf_size(struct tracefs_instance *instance)
{
	return read_number(instance, "buffer_subbuf_size_kb");
}

int tracefs_instance_set_subbuf_size(struct tracefs_instance *instance, size_t size)
{
	return write_number(instance, "buffer_subbuf_size_kb", (long long)size);
}

int tracefs_instance_get_buffer_percent(struct tracefs_instance *instance)
{
	return (int)read_number(instance, "buffer_percent");
}

int tracefs_instance_set_buffer_percent(struct tracefs_instance *instance, int val)
{
	if (val < 0 || val > 100)
		return libauxtrace__err(-EINVAL);
	return write_number(instance, "buffer_percent", val);
}

int tracefs_trace_is_on(struct tracefs_instance *instance)
{
	return (int)read_number(instance, "tracing_on");
}

int tracefs_trace_on(struct tracefs_instance *instance)
{
	return write_number(instance, "tracing_on", 1);
}

int tracefs_trace_off(struct tracefs_instance *instance)
{
	return write_number(instance, "tracing_on", 0);
}

int tracefs_instance_clear(struct tracefs_instance *instance)
{
	return tracefs_instance_file_clear(instance, "trace");
}

/* trace_clock lists every clock and brackets the one in use: "local [global] mono ...". */
char *tracefs_get_clock(struct tracefs_instance *instance)
{
	char *buf = tracefs_instance_file_read(instance, "trace_clock", NULL);
	char *open, *close, *name;

	if (!buf)
		return NULL;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		free(buf);
		return libauxtrace__ptr_err(-EINVAL);
	}
	name = strndup(open + 1, close - open - 1);
	free(buf);
	return name ? name : libauxtrace__ptr_err(-ENOMEM);
}

int tracefs_instance_set_clock(struct tracefs_instance *instance, const char *clock)
{
	int ret = tracefs_instance_file_write(instance, "trace_clock", clock);

	if (ret == -EINVAL)
		pr_err("trace clock '%s' unknown: pick one listed in trace_clock\n", clock);
	return ret < 0 ? ret : 0;
}
