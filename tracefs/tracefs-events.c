// SPDX-License-Identifier: LGPL-2.1
/* Enabling events in an instance, and a libtraceevent handle that can print them. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

/* Write 1/0 to events/[<system>/[<event>/]]enable. 0, or -ENOENT when no such event. */
static int event__set(struct tracefs_instance *instance, const char *system, const char *event,
		      const char *val)
{
	char file[512];
	int ret;

	if (!system && event)
		return libauxtrace__err(-EINVAL);	/* an event name is unique only per system */
	if (!system)
		snprintf(file, sizeof(file), "events/enable");
	else if (!event)
		snprintf(file, sizeof(file), "events/%s/enable", system);
	else
		snprintf(file, sizeof(file), "events/%s/%s/enable", system, event);
	ret = tracefs_instance_file_write(instance, file, val);
	if (ret == -ENOENT)
		pr_err("no trace event %s%s%s: see %s/available_events\n", system ? system : "",
		       event ? ":" : "", event ? event : "", tracefs_tracing_dir());
	return ret < 0 ? ret : 0;
}

int tracefs_event_enable(struct tracefs_instance *instance, const char *system, const char *event)
{
	return event__set(instance, system, event, "1");
}

int tracefs_event_disable(struct tracefs_instance *instance, const char *system, const char *event)
{
	return event__set(instance, system, event, "0");
}

static char *read_file_at(const char *dir, const char *file, ssize_t *len)
{
	char *path, *buf = NULL;

	if (asprintf(&path, "%s/%s", dir, file) < 0) {
		*len = -ENOMEM;
		return NULL;
	}
	*len = tracefs__read_path(path, &buf);
	free(path);
	return *len < 0 ? NULL : buf;
}

/* Parse every events/<system>/<event>/format. Returns how many formats failed to parse. */
static int parse_system(struct tep_handle *tep, const char *events_dir, const char *system)
{
	char *sys_dir, *file;
	struct dirent *d;
	int failures = 0;
	DIR *dp;

	if (asprintf(&sys_dir, "%s/%s", events_dir, system) < 0)
		return 0;
	dp = opendir(sys_dir);
	while (dp && (d = readdir(dp))) {
		ssize_t len;
		char *fmt;

		if (d->d_type != DT_DIR || d->d_name[0] == '.' ||
		    asprintf(&file, "%s/format", d->d_name) < 0)
			continue;
		fmt = read_file_at(sys_dir, file, &len);
		free(file);
		if (!fmt)
			continue;
		if (tep_parse_event(tep, fmt, len, system))
			failures++;
		free(fmt);
	}
	if (dp)
		closedir(dp);
	free(sys_dir);
	return failures;
}

static int parse_events(struct tep_handle *tep, const char *tracing_dir)
{
	struct dirent *d;
	int failures = 0;
	char *events_dir;
	DIR *dp;

	if (asprintf(&events_dir, "%s/events", tracing_dir) < 0)
		return -ENOMEM;
	dp = opendir(events_dir);
	if (!dp) {
		failures = -errno;
		free(events_dir);
		return failures;
	}
	while ((d = readdir(dp))) {
		if (d->d_type == DT_DIR && d->d_name[0] != '.')
			failures += parse_system(tep, events_dir, d->d_name);
	}
	closedir(dp);
	free(events_dir);
	return failures;
}

/* Symbols (%ps in ftrace:print) and trace_printk formats; a tep without them still works. */
static void parse_symbols(struct tep_handle *tep, const char *tracing_dir)
{
	ssize_t len;
	char *buf = read_file_at("/proc", "kallsyms", &len);

	if (buf)
		tep_parse_kallsyms(tep, buf);
	free(buf);
	buf = read_file_at(tracing_dir, "printk_formats", &len);
	if (buf)
		tep_parse_printk_formats(tep, buf);
	free(buf);
}

struct tep_handle *tracefs_local_events(const char *tracing_dir)
{
	enum tep_endian host = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
								      : TEP_LITTLE_ENDIAN;
	struct tep_handle *tep;
	ssize_t len;
	char *buf;
	int failures;

	if (!tracing_dir)
		tracing_dir = tracefs_tracing_dir();
	if (!tracing_dir)
		return NULL;
	tep = tep_alloc();
	if (!tep)
		return libauxtrace__ptr_err(-ENOMEM);
	tep_set_file_bigendian(tep, host);
	tep_set_local_bigendian(tep, host);
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, getpagesize());
	buf = read_file_at(tracing_dir, "events/header_page", &len);
	if (!buf || tep_parse_header_page(tep, buf, len, sizeof(long))) {
		int err = buf ? -EINVAL : -errno;

		pr_err("cannot parse %s/events/header_page: is it a tracefs directory?\n", tracing_dir);
		free(buf);
		tep_free(tep);
		return libauxtrace__ptr_err(err);
	}
	free(buf);
	failures = parse_events(tep, tracing_dir);
	if (failures < 0) {
		tep_free(tep);
		return libauxtrace__ptr_err(failures);
	}
	if (failures)
		pr_debug("%d event formats in %s could not be parsed\n", failures, tracing_dir);
	parse_symbols(tep, tracing_dir);
	return tep;
}

int tracefs_load_cmdlines(const char *tracing_dir, struct tep_handle *tep)
{
	ssize_t len;
	char *buf;
	int ret;

	if (!tracing_dir)
		tracing_dir = tracefs_tracing_dir();
	if (!tracing_dir)
		return libauxtrace__err(-errno);
	buf = read_file_at(tracing_dir, "saved_cmdlines", &len);
	if (!buf)
		return libauxtrace__err((int)len);
	ret = tep_parse_saved_cmdlines(tep, buf);
	free(buf);
	return ret ? libauxtrace__err(-EINVAL) : 0;
}
