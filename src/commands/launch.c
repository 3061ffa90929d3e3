/* launch.c: launch (commands/app-window.md, platforms/linux.md "App naming").
 *
 * APP resolves to a verified executable (the adapter's launch_resolve). Unless --no-attach, a
 * running instance of it is the answer; otherwise the app starts detached, and launch returns
 * once its process runs and has registered on the accessibility bus, or when --timeout says it
 * did not (data.registered false). --activate also waits for a window and focuses it; --cdp
 * adds the loopback DevTools switches and waits until /json/version answers. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/ctx.h"
#include "core/deadline.h"
#include "core/trace_event.h"
#include "core/window_select.h"

/* Registration is polled (a bus-wide watch would wake on every other app's events). */
#define POLL_INTERVAL_MS 20
/* One /json/version GET gets this long; a Chromium still starting refuses at once. */
#define CDP_TRY_MS 1000
/* How far up a registered process's parents a launcher script we started may sit. */
#define MAX_LAUNCHER_DEPTH 8

/* The switches --cdp sets itself (guides/chromium-and-electron.md, "When --cdp fails"). */
static bool cdp_owned_switch(const char *arg)
{
    return strncmp(arg, "--remote-debugging-", 19) == 0 ||
           strncmp(arg, "--remote-allow-origins", 22) == 0;
}

int ad_launch_args_check(const json_t *given, const json_t *args, ad_error *err)
{
    (void)given;
    const json_t *env = json_object_get(args, "env");
    for (size_t i = 0; i < json_array_size(env); i++) {
        const char *kv = json_string_value(json_array_get(env, i));
        const char *eq = kv ? strchr(kv, '=') : NULL;
        if (!eq || eq == kv) {
            ad_error_set(err, AD_INVALID_ARGS, "--env '%s' is not KEY=VALUE", kv ? kv : "");
            ad_error_suggest(err, "Write each variable as --env KEY=VALUE");
            return -1;
        }
        for (size_t j = 0; j < i; j++) {
            const char *prev = json_string_value(json_array_get(env, j));
            if (strncmp(prev, kv, (size_t)(eq - kv) + 1) == 0) {
                ad_error_set(err, AD_INVALID_ARGS, "--env sets %.*s more than once",
                             (int)(eq - kv), kv);
                ad_error_suggest(err, "Give each --env KEY once");
                ad_error_detail(err, "kind", json_string("env_key_repeated"));
                return -1;
            }
        }
    }
    if (!json_object_get(args, "cdp"))
        return 0;
    const json_t *list = json_object_get(args, "arg");
    for (size_t i = 0; i < json_array_size(list); i++) {
        const char *a = json_string_value(json_array_get(list, i));
        if (a && cdp_owned_switch(a)) {
            ad_error_set(err, AD_INVALID_ARGS, "--arg %s sets a remote-debugging switch that "
                                               "--cdp owns", a);
            ad_error_suggest(err, "Drop that --arg; --cdp PORT chooses the port");
            ad_error_detail(err, "kind", json_string("cdp_switch_conflict"));
            return -1;
        }
    }
    return 0;
}

/* The running instance of t: 1 with it in *ret (the caller frees), 0 when none runs (an
 * inventory that did not finish counts as none: the launch then shows what runs), -1 with
 * AMBIGUOUS_TARGET when several do, or APP_UNRESPONSIVE when it is there and silent. */
static int running_instance(ad_ctx *ctx, const ad_launch_target *t, int64_t deadline,
                            ad_app_list *ret, ad_error *err)
{
    const char *names[] = {t->name, t->desktop_id};
    for (size_t i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        ad_error miss = AD_ERROR_INIT;
        if (ad_app_one_instance(ctx, names[i], deadline, ret, &miss) == 0)
            return 1;
        bool none = miss.code == AD_APP_NOT_FOUND || miss.code == AD_TIMEOUT;
        if (!none) {
            ad_error_move(err, &miss);
            return -1;
        }
        ad_error_clear(&miss);
    }
    return 0;
}

/* True when app_pid is pid or one of its descendants (a launcher script's child). */
static bool started_by(ad_ctx *ctx, int app_pid, int pid)
{
    for (int depth = 0; app_pid > 1 && depth < MAX_LAUNCHER_DEPTH; depth++) {
        if (app_pid == pid)
            return true;
        app_pid = ctx->adapter->ops->process_parent
                      ? ctx->adapter->ops->process_parent(ctx->adapter, app_pid)
                      : 0;
    }
    return false;
}

