/* child.h: one tool call as a child agent-desktop process.
 *
 * The child is the CLI itself (/proc/self/exe) with an argv built from the call's given JSON
 * (dispatch/argv_build.h), no shell. Its stdin is /dev/null, its stdout a pipe the server
 * reads (bounded), its stderr the server's stderr. It runs in its own process group, so a
 * cancellation's SIGTERM reaches it and what it started in its group, and nothing else.
 */
#ifndef AD_MCP_CHILD_H
#define AD_MCP_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"
#include "mcp/framing.h"

/* The most a child may print: one message's worth plus a margin for the envelope around it.
 * More is a tool error, and the child is stopped. */
#define AD_MCP_CHILD_OUTPUT_MAX (AD_MCP_MESSAGE_MAX + 64u * 1024u)

typedef struct {
    pid_t pid;        /* also its process group id */
    int out_fd;       /* read end of its stdout, non-blocking; -1 once closed */
    char *out;        /* owned; what it printed */
    size_t out_len;
    size_t out_cap;
    bool overflow;    /* it printed more than AD_MCP_CHILD_OUTPUT_MAX (the rest is dropped) */
    bool exited;      /* reaped */
    int status;       /* waitpid status once exited */
} ad_mcp_child;

/* Starts exe with argv (NULL-terminated, argv[0] included). 0, or -1 with INTERNAL in err.
 * The caller owns the child and ends it with ad_mcp_child_clear after it exited. */
int ad_mcp_child_spawn(ad_mcp_child *c, const char *exe, char *const argv[], ad_error *err);

/* Reads what the child's stdout has now. Returns true when the pipe reached end of file (or
 * failed), so it needs no more polling. */
bool ad_mcp_child_read(ad_mcp_child *c);

/* Reaps the child if it exited (never blocks). True when it has exited. */
bool ad_mcp_child_reap(ad_mcp_child *c);

/* Sends sig to the child's process group (not to a reaped one). */
void ad_mcp_child_signal(ad_mcp_child *c, int sig);

/* Closes the pipe and frees the output. The child must have been reaped. */
void ad_mcp_child_clear(ad_mcp_child *c);

#endif
