/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One line of auxrec script's output, built in place: printf's formats for perf script's
 * columns, without printf's cost per field (the output is what limits a decode's rate).
 */
#ifndef AUXREC_SCRIPT_LINE_H
#define AUXREC_SCRIPT_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct script_line {
	char buf[8192];
	size_t len;
};

/* "%s", "%*s" (width > 0: right-aligned) */
void script_line__str(struct script_line *l, const char *s, int width);
/* n bytes of s */
void script_line__bytes(struct script_line *l, const char *s, size_t n);
void script_line__char(struct script_line *l, char c);
/* "%*llu", "%*llx": right-aligned in width (0: as long as it is); zero_pad: "%0*llu" */
void script_line__u64(struct script_line *l, uint64_t v, int width, bool hex, bool zero_pad);
/* "%*d" */
void script_line__int(struct script_line *l, int v, int width);
/* Write the line and a newline to f, and start a new one. 0, or -errno. */
int script_line__write(struct script_line *l, FILE *f);

#endif
