// SPDX-License-Identifier: LGPL-2.1
/*
 * The event-string parser (grammar in auxtrace/parse-events.h): a hand-written recursive
 * descent over the string, so that every error can name its byte offset. A whole list is
 * parsed into attrs first and turned into evsels only when all of it is valid.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/parse-events.h>
#include <auxtrace/tracepoints.h>
#include <internal/evsel.h>
#include <internal/lib.h>
#include <internal/opts.h>

struct parser {
	const char *str;		/* the whole input: error offsets are relative to it */
	const char *pos;
	const struct parse_events_opts *opts;
	struct parse_events_error *err;
};

/* One event of a list, parsed but not yet an evsel. */
struct parsed_event {
	struct parse_events_event ev;
	struct perf_cpu_map *cpus;	/* the PMU's cpumask, a reference */
	int leader;			/* index of its group leader (itself when alone) */
	const char *text;		/* the event as written, for its default name */
	size_t text_len;
	bool had_mods;			/* the text ends in modifiers */
};

__printf(3, 4)
static int parser__error(struct parser *p, const char *at, const char *fmt, ...)
{
	struct parse_events_error local, *err = p->err ? p->err : &local;
	va_list ap;

	err->idx = (int)(at - p->str);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	pr_debug("event \"%s\", offset %d: %s\n", p->str, err->idx, err->msg);
	return libauxtrace__err(-EINVAL);
}

/* Names of events, PMUs, tracepoints and terms. */
static size_t name_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-' || s[n] == '.')
		n++;
	return n;
}

static void copy_name(char *dst, size_t size, const char *src, size_t len)
{
	snprintf(dst, size, "%.*s", (int)len, src);
}

/* Append item to the ", "-separated list in buf; when it would not fit, end with ", ...". */
static void list_append(char *buf, size_t size, const char *item)
{
	size_t len = strlen(buf);

	if (len + strlen(item) + 7 >= size) {
		if (!strstr(buf, ", ..."))
			snprintf(buf + len, size - len, ", ...");
		return;
	}
	snprintf(buf + len, size - len, "%s%s", len ? ", " : "", item);
}

/*
 * Named events. cpu-clock and friends are software events; cycles and friends hardware
 * ones (counted by the CPU's PMU through the generic PERF_TYPE_HARDWARE numbering).
 */
static const struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
} named_events[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

static const struct named_event *named_event__find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(named_events); i++)
		if (strlen(named_events[i].name) == len && !strncmp(named_events[i].name, name, len))
			return &named_events[i];
	return NULL;
}

/* Terms that set attr fields directly, whatever the PMU's formats say. */
enum attr_term {
	TERM_CONFIG, TERM_CONFIG1, TERM_CONFIG2, TERM_CONFIG3,
	TERM_PERIOD, TERM_FREQ, TERM_NAME, TERM_AUX_SAMPLE_SIZE, TERM_AUX_OUTPUT,
};

static const struct {
	const char *name;
	enum attr_term term;
	bool pmu_only;		/* a config word belongs to a PMU's own encoding */
} attr_terms[] = {
	{ "config", TERM_CONFIG, true },
	{ "config1", TERM_CONFIG1, true },
	{ "config2", TERM_CONFIG2, true },
	{ "config3", TERM_CONFIG3, true },
	{ "period", TERM_PERIOD, false },
	{ "sample_period", TERM_PERIOD, false },
	{ "freq", TERM_FREQ, false },
	{ "sample_freq", TERM_FREQ, false },
	{ "name", TERM_NAME, false },
	{ "aux-sample-size", TERM_AUX_SAMPLE_SIZE, false },
	{ "aux-output", TERM_AUX_OUTPUT, false },
};

static __u64 *attr__config_word(struct perf_event_attr *attr, int word)
{
	switch (word) {
	case 0: return &attr->config;
	case 1: return &attr->config1;
	case 2: return &attr->config2;
	default: return NULL;	/* config3 needs a newer perf_event_attr than this build has */
	}
}

/* One term as written: name, and the text after '=' with its value if it is a number. */
struct term {
	const char *at;
	const char *name;
	size_t name_len;
	bool has_value;
	bool is_number;
	uint64_t value;
	const char *text;
	size_t text_len;
};

static void attr_term_list(char *buf, size_t size, bool pmu)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_terms); i++)
		if (pmu || !attr_terms[i].pmu_only)
			list_append(buf, size, attr_terms[i].name);
	list_append(buf, size, "call-graph");
	list_append(buf, size, "stack-size");
}

static int term__not_a_number(struct parser *p, const struct term *t)
{
	return parser__error(p, t->text, "term '%.*s' takes a number, not '%.*s'",
			     (int)t->name_len, t->name, (int)t->text_len, t->text);
}

