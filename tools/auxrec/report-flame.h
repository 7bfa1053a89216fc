/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * auxrec report --html's flame chart: per thread, the calls its Intel PT or BTS trace shows
 * over time (call-slices.h), drawn by report-html-flame.js. Its own walk of the recording's
 * perf.data with the AUX decoders on (the report's walk counts AUX bytes and decodes none).
 *
 * The page stays bounded whatever the trace: a slice shorter than a pixel of the whole
 * recording's view (REPORT_FLAME_PIXELS across the recording's span, or across the calls'
 * when the report knows no span) is not drawn there and is left out; of the
 * rest, the REPORT_FLAME_BUDGET longest are kept (a caller is never shorter than its callees,
 * so what is kept still nests). The page says how many were left out and below what length.
 */
#ifndef AUXREC_REPORT_FLAME_H
#define AUXREC_REPORT_FLAME_H

#include <stdio.h>

#include "report-model.h"

#define REPORT_FLAME_PIXELS	2000
#define REPORT_FLAME_BUDGET	20000

/*
 * The flame chart's section (its data and script) for the recording m was read from, when m
 * says it holds AUX trace; nothing otherwise, or when the trace shows no timed call (BTS
 * has no time). 0, or -errno (ENOMEM, f's error); a recording that cannot be decoded is
 * said on the page, not an error.
 */
int report_flame__write(FILE *f, const struct report_model *m);

#endif
