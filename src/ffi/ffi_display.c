/* ffi_display.c: displays, screenshots and surfaces (api.md "Displays and screenshots",
 * "Surfaces"), through list-displays, screenshot and list-surfaces. A screenshot runs without
 * a PATH, so the command returns the PNG base64-encoded in its data and no file is written:
 * the image buffer holds the decoded bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "ffi/ffi_exact.h"

FFI_LIST_DEFINE(AdDisplayList, AdDisplayInfo, ad_display_list_count, ad_display_list_get,
                ad_display_list_free)
FFI_LIST_DEFINE(AdExactSurfaceList, AdExactSurfaceInfo, ad_exact_surface_list_count,
                ad_exact_surface_list_get, ad_exact_surface_list_free)

struct AdImageBuffer {
    unsigned char *bytes; /* the PNG file, owned */
    size_t len;
    uint32_t width, height;
    double scale_factor;
};

static AdResult out_of_memory(void)
{
    return ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
}

AdResult ad_list_displays(const struct AdAdapter *adapter, struct AdDisplayList **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *rows = NULL;
    if ((rc = ffi_run(adapter, "list-displays", json_object(), &rows, NULL)) != AD_RESULT_OK)
        return rc;
    size_t n = json_array_size(rows);
    struct AdDisplayList *list = AdDisplayList_new(rows, n);
    if (!list)
        return AD_RESULT_ERR_INTERNAL;
    for (size_t i = 0; i < n; i++) {
        const json_t *row = json_array_get(rows, i);
        AdDisplayInfo *d = &list->items[i];
        d->version = AD_DISPLAY_INFO_VERSION;
        d->size = (uint32_t)AD_DISPLAY_INFO_SIZE;
        d->id = ffi_json_str(row, "id");
        ffi_json_rect(row, &d->bounds);
        d->is_primary = json_is_true(json_object_get(row, "is_primary"));
        d->scale = ffi_json_num(row, "scale");
    }
    list->count = (uint32_t)n;
    *out = list;
    return AD_RESULT_OK;
}

/* Runs screenshot with `args` (stolen) and decodes its PNG into *out. */
static AdResult capture(const struct AdAdapter *adapter, json_t *args, struct AdImageBuffer **out)
{
    json_t *data = NULL;
    AdResult rc = ffi_run(adapter, "screenshot", args, &data, NULL);
    if (rc != AD_RESULT_OK)
        return rc;
    const char *b64 = ffi_json_str(data, "data");
    struct AdImageBuffer *buf = calloc(1, sizeof(*buf));
    if (buf && b64)
        buf->bytes = ad_base64_decode(b64, strlen(b64), &buf->len);
    if (!buf || !buf->bytes) {
        free(buf);
        json_decref(data);
        return b64 ? out_of_memory()
                   : ffi_fail(AD_RESULT_ERR_INTERNAL, "the capture returned no image", NULL);
    }
    buf->width = (uint32_t)json_integer_value(json_object_get(data, "width"));
    buf->height = (uint32_t)json_integer_value(json_object_get(data, "height"));
    buf->scale_factor = ffi_json_num(data, "scale_factor");
    json_decref(data);
    *out = buf;
    return AD_RESULT_OK;
}

/* FULL_SCREEN: the whole desktop. The screenshot command captures one display (--screen) or
 * one window, so the whole desktop is display 0 when there is one display; a capture of
 * several displays at once fails closed. */
static AdResult full_screen_args(const struct AdAdapter *adapter, json_t **ret)
{
    struct AdDisplayList *displays = NULL;
    AdResult rc = ad_list_displays(adapter, &displays);
    if (rc == AD_RESULT_OK && displays->count != 1)
        rc = ffi_fail(AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED,
                      "A capture of several displays at once is not built",
                      "Capture each display with AD_SCREENSHOT_KIND_SCREEN and its index");
    if (rc == AD_RESULT_OK)
        *ret = json_pack("{s:i}", "screen", 0);
    ad_display_list_free(displays);
    return rc;
}

AdResult ad_screenshot(const struct AdAdapter *adapter, const struct AdScreenshotTarget *target,
                       struct AdImageBuffer **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    if ((rc = ffi_check_ptr(target, "target")) != AD_RESULT_OK)
        return rc;
    /* AdScreenshotKind has no value 1. */
    if (target->kind != AD_SCREENSHOT_KIND_SCREEN && target->kind != AD_SCREENSHOT_KIND_FULL_SCREEN)
        return ffi_check_enum(target->kind, AD_SCREENSHOT_KIND_SCREEN,
                              AD_SCREENSHOT_KIND_SCREEN, "target.kind (0 or 2)");
    json_t *args = NULL;
    if (target->kind == AD_SCREENSHOT_KIND_FULL_SCREEN)
        rc = full_screen_args(adapter, &args);
    else if (target->screen_index > (uint64_t)INT32_MAX)
        rc = ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "target.screen_index is out of range",
                      "Pass an index of ad_list_displays");
    else
        args = json_pack("{s:I}", "screen", (json_int_t)target->screen_index);
    return rc != AD_RESULT_OK ? rc : capture(adapter, args, out);
}

