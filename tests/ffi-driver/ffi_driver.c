/* ffi_driver.c: `ad-ffi-driver OP ARGS...` makes one library call (after ad_init and
 * ad_adapter_create) and prints {"rc": N, "error": {...} | null, ...what it returned} as one
 * line. Exact windows are taken from ad_list_windows_exact by id; `instance=X` overrides the
 * process instance a window call passes. Everything the library returned is freed with its
 * paired free function before exit, so the ASan build checks the ownership rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "agent_desktop.h"

static json_t *out_obj;

static json_t *rect(AdRect r)
{
    return json_pack("{s:f, s:f, s:f, s:f}", "x", r.x, "y", r.y, "width", r.width, "height",
                     r.height);
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *window_json(const AdExactWindowInfo *w)
{
    json_t *o = json_pack("{s:i, s:i, s:o, s:o, s:o, s:i, s:b, s:b, s:o, s:b}", "version",
                          (int)w->version, "size", (int)w->size, "id", str_or_null(w->window.id),
                          "title", str_or_null(w->window.title), "app_name",
                          str_or_null(w->window.app_name), "pid", (int)w->window.pid,
                          "has_bounds", w->window.has_bounds, "is_focused", w->window.is_focused,
                          "process_instance", str_or_null(w->process_instance), "accessible",
                          w->accessible);
    json_object_set_new(o, "bounds", rect(w->window.bounds));
    return o;
}

/* Prints the result object and returns the exit status: 0 always (rc is in the JSON). */
static int finish(AdResult rc)
{
    json_object_set_new(out_obj, "rc", json_integer(rc));
    if (rc != AD_RESULT_OK) {
        AdDeliverySemantics sem;
        ad_last_error_delivery_semantics(&sem);
        json_object_set_new(out_obj, "error",
                            json_pack("{s:i, s:o, s:o, s:i}", "code", ad_last_error_code(),
                                      "message", str_or_null(ad_last_error_message()),
                                      "suggestion", str_or_null(ad_last_error_suggestion()),
                                      "delivery", sem.delivery));
    } else {
        json_object_set_new(out_obj, "error", json_null());
    }
    char *s = json_dumps(out_obj, JSON_COMPACT);
    puts(s);
    free(s);
    json_decref(out_obj);
    return 0;
}

/* The listed window with `id` copied into *ret (strings duplicated; free with
 * release_copy), 0 when found. */
static int window_by_id(struct AdAdapter *a, const char *id, AdExactWindowInfo *ret)
{
    struct AdExactWindowList *list = NULL;
    if (ad_list_windows_exact(a, NULL, false, &list) != AD_RESULT_OK)
        return -1;
    int rc = -1;
    for (uint32_t i = 0; i < ad_exact_window_list_count(list); i++) {
        const AdExactWindowInfo *w = ad_exact_window_list_get(list, i);
        if (strcmp(w->window.id, id) != 0)
            continue;
        *ret = *w;
        ret->window.id = strdup(w->window.id);
        ret->window.title = w->window.title ? strdup(w->window.title) : NULL;
        ret->window.app_name = w->window.app_name ? strdup(w->window.app_name) : NULL;
        ret->process_instance = w->process_instance ? strdup(w->process_instance) : NULL;
        rc = 0;
    }
    ad_exact_window_list_free(list);
    return rc;
}

/* The key=value option `key` among argv[from..argc), or NULL. */
static const char *opt(int argc, char **argv, int from, const char *key)
{
    size_t n = strlen(key);
    for (int i = from; i < argc; i++)
        if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
            return argv[i] + n + 1;
    return NULL;
}

static int write_image(struct AdImageBuffer *img, const char *path)
{
    json_object_set_new(out_obj, "width", json_integer(ad_image_buffer_width(img)));
    json_object_set_new(out_obj, "height", json_integer(ad_image_buffer_height(img)));
    json_object_set_new(out_obj, "bytes", json_integer((json_int_t)ad_image_buffer_size(img)));
    json_object_set_new(out_obj, "format", json_integer(ad_image_buffer_format(img)));
    json_object_set_new(out_obj, "scale", json_real(ad_image_buffer_scale_factor(img)));
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fwrite(ad_image_buffer_data(img), 1, ad_image_buffer_size(img), f);
    return fclose(f);
}

