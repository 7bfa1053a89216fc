// SPDX-License-Identifier: LGPL-2.1
/*
 * The kernel's symbols for address filters, from /proc/kallsyms or a file in its format:
 * "ffffffff81000000 T _stext" or "ffffffffc0a01000 t name\t[module]" per line.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/addr-filter.h>
#include <internal/lib.h>

/* The whole file: /proc/kallsyms reports a size of 0, so read until the end. */
static int kallsyms__read(const char *path, char **text)
{
	size_t size = 1 << 20, len = 0;
	char *buf = NULL, *grown;
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		pr_err("Cannot read kernel symbols from %s: %s\n", path, strerror(-err));
		return err;
	}
	for (;;) {
		if (!buf || len + 1 == size) {
			size = buf ? size * 2 : size;
			grown = realloc(buf, size);
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			buf = grown;
		}
		n = libauxtrace__read_full(fd, buf + len, size - len - 1);
		if (n <= 0) {
			err = (int)n;
			if (err)
				pr_err("Cannot read kernel symbols from %s: %s\n", path,
				       strerror(-err));
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

static bool kallsyms__is_function(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W';
}

/* One line, cut into NUL-terminated pieces in place. */
static int kallsyms__parse_line(struct addr_syms *syms, char *line, unsigned int lineno)
{
	char *end, *name, *tab;
	struct addr_sym *sym;
	uint64_t value;

	errno = 0;
	value = strtoull(line, &end, 16);
	if (end == line || errno || end[0] != ' ' || !end[1] || end[2] != ' ' || !end[3]) {
		pr_err("%s line %u is not \"<hex address> <type> <name>\": '%s'\n", syms->where,
		       lineno, line);
		return -EINVAL;
	}
	name = end + 3;
	tab = strchr(name, '\t');
	if (tab)
		*tab = '\0';
	sym = addr_syms__add(syms);
	if (!sym)
		return -ENOMEM;
	sym->name = name;
	sym->origin = tab ? tab + 1 : NULL;
	sym->value = sym->start = value;
	sym->type = end[1];
	sym->global = isupper((unsigned char)end[1]);
	sym->func = kallsyms__is_function(end[1]);
	sym->mapped = true;
	return 0;
}

static int kallsyms__parse(struct addr_syms *syms)
{
	char *line = syms->strings, *nl;
	unsigned int lineno = 0;
	bool any_address = false;
	int err;

	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		lineno++;
		if (!*line)
			continue;
		err = kallsyms__parse_line(syms, line, lineno);
		if (err)
			return err;
		any_address |= syms->sym[syms->nr - 1].value != 0;
	}
	if (!syms->nr) {
		pr_err("%s holds no kernel symbols\n", syms->where);
		return -EINVAL;
	}
	if (!any_address) {
		/* The kernel shows them with CAP_SYSLOG (kptr_restrict <= 1), or to anyone when
		 * kptr_restrict is 0 and perf_event_paranoid at most 1. */
		pr_err("Kernel addresses are restricted: every address in %s is 0, as "
		       "kernel.kptr_restrict hides them from this user. Unable to resolve kernel "
		       "symbols: run as root (or with CAP_SYSLOG), set "
		       "/proc/sys/kernel/kptr_restrict to 0 and "
		       "/proc/sys/kernel/perf_event_paranoid to 1 or less, or give kernel "
		       "addresses as numbers\n", syms->where);
		return -EACCES;
	}
	addr_syms__sort(syms);
	return 0;
}

int addr_syms__load_kallsyms(struct addr_syms *syms, const char *path)
{
	int err;

	*syms = (struct addr_syms){ .where = path, .kernel = true };
	err = kallsyms__read(path, &syms->strings);
	if (!err)
		err = kallsyms__parse(syms);
	if (err)
		addr_syms__exit(syms);
	return err;
}
