/* error.c: the error record and the recovery rules of errors-and-recovery.md. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

static const char *const code_names[] = {
    [AD_OK] = "OK",
    [AD_PERM_DENIED] = "PERM_DENIED",
    [AD_ELEMENT_NOT_FOUND] = "ELEMENT_NOT_FOUND",
    [AD_APP_NOT_FOUND] = "APP_NOT_FOUND",
    [AD_ACTION_FAILED] = "ACTION_FAILED",
    [AD_ACTION_NOT_SUPPORTED] = "ACTION_NOT_SUPPORTED",
    [AD_STALE_REF] = "STALE_REF",
    [AD_AMBIGUOUS_TARGET] = "AMBIGUOUS_TARGET",
    [AD_WINDOW_NOT_FOUND] = "WINDOW_NOT_FOUND",
    [AD_PLATFORM_NOT_SUPPORTED] = "PLATFORM_NOT_SUPPORTED",
    [AD_TIMEOUT] = "TIMEOUT",
    [AD_INVALID_ARGS] = "INVALID_ARGS",
    [AD_NOTIFICATION_NOT_FOUND] = "NOTIFICATION_NOT_FOUND",
    [AD_SNAPSHOT_NOT_FOUND] = "SNAPSHOT_NOT_FOUND",
    [AD_POLICY_DENIED] = "POLICY_DENIED",
    [AD_APP_UNRESPONSIVE] = "APP_UNRESPONSIVE",
    [AD_INTERNAL] = "INTERNAL",
};

const char *ad_error_code_name(ad_error_code code)
{
    if ((size_t)code >= sizeof(code_names) / sizeof(code_names[0]))
        return "INTERNAL";
    return code_names[code];
}

const char *ad_delivery_name(ad_delivery d)
{
    switch (d) {
    case AD_NOT_DELIVERED: return "not_delivered";
    case AD_DELIVERY_UNCERTAIN: return "delivery_uncertain";
    case AD_DELIVERED_UNVERIFIED: return "delivered_unverified";
    case AD_DELIVERED_VERIFIED: return "delivered_verified";
    case AD_DELIVERY_UNKNOWN: return "unknown";
    }
    return "unknown";
}

const char *ad_delivery_retry(ad_delivery d)
{
    if (d == AD_NOT_DELIVERED)
        return "safe";
    if (d == AD_DELIVERY_UNKNOWN)
        return "unknown";
    return "unsafe";
}

/* The formatted text, made valid UTF-8 (a message often quotes argv or app text), or NULL
 * when out of memory. */
static char *vformat(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        return NULL;
    if (ad_utf8_valid(s, strlen(s)))
        return s;
    char *clean = ad_utf8_sanitize(s);
    free(s);
    return clean;
}

int ad_error_set(ad_error *err, ad_error_code code, const char *fmt, ...)
{
    if (!err)
        return -1;
    ad_error_clear(err);
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    err->message = vformat(fmt, ap);
    va_end(ap);
    return -1;
}

void ad_error_suggest(ad_error *err, const char *fmt, ...)
{
    free(err->suggestion);
    va_list ap;
    va_start(ap, fmt);
    err->suggestion = vformat(fmt, ap);
    va_end(ap);
}

void ad_error_platform_detail(ad_error *err, const char *text)
{
    free(err->platform_detail);
    err->platform_detail = text ? ad_utf8_sanitize(text) : NULL;
}

void ad_error_detail(ad_error *err, const char *key, json_t *value)
{
    if (!err->details)
        err->details = json_object();
    json_object_set_new(err->details, key, value ? value : json_null());
}

void ad_error_detail_text(ad_error *err, const char *key, const char *text)
{
    ad_error_detail(err, key, text ? ad_json_text(text) : NULL);
}

void ad_error_clear(ad_error *err)
{
    free(err->message);
    free(err->suggestion);
    free(err->platform_detail);
    json_decref(err->details);
    memset(err, 0, sizeof(*err));
}

void ad_error_move(ad_error *dst, ad_error *src)
{
    ad_error_clear(dst);
    *dst = *src;
    memset(src, 0, sizeof(*src));
}

json_t *ad_disposition_json(ad_delivery d)
{
    return json_pack("{s:s, s:s}", "delivery", ad_delivery_name(d), "retry",
                     ad_delivery_retry(d));
}

ad_delivery ad_delivery_parse(const char *name)
{
    for (ad_delivery d = AD_NOT_DELIVERED; d <= AD_DELIVERY_UNKNOWN; d++)
        if (name && strcmp(name, ad_delivery_name(d)) == 0)
            return d;
    return AD_DELIVERY_UNKNOWN;
}

/* The declared plan for a code, or NULL. STALE_REF switches plan on an exited process. */
static const char *recovery_strategy(const ad_error *err)
{
    switch (err->code) {
    case AD_STALE_REF: {
        json_t *ps = err->details ? json_object_get(err->details, "process_state") : NULL;
        if (json_is_string(ps) && strcmp(json_string_value(ps), "exited") == 0)
            return "inspect_state_then_retry_original";
        return "refresh_snapshot_then_retry_original";
    }
    case AD_SNAPSHOT_NOT_FOUND: return "refresh_snapshot_then_retry_original";
    case AD_TIMEOUT:
    case AD_APP_UNRESPONSIVE: return "inspect_state_then_retry_original";
    case AD_POLICY_DENIED: return "request_explicit_policy_then_retry_original";
    default: return NULL;
    }
}

static json_t *recovery_json(const ad_error *err)
{
    if (err->delivery != AD_NOT_DELIVERED)
        return NULL;
    json_t *retryable = err->details ? json_object_get(err->details, "retryable") : NULL;
    if (json_is_false(retryable))
        return NULL;
    const char *strategy = recovery_strategy(err);
    if (!strategy)
        return NULL;
    bool fresh = err->code != AD_POLICY_DENIED;
    json_t *r = json_pack("{s:s, s:b, s:b}", "strategy", strategy, "retryable", 1,
                          "requires_fresh_snapshot", fresh);
    if (err->code == AD_TIMEOUT || err->code == AD_APP_UNRESPONSIVE)
        json_object_set_new(r, "retry_after_ms", json_integer(250));
    return r;
}

json_t *ad_error_to_json(const ad_error *err)
{
    json_t *e = json_object();
    json_object_set_new(e, "code", json_string(ad_error_code_name(err->code)));
    /* message is required: an error record without one still says something. */
    json_object_set_new(e, "message", ad_json_text(err->message && *err->message
                                                       ? err->message
                                                       : "error without a message"));
    if (err->suggestion)
        json_object_set_new(e, "suggestion", ad_json_text(err->suggestion));
    json_t *recovery = recovery_json(err);
    if (recovery)
        json_object_set_new(e, "recovery", recovery);
    if (err->platform_detail)
        json_object_set_new(e, "platform_detail", ad_json_text(err->platform_detail));
    if (err->details && json_object_size(err->details) > 0)
        json_object_set(e, "details", err->details);
    json_object_set_new(e, "disposition", ad_disposition_json(err->delivery));
    return e;
}
