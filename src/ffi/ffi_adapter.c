/* ffi_adapter.c: struct AdAdapter, the token a host holds. It owns one live platform adapter
 * (its bus connections and caches) for its whole life; calls on one adapter are serialized
 * on its lock because a platform adapter (one sd-bus connection) serves one call at a time.
 *
 * TODO(issue 11): destroy must let calls in flight finish and make later calls fail with
 * INVALID_ARGS; today the struct is freed at once, so a later call is a use after free. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_private.h"
#include "linux/linux_adapter.h"

struct AdAdapter {
    pthread_mutex_t lock; /* held from ffi_call_begin to ffi_call_end */
    ad_adapter *platform; /* owned, live for the adapter's life */
    char *session;        /* owned, NULL: none */
};

struct AdAdapter *ad_adapter_create_with_session(const char *session)
{
    if (ffi_check_string(session, "session", false) != AD_RESULT_OK)
        return NULL;
    struct AdAdapter *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    pthread_mutex_init(&a->lock, NULL);
    a->platform = ad_linux_adapter_new();
    if (!a->platform || (session && !(a->session = strdup(session)))) {
        ad_adapter_destroy(a);
        ffi_fail(AD_RESULT_ERR_INTERNAL, "could not create the platform adapter", NULL);
        return NULL;
    }
    return a;
}

struct AdAdapter *ad_adapter_create(void)
{
    return ad_adapter_create_with_session(NULL);
}

void ad_adapter_destroy(struct AdAdapter *adapter)
{
    if (!adapter)
        return;
    if (adapter->platform)
        adapter->platform->ops->destroy(adapter->platform);
    pthread_mutex_destroy(&adapter->lock);
    free(adapter->session);
    free(adapter);
}

AdResult ffi_call_begin(const struct AdAdapter *adapter, ad_adapter **platform)
{
    *platform = NULL;
    if (!adapter)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "adapter must not be NULL",
                        "Create one with ad_adapter_create");
    struct AdAdapter *a = (struct AdAdapter *)adapter;
    pthread_mutex_lock(&a->lock);
    *platform = a->platform;
    return AD_RESULT_OK;
}

void ffi_call_end(const struct AdAdapter *adapter)
{
    if (adapter)
        pthread_mutex_unlock(&((struct AdAdapter *)adapter)->lock);
}

const char *ffi_adapter_session(const struct AdAdapter *adapter)
{
    return adapter ? adapter->session : NULL;
}
