/* ffi_adapter.c: struct AdAdapter, the token a host holds (ownership-and-threading.md).
 *
 * Platform adapters. One platform adapter (one sd-bus connection, its caches) serves one call
 * at a time, so an AdAdapter owns a small pool of them: a call takes an idle one (creating
 * one only when every one is busy) and gives it back when it ends. Sequential calls reuse one
 * connection; concurrent calls on one adapter (read and read, read and mutation) each run on
 * their own and do not wait for each other. Mutations still serialize, through the
 * interaction lease that ad_dispatch's handlers take (core/lease.h), shared with the CLI.
 * The pool never holds more adapters than the most calls that ever ran at once.
 *
 * Revocation. ad_adapter_destroy marks the adapter revoked, waits for the calls in flight to
 * end, and releases everything the adapter owns (its platform adapters, their connections
 * and caches, the session id). A later call passes the same pointer, so the struct itself
 * cannot be freed: it stays as a tombstone (this struct, with its lock and the revoked flag,
 * nothing else) and every later ffi_call_begin reads "revoked" from it under its lock and
 * fails with INVALID_ARGS. The alternatives were worse: a process-wide registry of live
 * adapters is process-global mutable state, which the ABI allows only for the last error and
 * the log callback, and a freed struct makes a later call a use after free. The tombstone is
 * a deliberate retention of sizeof(struct AdAdapter) bytes per destroyed adapter for the life
 * of the process, and it is told to LeakSanitizer as such (lsan_keep); every other byte the
 * adapter owned is freed by destroy, which LSan checks. A second destroy is a no-op.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_private.h"
#include "linux/linux_adapter.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
/* The tombstone is kept on purpose (see the header comment). */
static void lsan_keep(const void *p) { __lsan_ignore_object(p); }
#else
static void lsan_keep(const void *p) { (void)p; }
#endif

typedef struct pooled {
    ad_adapter *platform; /* owned */
    struct pooled *next;
} pooled;

struct AdAdapter {
    pthread_mutex_t lock; /* guards everything below; never destroyed (the tombstone's) */
    pthread_cond_t idle;  /* signalled when in_flight drops to 0 */
    bool revoked;         /* destroy has begun: calls that start now fail */
    unsigned in_flight;   /* calls between ffi_call_begin and ffi_call_end */
    pooled *free_list;    /* idle platform adapters, owned */
    unsigned pool_size;   /* every platform adapter ever created and not yet destroyed */
    char *session;        /* owned, NULL: none; freed by destroy */
};

/* Thread-local: what the calling thread borrowed, innermost last, so ffi_call_end gives back
 * the right one. A call may begin inside another on the same thread (a typed call checking a
 * window through ffi_run while it holds the adapter): on the same adapter it reuses the
 * platform adapter it already holds (a second one would be a second connection for nothing).
 * Not an adapter's state: an entry lives only from ffi_call_begin to its ffi_call_end. */
#define MAX_NESTED_CALLS 8
typedef struct {
    const struct AdAdapter *adapter;
    pooled *p;
    bool reused; /* an outer call on this thread holds p: the outer end gives it back */
} borrowed;
static _Thread_local borrowed tl_borrowed[MAX_NESTED_CALLS];
static _Thread_local unsigned tl_depth;

/* The entry this thread already holds for adapter, or NULL. */
static pooled *held_by_this_thread(const struct AdAdapter *adapter)
{
    for (unsigned i = tl_depth; i > 0; i--)
        if (tl_borrowed[i - 1].adapter == adapter)
            return tl_borrowed[i - 1].p;
    return NULL;
}

