/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec script beside perf script (both under timeout 60) on the same files. */
#ifndef TESTLIB_SCRIPT_TESTLIB_H
#define TESTLIB_SCRIPT_TESTLIB_H

#include "perf-data-testlib.h"
#include "testlib.h"

/* The test's directory: /tmp/auxtrace-script-XXXXXX, made by script_tmpdir_setup. */
extern char script_dir[64];
/* check fixtures: make script_dir; remove it (KEEP set in the environment: keep it). */
void script_tmpdir_setup(void);
void script_tmpdir_teardown(void);
/* script_dir/name, in a buffer of its own until the next call. */
const char *path_in_dir(const char *name);

/* A shell command's standard output (malloc'd: free it); its exit status in *rc. */
char *command_output(int *rc, const char *cmd);
/* The absolute path of $B/auxrec (B: the build directory, "build" by default). */
const char *auxrec_path(void);
/* "timeout 60 $B/auxrec ARGS" with stderr merged (malloc'd); the exit status in *rc. */
char *auxrec(int *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every line the same; on a difference, a check failure showing the first that differs. */
void assert_same_text(const char *ours, const char *theirs);
/*
 * `auxrec script ARGS` and `perf script ARGS` print the same text, both exiting 0 (their
 * stderr left out); returns its number of lines.
 */
int script_same_as_perf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
