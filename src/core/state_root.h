/* state_root.h: the private directory that holds refmaps and sessions (configuration.md).
 *
 * Paths returned through ret_* are malloc'd and belong to the caller. */
#ifndef AD_STATE_ROOT_H
#define AD_STATE_ROOT_H

#include <stddef.h>

#include "core/error.h"

/* Resolves AGENT_DESKTOP_HOME or ~/.agent-desktop. Fails with INVALID_ARGS when the variable
 * is relative, or names a symlink, a non-directory, or a directory owned by someone else. */
int ad_state_root_resolve(char **ret_path, ad_error *err);

/* Resolves --session / AGENT_DESKTOP_SESSION (flag wins). *ret_id is NULL for the global
 * namespace. An empty or malformed id is INVALID_ARGS. */
int ad_session_resolve(const char *flag_value, char **ret_id, ad_error *err);
/* Resolves --agent-id / AGENT_DESKTOP_AGENT_ID (flag wins) under the same rule as a
 * session id (sessions.md, "Agent identity"). *ret_id is NULL when neither is set. */
int ad_agent_id_resolve(const char *flag_value, char **ret_id, ad_error *err);
/* True for 1-64 letters, digits, '-' or '_'. */
int ad_session_id_valid(const char *id);

/* The namespace directory path: root, or root/sessions/<id>. Does not touch the disk. */
char *ad_namespace_path(const char *root, const char *session_id);

/* Creates `path` and its missing parents with mode 0700, then checks `path` is private.
 * A group- or world-accessible directory fails with INTERNAL. */
int ad_private_dir_ensure(const char *path, ad_error *err);

/* Writes data to dir/name through a private temp file and rename, so readers never see a
 * torn file. dir must already be private. */
int ad_private_file_write(const char *dir, const char *name, const char *data, size_t len,
                          ad_error *err);

#endif
