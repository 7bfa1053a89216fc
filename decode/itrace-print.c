// SPDX-License-Identifier: LGPL-2.1
/*
 * The canonical --itrace string of a struct itrace_synth_opts: the letters in the table's
 * order, each value right after the last letter it belongs to, defaults left out, so that
 * parsing the string gives back the same options.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include <auxtrace/itrace.h>

#include <internal/itrace-letters.h>
#include <internal/lib.h>

/* snprintf into a buffer that may run out: len counts what the whole string needs. */
struct itrace_out {
	char *buf;
	size_t size;
	size_t len;
};

static void __printf(2, 3) itrace_out__printf(struct itrace_out *out, const char *fmt, ...)
{
	size_t room = out->len < out->size ? out->size - out->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? out->buf + out->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		out->len += (size_t)n;
}

static int itrace_out__period(struct itrace_out *out, const struct itrace_synth_opts *o)
{
	unsigned long long period = o->period;

	switch (o->period_type) {
	case PERF_ITRACE_PERIOD_INSTRUCTIONS:
		itrace_out__printf(out, "%llui", period);
		return 0;
	case PERF_ITRACE_PERIOD_TICKS:
		itrace_out__printf(out, "%llut", period);
		return 0;
	case PERF_ITRACE_PERIOD_NANOSECS:
		if (period == PERF_ITRACE_DEFAULT_PERIOD)
			return 0;
		if (period && period % 1000000 == 0)
			itrace_out__printf(out, "%llums", period / 1000000);
		else if (period && period % 1000 == 0)
			itrace_out__printf(out, "%lluus", period / 1000);
		else
			itrace_out__printf(out, "%lluns", period);
		return 0;
	}
	pr_err("itrace_synth_opts: period_type %d is none of PERF_ITRACE_PERIOD_*\n",
	       (int)o->period_type);
	return -EINVAL;
}

static void itrace_out__flags(struct itrace_out *out, unsigned int plus, unsigned int minus)
{
	for (int bit = 0; bit < 26; bit++) {
		if (plus & (1U << bit))
			itrace_out__printf(out, "+%c", 'a' + bit);
		if (minus & (1U << bit))
			itrace_out__printf(out, "-%c", 'a' + bit);
	}
}

static void itrace_out__size(struct itrace_out *out, unsigned int size, unsigned int dflt)
{
	if (size != dflt)
		itrace_out__printf(out, "%u", size);
}

/* Letters other than b that switch branches on say branches already. */
static bool itrace_letter__printed(const struct itrace_letter *l,
				   const struct itrace_synth_opts *o)
{
	if (l->letter == 'b' && (o->calls || o->returns))
		return false;
	if (l->letter == 's')
		return o->initial_skip;
	if (l->letter == 'q')
		return o->quick;
	return *itrace_letter__flag(l, (struct itrace_synth_opts *)o);
}

/* The value printed after letter c, when c is the last letter of its group. */
static int itrace_out__value(struct itrace_out *out, char c, const struct itrace_synth_opts *o)
{
	switch (c) {
	case 'i':
		return o->cycles ? 0 : itrace_out__period(out, o);
	case 'y':
		return itrace_out__period(out, o);
	case 'e':
		itrace_out__flags(out, o->error_plus_flags, o->error_minus_flags);
		return 0;
	case 'd':
		itrace_out__flags(out, o->log_plus_flags, o->log_minus_flags);
		return 0;
	case 'g':
		if (!o->add_callchain)
			itrace_out__size(out, o->callchain_sz, PERF_ITRACE_DEFAULT_CALLCHAIN_SZ);
		return 0;
	case 'G':
		itrace_out__size(out, o->callchain_sz, PERF_ITRACE_DEFAULT_CALLCHAIN_SZ);
		return 0;
	case 'l':
		if (!o->add_last_branch)
			itrace_out__size(out, o->last_branch_sz,
					 PERF_ITRACE_DEFAULT_LAST_BRANCH_SZ);
		return 0;
	case 'L':
		itrace_out__size(out, o->last_branch_sz, PERF_ITRACE_DEFAULT_LAST_BRANCH_SZ);
		return 0;
	case 's':
		itrace_out__printf(out, "%llu", (unsigned long long)o->initial_skip);
		return 0;
	case 'q':
		for (unsigned int i = 1; i < o->quick; i++)
			itrace_out__printf(out, "q");
		return 0;
	default:
		return 0;
	}
}

int itrace_synth_opts__snprint(const struct itrace_synth_opts *opts, char *buf, size_t size)
{
	struct itrace_out out = { .buf = buf, .size = size };
	const struct itrace_letter *l;
	struct itrace_synth_opts o;
	int err = itrace_synth_opts__load(opts, &o);

	if (err)
		return err;
	if (size)
		buf[0] = '\0';
	for (l = itrace_letters; l->letter; l++) {
		if (!itrace_letter__printed(l, &o))
			continue;
		itrace_out__printf(&out, "%c", l->letter);
		err = itrace_out__value(&out, l->letter, &o);
		if (err)
			return libauxtrace__err(err);
	}
	if (out.len > INT_MAX)
		return libauxtrace__err(-EOVERFLOW);
	return (int)out.len;
}