struct AdAdapter *ad_adapter_create_with_session(const char *session)
{
    if (ffi_check_string(session, "session", false) != AD_RESULT_OK)
        return NULL;
    struct AdAdapter *a = calloc(1, sizeof(*a));
    if (!a) {
        ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
        return NULL;
    }
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->idle, NULL);
    /* The first platform adapter now, so a host learns at once when none can be made. */
    pooled *p = calloc(1, sizeof(*p));
    if (p)
        p->platform = ad_linux_adapter_new();
    if (!p || !p->platform || (session && !(a->session = strdup(session)))) {
        if (p && p->platform)
            p->platform->ops->destroy(p->platform);
        free(p);
        free(a->session);
        pthread_cond_destroy(&a->idle);
        pthread_mutex_destroy(&a->lock);
        free(a);
        ffi_fail(AD_RESULT_ERR_INTERNAL, "could not create the platform adapter", NULL);
        return NULL;
    }
    a->free_list = p;
    a->pool_size = 1;
    return a;
}

struct AdAdapter *ad_adapter_create(void)
{
    return ad_adapter_create_with_session(NULL);
}

static void pool_destroy(pooled *list)
{
    while (list) {
        pooled *next = list->next;
        list->platform->ops->destroy(list->platform);
        free(list);
        list = next;
    }
}

void ad_adapter_destroy(struct AdAdapter *adapter)
{
    if (!adapter)
        return;
    pthread_mutex_lock(&adapter->lock);
    if (adapter->revoked) { /* destroyed before, or being destroyed by another thread */
        pthread_mutex_unlock(&adapter->lock);
        return;
    }
    adapter->revoked = true;
    while (adapter->in_flight > 0)
        pthread_cond_wait(&adapter->idle, &adapter->lock);
    pooled *list = adapter->free_list;
    adapter->free_list = NULL;
    adapter->pool_size = 0;
    free(adapter->session);
    adapter->session = NULL;
    pthread_mutex_unlock(&adapter->lock);
    pool_destroy(list);
    lsan_keep(adapter);
}

AdResult ffi_call_begin(const struct AdAdapter *adapter, ad_adapter **platform)
{
    *platform = NULL;
    if (!adapter)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "adapter must not be NULL",
                        "Create one with ad_adapter_create");
    if (tl_depth == MAX_NESTED_CALLS)
        return ffi_fail(AD_RESULT_ERR_INTERNAL, "too many nested calls on one thread", NULL);
    struct AdAdapter *a = (struct AdAdapter *)adapter;
    pooled *held = held_by_this_thread(adapter);
    pthread_mutex_lock(&a->lock);
    if (a->revoked) {
        pthread_mutex_unlock(&a->lock);
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "the adapter was destroyed",
                        "Create a new one with ad_adapter_create");
    }
    pooled *p = held;
    if (!p && (p = a->free_list))
        a->free_list = p->next;
    a->in_flight++;
    pthread_mutex_unlock(&a->lock);
    if (!p) { /* every platform adapter is busy: one more, outside the lock */
        p = calloc(1, sizeof(*p));
        if (p && !(p->platform = ad_linux_adapter_new())) {
            free(p);
            p = NULL;
        }
        pthread_mutex_lock(&a->lock);
        if (p)
            a->pool_size++;
        else if (--a->in_flight == 0) /* this call never began: destroy may go on */
            pthread_cond_broadcast(&a->idle);
        pthread_mutex_unlock(&a->lock);
        if (!p)
            return ffi_fail(AD_RESULT_ERR_INTERNAL, "could not create a platform adapter",
                            NULL);
    }
    if (!held)
        p->next = NULL;
    tl_borrowed[tl_depth++] = (borrowed){adapter, p, held != NULL};
    *platform = p->platform;
    return AD_RESULT_OK;
}

void ffi_call_end(const struct AdAdapter *adapter)
{
    if (!adapter || tl_depth == 0)
        return;
    struct AdAdapter *a = (struct AdAdapter *)adapter;
    borrowed b = tl_borrowed[--tl_depth];
    pthread_mutex_lock(&a->lock);
    if (!b.reused) {
        b.p->next = a->free_list;
        a->free_list = b.p;
    }
    if (--a->in_flight == 0)
        pthread_cond_broadcast(&a->idle);
    pthread_mutex_unlock(&a->lock);
}

const char *ffi_adapter_session(const struct AdAdapter *adapter)
{
    /* Read between ffi_call_begin and ffi_call_end only: destroy frees it after the calls in
     * flight end. */
    return adapter ? adapter->session : NULL;
}
