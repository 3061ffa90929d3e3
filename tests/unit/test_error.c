/* test_error.c: the error object and envelope (errors-and-recovery.md, json-output.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "core/error.h"
#include "core/utf8.h"
#include "test_util.h"

/* Builds the error object for (code, delivery) with an optional details object (stolen). */
static json_t *error_json(ad_error_code code, ad_delivery delivery, json_t *details)
{
    ad_error err = AD_ERROR_INIT;
    ad_error_set(&err, code, "something failed");
    err.delivery = delivery;
    err.details = details;
    json_t *j = ad_error_to_json(&err);
    ad_error_clear(&err);
    return j;
}

static void test_disposition_follows_delivery(void **state)
{
    (void)state;
    static const struct { ad_delivery d; const char *delivery, *retry; } rows[] = {
        {AD_NOT_DELIVERED, "not_delivered", "safe"},
        {AD_DELIVERY_UNCERTAIN, "delivery_uncertain", "unsafe"},
        {AD_DELIVERED_UNVERIFIED, "delivered_unverified", "unsafe"},
        {AD_DELIVERED_VERIFIED, "delivered_verified", "unsafe"},
        {AD_DELIVERY_UNKNOWN, "unknown", "unknown"},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        json_t *j = error_json(AD_ACTION_FAILED, rows[i].d, NULL);
        assert_string_equal(tu_str(j, "disposition.delivery"), rows[i].delivery);
        assert_string_equal(tu_str(j, "disposition.retry"), rows[i].retry);
        assert_int_equal(json_object_size(tu_at(j, "disposition")), 2);
        json_decref(j);
    }
}

static void test_default_delivery_is_not_delivered(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    ad_error_set(&err, AD_INVALID_ARGS, "bad");
    json_t *j = ad_error_to_json(&err);
    assert_string_equal(tu_str(j, "disposition.delivery"), "not_delivered");
    assert_string_equal(tu_str(j, "disposition.retry"), "safe");
    json_decref(j);
    ad_error_clear(&err);
}

static void expect_recovery(ad_error_code code, json_t *details, const char *strategy,
                            bool fresh, long long retry_after)
{
    json_t *j = error_json(code, AD_NOT_DELIVERED, details);
    json_t *r = tu_at(j, "recovery");
    assert_non_null(r);
    assert_string_equal(tu_str(r, "strategy"), strategy);
    assert_true(json_is_true(tu_at(r, "retryable")));
    assert_int_equal(json_is_true(tu_at(r, "requires_fresh_snapshot")), fresh);
    if (retry_after < 0)
        assert_null(tu_at(r, "retry_after_ms"));
    else
        assert_int_equal(tu_int(r, "retry_after_ms"), retry_after);
    json_decref(j);
}

static void test_recovery_plans(void **state)
{
    (void)state;
    expect_recovery(AD_STALE_REF, NULL, "refresh_snapshot_then_retry_original", true, -1);
    expect_recovery(AD_SNAPSHOT_NOT_FOUND, NULL, "refresh_snapshot_then_retry_original", true,
                    -1);
    expect_recovery(AD_TIMEOUT, NULL, "inspect_state_then_retry_original", true, 250);
    expect_recovery(AD_APP_UNRESPONSIVE, NULL, "inspect_state_then_retry_original", true, 250);
    json_t *j = error_json(AD_POLICY_DENIED, AD_NOT_DELIVERED, NULL);
    assert_string_equal(tu_str(j, "recovery.strategy"),
                        "request_explicit_policy_then_retry_original");
    assert_null(tu_at(j, "recovery.retry_after_ms"));
    json_decref(j);
}

static void test_stale_ref_of_exited_process_inspects_state(void **state)
{
    (void)state;
    expect_recovery(AD_STALE_REF, json_pack("{s:s}", "process_state", "exited"),
                    "inspect_state_then_retry_original", true, -1);
    /* Any other process_state keeps the refresh plan. */
    expect_recovery(AD_STALE_REF, json_pack("{s:s}", "process_state", "unresponsive"),
                    "refresh_snapshot_then_retry_original", true, -1);
}

static void test_recovery_only_when_retry_is_safe(void **state)
{
    (void)state;
    static const ad_delivery unsafe[] = {AD_DELIVERY_UNCERTAIN, AD_DELIVERED_UNVERIFIED,
                                         AD_DELIVERED_VERIFIED, AD_DELIVERY_UNKNOWN};
    static const ad_error_code planned[] = {AD_STALE_REF, AD_SNAPSHOT_NOT_FOUND, AD_TIMEOUT,
                                            AD_APP_UNRESPONSIVE, AD_POLICY_DENIED};
    for (size_t c = 0; c < sizeof(planned) / sizeof(planned[0]); c++)
        for (size_t d = 0; d < sizeof(unsafe) / sizeof(unsafe[0]); d++) {
            json_t *j = error_json(planned[c], unsafe[d], NULL);
            assert_null(tu_at(j, "recovery"));
            json_decref(j);
        }
}

