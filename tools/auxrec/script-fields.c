// SPDX-License-Identifier: LGPL-2.1
/* perf script's -F, as auxrec script takes it (script-fields.h). */
#include <errno.h>
#include <string.h>

#include "script-fields.h"

#define SF_SAMPLE_DEFAULT (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM | \
			   SF_SYMOFF | SF_DSO | SF_PERIOD)

static const struct {
	const char *name;
	unsigned int field;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "cpu", SF_CPU },
	{ "time", SF_TIME }, { "period", SF_PERIOD }, { "event", SF_EVENT },
	{ "trace", SF_TRACE }, { "ip", SF_IP }, { "sym", SF_SYM }, { "symoff", SF_SYMOFF },
	{ "dso", SF_DSO }, { "addr", SF_ADDR }, { "flags", SF_FLAGS },
	{ "callindent", SF_CALLINDENT },
};

static const char *const type_names[ST_NR] = { "hw", "sw", "trace" };

void script_fields__init(struct script_fields *sf)
{
	sf->fields[ST_HW] = SF_SAMPLE_DEFAULT;
	sf->fields[ST_SW] = SF_SAMPLE_DEFAULT;
	sf->fields[ST_TRACE] = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE;
	for (int t = 0; t < ST_NR; t++) {
		sf->user_set[t] = false;
		sf->named[t] = 0;
	}
}

static unsigned int field__lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (strlen(field_names[i].name) == len && !strncmp(field_names[i].name, name, len))
			return field_names[i].field;
	return 0;
}

int script_fields__parse(struct script_fields *sf, const char *str, const char **bad)
{
	const char *colon = strchr(str, ':'), *p = str;
	int first = 0, last = ST_NR - 1;
	bool set = *str != '+' && *str != '-';

	if (colon) {
		for (first = 0; first < ST_NR; first++)
			if (strlen(type_names[first]) == (size_t)(colon - str) &&
			    !strncmp(type_names[first], str, (size_t)(colon - str)))
				break;
		if (first == ST_NR) {
			*bad = str;
			return -EINVAL;
		}
		last = first;
		p = colon + 1;
		set = *p != '+' && *p != '-';
	}
	/* any -F, +field and -field too, makes perf show a branch's target only for addr */
	for (int t = first; t <= last; t++) {
		if (set)
			sf->fields[t] = 0;
		sf->user_set[t] = true;
	}
	while (*p) {
		size_t len;
		char change = *p == '+' || *p == '-' ? *p++ : 0;
		unsigned int field;

		len = strcspn(p, ",");
		field = field__lookup(p, len);
		if (!field || (change && set) || (!change && !set)) {
			*bad = p;
			return -EINVAL;	/* unknown, or a list mixing set and change */
		}
		for (int t = first; t <= last; t++) {
			if (change == '-') {
				sf->fields[t] &= ~field;
				sf->named[t] &= ~field;
			} else {
				sf->fields[t] |= field;
				sf->named[t] |= field;
			}
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

static enum script_type script_type__of(const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		return ST_SW;
	case PERF_TYPE_TRACEPOINT:
		return ST_TRACE;
	default:
		return ST_HW;
	}
}

/* The fields an event of attr's sample_type cannot give. */
static unsigned int script_fields__unavailable(const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;
	unsigned int f = 0;

	if (!(st & PERF_SAMPLE_TID))
		f |= SF_TID | SF_PID;
	if (!(st & PERF_SAMPLE_CPU))
		f |= SF_CPU;
	if (!(st & PERF_SAMPLE_TIME))
		f |= SF_TIME;
	if (!(st & PERF_SAMPLE_IP))
		f |= SF_IP;
	if (!(st & PERF_SAMPLE_ADDR))
		f |= SF_ADDR;
	return f;
}

unsigned int script_fields__of(const struct script_fields *sf, const struct perf_event_attr *attr)
{
	unsigned int f = sf->fields[script_type__of(attr)] & ~script_fields__unavailable(attr);

	if (attr->type != PERF_TYPE_TRACEPOINT)
		f &= ~SF_TRACE;	/* perf warns "not valid for ... events" and leaves it out */
	return f;
}

const char *script_fields__missing(const struct script_fields *sf,
				   const struct perf_event_attr *attr)
{
	enum script_type t = script_type__of(attr);
	/* addr is let through: perf allows it in recordings with AUX data, their branches */
	unsigned int missing = sf->named[t] & script_fields__unavailable(attr) & ~SF_ADDR;

	if (!missing)
		return NULL;
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (missing & field_names[i].field)
			return field_names[i].name;
	return NULL;
}

bool script_fields__user_set(const struct script_fields *sf, const struct perf_event_attr *attr)
{
	return sf->user_set[script_type__of(attr)];
}
