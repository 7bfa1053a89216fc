/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the page's sections share: the page's inputs, and text written into HTML or its JSON
 * blocks. Each section of the page (report-html.c lists them) is a file of its own.
 */
#ifndef AUXREC_REPORT_HTML_UTIL_H
#define AUXREC_REPORT_HTML_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report-model.h"

struct report_sched;

/* What a page is made from: the model (always), the task lanes (NULL: none). */
struct report_page {
	const struct report_model *m;
	const struct report_sched *sched;
};

/* s escaped for HTML text and attributes. */
void html__puts(FILE *f, const char *s);
/* s escaped for a JSON string inside a <script> block ("</" cannot end the block). */
void html__json_puts(FILE *f, const char *s);
/* t ns in the unit that suits scale ns, three decimals: "2.345 s", "12.500 ms" (buf: 40). */
const char *html__fmt_time(char *buf, int64_t t, uint64_t scale);
/* v in base 36 into buf (16 bytes), "" for 0; its length. */
size_t html__b36(char *buf, uint64_t v);

/* The task lanes section (report-html-tasks.c): its HTML, then its data block. 0 or -errno. */
int report_html_tasks__body(FILE *f, const struct report_page *p);
int report_html_tasks__data(FILE *f, const struct report_page *p);

#endif
