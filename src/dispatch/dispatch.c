/* dispatch.c: global flag checks, namespace selection, the handler call, the envelope. */
#include "dispatch/dispatch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dispatch/validate.h"
#include "core/visual_debug.h"
#include "core/ctx.h"
#include "core/deadline.h"
#include "core/lease.h"
#include "core/observe.h"
#include "dispatch/post_wait.h"
#include "core/refs.h"
#include "core/session.h"
#include "core/state_root.h"
#include "dispatch/suggestion.h"
#include "dispatch/trace_writer.h"
#include "core/trace_event.h"
#include "core/utf8.h"

/* version, ok and command: the keys every envelope has. command goes through ad_json_text,
 * so a name typed with invalid UTF-8 cannot make jansson drop the key. */
static json_t *envelope_head(const char *command, bool ok)
{
    json_t *env = json_object();
    json_object_set_new(env, "version", json_string(AD_CONTRACT_VERSION));
    json_object_set_new(env, "ok", json_boolean(ok));
    json_object_set_new(env, "command", ad_json_text(command && *command ? command
                                                                         : "agent-desktop"));
    return env;
}

json_t *ad_envelope_ok(const char *command, json_t *data_stolen)
{
    json_t *env = envelope_head(command, true);
    json_object_set_new(env, "data", data_stolen ? data_stolen : json_object());
    return env;
}

json_t *ad_envelope_error(const char *command, const ad_error *err)
{
    json_t *env = envelope_head(command, false);
    json_object_set_new(env, "error", ad_error_to_json(err));
    return env;
}

/* json_dump_callback's sink: stdout, counting what went out. */
static int print_chunk(const char *buffer, size_t size, void *data)
{
    *(size_t *)data += size;
    return fwrite(buffer, 1, size, stdout) == size ? 0 : -1;
}

void ad_envelope_print(const json_t *envelope)
{
    /* Streamed to stdout, the same bytes json_dumps would build: a 50,000-node snapshot's
     * line (~5 MB) is never held whole beside its tree. */
    size_t written = 0;
    if (envelope && json_dump_callback(envelope, print_chunk, &written,
                                       AD_JSON_OUTPUT_FLAGS) == 0) {
        fputc('\n', stdout);
    } else if (written == 0) {
        fputs("{\"version\":\"" AD_CONTRACT_VERSION "\",\"ok\":false,\"command\":"
              "\"agent-desktop\",\"error\":{\"code\":\"INTERNAL\",\"message\":"
              "\"The envelope could not be serialized\",\"disposition\":{\"delivery\":"
              "\"unknown\",\"retry\":\"unknown\"}}}\n", stdout);
    } else {
        /* Out of memory or a write error mid-line: the line is cut and cannot be taken back;
         * it ends here, unparseable, never read as a success. */
        fputc('\n', stdout);
    }
    fflush(stdout);
}

static const char *global_str(const json_t *globals, const char *key)
{
    return json_string_value(json_object_get(globals, key));
}

/* Global flags that exist in the table but whose feature is not in this build fail closed
 * instead of being silently ignored. */