/* The registered app that pid started, copied into *ret; false when none has registered. */
static bool registered_app(ad_ctx *ctx, int pid, int64_t deadline, ad_app *ret)
{
    ad_app_list apps = {0};
    ad_error ignored = AD_ERROR_INIT;
    bool found = false;
    if (ctx->adapter->ops->list_apps(ctx->adapter, deadline, &apps, &ignored) == 0)
        for (size_t i = 0; i < apps.count && !found; i++)
            if (apps.items[i].pid > 0 && started_by(ctx, apps.items[i].pid, pid))
                found = ad_app_copy(ret, &apps.items[i]) == 0;
    ad_app_list_clear(&apps);
    ad_error_clear(&ignored);
    return found;
}

/* The app's window that the narrowing steps pick (or its first), copied into *ret. */
static bool app_window(ad_ctx *ctx, const ad_app *app, int64_t deadline, ad_window *ret)
{
    ad_app_list one = {.items = (ad_app *)app, .count = 1, .complete = true};
    ad_window_list wins = {0};
    ad_error ignored = AD_ERROR_INIT;
    bool found = false;
    if (ctx->adapter->ops->list_windows(ctx->adapter, &one, deadline, &wins, &ignored) == 0 &&
        wins.count > 0) {
        bool *keep = calloc(wins.count, sizeof(bool));
        int pick = keep ? ad_window_narrow(wins.items, wins.count, keep) : -1;
        found = ad_window_copy(ret, &wins.items[pick >= 0 ? pick : 0]) == 0;
        free(keep);
    }
    ad_window_list_clear(&wins);
    ad_error_clear(&ignored);
    return found;
}

/* --activate: focus the window (physical focus, verified by the adapter). */
static int activate_window(ad_ctx *ctx, const ad_window *w, int64_t deadline, ad_error *err)
{
    ad_phys_req req = {.kind = AD_PHYS_FOCUS, .focus_window_id = w->id, .window_pid = w->pid,
                       .window_title = w->title};
    ad_act_result res = {0};
    return ctx->adapter->ops->physical(ctx->adapter, &req, deadline, &res, err);
}

/* What launch waits for, and what it saw. */
typedef struct {
    int pid;                /* the process we started, or the attached one */
    char *instance;         /* its instance token (owned) */
    ad_app app;             /* the registered app, when registered */
    bool registered;
    ad_window window;       /* when it has one */
    bool has_window;
    bool activated;         /* --activate: the window manager reports it focused */
    int cdp_port;           /* -1: no --cdp */
    json_t *cdp_version;    /* the /json/version document once verified (owned) */
} launch_state;

static void state_clear(launch_state *s)
{
    free(s->instance);
    ad_app_clear(&s->app);
    ad_window_clear(&s->window);
    json_decref(s->cdp_version);
}

static bool still_running(ad_ctx *ctx, const launch_state *s)
{
    const ad_adapter_ops *ops = ctx->adapter->ops;
    return ops->process_alive(ctx->adapter, s->pid, s->instance) ||
           (s->registered &&
            ops->process_alive(ctx->adapter, s->app.pid, s->app.process_instance));
}

/* Polls until the process registered (and, with --cdp, the endpoint answered; with
 * --activate, a window showed) or the deadline. APP_UNRESPONSIVE when it exits first. */
static int await_start(ad_ctx *ctx, launch_state *s, bool activate, int64_t deadline,
                       ad_error *err)
{
    const ad_adapter_ops *ops = ctx->adapter->ops;
    for (;;) {
        if (!s->registered)
            s->registered = registered_app(ctx, s->pid, deadline, &s->app);
        if (s->cdp_port >= 0 && !s->cdp_version) {
            ad_error ignored = AD_ERROR_INIT;
            if (ops->cdp_version(ctx->adapter, s->cdp_port, ad_deadline_within(deadline, 0,
                                 CDP_TRY_MS), &s->cdp_version, &ignored) < 0)
                s->cdp_version = NULL;
            ad_error_clear(&ignored);
        }
        if (s->registered && !s->has_window)
            s->has_window = app_window(ctx, &s->app, deadline, &s->window);
        /* The accessible window can come before the X11 one is managed: until then focusing
         * it finds no window, and the next pass tries again. */
        if (activate && s->has_window && !s->activated) {
            ad_error focus = AD_ERROR_INIT;
            s->activated = activate_window(ctx, &s->window, deadline, &focus) == 0;
            if (!s->activated && focus.code != AD_WINDOW_NOT_FOUND) {
                ad_error_move(err, &focus);
                return -1;
            }
            ad_error_clear(&focus);
        }
        bool done = s->registered && (s->cdp_port < 0 || s->cdp_version) &&
                    (!activate || s->activated);
        if (done)
            return 0;
        if (!still_running(ctx, s)) {
            ad_error_set(err, AD_APP_UNRESPONSIVE, "The app (pid %d) exited before it showed "
                         "a window", s->pid);
            ad_error_suggest(err, "Run the command in a terminal to read why it exits; an app "
                                  "that hands off to a running instance exits at once");
            ad_error_detail(err, "pid", json_integer(s->pid));
            err->delivery = AD_DELIVERED_UNVERIFIED;
            return -1;
        }
        if (ad_now_us() >= deadline)
            return 0;
        ad_wait_next_poll(ctx, POLL_INTERVAL_MS, deadline);
    }
}

