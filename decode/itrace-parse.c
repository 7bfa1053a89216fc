// SPDX-License-Identifier: LGPL-2.1
/*
 * --itrace strings into struct itrace_synth_opts: perf's defaults and grammar. The parse
 * works on a copy of the caller's options and hands it back only when the whole string is
 * good, so a refused string changes nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <auxtrace/itrace.h>

#include <internal/itrace-letters.h>
#include <internal/lib.h>
#include <internal/opts.h>

static void itrace_synth_opts__defaults(struct itrace_synth_opts *o, bool no_sample)
{
	o->branches = o->transactions = o->ptwrites = o->pwr_events = true;
	o->other_events = o->intr_events = o->errors = true;
	o->flc = o->llc = o->tlb = o->mem = o->remote_access = true;
	if (no_sample) {
		o->period_type = PERF_ITRACE_PERIOD_INSTRUCTIONS;
		o->period = 1;
		o->calls = true;
	} else {
		o->instructions = o->cycles = true;
		o->period_type = PERF_ITRACE_DEFAULT_PERIOD_TYPE;
		o->period = PERF_ITRACE_DEFAULT_PERIOD;
	}
	o->callchain_sz = PERF_ITRACE_DEFAULT_CALLCHAIN_SZ;
	o->last_branch_sz = PERF_ITRACE_DEFAULT_LAST_BRANCH_SZ;
	o->initial_skip = 0;
}

int itrace_synth_opts__set_default(struct itrace_synth_opts *opts, bool no_sample)
{
	struct itrace_synth_opts o;
	int err = itrace_synth_opts__load(opts, &o);

	if (err)
		return err;
	itrace_synth_opts__defaults(&o, no_sample);
	libauxtrace__opts_store(opts, &o, sizeof(o));
	return 0;
}

struct itrace_parse {
	const char *str;		/* the whole string, for messages */
	const char *p;			/* the next byte */
	struct itrace_synth_opts opts;	/* what the string says so far */
	const struct itrace_synth_opts *orig;	/* what the caller had */
	bool iy, period_set, period_type_set;
	bool quiet;			/* a parse for a message: no messages */
};

static int itrace_parse(struct itrace_parse *ip);

/* An i or y without its own period or unit gets perf's default. */
static void itrace_parse__finish(struct itrace_parse *ip)
{
	if (!ip->iy)
		return;
	if (!ip->period_type_set)
		ip->opts.period_type = PERF_ITRACE_DEFAULT_PERIOD_TYPE;
	if (!ip->period_set)
		ip->opts.period = PERF_ITRACE_DEFAULT_PERIOD;
}

/*
 * When the first len bytes are good on their own, say so: what to keep and where to cut
 * (the canonical form would reorder the letters, which tells a user nothing to do).
 */
static void itrace_parse__explain_prefix(const struct itrace_parse *ip, size_t len)
{
	struct itrace_parse sub = { .orig = ip->orig, .opts = *ip->orig, .quiet = true };
	char *prefix = strndup(ip->str, len);

	sub.str = sub.p = prefix;
	if (prefix && !itrace_parse(&sub))
		pr_err("The part before byte %zu, '%s', is valid on its own: keep it and fix or "
		       "drop what follows\n", len, prefix);
	free(prefix);
}

/* Say where the string breaks and why, and what the good part before it means. */
static int __printf(3, 4) itrace_parse__fail(struct itrace_parse *ip, const char *at,
					     const char *fmt, ...)
{
	va_list ap;

	if (ip->quiet)
		return -EINVAL;
	va_start(ap, fmt);
	libauxtrace__parse_error("Bad Instruction Tracing options", ip->str, at, fmt, ap);
	va_end(ap);
	if (at > ip->str)
		itrace_parse__explain_prefix(ip, (size_t)(at - ip->str));
	return libauxtrace__err(-EINVAL);
}

static bool itrace__digit(char c)
{
	return c >= '0' && c <= '9';
}

static void itrace_parse__skip(struct itrace_parse *ip, const char *set)
{
	ip->p += strspn(ip->p, set);
}

