/* close_app.c: close-app (commands/app-window.md): quits the one running instance of APP and
 * succeeds only once that process instance is seen gone (details.evidence
 * "process_instance_exited"). Graceful asks each of its windows to close; --force sends the
 * terminate signal, then the kill signal. Protected system processes are refused. */
#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/ctx.h"
#include "core/deadline.h"
#include "core/lease.h"
#include "core/window_select.h"

#define LOOKUP_BUDGET_MS 5000
/* How long an app gets to quit after its close request, or after the terminate signal, and
 * after the kill signal (the kernel needs only to reap it). */
#define GRACEFUL_BUDGET_MS 10000
#define TERM_BUDGET_MS 3000
#define KILL_BUDGET_MS 2000
#define POLL_MS 20
/* While a graceful close waits, its windows are read this often for a save prompt. */
#define PROMPT_CHECK_MS 250

static json_t *step(const char *label, const char *outcome, bool verified)
{
    json_t *s = json_pack("{s:s, s:s, s:s}", "label", label, "mechanism", "semantic_api",
                          "outcome", outcome);
    if (verified)
        json_object_set_new(s, "verified", json_true());
    return s;
}

static json_t *report(const ad_app *app, const char *method, ad_delivery delivery,
                      const char *evidence, json_t *steps)
{
    json_t *process = json_pack("{s:i}", "pid", app->pid);
    json_object_set_new(process, "instance", app->process_instance
                                                 ? json_string(app->process_instance)
                                                 : json_null());
    return json_pack("{s:s, s:s, s:{s:s}, s:o, s:s, s:o, s:{s:s, s:s, s:o}}", "action",
                     "close-app", "app", app->name, "details", "evidence", evidence,
                     "disposition", ad_disposition_json(delivery), "method", method, "steps",
                     steps, "target", "kind", "app", "name", app->name, "process", process);
}

/* The close request (request < 0) or a signal (0 terminate, 1 kill) under the interaction
 * lease, like every mutation (AD_LEASE_DELIVERY): the waits for the exit run without it.
 * -1 with TIMEOUT (lock_timeout) when another holder kept the lease; *ret_lease_failed
 * tells that failure from the request's own. */
static int leased_request(ad_ctx *ctx, const ad_app *app, int request, int *ret_asked,
                          bool *ret_lease_failed, ad_error *err)
{
    ad_lease lease = AD_LEASE_INIT;
    *ret_lease_failed = ad_lease_acquire(&lease, ad_deadline_after_ms(AD_LEASE_WAIT_MS),
                                         err) < 0;
    if (*ret_lease_failed)
        return -1;
    const ad_adapter_ops *ops = ctx->adapter->ops;
    int rc = request < 0 ? ops->close_windows(ctx->adapter, app->pid, ret_asked, err)
                        : ops->signal_process(ctx->adapter, app->pid, app->process_instance,
                                              request == 1, err);
    ad_lease_release(&lease);
    return rc;
}

static bool alive(ad_ctx *ctx, const ad_app *app)
{
    return ctx->adapter->ops->process_alive(ctx->adapter, app->pid, app->process_instance);
}

/* Polls until the instance is gone (true) or until_us (false). */
static bool wait_gone(ad_ctx *ctx, const ad_app *app, int64_t until_us)
{
    for (;;) {
        if (!alive(ctx, app))
            return true;
        if (ad_now_us() >= until_us)
            return false;
        ad_wait_next_poll(ctx, POLL_MS, until_us);
    }
}

/* A dialog or alert window of the app (a save prompt), copied into *ret. */
static bool prompt_window(ad_ctx *ctx, const ad_app *app, ad_window *ret)
{
    ad_app_list one = {.items = (ad_app *)app, .count = 1, .complete = true};
    ad_window_list wins = {0};
    ad_error ignored = AD_ERROR_INIT;
    bool found = false;
    if (ctx->adapter->ops->list_windows(ctx->adapter, &one,
                                        ad_deadline_after_ms(PROMPT_CHECK_MS * 4), &wins,
                                        &ignored) == 0)
        for (size_t i = 0; i < wins.count && !found; i++) {
            const ad_window *w = &wins.items[i];
            if (w->modal || (w->kind && (strcmp(w->kind, "dialog") == 0 ||
                                         strcmp(w->kind, "alert") == 0)))
                found = ad_window_copy(ret, w) == 0;
        }
    ad_window_list_clear(&wins);
    ad_error_clear(&ignored);
    return found;
}

static int prompt_error(const ad_app *app, const ad_window *w, ad_error *err)
{
    ad_error_set(err, AD_ACTION_FAILED, "'%s' asked a question before quitting (\"%s\") and "
                 "is still running", app->name, w->title ? w->title : "");
    ad_error_suggest(err, "Read it with snapshot --app %s --surface sheet, answer it, then run "
                          "close-app again", app->name);
    ad_error_detail(err, "kind", json_string("close_prompt"));
    ad_error_detail(err, "prompt", ad_window_json(w));
    ad_error_detail(err, "pid", json_integer(app->pid));
    err->delivery = AD_DELIVERED_UNVERIFIED;
    return -1;
}

