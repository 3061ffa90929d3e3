/* post_wait.c: polling a window for a selector after a command. */
#include "dispatch/post_wait.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/identity.h"
#include "core/observe.h"
#include "dispatch/command_table.h"
#include "dispatch/validate.h"

#define POLL_MS 100
#define DEFAULT_WAIT_TIMEOUT_MS 30000

int ad_selector_parse(const char *s, ad_selector *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (!s || !*s || strcmp(s, ":") == 0) {
        ad_error_set(err, AD_INVALID_ARGS, "The wait selector is empty");
        ad_error_suggest(err, "Pass a selector of the form role:text, role, or :text");
        ad_error_detail(err, "selector", json_string(s ? s : ""));
        return -1;
    }
    const char *colon = strchr(s, ':');
    size_t role_len = colon ? (size_t)(colon - s) : strlen(s);
    if (role_len >= sizeof(ret->role)) {
        ad_error_set(err, AD_INVALID_ARGS, "The selector's role is %zu bytes, longer than any "
                     "role (at most %zu)", role_len, sizeof(ret->role) - 1);
        ad_error_suggest(err, "Use a canonical role such as button, textfield or statictext "
                              "before the ':'");
        return -1;
    }
    for (size_t i = 0; i < role_len; i++)
        ret->role[i] = (char)tolower((unsigned char)s[i]);
    if (colon && colon[1])
        ret->text = strdup(colon + 1);
    return 0;
}

int ad_selector_check(const char *s, ad_error *err)
{
    ad_selector sel;
    int rc = ad_selector_parse(s, &sel, err);
    ad_selector_clear(&sel);
    return rc;
}

void ad_selector_clear(ad_selector *sel)
{
    free(sel->text);
    sel->text = NULL;
}

bool ad_selector_matches(const ad_selector *sel, const ad_node *n)
{
    if (sel->role[0] && strcmp(sel->role, n->role) != 0)
        return false;
    if (!sel->text)
        return true;
    return ad_node_has_text(n, sel->text);
}

size_t ad_selector_count(const ad_selector *sel, const ad_node *root)
{
    size_t c = ad_selector_matches(sel, root);
    for (size_t i = 0; i < root->n_children; i++)
        c += ad_selector_count(sel, root->children[i]);
    return c;
}

/* The wait flags of this invocation: the selector text (NULL: no wait) and whether it asks
 * for absence; the timeout in ms (default 30000). */
static const char *wait_selector(const ad_ctx *ctx, bool *ret_gone, int64_t *ret_timeout_ms)
{
    const char *want = json_string_value(json_object_get(ctx->globals, "wait_for"));
    const char *gone = json_string_value(json_object_get(ctx->globals, "wait_for_gone"));
    json_t *timeout = json_object_get(ctx->globals, "wait_timeout");
    *ret_timeout_ms = json_is_integer(timeout) ? json_integer_value(timeout)
                                               : DEFAULT_WAIT_TIMEOUT_MS;
    *ret_gone = !want && gone;
    return want ? want : gone;
}

/* The fresh snapshot a satisfied --wait-for returns: the table's fresh_observation command
 * (snapshot) over the same window, with the caller's snapshot flags when the command was a
 * snapshot, and an action's -i / --compact (command_args.c, WAIT_VIEW_ARGS). */
static int fresh_snapshot(ad_ctx *ctx, const json_t *args, bool is_action, json_t **ret,
                          ad_error *err)
{
    const ad_command *snap = ad_command_fresh_observation();
    json_t *sargs = NULL;
    if (!is_action) {
        sargs = json_deep_copy(args);
    } else {
        /* The window the action observed, with snapshot's own defaults from the table. */
        json_t *given = json_pack("{s:s}", "window_id", ctx->observed_window_id);
        static const char *const view[] = {"interactive_only", "compact"};
        for (size_t i = 0; i < sizeof(view) / sizeof(view[0]); i++)
            if (json_is_true(json_object_get(args, view[i])))
                json_object_set_new(given, view[i], json_true());
        int vrc = ad_args_validate(snap, given, &sargs, err);
        json_decref(given);
        if (vrc < 0)
            return -1;
    }
    const ad_command *saved = ctx->command;
    const char *saved_name = ctx->command_name;
    ctx->command = snap;
    ctx->command_name = snap->name;
    int rc = snap->handler(ctx, sargs, ret, err);
    ctx->command = saved;
    ctx->command_name = saved_name;
    json_decref(sargs);
    return rc;
}