static int term__apply_attr(struct parser *p, const struct term *t, enum attr_term which,
			    struct parse_events_event *ev, bool user)
{
	struct perf_event_attr *attr = &ev->attr;
	__u64 *word;

	if (which != TERM_NAME && t->has_value && !t->is_number)
		return term__not_a_number(p, t);
	switch (which) {
	case TERM_NAME:
		if (!t->has_value)
			return parser__error(p, t->at, "term 'name' needs a value: name=NAME");
		if (t->text_len >= sizeof(ev->name))
			return parser__error(p, t->at, "name is longer than %zu bytes",
					     sizeof(ev->name) - 1);
		copy_name(ev->name, sizeof(ev->name), t->text, t->text_len);
		return 0;
	case TERM_CONFIG:
	case TERM_CONFIG1:
	case TERM_CONFIG2:
	case TERM_CONFIG3:
		word = attr__config_word(attr, which - TERM_CONFIG);
		if (!word)
			return parser__error(p, t->at, "config3 is not supported: this build's perf_event_attr ends before it");
		*word = t->value;
		if (user)
			ev->user_config[which - TERM_CONFIG] = ~0ULL;
		return 0;
	case TERM_PERIOD:
		attr->sample_period = t->value;
		attr->freq = 0;
		return 0;
	case TERM_FREQ:
		attr->sample_freq = t->value;
		attr->freq = 1;
		return 0;
	case TERM_AUX_SAMPLE_SIZE:
		if (t->value > UINT32_MAX)
			return parser__error(p, t->at, "aux-sample-size=%llu does not fit 32 bits",
					     (unsigned long long)t->value);
		attr->aux_sample_size = (uint32_t)t->value;
		return 0;
	case TERM_AUX_OUTPUT:
		if (t->value > 1)
			return parser__error(p, t->at, "aux-output is a flag: 0 or 1, not %llu",
					     (unsigned long long)t->value);
		attr->aux_output = t->value;
		return 0;
	}
	return 0;
}

static int parse_term_list(struct parser *p, const struct perf_pmu *pmu,
			   struct parse_events_event *ev, char end, bool user, int depth);

/* A sysfs alias: its own little term list, parsed apart and reported as part of it. */
static int term__apply_alias(struct parser *p, const struct term *t, const struct perf_pmu *pmu,
			     const char *terms, struct parse_events_event *ev, bool user,
			     int depth)
{
	struct parse_events_error sub_err;
	struct parser sub = { .str = terms, .pos = terms, .opts = p->opts, .err = &sub_err };

	if (t->has_value)
		return parser__error(p, t->at, "'%.*s' is an event alias of PMU %s (%s): it takes no value",
				     (int)t->name_len, t->name, perf_pmu__name(pmu), terms);
	if (depth > 0)
		return parser__error(p, t->at, "alias '%.*s' of PMU %s refers to another alias",
				     (int)t->name_len, t->name, perf_pmu__name(pmu));
	if (parse_term_list(&sub, pmu, ev, '\0', user, depth + 1))
		return parser__error(p, t->at, "in alias '%.*s' (%s): %s", (int)t->name_len,
				     t->name, terms, sub_err.msg);
	return 0;
}

/*
 * call-graph=fp|dwarf|lbr|no and stack-size=BYTES, perf's per-event callchain: kept in ev
 * and set on the attr once the term list is read, so that the two come in either order.
 */
static int term__apply_callchain(struct parser *p, const struct term *t, bool stack_size,
				 struct parse_events_event *ev)
{
	char value[64], why[sizeof(p->err->msg) - 64];
	struct callchain_param param;
	uint32_t given_size = ev->callchain.dump_size;

	if (!t->has_value || t->text_len >= sizeof(value))
		return parser__error(p, t->at, "term '%.*s' needs a value: %s", (int)t->name_len,
				     t->name, stack_size ? "stack-size=BYTES" :
				     "call-graph=fp, dwarf, lbr or no");
	copy_name(value, sizeof(value), t->text, t->text_len);
	if (stack_size) {
		if (callchain_param__set_dump_size(&ev->callchain, value, why, sizeof(why)))
			return parser__error(p, t->text, "%s", why);
		return 0;
	}
	if (callchain_param__parse(&param, value, why, sizeof(why)))
		return parser__error(p, t->text, "%s", why);
	if (given_size && !strchr(value, ','))
		param.dump_size = given_size;	/* stack-size= came first */
	ev->callchain = param;
	ev->has_callchain = true;
	return 0;
}

/* After a term list: what its terms set that depends on more than one of them. */
static void event__finish_terms(struct parse_events_event *ev)
{
	if (ev->has_callchain)
		callchain_param__config(&ev->callchain, &ev->attr);
}

