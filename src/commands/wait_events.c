/* wait_events.c: wait --menu, --menu-closed and --event (commands/wait.md). Each compares
 * fresh reads with what it saw first; a read that failed is "not yet", never a change. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "commands/common.h"
#include "commands/wait_modes.h"
#include "core/ctx.h"
#include "core/surface.h"
#include "core/window_select.h"

#define POLL_MS 100

static void nap(ad_ctx *ctx, int64_t deadline)
{
    ad_wait_next_poll(ctx, POLL_MS, deadline);
}

static void arm(ad_ctx *ctx, int64_t read_deadline)
{
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, NULL, read_deadline);
}

int ad_wait_menu(ad_ctx *ctx, const json_t *args, bool closed, int64_t started,
                 int64_t timeout_ms, json_t **ret, ad_error *err)
{
    int64_t deadline = ad_deadline_add_ms(started, timeout_ms);
    arm(ctx, ad_wait_read_deadline(started, deadline));
    for (;;) {
        ad_surface s = {0};
        ad_error e = AD_ERROR_INIT;
        ad_read_limits lim = ad_read_limits_default(ad_wait_read_deadline(started, deadline));
        int rc = ad_surface_read(ctx, "menu", ad_arg_str(args, "app"), NULL, &lim, &s, &e);
        bool open = rc == 0;
        /* Closed only on a complete lookup that found no menu. */
        bool confirmed_closed = rc < 0 && e.code == AD_ELEMENT_NOT_FOUND && e.details &&
                                json_is_true(json_object_get(e.details, "complete"));
        bool final_error = rc < 0 && (e.code == AD_APP_NOT_FOUND ||
                                      e.code == AD_PLATFORM_NOT_SUPPORTED ||
                                      e.code == AD_AMBIGUOUS_TARGET);
        ad_surface_clear(&s);
        if (final_error) {
            ad_error_move(err, &e);
            return -1;
        }
        ad_error_clear(&e);
        if (closed ? confirmed_closed : open) {
            *ret = json_pack("{s:I, s:b}", "elapsed_ms",
                             (json_int_t)((ad_now_us() - started) / 1000), "found", 1);
            return 0;
        }
        if (ad_now_us() >= deadline)
            break;
        nap(ctx, deadline);
    }
    ad_error_set(err, AD_TIMEOUT, "The menu did not %s within %lldms", closed ? "close" : "open",
                 (long long)timeout_ms);
    ad_error_detail(err, "kind", json_string("wait_timeout"));
    ad_error_detail(err, "predicate", json_string(closed ? "menu_closed" : "menu"));
    ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
    return -1;
}

/* ---- events ----------------------------------------------------------------------------- */

typedef struct {
    ad_window_list wins;
    ad_app_list apps;
    json_t *surfaces; /* surface-* kinds only */
    bool ok;
} observation;

static void observation_clear(observation *o)
{
    ad_window_list_clear(&o->wins);
    ad_app_list_clear(&o->apps);
    json_decref(o->surfaces);
    memset(o, 0, sizeof(*o));
}

static bool app_named(const ad_app *a, const char *name)
{
    return !name || (a->name && strcasecmp(a->name, name) == 0) ||
           (a->bundle_id && strcasecmp(a->bundle_id, name) == 0) ||
           (a->desktop_name && strcasecmp(a->desktop_name, name) == 0);
}

static int observe(ad_ctx *ctx, const char *kind, int pid, int64_t deadline, observation *o)
{
    ad_error e = AD_ERROR_INIT;
    memset(o, 0, sizeof(*o));
    int rc = ctx->adapter->ops->list_apps(ctx->adapter, deadline, &o->apps, &e);
    if (rc == 0 && strncmp(kind, "surface", 7) == 0)
        o->surfaces = ad_surfaces_of_pid(ctx, pid, deadline);
    else if (rc == 0)
        rc = ctx->adapter->ops->list_windows(ctx->adapter, &o->apps, deadline, &o->wins, &e);
    ad_error_clear(&e);
    o->ok = rc == 0 && o->apps.complete && o->wins.unanswered == 0 &&
            (strncmp(kind, "surface", 7) != 0 || o->surfaces); /* unread is not "none" */
    return rc;
}

