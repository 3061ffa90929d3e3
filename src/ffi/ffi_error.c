/* ffi_error.c: the calling thread's last error (spec/ffi/ownership-and-threading.md, Errors).
 * Filled from the core error record a failure produced, never from an envelope's JSON. Only a
 * failure replaces it, so its strings stay valid across later successful calls. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_private.h"

typedef struct {
    AdResult code;
    char *message, *suggestion, *platform_detail, *details;
    AdDeliverySemantics semantics; /* both UNKNOWN when none is recorded */
} last_error;

static _Thread_local last_error tl_error;

/* A thread's slot is freed when the thread exits: a pthread key whose value is the slot, set
 * on the thread's first failure, runs slot_free (a _Thread_local has no destructor; key
 * destructors run before the thread's TLS is released). The key is created once and never
 * changes afterwards; it is not mutable state. */
static pthread_key_t slot_key;
static pthread_once_t slot_key_once = PTHREAD_ONCE_INIT;
static _Thread_local bool tl_registered;

static void slot_free(void *slot)
{
    last_error *e = slot;
    free(e->message);
    free(e->suggestion);
    free(e->platform_detail);
    free(e->details);
    *e = (last_error){0};
}

static void slot_key_create(void)
{
    (void)pthread_key_create(&slot_key, slot_free);
}

/* Frees what the slot holds and stores a new record; strings are taken over. */
static void slot_replace(AdResult code, char *message, char *suggestion, char *platform_detail,
                         char *details, AdDeliverySemantics semantics)
{
    if (!tl_registered) {
        pthread_once(&slot_key_once, slot_key_create);
        tl_registered = pthread_setspecific(slot_key, &tl_error) == 0;
    }
    slot_free(&tl_error);
    tl_error = (last_error){code, message, suggestion, platform_detail, details, semantics};
}

AdResult ffi_result_of(ad_error_code code)
{
    switch (code) {
    case AD_OK: return AD_RESULT_OK;
    case AD_PERM_DENIED: return AD_RESULT_ERR_PERM_DENIED;
    case AD_ELEMENT_NOT_FOUND: return AD_RESULT_ERR_ELEMENT_NOT_FOUND;
    case AD_APP_NOT_FOUND: return AD_RESULT_ERR_APP_NOT_FOUND;
    case AD_ACTION_FAILED: return AD_RESULT_ERR_ACTION_FAILED;
    case AD_ACTION_NOT_SUPPORTED: return AD_RESULT_ERR_ACTION_NOT_SUPPORTED;
    case AD_STALE_REF: return AD_RESULT_ERR_STALE_REF;
    case AD_AMBIGUOUS_TARGET: return AD_RESULT_ERR_AMBIGUOUS_TARGET;
    case AD_WINDOW_NOT_FOUND: return AD_RESULT_ERR_WINDOW_NOT_FOUND;
    case AD_PLATFORM_NOT_SUPPORTED: return AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED;
    case AD_TIMEOUT: return AD_RESULT_ERR_TIMEOUT;
    case AD_INVALID_ARGS: return AD_RESULT_ERR_INVALID_ARGS;
    case AD_NOTIFICATION_NOT_FOUND: return AD_RESULT_ERR_NOTIFICATION_NOT_FOUND;
    case AD_SNAPSHOT_NOT_FOUND: return AD_RESULT_ERR_SNAPSHOT_NOT_FOUND;
    case AD_POLICY_DENIED: return AD_RESULT_ERR_POLICY_DENIED;
    case AD_APP_UNRESPONSIVE: return AD_RESULT_ERR_APP_UNRESPONSIVE;
    case AD_INTERNAL: return AD_RESULT_ERR_INTERNAL;
    }
    return AD_RESULT_ERR_INTERNAL;
}

AdDeliverySemantics ffi_semantics_of(ad_delivery d)
{
    AdDeliverySemantics s = {AD_DELIVERY_DISPOSITION_UNKNOWN, AD_RETRY_DISPOSITION_UNKNOWN};
    switch (d) {
    case AD_NOT_DELIVERED: s.delivery = AD_DELIVERY_DISPOSITION_NOT_DELIVERED; break;
    case AD_DELIVERY_UNCERTAIN: s.delivery = AD_DELIVERY_DISPOSITION_DELIVERY_UNCERTAIN; break;
    case AD_DELIVERED_UNVERIFIED:
        s.delivery = AD_DELIVERY_DISPOSITION_DELIVERED_UNVERIFIED;
        break;
    case AD_DELIVERED_VERIFIED: s.delivery = AD_DELIVERY_DISPOSITION_DELIVERED_VERIFIED; break;
    case AD_DELIVERY_UNKNOWN: break;
    }
    const char *retry = ad_delivery_retry(d);
    if (strcmp(retry, "safe") == 0)
        s.retry = AD_RETRY_DISPOSITION_SAFE;
    else if (strcmp(retry, "unsafe") == 0)
        s.retry = AD_RETRY_DISPOSITION_UNSAFE;
    return s;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

AdResult ffi_fail_record(const ad_error *err)
{
    AdResult code = ffi_result_of(err->code);
    if (code == AD_RESULT_OK) /* a record without a failure code is itself a bug */
        code = AD_RESULT_ERR_INTERNAL;
    slot_replace(code, dup_or_null(err->message), dup_or_null(err->suggestion),
                 dup_or_null(err->platform_detail),
                 err->details ? json_dumps(err->details, JSON_COMPACT) : NULL,
                 ffi_semantics_of(err->delivery));
    return code;
}

AdResult ffi_fail(AdResult code, const char *message, const char *suggestion)
{
    slot_replace(code, dup_or_null(message), dup_or_null(suggestion), NULL, NULL,
                 ffi_semantics_of(AD_NOT_DELIVERED));
    return code;
}

AdResult ad_last_error_code(void) { return tl_error.code; }
const char *ad_last_error_message(void) { return tl_error.message; }
const char *ad_last_error_suggestion(void) { return tl_error.suggestion; }
const char *ad_last_error_platform_detail(void) { return tl_error.platform_detail; }
const char *ad_last_error_details(void) { return tl_error.details; }

AdResult ad_last_error_delivery_semantics(struct AdDeliverySemantics *out)
{
    if (!out)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "out must not be NULL", NULL);
    if (tl_error.code == AD_RESULT_OK)
        *out = (AdDeliverySemantics){AD_DELIVERY_DISPOSITION_UNKNOWN,
                                     AD_RETRY_DISPOSITION_UNKNOWN};
    else
        *out = tl_error.semantics;
    return AD_RESULT_OK;
}
