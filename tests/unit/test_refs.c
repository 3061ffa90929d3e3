/* test_refs.c: qualified ref tokens and snapshot ids (snapshots-and-refs.md, "Refs"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "core/refs.h"

/* The suggestion of the INVALID_ARGS example in snapshots-and-refs.md, word for word. */
static const char SPEC_SUGGESTION[] =
    "Use the snapshot-qualified ref that snapshot prints, for example @s8f3k2p9:e1. A bare @eN "
    "ref is not accepted.";

/* Parses a token that must be rejected; returns the error for further checks. */
static void expect_invalid(const char *token, ad_error *err)
{
    ad_ref ref = {0};
    assert_int_equal(ad_ref_parse(token, &ref, err), -1);
    assert_int_equal(err->code, AD_INVALID_ARGS);
    assert_string_equal(err->suggestion, SPEC_SUGGESTION);
}

static void reject(const char *token)
{
    ad_error err = AD_ERROR_INIT;
    expect_invalid(token, &err);
    ad_error_clear(&err);
}

static void test_parse_valid(void **state)
{
    (void)state;
    ad_ref ref = {0};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_ref_parse("@s26u7pv9qta5g4:e6", &ref, &err), 0);
    assert_string_equal(ref.snapshot_id, "s26u7pv9qta5g4");
    assert_int_equal(ref.number, 6);
    assert_null(err.message);

    assert_int_equal(ad_ref_parse("@s1:e1234567890", &ref, &err), 0);
    assert_string_equal(ref.snapshot_id, "s1");
    assert_int_equal(ref.number, 1234567890ULL);
    /* Ten digits is the longest accepted number. */
    assert_int_equal(ad_ref_parse("@s1:e9999999999", &ref, &err), 0);
    assert_true(ref.number == 9999999999ULL);
}

static void test_bare_ref_matches_spec_envelope(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    expect_invalid("@e8", &err);
    assert_string_equal(err.message, "Invalid ref_id '@e8': expected @<snapshot_id>:e<N>");
    ad_error_clear(&err);
    expect_invalid("@e1", &err);
    assert_string_equal(err.message, "Invalid ref_id '@e1': expected @<snapshot_id>:e<N>");
    ad_error_clear(&err);
}

static void test_number_rules(void **state)
{
    (void)state;
    reject("@s1:e0");           /* refs count from e1 */
    reject("@s1:e");            /* no number */
    reject("@s1:e12345678901"); /* 11 digits */
    reject("@s1:e12x");         /* trailing junk */
    reject("@s1:e-1");
    reject("@s1:n1");           /* not an element ref */
    reject("@s1:E1");
}

static void test_snapshot_part_rules(void **state)
{
    (void)state;
    reject("@S26U7:e1");        /* uppercase snapshot id */
    reject("@sAbc:e1");
    reject("@s26u7pv9e1");      /* missing colon */
    reject("s26u7pv9:e1");      /* missing @ */
    reject("@:e1");             /* empty snapshot id */
    reject("@x123:e1");         /* ids start with s */
    reject("@s-1:e1");
    reject("");
    ad_error err = AD_ERROR_INIT;
    ad_ref ref;
    assert_int_equal(ad_ref_parse(NULL, &ref, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    ad_error_clear(&err);
}

static void test_snapshot_id_length_limit(void **state)
{
    (void)state;
    char token[128];
    char id[70];
    memset(id, 'a', sizeof(id));
    id[0] = 's';
    id[64] = '\0'; /* 64 characters: the longest id */
    snprintf(token, sizeof(token), "@%s:e3", id);
    ad_ref ref;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_ref_parse(token, &ref, &err), 0);
    assert_string_equal(ref.snapshot_id, id);
    id[64] = 'a';
    id[65] = '\0';
    snprintf(token, sizeof(token), "@%s:e3", id);
    reject(token);
}

static void test_token_echo_only_when_printable_and_short(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    expect_invalid("@e1\n\x1b[2J", &err);
    assert_null(strchr(err.message, '\x1b'));
    assert_string_equal(err.message, "Invalid ref_id: expected @<snapshot_id>:e<N>");
    ad_error_clear(&err);

    char long_token[200];
    memset(long_token, 'x', sizeof(long_token) - 1);
    long_token[sizeof(long_token) - 1] = '\0';
    expect_invalid(long_token, &err);
    assert_null(strstr(err.message, "xxxxxxxx"));
    ad_error_clear(&err);
}

static void test_format_and_key(void **state)
{
    (void)state;
    ad_ref ref = {.snapshot_id = "s2txcl95uvubmn", .number = 33};
    char buf[96];
    ad_ref_format(&ref, buf, sizeof(buf));
    assert_string_equal(buf, "@s2txcl95uvubmn:e33");
    ad_ref back;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_ref_parse(buf, &back, &err), 0);
    assert_string_equal(back.snapshot_id, ref.snapshot_id);
    assert_int_equal(back.number, 33);
    ad_ref_key(12, buf, sizeof(buf));
    assert_string_equal(buf, "@e12");
}

static void test_snapshot_id_valid(void **state)
{
    (void)state;
    assert_true(ad_snapshot_id_valid("s1"));
    assert_true(ad_snapshot_id_valid("s26u7pv9qta5g4"));
    assert_false(ad_snapshot_id_valid("s"));
    assert_false(ad_snapshot_id_valid(""));
    assert_false(ad_snapshot_id_valid("S1"));
    assert_false(ad_snapshot_id_valid("sA1"));
    assert_false(ad_snapshot_id_valid("t12"));
    assert_false(ad_snapshot_id_valid("s1_2"));
    assert_false(ad_snapshot_id_valid("s1/.."));
    char id[80];
    memset(id, '7', sizeof(id));
    id[0] = 's';
    id[64] = '\0';
    assert_true(ad_snapshot_id_valid(id));
    id[64] = '7';
    id[65] = '\0';
    assert_false(ad_snapshot_id_valid(id));
}

static void test_snapshot_id_new_is_s_plus_lowercase_base36(void **state)
{
    (void)state;
    char seen[32][AD_SNAPSHOT_ID_MAX + 1];
    for (int i = 0; i < 32; i++) {
        char *id = seen[i];
        assert_int_equal(ad_snapshot_id_new(id), 0);
        assert_int_equal(strlen(id), 14);
        assert_int_equal(id[0], 's');
        for (size_t k = 1; k < 14; k++)
            assert_non_null(strchr("0123456789abcdefghijklmnopqrstuvwxyz", id[k]));
        assert_true(ad_snapshot_id_valid(id));
        for (int j = 0; j < i; j++)
            assert_string_not_equal(seen[j], id);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_bare_ref_matches_spec_envelope),
        cmocka_unit_test(test_number_rules),
        cmocka_unit_test(test_snapshot_part_rules),
        cmocka_unit_test(test_snapshot_id_length_limit),
        cmocka_unit_test(test_token_echo_only_when_printable_and_short),
        cmocka_unit_test(test_format_and_key),
        cmocka_unit_test(test_snapshot_id_valid),
        cmocka_unit_test(test_snapshot_id_new_is_s_plus_lowercase_base36),
    };
    return cmocka_run_group_tests_name("refs", tests, NULL, NULL);
}
