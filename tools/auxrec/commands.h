/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec's command list and usage (commands.c), for main and help. */
#ifndef AUXREC_COMMANDS_H
#define AUXREC_COMMANDS_H

#include <stdio.h>

/* The commands (commands.c): the one called name, or NULL; help is not one of them. */
typedef int (*auxrec_cmd_fn)(int argc, char **argv);
auxrec_cmd_fn auxrec_command(const char *name);
/* Say that name is no command, with the usage; returns 2, the exit status for it. */
int auxrec_unknown_command(const char *name);
/* auxrec's own usage: the commands and the options before them. */
void auxrec_usage(FILE *f);

#endif
