/* batch_validate.c: every check of a batch before its first entry runs (commands/batch.md,
 * "Validation before the first entry"). One bad entry rejects the whole batch and nothing
 * runs. Checks that need the live desktop (a stale ref, a headless physical command) stay
 * with the entry and become its own error when it runs. */
#include "dispatch/batch.h"

#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "dispatch/dispatch.h"

/* How long the permission check waits for the accessibility service, as status does. */
#define HEALTH_TIMEOUT_MS 2000

/* Whether the entry reads the accessibility bus: the table says which commands never do. */
static bool needs_accessibility(const ad_command *cmd, const json_t *args)
{
    if (cmd->no_accessibility_with)
        return !json_object_get(args, cmd->no_accessibility_with);
    return !cmd->no_accessibility;
}

void ad_batch_plan_clear(ad_batch_plan *plan)
{
    for (size_t i = 0; i < plan->count; i++) {
        json_decref(plan->items[i].given_args);
        json_decref(plan->items[i].globals);
        json_decref(plan->items[i].args);
    }
    free(plan->items);
    memset(plan, 0, sizeof(*plan));
}

/* Turns the entry's own error into the batch's: "Batch entry N ('cmd') failed validation:
 * <message>", its code, suggestion and details kept, plus batch_index and batch_command.
 * Nothing ran, so it is not_delivered; the batch's own argv parsed, so it is no parse error. */
static int entry_failed(size_t index, const json_t *name, ad_error *inner, ad_error *err)
{
    const char *cmd = json_string_value(name);
    ad_error_set(err, inner->code, "Batch entry %zu ('%s') failed validation: %s", index,
                 cmd ? cmd : "?", inner->message ? inner->message : "invalid");
    if (inner->suggestion)
        ad_error_suggest(err, "%s", inner->suggestion);
    if (inner->details)
        err->details = json_deep_copy(inner->details);
    ad_error_detail(err, "batch_index", json_integer((json_int_t)index));
    ad_error_detail(err, "batch_command", cmd ? json_string(cmd) : json_null());
    err->delivery = AD_NOT_DELIVERED;
    err->parse_error = false;
    ad_error_clear(inner);
    return -1;
}

/* The given globals entry `entry` runs with: --headed, --verbose, the batch's agent id, its
 * --trace file (so every entry traces the same way a session trace does: the batch's
 * command.start, each entry's events, then the batch's command.end), and its own session or
 * the batch's. Never the wait flags: a batch entry does not inherit them (configuration.md),
 * and batch itself refuses them. */
static json_t *entry_globals(const ad_ctx *ctx, const json_t *entry)
{
    json_t *g = json_object();
    if (json_is_true(json_object_get(ctx->globals, "headed")))
        json_object_set_new(g, "headed", json_true());
    if (ctx->verbose)
        json_object_set_new(g, "verbose", json_true());
    if (ctx->agent_id)
        json_object_set_new(g, "agent_id", json_string(ctx->agent_id));
    static const char *const traced[] = {"trace", "trace_strict"};
    for (size_t i = 0; i < 2; i++) {
        json_t *v = json_object_get(ctx->globals, traced[i]);
        if (v)
            json_object_set(g, traced[i], v);
    }
    const json_t *own = json_object_get(entry, "session");
    if (own)
        json_object_set(g, "session", (json_t *)own);
    else if (ctx->session_id)
        json_object_set_new(g, "session", json_string(ctx->session_id));
    return g;
}

/* The entry format: an object with a known command, args an object, session a string. */
static int check_format(const json_t *entry, const ad_command **ret_cmd, ad_error *err)
{
    if (!json_is_object(entry))
        return ad_error_set(err, AD_INVALID_ARGS, "An entry is an object with \"command\" "
                                                  "and optional \"args\" and \"session\"");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)entry, key, v) {
        if (strcmp(key, "command") != 0 && strcmp(key, "args") != 0 &&
            strcmp(key, "session") != 0)
            return ad_error_set(err, AD_INVALID_ARGS, "Unknown key '%s'; an entry takes "
                                                      "command, args and session", key);
    }
    const char *name = json_string_value(json_object_get(entry, "command"));
    if (!name)
        return ad_error_set(err, AD_INVALID_ARGS, "\"command\" must be a command name");
    const ad_command *cmd = ad_command_find(name);
    if (!cmd)
        return ad_error_set(err, AD_INVALID_ARGS, "Unknown command '%s'", name);
    if (cmd->not_in_batch)
        return ad_error_set(err, AD_INVALID_ARGS, "%s", cmd->not_in_batch);
    json_t *args = json_object_get(entry, "args");
    if (args && !json_is_object(args) && !json_is_null(args))
        return ad_error_set(err, AD_INVALID_ARGS, "\"args\" must be an object");
    json_t *session = json_object_get(entry, "session");
    if (session && !json_is_string(session))
        return ad_error_set(err, AD_INVALID_ARGS, "\"session\" must be a session id");
    *ret_cmd = cmd;
    return 0;
}

