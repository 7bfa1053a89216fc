/* SPDX-License-Identifier: LGPL-2.1 */
/* JSON pieces for auxrec convert: strings from any bytes, times as Trace Event Format's µs. */
#ifndef AUXREC_CONVERT_JSON_H
#define AUXREC_CONVERT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * s (at most n bytes, up to a NUL) as a quoted JSON string. A comm or a field may hold any
 * byte: control bytes and bytes >= 0x80 become \u00XX, so the file is valid UTF-8 JSON
 * whatever the recording held (bytes >= 0x80 read as Latin-1).
 */
void json__str(FILE *f, const char *s, size_t n);
/* ns as microseconds with 3 decimals: the format's unit, to the nanosecond. */
void json__us(FILE *f, uint64_t ns);

#endif