static json_t *cdp_json(const launch_state *s)
{
    const json_t *v = s->cdp_version;
    char endpoint[64];
    snprintf(endpoint, sizeof(endpoint), "http://127.0.0.1:%d", s->cdp_port);
    json_t *o = json_pack("{s:s, s:i}", "http_endpoint", endpoint, "port", s->cdp_port);
    const char *product = json_string_value(json_object_get(v, "Browser"));
    const char *ws = json_string_value(json_object_get(v, "webSocketDebuggerUrl"));
    json_object_set_new(o, "product", product ? json_string(product) : json_null());
    json_object_set_new(o, "websocket_url", ws ? json_string(ws) : json_null());
    return o;
}

/* The result, or the error for what --cdp or --activate did not get by the deadline. */
static int finish(ad_ctx *ctx, launch_state *s, const ad_launch_target *t, bool activate,
                  bool attached, int64_t deadline, json_t **ret_data, ad_error *err)
{
    const ad_adapter_ops *ops = ctx->adapter->ops;
    int pid = s->registered ? s->app.pid : s->pid;
    const char *instance = s->registered ? s->app.process_instance : s->instance;
    if (s->cdp_port >= 0 && !s->cdp_version) {
        ad_error_set(err, AD_ACTION_FAILED, "The app started (pid %d) but no DevTools endpoint "
                     "answered on 127.0.0.1:%d", pid, s->cdp_port);
        ad_error_suggest(err, "The app stays running: close it with close-app, then launch a "
                              "Chromium or Electron app with --cdp and a larger --timeout");
        ad_error_detail(err, "kind", json_string("cdp_endpoint_unavailable"));
        ad_error_detail(err, "pid", json_integer(pid));
        ad_error_detail(err, "port", json_integer(s->cdp_port));
        err->delivery = AD_DELIVERED_UNVERIFIED;
        return -1;
    }
    if (activate && !s->activated) {
        ad_error_set(err, AD_TIMEOUT, "The app (pid %d) showed no window it could focus "
                     "before --timeout", pid);
        ad_error_suggest(err, "The app stays running; retry with a larger --timeout, or read "
                              "list-windows --app %s", s->registered ? s->app.name : t->name);
        ad_error_detail(err, "kind", json_string("window_not_shown"));
        ad_error_detail(err, "pid", json_integer(pid));
        err->delivery = AD_DELIVERED_UNVERIFIED;
        return -1;
    }
    if (activate) { /* the row as it is now, focused */
        ad_window now = {0};
        if (app_window(ctx, &s->app, deadline, &now)) {
            ad_window_clear(&s->window);
            s->window = now;
        }
    }
    json_t *d = json_object();
    json_object_set_new(d, "app", json_string(s->registered ? s->app.name : t->name));
    if (attached)
        json_object_set_new(d, "attached", json_true());
    if (s->cdp_version)
        json_object_set_new(d, "cdp", cdp_json(s));
    json_object_set_new(d, "pid", json_integer(pid));
    json_object_set_new(d, "process_instance", instance ? json_string(instance) : json_null());
    if (!s->registered) {
        json_object_set_new(d, "registered", json_false());
        json_object_set_new(d, "suggestion",
                            json_string("The process runs but has not registered on the "
                                        "accessibility bus before --timeout; a Chromium app "
                                        "needs --arg=--force-renderer-accessibility and --env "
                                        "ACCESSIBILITY_ENABLED=1"));
    } else if (s->cdp_version) {
        char text[256];
        snprintf(text, sizeof(text), "Next: run `agent-browser connect %d` or connect any CDP "
                 "client to data.cdp.websocket_url", s->cdp_port);
        json_object_set_new(d, "suggestion", json_string(text));
    }
    if (ops->is_chromium && ops->is_chromium(ctx->adapter, pid))
        json_object_set_new(d, "renderer", json_string("chromium"));
    if (s->has_window)
        json_object_set_new(d, "window", ad_window_json(&s->window));
    *ret_data = d;
    return 0;
}

