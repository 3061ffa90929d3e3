/* window_select.c: --app / --window-id / focused window selection. */
#include "core/window_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool app_matches(const ad_app *a, const char *want)
{
    return (a->name && strcasecmp(a->name, want) == 0) ||
           (a->bundle_id && strcasecmp(a->bundle_id, want) == 0) ||
           (a->desktop_name && strcasecmp(a->desktop_name, want) == 0);
}

json_t *ad_app_skips_json(const ad_app_list *apps)
{
    json_t *sk = json_array();
    for (size_t i = 0; i < apps->n_skipped; i++) {
        const ad_app_skip *s = &apps->skipped[i];
        json_t *o = json_pack("{s:s, s:s}", "handle", s->handle ? s->handle : "", "reason",
                              s->reason);
        if (s->pid > 0)
            json_object_set_new(o, "pid", json_integer(s->pid));
        if (s->executable)
            json_object_set_new(o, "executable", json_string(s->executable));
        json_array_append_new(sk, o);
    }
    return sk;
}

/* The skipped app whose executable is named `want`, preferring one that is unresponsive (the
 * name of an app that did not answer is unknown; its executable is the one clue). */
static const ad_app_skip *skipped_named(const ad_app_list *all, const char *want)
{
    const ad_app_skip *found = NULL;
    for (size_t i = 0; i < all->n_skipped; i++) {
        const ad_app_skip *s = &all->skipped[i];
        if (s->executable && strcasecmp(s->executable, want) == 0 &&
            (!found || strcmp(s->reason, "unresponsive") == 0))
            found = s;
    }
    return found;
}

/* No app answered as `app` and the inventory is incomplete: the app is unknown, not absent. */
static int lookup_incomplete(const ad_app_list *all, const char *app, ad_error *err)
{
    const ad_app_skip *s = skipped_named(all, app);
    if (s && strcmp(s->reason, "unresponsive") == 0) {
        ad_error_set(err, AD_APP_UNRESPONSIVE, "'%s' (pid %d) did not answer", app, s->pid);
        ad_error_suggest(err, "The application may be stopped or busy; retry after a moment");
        ad_error_detail(err, "kind", json_string("app_unresponsive"));
        ad_error_detail(err, "pid", json_integer(s->pid));
    } else {
        ad_error_set(err, AD_TIMEOUT, "The app inventory did not finish before the deadline");
        ad_error_suggest(err, "Retry with a larger --timeout-ms");
        ad_error_detail(err, "kind", json_string("inventory_incomplete"));
    }
    ad_error_detail(err, "skipped", ad_app_skips_json(all));
    return -1;
}

int ad_apps_matching(ad_ctx *ctx, const char *app, int64_t deadline_us, ad_app_list *ret,
                     ad_error *err)
{
    ad_app_list all = {0};
    if (ctx->adapter->ops->list_apps(ctx->adapter, deadline_us, &all, err) < 0)
        return -1;
    memset(ret, 0, sizeof(*ret));
    /* Only the matches travel on: another app that did not answer is no part of this one's
     * answer (it never blocks --app), so ret->complete says whether the match is whole. */
    ret->complete = all.complete;
    ret->items = calloc(all.count ? all.count : 1, sizeof(ad_app));
    for (size_t i = 0; ret->items && i < all.count; i++)
        if (app_matches(&all.items[i], app))
            ad_app_copy(&ret->items[ret->count++], &all.items[i]);
    int rc = 0;
    if (ret->count == 0) {
        ad_app_list_clear(ret);
        if (!all.complete) {
            rc = lookup_incomplete(&all, app, err);
        } else {
            ad_error_set(err, AD_APP_NOT_FOUND, "No running application matches '%s'", app);
            /* launch is not in this build: the user starts the app. */
            ad_error_suggest(err, "Check the name with list-apps, or start the app and retry");
            rc = -1;
        }
    }
    ad_app_list_clear(&all);
    return rc;
}

