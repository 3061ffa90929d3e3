/* ffi_handle.c: native handles (AdNativeHandle), the token ad_find_exact publishes for one
 * resolved element. A handle names the element by its adapter-private address (AT-SPI bus
 * name and object path, stable for the object's life) inside one window id; every use reads
 * the window live and lands on that address, so a handle never acts on a stale copy.
 *
 * A handle is bound to the adapter and the thread that resolved it
 * (ownership-and-threading.md, Threading): each thread keeps its own registry of the handles
 * it published, so a handle used on another thread (or after ad_free_handle) is not in the
 * caller's registry and is refused with INVALID_ARGS before anything dereferences it. */
#include <stdlib.h>
#include <string.h>

#include "core/deadline.h"
#include "ffi/ffi_private.h"

struct ffi_element {
    const struct AdAdapter *adapter; /* borrowed: compared, never dereferenced */
    char *window_id;                 /* owned */
    char *address;                   /* owned: the element's adapter-private locator */
    struct ffi_element *next;        /* the thread's registry */
};

/* The handles this thread published and has not freed. A thread that exits with handles
 * still published leaks them: they can no longer be used or freed by anyone. */
static _Thread_local ffi_element *tl_handles;

static ffi_element **registry_slot(const void *ptr)
{
    for (ffi_element **p = &tl_handles; *p; p = &(*p)->next)
        if (*p == ptr)
            return p;
    return NULL;
}

AdResult ffi_handle_publish(const struct AdAdapter *adapter, const char *window_id,
                            const char *address, AdNativeHandle *out)
{
    ffi_element *e = calloc(1, sizeof(*e));
    if (e) {
        e->window_id = strdup(window_id);
        e->address = strdup(address);
    }
    if (!e || !e->window_id || !e->address) {
        if (e) {
            free(e->window_id);
            free(e->address);
        }
        free(e);
        return ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    }
    e->adapter = adapter;
    e->next = tl_handles;
    tl_handles = e;
    out->ptr = e;
    return AD_RESULT_OK;
}

AdResult ffi_handle_check(const struct AdAdapter *adapter, const AdNativeHandle *handle,
                          const ffi_element **ret)
{
    *ret = NULL;
    AdResult rc = ffi_check_ptr(handle, "handle");
    if (rc != AD_RESULT_OK)
        return rc;
    if (!handle->ptr)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "handle is empty (freed or never resolved)",
                        "Resolve an element with ad_find_exact");
    ffi_element **slot = registry_slot(handle->ptr);
    if (!slot)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS,
                        "handle was not resolved on this thread, or was already freed",
                        "Use a native handle only on the thread that resolved it; pass a "
                        "qualified ref across threads and use ad_execute_by_ref");
    if ((*slot)->adapter != adapter)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "handle belongs to another adapter",
                        "Use a native handle only with the adapter that resolved it");
    *ret = *slot;
    return AD_RESULT_OK;
}

AdResult ad_free_handle(const struct AdAdapter *adapter, struct AdNativeHandle *handle)
{
    if (!handle || !handle->ptr)
        return AD_RESULT_OK; /* NULL-tolerant; a zeroed handle is already released */
    const ffi_element *e = NULL;
    AdResult rc = ffi_handle_check(adapter, handle, &e);
    if (rc != AD_RESULT_OK)
        return rc;
    ffi_element **slot = registry_slot(e);
    *slot = e->next;
    free(e->window_id);
    free(e->address);
    free((ffi_element *)e);
    handle->ptr = NULL;
    return AD_RESULT_OK;
}

const char *ffi_handle_window(const ffi_element *e)
{
    return e->window_id;
}

static ad_node *by_address(ad_node *n, const char *address)
{
    if (n->address && strcmp(n->address, address) == 0)
        return n;
    for (size_t i = 0; i < n->n_children; i++) {
        ad_node *hit = by_address(n->children[i], address);
        if (hit)
            return hit;
    }
    return NULL;
}

AdResult ffi_handle_land(ad_adapter *platform, const ffi_element *e, bool all_bounds,
                         ad_tree *tree, ad_node **node)
{
    *node = NULL;
    memset(tree, 0, sizeof(*tree));
    ad_read_limits lim = ad_read_limits_default(ad_deadline_after_ms(FFI_HANDLE_READ_MS));
    lim.all_bounds = all_bounds;
    ad_error err = AD_ERROR_INIT;
    if (platform->ops->read_window(platform, e->window_id, &lim, tree, &err) < 0) {
        if (err.code == AD_WINDOW_NOT_FOUND) /* the window closed: the element went with it */
            ad_error_set(&err, AD_STALE_REF, "The window of the native handle has closed");
        AdResult rc = ffi_fail_record(&err);
        ad_error_clear(&err);
        return rc;
    }
    *node = tree->root ? by_address(tree->root, e->address) : NULL;
    if (*node)
        return AD_RESULT_OK;
    bool complete = tree->complete;
    ad_tree_clear(tree);
    if (!complete) /* not found in a cut read proves nothing */
        return ffi_fail(AD_RESULT_ERR_TIMEOUT,
                        "The element of the native handle could not be found before the "
                        "deadline: the read of its window was incomplete",
                        "Retry, or resolve the element again with ad_find_exact");
    return ffi_fail(AD_RESULT_ERR_STALE_REF, "The element of the native handle is gone",
                    "Resolve the element again with ad_find_exact");
}
