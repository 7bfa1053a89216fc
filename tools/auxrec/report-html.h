/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec report --html: a recording as one self-contained page (no network, no file beside it). */
#ifndef AUXREC_REPORT_HTML_H
#define AUXREC_REPORT_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "report-model.h"

/*
 * Past this many lanes the timeline is a heat map, one thin row per lane: more lanes of a
 * readable height would not fit a screen. The page's script reads it from the page's data.
 */
#define REPORT_HTML_HEAT_LANES	24

/*
 * The widths the page carries its bins at, in ns (0 without timed data): the timeline's at full
 * view (view_ns, about a thousand bins over it), and each source's (src_ns: view_ns, or down to
 * the model's bin width where the page has room, for zooming in). The page's size decides.
 */
struct report_html_plan {
	uint64_t view_ns;
	uint64_t src_ns[REPORT_SRC__NR];
};

void report_html__plan(const struct report_model *m, struct report_html_plan *plan);

struct report_sched;

/*
 * Write the page for m to f: the header, the tasks over time (from sched; NULL: a page
 * without them), the data rate over time (drawn by the inline scripts from the page's data),
 * the totals tables. 0, or -errno when writing failed (f's error, ENOMEM).
 */
int report_html__write(FILE *f, const struct report_model *m, const struct report_sched *sched);

#endif
