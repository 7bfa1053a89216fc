/* SPDX-License-Identifier: LGPL-2.1 */
/* auxrec's commands, one cmd-<name>.c each; commands.c lists them for main and help. */
#ifndef AUXREC_CMD_H
#define AUXREC_CMD_H

int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_help(int argc, char **argv);

#endif
