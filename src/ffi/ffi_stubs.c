/* ffi_stubs.c: the declarations of api.md this build does not implement yet. Each AdResult
 * function zeroes its out-parameters and fails closed with PLATFORM_NOT_SUPPORTED (kind
 * "not in this build"); list getters return 0 or NULL; free functions have nothing to free,
 * because nothing here ever allocates. Remove a function from here when it is built. */
#include <stdio.h>
#include <string.h>

#include "ffi/ffi_private.h"

static AdResult not_built(const char *fn)
{
    char msg[160];
    snprintf(msg, sizeof(msg), "%s is not available in this build of the library", fn);
    return ffi_fail(AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED, msg, NULL);
}

AdResult ad_execute_by_ref(
    const struct AdAdapter *adapter, const char *ref_id, const struct AdAction *action,
    int32_t policy, char **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)ref_id;
    (void)action;
    (void)policy;
    return not_built("ad_execute_by_ref");
}

AdResult ad_execute_by_ref_timeout(
    const struct AdAdapter *adapter, const char *ref_id, const struct AdAction *action,
    int32_t policy, int64_t timeout_ms, char **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)ref_id;
    (void)action;
    (void)policy;
    (void)timeout_ms;
    return not_built("ad_execute_by_ref_timeout");
}

AdResult ad_wait(
    const struct AdAdapter *adapter, const struct AdWaitArgs *args, char **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)args;
    return not_built("ad_wait");
}

AdResult ad_launch_app_exact(
    const struct AdAdapter *adapter, const char *id, uint64_t timeout_ms,
    struct AdExactWindowInfo *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)id;
    (void)timeout_ms;
    return not_built("ad_launch_app_exact");
}

AdResult ad_close_app(
    const struct AdAdapter *adapter, const char *id, bool force)
{
    (void)adapter;
    (void)id;
    (void)force;
    return not_built("ad_close_app");
}

AdResult ad_list_apps(
    const struct AdAdapter *adapter, struct AdAppList **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    return not_built("ad_list_apps");
}

uint32_t ad_app_list_count(
    const struct AdAppList *list)
{
    (void)list;
    return 0;
}

const struct AdAppInfo *ad_app_list_get(
    const struct AdAppList *list, uint32_t index)
{
    (void)list;
    (void)index;
    return NULL;
}

void ad_app_list_free(
    struct AdAppList *list)
{
    (void)list;
}

AdResult ad_list_windows_exact(
    const struct AdAdapter *adapter, const char *app_filter, bool focused_only,
    struct AdExactWindowList **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)app_filter;
    (void)focused_only;
    return not_built("ad_list_windows_exact");
}

uint32_t ad_exact_window_list_count(
    const struct AdExactWindowList *list)
{
    (void)list;
    return 0;
}

const struct AdExactWindowInfo *ad_exact_window_list_get(
    const struct AdExactWindowList *list, uint32_t index)
{
    (void)list;
    (void)index;
    return NULL;
}

void ad_exact_window_list_free(
    struct AdExactWindowList *list)
{
    (void)list;
}

AdResult ad_focus_window_exact(
    const struct AdAdapter *adapter, const struct AdExactWindowInfo *win)
{
    (void)adapter;
    (void)win;
    return not_built("ad_focus_window_exact");
}

AdResult ad_window_op_exact(
    const struct AdAdapter *adapter, const struct AdExactWindowInfo *win, struct AdWindowOp op)
{
    (void)adapter;
    (void)win;
    (void)op;
    return not_built("ad_window_op_exact");
}

void ad_release_exact_window_fields(
    struct AdExactWindowInfo *win)
{
    (void)win;
}

AdResult ad_list_surfaces_exact(
    const struct AdAdapter *adapter, uint32_t pid, struct AdExactSurfaceList **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)pid;
    return not_built("ad_list_surfaces_exact");
}

uint32_t ad_exact_surface_list_count(
    const struct AdExactSurfaceList *list)
{
    (void)list;
    return 0;
}

const struct AdExactSurfaceInfo *ad_exact_surface_list_get(
    const struct AdExactSurfaceList *list, uint32_t index)
{
    (void)list;
    (void)index;
    return NULL;
}

void ad_exact_surface_list_free(
    struct AdExactSurfaceList *list)
{
    (void)list;
}

AdResult ad_list_displays(
    const struct AdAdapter *adapter, struct AdDisplayList **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    return not_built("ad_list_displays");
}

uint32_t ad_display_list_count(
    const struct AdDisplayList *list)
{
    (void)list;
    return 0;
}

const struct AdDisplayInfo *ad_display_list_get(
    const struct AdDisplayList *list, uint32_t index)
{
    (void)list;
    (void)index;
    return NULL;
}

void ad_display_list_free(
    struct AdDisplayList *list)
{
    (void)list;
}

