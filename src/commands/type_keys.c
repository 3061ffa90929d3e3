/* type_keys.c: type --interval-ms: one keystroke every MS milliseconds (interaction.md,
 * "type"). The first keystroke runs as a full ref action; each one takes the interaction
 * lease only while it is delivered, so other agents can act between keystrokes. A keystroke
 * is a character with the combining marks, variation selectors and joined characters drawn
 * with it; CR LF is one keystroke. The field is read once at the end. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands/common.h"
#include "commands/type_keys.h"
#include "core/resolve.h"

static uint32_t decode(const char *s, size_t *len)
{
    const unsigned char *p = (const unsigned char *)s;
    if (p[0] < 0x80) {
        *len = 1;
        return p[0];
    }
    int n = (p[0] >> 5) == 6 ? 2 : (p[0] >> 4) == 14 ? 3 : 4;
    uint32_t cp = p[0] & (0xFF >> (n + 1));
    for (int i = 1; i < n; i++)
        cp = (cp << 6) | (p[i] & 0x3F);
    *len = (size_t)n;
    return cp;
}

/* Marks that attach to the previous character. */
static bool extends(uint32_t cp)
{
    return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
           (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
           (cp >= 0x1F3FB && cp <= 0x1F3FF) || cp == 0x200D || (cp >= 0xE0020 && cp <= 0xE007F);
}

size_t ad_next_keystroke(const char *s)
{
    if (!*s)
        return 0;
    if (s[0] == '\r' && s[1] == '\n')
        return 2;
    size_t len;
    decode(s, &len);
    size_t total = len;
    bool joined = false; /* after a zero-width joiner the next character joins too */
    while (s[total]) {
        uint32_t next = decode(s + total, &len);
        if (!joined && !extends(next))
            break;
        joined = next == 0x200D;
        total += len;
    }
    return total;
}

int ad_type_keystrokes(ad_ctx *ctx, const ad_action_spec *spec, const char *ref,
                       const char *text, int64_t interval_ms, int64_t timeout_ms, bool secret,
                       json_t **ret_data, ad_error *err)
{
    ad_action_spec one = *spec;
    one.verify = AD_VERIFY_NONE; /* read once at the end */
    size_t total = 0, typed = 0;
    for (const char *p = text; *p; p += ad_next_keystroke(p))
        total++;
    json_t *first_report = NULL;
    for (const char *p = text; *p;) {
        size_t n = ad_next_keystroke(p);
        char *key = strndup(p, n);
        json_t *d = NULL;
        int rc = ad_ref_action_run(ctx, &one, ref, key, timeout_ms, secret, &d, err);
        /* Under --headed the first keystroke clicked the field; the rest type into it. */
        one.text_no_click = true;
        free(key);
        if (rc < 0) {
            json_decref(first_report);
            if (typed > 0) { /* part of the text landed */
                err->delivery = AD_DELIVERED_UNVERIFIED;
                ad_error_detail(err, "typed_keystrokes", json_integer((json_int_t)typed));
                ad_error_detail(err, "keystrokes", json_integer((json_int_t)total));
            }
            return -1;
        }
        if (!first_report)
            first_report = d;
        else
            json_decref(d);
        typed++;
        p += n;
        if (*p) {
            struct timespec ts = {(time_t)(interval_ms / 1000),
                                  (long)(interval_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    /* The final read. */
    ad_resolved r = {0};
    ad_error e = AD_ERROR_INIT;
    json_t *d = json_object();
    json_t *details = json_object();
    ad_delivery delivery = AD_DELIVERED_UNVERIFIED;
    if (ad_resolve_load(ctx, ref, &r, &e) < 0 ||
        ad_resolve_live(ctx, &r, ad_deadline_after_ms(2000), &e) < 0) {
        json_object_set_new(details, "verification_scope", json_string("unavailable"));
        json_object_set_new(details, "verification_reason", json_string("final_read_failed"));
    } else {
        const char *v = r.node->secure ? NULL : ad_text_get(&r.node->value);
        bool whole = v && strstr(v, text);
        if (whole) {
            delivery = AD_DELIVERED_VERIFIED;
            json_object_set_new(details, "verification_scope", json_string("element_value"));
            json_object_set_new(details, "application_commit", json_string("not_verified"));
        } else {
            json_object_set_new(details, "verification_scope", json_string("unavailable"));
            json_object_set_new(details, "verification_reason",
                                json_string(r.node->secure ? "secure_field"
                                            : v            ? "postcondition_mismatch"
                                                           : "insufficient_evidence"));
        }
        json_object_set_new(d, "post_state", ad_post_state_json(r.node, secret, true));
        if (ctx->adapter->ops->settle_input) /* keys remapped for headed keystrokes */
            ctx->adapter->ops->settle_input(ctx->adapter, whole);
    }
    ad_error_clear(&e);
    ad_resolved_clear(&r);
    json_object_set_new(d, "action", json_string("type"));
    json_object_set_new(d, "details", details);
    json_object_set_new(d, "disposition", ad_disposition_json(delivery));
    json_object_set_new(d, "interval_ms", json_integer(interval_ms));
    json_object_set_new(d, "keystrokes", json_integer((json_int_t)total));
    json_object_set(d, "steps", json_object_get(first_report, "steps"));
    json_decref(first_report);
    *ret_data = d;
    return 0;
}
