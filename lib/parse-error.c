// SPDX-License-Identifier: LGPL-2.1
/* The one shape of a refused option string: what, where, and why. */
#include <stdio.h>

#include <internal/lib.h>

void libauxtrace__parse_error(const char *what, const char *str, const char *at,
			      const char *fmt, va_list ap)
{
	unsigned char c = (unsigned char)*at;
	char why[512], where[16];

	vsnprintf(why, sizeof(why), fmt, ap);
	if (!c)
		snprintf(where, sizeof(where), "the end");
	else if (c < ' ' || c >= 0x7f)
		snprintf(where, sizeof(where), "byte 0x%02x", c);
	else
		snprintf(where, sizeof(where), "'%c'", c);
	pr_err("%s '%s': at byte %zu (%s): %s\n", what, str, (size_t)(at - str), where, why);
}