static bool window_in(const ad_window_list *l, const char *id)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].id, id) == 0)
            return true;
    return false;
}

static bool pid_in(const ad_app_list *l, int pid)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].pid == pid)
            return true;
    return false;
}

static bool surface_in(const json_t *list, const json_t *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) if (json_equal(v, s)) return true;
    return false;
}

static json_t *window_event(const char *kind, const ad_window *w)
{
    return json_pack("{s:s?, s:s, s:i, s:s?, s:s}", "app", w->app_name, "kind", kind, "pid",
                     w->pid, "title", w->title, "window_id", w->id);
}

static bool window_wanted(const json_t *args, const ad_window *w, int pid)
{
    const char *title = ad_arg_str(args, "window"), *id = ad_arg_str(args, "window_id");
    return (!pid || w->pid == pid) && (!title || (w->title && strcmp(w->title, title) == 0)) &&
           (!id || strcmp(w->id, id) == 0);
}

/* Compares a fresh observation with the baseline; returns the event or NULL. */
static json_t *diff(const char *kind, const json_t *args, const char *app, int pid,
                    const observation *base, const observation *now)
{
    if (strcmp(kind, "window-opened") == 0 || strcmp(kind, "focus-changed") == 0) {
        for (size_t i = 0; i < now->wins.count; i++) {
            const ad_window *w = &now->wins.items[i];
            if (!window_wanted(args, w, pid))
                continue;
            if (strcmp(kind, "window-opened") == 0 && !window_in(&base->wins, w->id))
                return window_event("window_opened", w);
            if (strcmp(kind, "focus-changed") == 0 && w->is_focused) {
                for (size_t j = 0; j < base->wins.count; j++)
                    if (strcmp(base->wins.items[j].id, w->id) == 0 &&
                        base->wins.items[j].is_focused)
                        return NULL;
                return window_event("focus_changed", w);
            }
        }
        return NULL;
    }
    if (strcmp(kind, "window-closed") == 0) {
        for (size_t i = 0; i < base->wins.count; i++) {
            const ad_window *w = &base->wins.items[i];
            if (window_wanted(args, w, pid) && !window_in(&now->wins, w->id) && now->ok)
                return window_event("window_closed", w);
        }
        return NULL;
    }
    if (strcmp(kind, "app-launched") == 0) {
        for (size_t i = 0; i < now->apps.count; i++) {
            const ad_app *a = &now->apps.items[i];
            if (app_named(a, app) && !pid_in(&base->apps, a->pid))
                return json_pack("{s:s?, s:s, s:i}", "app", a->name, "kind", "app_launched",
                                 "pid", a->pid);
        }
        return NULL;
    }
    if (strcmp(kind, "app-terminated") == 0) {
        return now->ok && !pid_in(&now->apps, pid)
                   ? json_pack("{s:s?, s:s, s:i}", "app", app, "kind", "app_terminated", "pid",
                               pid)
                   : NULL;
    }
    /* surface-appeared / surface-dismissed */
    bool appeared = strcmp(kind, "surface-appeared") == 0;
    const json_t *from = appeared ? base->surfaces : now->surfaces;
    const json_t *to = appeared ? now->surfaces : base->surfaces;
    size_t i;
    json_t *s;
    json_array_foreach(to, i, s) {
        const char *type = json_string_value(json_object_get(s, "type"));
        if (!type || strcmp(type, "window") == 0 || surface_in(from, s))
            continue;
        json_t *ev = json_pack("{s:s?, s:s, s:i, s:O}", "app", app, "kind",
                               appeared ? "surface_appeared" : "surface_dismissed", "pid", pid,
                               "surface", s);
        return ev;
    }
    return NULL;
}