static int check_globals(const ad_command *cmd, const json_t *globals, const json_t *args,
                         ad_error *err)
{
    const char *wf = global_str(globals, "wait_for");
    const char *wg = global_str(globals, "wait_for_gone");
    bool has_wait = json_object_get(globals, "wait_for") ||
                    json_object_get(globals, "wait_for_gone") ||
                    json_object_get(globals, "wait_timeout");
    /* The whole selector, before the command runs: a selector found wrong after the input
     * was sent would turn a delivered action into an error. */
    if ((wf && ad_selector_check(wf, err) < 0) || (wg && ad_selector_check(wg, err) < 0))
        return -1;
    if (has_wait && !cmd->accepts_wait_flags) {
        ad_error_set(err, AD_INVALID_ARGS, "%s does not accept --wait-for, --wait-for-gone or "
                                           "--wait-timeout", cmd->name);
        ad_error_suggest(err, "Remove the wait flags, or run wait as a separate command");
        return -1;
    }
    if (wf && wg) {
        ad_error_set(err, AD_INVALID_ARGS, "--wait-for and --wait-for-gone cannot combine");
        return -1;
    }
    /* An action's -i / --compact shape only the snapshot its --wait-for returns. */
    bool view = json_is_true(json_object_get(args, "interactive_only")) ||
                json_is_true(json_object_get(args, "compact"));
    if (view && !wf && cmd != ad_command_fresh_observation() && cmd->accepts_wait_flags) {
        ad_error_set(err, AD_INVALID_ARGS, "%s accepts -i and --compact only with --wait-for, "
                                           "whose snapshot they shape", cmd->name);
        ad_error_suggest(err, "Add --wait-for SELECTOR, or drop -i and --compact");
        return -1;
    }
    bool budget = json_object_get(globals, "max_bytes") || json_object_get(globals, "max_tokens");
    if (budget && !cmd->accepts_budget && !(cmd->accepts_wait_flags && wf)) {
        ad_error_set(err, AD_INVALID_ARGS, "%s does not accept --max-bytes or --max-tokens%s",
                     cmd->name, cmd->accepts_wait_flags ? " without --wait-for" : "");
        ad_error_suggest(err, cmd->accepts_wait_flags
                                  ? "Add --wait-for SELECTOR, whose fresh snapshot the budget "
                                    "bounds, or drop the budget"
                                  : "Drop the budget: it bounds snapshot, find and the "
                                    "snapshot a --wait-for returns");
        return -1;
    }
    if ((json_object_get(globals, "debug") || json_object_get(globals, "screenshot")) &&
        !cmd->accepts_debug) {
        ad_error_set(err, AD_INVALID_ARGS, "%s does not accept --debug and --screenshot: only "
                                           "snapshot and click write a visual debug file",
                     cmd->name);
        ad_error_suggest(err, "Remove --debug and --screenshot");
        ad_error_detail_text(err, "argument", "debug");
        return -1;
    }
    return 0;
}

/* --max-bytes / --max-tokens as the data object's budget: the envelope line around an empty
 * data object ({}, 2 bytes) and its newline are what the data cannot use. */
static ad_budget budget_from(const ad_command *cmd, const json_t *globals)
{
    ad_budget b = {0};
    json_t *bytes = json_object_get(globals, "max_bytes");
    json_t *tokens = json_object_get(globals, "max_tokens");
    if (!bytes && !tokens)
        return b;
    b.max_tokens = tokens ? json_integer_value(tokens) : 0;
    b.max_bytes = bytes ? json_integer_value(bytes) : b.max_tokens * AD_BYTES_PER_TOKEN;
    json_t *env = ad_envelope_ok(cmd->name, NULL);
    b.data_bytes = b.max_bytes - ((long long)ad_json_bytes(env) - 2 + 1);
    json_decref(env);
    return b;
}

/* Enters the selected session (core/session.h: its use lock, so gc never removes it while
 * this command runs, and its manifest into ctx->session_manifest), then applies the
 * session's refusals before anything is sent: an ended session refuses every command but
 * `session end` (version and skills never get here), and a multi-agent one refuses a
 * desktop action without an agent id. */
static int enter_session(ad_ctx *ctx, const json_t *args, ad_session_use *use, ad_error *err)
{
    if (!ctx->session_id)
        return 0;
    if (ad_session_enter(ctx->state_root, ctx->session_id, use, &ctx->session_manifest,
                         err) < 0)
        return -1;
    const char *action = json_string_value(json_object_get(args, "action"));
    const char *allowed = ctx->command->ended_session_action;
    if (ad_session_check_open(ctx->session_id, ctx->session_manifest,
                              allowed && action && strcmp(action, allowed) == 0, err) < 0)
        return -1;
    return ad_session_check_agent(ctx->session_id, ctx->session_manifest,
                                  ctx->command->desktop_action, ctx->agent_id,
                                  ctx->command->name, err);
}

