// SPDX-License-Identifier: LGPL-2.1
/* Enabling events in an instance, and a libtraceevent handle that can print them. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include "tracefs-internal.h"

/*
 * Events are matched as libtracefs matches them: a POSIX basic regular expression anchored
 * at both ends, ignoring case, against the names of the instance's own event directories.
 * Names come from readdir and files are opened relative to their directory, so nothing a
 * caller passes can lead outside the instance.
 */
struct event_match {
	regex_t system, event;
	bool any_system, any_event;
	const char *val;		/* "1" or "0" */
	int matched;
};

/* "." and ".." are paths, not names (as a regex, ".." would also match the parent). */
static bool event_name__is_path(const char *name)
{
	return name && (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."));
}

static int name_regex__compile(regex_t *re, const char *name)
{
	size_t len = strlen(name);
	char *anchored;
	int ret;

	if (asprintf(&anchored, "%s%s%s", name[0] == '^' ? "" : "^", name,
		     len && name[len - 1] == '$' ? "" : "$") < 0)
		return -ENOMEM;
	ret = regcomp(re, anchored, REG_ICASE | REG_NOSUB);
	free(anchored);
	return ret ? -EINVAL : 0;
}

/*
 * Write the switch of <dirfd>/<name>/enable. 1 when written, 0 when name is no directory
 * with a switch (a file, or the ftrace system), -errno when the write failed.
 */
static int event_switch__write(int dirfd, const char *name, const char *val)
{
	char file[NAME_MAX + sizeof("/enable")];
	int fd, ret;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	snprintf(file, sizeof(file), "%s/enable", name);
	fd = openat(dirfd, file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	ret = tracefs__write_fd(fd, val);
	return ret < 0 ? ret : 1;
}

/* Switch the events of one system directory that match. 0 or -errno. */
static int event_match__system(struct event_match *m, int events_fd, const char *system)
{
	struct dirent *d;
	int fd, ret = 0;
	DIR *dp;

	fd = openat(events_fd, system, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)	/* ENOTDIR: a file such as header_page; anything else is a real error */
		return errno == ENOTDIR ? 0 : -errno;
	dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		return -errno;
	}
	while (ret >= 0 && (d = readdir(dp))) {
		if (!m->any_event && regexec(&m->event, d->d_name, 0, NULL, 0))
			continue;
		ret = event_switch__write(dirfd(dp), d->d_name, m->val);
		if (ret > 0)
			m->matched++;
	}
	closedir(dp);
	return ret < 0 ? ret : 0;
}

/* Every system of the instance that matches: its own switch, or its matching events. */
static int event_match__run(struct event_match *m, struct tracefs_instance *instance)
{
	char *events_dir = tracefs__path(instance, "events");
	struct dirent *d;
	int ret = 0;
	DIR *dp;

	if (!events_dir)
		return -errno;
	dp = opendir(events_dir);
	free(events_dir);
	if (!dp)
		return -errno;
	while (ret >= 0 && (d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    (!m->any_system && regexec(&m->system, d->d_name, 0, NULL, 0)))
			continue;
		if (m->any_event) {
			ret = event_switch__write(dirfd(dp), d->d_name, m->val);
			if (ret > 0)
				m->matched++;
		} else {
			ret = event_match__system(m, dirfd(dp), d->d_name);
		}
	}
	closedir(dp);
	return ret < 0 ? ret : 0;
}

/* libtracefs' convention: 0 when something matched, else -1 with errno set. */
static int event__switch(struct tracefs_instance *instance, const char *system, const char *event,
			 const char *val)
{
	struct event_match m = { .any_system = !system, .any_event = !event, .val = val };
	int ret;

	if (event_name__is_path(system) || event_name__is_path(event)) {
		pr_err("trace event %s:%s refused: system and event are names or regular expressions, without '/', and not '.' or '..'\n",
		       system ? system : "*", event ? event : "*");
		errno = EINVAL;
		return -1;
	}
	if (!system && !event) {
		ret = tracefs_instance_file_write(instance, "events/enable", val);
		return ret < 0 ? -1 : 0;
	}
	ret = system ? name_regex__compile(&m.system, system) : 0;
	if (!ret && event) {
		ret = name_regex__compile(&m.event, event);
		if (ret && system)
			regfree(&m.system);
	}
	if (ret) {
		pr_err("trace event %s:%s: not a valid regular expression\n", system ? system : "*",
		       event ? event : "*");
		errno = -ret;
		return -1;
	}
	ret = event_match__run(&m, instance);
	if (system)
		regfree(&m.system);
	if (event)
		regfree(&m.event);
	if (!ret && !m.matched) {
		pr_err("no trace event matches %s:%s: see %s/available_events\n",
		       system ? system : "*", event ? event : "*", tracefs_tracing_dir());
		ret = -ENOENT;
	}
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}

int tracefs_event_enable(struct tracefs_instance *instance, const char *system, const char *event)
{
	return event__switch(instance, system, event, "1");
}

int tracefs_event_disable(struct tracefs_instance *instance, const char *system, const char *event)
{
	return event__switch(instance, system, event, "0");
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

/*
 * Symbols (%ps in ftrace:print), trace_printk formats and the comms of saved_cmdlines, as
 * libtracefs loads them; a tep without them still works.
 */
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
	buf = read_file_at(tracing_dir, "saved_cmdlines", &len);
	if (buf)
		tep_parse_saved_cmdlines(tep, buf);
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
