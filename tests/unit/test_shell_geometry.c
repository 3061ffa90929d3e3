/* test_shell_geometry.c: unit tests for src/linux/shell_geometry.c (GNOME Shell's window list
 * and the AT-SPI window matching rule). The numbers are gnome-shell 43.9's, measured. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "linux/shell_geometry.h"

/* The fixture (GTK 3) and gtk4-demo on a headless 1280x800 shell, as Eval returns them. */
static const char LIST[] =
    "{\"shell_pid\": 10, \"screen\": [1280, 800], \"windows\": ["
    "{\"pid\": 100, \"title\": \"AD Fixture\", \"client\": 0, \"popup\": false,"
    " \"minimized\": false, \"focused\": true,"
    " \"frame\": [0, 32, 520, 870], \"buffer\": [-26, 9, 572, 922]},"
    "{\"pid\": 200, \"title\": \"GTK Demo\", \"client\": 0, \"popup\": false,"
    " \"minimized\": false, \"focused\": false,"
    " \"frame\": [50, 82, 800, 600], \"buffer\": [36, 70, 828, 629]},"
    "{\"pid\": 200, \"title\": null, \"client\": 0, \"popup\": true,"
    " \"minimized\": false, \"focused\": false,"
    " \"frame\": [300, 200, 277, 232], \"buffer\": [290, 195, 297, 250]}]}";

static void parse(ad_shell_windows *l)
{
    assert_int_equal(ad_shell_windows_parse(LIST, l), 0);
    assert_int_equal(l->count, 3);
    assert_int_equal(l->shell_pid, 10);
    assert_true(l->screen.width == 1280 && l->screen.height == 800 && l->screen.x == 0);
}

static void gtk3_window_starts_at_the_buffer(void **state)
{
    (void)state;
    ad_shell_windows l;
    parse(&l);
    ad_rect o = {0};
    const ad_shell_window *w = ad_shell_window_of(&l, 100, "AD Fixture", 572, 922, &o);
    assert_non_null(w);
    assert_true(w->focused);
    /* The header bar's AT-SPI 26,23 lands on the frame's 0,32. */
    assert_true(o.x == -26 && o.y == 9);
    assert_true(o.x + 26 == w->frame.x && o.y + 23 == w->frame.y);
    ad_shell_windows_free(&l);
}

static void gtk4_window_starts_at_the_frame(void **state)
{
    (void)state;
    ad_shell_windows l;
    parse(&l);
    ad_rect o = {0};
    assert_non_null(ad_shell_window_of(&l, 200, "GTK Demo", 800, 600, &o));
    assert_true(o.x == 50 && o.y == 82);
    ad_shell_windows_free(&l);
}

static void a_mismatch_is_no_window(void **state)
{
    (void)state;
    ad_shell_windows l;
    parse(&l);
    ad_rect o = {0};
    assert_null(ad_shell_window_of(&l, 100, "AD Fixture", 600, 922, &o)); /* size */
    assert_null(ad_shell_window_of(&l, 100, "Other", 572, 922, &o));      /* title */
    assert_null(ad_shell_window_of(&l, 101, "AD Fixture", 572, 922, &o)); /* pid */
    assert_null(ad_shell_window_of(&l, 0, "AD Fixture", 572, 922, &o));   /* unknown pid */
    /* A popup is never a window, a window never a popup. */
    assert_null(ad_shell_window_of(&l, 200, NULL, 277, 232, &o));
    assert_null(ad_shell_popup_of(&l, 200, 800, 600, &o));
    ad_shell_windows_free(&l);
}

static void two_candidates_are_ambiguous(void **state)
{
    (void)state;
    static const char twins[] =
        "{\"shell_pid\": 1, \"windows\": ["
        "{\"pid\": 5, \"title\": \"Doc\", \"client\": 0, \"frame\": [0, 0, 400, 300],"
        " \"buffer\": [0, 0, 400, 300]},"
        "{\"pid\": 5, \"title\": \"Doc\", \"client\": 0, \"frame\": [500, 0, 400, 300],"
        " \"buffer\": [500, 0, 400, 300]},"
        "{\"pid\": 5, \"title\": \"Other\", \"client\": 0, \"frame\": [0, 400, 400, 300],"
        " \"buffer\": [0, 400, 400, 300]}]}";
    ad_shell_windows l;
    assert_int_equal(ad_shell_windows_parse(twins, &l), 0);
    ad_rect o = {0};
    assert_null(ad_shell_window_of(&l, 5, "Doc", 400, 300, &o));
    /* Without a title the size must pick one window of the pid: three share it. */
    assert_null(ad_shell_window_of(&l, 5, NULL, 400, 300, &o));
    assert_non_null(ad_shell_window_of(&l, 5, "Other", 400, 300, &o));
    assert_true(o.x == 0 && o.y == 400);
    ad_shell_windows_free(&l);
}

static void popover_takes_its_surface(void **state)
{
    (void)state;
    ad_shell_windows l;
    parse(&l);
    ad_rect o = {0};
    assert_non_null(ad_shell_popup_of(&l, 200, 277, 232, &o));
    assert_true(o.x == 300 && o.y == 200);
    assert_null(ad_shell_popup_of(&l, 200, 100, 100, &o));
    ad_shell_windows_free(&l);
}

static void bad_shapes_are_refused(void **state)
{
    (void)state;
    ad_shell_windows l;
    assert_int_equal(ad_shell_windows_parse("", &l), -1);
    assert_int_equal(ad_shell_windows_parse("{\"windows\": []}", &l), -1);
    assert_int_equal(ad_shell_windows_parse("{\"shell_pid\": 1, \"windows\": [{\"pid\": 1,"
                                            " \"frame\": [0, 0, 1], \"buffer\": [0,0,1,1]}]}",
                                            &l),
                     -1);
    assert_int_equal(l.count, 0);
    assert_null(l.items);
    assert_int_equal(ad_shell_windows_parse("{\"shell_pid\": 1, \"windows\": []}", &l), 0);
    assert_int_equal(l.count, 0);
    assert_true(l.screen.width == 0); /* no screen said: unknown */
    ad_shell_windows_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gtk3_window_starts_at_the_buffer),
        cmocka_unit_test(gtk4_window_starts_at_the_frame),
        cmocka_unit_test(a_mismatch_is_no_window),
        cmocka_unit_test(two_candidates_are_ambiguous),
        cmocka_unit_test(popover_takes_its_surface),
        cmocka_unit_test(bad_shapes_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