int ad_windows_unanswered_error(const ad_window_list *wins, const char *app, ad_error *err)
{
    const char *who = app ? app : "An application";
    if (wins->unresponsive > 0) {
        ad_error_set(err, AD_APP_UNRESPONSIVE, "%s%s%s did not answer for its windows",
                     app ? "'" : "", who, app ? "'" : "");
        ad_error_suggest(err, "The application may be stopped or busy; retry after a moment");
        ad_error_detail(err, "kind", json_string("app_unresponsive"));
    } else {
        ad_error_set(err, AD_TIMEOUT, "%s%s%s did not list its windows before the deadline",
                     app ? "'" : "", who, app ? "'" : "");
        ad_error_suggest(err, "Retry with a larger --timeout-ms");
        ad_error_detail(err, "kind", json_string("deadline"));
    }
    return -1;
}

static bool narrow_pass(const ad_window *w, int step)
{
    /* Step 0 sets aside a top level that only carries a popup menu (a GTK3 context menu
     * takes the focus from its window): the app's window is the one behind it. */
    return step == 0   ? !(w->kind && strcmp(w->kind, "menu") == 0)
           : step == 1 ? w->visible
           : step == 2 ? w->is_focused
                       : w->accessible;
}

int ad_window_narrow(const ad_window *wins, size_t count, bool *keep)
{
    for (size_t i = 0; i < count; i++)
        keep[i] = true;
    if (count == 1)
        return 0;
    /* Each step keeps the windows that pass it, unless none does (then it is skipped), and
     * stops as soon as exactly one is left. */
    for (int step = 0; step < 4; step++) {
        size_t left = 0, last = 0;
        for (size_t i = 0; i < count; i++)
            if (keep[i] && narrow_pass(&wins[i], step)) {
                left++;
                last = i;
            }
        if (left == 1)
            return (int)last;
        if (left > 1)
            for (size_t i = 0; i < count; i++)
                keep[i] = keep[i] && narrow_pass(&wins[i], step);
    }
    return -1;
}

static json_t *candidate_json(const ad_window *w)
{
    return json_pack("{s:s, s:s?, s:s?, s:i}", "id", w->id, "title", w->title, "app_name",
                     w->app_name, "pid", w->pid);
}

/* AMBIGUOUS_TARGET listing up to 10 of the windows with keep[i] set (all when keep is NULL);
 * `what` says what was ambiguous. */
static int ambiguous(const ad_ctx *ctx, const ad_window_list *wins, const bool *keep,
                     const char *app, const char *what, ad_error *err)
{
    json_t *c = json_array();
    size_t left = 0;
    for (size_t i = 0; i < wins->count; i++)
        if ((!keep || keep[i]) && left++ < 10)
            json_array_append_new(c, candidate_json(&wins->items[i]));
    ad_error_set(err, AD_AMBIGUOUS_TARGET, "'%s' has %s", app, what);
    /* A suggestion names only flags the running command takes (dispatch/suggestion.c). */
    if (ad_ctx_takes_flag(ctx, "window-id"))
        ad_error_suggest(err, "Run list-windows --app %s and pass --window-id with the id of "
                              "the window to use", app);
    else
        ad_error_suggest(err, "Run list-windows --app %s to see them, then snapshot "
                              "--window-id ID to read one", app);
    ad_error_detail(err, "candidates", c);
    return -1;
}

/* An app registered more than once by one process is still one instance; an unknown pid
 * (0) cannot be told apart from another, so it counts on its own. */
static size_t instance_count(const ad_app_list *apps)
{
    size_t n = 0;
    for (size_t i = 0; i < apps->count; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && apps->items[i].pid > 0; j++)
            seen = seen || apps->items[j].pid == apps->items[i].pid;
        n += !seen;
    }
    return n;
}