static int term__apply(struct parser *p, const struct term *t, const struct perf_pmu *pmu,
		       struct parse_events_event *ev, bool user, int depth)
{
	struct perf_pmu_format fmt;
	char name[NAME_MAX + 1], valid[sizeof(p->err->msg) - 64] = "";
	const char *alias;
	__u64 *word;

	copy_name(name, sizeof(name), t->name, t->name_len);
	if (!strcmp(name, "call-graph") || !strcmp(name, "stack-size"))
		return term__apply_callchain(p, t, name[0] == 's', ev);
	for (size_t i = 0; i < ARRAY_SIZE(attr_terms); i++) {
		if (strcmp(attr_terms[i].name, name))
			continue;
		if (attr_terms[i].pmu_only && !pmu)
			break;
		return term__apply_attr(p, t, attr_terms[i].term, ev, user);
	}
	if (pmu && !perf_pmu__format(pmu, name, &fmt)) {
		uint64_t tmp;

		if (t->has_value && !t->is_number)
			return term__not_a_number(p, t);
		word = attr__config_word(&ev->attr, fmt.config);
		if (!word)
			return parser__error(p, t->at, "term '%s' of PMU %s lives in config3, which this build's perf_event_attr lacks",
					     name, perf_pmu__name(pmu));
		tmp = *word;
		if (perf_pmu__format_encode(&fmt, t->value, &tmp))
			return parser__error(p, t->at, "value %#llx of term '%s' does not fit its %d bit%s (PMU %s)",
					     (unsigned long long)t->value, name,
					     perf_pmu__format_width(&fmt),
					     perf_pmu__format_width(&fmt) == 1 ? "" : "s",
					     perf_pmu__name(pmu));
		*word = tmp;
		if (user)
			ev->user_config[fmt.config] |= fmt.bits;
		return 0;
	}
	if (pmu && (alias = perf_pmu__alias(pmu, name)))
		return term__apply_alias(p, t, pmu, alias, ev, user, depth);

	if (!pmu) {
		attr_term_list(valid, sizeof(valid), false);
		return parser__error(p, t->at, "unknown term '%s': this event takes %s", name, valid);
	}
	for (int i = 0; perf_pmu__format_name(pmu, i); i++)
		list_append(valid, sizeof(valid), perf_pmu__format_name(pmu, i));
	for (int i = 0; perf_pmu__alias_name(pmu, i); i++)
		list_append(valid, sizeof(valid), perf_pmu__alias_name(pmu, i));
	attr_term_list(valid, sizeof(valid), true);
	return parser__error(p, t->at, "unknown term '%s' for PMU %s: valid terms are %s",
			     name, perf_pmu__name(pmu), valid);
}

static int parse_term(struct parser *p, struct term *t, char end)
{
	char *num_end;

	memset(t, 0, sizeof(*t));
	t->at = t->name = p->pos;
	t->name_len = name_len(p->pos);
	if (!t->name_len)
		return parser__error(p, p->pos, "expected a term name");
	p->pos += t->name_len;
	t->value = 1;		/* a term alone is a flag: 1 */
	if (*p->pos != '=')
		return 0;
	t->has_value = true;
	t->text = ++p->pos;
	while (*p->pos && *p->pos != ',' && *p->pos != end)
		p->pos++;
	t->text_len = p->pos - t->text;
	if (!t->text_len)
		return parser__error(p, t->text, "expected a value after '='");
	/* A number as strtoull base 0 reads it, all of the value, digits first (no sign). */
	if (!isdigit((unsigned char)*t->text))
		return 0;
	errno = 0;
	t->value = strtoull(t->text, &num_end, 0);
	if (errno == ERANGE)
		return parser__error(p, t->text, "value '%.*s' of term '%.*s' does not fit 64 bits",
				     (int)t->text_len, t->text, (int)t->name_len, t->name);
	t->is_number = num_end == p->pos;
	return 0;
}

/* term (',' term)* up to the end character, which is consumed ('\0' is not). */
static int parse_term_list(struct parser *p, const struct perf_pmu *pmu,
			   struct parse_events_event *ev, char end, bool user, int depth)
{
	struct term t;
	int err;

	if (*p->pos == end) {
		p->pos += end != '\0';
		return 0;
	}
	for (;;) {
		err = parse_term(p, &t, end);
		if (!err)
			err = term__apply(p, &t, pmu, ev, user, depth);
		if (err)
			return err;
		if (*p->pos == ',') {
			p->pos++;
			continue;
		}
		if (*p->pos == end) {
			p->pos += end != '\0';
			return 0;
		}
		if (!*p->pos)
			return parser__error(p, p->pos, "missing the closing '%c' of the term list", end);
		return parser__error(p, p->pos, "unexpected '%c' in the term list: separate terms with ','",
				     *p->pos);
	}
}

