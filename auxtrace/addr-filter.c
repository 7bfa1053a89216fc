// SPDX-License-Identifier: LGPL-2.1
/*
 * Address filter strings into struct addr_filter lists: perf's grammar (see addr-filter.h),
 * with errors that give the byte where the string breaks.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/addr-filter.h>

#include <internal/addr-filter.h>
#include <internal/lib.h>

void addr_filters__init(struct addr_filters *filts)
{
	filts->head = NULL;
	filts->cnt = 0;
}

void addr_filters__exit(struct addr_filters *filts)
{
	struct addr_filter *filt, *next;

	for (filt = filts->head; filt; filt = next) {
		next = filt->next;
		free(filt->str);
		free(filt);
	}
	addr_filters__init(filts);
}

/* A piece of the input: an address or size (sym NULL), or a symbol and its #N. */
struct addr_filter_operand {
	const char *sym;	/* not NUL-terminated: sym_len bytes */
	size_t sym_len;
	int idx;
	uint64_t num;
};

struct addr_filter_parse {
	const char *str;	/* the whole input, for messages */
	const char *p;		/* the next byte */
};

static const char addr_filter__format[] =
	"Filter format is: filter|start|stop|tracestop <start symbol or address> "
	"[/ <end symbol or size>] [@<file name>]\n"
	"Where multiple filters are separated by space or comma.\n";

static int __printf(3, 4) addr_filter_parse__fail(struct addr_filter_parse *ap,
						  const char *at, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	libauxtrace__parse_error("Failed to parse address filter", ap->str, at, fmt, args);
	va_end(args);
	pr_err("%s", addr_filter__format);
	return -EINVAL;
}

static bool addr_filter__space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static bool addr_filter__digit(char c)
{
	return c >= '0' && c <= '9';
}

static void addr_filter_parse__skip_spaces(struct addr_filter_parse *ap)
{
	while (addr_filter__space(*ap->p))
		ap->p++;
}

/* Bytes from ap->p up to the first of stop (or a space, or the end). */
static size_t addr_filter_parse__span(const struct addr_filter_parse *ap, const char *stop)
{
	size_t n = 0;

	while (ap->p[n] && !addr_filter__space(ap->p[n]) && !strchr(stop, ap->p[n]))
		n++;
	return n;
}

/* A number as strtoull base 0 reads it, which must end where a token may end. */
static int addr_filter_parse__number(struct addr_filter_parse *ap, const char *what,
				     const char *ends, uint64_t *val)
{
	const char *start = ap->p;
	size_t len = addr_filter_parse__span(ap, ends);
	char *end;

	errno = 0;
	*val = strtoull(start, &end, 0);
	if (end != start + len)
		return addr_filter_parse__fail(ap, end, "'%.*s' is not a number, and %s "
					       "beginning with a digit must be one (decimal, 0x hex "
					       "or 0 octal)", (int)len, start, what);
	if (errno)
		return addr_filter_parse__fail(ap, start, "%s '%.*s' does not fit in 64 bits",
					       what, (int)len, start);
	ap->p = end;
	return 0;
}

/* [spaces] '#' [spaces] (N | g | G): which of several symbols of one name. */
static int addr_filter_parse__sym_idx(struct addr_filter_parse *ap, int *idx)
{
	const char *num;
	uint64_t val;
	int err;

	*idx = -1;
	addr_filter_parse__skip_spaces(ap);
	if (*ap->p != '#')
		return 0;
	ap->p++;
	addr_filter_parse__skip_spaces(ap);
	/* strchr() finds the NUL too: a g that ends the string */
	if ((*ap->p == 'g' || *ap->p == 'G') &&
	    (addr_filter__space(ap->p[1]) || strchr(",/@", ap->p[1]))) {
		ap->p++;
		*idx = 0;
		return 0;
	}
	num = ap->p;
	if (!addr_filter__digit(*num))
		return addr_filter_parse__fail(ap, num, "'#' takes N (the N-th symbol of the "
					       "name in address order), or 0, g or G (the global "
					       "one)");
	err = addr_filter_parse__number(ap, "#N", ",/@", &val);
	if (err)
		return err;
	if (val > INT_MAX)
		return addr_filter_parse__fail(ap, num, "#%llu is too large: there are never "
					       "that many symbols of one name",
					       (unsigned long long)val);
	*idx = (int)val;
	return 0;
}

static bool addr_filter_operand__is_all(const struct addr_filter_operand *op)
{
	return op->sym_len == 1 && op->sym[0] == '*';
}

