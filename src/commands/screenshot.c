/* screenshot.c: screenshot and list-displays (observation.md). The argument rules (--screen
 * with a window selector) are in the command table; the pictures come from core/capture.h. */
#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/base64.h"
#include "core/capture.h"
#include "core/ctx.h"
#include "core/private_file.h"
#include "core/window_select.h"

static int read_displays(ad_ctx *ctx, ad_display_list *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (!ctx->adapter->ops->list_displays)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                            "This platform cannot list its displays");
    return ctx->adapter->ops->list_displays(ctx->adapter, ret, err);
}

static json_t *rect_json(const ad_rect *r)
{
    return json_pack("{s:f, s:f, s:f, s:f}", "x", r->x, "y", r->y, "width", r->width, "height",
                     r->height);
}

int ad_cmd_list_displays(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    (void)args;
    ad_display_list l;
    if (read_displays(ctx, &l, err) < 0)
        return -1;
    json_t *arr = json_array();
    for (size_t i = 0; i < l.count; i++)
        json_array_append_new(arr, json_pack("{s:o, s:s, s:b, s:f}", "bounds",
                                             rect_json(&l.items[i].bounds), "id",
                                             l.items[i].id, "is_primary", l.items[i].is_primary,
                                             "scale", l.items[i].scale));
    ad_display_list_clear(&l);
    *ret_data = arr;
    return 0;
}

/* The rectangle and scale of display `index` of list-displays. */
static int display_rect(ad_ctx *ctx, int64_t index, ad_rect *ret, double *ret_scale,
                        ad_error *err)
{
    ad_display_list l;
    if (read_displays(ctx, &l, err) < 0)
        return -1;
    int rc = 0;
    if (index < 0 || (size_t)index >= l.count) {
        ad_error_set(err, AD_INVALID_ARGS, "--screen %lld is out of range: %zu display%s",
                     (long long)index, l.count, l.count == 1 ? "" : "s");
        ad_error_suggest(err, "Pass an index of list-displays, 0 to %zu", l.count - 1);
        rc = -1;
    } else {
        *ret = l.items[index].bounds;
        *ret_scale = l.items[index].scale;
    }
    ad_display_list_clear(&l);
    return rc;
}

int ad_cmd_screenshot(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *path = ad_arg_str(args, "path");
    int64_t deadline = ad_deadline_after_ms(5000);
    ad_picture pic = {0};
    double scale = 1.0;
    int rc;
    if (ad_arg_has(args, "screen")) {
        ad_rect r;
        rc = display_rect(ctx, ad_arg_int(args, "screen"), &r, &scale, err);
        if (rc == 0)
            rc = ad_capture_png(ctx, NULL, &r, &pic, err);
    } else {
        ad_window win = {0};
        rc = ad_window_select(ctx, ad_arg_str(args, "app"), ad_arg_str(args, "window_id"),
                              deadline, &win, err);
        if (rc == 0)
            rc = ad_capture_png(ctx, &win, NULL, &pic, err);
        ad_window_clear(&win);
    }
    char *saved = NULL, *b64 = NULL;
    if (rc == 0 && path)
        rc = ad_private_file_write(path, pic.png, pic.len, false, "screenshot", &saved, err);
    else if (rc == 0 && !(b64 = ad_base64_encode(pic.png, pic.len, NULL)))
        rc = ad_error_set(err, AD_INTERNAL, "Out of memory");
    if (rc == 0) {
        json_t *d = json_pack("{s:s, s:i, s:i, s:f}", "format", "png", "width", pic.width,
                              "height", pic.height, "scale_factor", scale);
        json_object_set_new(d, saved ? "path" : "data", json_string(saved ? saved : b64));
        *ret_data = d;
    }
    free(saved);
    free(b64);
    ad_picture_clear(&pic);
    return rc;
}