int ad_app_one_instance(ad_ctx *ctx, const char *app, int64_t deadline_us, ad_app_list *ret,
                        ad_error *err)
{
    if (ad_apps_matching(ctx, app, deadline_us, ret, err) < 0)
        return -1;
    size_t instances = instance_count(ret);
    if (instances <= 1)
        return 0;
    /* The candidates are the instances' windows, best effort: their ids are the way out. */
    ad_window_list wins = {0};
    ad_error ignored = AD_ERROR_INIT;
    ctx->adapter->ops->list_windows(ctx->adapter, ret, deadline_us, &wins, &ignored);
    ad_error_clear(&ignored);
    char what[64];
    snprintf(what, sizeof(what), "%zu running instances", instances);
    ambiguous(ctx, &wins, NULL, app, what, err);
    ad_error_detail(err, "instance_count", json_integer((json_int_t)instances));
    ad_window_list_clear(&wins);
    ad_app_list_clear(ret);
    return -1;
}

int ad_app_instance_windows(ad_ctx *ctx, const char *app, int64_t deadline_us,
                            ad_window_list *ret, ad_error *err)
{
    ad_app_list apps = {0};
    memset(ret, 0, sizeof(*ret));
    if (ad_app_one_instance(ctx, app, deadline_us, &apps, err) < 0)
        return -1;
    int rc = ctx->adapter->ops->list_windows(ctx->adapter, &apps, deadline_us, ret, err);
    ad_app_list_clear(&apps);
    return rc;
}

/* Does the window belong to one of the apps --app names? By process when both pids are
 * known, else by the app name the window reports. */
static bool window_of_apps(const ad_window *w, const ad_app_list *apps)
{
    for (size_t i = 0; i < apps->count; i++) {
        const ad_app *a = &apps->items[i];
        if (w->pid > 0 && a->pid > 0 ? w->pid == a->pid
                                     : w->app_name && app_matches(a, w->app_name))
            return true;
    }
    return false;
}

int ad_window_by_id(ad_ctx *ctx, const char *app, const char *window_id, int64_t deadline_us,
                    ad_window *ret, ad_error *err)
{
    ad_adapter *a = ctx->adapter;
    memset(ret, 0, sizeof(*ret));
    if (a->ops->window_lookup(a, window_id, deadline_us, ret, err) < 0)
        return -1;
    if (!app || (ret->app_name && strcasecmp(ret->app_name, app) == 0))
        return 0;
    /* --app may be a desktop entry name or id: ask the inventory which processes it names. */
    ad_app_list apps = {0};
    if (ad_apps_matching(ctx, app, deadline_us, &apps, err) < 0) {
        ad_window_clear(ret);
        return -1;
    }
    bool ours = window_of_apps(ret, &apps), complete = apps.complete;
    ad_app_list_clear(&apps);
    if (ours)
        return 0;
    char *owner = ret->app_name ? strdup(ret->app_name) : NULL;
    ad_window_clear(ret);
    if (!complete) { /* the owner may be an instance that did not answer: unknown */
        free(owner);
        ad_error_set(err, AD_TIMEOUT, "The app inventory did not finish before the deadline");
        ad_error_detail(err, "kind", json_string("inventory_incomplete"));
        return -1;
    }
    ad_error_set(err, AD_WINDOW_NOT_FOUND, "Window '%s' is not a window of '%s'", window_id,
                 app);
    ad_error_suggest(err, "Run list-windows --app %s and use an id it reports, or drop --app",
                     app);
    ad_error_detail(err, "kind", json_string("window_not_of_app"));
    if (owner)
        ad_error_detail(err, "window_app", json_string(owner));
    free(owner);
    return -1;
}

/* Does the window's title contain `title` (case-insensitive)? */
static bool title_has(const ad_window *w, const char *title)
{
    return w->title && strcasestr(w->title, title) != NULL;
}

/* The windows --app and --title leave (all windows when neither): --app's one instance, then
 * the titles that contain `title`. */
