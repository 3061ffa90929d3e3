/* ffi_exact.c: the shared pieces of the typed calls: JSON members into ABI fields, exact
 * window checks (version, size, process instance) and coordinate conversion. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_exact.h"

const char *ffi_json_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

uint32_t ffi_json_pid(const json_t *o, const char *key)
{
    json_int_t v = json_integer_value(json_object_get(o, key));
    return v > 0 && v <= (json_int_t)UINT32_MAX ? (uint32_t)v : 0;
}

double ffi_json_num(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

bool ffi_json_rect(const json_t *o, AdRect *r)
{
    memset(r, 0, sizeof(*r));
    const json_t *b = json_object_get(o, "bounds");
    if (!json_is_object(b))
        return false;
    r->x = ffi_json_num(b, "x");
    r->y = ffi_json_num(b, "y");
    r->width = ffi_json_num(b, "width");
    r->height = ffi_json_num(b, "height");
    return true;
}

void ffi_exact_window_of(const json_t *row, AdExactWindowInfo *out)
{
    memset(out, 0, sizeof(*out));
    out->version = AD_EXACT_WINDOW_INFO_VERSION;
    out->size = (uint32_t)AD_EXACT_WINDOW_INFO_SIZE;
    out->window.id = ffi_json_str(row, "id");
    out->window.title = ffi_json_str(row, "title");
    out->window.app_name = ffi_json_str(row, "app_name");
    out->window.pid = ffi_json_pid(row, "pid");
    out->window.has_bounds = ffi_json_rect(row, &out->window.bounds);
    out->window.is_focused = json_is_true(json_object_get(row, "is_focused"));
    out->process_instance = ffi_json_str(row, "process_instance");
    out->accessible = json_is_true(json_object_get(row, "accessible"));
}

AdResult ffi_check_exact_window(const AdExactWindowInfo *win, const char *what)
{
    AdResult rc = ffi_check_ptr(win, what);
    if (rc != AD_RESULT_OK)
        return rc;
    if (win->version != AD_EXACT_WINDOW_INFO_VERSION || win->size != AD_EXACT_WINDOW_INFO_SIZE) {
        char msg[200];
        snprintf(msg, sizeof(msg), "%s has version %u and size %u; this library takes "
                 "version %u, size %zu", what, (unsigned)win->version, (unsigned)win->size,
                 (unsigned)AD_EXACT_WINDOW_INFO_VERSION, (size_t)AD_EXACT_WINDOW_INFO_SIZE);
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg,
                        "Pass a window from ad_list_windows_exact or ad_launch_app_exact");
    }
    rc = ffi_check_string(win->window.id, "window.id", true);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(win->window.app_name, "window.app_name", false);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(win->process_instance, "process_instance", false);
    return rc;
}

AdResult ffi_check_window_identity(const struct AdAdapter *adapter, const AdExactWindowInfo *win)
{
    if (!win->process_instance)
        return AD_RESULT_OK;
    json_t *rows = NULL;
    AdResult rc = ffi_run(adapter, "list-windows", json_object(), &rows, NULL);
    if (rc != AD_RESULT_OK)
        return rc;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const char *id = ffi_json_str(row, "id");
        if (!id || strcmp(id, win->window.id) != 0)
            continue;
        const char *now = ffi_json_str(row, "process_instance");
        if (now && strcmp(now, win->process_instance) != 0) {
            char msg[300];
            snprintf(msg, sizeof(msg), "Window '%.100s' now belongs to process instance %.60s, "
                     "not %.60s", win->window.id, now, win->process_instance);
            rc = ffi_fail(AD_RESULT_ERR_STALE_REF, msg,
                          "List the windows again with ad_list_windows_exact");
        }
        break;
    }
    json_decref(rows);
    return rc;
}

json_t *ffi_window_target(const AdExactWindowInfo *win)
{
    return json_pack("{s:s}", "window_id", win->window.id);
}

AdResult ffi_whole(double v, const char *what, int *out)
{
    *out = 0;
    if (!isfinite(v) || v < (double)INT32_MIN || v > (double)INT32_MAX) {
        char msg[160];
        snprintf(msg, sizeof(msg), "%s is not a finite value within int32", what);
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg, NULL);
    }
    *out = (int)(v < 0 ? v - 0.5 : v + 0.5); /* to the nearest, halves away from 0 */
    return AD_RESULT_OK;
}
