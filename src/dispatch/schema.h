/* schema.h: a JSON Schema for a command's arguments, read from the command table.
 *
 * The MCP server lists one tool per command, and one per subcommand for the commands whose
 * first positional is an `action` enum (skills, session, trace, cursor-overlay). A tool's
 * input schema is the object its arguments form as given JSON (validate.h): '_' keys, the
 * table's types, enums, ranges, required arguments, defaults and help as descriptions, and
 * additionalProperties false. For a subcommand tool the action is fixed by the tool, so it is
 * not a property, and only the flags that subcommand takes (`only_for`) appear. Front-end
 * flags (`front_end`, such as --stdin) are never in a schema.
 */
#ifndef AD_SCHEMA_H
#define AD_SCHEMA_H

#include <stdbool.h>

#include <jansson.h>

#include "dispatch/command_table.h"

/* The `action` positional of a command with subcommands (an enum of them), or NULL. */
const ad_arg_spec *ad_command_action_spec(const ad_command *cmd);

/* True when spec is an argument of cmd's tool for subcommand `action` (NULL: no subcommand):
 * not the action itself, not a front-end flag, and not limited to another subcommand. */
bool ad_schema_includes(const ad_command *cmd, const ad_arg_spec *spec, const char *action);

/* The input schema of cmd for subcommand `action` (NULL for a command without one). Returns
 * a new object the caller owns, or NULL when action is not one of cmd's subcommands. */
json_t *ad_command_input_schema(const ad_command *cmd, const char *action);

#endif