static void test_retryable_false_suppresses_recovery(void **state)
{
    (void)state;
    json_t *j = error_json(AD_TIMEOUT, AD_NOT_DELIVERED, json_pack("{s:b}", "retryable", 0));
    assert_null(tu_at(j, "recovery"));
    assert_true(json_is_false(tu_at(j, "details.retryable")));
    json_decref(j);
    /* retryable true changes nothing. */
    expect_recovery(AD_TIMEOUT, json_pack("{s:b}", "retryable", 1),
                    "inspect_state_then_retry_original", true, 250);
}

static void test_codes_without_a_plan_never_carry_recovery(void **state)
{
    (void)state;
    static const ad_error_code none[] = {
        AD_PERM_DENIED, AD_ELEMENT_NOT_FOUND, AD_APP_NOT_FOUND, AD_ACTION_FAILED,
        AD_ACTION_NOT_SUPPORTED, AD_AMBIGUOUS_TARGET, AD_WINDOW_NOT_FOUND,
        AD_PLATFORM_NOT_SUPPORTED, AD_INVALID_ARGS, AD_NOTIFICATION_NOT_FOUND, AD_INTERNAL,
    };
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        json_t *j = error_json(none[i], AD_NOT_DELIVERED, NULL);
        assert_null(tu_at(j, "recovery"));
        assert_string_equal(tu_str(j, "disposition.retry"), "safe");
        json_decref(j);
    }
}

static void test_code_names(void **state)
{
    (void)state;
    static const char *const names[] = {
        "PERM_DENIED", "ELEMENT_NOT_FOUND", "APP_NOT_FOUND", "ACTION_FAILED",
        "ACTION_NOT_SUPPORTED", "STALE_REF", "AMBIGUOUS_TARGET", "WINDOW_NOT_FOUND",
        "PLATFORM_NOT_SUPPORTED", "TIMEOUT", "INVALID_ARGS", "NOTIFICATION_NOT_FOUND",
        "SNAPSHOT_NOT_FOUND", "POLICY_DENIED", "APP_UNRESPONSIVE", "INTERNAL",
    };
    for (int c = AD_PERM_DENIED; c <= AD_INTERNAL; c++)
        assert_string_equal(ad_error_code_name((ad_error_code)c), names[c - 1]);
    assert_string_equal(ad_error_code_name((ad_error_code)999), "INTERNAL");
}

static void test_optional_fields_are_omitted_when_unset(void **state)
{
    (void)state;
    json_t *j = error_json(AD_STALE_REF, AD_NOT_DELIVERED, NULL);
    assert_string_equal(tu_str(j, "code"), "STALE_REF");
    assert_string_equal(tu_str(j, "message"), "something failed");
    assert_null(tu_at(j, "suggestion"));
    assert_null(tu_at(j, "platform_detail"));
    assert_null(tu_at(j, "details"));
    json_decref(j);
    /* An empty details object is omitted as well. */
    j = error_json(AD_INTERNAL, AD_NOT_DELIVERED, json_object());
    assert_null(tu_at(j, "details"));
    json_decref(j);
}

static void test_optional_fields_when_set(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    ad_error_set(&err, AD_PERM_DENIED, "no bus %d", 7);
    ad_error_suggest(&err, "start %s", "at-spi");
    ad_error_platform_detail(&err, "org.freedesktop.DBus.Error.ServiceUnknown");
    ad_error_detail(&err, "kind", json_string("bus"));
    json_t *j = ad_error_to_json(&err);
    assert_string_equal(tu_str(j, "message"), "no bus 7");
    assert_string_equal(tu_str(j, "suggestion"), "start at-spi");
    assert_string_equal(tu_str(j, "platform_detail"), "org.freedesktop.DBus.Error.ServiceUnknown");
    assert_string_equal(tu_str(j, "details.kind"), "bus");
    json_decref(j);
    ad_error_clear(&err);
}

static void test_set_replaces_the_whole_record(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    ad_error_set(&err, AD_TIMEOUT, "first");
    ad_error_suggest(&err, "hint");
    ad_error_detail(&err, "kind", json_string("deadline"));
    err.delivery = AD_DELIVERY_UNKNOWN;
    assert_int_equal(ad_error_set(&err, AD_STALE_REF, "second"), -1);
    assert_int_equal(err.code, AD_STALE_REF);
    assert_string_equal(err.message, "second");
    assert_null(err.suggestion);
    assert_null(err.details);
    assert_int_equal(err.delivery, AD_NOT_DELIVERED);

    ad_error moved = AD_ERROR_INIT;
    ad_error_set(&moved, AD_INTERNAL, "old");
    ad_error_move(&moved, &err);
    assert_int_equal(moved.code, AD_STALE_REF);
    assert_string_equal(moved.message, "second");
    assert_null(err.message);
    assert_int_equal(err.code, AD_OK);
    ad_error_clear(&moved);
}

