/* error.h: the error record every layer fills and dispatch turns into an envelope.
 *
 * Errors are values: a fallible function returns -1 and fills one ad_error (code, message,
 * suggestion, details, platform_detail, delivery). The record owns its strings and its
 * details object; ad_error_clear releases them. Nothing below dispatch prints an error.
 */
#ifndef AD_ERROR_H
#define AD_ERROR_H

#include <stdbool.h>
#include <jansson.h>

typedef enum {
    AD_OK = 0,
    AD_PERM_DENIED,
    AD_ELEMENT_NOT_FOUND,
    AD_APP_NOT_FOUND,
    AD_ACTION_FAILED,
    AD_ACTION_NOT_SUPPORTED,
    AD_STALE_REF,
    AD_AMBIGUOUS_TARGET,
    AD_WINDOW_NOT_FOUND,
    AD_PLATFORM_NOT_SUPPORTED,
    AD_TIMEOUT,
    AD_INVALID_ARGS,
    AD_NOTIFICATION_NOT_FOUND,
    AD_SNAPSHOT_NOT_FOUND,
    AD_POLICY_DENIED,
    AD_APP_UNRESPONSIVE,
    AD_INTERNAL,
} ad_error_code;

/* What the failure says about whether input reached the application. */
typedef enum {
    AD_NOT_DELIVERED = 0, /* the default: nothing was sent */
    AD_DELIVERY_UNCERTAIN,
    AD_DELIVERED_UNVERIFIED,
    AD_DELIVERED_VERIFIED,
    AD_DELIVERY_UNKNOWN,
} ad_delivery;

typedef struct ad_error {
    ad_error_code code;
    char *message;
    char *suggestion;      /* NULL: no suggestion key */
    char *platform_detail; /* NULL: none */
    json_t *details;       /* NULL or an object, owned */
    ad_delivery delivery;
    bool parse_error;      /* the CLI parser could not read argv: exit 2 */
} ad_error;

#define AD_ERROR_INIT {0}

/* Fills `err` with code and a printf-style message (replacing what it held). Returns -1 so a
 * caller can write `return ad_error_set(err, ...)`. The message and the suggestion are
 * stored as valid UTF-8: bytes that are not are escaped as \xNN (core/utf8.h). */
int ad_error_set(ad_error *err, ad_error_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ad_error_suggest(ad_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ad_error_platform_detail(ad_error *err, const char *text);
/* Sets details[key] = value, stealing the reference to value (NULL sets null). */
void ad_error_detail(ad_error *err, const char *key, json_t *value);
/* Sets details[key] to text through ad_json_text (NULL sets null): for text that may hold
 * bytes from outside (argv, app text, paths), which json_string would turn into NULL. */
void ad_error_detail_text(ad_error *err, const char *key, const char *text);
void ad_error_clear(ad_error *err);
/* Moves src into dst (dst cleared first); src becomes empty. */
void ad_error_move(ad_error *dst, ad_error *src);

const char *ad_error_code_name(ad_error_code code);
const char *ad_delivery_name(ad_delivery d);
/* The retry value that follows from delivery: "safe", "unsafe" or "unknown". */
const char *ad_delivery_retry(ad_delivery d);

/* {"delivery": ..., "retry": ...} for a delivery (new reference). */
json_t *ad_disposition_json(ad_delivery d);
/* The delivery named by `name` ("delivered_verified", ...); unknown names are unknown. */
ad_delivery ad_delivery_parse(const char *name);

/* Builds the envelope's error object: code, message, suggestion, recovery (only when retry is
 * safe, a plan exists and details.retryable is not false), platform_detail, details,
 * disposition. Returns a new reference. */
json_t *ad_error_to_json(const ad_error *err);

#endif
