// SPDX-License-Identifier: LGPL-2.1
/*
 * Tracepoints by pattern, as perf and trace-cmd users write them: shell globs on the system
 * and the event ("sched:*", "syscalls:sys_enter_*", "*:*switch*"), read off a tracefs
 * events directory in sorted order; and, when nothing matches, the names closest to what
 * was typed, so that a typo gets its fix instead of a pointer to a file of 2000 lines.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/tracepoints.h>
#include <internal/lib.h>

/*
 * How one name is matched: a glob first; a pattern whose glob matches nothing is tried as
 * an anchored POSIX regular expression ignoring case, as libtracefs matches, so that
 * "sys_enter_.*", which --ftrace took before globs, keeps its meaning.
 */
struct name_pattern {
	const char *glob;
	regex_t re;
	bool use_re;
};

static bool name_pattern__match(const struct name_pattern *np, const char *name)
{
	if (np->use_re)
		return !regexec(&np->re, name, 0, NULL, 0);
	return !fnmatch(np->glob, name, 0);
}

static int name_pattern__regex(struct name_pattern *np)
{
	char *anchored;
	int ret;

	if (asprintf(&anchored, "^%s$", np->glob) < 0)
		return -ENOMEM;
	ret = regcomp(&np->re, anchored, REG_ICASE | REG_NOSUB);
	free(anchored);
	np->use_re = !ret;
	return 0;
}

/* Only directories are systems and events (header_page, enable, filter are files). */
static bool entry__is_dir(int dirfd, const struct dirent *d)
{
	struct stat st;

	if (d->d_name[0] == '.')
		return false;
	if (d->d_type != DT_UNKNOWN)
		return d->d_type == DT_DIR;
	return !fstatat(dirfd, d->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

struct tp_walk {
	struct name_pattern sys, event;
	int (*cb)(const char *system, const char *event, void *ctx);
	void *ctx;
	int nr;
};

static int tp_walk__system(struct tp_walk *w, int events_fd, const char *system)
{
	struct dirent **names;
	int fd, n, ret = 0;

	fd = openat(events_fd, system, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)	/* gone since it was listed */
		return 0;
	n = scandirat(fd, ".", &names, NULL, alphasort);
	if (n < 0)
		ret = -errno;
	for (int i = 0; i < n; i++) {
		if (!ret && entry__is_dir(fd, names[i]) &&
		    name_pattern__match(&w->event, names[i]->d_name)) {
			w->nr++;
			if (w->cb)
				ret = w->cb(system, names[i]->d_name, w->ctx);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	close(fd);
	return ret;
}

static int tp_walk__run(struct tp_walk *w, const char *tracefs_root)
{
	struct dirent **names;
	char path[PATH_MAX];
	int fd, n, ret = 0;

	snprintf(path, sizeof(path), "%s/events", tracefs_root);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = scandirat(fd, ".", &names, NULL, alphasort);
	if (n < 0)
		ret = -errno;
	for (int i = 0; i < n; i++) {
		if (!ret && entry__is_dir(fd, names[i]) &&
		    name_pattern__match(&w->sys, names[i]->d_name))
			ret = tp_walk__system(w, fd, names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	close(fd);
	return ret;
}

static const char *tracepoints__root(const char *tracefs_root)
{
	return tracefs_root ? tracefs_root : libauxtrace__tracing_dir();
}

int tracepoints__for_each(const char *tracefs_root, const char *system, const char *event,
			  int (*cb)(const char *system, const char *event, void *ctx), void *ctx)
{
	struct tp_walk w = { .sys.glob = system, .event.glob = event, .cb = cb, .ctx = ctx };
	const char *root = tracepoints__root(tracefs_root);
	int ret;

	if (!system || !event)
		return libauxtrace__err(-EINVAL);
	if (!root)
		return libauxtrace__err(-errno);
	ret = tp_walk__run(&w, root);
	if (ret || w.nr)
		return ret ? libauxtrace__err(ret) : w.nr;
	/* nothing: the same patterns as regular expressions (the walk has called cb for none) */
	if (name_pattern__regex(&w.sys) || name_pattern__regex(&w.event))
		ret = -ENOMEM;
	else if (w.sys.use_re && w.event.use_re)
		ret = tp_walk__run(&w, root);
	if (w.sys.use_re)
		regfree(&w.sys.re);
	if (w.event.use_re)
		regfree(&w.event.re);
	return ret ? libauxtrace__err(ret) : w.nr;
}

/* Edit distance (insert, delete, substitute, each 1) of a and b, glob characters dropped. */
static int edit_distance(const char *a, const char *b)
{
	char ac[NAME_MAX + 1];
	size_t la = 0, lb = strlen(b);
	int row[NAME_MAX + 2];

	for (const char *s = a; *s && la < NAME_MAX; s++)
		if (!strchr("*?[]", *s))
			ac[la++] = (char)tolower((unsigned char)*s);
	if (lb > NAME_MAX)
		lb = NAME_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (ac[i - 1] != tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

#define NR_CLOSEST 3

/* The best few so far, by distance, then name (the walk is sorted: first seen wins ties). */
struct tp_closest {
	const char *system, *event;	/* what was typed */
	bool whole_systems;		/* "sched:*": systems are what is compared */
	int nr, dist[NR_CLOSEST];
	char name[NR_CLOSEST][2 * NAME_MAX + 4];
};

static void tp_closest__offer(struct tp_closest *c, int dist, const char *system,
			      const char *event)
{
	int at = c->nr < NR_CLOSEST ? c->nr : NR_CLOSEST - 1;

	if (c->nr == NR_CLOSEST && dist >= c->dist[at])
		return;
	/* a whole system is offered once, by its first event */
	for (int i = 0; c->whole_systems && i < c->nr; i++)
		if (!strncmp(c->name[i], system, strlen(system)) &&
		    c->name[i][strlen(system)] == ':')
			return;
	while (at > 0 && c->dist[at - 1] > dist) {
		c->dist[at] = c->dist[at - 1];
		memcpy(c->name[at], c->name[at - 1], sizeof(c->name[at]));
		at--;
	}
	c->dist[at] = dist;
	snprintf(c->name[at], sizeof(c->name[at]), "%s:%s", system, c->whole_systems ? "*" : event);
	if (c->nr < NR_CLOSEST)
		c->nr++;
}

static int tp_closest__cb(const char *system, const char *event, void *ctx)
{
	struct tp_closest *c = ctx;
	int dist = edit_distance(c->system, system);

	if (!c->whole_systems)
		dist += edit_distance(c->event, event);
	tp_closest__offer(c, dist, system, event);
	return 0;
}

/* An event part of only glob characters ("*") asks for systems. */
static bool pattern__is_any(const char *s)
{
	return s[strspn(s, "*?")] == '\0';
}

int tracepoints__closest(const char *tracefs_root, const char *system, const char *event,
			 char *buf, size_t size)
{
	struct tp_closest c = { .system = system, .event = event };
	int ret;

	if (!system || !event || !buf || !size)
		return libauxtrace__err(-EINVAL);
	c.whole_systems = pattern__is_any(event);
	buf[0] = '\0';
	ret = tracepoints__for_each(tracefs_root, "*", "*", tp_closest__cb, &c);
	if (ret < 0)
		return ret;
	for (int i = 0; i < c.nr; i++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s", i ? ", " : "", c.name[i]);
	}
	return c.nr;
}