/*
 * Privilege levels: the first of u/k/h excludes all three, then each letter lets its own
 * level back in; so "u" counts user space only and "uk" user and kernel. Over an attr that
 * already excludes something (a group member's own modifiers) the letters add levels. G/H
 * work the same way for guest and host.
 */
static void modifier__level(unsigned int *bits, unsigned int nbits, unsigned int keep)
{
	if (!(*bits & ((1u << nbits) - 1)))
		*bits |= (1u << nbits) - 1;
	*bits &= ~keep;
}

static int apply_modifiers(struct parser *p, const char *mods, size_t len,
			   struct perf_event_attr *attr)
{
	unsigned int level = attr->exclude_user | attr->exclude_kernel << 1 | attr->exclude_hv << 2;
	unsigned int virt = attr->exclude_guest | attr->exclude_host << 1;
	unsigned int precise = attr->precise_ip;

	for (size_t i = 0; i < len; i++) {
		switch (mods[i]) {
		case 'u': modifier__level(&level, 3, 1); break;
		case 'k': modifier__level(&level, 3, 2); break;
		case 'h': modifier__level(&level, 3, 4); break;
		case 'H': modifier__level(&virt, 2, 2); break;	/* host only: exclude guest */
		case 'G': modifier__level(&virt, 2, 1); break;
		case 'p':
			if (++precise > 3)
				return parser__error(p, mods + i, "more than three 'p' modifiers: precise_ip is at most 3");
			break;
		case 'D': attr->pinned = 1; break;
		case 'I': attr->exclude_idle = 1; break;
		case 'e': attr->exclusive = 1; break;
		default:
			return parser__error(p, mods + i, "bad modifier '%c' in '%.*s': valid modifiers are u, k, h (privilege levels), G, H (guest, host), p (precision), D (pinned), I (exclude idle), e (exclusive)",
					     mods[i], (int)len, mods);
		}
	}
	attr->exclude_user = level & 1;
	attr->exclude_kernel = !!(level & 2);
	attr->exclude_hv = !!(level & 4);
	attr->exclude_guest = virt & 1;
	attr->exclude_host = !!(virt & 2);
	attr->precise_ip = precise;
	return 0;
}

/* Modifier letters (at least one) up to the end of the event. */
static int parse_modifiers(struct parser *p, struct perf_event_attr *attr, bool *had)
{
	const char *mods = p->pos;
	size_t len = 0;

	while (isalpha((unsigned char)mods[len]))
		len++;
	if (!len)
		return parser__error(p, mods, "expected modifiers such as u or k");
	p->pos += len;
	*had = true;
	return apply_modifiers(p, mods, len, attr);
}

static int parse_tracepoint(struct parser *p, const char *sys, size_t sys_len,
			    const char *event, size_t event_len, struct parse_events_event *ev)
{
	const char *root = p->opts->tracefs_root ? p->opts->tracefs_root : libauxtrace__tracing_dir();
	char path[PATH_MAX + 2 * NAME_MAX + 16];
	unsigned long long id;
	int err;

	if (!root)
		return parser__error(p, sys, "tracepoint %.*s:%.*s: %s", (int)sys_len, sys,
				     (int)event_len, event, libauxtrace__no_tracing_dir_why(errno));
	snprintf(path, sizeof(path), "%s/events/%.*s/%.*s/id", root, (int)sys_len, sys,
		 (int)event_len, event);
	err = libauxtrace__read_u64(path, &id);
	if (err == -ENOENT) {
		snprintf(path, sizeof(path), "%s/events/%.*s", root, (int)sys_len, sys);
		if (access(path, F_OK))
			return parser__error(p, sys, "unknown tracepoint system '%.*s' (no %s; see %s/available_events)",
					     (int)sys_len, sys, path, root);
		return parser__error(p, event, "unknown tracepoint '%.*s' in system '%.*s' (see %s/available_events)",
				     (int)event_len, event, (int)sys_len, sys, root);
	}
	if (err)
		return parser__error(p, sys, "cannot read the id of tracepoint %.*s:%.*s from %s: %s%s",
				     (int)sys_len, sys, (int)event_len, event, path, strerror(-err),
				     err == -EACCES ? " (run as root or make tracefs readable)" : "");
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = id;
	/* Every hit is a sample carrying the tracepoint's fields: what a tracepoint is for. */
	ev->attr.sample_period = 1;
	ev->attr.sample_type |= PERF_SAMPLE_RAW;
	return 0;
}