AdResult ad_screenshot(
    const struct AdAdapter *adapter, const struct AdScreenshotTarget *target,
    struct AdImageBuffer **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)target;
    return not_built("ad_screenshot");
}

AdResult ad_screenshot_window_exact(
    const struct AdAdapter *adapter, const struct AdExactWindowInfo *window,
    struct AdImageBuffer **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)window;
    return not_built("ad_screenshot_window_exact");
}

const uint8_t *ad_image_buffer_data(
    const struct AdImageBuffer *buf)
{
    (void)buf;
    return NULL;
}

uint64_t ad_image_buffer_size(
    const struct AdImageBuffer *buf)
{
    (void)buf;
    return 0;
}

uint32_t ad_image_buffer_width(
    const struct AdImageBuffer *buf)
{
    (void)buf;
    return 0;
}

uint32_t ad_image_buffer_height(
    const struct AdImageBuffer *buf)
{
    (void)buf;
    return 0;
}

AdImageFormat ad_image_buffer_format(
    const struct AdImageBuffer *buf)
{
    (void)buf;
    return AD_IMAGE_FORMAT_PNG;
}

double ad_image_buffer_scale_factor(
    const struct AdImageBuffer *buf)
{
    (void)buf;
    return 0;
}

void ad_image_buffer_free(
    struct AdImageBuffer *buf)
{
    (void)buf;
}

AdResult ad_get_clipboard(
    const struct AdAdapter *adapter, char **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    return not_built("ad_get_clipboard");
}

AdResult ad_set_clipboard(
    const struct AdAdapter *adapter, const char *text)
{
    (void)adapter;
    (void)text;
    return not_built("ad_set_clipboard");
}

AdResult ad_clear_clipboard(
    const struct AdAdapter *adapter)
{
    (void)adapter;
    return not_built("ad_clear_clipboard");
}

AdResult ad_drag(
    const struct AdAdapter *adapter, const struct AdDragParams *params)
{
    (void)adapter;
    (void)params;
    return not_built("ad_drag");
}

AdResult ad_mouse_event(
    const struct AdAdapter *adapter, const struct AdMouseEvent *event)
{
    (void)adapter;
    (void)event;
    return not_built("ad_mouse_event");
}

AdResult ad_mouse_event_with_modifiers(
    const struct AdAdapter *adapter, const struct AdMouseEvent *event,
    const int32_t *modifiers, uint32_t modifier_count)
{
    (void)adapter;
    (void)event;
    (void)modifiers;
    (void)modifier_count;
    return not_built("ad_mouse_event_with_modifiers");
}

AdResult ad_mouse_wheel(
    const struct AdAdapter *adapter, struct AdPoint point, double delta_x, double delta_y,
    uint32_t modifier_mask)
{
    (void)adapter;
    (void)point;
    (void)delta_x;
    (void)delta_y;
    (void)modifier_mask;
    return not_built("ad_mouse_wheel");
}

AdResult ad_list_notifications(
    const struct AdAdapter *adapter, const struct AdNotificationFilter *filter,
    struct AdNotificationList **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)filter;
    return not_built("ad_list_notifications");
}

uint32_t ad_notification_list_count(
    const struct AdNotificationList *list)
{
    (void)list;
    return 0;
}

const struct AdNotificationInfo *ad_notification_list_get(
    const struct AdNotificationList *list, uint32_t index)
{
    (void)list;
    (void)index;
    return NULL;
}

void ad_notification_list_free(
    struct AdNotificationList *list)
{
    (void)list;
}

AdResult ad_notification_action(
    const struct AdAdapter *adapter, const struct AdNotificationActionRequest *request,
    struct AdActionResult *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)request;
    return not_built("ad_notification_action");
}

AdResult ad_dismiss_notification(
    const struct AdAdapter *adapter, uint32_t index, const char *app_filter,
    const char *expected_app, const char *expected_title)
{
    (void)adapter;
    (void)index;
    (void)app_filter;
    (void)expected_app;
    (void)expected_title;
    return not_built("ad_dismiss_notification");
}

AdResult ad_dismiss_all_notifications(
    const struct AdAdapter *adapter, const char *app_filter,
    struct AdNotificationList **dismissed_out, struct AdNotificationList **failed_out)
{
    if (dismissed_out)
        memset(dismissed_out, 0, sizeof(*dismissed_out));
    if (failed_out)
        memset(failed_out, 0, sizeof(*failed_out));
    (void)adapter;
    (void)app_filter;
    return not_built("ad_dismiss_all_notifications");
}

void ad_dismiss_all_notifications_free(
    struct AdNotificationList *dismissed, struct AdNotificationList *failed)
{
    (void)dismissed;
    (void)failed;
}

AdResult ad_set_log_callback(void (*callback)(int32_t level, const char *msg))
{
    (void)callback;
    return not_built("ad_set_log_callback");
}