/* A baseline read before the action (wait_modes.h). Only surface observations depend on the
 * process; the window and app lists are whole-desktop reads, so a process that --app names
 * only after the action (a launch) still finds its windows diffed against this one. */
struct ad_event_baseline {
    char *kind;
    int pid; /* the process --app named at capture (0: none) */
    observation base;
};

/* The one process --app names now into *ret_pid, or 0 when none does in a complete inventory.
 * Several running instances are AMBIGUOUS_TARGET (-1): the event would otherwise be watched
 * on whichever was listed first. With `strict`, a lookup that could not tell (an app that did
 * not answer is not an app that is gone) fails too (-1, err filled); without, it leaves 0
 * for the next poll. app-launched watches for a new process, so the ones already running are
 * only its baseline. */
static int resolve_pid(ad_ctx *ctx, const char *kind, const char *app, int64_t deadline,
                       bool strict, int *ret_pid, ad_error *err)
{
    ad_app_list l = {0};
    ad_error e = AD_ERROR_INIT;
    *ret_pid = 0;
    int rc = app ? strcmp(kind, "app-launched") == 0
                       ? ad_apps_matching(ctx, app, deadline, &l, &e)
                       : ad_app_one_instance(ctx, app, deadline, &l, &e)
                 : -1;
    if (rc == 0 && l.count >= 1)
        *ret_pid = l.items[0].pid;
    ad_app_list_clear(&l);
    if (app && rc < 0 &&
        (e.code == AD_AMBIGUOUS_TARGET || (strict && e.code != AD_APP_NOT_FOUND))) {
        ad_error_move(err, &e);
        return -1;
    }
    ad_error_clear(&e);
    return 0;
}

/* --app narrows --window-id here too: a window that exists now and belongs to another app
 * can never match, so the wait refuses it (WINDOW_NOT_FOUND window_not_of_app) instead of
 * timing out. A window not there yet may still open, so its absence is no refusal. */
static bool window_of_another_app(ad_ctx *ctx, const char *app, const char *window_id,
                                  int64_t deadline, ad_error *err)
{
    if (!app || !window_id)
        return false;
    ad_window w = {0};
    ad_error e = AD_ERROR_INIT;
    int rc = ad_window_by_id(ctx, app, window_id, deadline, &w, &e);
    ad_window_clear(&w);
    const char *kind = json_string_value(e.details ? json_object_get(e.details, "kind") : NULL);
    bool refused = rc < 0 && kind && strcmp(kind, "window_not_of_app") == 0;
    if (refused)
        ad_error_move(err, &e);
    ad_error_clear(&e);
    return refused;
}

int ad_wait_event_args_check(const json_t *given, ad_error *err)
{
    const char *kind = ad_arg_str(given, "event");
    bool surface = strncmp(kind, "surface", 7) == 0;
    bool window_kind = strstr(kind, "window") || strcmp(kind, "focus-changed") == 0;
    if ((ad_arg_has(given, "window") || ad_arg_has(given, "window_id")) && !window_kind)
        return ad_error_set(err, AD_INVALID_ARGS, "--window and --window-id apply only to "
                                                  "window-opened, window-closed and "
                                                  "focus-changed");
    if (surface && !ad_arg_has(given, "app"))
        return ad_error_set(err, AD_INVALID_ARGS, "--event %s needs --app", kind);
    return 0;
}