static int unknown_pmu(struct parser *p, const char *at, size_t len)
{
	char names[sizeof(p->err->msg) - 64] = "";
	struct perf_pmus *pmus = perf_pmus__new(p->opts->sysfs_root);
	struct perf_pmu *pmu;

	if (pmus) {
		perf_pmus__for_each_pmu(pmus, pmu)
			list_append(names, sizeof(names), perf_pmu__name(pmu));
		perf_pmus__delete(pmus);
	}
	return parser__error(p, at, "unknown PMU '%.*s': PMUs here are %s", (int)len, at,
			     names[0] ? names : "(none found in sysfs)");
}

/* The PMU's default terms (from the caller, e.g. an AUX backend), not counted as the user's. */
static int apply_default_terms(struct parser *p, const struct perf_pmu *pmu,
			       struct parse_events_event *ev, const char *at)
{
	const char *terms = p->opts->default_terms ? p->opts->default_terms(pmu, p->opts->ctx) : NULL;
	struct parse_events_error sub_err;
	struct parser sub = { .str = terms, .pos = terms, .opts = p->opts, .err = &sub_err };

	if (!terms || !*terms)
		return 0;
	if (parse_term_list(&sub, pmu, ev, '\0', false, 0))
		return parser__error(p, at, "default terms of PMU %s (%s): %s", perf_pmu__name(pmu),
				     terms, sub_err.msg);
	return 0;
}

/*
 * After the closing '/' of a term list: nothing, modifiers, or ':' and modifiers
 * ("intel_pt//u", "cpu-clock/period=10/:k").
 */
static int parse_trailing_modifiers(struct parser *p, struct parsed_event *pe)
{
	if (*p->pos == ':')
		p->pos++;
	else if (!isalpha((unsigned char)*p->pos))
		return 0;
	return parse_modifiers(p, &pe->ev.attr, &pe->had_mods);
}

/* After name and '/': the terms of a named event or of the PMU called name. */
static int parse_slash_event(struct parser *p, const char *name, size_t len,
			     const struct named_event *named, struct parsed_event *pe)
{
	struct parse_events_event *ev = &pe->ev;
	char pmu_name[NAME_MAX + 1];
	struct perf_pmu *pmu;
	int err;

	if (named) {
		ev->attr.type = named->type;
		ev->attr.config = named->config;
		err = parse_term_list(p, NULL, ev, '/', true, 0);
		if (!err)
			event__finish_terms(ev);
		return err ? err : parse_trailing_modifiers(p, pe);
	}
	copy_name(pmu_name, sizeof(pmu_name), name, len);
	pmu = perf_pmu__new(p->opts->sysfs_root, pmu_name);
	if (!pmu && errno == ENOENT)
		return unknown_pmu(p, name, len);
	if (!pmu)
		return parser__error(p, name, "cannot load PMU '%s' from sysfs: %s", pmu_name,
				     strerror(errno));
	ev->attr.type = perf_pmu__type(pmu);
	copy_name(ev->pmu, sizeof(ev->pmu), pmu_name, len);
	err = apply_default_terms(p, pmu, ev, name);
	if (!err)
		err = parse_term_list(p, pmu, ev, '/', true, 0);
	if (!err)
		event__finish_terms(ev);
	if (!err)
		pe->cpus = perf_cpu_map__get(perf_pmu__cpus(pmu));
	perf_pmu__delete(pmu);
	return err ? err : parse_trailing_modifiers(p, pe);
}

/* One event: named, pmu/terms/, or sys:event; with modifiers. */
static int parse_event(struct parser *p, struct parsed_event *pe)
{
	const char *name = p->pos;
	size_t len = name_len(name);
	const struct named_event *named = named_event__find(name, len);
	int err = 0;

	memset(pe, 0, sizeof(*pe));
	pe->ev.attr.size = sizeof(pe->ev.attr);
	pe->text = name;
	if (!len && *name)
		return parser__error(p, name, "unexpected '%c': expected an event name", *name);
	if (!len)
		return parser__error(p, name, "expected an event name");
	p->pos += len;
	if (*p->pos == '/') {
		p->pos++;
		err = parse_slash_event(p, name, len, named, pe);
	} else if (*p->pos == ':' && named) {
		p->pos++;
		pe->ev.attr.type = named->type;
		pe->ev.attr.config = named->config;
		err = parse_modifiers(p, &pe->ev.attr, &pe->had_mods);
	} else if (*p->pos == ':') {
		const char *event = ++p->pos;
		size_t event_len = name_len(event);

		if (!event_len)
			return parser__error(p, event, "expected a tracepoint name after '%.*s:'",
					     (int)len, name);
		p->pos += event_len;
		err = parse_tracepoint(p, name, len, event, event_len, &pe->ev);
		if (!err && *p->pos == ':') {
			p->pos++;
			err = parse_modifiers(p, &pe->ev.attr, &pe->had_mods);
		}
	} else if (named) {
		pe->ev.attr.type = named->type;
		pe->ev.attr.config = named->config;
	} else {
		return parser__error(p, name, "unknown event '%.*s': write a named event such as cpu-clock or cycles, a PMU event pmu/term=value/, or a tracepoint sys:event",
				     (int)len, name);
	}
	pe->text_len = p->pos - name;
	return err;
}

