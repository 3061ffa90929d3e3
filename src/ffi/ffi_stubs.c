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

AdResult ad_execute_action(
    const struct AdAdapter *adapter, const struct AdNativeHandle *handle,
    const struct AdAction *action, struct AdActionResult *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)handle;
    (void)action;
    return not_built("ad_execute_action");
}

AdResult ad_execute_action_with_policy(
    const struct AdAdapter *adapter, const struct AdNativeHandle *handle,
    const struct AdAction *action, int32_t policy, struct AdActionResult *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)handle;
    (void)action;
    (void)policy;
    return not_built("ad_execute_action_with_policy");
}

AdResult ad_execute_ref_action_exact_with_policy(
    const struct AdAdapter *adapter, const struct AdExactRefEntry *entry,
    const struct AdAction *action, int32_t policy, struct AdActionResult *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)entry;
    (void)action;
    (void)policy;
    return not_built("ad_execute_ref_action_exact_with_policy");
}

AdResult ad_resolve_element_exact(
    const struct AdAdapter *adapter, const struct AdExactRefEntry *entry,
    struct AdNativeHandle *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)entry;
    return not_built("ad_resolve_element_exact");
}

AdResult ad_free_handle(
    const struct AdAdapter *adapter, struct AdNativeHandle *handle)
{
    (void)adapter;
    (void)handle;
    return not_built("ad_free_handle");
}

void ad_free_action_result(
    struct AdActionResult *result)
{
    (void)result;
}

AdResult ad_find_exact(
    const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
    const struct AdFindQuery *query, struct AdNativeHandle *out_handle)
{
    if (out_handle)
        memset(out_handle, 0, sizeof(*out_handle));
    (void)adapter;
    (void)win;
    (void)query;
    return not_built("ad_find_exact");
}

AdResult ad_get(
    const struct AdAdapter *adapter, const struct AdNativeHandle *handle, const char *property,
    char **out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)handle;
    (void)property;
    return not_built("ad_get");
}

AdResult ad_is_exact(
    const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
    const struct AdFindQuery *query, const char *property, bool *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)win;
    (void)query;
    (void)property;
    return not_built("ad_is_exact");
}

AdResult ad_get_tree_exact(
    const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
    const struct AdTreeOptions *opts, struct AdNodeTree *out)
{
    if (out)
        memset(out, 0, sizeof(*out));
    (void)adapter;
    (void)win;
    (void)opts;
    return not_built("ad_get_tree_exact");
}

void ad_free_tree(
    struct AdNodeTree *tree)
{
    (void)tree;
}


AdResult ad_set_log_callback(void (*callback)(int32_t level, const char *msg))
{
    (void)callback;
    return not_built("ad_set_log_callback");
}
