// SPDX-License-Identifier: LGPL-2.1
/*
 * Which event formats a trace.dat carries: every ftrace-system format (trace_marker writes
 * are ftrace:print), and the formats of the events named or enabled, grouped by system as
 * trace-cmd stores them. Names are kept, not formats: the formats are read when the file is
 * written, so events enabled during the recording are described as they are then.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include <tracefs/tracefs.h>
#include "trace-dat-internal.h"

struct td_system {
	char *name;
	char **events;
	int nr_events;
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names__free(char **names, int nr)
{
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

static int names__add(char ***names, int *nr, const char *name)
{
	char **grown;

	for (int i = 0; i < *nr; i++)
		if (!strcmp((*names)[i], name))
			return 0;
	grown = realloc(*names, (*nr + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	*names = grown;
	grown[*nr] = strdup(name);
	if (!grown[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

/* "<instance>/events/<system>[/<event>]/format": free() it. */
static char *format_path(struct tracefs_instance *inst, const char *system, const char *event)
{
	char *file, *path;

	if (asprintf(&file, "events/%s%s%s/format", system, event ? "/" : "", event ?: "") < 0)
		return NULL;
	path = tracefs_instance_get_file(inst, file);
	free(file);
	return path;
}

/* The events of system that have a format, sorted. Count, or -errno. */
static int system__list(struct tracefs_instance *inst, const char *system, char ***names)
{
	char *file, *dir;
	struct dirent *d;
	int nr = 0, err = 0;
	DIR *dp;

	*names = NULL;
	if (asprintf(&file, "events/%s", system) < 0)
		return -ENOMEM;
	dir = tracefs_instance_get_file(inst, file);
	free(file);
	dp = dir ? opendir(dir) : NULL;
	if (!dp) {
		err = -errno;
		if (err == -ENOENT)
			pr_err("no event system '%s' (no %s): see available_events\n", system,
			       dir ?: "tracefs");
		free(dir);
		return err;
	}
	while (!err && (d = readdir(dp))) {
		char format[512];

		if (d->d_name[0] == '.')
			continue;
		snprintf(format, sizeof(format), "%s/format", d->d_name);
		if (faccessat(dirfd(dp), format, R_OK, 0) == 0)
			err = names__add(names, &nr, d->d_name);
	}
	closedir(dp);
	free(dir);
	if (err) {
		names__free(*names, nr);
		*names = NULL;
		return err;
	}
	qsort(*names, nr, sizeof(**names), name_cmp);
	return nr;
}

static struct td_system *events__system(struct td_events *ev, const char *name)
{
	struct td_system *grown;

	for (int i = 0; i < ev->nr_systems; i++)
		if (!strcmp(ev->systems[i].name, name))
			return &ev->systems[i];
	grown = realloc(ev->systems, (ev->nr_systems + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	ev->systems = grown;
	grown += ev->nr_systems;
	*grown = (struct td_system){ .name = strdup(name) };
	if (!grown->name)
		return NULL;
	ev->nr_systems++;
	return grown;
}

int td_events__add(struct td_events *ev, struct tracefs_instance *inst, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char *system = strndup(spec, colon ? (size_t)(colon - spec) : strlen(spec));
	const char *event = colon && strcmp(colon + 1, "*") ? colon + 1 : NULL;
	struct td_system *sys;
	char **names = NULL;
	int nr, err = 0;

	if (!system)
		return -ENOMEM;
	if (!*system || (event && (!*event || strchr(event, '/'))) || strchr(system, '/')) {
		pr_err("'%s' names no event: write system:event, system:* or system\n", spec);
		free(system);
		return -EINVAL;
	}
	if (!strcmp(system, "ftrace")) {	/* always in the file, in a section of its own */
		free(system);
		return 0;
	}
	if (event) {
		char *path = format_path(inst, system, event);

		if (!path || access(path, R_OK)) {
			err = path ? -errno : -ENOMEM;
			if (err == -ENOENT)
				pr_err("no event %s:%s (no %s): see available_events\n", system,
				       event, path);
			free(path);
			free(system);
			return err;
		}
		free(path);
		sys = events__system(ev, system);
		err = sys ? names__add(&sys->events, &sys->nr_events, event) : -ENOMEM;
		free(system);
		return err;
	}
	nr = system__list(inst, system, &names);
	sys = nr < 0 ? NULL : events__system(ev, system);
	if (nr >= 0 && !sys)
		err = -ENOMEM;
	for (int i = 0; !err && i < nr; i++)
		err = names__add(&sys->events, &sys->nr_events, names[i]);
	names__free(names, nr > 0 ? nr : 0);
	free(system);
	return nr < 0 ? nr : err;
}

int td_events__add_enabled(struct td_events *ev, struct tracefs_instance *inst)
{
	char *set = tracefs_instance_file_read(inst, "set_event", NULL);
	char *line, *save = NULL;
	int err = 0;

	if (!set)
		return -errno;
	for (line = strtok_r(set, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save))
		err = td_events__add(ev, inst, line);
	free(set);
	return err;
}

/*
 * Each format as a u64 length and its text. A listed format that cannot be read now (its
 * event was removed while we recorded) would leave the count wrong: that fails the file.
 */
static void formats__write(struct td_out *out, struct tracefs_instance *inst,
			   const char *system, char *const *events, int nr)
{
	for (int i = 0; i < nr && !out->err; i++) {
		char *path = format_path(inst, system, events[i]);

		td_out__required_file(out, path, " (was the event removed while recording?)");
		free(path);
	}
}

void td_events__write_ftrace(struct tracefs_instance *inst, struct td_out *out,
			     bool ftrace_formats)
{
	char **ftrace = NULL;
	int nr = ftrace_formats ? system__list(inst, "ftrace", &ftrace) : 0;

	if (nr < 0) {
		out->err = out->err ?: nr;
		return;
	}
	td_out__u32(out, nr);
	formats__write(out, inst, "ftrace", ftrace, nr);
	names__free(ftrace, nr);
}

void td_events__write_systems(const struct td_events *ev, struct tracefs_instance *inst,
			      struct td_out *out)
{
	int nr_systems = 0;

	for (int i = 0; i < ev->nr_systems; i++)
		nr_systems += ev->systems[i].nr_events > 0;
	td_out__u32(out, nr_systems);
	for (int i = 0; i < ev->nr_systems; i++) {
		const struct td_system *sys = &ev->systems[i];

		if (!sys->nr_events)
			continue;
		td_out__str(out, sys->name);
		td_out__u32(out, sys->nr_events);
		formats__write(out, inst, sys->name, sys->events, sys->nr_events);
	}
}

void td_events__write(const struct td_events *ev, struct tracefs_instance *inst,
		      struct td_out *out, bool ftrace_formats)
{
	td_events__write_ftrace(inst, out, ftrace_formats);
	if (!out->err)
		td_events__write_systems(ev, inst, out);
}

void td_events__exit(struct td_events *ev)
{
	for (int i = 0; i < ev->nr_systems; i++) {
		free(ev->systems[i].name);
		names__free(ev->systems[i].events, ev->systems[i].nr_events);
	}
	free(ev->systems);
	ev->systems = NULL;
	ev->nr_systems = 0;
}

int td_events__add_list(struct td_events *ev, struct tracefs_instance *inst,
			const char *const *events)
{
	int err = 0;

	if (!events)
		return td_events__add_enabled(ev, inst);
	for (const char *const *e = events; *e && !err; e++)
		err = td_events__add(ev, inst, *e);
	return err;
}
