// SPDX-License-Identifier: LGPL-2.1
/* JSON pieces for auxrec convert (convert-json.h). */
#include <inttypes.h>

#include "convert-json.h"

void json__str(FILE *f, const char *s, size_t n)
{
	putc('"', f);
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

void json__us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}