/* One call on window `id` (argv[2]): focus, op (kind w h x y), shot (path). */
static AdResult window_call(struct AdAdapter *a, int argc, char **argv)
{
    AdExactWindowInfo w = {0};
    if (argc < 3 || window_by_id(a, argv[2], &w) < 0) {
        json_object_set_new(out_obj, "driver", json_string("window not listed"));
        return AD_RESULT_ERR_WINDOW_NOT_FOUND;
    }
    const char *instance = opt(argc, argv, 3, "instance");
    char *listed_instance = (char *)w.process_instance;
    if (instance)
        w.process_instance = instance;
    const char *v = opt(argc, argv, 3, "version"), *sz = opt(argc, argv, 3, "size");
    if (v)
        w.version = (uint32_t)atoi(v);
    if (sz)
        w.size = (uint32_t)atoi(sz);
    AdResult rc;
    if (strcmp(argv[1], "focus") == 0) {
        rc = ad_focus_window_exact(a, &w);
    } else if (strcmp(argv[1], "shot-window") == 0) {
        struct AdImageBuffer *img = NULL;
        rc = ad_screenshot_window_exact(a, &w, &img);
        if (rc == AD_RESULT_OK && write_image(img, opt(argc, argv, 3, "out")) < 0)
            rc = AD_RESULT_ERR_INTERNAL;
        ad_image_buffer_free(img);
    } else {
        const char *k = opt(argc, argv, 3, "kind"), *wd = opt(argc, argv, 3, "width"),
                   *h = opt(argc, argv, 3, "height"), *x = opt(argc, argv, 3, "x"),
                   *y = opt(argc, argv, 3, "y");
        AdWindowOp op = {.kind = k ? atoi(k) : 0, .width = wd ? atof(wd) : 0,
                         .height = h ? atof(h) : 0, .x = x ? atof(x) : 0, .y = y ? atof(y) : 0};
        rc = ad_window_op_exact(a, &w, op);
    }
    w.process_instance = listed_instance;
    ad_release_exact_window_fields(&w);
    return rc;
}

