/* dispatch.h: runs one command and builds its envelope. The one place that turns a handler's
 * data or error into the contract 2.6 envelope and chooses the exit code. Shared by the CLI
 * and the C library (and later batch and MCP). */
#ifndef AD_DISPATCH_H
#define AD_DISPATCH_H

#include <jansson.h>

#include "dispatch/command_table.h"
#include "core/ctx.h"
#include "core/error.h"
#include "core/session.h"
#include "platform/adapter.h"

#define AD_CONTRACT_VERSION "2.6"
#define AD_RELEASE_VERSION "0.1.0"

/* Runs `cmd` with parsed `args` and `globals` (both borrowed). Returns a new envelope and
 * sets *ret_exit to 0 (ok) or 1 (structured error). */
json_t *ad_dispatch(ad_adapter *adapter, const ad_command *cmd, const json_t *args,
                    const json_t *globals, int *ret_exit);

/* What a caller above dispatch (batch) adds to one run. A zeroed struct adds nothing. */
typedef struct {
    /* 0: none. Else a CLOCK_MONOTONIC deadline (us) that caps every deadline the command
     * builds (core/deadline.h, the ceiling): batch's remaining --timeout-ms. */
    int64_t ceiling_us;
    /* Borrowed: the wait --event baseline batch read before the preceding entry. */
    struct ad_event_baseline *event_baseline;
    /* NULL: unused. Else, when the command fails, the error record the envelope was built
     * from is moved here (the caller clears it): the C library maps its last error from the
     * record, never from the envelope's JSON. */
    ad_error *error_out;
} ad_dispatch_opts;

/* ad_dispatch with opts (NULL: none). */
json_t *ad_dispatch_with(ad_adapter *adapter, const ad_command *cmd, const json_t *args,
                         const json_t *globals, const ad_dispatch_opts *opts, int *ret_exit);

/* The preflight: every check a call gets before its handler runs, none of which reaches the
 * desktop: the validator (globals and arguments, with defaults), the global flag
 * combinations (wait flags, the --wait-for selectors, flags not in this build), the session
 * and agent ids, for a command that uses the state the state root and the session (its use
 * lock and manifest; an ended session fails with details.kind "session_ended", and a
 * multi-agent one refuses a desktop action without an agent id), then the ref syntax of
 * ref_id and of the ref-valued flags (root, element, from, to). It opens no trace: dispatch
 * does that after it. ad_dispatch runs it, and batch runs it on every entry
 * before the first one runs. */
typedef struct {
    ad_ctx ctx;      /* ctx.globals points at globals; ctx owns its strings and manifest */
    json_t *args;    /* validated arguments with defaults, owned */
    json_t *globals; /* validated globals, owned */
    ad_session_use session_use; /* the session's use lock, held until the clear */
    bool session_entered; /* got past the session (only the ref syntax may have failed) */
} ad_preflight;

/* Fills *p (zeroed first; clear it with ad_preflight_clear whatever the result). Returns 0,
 * or -1 with err filled. given_args and given_globals are borrowed. */
int ad_dispatch_preflight(ad_adapter *adapter, const ad_command *cmd, const json_t *given_args,
                          const json_t *given_globals, ad_preflight *p, ad_error *err);
void ad_preflight_clear(ad_preflight *p);

/* Envelope builders (new references). Every envelope has version, ok and command (NULL or
 * empty names "agent-desktop"), and an error envelope's error always has code, message and
 * disposition: every text enters through ad_json_text, so no byte of argv can drop a key.
 * ad_envelope_ok steals data_stolen (NULL becomes {}). */
json_t *ad_envelope_ok(const char *command, json_t *data_stolen);
json_t *ad_envelope_error(const char *command, const ad_error *err);

/* Prints the envelope as one line on stdout; if it cannot be serialized, prints a fixed
 * INTERNAL envelope instead, so stdout always holds one envelope. */
void ad_envelope_print(const json_t *envelope);

#endif
