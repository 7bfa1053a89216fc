/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * An event's field text without libtraceevent's printer, for the print formats that are only
 * text and numbers of fixed fields (the syscalls' "fd: 0x%08lx, buf: 0x%08lx" and
 * "0x%lx", an empty one): compiled once per event, then each record is a few loads and
 * digits. The text equals what tep_print_event() writes for them; any other format (plugins,
 * strings, flags, symbols, arithmetic, other conversions) is left to libtraceevent.
 */
#ifndef AUXREC_SCRIPT_FTRACE_FMT_H
#define AUXREC_SCRIPT_FTRACE_FMT_H

#include <stdbool.h>
#include <stdint.h>

struct script_line;
struct tep_event;
struct ftrace_fmt;

/*
 * ftrace_fmt__compile() returns event's compiled format, or NULL when libtraceevent must
 * print it (or memory ran out).
 */
struct ftrace_fmt *ftrace_fmt__compile(struct tep_event *event);
void ftrace_fmt__delete(struct ftrace_fmt *fmt);
/*
 * ftrace_fmt__print() appends the text of the payload data (size bytes) to l; false, with
 * nothing appended, when the payload is too short for the fields.
 */
bool ftrace_fmt__print(struct ftrace_fmt *fmt, const void *data, uint32_t size,
		       struct script_line *l);

#endif