static int windows_matching(ad_ctx *ctx, const char *app, const char *title,
                            int64_t deadline_us, ad_window_list *wins, ad_error *err)
{
    ad_adapter *a = ctx->adapter;
    if (app ? ad_app_instance_windows(ctx, app, deadline_us, wins, err) < 0
            : a->ops->list_windows(a, NULL, deadline_us, wins, err) < 0)
        return -1;
    size_t kept = 0;
    for (size_t i = 0; i < wins->count; i++) {
        if (title && !title_has(&wins->items[i], title)) {
            ad_window_clear(&wins->items[i]);
            continue;
        }
        wins->items[kept++] = wins->items[i];
    }
    wins->count = kept;
    return 0;
}

int ad_window_select_titled(ad_ctx *ctx, const char *app, const char *window_id,
                            const char *title, int64_t deadline_us, ad_window *ret,
                            ad_error *err)
{
    ad_adapter *a = ctx->adapter;
    if (window_id) {
        if (ad_window_by_id(ctx, app, window_id, deadline_us, ret, err) < 0)
            return -1;
        if (!title || title_has(ret, title))
            return 0;
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "Window '%s' is titled '%s', not '%s'",
                     window_id, ret->title ? ret->title : "", title);
        ad_error_detail(err, "kind", json_string("title_mismatch"));
        ad_window_clear(ret);
        return -1;
    }
    ad_window_list wins = {0};
    int rc = -1;
    if (!app && !title) {
        if (a->ops->list_windows(a, NULL, deadline_us, &wins, err) < 0)
            return -1;
        for (size_t i = 0; i < wins.count; i++)
            if (wins.items[i].is_focused) {
                ad_window_copy(ret, &wins.items[i]);
                rc = 0;
                goto done;
            }
        if (wins.unanswered) {
            /* Some app did not answer: its window may be the focused one. */
            ad_error_set(err, AD_TIMEOUT, "Not every app answered before the deadline");
            ad_error_detail(err, "kind", json_string("deadline"));
            goto done;
        }
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "No focused window");
        if (ad_ctx_takes_flag(ctx, "window-id"))
            ad_error_suggest(err, "Pass --app NAME or --window-id ID (see list-windows)");
        else
            ad_error_suggest(err, "Pass --app NAME (see list-apps)");
        goto done;
    }
    if (windows_matching(ctx, app, title, deadline_us, &wins, err) < 0)
        return -1;
    const char *who = app ? app : "The desktop";
    if (wins.count == 0) {
        if (wins.unanswered) {
            ad_windows_unanswered_error(&wins, app, err);
        } else if (title) {
            if (app)
                ad_error_set(err, AD_WINDOW_NOT_FOUND, "'%s' has no window titled like '%s'",
                             app, title);
            else
                ad_error_set(err, AD_WINDOW_NOT_FOUND, "No window is titled like '%s'", title);
            ad_error_suggest(err, "Run list-windows%s%s and use a title or id it reports",
                             app ? " --app " : "", app ? app : "");
        } else {
            ad_error_set(err, AD_WINDOW_NOT_FOUND, "'%s' has no window", app);
            ad_error_suggest(err, "Run list-windows --app %s, or wait --window", app);
        }
        goto done;
    }
    bool *keep = calloc(wins.count, sizeof(*keep));
    if (!keep) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    int pick = ad_window_narrow(wins.items, wins.count, keep);
    if (pick >= 0) {
        ad_window_copy(ret, &wins.items[pick]);
        rc = 0;
    } else {
        size_t left = 0;
        for (size_t i = 0; i < wins.count; i++)
            left += keep[i];
        char what[64];
        snprintf(what, sizeof(what), "%zu candidate windows", left);
        ambiguous(ctx, &wins, keep, who, what, err);
    }
    free(keep);
done:
    ad_window_list_clear(&wins);
    return rc;
}

int ad_window_select(ad_ctx *ctx, const char *app, const char *window_id, int64_t deadline_us,
                     ad_window *ret, ad_error *err)
{
    return ad_window_select_titled(ctx, app, window_id, NULL, deadline_us, ret, err);
}
