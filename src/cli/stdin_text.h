/* stdin_text.h: --stdin, a front-end flag. The CLI reads the text from its own stdin and
 * passes it as the positional the flag stands for (the table's `fills`), keeping
 * `stdin: true` so the command hides what it observes. No handler reads the process's
 * stdin: through the C library it would be the host's. */
#ifndef AD_CLI_STDIN_TEXT_H
#define AD_CLI_STDIN_TEXT_H

#include <jansson.h>

#include "core/error.h"
#include "dispatch/command_table.h"

/* When `args` (the given arguments of cmd, borrowed and updated) sets a front-end flag, reads
 * all of stdin (a pipe or a file, never a terminal) into the positional it fills. 0 when
 * there is nothing to read or it was read; -1 with INVALID_ARGS. The text is never echoed in
 * an error: it may be a secret. */
int ad_cli_read_stdin(const ad_command *cmd, json_t *args, ad_error *err);

#endif