/*
 * The default name: the event as written, plus its group's modifiers ("cpu-clock:u" for a
 * member of "{cpu-clock,task-clock}:u"), so that the name parses back to the same attr.
 */
static int event__set_name(struct parser *p, struct parsed_event *pe, const char *group_mods,
			   size_t mods_len)
{
	struct parse_events_event *ev = &pe->ev;
	const char *colon = mods_len && !pe->had_mods ? ":" : "";

	if (ev->name[0])
		return 0;	/* name= */
	if (pe->text_len + strlen(colon) + mods_len >= sizeof(ev->name))
		return parser__error(p, pe->text, "event text is longer than %zu bytes: shorten it or give it a name= term",
				     sizeof(ev->name) - 1);
	snprintf(ev->name, sizeof(ev->name), "%.*s%s%.*s", (int)pe->text_len, pe->text, colon,
		 (int)mods_len, group_mods);
	return 0;
}

/* A growable array of parsed events. */
struct parsed_list {
	struct parsed_event *ev;
	int nr, cap;
};

static struct parsed_event *parsed_list__next(struct parsed_list *l)
{
	if (l->nr == l->cap) {
		int cap = l->cap ? l->cap * 2 : 8;
		struct parsed_event *ev = realloc(l->ev, cap * sizeof(*ev));

		if (!ev)
			return NULL;
		l->ev = ev;
		l->cap = cap;
	}
	return &l->ev[l->nr];
}

static void parsed_list__free(struct parsed_list *l)
{
	for (int i = 0; i < l->nr; i++)
		perf_cpu_map__put(l->ev[i].cpus);
	free(l->ev);
}

static bool at_item_end(const char *s)
{
	return !*s || *s == ',' || *s == '}';
}

static int unexpected_after(struct parser *p, const struct parsed_event *pe)
{
	return parser__error(p, p->pos, "unexpected '%c' after event '%.*s': separate events with ','",
			     *p->pos, (int)(p->pos - pe->text), pe->text);
}

/* A tracepoint pattern's part: names with the glob characters * ? [ ]. */
static size_t glob_len(const char *s)
{
	size_t n = 0;

	while (name_len(s + n) || (s[n] && strchr("*?[]", s[n])))
		n += name_len(s + n) ? name_len(s + n) : 1;
	return n;
}

/* Whether the event at s is "sys:event" with a glob character in either part. */
static bool tracepoint_glob__at(const char *s, size_t *sys_len, size_t *event_len)
{
	*sys_len = glob_len(s);
	if (s[*sys_len] != ':')
		return false;
	*event_len = glob_len(s + *sys_len + 1);
	return strpbrk(s, "*?[") && strpbrk(s, "*?[") < s + *sys_len + 1 + *event_len;
}

/* What tracepoints__for_each hands each match: where to put it. */
struct glob_expansion {
	struct parser *p;
	struct parsed_list *l;
	const char *root, *text, *mods;
	size_t text_len, mods_len;
	int leader;		/* -1: each its own */
	int nr;			/* events made */
};

static int glob_expansion__add(const char *sys, const char *event, void *ctx)
{
	struct glob_expansion *x = ctx;
	struct parsed_event *pe = parsed_list__next(x->l);
	char id[PATH_MAX];
	int err;

	if (!pe)
		return -ENOMEM;
	/* ftrace:context_switch and its kind have no id: no perf event, not asked for */
	snprintf(id, sizeof(id), "%s/events/%s/%s/id", x->root, sys, event);
	if (access(id, F_OK))
		return 0;
	memset(pe, 0, sizeof(*pe));
	pe->ev.attr.size = sizeof(pe->ev.attr);
	pe->text = x->text;
	pe->text_len = x->text_len;
	err = parse_tracepoint(x->p, sys, strlen(sys), event, strlen(event), &pe->ev);
	if (!err && x->mods_len)
		err = apply_modifiers(x->p, x->mods, x->mods_len, &pe->ev.attr);
	if (err && x->p->err)	/* at the pattern, not at the name the walk handed us */
		x->p->err->idx = (int)(x->text - x->p->str);
	if (err)
		return err;
	pe->had_mods = x->mods_len;
	/* its own name, so that a report tells the events of one pattern apart */
	snprintf(pe->ev.name, sizeof(pe->ev.name), "%s:%s%s%.*s", sys, event,
		 x->mods_len ? ":" : "", (int)x->mods_len, x->mods);
	pe->leader = x->leader < 0 ? x->l->nr : x->leader;
	x->l->nr++;
	x->nr++;
	return 0;
}