/* Opens the command's trace (trace_writer.h) and writes command.start with the arguments
 * the caller gave (redacted by the writer). --trace-strict needs something to trace, and
 * makes a setup or command.start failure the command's error, before any action runs;
 * without it a trace failure only loses the trace. *ret is the caller's to close. */
static int open_trace(ad_ctx *ctx, const ad_command *cmd, const json_t *given_args,
                      ad_trace_writer **ret, ad_error *err)
{
    const char *path = global_str(ctx->globals, "trace");
    bool strict = json_is_true(json_object_get(ctx->globals, "trace_strict"));
    bool session = ctx->session_id && ad_session_manifest_tracing(ctx->session_manifest);
    if (strict && !path && !session) {
        ad_error_set(err, AD_INVALID_ARGS,
                     "--trace-strict requires --trace or a session that traces");
        ad_error_suggest(err, "Add --trace PATH, or remove --trace-strict");
        return -1;
    }
    ad_error terr = AD_ERROR_INIT;
    if (ad_trace_writer_open(path, ctx->state_root, ctx->session_id, ctx->session_manifest,
                             ret, &terr) < 0) {
        if (strict) {
            ad_error_move(err, &terr);
            return -1;
        }
        ad_log(ctx, "trace off for this command: %s", terr.message);
        ad_error_clear(&terr);
        return 0;
    }
    if (!*ret)
        return 0;
    ctx->trace = ad_trace_writer_sink(*ret);
    json_t *start = json_pack("{s:s}", "command", cmd->name);
    if (ctx->agent_id) /* who acted, in a multi-agent session */
        json_object_set_new(start, "agent_id", ad_json_text(ctx->agent_id));
    if (json_object_size(given_args))
        json_object_set_new(start, "args", json_deep_copy(given_args));
    if (ad_trace_writer_emit(*ret, "command.start", start, &terr) < 0 && strict) {
        ad_error_move(err, &terr);
        return -1;
    }
    if (terr.message)
        ad_log(ctx, "trace: %s", terr.message);
    ad_error_clear(&terr);
    return 0;
}

/* The one rule for an error raised after input was sent (the post-action wait, its fresh
 * snapshot and refstore write, a missing window to observe, a handler's own later step): the
 * input already reached the app, so the error keeps the action's delivery and cannot read as
 * safe to repeat (configuration.md, "Results"). The action's report, when there is one,
 * names the delivery best (delivered_verified after a readback) and goes under
 * details.after_action. An error that already carries a delivery keeps its own. */
static void keep_action_delivery(ad_error *err, ad_delivery delivered, json_t *report)
{
    if (err->delivery != AD_NOT_DELIVERED)
        return;
    const char *named = json_string_value(
        json_object_get(json_object_get(report, "disposition"), "delivery"));
    if (!named) {
        err->delivery = delivered;
        return;
    }
    err->delivery = ad_delivery_parse(named);
    if (!err->details || !json_object_get(err->details, "after_action"))
        ad_error_detail(err, "after_action", json_incref(report));
}

/* Ref-valued flags: their syntax is checked with ref_id's, before the handler runs. */
static const char *const ref_flags[] = {"ref_id", "root", "element", "from", "to", NULL};

static int check_ref_syntax(const ad_command *cmd, const json_t *args, ad_error *err)
{
    for (const char *const *k = ref_flags; *k; k++) {
        const ad_arg_spec *spec = ad_arg_spec_find(cmd->args, *k);
        const char *v = json_string_value(json_object_get(args, *k));
        ad_ref parsed;
        /* Each names a ref wherever it is declared: snapshot and find --root, wait
         * --element, drag --from and --to. */
        if (spec && spec->type == AD_ARG_STRING && v && ad_ref_parse(v, &parsed, err) < 0)
            return -1;
    }
    return 0;
}

