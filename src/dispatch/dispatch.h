/* dispatch.h: runs one command and builds its envelope. The one place that turns a handler's
 * data or error into the contract 2.6 envelope and chooses the exit code. Shared by the CLI
 * and the C library (and later batch and MCP). */
#ifndef AD_DISPATCH_H
#define AD_DISPATCH_H

#include <jansson.h>

#include "dispatch/command_table.h"
#include "core/error.h"
#include "platform/adapter.h"

#define AD_CONTRACT_VERSION "2.6"
#define AD_RELEASE_VERSION "0.1.0"

/* Runs `cmd` with parsed `args` and `globals` (both borrowed). Returns a new envelope and
 * sets *ret_exit to 0 (ok) or 1 (structured error). */
json_t *ad_dispatch(ad_adapter *adapter, const ad_command *cmd, const json_t *args,
                    const json_t *globals, int *ret_exit);

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
