/* result.h: a tool call's CallToolResult from the command's envelope.
 *
 * The envelope is the structuredContent and, as the same JSON, a text block; isError is true
 * when its ok is false. A screenshot without a path returns its PNG as an image block and the
 * envelope without the base64 text. A child that printed no envelope (it crashed, was killed,
 * printed too much or something else) gives an INTERNAL envelope saying so, with isError.
 */
#ifndef AD_MCP_RESULT_H
#define AD_MCP_RESULT_H

#include <jansson.h>

#include "core/error.h"
#include "dispatch/command_table.h"
#include "mcp/child.h"

/* The result of an error found before or instead of running the command (err borrowed).
 * Returns a new object. */
json_t *ad_mcp_error_result(const ad_command *cmd, const ad_error *err);

/* The result of a finished child (borrowed; exited). Returns a new object. */
json_t *ad_mcp_child_result(const ad_command *cmd, const ad_mcp_child *child);

#endif