int ad_dispatch_preflight(ad_adapter *adapter, const ad_command *cmd, const json_t *given_args,
                          const json_t *given_globals, ad_preflight *p, ad_error *err)
{
    memset(p, 0, sizeof(*p));
    p->session_use = (ad_session_use)AD_SESSION_USE_INIT;
    p->ctx = (ad_ctx){
        .adapter = adapter,
        .command = cmd,
        .command_name = cmd->name,
        .takes_flag = ad_command_takes_flag,
        .verbose = json_is_true(json_object_get(given_globals, "verbose")),
    };
    /* The one validator of every door: types, ranges, enums, rules, then defaults. */
    if (ad_globals_validate(given_globals, &p->globals, err) < 0 ||
        ad_args_validate(cmd, given_args, &p->args, err) < 0)
        return -1;
    p->ctx.globals = p->globals;
    if (check_globals(cmd, p->globals, p->args, err) < 0)
        return -1;
    p->ctx.budget = budget_from(cmd, p->globals);
    /* An invalid id is INVALID_ARGS for every command (configuration.md: nothing runs). */
    if (ad_session_resolve(global_str(p->globals, "session"), &p->ctx.session_id, err) < 0 ||
        ad_agent_id_resolve(global_str(p->globals, "agent_id"), &p->ctx.agent_id, err) < 0)
        return -1;
    /* The state root and the session matter only to commands that use the state. The agent
     * id is scoped by session: it matters only in a multi-agent one (enter_session). */
    if (!cmd->stateless) {
        if (ad_state_root_resolve(&p->ctx.state_root, err) < 0 ||
            enter_session(&p->ctx, p->args, &p->session_use, err) < 0)
            return -1;
    }
    p->session_entered = true;
    /* Argument errors come before capability errors: a bare @eN is INVALID_ARGS even for a
     * command this build does not run. */
    return check_ref_syntax(cmd, p->args, err);
}

void ad_preflight_clear(ad_preflight *p)
{
    json_decref(p->args);
    json_decref(p->globals);
    free(p->ctx.agent_id);
    json_decref(p->ctx.session_manifest);
    ad_session_leave(&p->session_use);
    free(p->ctx.state_root);
    free(p->ctx.session_id);
    free(p->ctx.observed_window_id);
    ad_observe_free(p->ctx.observe_pending);
    memset(p, 0, sizeof(*p));
    p->session_use = (ad_session_use)AD_SESSION_USE_INIT;
}

/* The handler, under the interaction lease when the table says the whole command needs it
 * (AD_LEASE_COMMAND). An AD_LEASE_DELIVERY handler takes it itself around its delivery. The
 * post-action wait runs after the release: it only observes. */
static int run_handler(ad_ctx *ctx, const ad_command *cmd, const json_t *args, json_t **data,
                       ad_error *err)
{
    if (cmd->lease != AD_LEASE_COMMAND)
        return cmd->handler(ctx, args, data, err);
    ad_lease lease = AD_LEASE_INIT;
    if (ad_lease_acquire(&lease, ad_deadline_after_ms(AD_LEASE_WAIT_MS), err) < 0)
        return -1;
    int rc = cmd->handler(ctx, args, data, err);
    ad_lease_release(&lease);
    return rc;
}

json_t *ad_dispatch(ad_adapter *adapter, const ad_command *cmd, const json_t *given_args,
                    const json_t *given_globals, int *ret_exit)
{
    return ad_dispatch_with(adapter, cmd, given_args, given_globals, NULL, ret_exit);
}