/*
 * "sched:*", "*:*switch*" (with modifiers after a ':'): one event per tracepoint that
 * matches, in sorted order; none is an error that names the closest.
 */
static int parse_tracepoint_glob(struct parser *p, struct parsed_list *l, int leader,
				 size_t sys_len, size_t event_len)
{
	const char *root = p->opts->tracefs_root ? p->opts->tracefs_root : libauxtrace__tracing_dir();
	struct glob_expansion x = { .p = p, .l = l, .root = root, .text = p->pos,
				    .leader = leader == l->nr ? -1 : leader };
	char sys[NAME_MAX + 1], event[NAME_MAX + 1], closest[256];
	int ret;

	if (!root)
		return parser__error(p, p->pos, "tracepoints %.*s: %s", (int)(sys_len + 1 + event_len),
				     p->pos, libauxtrace__no_tracing_dir_why(errno));
	copy_name(sys, sizeof(sys), p->pos, sys_len);
	copy_name(event, sizeof(event), p->pos + sys_len + 1, event_len);
	p->pos += sys_len + 1 + event_len;
	if (*p->pos == ':') {
		x.mods = ++p->pos;
		while (isalpha((unsigned char)p->pos[x.mods_len]))
			x.mods_len++;
		if (!x.mods_len)
			return parser__error(p, p->pos, "expected modifiers such as u or k");
		p->pos += x.mods_len;
	}
	x.text_len = p->pos - x.text;
	ret = tracepoints__for_each(root, sys, event, glob_expansion__add, &x);
	if (ret > 0 && x.nr)
		return 0;
	if (ret < 0)
		return ret == -EINVAL || ret == -ENOMEM ? ret :
		       parser__error(p, x.text, "tracepoints %s:%s: %s/events: %s", sys, event,
				     root, strerror(-ret));
	if (tracepoints__closest(root, sys, event, closest, sizeof(closest)) <= 0)
		closest[0] = '\0';
	return parser__error(p, x.text, "no tracepoint matches '%s:%s'%s%s (see %s/available_events)",
			     sys, event, closest[0] ? "; closest: " : "", closest, root);
}

/* Parse one event (or every tracepoint of a pattern) and append it to l, led by l->ev[leader]. */
static int parse_member(struct parser *p, struct parsed_list *l, int leader)
{
	struct parsed_event *pe = parsed_list__next(l);
	size_t sys_len, event_len;
	int err;

	if (!pe)
		return libauxtrace__err(-ENOMEM);
	if (tracepoint_glob__at(p->pos, &sys_len, &event_len)) {
		err = parse_tracepoint_glob(p, l, leader, sys_len, event_len);
		if (!err && !at_item_end(p->pos))
			err = parser__error(p, p->pos, "unexpected '%c' after a tracepoint pattern: separate events with ','",
					    *p->pos);
		return err;
	}
	err = parse_event(p, pe);
	if (!err && !at_item_end(p->pos))
		err = unexpected_after(p, pe);
	if (err) {
		perf_cpu_map__put(pe->cpus);
		return err;
	}
	pe->leader = leader;
	l->nr++;
	return 0;
}

/* '{' member (',' member)* '}' [':'] [modifiers]; the modifiers apply to every member. */
static int parse_group(struct parser *p, struct parsed_list *l)
{
	const char *open = p->pos++, *mods;
	int first = l->nr, err;
	size_t mods_len = 0;

	for (;;) {
		err = parse_member(p, l, first);
		if (err)
			return err;
		if (*p->pos != ',')
			break;
		p->pos++;
	}
	if (*p->pos != '}')
		return parser__error(p, open, "group opened here is not closed with '}'");
	if (*++p->pos == ':' && !isalpha((unsigned char)p->pos[1]))
		return parser__error(p, p->pos + 1, "expected modifiers such as u or k");
	p->pos += *p->pos == ':';
	mods = p->pos;
	while (isalpha((unsigned char)mods[mods_len]))
		mods_len++;
	p->pos += mods_len;
	if (!at_item_end(p->pos) || *p->pos == '}')
		return parser__error(p, p->pos, "unexpected '%c' after a group: separate events with ','",
				     *p->pos);
	for (int i = first; !err && i < l->nr; i++) {
		err = apply_modifiers(p, mods, mods_len, &l->ev[i].ev.attr);
		if (!err)
			err = event__set_name(p, &l->ev[i], mods, mods_len);
	}
	return err;
}

