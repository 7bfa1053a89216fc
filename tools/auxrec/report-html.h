/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec report --html: a recording as one self-contained page (no network, no file beside it). */
#ifndef AUXREC_REPORT_HTML_H
#define AUXREC_REPORT_HTML_H

#include <stdio.h>

struct report_model;

/*
 * Past this many lanes the timeline is a heat map, one thin row per lane: more lanes of a
 * readable height would not fit a screen. The page's script reads it from the page's data.
 */
#define REPORT_HTML_HEAT_LANES	24

/*
 * Write the page for m to f: the header, the timeline (drawn by the inline script from the
 * bins), the totals tables. 0, or -errno when writing failed (f's error, ENOMEM).
 */
int report_html__write(FILE *f, const struct report_model *m);

#endif
