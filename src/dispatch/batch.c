/* batch.c: runs a validated batch plan, one entry at a time, through ad_dispatch_with
 * (commands/batch.md, "Execution and output").
 *
 * The --timeout-ms budget is one deadline for the whole batch. It is checked before each
 * entry (expired: that entry is not_started, reason deadline, and the batch stops) and it is
 * the deadline ceiling of every entry (core/deadline.h): whatever deadline an entry builds
 * (its --timeout-ms, a wait's --timeout or ms, the post-action wait, bus budgets) ends no
 * later than the batch's, so an entry cannot outlive the batch and no entry's arguments are
 * rewritten.
 */
#include "dispatch/batch.h"

#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/wait_modes.h"
#include "dispatch/dispatch.h"

/* What the batch envelope holds besides its rows (version, command, counts, limits,
 * semantics, stopped), with room to spare: rows may fill the output limit less this. */
#define OUTPUT_RESERVE_BYTES (16 * 1024)
/* The longest a wait --event baseline read may take before the action it precedes. */
#define BASELINE_BUDGET_MS 2000

typedef struct {
    json_t *results;
    size_t completed;
    size_t output_bytes; /* serialized size of the rows so far, with their separators */
    json_t *stopped;     /* NULL, or {"index", "reason"} */
} batch_run;

static size_t serialized_size(const json_t *v)
{
    /* The CLI prints compact, ASCII-escaped JSON (ad_envelope_print): measure the same. */
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
    size_t n = s ? strlen(s) : 0;
    free(s);
    return n;
}

static void stop(batch_run *run, size_t index, const char *reason)
{
    run->stopped = json_pack("{s:I, s:s}", "index", (json_int_t)index, "reason", reason);
}

/* A row that did not start: the entry's name, a not_delivered error, the reason. Steals
 * `env` when given (the error envelope dispatch returned), else builds one from err. */
static json_t *not_started_row(const ad_command *cmd, size_t index, const char *reason,
                               json_t *env, ad_error *err)
{
    if (!env)
        env = ad_envelope_error(cmd->name, err);
    json_object_set_new(env, "index", json_integer((json_int_t)index));
    json_object_set_new(env, "execution", json_string("not_started"));
    json_object_set_new(env, "not_started_reason", json_string(reason));
    return env;
}

/* The delivery a row's envelope reports, so an omitted result keeps it. */
static ad_delivery row_delivery(const json_t *env)
{
    const json_t *where = json_object_get(env, json_is_true(json_object_get(env, "ok"))
                                                   ? "data" : "error");
    const char *named = json_string_value(
        json_object_get(json_object_get(where, "disposition"), "delivery"));
    return named ? ad_delivery_parse(named) : AD_NOT_DELIVERED;
}

/* The row that replaces a result too large for the output: INVALID_ARGS with
 * details.result_omitted, and the delivery the entry itself reported (it did run). */
static json_t *omitted_row(const ad_command *cmd, size_t index, const json_t *env,
                           size_t bytes)
{
    ad_error e = AD_ERROR_INIT;
    ad_error_set(&e, AD_INVALID_ARGS, "Entry %zu's result (%zu bytes) would take the batch "
                                      "output past %d bytes, so it was omitted", index, bytes,
                 AD_BATCH_MAX_OUTPUT_BYTES);
    ad_error_suggest(&e, "Run that command on its own, or ask it for less output");
    ad_error_detail(&e, "result_omitted", json_true());
    ad_error_detail(&e, "result_bytes", json_integer((json_int_t)bytes));
    e.delivery = row_delivery(env);
    json_t *row = ad_envelope_error(cmd->name, &e);
    ad_error_clear(&e);
    json_object_set_new(row, "index", json_integer((json_int_t)index));
    json_object_set_new(row, "execution", json_string("completed"));
    return row;
}

/* Appends a completed or not_started row, unless it would cross the output limit: then
 * the omitted row takes its place and the batch stops (output_limit). Steals row. Returns
 * false when the batch stops here. */
static bool append_row(batch_run *run, const ad_command *cmd, size_t index, json_t *row)
{
    size_t bytes = serialized_size(row) + 1; /* and its comma */
    bool completed = strcmp(json_string_value(json_object_get(row, "execution")),
                            "completed") == 0;
    if (run->output_bytes + bytes + OUTPUT_RESERVE_BYTES > AD_BATCH_MAX_OUTPUT_BYTES) {
        json_t *omitted = omitted_row(cmd, index, row, bytes - 1);
        json_decref(row);
        row = omitted;
        bytes = serialized_size(row) + 1;
        stop(run, index, "output_limit");
    }
    run->output_bytes += bytes;
    if (completed)
        run->completed++;
    json_array_append_new(run->results, row);
    return !run->stopped;
}