int ad_post_wait(ad_ctx *ctx, const json_t *args, bool is_action, json_t **data,
                 ad_error *err)
{
    bool absent;
    int64_t timeout_ms;
    const char *selector = wait_selector(ctx, &absent, &timeout_ms);
    const char *want = absent ? NULL : selector, *gone = absent ? selector : NULL;
    if (!selector)
        return 0; /* --wait-timeout alone changes nothing */
    if (!ctx->observed_window_id)
        return ad_error_set(err, AD_INTERNAL, "no window to observe after %s",
                            ctx->command->name);
    ad_selector sel;
    if (ad_selector_parse(selector, &sel, err) < 0)
        return -1;
    int64_t started = ad_now_us(), deadline = ad_deadline_add_ms(started, timeout_ms);
    json_t *last_error = NULL;
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, ctx->observed_window_id, deadline);
    int rc = -1;
    for (;;) {
        ad_tree t = {0};
        ad_error e = AD_ERROR_INIT;
        /* Each read ends with the wait (--wait-timeout 0 still checks once: ctx.h). */
        ad_read_limits lim = ad_read_limits_default(ad_wait_read_deadline(started, deadline));
        lim.native_id_needed = ad_identity_no_id_needed; /* a selector names no id */
        bool window_gone = false;
        if (ctx->adapter->ops->read_window(ctx->adapter, ctx->observed_window_id, &lim, &t,
                                           &e) == 0) {
            size_t n = ad_selector_count(&sel, t.root);
            bool done = want ? n > 0 : (n == 0 && t.complete);
            ad_tree_clear(&t);
            if (done)
                break;
        } else {
            /* For --wait-for-gone a closed window is absence; otherwise keep polling. A read
             * of a window that just closed can fail with another error: ask for the window. */
            window_gone = e.code == AD_WINDOW_NOT_FOUND;
            if (!window_gone) {
                ad_window w = {0};
                ad_error le = AD_ERROR_INIT;
                window_gone = ctx->adapter->ops->window_lookup(ctx->adapter,
                                                               ctx->observed_window_id,
                                                               lim.deadline_us, &w, &le) < 0 &&
                              le.code == AD_WINDOW_NOT_FOUND;
                ad_window_clear(&w);
                ad_error_clear(&le);
            }
            json_decref(last_error);
            last_error = json_pack("{s:s, s:s}", "code", ad_error_code_name(e.code), "message",
                                   e.message ? e.message : "");
        }
        ad_error_clear(&e);
        if (gone && window_gone)
            break;
        if (ad_now_us() >= deadline) {
            ad_error_set(err, AD_TIMEOUT, "The wait selector was not satisfied within %lldms",
                         (long long)timeout_ms);
            ad_error_detail(err, "kind", json_string("wait_timeout"));
            ad_error_detail(err, "selector", json_string(want ? want : gone));
            ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
            if (last_error)
                ad_error_detail(err, "last_error", json_incref(last_error));
            goto done; /* dispatch adds the action's delivery and after_action */
        }
        ad_wait_next_poll(ctx, POLL_MS, deadline);
    }
    int64_t elapsed = (ad_now_us() - started) / 1000;
    json_t *out = NULL;
    if (want) {
        /* --observe, settled by the satisfied wait: its report is part of the line the budget
         * bounds, so it is finished before the fresh snapshot is fitted, and under a budget
         * it takes at most half of it (ad_observe_fit_report says what it cut). */
        if (is_action && ctx->observe_pending) {
            ad_observe_finish_deferred(ctx, *data);
            if (ctx->budget.data_bytes > 0)
                (void)ad_observe_fit_report(*data, ctx->budget.data_bytes / 2);
        }
        /* A budget bounds the whole line: the fresh snapshot gets what the keys added
         * beside it below leave (one comma joins them to its own). */
        json_t *beside = json_pack("{s:I, s:s}", "elapsed_ms", (json_int_t)elapsed,
                                   "matched_selector", want);
        if (is_action)
            json_object_set(beside, "after_action", *data);
        ad_budget whole = ctx->budget;
        if (whole.data_bytes > 0)
            ctx->budget.data_bytes -= (long long)ad_json_bytes(beside) - 2 + 1;
        json_decref(beside);
        int frc = ctx->budget.data_bytes > 0 || whole.data_bytes <= 0
                      ? fresh_snapshot(ctx, args, is_action, &out, err)
                      : ad_error_set(err, AD_INVALID_ARGS, "The budget leaves no room for the "
                                     "snapshot beside the action's own report");
        ctx->budget = whole;
        if (frc < 0)
            goto done;
    } else {
        out = json_pack("{s:b, s:b}", "gone", 1, "target_absent", 1);
    }
    json_object_set_new(out, "elapsed_ms", json_integer(elapsed));
    json_object_set_new(out, "matched_selector", json_string(want ? want : gone));
    if (is_action)
        json_object_set(out, "after_action", *data);
    json_decref(*data);
    *data = out;
    rc = 0;