json_t *ad_dispatch_with(ad_adapter *adapter, const ad_command *cmd, const json_t *given_args,
                         const json_t *given_globals, const ad_dispatch_opts *opts,
                         int *ret_exit)
{
    ad_error err = AD_ERROR_INIT;
    ad_preflight p;
    json_t *data = NULL;
    ad_trace_writer *trace = NULL;
    ad_visual_debug debug = {0};
    int64_t started = 0;
    int rc = -1;
    /* The ceiling holds from the preflight to the envelope: every deadline in between. */
    int64_t saved_ceiling = ad_deadline_ceiling_push(opts && opts->ceiling_us ? opts->ceiling_us
                                                                              : INT64_MAX);
    int pre = ad_dispatch_preflight(adapter, cmd, given_args, given_globals, &p, &err);
    ad_ctx *ctx = &p.ctx;
    json_t *args = p.args;
    if (opts)
        ctx->event_baseline = opts->event_baseline;
    /* The trace opens once the session is entered, so a refused ref is traced too; a strict
     * trace that cannot open is the error the caller sees first. */
    if (p.session_entered) {
        started = ad_now_us();
        ad_error terr = AD_ERROR_INIT;
        if (open_trace(ctx, cmd, given_args, &trace, &terr) < 0) {
            ad_error_move(&err, &terr);
            pre = -1;
        }
    }
    if (pre < 0)
        goto done;
    if (!cmd->handler) {
        ad_error_set(&err, AD_PLATFORM_NOT_SUPPORTED,
                     "%s is not available in this build of agent-desktop", cmd->name);
        ad_error_suggest(&err, "Run agent-desktop --help for the commands this build "
                               "implements, or use another approach");
        ad_error_detail(&err, "kind", json_string("not_in_this_build"));
        ad_error_detail(&err, "retryable", json_false());
        goto done;
    }
    if (ad_visual_debug_begin(ctx, args, &debug, &err) < 0)
        goto done;
    rc = run_handler(ctx, cmd, args, &data, &err);
    if (rc == 0 && cmd->accepts_wait_flags)
        rc = ad_post_wait(ctx, args, cmd->mutates, &data, &err);
    if (rc == 0 && ctx->observe_pending) /* --observe, settled by the satisfied wait */
        ad_observe_finish_deferred(ctx, json_object_get(data, "after_action"));
    if (rc == 0)
        ad_visual_debug_end(ctx, &debug, data);
    else if (rc < 0 && cmd->accepts_wait_flags)
        ad_post_action_observation(ctx, &err);
    if (rc < 0)
        keep_action_delivery(&err, ctx->delivered, data);
    ad_log(ctx, "%s: %s in %lld ms", cmd->name, rc == 0 ? "ok" : ad_error_code_name(err.code),
           (long long)((ad_now_us() - started) / 1000));
done:;
    json_t *env;
    if (rc == 0) {
        env = ad_envelope_ok(cmd->name, data);
        *ret_exit = 0;
    } else {
        json_decref(data);
        if (!err.message)
            ad_error_set(&err, AD_INTERNAL, "%s failed without an error record", cmd->name);
        char why[160];
        if (ad_suggestion_problem(cmd, err.suggestion, why, sizeof(why))) {
            /* A hint that cannot be followed literally is worse than none. */
            ad_log(ctx, "dropped the suggestion \"%s\": it %s", err.suggestion, why);
            free(err.suggestion);
            err.suggestion = NULL;
        }
        env = ad_envelope_error(cmd->name, &err);
        *ret_exit = err.parse_error ? 2 : 1;
    }
    if (trace) {
        json_t *end = json_pack("{s:s, s:b, s:I}", "command", cmd->name, "ok", rc == 0,
                                "duration_ms", (json_int_t)((ad_now_us() - started) / 1000));
        if (rc < 0)
            json_object_set_new(end, "code", json_string(ad_error_code_name(err.code)));
        ad_trace_event(ctx, "command.end", end);
        ad_trace_writer_close(trace);
    }
    if (rc < 0 && opts && opts->error_out)
        ad_error_move(opts->error_out, &err);
    ad_error_clear(&err);
    ad_visual_debug_clear(&debug);
    ad_preflight_clear(&p);
    ad_deadline_ceiling_restore(saved_ceiling);
    return env;
}