static int still_running(const ad_app *app, const char *why, ad_error *err)
{
    ad_error_set(err, AD_TIMEOUT, "'%s' (pid %d) is still running %s", app->name, app->pid,
                 why);
    ad_error_suggest(err, "Run close-app %s --force to terminate it", app->name);
    ad_error_detail(err, "kind", json_string("process_still_running"));
    ad_error_detail(err, "pid", json_integer(app->pid));
    err->delivery = AD_DELIVERED_UNVERIFIED;
    return -1;
}

static int close_graceful(ad_ctx *ctx, const ad_app *app, json_t **ret_data, ad_error *err)
{
    int asked = 0;
    bool lease_failed;
    if (leased_request(ctx, app, -1, &asked, &lease_failed, err) < 0)
        return -1;
    if (asked == 0) {
        ad_error_set(err, AD_ACTION_FAILED, "'%s' (pid %d) has no window to close",
                     app->name, app->pid);
        ad_error_suggest(err, "Run close-app %s --force to terminate it", app->name);
        ad_error_detail(err, "kind", json_string("no_window"));
        return -1;
    }
    int64_t deadline = ad_deadline_after_ms(GRACEFUL_BUDGET_MS);
    for (;;) {
        int64_t check = ad_deadline_within(deadline, 0, PROMPT_CHECK_MS);
        if (wait_gone(ctx, app, check))
            break;
        ad_window prompt = {0};
        if (prompt_window(ctx, app, &prompt)) {
            int rc = prompt_error(app, &prompt, err);
            ad_window_clear(&prompt);
            return rc;
        }
        if (ad_now_us() >= deadline)
            return still_running(app, "after its windows were asked to close", err);
    }
    json_t *steps = json_pack("[o, o]", step("terminate_request", "succeeded", false),
                              step("process_exit", "succeeded", true));
    *ret_data = report(app, "graceful", AD_DELIVERED_VERIFIED, "process_instance_exited",
                       steps);
    return 0;
}

static int close_force(ad_ctx *ctx, const ad_app *app, json_t **ret_data, ad_error *err)
{
    json_t *steps = json_array();
    bool gone = false, lease_failed;
    if (leased_request(ctx, app, 0, NULL, &lease_failed, err) == 0) {
        json_array_append_new(steps, step("terminate_signal", "succeeded", false));
        gone = wait_gone(ctx, app, ad_deadline_after_ms(TERM_BUDGET_MS));
    } else if (lease_failed || alive(ctx, app)) {
        json_decref(steps);
        return -1;
    } else { /* it exited between the lookup and the signal */
        ad_error_clear(err);
        gone = true;
    }
    if (!gone) {
        if (leased_request(ctx, app, 1, NULL, &lease_failed, err) == 0) {
            json_array_append_new(steps, step("kill_signal", "succeeded", false));
        } else if (lease_failed) {
            json_decref(steps);
            err->delivery = AD_DELIVERED_UNVERIFIED; /* the terminate signal went out */
            return -1;
        } else {
            ad_error_clear(err); /* gone in between, or refused: the exit check tells */
        }
        gone = wait_gone(ctx, app, ad_deadline_after_ms(KILL_BUDGET_MS));
    }
    if (!gone) {
        json_decref(steps);
        return still_running(app, "after the terminate and kill signals", err);
    }
    json_array_append_new(steps, step("process_exit", "succeeded", true));
    *ret_data = report(app, "force", AD_DELIVERED_VERIFIED, "process_instance_exited", steps);
    return 0;
}

int ad_cmd_close_app(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const ad_adapter_ops *ops = ctx->adapter->ops;
    if (!ops->protected_process || !ops->close_windows || !ops->signal_process)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "close-app is not available on "
                                                            "this platform");
    const char *name = ad_arg_str(args, "app");
    bool force = ad_arg_bool(args, "force");
    ad_app_list apps = {0};
    if (ad_app_one_instance(ctx, name, ad_deadline_after_ms(LOOKUP_BUDGET_MS), &apps, err) < 0)
        return -1;
    const ad_app *app = &apps.items[0];
    int rc = 0;
    const char *why = app->pid > 0 ? ops->protected_process(ctx->adapter, app->pid) : NULL;
    if (app->pid <= 0) {
        rc = ad_error_set(err, AD_ACTION_FAILED, "The process of '%s' is unknown", name);
        ad_error_suggest(err, "The app did not report its process id; quit it from its own "
                              "menu");
    } else if (why) {
        rc = ad_error_set(err, AD_INVALID_ARGS, "'%s' (pid %d) is %s and is never closed",
                          name, app->pid, why);
        ad_error_suggest(err, "close-app closes applications, not the desktop's own "
                              "processes");
        ad_error_detail(err, "kind", json_string("protected_process"));
        ad_error_detail(err, "pid", json_integer(app->pid));
    } else if (!alive(ctx, app)) {
        *ret_data = report(app, force ? "force" : "graceful", AD_NOT_DELIVERED,
                           "process_instance_not_running", json_array());
    } else {
        rc = force ? close_force(ctx, app, ret_data, err)
                   : close_graceful(ctx, app, ret_data, err);
    }
    ad_app_list_clear(&apps);
    return rc;
}