static AdResult run(struct AdAdapter *a, int argc, char **argv)
{
    const char *op = argv[1];
    AdResult rc;
    if (strcmp(op, "list-windows") == 0) {
        struct AdExactWindowList *list = NULL;
        rc = ad_list_windows_exact(a, opt(argc, argv, 2, "app"), opt(argc, argv, 2, "focused"),
                                   &list);
        json_t *arr = json_array();
        for (uint32_t i = 0; i < ad_exact_window_list_count(list); i++)
            json_array_append_new(arr, window_json(ad_exact_window_list_get(list, i)));
        json_object_set_new(out_obj, "windows", arr);
        json_object_set_new(out_obj, "past_end", json_boolean(ad_exact_window_list_get(
                                                     list, ad_exact_window_list_count(list))));
        ad_exact_window_list_free(list);
    } else if (strcmp(op, "list-apps") == 0) {
        struct AdAppList *list = NULL;
        rc = ad_list_apps(a, &list);
        json_t *arr = json_array();
        for (uint32_t i = 0; i < ad_app_list_count(list); i++) {
            const AdAppInfo *app = ad_app_list_get(list, i);
            json_array_append_new(arr, json_pack("{s:o, s:i, s:o}", "name", str_or_null(app->name),
                                                 "pid", (int)app->pid, "bundle_id",
                                                 str_or_null(app->bundle_id)));
        }
        json_object_set_new(out_obj, "apps", arr);
        ad_app_list_free(list);
    } else if (strcmp(op, "launch") == 0 && argc > 3) {
        AdExactWindowInfo w;
        rc = ad_launch_app_exact(a, argv[2], strtoull(argv[3], NULL, 10), &w);
        json_object_set_new(out_obj, "window", window_json(&w));
        ad_release_exact_window_fields(&w);
    } else if (strcmp(op, "close") == 0 && argc > 2) {
        rc = ad_close_app(a, argv[2], opt(argc, argv, 3, "force") != NULL);
    } else if (strcmp(op, "focus") == 0 || strcmp(op, "op") == 0 ||
               strcmp(op, "shot-window") == 0) {
        rc = window_call(a, argc, argv);
    } else if (strcmp(op, "displays") == 0) {
        struct AdDisplayList *list = NULL;
        rc = ad_list_displays(a, &list);
        json_t *arr = json_array();
        for (uint32_t i = 0; i < ad_display_list_count(list); i++) {
            const AdDisplayInfo *d = ad_display_list_get(list, i);
            json_t *o = json_pack("{s:i, s:i, s:o, s:b, s:f}", "version", (int)d->version, "size",
                                  (int)d->size, "id", str_or_null(d->id), "is_primary",
                                  d->is_primary, "scale", d->scale);
            json_object_set_new(o, "bounds", rect(d->bounds));
            json_array_append_new(arr, o);
        }
        json_object_set_new(out_obj, "displays", arr);
        ad_display_list_free(list);
    } else if (strcmp(op, "shot") == 0) {
        const char *kind = opt(argc, argv, 2, "kind"), *idx = opt(argc, argv, 2, "screen");
        AdScreenshotTarget t = {.kind = kind ? atoi(kind) : 0,
                                .screen_index = idx ? strtoull(idx, NULL, 10) : 0};
        struct AdImageBuffer *img = NULL;
        rc = ad_screenshot(a, &t, &img);
        if (rc == AD_RESULT_OK && write_image(img, opt(argc, argv, 2, "out")) < 0)
            rc = AD_RESULT_ERR_INTERNAL;
        ad_image_buffer_free(img);
    } else if (strcmp(op, "surfaces") == 0 && argc > 2) {
        struct AdExactSurfaceList *list = NULL;
        rc = ad_list_surfaces_exact(a, (uint32_t)strtoul(argv[2], NULL, 10), &list);
        json_t *arr = json_array();
        for (uint32_t i = 0; i < ad_exact_surface_list_count(list); i++) {
            const AdExactSurfaceInfo *s = ad_exact_surface_list_get(list, i);
            json_array_append_new(arr, json_pack("{s:i, s:i, s:o, s:o, s:o, s:I, s:o}", "version",
                                                 (int)s->version, "size", (int)s->size, "id",
                                                 str_or_null(s->id), "kind",
                                                 str_or_null(s->surface.kind), "title",
                                                 str_or_null(s->surface.title), "item_count",
                                                 (json_int_t)s->surface.item_count,
                                                 "unclassified", str_or_null(s->unclassified)));
        }
        json_object_set_new(out_obj, "surfaces", arr);
        ad_exact_surface_list_free(list);
    } else if (strcmp(op, "clip-get") == 0) {
        char *text = NULL;
        rc = ad_get_clipboard(a, &text);
        json_object_set_new(out_obj, "text", str_or_null(text));
        ad_free_string(text);
    } else if (strcmp(op, "clip-set") == 0 && argc > 2) {
        rc = ad_set_clipboard(a, argv[2]);
    } else if (strcmp(op, "clip-clear") == 0) {
        rc = ad_clear_clipboard(a);
    } else if (strcmp(op, "mouse") == 0) {
        const char *k = opt(argc, argv, 2, "kind"), *x = opt(argc, argv, 2, "x"),
                   *y = opt(argc, argv, 2, "y"), *b = opt(argc, argv, 2, "button"),
                   *c = opt(argc, argv, 2, "count"), *m = opt(argc, argv, 2, "mod");
        AdMouseEvent ev = {.kind = k ? atoi(k) : 0, .point = {x ? atof(x) : 0, y ? atof(y) : 0},
                           .button = b ? atoi(b) : 0, .click_count = c ? (uint32_t)atoi(c) : 1};
        int32_t mod = m ? atoi(m) : 0;
        rc = m ? ad_mouse_event_with_modifiers(a, &ev, &mod, 1) : ad_mouse_event(a, &ev);
    } else if (strcmp(op, "wheel") == 0) {
        const char *x = opt(argc, argv, 2, "x"), *y = opt(argc, argv, 2, "y"),
                   *dx = opt(argc, argv, 2, "dx"), *dy = opt(argc, argv, 2, "dy"),
                   *m = opt(argc, argv, 2, "mask");
        AdPoint p = {x ? atof(x) : 0, y ? atof(y) : 0};
        rc = ad_mouse_wheel(a, p, dx ? atof(dx) : 0, dy ? atof(dy) : 0,
                            m ? (uint32_t)strtoul(m, NULL, 0) : 0);
    } else if (strcmp(op, "drag") == 0) {
        const char *fx = opt(argc, argv, 2, "fx"), *fy = opt(argc, argv, 2, "fy"),
                   *tx = opt(argc, argv, 2, "tx"), *ty = opt(argc, argv, 2, "ty");
        AdDragParams d = {.from = {fx ? atof(fx) : 0, fy ? atof(fy) : 0},
                          .to = {tx ? atof(tx) : 0, ty ? atof(ty) : 0},
                          .duration_ms = 300, .drop_delay_ms = 150};
        rc = ad_drag(a, &d);
    } else if (strcmp(op, "notifications") == 0) {
        struct AdNotificationList *list = NULL;
        rc = ad_list_notifications(a, NULL, &list);
        json_object_set_new(out_obj, "count", json_integer(ad_notification_list_count(list)));
        ad_notification_list_free(list);
    } else if (strcmp(op, "dismiss-all") == 0) {
        struct AdNotificationList *dismissed = NULL, *failed = NULL;
        rc = ad_dismiss_all_notifications(a, NULL, &dismissed, &failed);
        json_object_set_new(out_obj, "null_lists", json_boolean(!dismissed && !failed));
        ad_dismiss_all_notifications_free(dismissed, failed);
    } else {
        fprintf(stderr, "ad-ffi-driver: unknown call '%s'\n", op);
        exit(2);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ad-ffi-driver OP [ARGS...]\n");
        return 2;
    }
    if (ad_init(AD_ABI_VERSION_MAJOR) != AD_RESULT_OK)
        return 3;
    struct AdAdapter *a = ad_adapter_create();
    if (!a)
        return 3;
    out_obj = json_object();
    AdResult rc = run(a, argc, argv);
    ad_adapter_destroy(a);
    return finish(rc);
}
