// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec's messages, in a file of their own: every command prints through them, and main
 * (auxrec.c) calls every command, so they cannot live beside main without a circle.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int auxrec_verbose;

void auxrec_error(const char *fmt, ...)
{
	va_list ap;

	fputs("auxrec: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void auxrec_warning(const char *fmt, ...)
{
	va_list ap;

	fputs("auxrec: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *auxrec_strerror(int err)
{
	static char buf[128];

	if (err < 0)
		err = -err;
	if (err != EMFILE && err != ENFILE)
		return strerror(err);
	snprintf(buf, sizeof(buf), "%s (out of file descriptors: raise ulimit -n)",
		 strerror(err));
	return buf;
}

void auxrec_file_error(const char *path, const char *what, int err)
{
	err = err < 0 ? -err : err;
	auxrec_error("%s: %s: %s%s", path, what, strerror(err),
		     err == EINVAL ? " (the message above says where)" : "");
}