int ad_wait_event(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                  json_t **ret, ad_error *err)
{
    const char *kind = ad_arg_str(args, "event"), *app = ad_arg_str(args, "app");
    int64_t deadline = ad_deadline_add_ms(started, timeout_ms);
    int pid = 0;
    if (resolve_pid(ctx, kind, app, ad_wait_read_deadline(started, deadline), true, &pid,
                    err) < 0 ||
        window_of_another_app(ctx, app, ad_arg_str(args, "window_id"),
                              ad_wait_read_deadline(started, deadline), err))
        return -1;
    if (app && !pid) {
        if (strcmp(kind, "focus-changed") == 0) {
            ad_error_set(err, AD_APP_NOT_FOUND, "No running application matches '%s'", app);
            return -1;
        }
        if (strcmp(kind, "app-terminated") == 0 || strcmp(kind, "window-closed") == 0 ||
            strcmp(kind, "surface-dismissed") == 0) {
            *ret = json_pack("{s:I, s:b, s:b}", "elapsed_ms",
                             (json_int_t)((ad_now_us() - started) / 1000), "found", 1,
                             "target_unresolved", 1);
            return 0;
        }
    }
    observation own = {0};
    const observation *base = &own;
    arm(ctx, ad_wait_read_deadline(started, deadline));
    /* A baseline batch read before the action, when it watched the same process. */
    const ad_event_baseline *given = ctx->event_baseline;
    if (given && strcmp(given->kind, kind) == 0 &&
        (given->pid == pid || strncmp(kind, "surface", 7) != 0))
        base = &given->base;
    else
        observe(ctx, kind, pid, ad_wait_read_deadline(started, deadline), &own);
    for (;;) {
        nap(ctx, deadline);
        if (app && !pid && (strcmp(kind, "window-opened") == 0 ||
                            strcmp(kind, "surface-appeared") == 0) &&
            resolve_pid(ctx, kind, app, ad_wait_read_deadline(started, deadline), false, &pid,
                        err) < 0) {
            observation_clear(&own); /* racing a launch: two processes came up */
            return -1;
        }
        observation now;
        observe(ctx, kind, pid, ad_wait_read_deadline(started, deadline), &now);
        json_t *ev = diff(kind, args, app, pid, base, &now);
        observation_clear(&now);
        if (ev) {
            *ret = json_pack("{s:I, s:o, s:b}", "elapsed_ms",
                             (json_int_t)((ad_now_us() - started) / 1000), "event", ev,
                             "found", 1);
            observation_clear(&own);
            return 0;
        }
        if (ad_now_us() >= deadline)
            break;
    }
    ad_error_set(err, AD_TIMEOUT, "No %s event within %lldms", kind, (long long)timeout_ms);
    ad_error_detail(err, "kind", json_string("wait_timeout"));
    ad_error_detail(err, "predicate", json_string("event"));
    ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
    ad_error_detail(err, "baseline_counts",
                    json_pack("{s:I, s:I, s:I}", "apps", (json_int_t)base->apps.count,
                              "windows", (json_int_t)base->wins.count, "surfaces",
                              (json_int_t)json_array_size(base->surfaces)));
    observation_clear(&own);
    return -1;
}

/* ---- the baseline batch reads before the action ---------------------------------------- */

int ad_event_baseline_capture(ad_ctx *ctx, const json_t *args, int64_t deadline_us,
                              ad_event_baseline **ret, ad_error *err)
{
    const char *kind = ad_arg_str(args, "event"), *app = ad_arg_str(args, "app");
    if (!kind)
        return ad_error_set(err, AD_INTERNAL, "An event baseline needs wait --event");
    int pid = 0;
    /* Strict, as the wait is: an app that could not be told apart is no baseline. */
    if (resolve_pid(ctx, kind, app, deadline_us, true, &pid, err) < 0)
        return -1;
    ad_event_baseline *b = calloc(1, sizeof(*b));
    b->kind = strdup(kind);
    b->pid = pid;
    /* An incomplete read is a baseline the wait itself would accept; a failed one is not. */
    if (observe(ctx, kind, pid, deadline_us, &b->base) < 0) {
        ad_event_baseline_free(b);
        return ad_error_set(err, AD_APP_UNRESPONSIVE, "The --event %s baseline could not be "
                                                       "read from the desktop", kind);
    }
    *ret = b;
    return 0;
}

void ad_event_baseline_free(ad_event_baseline *b)
{
    if (!b)
        return;
    observation_clear(&b->base);
    free(b->kind);
    free(b);
}
