/* session.h: sessions on disk (sessions.md, commands/system.md "session",
 * configuration.md "Layout").
 *
 * A session is <state root>/sessions/<id>/ with a manifest, session.json:
 *   {"schema":1,"session_id":"run-<ms>-<pid>-<n>","name":"label"|null,"created_at":<ms>,
 *    "ended_at":null|<ms>,"trace":"on"|"off","artifacts":"events"|"full",
 *    "screenshots":bool,"cursor":bool,"multi_agent":bool}
 * written atomically (temp file + rename, mode 0600) in a 0700 directory, with its own
 * snapshots/ and, when tracing, trace/. A --session id with no manifest is a bare snapshot
 * namespace: open, untraced, never listed or collected.
 *
 * "In use" (gc never removes a session in use): every process running a command in a
 * session holds a shared flock on sessions/<id>/session.lock for the whole command
 * (ad_session_enter); gc removes a session only while holding the exclusive lock, which it
 * takes without waiting, so a session some command is running in is skipped (gc run inside
 * a session therefore never removes that one). A lock is released by the kernel when its
 * process dies, so a killed command never pins a session. A command waits at most 10 s for
 * the shared lock (gc holds the exclusive one only while removing), then fails closed.
 *
 * Every json_t returned through ret_* is a new reference the caller owns.
 */
#ifndef AD_SESSION_H
#define AD_SESSION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/state_files.h"

#define AD_SESSION_SCHEMA 1
#define AD_SESSION_NAME_MAX 128              /* a --name label: 1 to 128 bytes */
#define AD_SESSION_QUIET_MS (5 * 60 * 1000)  /* gc's "wrote in the last five minutes" */
#define AD_SESSION_MANIFEST_MAX (64 * 1024)  /* the largest session.json read */

/* What session start records. */
typedef struct {
    const char *name; /* borrowed; NULL: none */
    bool trace;       /* false with --no-trace */
    bool screenshots; /* artifacts "full" */
    bool cursor;
    bool multi_agent;
} ad_session_options;

/* "run-<ms>-<pid>-<n>" into buf; -1 when it does not fit. */
int ad_session_id_format(char *buf, size_t size, int64_t ms, long pid, unsigned n);

/* A new manifest for id (open: ended_at null). */
json_t *ad_session_manifest_new(const char *id, const ad_session_options *o,
                                int64_t created_at);

/* 0 when m is a schema-1 manifest of session `id` with every field of the right type; else
 * -1 with INTERNAL naming the session (never quoting the file). */
int ad_session_manifest_check(const json_t *m, const char *id, ad_error *err);

/* Readers of a checked manifest (NULL reads as a bare namespace: open, untraced). */
bool ad_session_manifest_ended(const json_t *m);
bool ad_session_manifest_tracing(const json_t *m);
bool ad_session_manifest_multi_agent(const json_t *m);

/* The refusal of a command run in an ended session (sessions.md): INVALID_ARGS with
 * details.kind "session_ended". Returns 0 when the command may run: the session is open,
 * or `runs_when_ended` (dispatch sets it for `session end`, the table's
 * ended_session_action: ending again succeeds). version and skills never get here: they
 * never open the state (the table's `stateless`). */
int ad_session_check_open(const char *id, const json_t *manifest, bool runs_when_ended,
                          ad_error *err);

/* A multi-agent session refuses a desktop action without an agent id before anything is
 * sent (sessions.md, "Agent identity"): INVALID_ARGS, details.kind "agent_id_required". */
int ad_session_check_agent(const char *id, const json_t *manifest, bool desktop_action,
                           const char *agent_id, const char *command, ad_error *err);

/* The shared use lock of one session while a command runs in it (see above). */
typedef struct {
    int lock_fd; /* -1: none held */
} ad_session_use;

#define AD_SESSION_USE_INIT {.lock_fd = -1}

/* Enters session `id` under root: when its directory exists, takes the shared use lock and
 * reads the manifest into *ret_manifest (NULL when the session has none, or gc removed it
 * while we waited for the lock). 0 on success; -1 with err when the directory or manifest
 * cannot be read safely or the manifest is malformed (fails closed). */
int ad_session_enter(const char *root, const char *id, ad_session_use *use,
                     json_t **ret_manifest, ad_error *err);
void ad_session_leave(ad_session_use *use);

/* session start: creates the directory (a fresh id), its snapshots/ (and trace/ when
 * tracing) and the manifest. *ret_manifest is what was written. */
int ad_session_create(const char *root, const ad_session_options *o, json_t **ret_manifest,
                      ad_error *err);

/* session end: seals the manifest with ended_at = now, or returns it unchanged when it has
 * ended already. INVALID_ARGS (details.kind "session_not_found") when id has no manifest. */
int ad_session_end(const char *root, const char *id, json_t **ret_manifest, ad_error *err);

/* cursor-overlay enable|disable: records the overlay's flags in the manifest of an open
 * session (its "cursor" and "multi_agent"), so every later command reads the mode from the
 * manifest as after session start --cursor [--multi-agent]. INVALID_ARGS as ad_session_end
 * when id has no manifest. */
int ad_session_set_cursor(const char *root, const char *id, bool cursor, bool multi_agent,
                          ad_error *err);

/* session list: every readable manifest, oldest first (created_at, then id), as
 * {session_id, name, created_at, ended_at, trace, artifacts}. A session directory whose
 * manifest is unreadable or malformed is left out and named in *ret_warnings (an array,
 * possibly empty). */
int ad_session_list(const char *root, json_t **ret_sessions, json_t **ret_warnings,
                    ad_error *err);

/* ---- gc ------------------------------------------------------------------------------ */

typedef struct {
    bool has_older_than;
    int64_t older_than_s; /* --older-than SECONDS */
    bool ended;           /* --ended */
} ad_session_gc_options;

/* What gc knows about one session when it decides. */
typedef struct {
    int64_t created_at;    /* ms */
    int64_t ended_at;      /* ms, or -1 while open */
    int64_t last_write_ms; /* newest mtime of a file in the session, or -1 for none */
    bool in_use;           /* another command holds the use lock */
} ad_session_gc_facts;

typedef enum {
    AD_GC_REMOVE = 0,
    AD_GC_KEEP_IN_USE,      /* rule 1 */
    AD_GC_KEEP_TOO_YOUNG,   /* rule 2 */
    AD_GC_KEEP_OPEN,        /* rule 3 */
    AD_GC_KEEP_RECENT,      /* rule 4 */
} ad_session_gc_verdict;

/* The retention rules (numbered in session_gc.c and tests/unit/test_session.c). */
ad_session_gc_verdict ad_session_gc_decide(const ad_session_gc_facts *f,
                                           const ad_session_gc_options *o, int64_t now_ms);

/* session gc: removes every session the rules allow; *ret_removed is the array of ids. */
int ad_session_gc(const char *root, const ad_session_gc_options *o, json_t **ret_removed,
                  ad_error *err);

/* ---- Shared by session.c and session_gc.c --------------------------------------------- */

/* Opens (creating, mode 0600) the use lock file of the session directory d: a regular file
 * of this user, never a symlink. Returns the fd (the caller closes it) or -1 with err. */
int ad_session_lock_open(const ad_state_dir *d, ad_error *err);

/* Reads and checks d/session.json for session id: 0 with *ret, 1 when absent, -1 with err. */
int ad_session_manifest_read(const ad_state_dir *d, const char *id, json_t **ret,
                             ad_error *err);

/* Opens <root>/sessions to read: 0, 1 when there is none yet, -1 with err. */
int ad_session_dir_open(const char *root, ad_state_dir *ret, ad_error *err);

#endif