/* The decimal number at ip->p, which moves past it; false when it does not fit in u64. */
static bool itrace_parse__number(struct itrace_parse *ip, uint64_t *val)
{
	bool fits = true;

	*val = 0;
	for (; itrace__digit(*ip->p); ip->p++) {
		unsigned int d = *ip->p - '0';

		if (*val > (UINT64_MAX - d) / 10)
			fits = false;
		*val = *val * 10 + d;
	}
	return fits;
}

/* After i or y: [sep] [NUMBER [sep] [UNIT]], UNIT being i, t, ns, us or ms. */
static int itrace_parse__period(struct itrace_parse *ip, const struct itrace_letter *l)
{
	const char *num, *unit;
	uint64_t val, mult;

	itrace_parse__skip(ip, " ,");
	if (!itrace__digit(*ip->p))
		return 0;
	num = ip->p;
	if (!itrace_parse__number(ip, &val))
		return itrace_parse__fail(ip, num, "the period %.*s of '%c' (%s) does not fit in "
					  "64 bits", (int)(ip->p - num), num, l->letter,
					  l->meaning);
	ip->opts.period = val;
	ip->period_set = true;
	itrace_parse__skip(ip, " ,");
	unit = ip->p;
	switch (*unit) {
	case '\0':	/* a bare number counts nanoseconds, the default unit */
		return 0;
	case 'i':
		ip->opts.period_type = PERF_ITRACE_PERIOD_INSTRUCTIONS;
		break;
	case 't':
		ip->opts.period_type = PERF_ITRACE_PERIOD_TICKS;
		break;
	case 'n':
	case 'u':
	case 'm':
		if (unit[1] != 's')
			return itrace_parse__fail(ip, unit, "the unit '%c' of the period %llu of "
						  "'%c' (%s) must be %cs", *unit,
						  (unsigned long long)val, l->letter, l->meaning,
						  *unit);
		mult = *unit == 'm' ? 1000000 : *unit == 'u' ? 1000 : 1;
		if (val > UINT64_MAX / mult)
			return itrace_parse__fail(ip, num, "the period %llu%cs of '%c' (%s) does "
						  "not fit in 64 bits of nanoseconds",
						  (unsigned long long)val, *unit, l->letter,
						  l->meaning);
		ip->opts.period = val * mult;
		ip->opts.period_type = PERF_ITRACE_PERIOD_NANOSECS;
		ip->p++;
		break;
	default:
		return itrace_parse__fail(ip, unit, "'%c' cannot follow the period %llu of '%c' "
					  "(%s): a period's unit (i instructions, t ticks, ns, "
					  "us, ms) comes right after its number, e.g. %c%lluus, "
					  "and a bare number (nanoseconds) must end the string",
					  *unit, (unsigned long long)val, l->letter, l->meaning,
					  l->letter, (unsigned long long)val);
	}
	ip->p++;
	ip->period_type_set = true;
	return 0;
}

/* After g, G, l or L: [sep] [SIZE], 1..max; without one, the default. */
static int itrace_parse__size(struct itrace_parse *ip, const struct itrace_letter *l,
			      unsigned int *size, unsigned int dflt, unsigned int max)
{
	const char *num;
	uint64_t val;

	*size = dflt;
	itrace_parse__skip(ip, " ,");
	if (!itrace__digit(*ip->p))
		return 0;
	num = ip->p;
	if (!itrace_parse__number(ip, &val) || !val || val > max)
		return itrace_parse__fail(ip, num, "the size %.*s of '%c' (%s) is out of range: "
					  "give 1 to %u", (int)(ip->p - num), num, l->letter,
					  l->meaning, max);
	*size = (unsigned int)val;
	return 0;
}

static int itrace_parse__skip_count(struct itrace_parse *ip)
{
	const char *s = ip->p - 1, *num;

	itrace_parse__skip(ip, " ");
	num = ip->p;
	if (!itrace__digit(*num))
		return itrace_parse__fail(ip, s, "'s' needs the number of events to skip, "
					  "e.g. s1000");
	if (!itrace_parse__number(ip, &ip->opts.initial_skip))
		return itrace_parse__fail(ip, num, "the skip count %.*s does not fit in 64 bits",
					  (int)(ip->p - num), num);
	return 0;
}

