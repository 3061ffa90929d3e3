/* server.h: `agent-desktop mcp [global flags]`, the MCP server over stdio.
 *
 * Reads newline-delimited JSON-RPC on stdin and writes only JSON-RPC on stdout (logs go to
 * stderr). Each tools/call runs as a child agent-desktop (child.h), at most
 * AD_MCP_CALLS_MAX at once; the global flags given to `mcp` apply to every call and a tool
 * cannot set them. notifications/cancelled stops a call without a response (SIGTERM, then
 * SIGKILL 3 s later). At end of stdin the server ends its children and exits 0.
 */
#ifndef AD_MCP_SERVER_H
#define AD_MCP_SERVER_H

#include <stdbool.h>

/* Tool calls that run at once; more are answered with a tool error. */
#define AD_MCP_CALLS_MAX 8

/* How long a cancelled or abandoned call has after SIGTERM before SIGKILL. */
#define AD_MCP_KILL_GRACE_MS 3000

/* True when argv names the `mcp` front end: its first word that is not a global flag (or a
 * global flag's value) is "mcp". */
bool ad_mcp_invoked(int argc, char **argv);

/* Runs the server until stdin ends. Returns the process exit code: 0 after end of input, 2
 * when its own command line is wrong (said on stderr), 1 when it cannot start. */
int ad_mcp_main(int argc, char **argv);

#endif
