/* ffi_surfaces.c: the overlays a process presents (api.md "Surfaces"), through list-apps (the
 * name of the pid) and list-surfaces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_exact.h"

FFI_LIST_DEFINE(AdExactSurfaceList, AdExactSurfaceInfo, ad_exact_surface_list_count,
                ad_exact_surface_list_get, ad_exact_surface_list_free)

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