/* After e or d: ('+' | '-') FLAG, repeated, spaces allowed; FLAG one of known. */
static int itrace_parse__flags(struct itrace_parse *ip, const struct itrace_letter *l,
			       unsigned int *plus, unsigned int *minus, const char *known,
			       const char *meanings)
{
	for (;;) {
		char sign = *ip->p;

		if (sign == ' ') {
			ip->p++;
			continue;
		}
		if (sign != '+' && sign != '-')
			return 0;
		ip->p++;
		itrace_parse__skip(ip, " ");
		if (*ip->p < 'a' || *ip->p > 'z' || !strchr(known, *ip->p))
			return itrace_parse__fail(ip, ip->p, "'%c' after '%c' (%s) takes a flag: %s",
						  sign, l->letter, l->meaning, meanings);
		*(sign == '+' ? plus : minus) |= 1U << (*ip->p - 'a');
		ip->p++;
	}
}

static int itrace_parse__unknown(struct itrace_parse *ip)
{
	char letters[ITRACE_NR_LETTERS + 1];
	const struct itrace_letter *l;
	size_t n = 0;

	for (l = itrace_letters; l->letter; l++)
		letters[n++] = l->letter;
	letters[n] = '\0';
	return itrace_parse__fail(ip, ip->p, "not an itrace option; the options are %s",
				  letters);
}

static int itrace_parse__letter(struct itrace_parse *ip)
{
	struct itrace_synth_opts *o = &ip->opts;
	const struct itrace_letter *l;
	int err;

	if (*ip->p == ' ' || *ip->p == ',') {
		ip->p++;
		return 0;
	}
	l = itrace_letter__find(*ip->p);
	if (!l)
		return itrace_parse__unknown(ip);
	ip->p++;
	if (l->field)
		*itrace_letter__flag(l, o) = true;
	switch (l->letter) {
	case 'i':
	case 'y':
		ip->iy = true;
		return itrace_parse__period(ip, l);
	case 'c':
	case 'r':
		o->branches = true;
		return 0;
	case 'e':
		return itrace_parse__flags(ip, l, &o->error_plus_flags, &o->error_minus_flags,
					   "ol", "o (overflow) or l (data lost)");
	case 'd':
		err = itrace_parse__flags(ip, l, &o->log_plus_flags, &o->log_minus_flags, "aeo",
					  "a (all perf events), e (only on error) or o (to "
					  "stdout)");
		/* A size the caller chose (perf: itrace.debug-log-buffer-size) stays. */
		if (!err && (o->log_plus_flags & AUXTRACE_LOG_FLG_ON_ERROR) &&
		    !o->log_on_error_size)
			o->log_on_error_size = PERF_ITRACE_DEFAULT_LOG_ON_ERROR_SZ;
		return err;
	case 'g':
	case 'G':
		return itrace_parse__size(ip, l, &o->callchain_sz,
					  PERF_ITRACE_DEFAULT_CALLCHAIN_SZ,
					  PERF_ITRACE_MAX_CALLCHAIN_SZ);
	case 'l':
	case 'L':
		return itrace_parse__size(ip, l, &o->last_branch_sz,
					  PERF_ITRACE_DEFAULT_LAST_BRANCH_SZ,
					  PERF_ITRACE_MAX_LAST_BRANCH_SZ);
	case 's':
		return itrace_parse__skip_count(ip);
	case 'q':
		o->quick++;
		return 0;
	default:
		return 0;
	}
}

/* The letters of ip->str into ip->opts. */
static int itrace_parse(struct itrace_parse *ip)
{
	int err;

	while (*ip->p)
		if ((err = itrace_parse__letter(ip)))
			return err;
	itrace_parse__finish(ip);
	return 0;
}

int itrace_do_parse_synth_opts(struct itrace_synth_opts *opts, const char *str, int unset)
{
	struct itrace_parse ip = { .str = str, .p = str };
	int err = itrace_synth_opts__load(opts, &ip.opts);

	if (err)
		return err;
	ip.opts.set = true;
	if (unset) {
		ip.opts.dont_decode = true;
	} else if (!str) {
		itrace_synth_opts__defaults(&ip.opts, ip.opts.default_no_sample);
	} else {
		struct itrace_synth_opts orig = ip.opts;

		ip.orig = &orig;
		err = itrace_parse(&ip);
		if (err)
			return err;
	}
	libauxtrace__opts_store(opts, &ip.opts, sizeof(ip.opts));
	return 0;
}