/* An ended session is found by the entry's preflight, before anything ran. */
static bool session_ended(const json_t *env)
{
    const char *kind = json_string_value(
        json_object_get(json_object_get(json_object_get(env, "error"), "details"), "kind"));
    return !json_is_true(json_object_get(env, "ok")) && kind &&
           strcmp(kind, "session_ended") == 0;
}

static void run_plan(ad_ctx *ctx, const ad_batch_plan *plan, bool stop_on_error,
                     int64_t deadline_us, int64_t timeout_ms, batch_run *run)
{
    ad_event_baseline *for_this = NULL; /* read before the previous entry, for this one */
    for (size_t i = 0; i < plan->count && !run->stopped; i++) {
        const ad_batch_entry *e = &plan->items[i];
        ad_error err = AD_ERROR_INIT;
        if (ad_now_us() >= deadline_us) {
            ad_error_set(&err, AD_TIMEOUT, "The batch's %lld ms budget (--timeout-ms) ran out "
                                           "before entry %zu started",
                         (long long)timeout_ms, i);
            ad_error_suggest(&err, "Give the batch a larger --timeout-ms, or run the rest "
                                   "in another batch");
            append_row(run, e->cmd, i, not_started_row(e->cmd, i, "deadline", NULL, &err));
            ad_error_clear(&err);
            if (!run->stopped)
                stop(run, i, "deadline");
            break;
        }
        ad_event_baseline *for_next = NULL;
        if (e->baseline_for_next) {
            const ad_batch_entry *wait = &plan->items[i + 1];
            int64_t by = ad_deadline_after_ms(BASELINE_BUDGET_MS);
            if (ad_event_baseline_capture(ctx, wait->args, by < deadline_us ? by : deadline_us,
                                          &for_next, &err) < 0) {
                append_row(run, e->cmd, i, not_started_row(e->cmd, i,
                                                           "pre_action_baseline_failed",
                                                           NULL, &err));
                ad_error_clear(&err);
                if (!run->stopped)
                    stop(run, i, "pre_action_baseline_failed");
                break;
            }
        }
        ad_dispatch_opts opts = {.ceiling_us = deadline_us, .event_baseline = for_this};
        int exit_code = 0;
        json_t *env = ad_dispatch_with(ctx->adapter, e->cmd, e->given_args, e->globals, &opts,
                                       &exit_code);
        ad_event_baseline_free(for_this);
        for_this = for_next;
        bool failed = !json_is_true(json_object_get(env, "ok"));
        if (session_ended(env)) {
            env = not_started_row(e->cmd, i, "session_ended", env, NULL);
        } else {
            json_object_set_new(env, "index", json_integer((json_int_t)i));
            json_object_set_new(env, "execution", json_string("completed"));
        }
        if (append_row(run, e->cmd, i, env) && failed && stop_on_error)
            stop(run, i, "stop_on_error");
    }
    ad_event_baseline_free(for_this);
}

static json_t *limits_json(void)
{
    return json_pack("{s:i, s:i, s:i}", "max_entries", AD_BATCH_MAX_ENTRIES, "max_input_bytes",
                     AD_BATCH_MAX_INPUT_BYTES, "max_output_bytes", AD_BATCH_MAX_OUTPUT_BYTES);
}

static json_t *semantics_json(void)
{
    return json_pack("{s:b, s:b, s:s, s:s, s:s, s:s}", "atomic", 0, "batch_retries", 0,
                     "command_retry_contracts", "preserved", "error_disposition",
                     "error.disposition", "order", "sequential",
                     "successful_action_disposition", "data.disposition");
}

int ad_cmd_batch(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    int64_t started = ad_now_us();
    int64_t timeout_ms = ad_arg_int(args, "timeout_ms");
    /* Everything, including validation, counts against the budget. */
    int64_t deadline_us = ad_deadline_add_ms(started, timeout_ms);
    const char *text = ad_arg_str(args, "json");
    ad_batch_plan plan;
    if (ad_batch_plan_build(ctx, text ? text : "", &plan, err) < 0)
        return -1;
    batch_run run = {.results = json_array()};
    run_plan(ctx, &plan, ad_arg_bool(args, "stop_on_error"), deadline_us, timeout_ms, &run);
    json_t *d = json_object();
    json_object_set_new(d, "completed_entries", json_integer((json_int_t)run.completed));
    json_object_set_new(d, "elapsed_ms", json_integer((json_int_t)((ad_now_us() - started) /
                                                                   1000)));
    json_object_set_new(d, "limits", limits_json());
    json_object_set_new(d, "not_started_entries",
                        json_integer((json_int_t)(plan.count - run.completed)));
    json_object_set_new(d, "results", run.results);
    json_object_set_new(d, "semantics", semantics_json());
    if (run.stopped)
        json_object_set_new(d, "stopped", run.stopped);
    json_object_set_new(d, "timeout_ms", json_integer((json_int_t)timeout_ms));
    json_object_set_new(d, "total_entries", json_integer((json_int_t)plan.count));
    ad_batch_plan_clear(&plan);
    *ret_data = d;
    return 0;
}
