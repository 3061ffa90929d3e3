/* ffi_input.c: the clipboard (clipboard-get, clipboard-set, clipboard-clear) and physical
 * mouse input (mouse-move, mouse-down, mouse-up, mouse-click, mouse-wheel, drag). The mouse
 * calls carry no headless policy (api.md "Mouse"): they run as the CLI does with --headed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_exact.h"

AdResult ad_get_clipboard(const struct AdAdapter *adapter, char **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *data = NULL;
    if ((rc = ffi_run(adapter, "clipboard-get", json_object(), &data, NULL)) != AD_RESULT_OK)
        return rc;
    /* No text on the clipboard is a success with found: false (clipboard.md): OK, *out NULL. */
    const char *text = ffi_json_str(data, "text");
    if (text && !(*out = strdup(text)))
        rc = ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    json_decref(data);
    return rc;
}

AdResult ad_set_clipboard(const struct AdAdapter *adapter, const char *text)
{
    AdResult rc = ffi_check_string(text, "text", true);
    if (rc != AD_RESULT_OK)
        return rc;
    /* The validator bounds the text (clipboard-set takes at most 128 KiB). */
    return ffi_run(adapter, "clipboard-set", json_pack("{s:s}", "text", text), NULL, NULL);
}

AdResult ad_clear_clipboard(const struct AdAdapter *adapter)
{
    return ffi_run(adapter, "clipboard-clear", json_object(), NULL, NULL);
}

/* p as the commands' "X,Y" (whole pixels) into xy. */
static AdResult xy_of(AdPoint p, const char *what, char xy[32])
{
    int x, y;
    AdResult rc = ffi_whole(p.x, what, &x);
    if (rc == AD_RESULT_OK)
        rc = ffi_whole(p.y, what, &y);
    if (rc == AD_RESULT_OK)
        snprintf(xy, 32, "%d,%d", x, y);
    return rc;
}

/* AdModifier values in order, as --modifiers names them. */
static const char *const modifier_names[] = {"meta", "ctrl", "alt", "shift"};

/* AdMouseButton values in order, as --button names them. */
static const char *const button_names[] = {"left", "right", "middle"};

/* AdMouseEventKind values in order: the command each runs. */
static const char *const mouse_commands[] = {"mouse-move", "mouse-down", "mouse-up",
                                             "mouse-click"};

/* Adds "modifiers": [names] to args for the AdModifier values given. */
static AdResult add_modifiers(json_t *args, const int32_t *mods, uint32_t n)
{
    if (n == 0)
        return AD_RESULT_OK;
    AdResult rc = ffi_check_ptr(mods, "modifiers");
    json_t *names = json_array();
    for (uint32_t i = 0; rc == AD_RESULT_OK && i < n; i++) {
        rc = ffi_check_enum(mods[i], AD_MODIFIER_META, AD_MODIFIER_SHIFT, "modifier");
        if (rc == AD_RESULT_OK)
            json_array_append_new(names, json_string(modifier_names[mods[i]]));
    }
    json_object_set_new(args, "modifiers", names);
    return rc;
}

AdResult ad_mouse_event_with_modifiers(const struct AdAdapter *adapter,
                                       const struct AdMouseEvent *event,
                                       const int32_t *modifiers, uint32_t modifier_count)
{
    AdResult rc = ffi_check_ptr(event, "event");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_enum(event->kind, AD_MOUSE_EVENT_KIND_MOVE, AD_MOUSE_EVENT_KIND_CLICK,
                            "event.kind");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_enum(event->button, AD_MOUSE_BUTTON_LEFT, AD_MOUSE_BUTTON_MIDDLE,
                            "event.button");
    char xy[32];
    if (rc == AD_RESULT_OK)
        rc = xy_of(event->point, "event.point", xy);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *args = json_pack("{s:s}", "xy", xy);
    /* Each command takes only its own flags: the validator refuses a button for a move and
     * modifiers for a move or an up, as the CLI would. */
    if (event->kind != AD_MOUSE_EVENT_KIND_MOVE)
        json_object_set_new(args, "button", json_string(button_names[event->button]));
    if (event->kind == AD_MOUSE_EVENT_KIND_CLICK)
        json_object_set_new(args, "count", json_integer(event->click_count));
    if ((rc = add_modifiers(args, modifiers, modifier_count)) != AD_RESULT_OK) {
        json_decref(args);
        return rc;
    }
    return ffi_run_headed(adapter, mouse_commands[event->kind], args, NULL, NULL);
}

AdResult ad_mouse_event(const struct AdAdapter *adapter, const struct AdMouseEvent *event)
{
    return ad_mouse_event_with_modifiers(adapter, event, NULL, 0);
}

AdResult ad_mouse_wheel(const struct AdAdapter *adapter, struct AdPoint point, double delta_x,
                        double delta_y, uint32_t modifier_mask)
{
    if (modifier_mask > 0xfu)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS,
                        "modifier_mask has bits above 3 (0 meta, 1 ctrl, 2 alt, 3 shift)", NULL);
    int x, y, dx, dy;
    AdResult rc = ffi_whole(point.x, "point.x", &x);
    if (rc == AD_RESULT_OK)
        rc = ffi_whole(point.y, "point.y", &y);
    if (rc == AD_RESULT_OK)
        rc = ffi_whole(delta_x, "delta_x", &dx);
    if (rc == AD_RESULT_OK)
        rc = ffi_whole(delta_y, "delta_y", &dy);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *args = json_pack("{s:i, s:i, s:i, s:i}", "x", x, "y", y, "dx", dx, "dy", dy);
    int32_t mods[4];
    uint32_t n = 0;
    for (int32_t bit = AD_MODIFIER_META; bit <= AD_MODIFIER_SHIFT; bit++)
        if (modifier_mask & (1u << bit))
            mods[n++] = bit;
    add_modifiers(args, mods, n); /* valid by construction */
    return ffi_run_headed(adapter, "mouse-wheel", args, NULL, NULL);
}

AdResult ad_drag(const struct AdAdapter *adapter, const struct AdDragParams *params)
{
    AdResult rc = ffi_check_ptr(params, "params");
    char from[32], to[32];
    if (rc == AD_RESULT_OK)
        rc = xy_of(params->from, "params.from", from);
    if (rc == AD_RESULT_OK)
        rc = xy_of(params->to, "params.to", to);
    if (rc != AD_RESULT_OK)
        return rc;
    /* A duration beyond int64 is outside the command's range either way (-1: refused). */
    json_int_t ms = params->duration_ms > (uint64_t)INT64_MAX ? -1 : (json_int_t)params->duration_ms;
    json_int_t delay = params->drop_delay_ms > (uint64_t)INT64_MAX
                           ? -1
                           : (json_int_t)params->drop_delay_ms;
    json_t *args = json_pack("{s:s, s:s, s:I, s:I}", "from_xy", from, "to_xy", to, "duration", ms,
                             "drop_delay", delay);
    return ffi_run_headed(adapter, "drag", args, NULL, NULL);
}
