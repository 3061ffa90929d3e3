/* test_desktop_exec.c: a desktop entry's Exec= line split into program, environment and
 * arguments (linux/desktop_exec.h): quoting and escapes, field codes, `env` unwrapped, and
 * the lines that name no verified program. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linux/desktop_exec.h"

/* Asserts that list (NULL-terminated) holds exactly the n strings given. */
static void assert_words(char **list, size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    assert_non_null(list);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(list[i], va_arg(ap, const char *));
    assert_null(list[n]);
    va_end(ap);
}

static void test_plain_program_and_field_codes(void **state)
{
    (void)state;
    ad_desktop_exec e;
    assert_int_equal(ad_desktop_exec_parse("nautilus --new-window %U", &e), 0);
    assert_string_equal(e.program, "nautilus");
    assert_words(e.env, 0);
    assert_words(e.args, 1, "--new-window");
    ad_desktop_exec_clear(&e);
    assert_int_equal(ad_desktop_exec_parse("/usr/bin/app --rate=100%% --file=%f %i", &e), 0);
    assert_string_equal(e.program, "/usr/bin/app");
    assert_words(e.args, 2, "--rate=100%", "--file=");
    ad_desktop_exec_clear(&e);
}

static void test_env_is_unwrapped(void **state)
{
    (void)state;
    ad_desktop_exec e;
    assert_int_equal(ad_desktop_exec_parse("env GDK_BACKEND=x11 LANG=C.UTF-8 prog -v %u", &e),
                     0);
    assert_string_equal(e.program, "prog");
    assert_words(e.env, 2, "GDK_BACKEND=x11", "LANG=C.UTF-8");
    assert_words(e.args, 1, "-v");
    ad_desktop_exec_clear(&e);
    /* By path, twice in a row, with a quoted value holding a space and an '='. */
    assert_int_equal(ad_desktop_exec_parse("/usr/bin/env A=1 env \"B=x y=z\" /opt/p", &e), 0);
    assert_string_equal(e.program, "/opt/p");
    assert_words(e.env, 2, "A=1", "B=x y=z");
    assert_words(e.args, 0);
    ad_desktop_exec_clear(&e);
}

static void test_quotes_and_escapes(void **state)
{
    (void)state;
    ad_desktop_exec e;
    /* "\\\\" in the file is one backslash after the string escapes, then a quoted \\ is one
     * backslash of the word: the two levels of the specification. */
    assert_int_equal(ad_desktop_exec_parse("\"/opt/My App/run\" \"a \\\\\"b\\\\\" $c\" d\\se",
                                           &e),
                     0);
    assert_string_equal(e.program, "/opt/My App/run");
    assert_words(e.args, 3, "a \"b\" $c", "d", "e");
    ad_desktop_exec_clear(&e);
}

static void test_lines_that_name_no_program(void **state)
{
    (void)state;
    ad_desktop_exec e;
    assert_int_equal(ad_desktop_exec_parse("", &e), -1);
    assert_null(e.program);
    assert_int_equal(ad_desktop_exec_parse("env A=1 B=2", &e), -1);
    assert_int_equal(ad_desktop_exec_parse("env -i A=1 prog", &e), -1);
    assert_int_equal(ad_desktop_exec_parse("env A=1 -u B prog", &e), -1);
    assert_int_equal(ad_desktop_exec_parse("\"unterminated prog", &e), -1);
    assert_int_equal(ad_desktop_exec_parse("%U", &e), -1);
    assert_null(e.program);
    assert_null(e.env);
}

static void test_copy(void **state)
{
    (void)state;
    ad_desktop_exec e, c;
    assert_int_equal(ad_desktop_exec_parse("env K=V prog x", &e), 0);
    assert_int_equal(ad_desktop_exec_copy(&c, &e), 0);
    ad_desktop_exec_clear(&e);
    assert_string_equal(c.program, "prog");
    assert_words(c.env, 1, "K=V");
    assert_words(c.args, 1, "x");
    ad_desktop_exec_clear(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_program_and_field_codes),
        cmocka_unit_test(test_env_is_unwrapped),
        cmocka_unit_test(test_quotes_and_escapes),
        cmocka_unit_test(test_lines_that_name_no_program),
        cmocka_unit_test(test_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
