/* test_x11_input.c: the pure parts of the X11 input module: key combo parsing, modifier
 * names, code point keysyms, and the refusals that need no X server. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linux/x11_input.h"

#define CTRL 0xffe3u
#define SHIFT 0xffe1u
#define ALT 0xffe9u
#define SUPER 0xffebu

/* Parses `combo` and compares with the n keysyms that follow. */
static void expect_combo(const char *combo, int n, ...)
{
    uint32_t ks[AD_X11_COMBO_MAX];
    int got = -1;
    ad_error err = AD_ERROR_INIT;
    if (ad_x11_parse_combo(combo, ks, &got, &err) != 0)
        fail_msg("'%s' did not parse: %s", combo, err.message);
    assert_int_equal(got, n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        uint32_t want = va_arg(ap, uint32_t);
        if (ks[i] != want)
            fail_msg("'%s' keysym %d: 0x%x, want 0x%x", combo, i, ks[i], want);
    }
    va_end(ap);
    ad_error_clear(&err);
}

/* Expects INVALID_ARGS with `fragment` in the message; outputs stay untouched. Returns the
 * error for further checks (caller clears). */
static ad_error expect_bad(const char *combo, const char *fragment)
{
    uint32_t ks[AD_X11_COMBO_MAX] = {0x5a5a5a5a};
    int n = -7;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_x11_parse_combo(combo, ks, &n, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_non_null(err.message);
    if (!strstr(err.message, fragment))
        fail_msg("'%s': message '%s' lacks '%s'", combo, err.message, fragment);
    assert_non_null(err.suggestion);
    assert_int_equal(err.delivery, AD_NOT_DELIVERED);
    assert_int_equal(n, -7);
    assert_int_equal(ks[0], 0x5a5a5a5a);
    return err;
}

static void test_brief_examples(void **state)
{
    (void)state;
    expect_combo("ctrl+s", 2, CTRL, (uint32_t)'s');
    expect_combo("shift+Tab", 2, SHIFT, 0xff09u);
    expect_combo("return", 1, 0xff0du);
    expect_combo("alt+f4", 2, ALT, 0xffc1u);
    expect_combo("ctrl+shift+t", 3, CTRL, SHIFT, (uint32_t)'t');
    expect_combo("F5", 1, 0xffc2u);
    expect_combo("a", 1, (uint32_t)'a');
    expect_combo("super+l", 2, SUPER, (uint32_t)'l');
}

static void test_names_and_aliases(void **state)
{
    (void)state;
    expect_combo("Return", 1, 0xff0du);
    expect_combo("enter", 1, 0xff0du);
    expect_combo("ESCAPE", 1, 0xff1bu);
    expect_combo("esc", 1, 0xff1bu);
    expect_combo("space", 1, 0x20u);
    expect_combo("backspace", 1, 0xff08u);
    expect_combo("delete", 1, 0xffffu);
    expect_combo("up", 1, 0xff52u);
    expect_combo("down", 1, 0xff54u);
    expect_combo("left", 1, 0xff51u);
    expect_combo("right", 1, 0xff53u);
    expect_combo("home", 1, 0xff50u);
    expect_combo("end", 1, 0xff57u);
    expect_combo("page_up", 1, 0xff55u);
    expect_combo("Page_Down", 1, 0xff56u);
    expect_combo("f1", 1, 0xffbeu);
    expect_combo("f12", 1, 0xffc9u);
    expect_combo("f24", 1, 0xffd5u);
    expect_combo("kp_5", 1, 0xffb5u);
    expect_combo("control+plus", 2, CTRL, (uint32_t)'+');
    expect_combo("meta+c", 2, SUPER, (uint32_t)'c');
    expect_combo("cmd+c", 2, SUPER, (uint32_t)'c');
    expect_combo("option+x", 2, ALT, (uint32_t)'x');
    expect_combo("0xff0d", 1, 0xff0du);
    expect_combo("u20ac", 1, 0x10020acu);
}

static void test_characters_and_case(void **state)
{
    (void)state;
    expect_combo("A", 2, SHIFT, (uint32_t)'a');       /* a bare uppercase letter adds shift */
    expect_combo("ctrl+A", 2, CTRL, (uint32_t)'a');   /* with modifiers it is lowercased */
    expect_combo("Ctrl + A", 2, CTRL, (uint32_t)'a'); /* spaces are ignored */
    expect_combo("shift+a", 2, SHIFT, (uint32_t)'a');
    expect_combo("7", 1, (uint32_t)'7');
    expect_combo("?", 1, (uint32_t)'?');
    expect_combo("ctrl+/", 2, CTRL, (uint32_t)'/');
    expect_combo("\xc3\xa9", 1, 0xe9u);             /* é: Latin-1 is its own keysym */
    expect_combo("\xe2\x82\xac", 1, 0x10020acu);    /* €: 0x1000000 + code point */
    expect_combo("ctrl++", 2, CTRL, (uint32_t)'+'); /* the plus key after a modifier */
    expect_combo("+", 1, (uint32_t)'+');
}

static void test_modifier_as_key(void **state)
{
    (void)state;
    expect_combo("shift", 1, SHIFT);
    expect_combo("ctrl+shift", 2, CTRL, SHIFT);
    expect_combo("super", 1, SUPER);
}

static void test_unknown_key(void **state)
{
    (void)state;
    ad_error err = expect_bad("ctrl+foo", "Unknown key name 'foo'");
    assert_string_equal(json_string_value(json_object_get(err.details, "key")), "foo");
    ad_error_clear(&err);
    err = expect_bad("escap", "Unknown key name 'escap'");
    assert_non_null(strstr(err.suggestion, "escape"));
    ad_error_clear(&err);
    err = expect_bad("f25", "Unknown key name");
    ad_error_clear(&err);
    err = expect_bad("f0", "Unknown key name");
    ad_error_clear(&err);
    err = expect_bad("ctrl+\x01", "Unknown key name");
    ad_error_clear(&err);
    err = expect_bad("ctrl+\xff", "Unknown key name"); /* not UTF-8 */
    ad_error_clear(&err);
}

static void test_empty(void **state)
{
    (void)state;
    ad_error err = expect_bad("", "No key");
    ad_error_clear(&err);
    err = expect_bad("   ", "No key");
    ad_error_clear(&err);
}

static void test_trailing_and_empty_parts(void **state)
{
    (void)state;
    ad_error err = expect_bad("ctrl+", "No key after the last '+'");
    assert_non_null(strstr(err.suggestion, "plus"));
    ad_error_clear(&err);
    err = expect_bad("+a", "An empty part");
    ad_error_clear(&err);
    err = expect_bad("ctrl++a", "An empty part");
    ad_error_clear(&err);
    err = expect_bad("++", "An empty part");
    ad_error_clear(&err);
}

static void test_duplicate_modifiers(void **state)
{
    (void)state;
    const char *dups[] = {"ctrl+ctrl+s", "ctrl+control+s", "meta+super+l", "shift+shift",
                          "ctrl+shift+ctrl+a"};
    for (size_t i = 0; i < sizeof(dups) / sizeof(dups[0]); i++) {
        ad_error err = expect_bad(dups[i], "given twice");
        ad_error_clear(&err);
    }
}

static void test_unknown_modifier_and_limits(void **state)
{
    (void)state;
    ad_error err = expect_bad("hyper+a", "Unknown modifier 'hyper'");
    ad_error_clear(&err);
    err = expect_bad("a+b", "Unknown modifier 'a'");
    ad_error_clear(&err);
    err = expect_bad("a+a+a+a+a+a+a+a+a+a+a", "Too many parts");
    ad_error_clear(&err);
    char long_combo[400];
    memset(long_combo, 'x', sizeof(long_combo) - 1);
    long_combo[sizeof(long_combo) - 1] = '\0';
    err = expect_bad(long_combo, "Too long");
    ad_error_clear(&err);
    uint32_t ks[AD_X11_COMBO_MAX];
    int n;
    err = (ad_error)AD_ERROR_INIT;
    assert_int_equal(ad_x11_parse_combo(NULL, ks, &n, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    ad_error_clear(&err);
}

static void test_modifier_mask(void **state)
{
    (void)state;
    unsigned m = 0;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_x11_modifier_mask("Control", &m, &err), 0);
    assert_int_equal(m, AD_X11_MOD_CTRL);
    assert_int_equal(ad_x11_modifier_mask("win", &m, &err), 0);
    assert_int_equal(m, AD_X11_MOD_SUPER);
    assert_int_equal(ad_x11_modifier_mask("option", &m, &err), 0);
    assert_int_equal(m, AD_X11_MOD_ALT);
    m = 99;
    assert_int_equal(ad_x11_modifier_mask("hyper", &m, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_int_equal(m, 99);
    ad_error_clear(&err);
}

static void test_codepoint_keysym(void **state)
{
    (void)state;
    assert_int_equal(ad_x11_codepoint_keysym('a'), 'a');
    assert_int_equal(ad_x11_codepoint_keysym(' '), 0x20);
    assert_int_equal(ad_x11_codepoint_keysym(0xe9), 0xe9);
    assert_int_equal(ad_x11_codepoint_keysym(0xff), 0xff);
    assert_int_equal(ad_x11_codepoint_keysym(0x100), 0x1000100);
    assert_int_equal(ad_x11_codepoint_keysym(0x1f600), 0x101f600);
}

static void test_open_without_display(void **state)
{
    (void)state;
    char *saved = getenv("DISPLAY") ? strdup(getenv("DISPLAY")) : NULL;
    unsetenv("DISPLAY");
    ad_x11 *x = (ad_x11 *)0x1;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_x11_open(&x, &err), -1);
    assert_int_equal(err.code, AD_PLATFORM_NOT_SUPPORTED);
    assert_non_null(err.platform_detail);
    assert_ptr_equal(x, (ad_x11 *)0x1);
    ad_error_clear(&err);
    setenv("DISPLAY", ":1234567", 1); /* no such server */
    assert_int_equal(ad_x11_open(&x, &err), -1);
    assert_int_equal(err.code, AD_PLATFORM_NOT_SUPPORTED);
    assert_non_null(err.platform_detail);
    ad_error_clear(&err);
    if (saved)
        setenv("DISPLAY", saved, 1);
    else
        unsetenv("DISPLAY");
    free(saved);
    ad_x11_close(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brief_examples),
        cmocka_unit_test(test_names_and_aliases),
        cmocka_unit_test(test_characters_and_case),
        cmocka_unit_test(test_modifier_as_key),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_trailing_and_empty_parts),
        cmocka_unit_test(test_duplicate_modifiers),
        cmocka_unit_test(test_unknown_modifier_and_limits),
        cmocka_unit_test(test_modifier_mask),
        cmocka_unit_test(test_codepoint_keysym),
        cmocka_unit_test(test_open_without_display),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