AdResult ad_screenshot_window_exact(const struct AdAdapter *adapter,
                                    const struct AdExactWindowInfo *window,
                                    struct AdImageBuffer **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    if ((rc = ffi_check_exact_window(window, "window")) != AD_RESULT_OK ||
        (rc = ffi_check_window_identity(adapter, window)) != AD_RESULT_OK)
        return rc;
    return capture(adapter, ffi_window_target(window), out);
}

const uint8_t *ad_image_buffer_data(const struct AdImageBuffer *buf)
{
    return buf ? buf->bytes : NULL;
}

uint64_t ad_image_buffer_size(const struct AdImageBuffer *buf)
{
    return buf ? buf->len : 0;
}

uint32_t ad_image_buffer_width(const struct AdImageBuffer *buf)
{
    return buf ? buf->width : 0;
}

uint32_t ad_image_buffer_height(const struct AdImageBuffer *buf)
{
    return buf ? buf->height : 0;
}

AdImageFormat ad_image_buffer_format(const struct AdImageBuffer *buf)
{
    (void)buf; /* the screenshot command encodes PNG only */
    return AD_IMAGE_FORMAT_PNG;
}

double ad_image_buffer_scale_factor(const struct AdImageBuffer *buf)
{
    return buf ? buf->scale_factor : 0.0;
}

void ad_image_buffer_free(struct AdImageBuffer *buf)
{
    if (!buf)
        return;
    free(buf->bytes);
    free(buf);
}

/* The list-apps name of process pid (borrowed from *apps_data, which the caller releases), or
 * NULL with APP_NOT_FOUND recorded. */
static const char *app_of_pid(const struct AdAdapter *adapter, uint32_t pid, json_t **apps_data)
{
    if (ffi_run(adapter, "list-apps", json_object(), apps_data, NULL) != AD_RESULT_OK)
        return NULL;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(*apps_data, "apps"), i, a) {
        if (ffi_json_pid(a, "pid") == pid && ffi_json_str(a, "name"))
            return ffi_json_str(a, "name");
    }
    char msg[120];
    snprintf(msg, sizeof(msg), "No running app has pid %u", (unsigned)pid);
    ffi_fail(AD_RESULT_ERR_APP_NOT_FOUND, msg, "Pass a pid from ad_list_apps");
    return NULL;
}

/* "unclassified": ["sheet", "menu"] as one string "sheet,menu", stored in entry (which then
 * owns it); NULL when the entry has none. */
static const char *unclassified_text(json_t *entry)
{
    const json_t *kinds = json_object_get(entry, "unclassified");
    if (!json_is_array(kinds) || json_array_size(kinds) == 0)
        return NULL;
    char text[256] = "";
    size_t i;
    json_t *k;
    json_array_foreach(kinds, i, k) {
        if (json_is_string(k) && strlen(text) + json_string_length(k) + 2 < sizeof(text)) {
            if (text[0])
                strcat(text, ",");
            strcat(text, json_string_value(k));
        }
    }
    json_object_set_new(entry, "ffi_unclassified", json_string(text));
    return ffi_json_str(entry, "ffi_unclassified");
}

AdResult ad_list_surfaces_exact(const struct AdAdapter *adapter, uint32_t pid,
                                struct AdExactSurfaceList **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    /* list-surfaces selects an app by name: the name of pid, then the answer must be pid's
     * (several instances of one name fail with the command's AMBIGUOUS_TARGET). */
    json_t *apps = NULL, *data = NULL;
    const char *name = app_of_pid(adapter, pid, &apps);
    rc = name ? ffi_run(adapter, "list-surfaces", json_pack("{s:s}", "app", name), &data, NULL)
              : ad_last_error_code();
    json_decref(apps);
    if (rc == AD_RESULT_OK && ffi_json_pid(data, "pid") != pid)
        rc = ffi_fail(AD_RESULT_ERR_STALE_REF, "The app of that pid changed during the read",
                      "List the apps again with ad_list_apps");
    if (rc != AD_RESULT_OK) {
        json_decref(data);
        return rc;
    }
    json_t *rows = json_object_get(data, "surfaces");
    size_t n = json_array_size(rows);
    struct AdExactSurfaceList *list = AdExactSurfaceList_new(data, n);
    if (!list)
        return AD_RESULT_ERR_INTERNAL;
    for (size_t i = 0; i < n; i++) {
        json_t *row = json_array_get(rows, i);
        AdExactSurfaceInfo *s = &list->items[i];
        s->version = AD_EXACT_SURFACE_INFO_VERSION;
        s->size = (uint32_t)AD_EXACT_SURFACE_INFO_SIZE;
        s->id = ffi_json_str(row, "id");
        s->surface.kind = ffi_json_str(row, "type");
        s->surface.title = ffi_json_str(row, "title");
        /* -1: the command did not count the surface's items. */
        const json_t *items = json_object_get(row, "item_count");
        s->surface.item_count = json_is_integer(items) ? json_integer_value(items) : -1;
        s->unclassified = unclassified_text(row);
    }
    list->count = (uint32_t)n;
    *out = list;
    return AD_RESULT_OK;
}

