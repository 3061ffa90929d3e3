/* batch.h: the batch command (commands/batch.md): a JSON array of entries checked as a whole,
 * then run one at a time through ad_dispatch_with, in one process.
 *
 * batch_validate.c turns the input into a plan (every check before the first entry runs:
 * the limits, the entry format, each entry's preflight with its session's multi-agent rule,
 * the accessibility permission); batch.c runs the plan (the --timeout-ms budget as a deadline
 * ceiling, the wait --event baselines, --stop-on-error, the 4 MiB output limit) and builds
 * the result.
 */
#ifndef AD_BATCH_H
#define AD_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "core/ctx.h"
#include "core/error.h"
#include "dispatch/command_table.h"

#define AD_BATCH_MAX_ENTRIES 64
#define AD_BATCH_MAX_INPUT_BYTES (1024 * 1024)
#define AD_BATCH_MAX_OUTPUT_BYTES (4 * 1024 * 1024)

/* The batch handler (command_table.c). */
int ad_cmd_batch(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err);

/* ---- the plan (batch_validate.c), shared by batch.c ------------------------------------- */

typedef struct {
    const ad_command *cmd;
    json_t *given_args; /* owned: the entry's "args" as given ({} when omitted) */
    json_t *globals;    /* owned: the given globals the entry runs with */
    json_t *args;       /* owned: the validated arguments, for the event baseline */
    /* The next entry is a wait --event: its baseline is read before this entry runs. */
    bool baseline_for_next;
} ad_batch_entry;

typedef struct {
    ad_batch_entry *items; /* owned, count of them */
    size_t count;
} ad_batch_plan;

/* Checks the whole batch `text` (the JSON positional) before anything runs, with the batch's
 * own ctx (its validated globals, session and agent id). Returns 0 and fills *plan (the
 * caller clears it), or -1 with err filled: INVALID_ARGS for the limits and the format,
 * "Batch entry N ('cmd') failed validation: <the entry's own message>" with
 * details.batch_index and batch_command for an entry, PERM_DENIED when an entry needs the
 * accessibility bus and the desktop refuses it. Nothing reaches an app. */
int ad_batch_plan_build(ad_ctx *ctx, const char *text, ad_batch_plan *plan, ad_error *err);
void ad_batch_plan_clear(ad_batch_plan *plan);

#endif
