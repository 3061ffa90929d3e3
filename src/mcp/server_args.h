/* server_args.h: parsing `agent-desktop [global flags] mcp [global flags]`. */
#ifndef AD_MCP_SERVER_ARGS_H
#define AD_MCP_SERVER_ARGS_H

#include <stdbool.h>

#include <jansson.h>

#include "core/error.h"
#include "mcp/server.h"

/* Parses the server's global flags into given JSON (validate.h) for every call. --help sets
 * *ret_help. Per-call flags (--wait-for, --wait-for-gone, --wait-timeout, --debug,
 * --screenshot) and --version are refused. 0 with *ret_globals a new object, or -1 with
 * INVALID_ARGS in err. */
int ad_mcp_parse_args(int argc, char **argv, json_t **ret_globals, bool *ret_help,
                      ad_error *err);

#endif