/* One entry: its format, then the preflight a direct call gets (which reads the entry's
 * session manifest and applies the multi-agent rule). An ended session is not a validation
 * failure: the entry is not_started when its turn comes. */
static int check_entry(ad_ctx *ctx, const json_t *entry, ad_batch_entry *out, ad_error *err)
{
    if (check_format(entry, &out->cmd, err) < 0)
        return -1;
    json_t *args = json_object_get(entry, "args");
    out->given_args = json_is_object(args) ? json_incref(args) : json_object();
    out->globals = entry_globals(ctx, entry);
    ad_preflight p;
    int rc = ad_dispatch_preflight(ctx->adapter, out->cmd, out->given_args, out->globals, &p,
                                   err);
    if (rc < 0) {
        const char *kind = err->details ? json_string_value(json_object_get(err->details,
                                                                            "kind"))
                                        : NULL;
        if (kind && strcmp(kind, "session_ended") == 0 && p.args) {
            ad_error_clear(err);
            rc = 0;
        }
    }
    if (rc == 0)
        out->args = json_incref(p.args);
    ad_preflight_clear(&p);
    return rc;
}

/* PERM_DENIED for the whole batch when an entry needs the accessibility bus and the desktop
 * refuses it (Linux has no permission prompt: a missing bus is the permission a command
 * lacks). A bus that stays silent is "unknown", left to the entries' own errors. */
static int check_permissions(ad_ctx *ctx, const ad_batch_plan *plan, ad_error *err)
{
    size_t first = plan->count;
    for (size_t i = 0; i < plan->count && first == plan->count; i++)
        if (needs_accessibility(plan->items[i].cmd, plan->items[i].args))
            first = i;
    if (first == plan->count || !ctx->adapter->ops->health)
        return 0;
    ad_health h = {0};
    ctx->adapter->ops->health(ctx->adapter, ad_deadline_after_ms(HEALTH_TIMEOUT_MS), &h);
    bool denied = !h.available && !h.timed_out;
    if (denied) {
        ad_error_set(err, AD_PERM_DENIED, "Batch entry %zu ('%s') needs the accessibility "
                                          "bus, which the desktop does not provide", first,
                     plan->items[first].cmd->name);
        ad_error_suggest(err, "%s", h.suggestion ? h.suggestion
                                                 : "Run inside the graphical session with a "
                                                   "running AT-SPI bus and check "
                                                   "agent-desktop status");
        if (h.detail)
            ad_error_platform_detail(err, h.detail);
        ad_error_detail(err, "batch_index", json_integer((json_int_t)first));
        ad_error_detail(err, "batch_command", json_string(plan->items[first].cmd->name));
    }
    ad_health_clear(&h);
    return denied ? -1 : 0;
}

static bool is_event_wait(const ad_batch_entry *e)
{
    return e->cmd->baseline_with && ad_arg_str(e->args, e->cmd->baseline_with);
}

int ad_batch_plan_build(ad_ctx *ctx, const char *text, ad_batch_plan *plan, ad_error *err)
{
    memset(plan, 0, sizeof(*plan));
    size_t len = strlen(text);
    if (len > AD_BATCH_MAX_INPUT_BYTES) {
        ad_error_set(err, AD_INVALID_ARGS, "The batch JSON is %zu bytes; the limit is %d",
                     len, AD_BATCH_MAX_INPUT_BYTES);
        ad_error_detail(err, "max_input_bytes", json_integer(AD_BATCH_MAX_INPUT_BYTES));
        return -1;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        ad_error_set(err, AD_INVALID_ARGS, "The batch JSON does not parse: %s (line %d, "
                                           "column %d)", jerr.text, jerr.line, jerr.column);
        ad_error_suggest(err, "Pass a JSON array such as '[{\"command\":\"version\"}]'");
        return -1;
    }
    int rc = -1;
    if (!json_is_array(root)) {
        ad_error_set(err, AD_INVALID_ARGS, "The batch JSON must be an array of entries");
        goto out;
    }
    if (json_array_size(root) > AD_BATCH_MAX_ENTRIES) {
        ad_error_set(err, AD_INVALID_ARGS, "A batch holds at most %d entries; got %zu",
                     AD_BATCH_MAX_ENTRIES, json_array_size(root));
        ad_error_detail(err, "max_entries", json_integer(AD_BATCH_MAX_ENTRIES));
        goto out;
    }
    plan->count = json_array_size(root);
    plan->items = calloc(plan->count ? plan->count : 1, sizeof(*plan->items));
    for (size_t i = 0; i < plan->count; i++) {
        const json_t *entry = json_array_get(root, i);
        ad_error inner = AD_ERROR_INIT;
        if (check_entry(ctx, entry, &plan->items[i], &inner) < 0) {
            entry_failed(i, json_object_get(entry, "command"), &inner, err);
            goto out;
        }
    }
    for (size_t i = 0; i + 1 < plan->count; i++)
        plan->items[i].baseline_for_next = is_event_wait(&plan->items[i + 1]);
    rc = check_permissions(ctx, plan, err);
out:
    json_decref(root);
    if (rc < 0)
        ad_batch_plan_clear(plan);
    return rc;
}
