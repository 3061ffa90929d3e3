/* tools.h: the MCP tool list, read from the command table.
 *
 * One tool per command, and one per subcommand for commands whose first positional is an
 * `action` enum: `desktop_` + the name with '-' as '_' (+ '_' + the subcommand), such as
 * desktop_list_windows and desktop_session_start. The list is in table order, so paging
 * through it is deterministic.
 */
#ifndef AD_MCP_TOOLS_H
#define AD_MCP_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/error.h"
#include "dispatch/command_table.h"

typedef struct {
    char name[96];           /* "desktop_session_start" */
    const ad_command *cmd;   /* the command it runs */
    const char *action;      /* the subcommand the tool fixes (points into the table), or NULL */
    size_t action_len;
} ad_mcp_tool;

/* Every tool, built once from the table; *ret_count gets their number. Never fails: the
 * table is static. The array lives until the process ends. */
const ad_mcp_tool *ad_mcp_tools(size_t *ret_count);

/* The tool called `name`, or NULL. */
const ad_mcp_tool *ad_mcp_tool_find(const char *name);

/* The tool's entry for tools/list (name, title, description, inputSchema, annotations) as
 * a new object. */
json_t *ad_mcp_tool_json(const ad_mcp_tool *tool);

/* Turns a call's arguments (borrowed; NULL or null means none) into the command's given JSON
 * (validate.h): a null argument is omitted and a subcommand tool adds its action. Checks each
 * key against the tool's schema first, so an unknown one (including the action a subcommand
 * tool fixes, a flag of another subcommand, or a global flag) names the accepted arguments.
 * Returns a new object, or NULL with INVALID_ARGS in err. */
json_t *ad_mcp_tool_given(const ad_mcp_tool *tool, const json_t *arguments, ad_error *err);

#endif
