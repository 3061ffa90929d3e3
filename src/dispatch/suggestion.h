/* suggestion.h: checks that an error's suggestion can be followed literally.
 *
 * A suggestion that names a flag the running command rejects (list-surfaces --window-id),
 * or a command this build has no handler for (launch), sends an agent into a second error.
 * Dispatch runs every suggestion through ad_suggestion_problem and drops one that fails
 * (better no hint than a wrong one), and the unit tests run every suggestion in the source
 * through it, so a wrong one is caught where it is written.
 *
 * A command is "named" when a word equals a command name and either contains '-' or
 * follows one of: run, agent-desktop, with, use, or, see, then, and. A flag is a word that
 * starts with "--"; it must belong to the running command, the global flags, or a command
 * named in the same suggestion.
 */
#ifndef AD_SUGGESTION_H
#define AD_SUGGESTION_H

#include <stddef.h>

#include "dispatch/command_table.h"

/* NULL when `suggestion` is sound for `cmd` (NULL cmd: any implemented command's flags
 * count), else a description of the first problem written into buf. */
const char *ad_suggestion_problem(const ad_command *cmd, const char *suggestion, char *buf,
                                  size_t size);

#endif