/* Starts the app with --cdp's switches after its own --arg values. */
static int start(ad_ctx *ctx, const ad_launch_target *t, const json_t *args, launch_state *s,
                 ad_error *err)
{
    json_t *argv = json_copy(json_object_get(args, "arg"));
    if (!argv)
        argv = json_array();
    if (s->cdp_port >= 0) {
        char port_switch[48];
        snprintf(port_switch, sizeof(port_switch), "--remote-debugging-port=%d", s->cdp_port);
        json_array_append_new(argv, json_string(port_switch));
        json_array_append_new(argv, json_string("--remote-debugging-address=127.0.0.1"));
    }
    ad_launch_req req = {.args = argv, .env = json_object_get(args, "env"),
                         .cwd = ad_arg_str(args, "cwd")};
    int rc = ctx->adapter->ops->launch_spawn(ctx->adapter, t, &req, &s->pid, &s->instance, err);
    json_decref(argv);
    return rc;
}

/* --cdp's port: the one given when it is free, or a free one for 0. */
static int choose_cdp_port(ad_ctx *ctx, int wanted, int *ret_port, ad_error *err)
{
    int r = ctx->adapter->ops->loopback_port(ctx->adapter, wanted, ret_port, err);
    if (r < 0)
        return -1;
    if (wanted == 0)
        return 0;
    if (r == 1) {
        ad_error_set(err, AD_INVALID_ARGS, "Port %d is already bound on loopback", wanted);
        ad_error_suggest(err, "Pass another port, or --cdp alone to pick a free one");
        ad_error_detail(err, "kind", json_string("cdp_port_in_use"));
        ad_error_detail(err, "port", json_integer(wanted));
        return -1;
    }
    *ret_port = wanted;
    return 0;
}

static int cdp_refused_running(const ad_app *app, ad_error *err)
{
    ad_error_set(err, AD_ACTION_FAILED, "'%s' is already running (pid %d); --cdp needs a "
                 "fresh launch", app->name, app->pid);
    ad_error_suggest(err, "Run close-app %s, confirm it exited, then launch again with --cdp",
                     app->name);
    ad_error_detail(err, "kind", json_string("cdp_requires_fresh_launch"));
    ad_error_detail(err, "pid", json_integer(app->pid));
    return -1;
}

int ad_cmd_launch(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const ad_adapter_ops *ops = ctx->adapter->ops;
    if (!ops->launch_resolve || !ops->launch_spawn || !ops->loopback_port ||
        !ops->cdp_version)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "launch is not available on this "
                                                            "platform");
    int64_t deadline = ad_deadline_from(args, "timeout");
    bool activate = ad_arg_bool(args, "activate");
    launch_state s = {.cdp_port = -1};
    ad_launch_target t = {0};
    ad_app_list running = {0};
    int rc = -1;
    /* An argument error whatever happens next: a launch that would attach to a running
     * instance still refuses a --cwd that is not a directory. */
    const char *cwd = ad_arg_str(args, "cwd");
    struct stat st;
    if (cwd && (stat(cwd, &st) < 0 || !S_ISDIR(st.st_mode))) {
        ad_error_set(err, AD_INVALID_ARGS, "--cwd '%s' is not a directory", cwd);
        ad_error_suggest(err, "Pass an existing directory to --cwd");
        goto out;
    }
    if (ops->launch_resolve(ctx->adapter, ad_arg_str(args, "app"), &t, err) < 0)
        goto out;
    bool cdp = ad_arg_has(args, "cdp");
    int found = 0;
    if (!ad_arg_bool(args, "no_attach") || cdp)
        found = running_instance(ctx, &t, deadline, &running, err);
    if (found < 0)
        goto out;
    if (found && cdp) {
        rc = cdp_refused_running(&running.items[0], err);
        goto out;
    }
    if (found && !ad_arg_bool(args, "no_attach")) {
        ad_app_copy(&s.app, &running.items[0]);
        s.registered = true;
        s.pid = s.app.pid;
        s.instance = s.app.process_instance ? strdup(s.app.process_instance) : NULL;
        if (await_start(ctx, &s, activate, deadline, err) == 0)
            rc = finish(ctx, &s, &t, activate, true, deadline, ret_data, err);
        goto out;
    }
    if (cdp && choose_cdp_port(ctx, (int)ad_arg_int(args, "cdp"), &s.cdp_port, err) < 0)
        goto out;
    if (start(ctx, &t, args, &s, err) < 0)
        goto out;
    ad_trace_event(ctx, "app_spawned", json_pack("{s:s, s:i}", "program", t.program, "pid",
                                                 s.pid));
    if (await_start(ctx, &s, activate, deadline, err) == 0)
        rc = finish(ctx, &s, &t, activate, false, deadline, ret_data, err);
out:
    ad_app_list_clear(&running);
    ad_launch_target_clear(&t);
    state_clear(&s);
    return rc;
}