done:
    json_decref(last_error);
    ad_selector_clear(&sel);
    return rc;
}

/* ---- observation after an uncertain delivery ------------------------------------------- */

void ad_post_action_observation(ad_ctx *ctx, ad_error *err)
{
    bool absent;
    int64_t timeout_ms;
    const char *selector = wait_selector(ctx, &absent, &timeout_ms);
    const char *want = absent ? NULL : selector, *gone = absent ? selector : NULL;
    if (!selector || err->delivery != AD_DELIVERY_UNCERTAIN || !ctx->observed_window_id)
        return;
    ad_selector sel;
    ad_error ignored = AD_ERROR_INIT;
    if (ad_selector_parse(selector, &sel, &ignored) < 0) {
        ad_error_clear(&ignored);
        return;
    }
    int64_t started = ad_now_us(), deadline = ad_deadline_add_ms(started, timeout_ms);
    const char *outcome = "timed_out";
    json_t *last_error = NULL, *matches = NULL;
    int pid = 0;
    char *instance = NULL;
    ad_window w = {0};
    if (ctx->adapter->ops->window_lookup(ctx->adapter, ctx->observed_window_id,
                                         ad_wait_read_deadline(started, deadline), &w, &ignored) == 0) {
        pid = w.pid;
        instance = w.process_instance ? strdup(w.process_instance) : NULL;
    }
    ad_window_clear(&w);
    ad_error_clear(&ignored);
    for (;;) {
        if (pid && !ctx->adapter->ops->process_alive(ctx->adapter, pid, instance)) {
            outcome = "process_exited";
            break;
        }
        ad_tree t = {0};
        ad_read_limits lim = ad_read_limits_default(ad_wait_read_deadline(started, deadline));
        lim.native_id_needed = ad_identity_no_id_needed; /* a selector names no id */
        if (ctx->adapter->ops->read_window(ctx->adapter, ctx->observed_window_id, &lim, &t,
                                           &ignored) == 0) {
            size_t n = ad_selector_count(&sel, t.root);
            json_decref(matches);
            matches = json_integer((json_int_t)n);
            bool done = want ? n > 0 : (n == 0 && t.complete);
            ad_tree_clear(&t);
            if (done) {
                outcome = "expected_state_observed";
                break;
            }
        } else {
            bool window_gone = ignored.code == AD_WINDOW_NOT_FOUND;
            json_decref(last_error);
            last_error = json_pack("{s:s, s:s}", "code", ad_error_code_name(ignored.code),
                                   "message", ignored.message ? ignored.message : "");
            ad_error_clear(&ignored);
            if (window_gone && gone) {
                outcome = "expected_state_observed"; /* the pinned window is confirmed gone */
                break;
            }
            if (window_gone) {
                outcome = "owner_unavailable";
                break;
            }
        }
        ad_error_clear(&ignored);
        if (ad_now_us() >= deadline)
            break;
        ad_wait_next_poll(ctx, POLL_MS, deadline);
    }
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:{s:i, s:s?}, s:I, s:s}", "kind",
                          "post_action_observation", "selector", want ? want : gone, "expected",
                          want ? "present" : "absent", "surface", "window", "process_identity",
                          "pid", pid, "process_instance", instance, "elapsed_ms",
                          (json_int_t)((ad_now_us() - started) / 1000), "source_window_id",
                          ctx->observed_window_id);
    if (matches)
        json_object_set_new(o, "selector_matches", matches);
    if (strcmp(outcome, "process_exited") == 0)
        json_object_set_new(o, "process_state", json_string("exited"));
    if (last_error)
        json_object_set_new(o, "last_observation_error", last_error);
    json_object_set_new(o, "outcome", json_string(outcome));
    ad_error_detail(err, "post_action_observation", o);
    ad_selector_clear(&sel);
    free(instance);
}
