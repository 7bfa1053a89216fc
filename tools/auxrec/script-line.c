// SPDX-License-Identifier: LGPL-2.1
/* auxrec script's output lines (script-line.h). */
#include <errno.h>
#include <string.h>

#include "script-line.h"

/* A line longer than the buffer is cut: no column is that wide. */
static size_t script_line__room(const struct script_line *l)
{
	return sizeof(l->buf) - 1 - l->len;
}

static void script_line__pad(struct script_line *l, size_t n)
{
	n = n < script_line__room(l) ? n : script_line__room(l);
	memset(l->buf + l->len, ' ', n);
	l->len += n;
}

void script_line__bytes(struct script_line *l, const char *s, size_t n)
{
	n = n < script_line__room(l) ? n : script_line__room(l);
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

void script_line__str(struct script_line *l, const char *s, int width)
{
	size_t n = strlen(s);

	if (width > 0 && n < (size_t)width)
		script_line__pad(l, (size_t)width - n);
	script_line__bytes(l, s, n);
}

void script_line__char(struct script_line *l, char c)
{
	script_line__bytes(l, &c, 1);
}

void script_line__u64(struct script_line *l, uint64_t v, int width, bool hex, bool zero_pad)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	size_t n = 0;

	/* constant divisors: the compiler makes shifts and multiplications of them */
	if (hex) {
		do {
			tmp[sizeof(tmp) - ++n] = digits[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			tmp[sizeof(tmp) - ++n] = digits[v % 10];
			v /= 10;
		} while (v);
	}
	while (zero_pad && (int)n < width)
		tmp[sizeof(tmp) - ++n] = '0';
	if (width > 0 && n < (size_t)width)
		script_line__pad(l, (size_t)width - n);
	script_line__bytes(l, tmp + sizeof(tmp) - n, n);
}

void script_line__int(struct script_line *l, int v, int width)
{
	uint64_t mag = v < 0 ? (uint64_t)-(int64_t)v : (uint64_t)v;
	int digits = 1;

	if (v >= 0) {
		script_line__u64(l, mag, width, false, false);
		return;
	}
	for (uint64_t m = mag; m >= 10; m /= 10)
		digits++;
	if (digits + 1 < width)
		script_line__pad(l, (size_t)(width - digits - 1));
	script_line__char(l, '-');
	script_line__u64(l, mag, 0, false, false);
}

int script_line__write(struct script_line *l, FILE *f)
{
	l->buf[l->len++] = '\n';
	if (fwrite_unlocked(l->buf, 1, l->len, f) != l->len) {
		l->len = 0;
		return -(errno ? errno : EIO);
	}
	l->len = 0;
	return 0;
}
