// SPDX-License-Identifier: LGPL-2.1
/* sched_switch's fields through libtraceevent (sched-switch.h). */
#include <errno.h>
#include <string.h>

#include <event-parse.h>

#include "sched-switch.h"

void switch_fields__find(struct switch_fields *sw, struct tep_handle *tep)
{
	struct tep_event *e = tep_find_event_by_name(tep, "sched", "sched_switch");

	if (!e)
		return;
	*sw = (struct switch_fields){
		.prev_comm = tep_find_field(e, "prev_comm"),
		.prev_pid = tep_find_field(e, "prev_pid"),
		.next_comm = tep_find_field(e, "next_comm"),
		.next_pid = tep_find_field(e, "next_pid"),
	};
	if (sw->prev_comm && sw->prev_pid && sw->next_comm && sw->next_pid)
		sw->event = e;
}

/* The format's text starts "name: <event>\n", after its u64 size. */
int switch_fields__perf(struct switch_fields *sw, struct tep_handle **tep, const void *data,
			size_t size)
{
	static const char want[] = "name: sched_switch\n";
	const char *p = data ? memmem(data, size, want, sizeof(want) - 1) : NULL;
	uint64_t len;

	if (!p || p - (const char *)data < 8)
		return 0;
	memcpy(&len, p - 8, sizeof(len));	/* written on this machine's byte order */
	if (len > size - (size_t)(p - (const char *)data))
		return 0;
	*tep = tep_alloc();
	if (!*tep)
		return -ENOMEM;
	if (tep_parse_event(*tep, p, (size_t)len, "sched") == 0)
		switch_fields__find(sw, *tep);
	return 0;
}

long long tep_field__num(const struct tep_format_field *f, const void *data, uint32_t size)
{
	unsigned long long v;

	if (!f || f->offset + f->size > (int)size ||
	    tep_read_number_field((struct tep_format_field *)f, data, &v))
		return -1;
	return (long long)v;
}

const char *tep_field__str(const struct tep_format_field *f, const void *data, uint32_t size,
			   char *buf, size_t bufsize)
{
	size_t n = f && f->offset + f->size <= (int)size ? (size_t)f->size : 0;

	if (n >= bufsize)
		n = bufsize - 1;
	if (n)
		memcpy(buf, (const char *)data + f->offset, n);
	buf[n] = '\0';
	return buf;
}
