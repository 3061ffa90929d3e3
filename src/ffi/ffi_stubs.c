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

AdResult ad_set_log_callback(void (*callback)(int32_t level, const char *msg))
{
    (void)callback;
    return not_built("ad_set_log_callback");
}
