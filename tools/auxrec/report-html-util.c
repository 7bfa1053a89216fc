// SPDX-License-Identifier: LGPL-2.1
/* Text into the page's HTML and JSON (report-html-util.h). */
#include <inttypes.h>
#include <string.h>

#include "report-html-util.h"

void html__puts(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

void html__json_puts(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

const char *html__fmt_time(char *buf, int64_t t, uint64_t scale)
{
	static const struct { uint64_t div; const char *name; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "µs" }, { 1, "ns" },
	};
	size_t u = 0;

	while (u < 3 && scale < units[u].div)
		u++;
	snprintf(buf, 40, "%.*f %s", u == 3 ? 0 : 3, (double)t / (double)units[u].div,
		 units[u].name);
	return buf;
}

size_t html__b36(char *buf, uint64_t v)
{
	char digits[16], *p = digits + sizeof(digits);
	size_t n;

	for (; v; v /= 36)
		*--p = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
	n = (size_t)(digits + sizeof(digits) - p);
	memcpy(buf, p, n);
	return n;
}