/* START or END-OR-SIZE: a number, or a symbol with an optional #N; "*" only as START. */
static int addr_filter_parse__operand(struct addr_filter_parse *ap, const char *what,
				      bool is_start, struct addr_filter_operand *op)
{
	*op = (struct addr_filter_operand){ .idx = -1 };
	addr_filter_parse__skip_spaces(ap);
	if (addr_filter__digit(*ap->p)) {
		int err = addr_filter_parse__number(ap, what, ",/@#", &op->num);

		addr_filter_parse__skip_spaces(ap);
		if (!err && *ap->p == '#')
			return addr_filter_parse__fail(ap, ap->p, "#N picks one of several "
						       "symbols of a name, and %s is an address",
						       what);
		return err;
	}
	op->sym = ap->p;
	op->sym_len = addr_filter_parse__span(ap, ",/@#");
	if (!op->sym_len)
		return addr_filter_parse__fail(ap, ap->p, "%s is missing: give an address or "
					       "a function symbol", what);
	if (addr_filter_operand__is_all(op) && !is_start)
		return addr_filter_parse__fail(ap, ap->p, "'*' (a whole file or the kernel) "
					       "can only be the start");
	ap->p += op->sym_len;
	if (!addr_filter_operand__is_all(op))
		return addr_filter_parse__sym_idx(ap, &op->idx);
	addr_filter_parse__skip_spaces(ap);
	if (*ap->p == '#' || *ap->p == '/')
		return addr_filter_parse__fail(ap, ap->p, "'*' is the whole file or kernel: it "
					       "takes no %s", *ap->p == '#' ? "#N" : "end or size");
	return 0;
}

/* Copy a token to *out as a NUL-terminated string; NULL for no token. */
static const char *addr_filter__store(char **out, const char *s, size_t len)
{
	char *dst = *out;

	if (!s)
		return NULL;
	memcpy(dst, s, len);
	dst[len] = '\0';
	*out += len + 1;
	return dst;
}

static struct addr_filter *addr_filter__new(const struct addr_filter_operand *from,
					    const struct addr_filter_operand *to,
					    const char *file, size_t file_len)
{
	struct addr_filter *filt = calloc(1, sizeof(*filt));
	char *out;

	if (filt)
		filt->str = malloc(from->sym_len + to->sym_len + file_len + 3);
	if (!filt || !filt->str) {
		free(filt);
		return NULL;
	}
	out = filt->str;
	filt->sym_from = addr_filter__store(&out, from->sym, from->sym_len);
	filt->sym_to = addr_filter__store(&out, to->sym, to->sym_len);
	filt->filename = addr_filter__store(&out, file, file_len);
	filt->sym_from_idx = from->idx;
	filt->sym_to_idx = to->idx;
	filt->addr = from->num;
	filt->size = to->num;
	filt->resolved = !filt->sym_from && !filt->sym_to;
	return filt;
}

static const struct {
	const char *name;
	const char *action;	/* what the kernel's string says */
	bool start, range;
} addr_filter__actions[] = {
	{ "filter",	"filter",	true,	true },
	{ "start",	"start",	true,	false },
	{ "stop",	"stop",		false,	false },
	{ "tracestop",	"stop",		false,	true },
};

/* ACTION START [/ END-OR-SIZE] [@FILE], at ap->p after the separators. */
static int addr_filter_parse__one(struct addr_filter_parse *ap, struct addr_filter **filtp)
{
	struct addr_filter_operand from, to = { .idx = -1 };
	const char *action = ap->p, *file = NULL;
	size_t action_len = addr_filter_parse__span(ap, ","), file_len = 0, i;
	struct addr_filter *filt;
	bool range = false;
	int err;

	for (i = 0; i < ARRAY_SIZE(addr_filter__actions); i++)
		if (strlen(addr_filter__actions[i].name) == action_len &&
		    !strncmp(action, addr_filter__actions[i].name, action_len))
			break;
	if (i == ARRAY_SIZE(addr_filter__actions))
		return addr_filter_parse__fail(ap, action, "'%.*s' is not an action: a filter "
					       "starts with filter, start, stop or tracestop",
					       (int)action_len, action);
	ap->p += action_len;
	err = addr_filter_parse__operand(ap, "the start", true, &from);
	if (err)
		return err;
	addr_filter_parse__skip_spaces(ap);
	if (*ap->p == '/') {
		ap->p++;
		err = addr_filter_parse__operand(ap, "the end or size after '/'", false, &to);
		if (err)
			return err;
		range = true;
		addr_filter_parse__skip_spaces(ap);
	}
	if (*ap->p == '@') {
		ap->p++;
		addr_filter_parse__skip_spaces(ap);
		file = ap->p;
		file_len = addr_filter_parse__span(ap, ",");
		if (!file_len)
			return addr_filter_parse__fail(ap, ap->p, "'@' needs a file name");
		ap->p += file_len;
	}
	filt = addr_filter__new(&from, &to, file, file_len);
	if (!filt)
		return -ENOMEM;
	filt->action = addr_filter__actions[i].action;
	filt->start = addr_filter__actions[i].start;
	filt->range = addr_filter__actions[i].range || range;
	filt->pos = (size_t)(action - ap->str);
	*filtp = filt;
	return 0;
}

int addr_filters__parse_bare_filter(struct addr_filters *filts, const char *filter)
{
	struct addr_filter_parse ap = { .str = filter, .p = filter };
	struct addr_filter **tail = &filts->head;
	int err = 0;

	if (!filter) {
		pr_err("No address filter string: give \"\" for none\n");
		return libauxtrace__err(-EINVAL);
	}
	while (*tail)
		tail = &(*tail)->next;
	for (;;) {
		while (addr_filter__space(*ap.p) || *ap.p == ',')
			ap.p++;
		if (!*ap.p)
			break;
		err = addr_filter_parse__one(&ap, tail);
		if (err)
			break;
		tail = &(*tail)->next;
		filts->cnt++;
	}
	if (err)
		addr_filters__exit(filts);
	return libauxtrace__err(err);
}
