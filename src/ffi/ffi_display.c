/* ffi_display.c: displays and screenshots (api.md "Displays and screenshots"), through
 * list-displays and screenshot. A screenshot runs without
 * a PATH, so the command returns the PNG base64-encoded in its data and no file is written:
 * the image buffer holds the decoded bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "ffi/ffi_exact.h"

FFI_LIST_DEFINE(AdDisplayList, AdDisplayInfo, ad_display_list_count, ad_display_list_get,
                ad_display_list_free)

struct AdImageBuffer {
    unsigned char *bytes; /* the PNG file, owned */
    size_t len;
    uint32_t width, height;
    double scale_factor;
};

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
        return ffi_fail(AD_RESULT_ERR_INTERNAL,
                        b64 ? "out of memory" : "the capture returned no image", NULL);
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
