/* ffi_apps.c: apps and windows (api.md "Apps and windows"). Each call runs the CLI's command
 * (list-apps, list-windows, launch, close-app, focus-window, resize-window, move-window,
 * minimize, maximize, restore) through ffi_run and converts its data. */
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_exact.h"

FFI_LIST_DEFINE(AdAppList, AdAppInfo, ad_app_list_count, ad_app_list_get, ad_app_list_free)
FFI_LIST_DEFINE(AdExactWindowList, AdExactWindowInfo, ad_exact_window_list_count,
                ad_exact_window_list_get, ad_exact_window_list_free)

AdResult ad_list_apps(const struct AdAdapter *adapter, struct AdAppList **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *data = NULL;
    rc = ffi_run(adapter, "list-apps", json_object(), &data, NULL);
    if (rc != AD_RESULT_OK)
        return rc;
    const json_t *apps = json_object_get(data, "apps");
    size_t n = json_array_size(apps);
    struct AdAppList *list = AdAppList_new(data, n);
    if (!list)
        return AD_RESULT_ERR_INTERNAL;
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(apps, i);
        list->items[i] = (AdAppInfo){.name = ffi_json_str(a, "name"),
                                     .pid = ffi_json_pid(a, "pid"),
                                     .bundle_id = ffi_json_str(a, "bundle_id")};
    }
    list->count = (uint32_t)n;
    *out = list;
    return AD_RESULT_OK;
}

AdResult ad_list_windows_exact(const struct AdAdapter *adapter, const char *app_filter,
                               bool focused_only, struct AdExactWindowList **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    if ((rc = ffi_check_string(app_filter, "app_filter", false)) != AD_RESULT_OK)
        return rc;
    json_t *args = json_object();
    if (app_filter)
        json_object_set_new(args, "app", json_string(app_filter));
    json_t *rows = NULL;
    if ((rc = ffi_run(adapter, "list-windows", args, &rows, NULL)) != AD_RESULT_OK)
        return rc;
    size_t n = json_array_size(rows);
    struct AdExactWindowList *list = AdExactWindowList_new(rows, n);
    if (!list)
        return AD_RESULT_ERR_INTERNAL;
    for (size_t i = 0; i < n; i++) {
        const json_t *row = json_array_get(rows, i);
        /* focused_only keeps the rows list-windows reports focused (the CLI has no flag). */
        if (!focused_only || json_is_true(json_object_get(row, "is_focused")))
            ffi_exact_window_of(row, &list->items[list->count++]);
    }
    *out = list;
    return AD_RESULT_OK;
}

/* Copies of the borrowed strings of *win, so the caller's struct owns them. -1 on OOM (then
 * whatever was copied is released). */
static int own_window_strings(AdExactWindowInfo *win)
{
    const char **fields[] = {&win->window.id, &win->window.title, &win->window.app_name,
                             &win->process_instance};
    int rc = 0;
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        if (*fields[i] && !(*fields[i] = strdup(*fields[i])))
            rc = -1;
    if (rc < 0)
        ad_release_exact_window_fields(win);
    return rc;
}

AdResult ad_launch_app_exact(const struct AdAdapter *adapter, const char *id,
                             uint64_t timeout_ms, struct AdExactWindowInfo *out)
{
    AdResult rc = ffi_check_ptr(out, "out");
    if (rc != AD_RESULT_OK)
        return rc;
    memset(out, 0, sizeof(*out));
    if ((rc = ffi_check_string(id, "id", true)) != AD_RESULT_OK)
        return rc;
    /* --activate: the launch waits for the first window (and focuses it) up to the timeout,
     * so a success always has a window to write. A timeout beyond int64 is out of the
     * command's range either way; the validator refuses it. */
    json_int_t ms = timeout_ms > (uint64_t)INT64_MAX ? -1 : (json_int_t)timeout_ms;
    json_t *args = json_pack("{s:s, s:I, s:b}", "app", id, "timeout", ms, "activate", 1);
    json_t *data = NULL;
    if ((rc = ffi_run(adapter, "launch", args, &data, NULL)) != AD_RESULT_OK)
        return rc;
    const json_t *win = json_object_get(data, "window");
    if (!json_is_object(win)) {
        json_decref(data);
        return ffi_fail(AD_RESULT_ERR_WINDOW_NOT_FOUND, "The app started but showed no window",
                        "Wait for its window with ad_list_windows_exact");
    }
    AdExactWindowInfo row;
    ffi_exact_window_of(win, &row);
    rc = own_window_strings(&row) < 0 ? ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL)
                                      : AD_RESULT_OK;
    if (rc == AD_RESULT_OK)
        *out = row;
    json_decref(data);
    return rc;
}

void ad_release_exact_window_fields(struct AdExactWindowInfo *win)
{
    if (!win)
        return;
    free((char *)win->window.id);
    free((char *)win->window.title);
    free((char *)win->window.app_name);
    free((char *)win->process_instance);
    memset(win, 0, sizeof(*win));
}

AdResult ad_close_app(const struct AdAdapter *adapter, const char *id, bool force)
{
    AdResult rc = ffi_check_string(id, "id", true);
    if (rc != AD_RESULT_OK)
        return rc;
    return ffi_run(adapter, "close-app", json_pack("{s:s, s:b}", "app", id, "force", force),
                   NULL, NULL);
}

/* Runs window command `name` on win after its identity check; `args` (stolen) gets the
 * window target. */
static AdResult run_on_window(const struct AdAdapter *adapter, const AdExactWindowInfo *win,
                              const char *name, json_t *args)
{
    AdResult rc = ffi_check_exact_window(win, "win");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_window_identity(adapter, win);
    if (rc != AD_RESULT_OK) {
        json_decref(args);
        return rc;
    }
    json_t *target = ffi_window_target(win);
    json_object_update(args, target);
    json_decref(target);
    return ffi_run(adapter, name, args, NULL, NULL);
}

AdResult ad_focus_window_exact(const struct AdAdapter *adapter,
                               const struct AdExactWindowInfo *win)
{
    return run_on_window(adapter, win, "focus-window", json_object());
}

/* AdWindowOpKind values in order, as the commands name them. */
static const char *const window_op_commands[] = {
    "resize-window", "move-window", "minimize", "maximize", "restore",
};

AdResult ad_window_op_exact(const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
                            struct AdWindowOp op)
{
    AdResult rc = ffi_check_enum(op.kind, AD_WINDOW_OP_KIND_RESIZE, AD_WINDOW_OP_KIND_RESTORE,
                                 "op.kind");
    int a = 0, b = 0;
    json_t *args = NULL;
    if (rc == AD_RESULT_OK && op.kind == AD_WINDOW_OP_KIND_RESIZE &&
        (rc = ffi_whole(op.width, "op.width", &a)) == AD_RESULT_OK &&
        (rc = ffi_whole(op.height, "op.height", &b)) == AD_RESULT_OK)
        args = json_pack("{s:i, s:i}", "width", a, "height", b);
    else if (rc == AD_RESULT_OK && op.kind == AD_WINDOW_OP_KIND_MOVE &&
             (rc = ffi_whole(op.x, "op.x", &a)) == AD_RESULT_OK &&
             (rc = ffi_whole(op.y, "op.y", &b)) == AD_RESULT_OK)
        args = json_pack("{s:i, s:i}", "x", a, "y", b);
    else if (rc == AD_RESULT_OK)
        args = json_object();
    if (rc != AD_RESULT_OK)
        return rc;
    return run_on_window(adapter, win, window_op_commands[op.kind], args);
}
