/* SPDX-License-Identifier: LGPL-2.1 */
/* The files of a recording, checked before they are opened. */
#ifndef AUXREC_RECORDING_FILE_H
#define AUXREC_RECORDING_FILE_H

#include <stdbool.h>

/*
 * path is a regular file (symbolic links followed): 0, or -errno with an error naming it
 * printed (stat's, EISDIR, EINVAL for a FIFO, socket or device, which is never opened).
 */
int recording_file__check(const char *path);
/*
 * A file a recording may lack (trace.dat): 0 when nothing is there at all, 1 when it is a
 * regular file, or recording_file__check's -errno when something is there that cannot be
 * read as one (a symlink loop, a dangling link, a directory, a FIFO).
 */
int recording_file__optional(const char *path);
/*
 * dir holds what an auxrec record that did not finish leaves (trace.dat.spool/,
 * perf.data.features), for auxrec recover.
 */
bool recording_file__unfinished(const char *dir);
/* A warning when path is such a directory, naming auxrec recover. */
void recording_file__say_unfinished(const char *path);

#endif
