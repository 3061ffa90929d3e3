/* state_root.h: the private directory that holds refmaps and sessions (configuration.md).
 *
 * Paths returned through ret_* are malloc'd and belong to the caller. */
#ifndef AD_STATE_ROOT_H
#define AD_STATE_ROOT_H

#include "core/error.h"

/* Resolves AGENT_DESKTOP_HOME or ~/.agent-desktop into an absolute path without empty, '.' or
 * trailing components. Fails with INVALID_ARGS when the variable (or HOME) is relative or has
 * a '..' component, or names a symlink, a non-directory, or a directory owned by someone
 * else. Nothing is created; state_files.h opens and re-verifies it. */
int ad_state_root_resolve(char **ret_path, ad_error *err);

/* Resolves --session / AGENT_DESKTOP_SESSION (flag wins). *ret_id is NULL for the global
 * namespace. An empty or malformed id is INVALID_ARGS. */
int ad_session_resolve(const char *flag_value, char **ret_id, ad_error *err);
/* Resolves --agent-id / AGENT_DESKTOP_AGENT_ID (flag wins) under the same rule as a
 * session id (sessions.md, "Agent identity"). *ret_id is NULL when neither is set. */
int ad_agent_id_resolve(const char *flag_value, char **ret_id, ad_error *err);
/* True for 1-64 letters, digits, '-' or '_'. */
int ad_session_id_valid(const char *id);

#endif