static void test_envelopes(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    ad_error_set(&err, AD_INVALID_ARGS, "Invalid ref_id '@e1': expected @<snapshot_id>:e<N>");
    json_t *e = ad_envelope_error("click", &err);
    assert_string_equal(tu_str(e, "version"), "2.6");
    assert_true(json_is_false(tu_at(e, "ok")));
    assert_string_equal(tu_str(e, "command"), "click");
    assert_null(tu_at(e, "data"));
    assert_string_equal(tu_str(e, "error.code"), "INVALID_ARGS");
    assert_int_equal(json_object_size(e), 4);
    json_decref(e);
    ad_error_clear(&err);

    json_t *ok = ad_envelope_ok("status", json_pack("{s:i}", "n", 1));
    assert_string_equal(tu_str(ok, "version"), "2.6");
    assert_true(json_is_true(tu_at(ok, "ok")));
    assert_int_equal(tu_int(ok, "data.n"), 1);
    assert_null(tu_at(ok, "error"));
    json_decref(ok);
    ok = ad_envelope_ok("status", NULL);
    assert_true(json_is_object(tu_at(ok, "data")));
    json_decref(ok);
}

/* Item 23: text that is not UTF-8 (argv bytes, a cut character) made jansson drop the key
 * it was meant for. Every text now enters through ad_json_text, so the keys stay. */
static void test_invalid_utf8_never_drops_a_key(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    ad_error_set(&err, AD_INVALID_ARGS, "Unknown command '%s'", "\xff");
    ad_error_suggest(&err, "Not '%s'", "caf\xc3");
    ad_error_platform_detail(&err, "\xc3\x28");
    ad_error_detail_text(&err, "key", "\xe9\xe9");
    json_t *e = ad_envelope_error("\xff", &err);
    assert_string_equal(tu_str(e, "command"), "\\xFF");
    assert_string_equal(tu_str(e, "error.message"), "Unknown command '\\xFF'");
    assert_string_equal(tu_str(e, "error.suggestion"), "Not 'caf\\xC3'");
    assert_string_equal(tu_str(e, "error.platform_detail"), "\\xC3(");
    assert_string_equal(tu_str(e, "error.details.key"), "\\xE9\\xE9");
    char *text = json_dumps(e, JSON_COMPACT);
    assert_non_null(text);
    free(text);
    json_decref(e);
    ad_error_clear(&err);
    /* Valid text is kept as it is, including four-byte characters. */
    json_t *j = ad_json_text("caf\xc3\xa9 \xf0\x9f\x98\x80");
    assert_string_equal(json_string_value(j), "caf\xc3\xa9 \xf0\x9f\x98\x80");
    json_decref(j);
    /* Overlongs, surrogates and stray continuation bytes are not UTF-8. */
    assert_false(ad_utf8_valid("\xc0\xaf", 2));
    assert_false(ad_utf8_valid("\xed\xa0\x80", 3));
    assert_false(ad_utf8_valid("\x80", 1));
    assert_true(ad_utf8_valid("\xe2\x82\xac", 3));
}

/* The envelope always has command and error.message, whatever the caller passed. */
static void test_envelope_required_keys_by_construction(void **state)
{
    (void)state;
    ad_error empty = AD_ERROR_INIT;
    json_t *e = ad_envelope_error(NULL, &empty);
    assert_string_equal(tu_str(e, "command"), "agent-desktop");
    assert_non_null(tu_str(e, "error.message"));
    assert_non_null(tu_str(e, "error.code"));
    assert_non_null(tu_at(e, "error.disposition"));
    json_decref(e);
    json_t *ok = ad_envelope_ok("", NULL);
    assert_string_equal(tu_str(ok, "command"), "agent-desktop");
    assert_true(json_is_object(tu_at(ok, "data")));
    json_decref(ok);
}

/* A cut at a byte limit keeps whole characters. */
static void test_utf8_boundary(void **state)
{
    (void)state;
    char s[129];
    for (size_t i = 0; i < 64; i++)
        memcpy(s + 2 * i, "\xc3\xa9", 2); /* 64 x e-acute: 128 bytes */
    s[128] = '\0';
    assert_int_equal(ad_utf8_boundary(s, 128, 127), 126);
    assert_int_equal(ad_utf8_boundary(s, 128, 128), 128);
    assert_int_equal(ad_utf8_boundary("ab\xff", 3, 3), 3); /* a bad byte is one unit */
    assert_int_equal(ad_utf8_boundary("\xf0\x9f\x98\x80", 4, 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disposition_follows_delivery),
        cmocka_unit_test(test_invalid_utf8_never_drops_a_key),
        cmocka_unit_test(test_envelope_required_keys_by_construction),
        cmocka_unit_test(test_utf8_boundary),
        cmocka_unit_test(test_default_delivery_is_not_delivered),
        cmocka_unit_test(test_recovery_plans),
        cmocka_unit_test(test_stale_ref_of_exited_process_inspects_state),
        cmocka_unit_test(test_recovery_only_when_retry_is_safe),
        cmocka_unit_test(test_retryable_false_suppresses_recovery),
        cmocka_unit_test(test_codes_without_a_plan_never_carry_recovery),
        cmocka_unit_test(test_code_names),
        cmocka_unit_test(test_optional_fields_are_omitted_when_unset),
        cmocka_unit_test(test_optional_fields_when_set),
        cmocka_unit_test(test_set_replaces_the_whole_record),
        cmocka_unit_test(test_envelopes),
    };
    return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}
