/* SPDX-License-Identifier: LGPL-2.1 */
/* The trace.dat reader's checks of the format texts a file carries (trace-dat-format.c). */
#ifndef AUXTRACE_TRACEFS_TRACE_DAT_FORMAT_H
#define AUXTRACE_TRACEFS_TRACE_DAT_FORMAT_H

#include <stddef.h>

/*
 * Whether an event format's text has the kernel's layout, so that libtraceevent can be
 * given it: NULL, or what is wrong with it.
 */
const char *td_format__check(const char *text, size_t len);
/* The same for the printk formats section. */
const char *td_printk__check(const char *text, size_t len);

#endif
