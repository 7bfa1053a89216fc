/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec's messages: errors with the tool's prefix, and how much -v asks for. */
#ifndef AUXREC_ERROR_H
#define AUXREC_ERROR_H

/* How many -v came before the command: the library's info (1) and debug (2) messages. */
extern int auxrec_verbose;

/* Print to stderr with the tool's prefix. */
void auxrec_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for what does not stop the command: "auxrec: warning: ...". */
void auxrec_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * strerror(err) (err positive or negative), with the fix for errors that a limit of the
 * user's causes: out of file descriptors names ulimit -n.
 */
const char *auxrec_strerror(int err);
/*
 * "PATH: WHAT: <errno's text>", and when the library explained an EINVAL (a damaged file),
 * that its message above says where.
 */
void auxrec_file_error(const char *path, const char *what, int err);

#endif
