/* help.h: the --help text of the CLI, generated from the command table. */
#ifndef AD_CLI_HELP_H
#define AD_CLI_HELP_H

#include <stdio.h>

#include "dispatch/command_table.h"

/* General help when cmd is NULL, else the command's own help. */
void ad_cli_print_help(FILE *out, const ad_command *cmd);

#endif
