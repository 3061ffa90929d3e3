/* apps.c: list-apps and list-windows (commands/app-window.md). */
#include <string.h>
#include <strings.h>

#include "commands/handlers.h"
#include "commands/common.h"
#include "core/ctx.h"
#include "core/present.h"
#include "core/surface.h"
#include "core/window_select.h"

static json_t *app_json(const ad_app *a)
{
    json_t *o = json_object();
    if (a->bundle_id)
        json_object_set_new(o, "bundle_id", json_string(a->bundle_id));
    json_object_set_new(o, "name", json_string(a->name ? a->name : ""));
    json_object_set_new(o, "pid", json_integer(a->pid));
    json_object_set_new(o, "presentation",
                        json_string(a->background ? "background" : "foreground"));
    json_object_set_new(o, "process_instance",
                        a->process_instance ? json_string(a->process_instance) : json_null());
    return o;
}

int ad_cmd_list_apps(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *filter = ad_arg_str(args, "app");
    int64_t deadline = ad_deadline_from(args, "timeout_ms");
    ad_app_list apps = {0};
    if (ctx->adapter->ops->list_apps(ctx->adapter, deadline, &apps, err) < 0)
        return -1;
    json_t *rows = json_array();
    for (size_t i = 0; i < apps.count; i++) {
        const ad_app *a = &apps.items[i];
        if (filter && !ad_contains_ci(a->name, filter) &&
            !ad_contains_ci(a->desktop_name, filter) &&
            !ad_contains_ci(a->bundle_id, filter))
            continue;
        json_array_append_new(rows, app_json(a));
    }
    json_t *d = json_object();
    json_object_set_new(d, "apps", rows);
    if (!apps.complete) {
        json_object_set_new(d, "complete", json_false());
        json_object_set_new(d, "skipped", ad_app_skips_json(&apps));
    }
    ad_app_list_clear(&apps);
    *ret_data = d;
    return 0;
}

json_t *ad_window_json(const ad_window *w)
{
    json_t *o = json_object();
    json_object_set_new(o, "accessible", json_boolean(w->accessible));
    json_object_set_new(o, "app_name", json_string(w->app_name ? w->app_name : ""));
    if (w->bounds_known)
        json_object_set_new(o, "bounds", ad_rect_json(&w->bounds));
    json_object_set_new(o, "id", json_string(w->id));
    json_object_set_new(o, "is_focused", json_boolean(w->is_focused));
    json_object_set_new(o, "minimized", json_boolean(w->minimized));
    json_object_set_new(o, "pid", json_integer(w->pid));
    json_object_set_new(o, "process_instance",
                        w->process_instance ? json_string(w->process_instance) : json_null());
    json_object_set_new(o, "title", w->title ? json_string(w->title) : json_null());
    json_object_set_new(o, "visible", json_boolean(w->visible));
    return o;
}

int ad_cmd_list_windows(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *app = ad_arg_str(args, "app");
    int64_t deadline = ad_deadline_from(args, "timeout_ms");
    ad_app_list apps = {0};
    ad_window_list wins = {0};
    if (app && ad_apps_matching(ctx, app, deadline, &apps, err) < 0)
        return -1;
    int rc = ctx->adapter->ops->list_windows(ctx->adapter, app ? &apps : NULL, deadline, &wins,
                                             err);
    ad_app_list_clear(&apps);
    if (rc < 0)
        return -1;
    /* A timeout is not an empty list; with rows, an app that did not answer costs only its
     * own windows. */
    if (wins.count == 0 && wins.unanswered > 0) {
        ad_windows_unanswered_error(&wins, app, err);
        ad_window_list_clear(&wins);
        return -1;
    }
    json_t *rows = json_array();
    for (size_t i = 0; i < wins.count; i++)
        json_array_append_new(rows, ad_window_json(&wins.items[i]));
    ad_window_list_clear(&wins);
    *ret_data = rows;
    return 0;
}

int ad_cmd_list_surfaces(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *app = ad_arg_str(args, "app");
    int64_t deadline = ad_deadline_after_ms(5000);
    ad_window win = {0};
    ad_app_list apps = {0};
    json_t *surfaces = NULL;
    /* The app's process: any of its windows identifies it (window-owned surfaces). */
    if (app) {
        if (ad_app_one_instance(ctx, app, deadline, &apps, err) < 0) {
            if (err->code == AD_AMBIGUOUS_TARGET) /* list-surfaces takes no --window-id */
                ad_error_suggest(err, "Read one instance's overlays with snapshot --window-id "
                                      "ID --surface menu (or sheet, alert), ID from "
                                      "details.candidates");
            return -1;
        }
        win.pid = apps.items[0].pid;
    } else if (ad_window_select(ctx, NULL, NULL, deadline, &win, err) < 0) {
        return -1;
    }
    int rc = ad_surfaces_of_app(ctx, app ? &apps : NULL, win.pid, deadline, &surfaces, err);
    if (rc == 0)
        *ret_data = json_pack("{s:i, s:o}", "pid", win.pid, "surfaces", surfaces);
    ad_app_list_clear(&apps);
    ad_window_clear(&win);
    return rc;
}