/* An event or a {group}; what it makes is appended to l. */
static int parse_item(struct parser *p, struct parsed_list *l)
{
	int err;

	if (*p->pos == '{')
		return parse_group(p, l);
	err = parse_member(p, l, l->nr);
	if (!err && *p->pos == '}')
		err = parser__error(p, p->pos, "'}' without an opening '{'");
	return err ? err : event__set_name(p, &l->ev[l->nr - 1], "", 0);
}

static int parse_list(struct parser *p, struct parsed_list *l)
{
	if (!*p->pos)
		return parser__error(p, p->pos, "empty event list");
	for (;;) {
		int err = parse_item(p, l);

		if (err)
			return err;
		if (!*p->pos)
			return 0;
		p->pos++;	/* ',' (parse_item stops at nothing else) */
		if (!*p->pos)
			return parser__error(p, p->pos, "expected an event after ','");
	}
}

/*
 * The parser works on copy, the caller's opts by the rule of AUXTRACE_OPTS. 0, or -EINVAL
 * with the reason in err (idx -1) when opts are refused.
 */
static int parser__init(struct parser *p, const char *str, const struct parse_events_opts *opts,
			struct parse_events_opts *copy, struct parse_events_error *err)
{
	p->str = p->pos = str;
	p->opts = copy;
	p->err = err;
	if (err) {
		err->idx = -1;
		err->msg[0] = '\0';
	}
	return libauxtrace__opts_copy("parse_events_opts", copy, sizeof(*copy), opts,
				      err ? err->msg : NULL, err ? sizeof(err->msg) : 0);
}

int parse_events__attr(const char *str, const struct parse_events_opts *opts,
		       struct parse_events_event *event, struct parse_events_error *err)
{
	struct parse_events_opts copy;
	struct parsed_event pe;
	struct parser p;
	int ret;

	if (!str || !event)
		return libauxtrace__err(-EINVAL);
	ret = parser__init(&p, str, opts, &copy, err);
	if (ret)
		return ret;
	if (*str == '{')
		return parser__error(&p, str, "a group is a list: parse it with parse_events()");
	ret = parse_event(&p, &pe);
	if (!ret && *p.pos == ',')
		ret = parser__error(&p, p.pos, "one event expected: parse lists with parse_events()");
	else if (!ret && *p.pos)
		ret = unexpected_after(&p, &pe);
	if (!ret)
		ret = event__set_name(&p, &pe, "", 0);
	perf_cpu_map__put(pe.cpus);
	if (!ret)
		*event = pe.ev;
	return ret;
}

/* Evsels for every parsed event, or none: 0 or -errno with evsels[] all deleted. */
static int evsels__make(const struct parser *p, const struct parsed_list *l,
			struct evsel **evsels)
{
	int ret = 0, i;

	for (i = 0; !ret && i < l->nr; i++) {
		const struct parsed_event *pe = &l->ev[i];

		evsels[i] = evsel__new(&pe->ev.attr);
		if (!evsels[i]) {
			ret = -errno;
			break;
		}
		memcpy(evsels[i]->user_config, pe->ev.user_config, sizeof(pe->ev.user_config));
		evsels[i]->parsed = true;
		ret = evsel__set_name(evsels[i], pe->ev.name);
		if (!ret && pe->cpus)
			evsel__set_pmu_cpus(evsels[i], pe->cpus);
		if (!ret && pe->leader != i)
			evsel__set_leader(evsels[i], evsels[pe->leader]);
		if (!ret && p->opts->new_evsel)
			ret = p->opts->new_evsel(evsels[i], &pe->ev, p->opts->ctx);
	}
	if (ret) {
		/* Members come after their leader: delete backwards. */
		while (--i >= 0)
			evsel__delete(evsels[i]);
	}
	return ret;
}

int parse_events(struct evlist *evlist, const char *str, const struct parse_events_opts *opts,
		 struct parse_events_error *err)
{
	struct parse_events_opts copy;
	struct parsed_list l = { 0 };
	struct evsel **evsels = NULL;
	struct parser p;
	int ret;

	if (!evlist || !str)
		return libauxtrace__err(-EINVAL);
	ret = parser__init(&p, str, opts, &copy, err);
	if (!ret)
		ret = parse_list(&p, &l);
	if (!ret) {
		evsels = calloc(l.nr, sizeof(*evsels));
		ret = evsels ? evsels__make(&p, &l, evsels) : -ENOMEM;
	}
	if (ret)
		goto out;
	for (int i = 0; i < l.nr && !ret; i++)
		ret = evlist__add(evlist, evsels[i]);
	if (ret) {
		/* All or nothing: take back what evlist__add did take, dropped ones included. */
		for (int i = l.nr - 1; i >= 0; i--) {
			evlist__remove(evlist, evsels[i]);
			evsel__delete(evsels[i]);
		}
	}
out:
	free(evsels);
	parsed_list__free(&l);
	return libauxtrace__err(ret);
}
