/* test_x11_geometry.c: unit tests for src/linux/x11_geometry.c (AT-SPI window to X client
 * matching, visible rectangles, GTK 4 origins). The numbers are Debian 12's, measured. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "linux/x11_geometry.h"

static void assert_rect(ad_rect r, double x, double y, double w, double h)
{
    assert_true(r.x == x && r.y == y && r.width == w && r.height == h);
}

/* GTK 4's origin for a frame of frame_w x frame_h in client c is (x, y). */
static void assert_origin(const ad_x11_client *c, double frame_w, double frame_h, int x, int y)
{
    int ox = 0, oy = 0;
    ad_x11_client_relative_origin(c, frame_w, frame_h, &ox, &oy);
    assert_int_equal(ox, x);
    assert_int_equal(oy, y);
}

/* gnome-calculator 43 (GTK 4.8) under openbox, no compositor: X window 365x508 at 457,276,
 * no _GTK_FRAME_EXTENTS; AT-SPI frame 0,0 355x498. */
static ad_x11_client calculator(void)
{
    return (ad_x11_client){.pid = 100, .x = 457, .y = 276, .width = 365, .height = 508,
                           .title = "Calculator"};
}

static void gtk4_origin_is_the_content_box_inside_the_x_window(void **state)
{
    (void)state;
    ad_x11_client c = calculator();
    /* The '7' key's pixels start at 457 + 5 + 16 - 4 (its CSS padding). */
    assert_origin(&c, 355, 498, 462, 281);
    assert_rect(ad_x11_client_visible(&c), 457, 276, 365, 508);
}

static void frame_extents_are_cut_off(void **state)
{
    (void)state;
    /* A composited session: 23 px of shadow left and right, 15 top, 31 bottom. */
    ad_x11_client c = {.pid = 1, .x = 100, .y = 50, .width = 411, .height = 554,
                       .frame_left = 23, .frame_right = 23, .frame_top = 15,
                       .frame_bottom = 31};
    ad_rect v = ad_x11_client_visible(&c);
    assert_rect(v, 123, 65, 365, 508);
    assert_origin(&c, 355, 498, 128, 70);
    /* Maximized: no inset at all. */
    assert_origin(&c, 365, 508, 123, 65);
    /* Extents larger than the window are not believed. */
    ad_x11_client bad = {.width = 10, .height = 10, .frame_left = 8, .frame_right = 8};
    v = ad_x11_client_visible(&bad);
    assert_true(v.width == 10 && v.height == 10);
}

static void pick_matches_pid_title_and_geometry(void **state)
{
    (void)state;
    ad_x11_client items[] = {
        calculator(),
        {.pid = 100, .x = 600, .y = 300, .width = 300, .height = 200, .title = "Preferences"},
        {.pid = 200, .x = 0, .y = 0, .width = 1366, .height = 741,
         .title = "gtk3-widget-factory"},
        {.pid = 200, .x = 300, .y = 200, .width = 400, .height = 300, .title = "About"},
    };
    ad_x11_clients l = {items, 4};
    ad_rect frame = {0, 0, 355, 498};
    assert_ptr_equal(ad_x11_client_pick(&l, 100, "Calculator", &frame, true), &items[0]);
    /* Window-relative, nameless: the size decides (the 300x200 one cannot hold 355x498). */
    assert_ptr_equal(ad_x11_client_pick(&l, 100, NULL, &frame, true), &items[0]);
    /* Two that fit and no title: no guess. */
    ad_rect small = {0, 0, 100, 100};
    assert_null(ad_x11_client_pick(&l, 100, "", &small, true));
    /* Screen coordinates (GTK 3): place and size, within 2 px. */
    ad_rect factory = {1, 0, 1366, 740};
    assert_ptr_equal(ad_x11_client_pick(&l, 200, NULL, &factory, false), &items[2]);
    ad_rect elsewhere = {50, 50, 1366, 741};
    assert_null(ad_x11_client_pick(&l, 200, NULL, &elsewhere, false));
    /* Without a rectangle the title or the pid's only window. */
    assert_ptr_equal(ad_x11_client_pick(&l, 200, "About", NULL, false), &items[3]);
    assert_null(ad_x11_client_pick(&l, 200, NULL, NULL, false));
    assert_null(ad_x11_client_pick(&l, 300, NULL, NULL, false));
    assert_null(ad_x11_client_pick(&l, 100, "Calculator", &frame, false));
}

static void a_shadowed_gtk3_window_matches_its_whole_x_window(void **state)
{
    (void)state;
    /* GTK 3 CSD, composited: AT-SPI says the X window, shadow included. */
    ad_x11_client c = {.pid = 5, .x = 10, .y = 20, .width = 500, .height = 400,
                       .frame_left = 10, .frame_right = 10, .frame_top = 8, .frame_bottom = 12};
    ad_x11_clients l = {&c, 1};
    ad_rect atspi = {10, 20, 500, 400};
    assert_ptr_equal(ad_x11_client_pick(&l, 5, NULL, &atspi, false), &c);
    ad_rect v = ad_x11_client_visible(&c);
    assert_rect(v, 20, 28, 480, 380);
}

static void popups_are_matched_by_size_and_never_as_windows(void **state)
{
    (void)state;
    /* The calculator's mode popover: a 277x232 override-redirect surface at 468,300. */
    ad_x11_client items[] = {
        calculator(),
        {.popup = true, .pid = 100, .x = 468, .y = 300, .width = 277, .height = 232},
        {.popup = true, .pid = 100, .x = 546, .y = 325, .width = 121, .height = 30},
        {.popup = true, .pid = 200, .x = 0, .y = 0, .width = 277, .height = 232},
    };
    ad_x11_clients l = {items, 4};
    assert_ptr_equal(ad_x11_popup_pick(&l, 100, 277, 232), &items[1]);
    assert_ptr_equal(ad_x11_popup_pick(&l, 100, 278, 231), &items[1]);
    assert_null(ad_x11_popup_pick(&l, 100, 355, 498)); /* the window is no popup */
    assert_null(ad_x11_popup_pick(&l, 300, 277, 232));
    items[3].pid = 100; /* two of that size: no guess */
    assert_null(ad_x11_popup_pick(&l, 100, 277, 232));
    /* A popup is never the window: only the calculator fits a nameless 100x100 frame. */
    ad_rect small = {0, 0, 100, 100};
    assert_ptr_equal(ad_x11_client_pick(&l, 100, NULL, &small, true), &items[0]);
}

static void a_server_side_frame_is_part_of_the_window(void **state)
{
    (void)state;
    /* The fixture (GTK 3, openbox frame 1, 1, 20, 5): AT-SPI says the frame, 379,106 522x812. */
    ad_x11_client c = {.pid = 7, .x = 380, .y = 126, .width = 520, .height = 787,
                       .wm_left = 1, .wm_right = 1, .wm_top = 20, .wm_bottom = 5,
                       .title = "AD Fixture"};
    ad_x11_clients l = {&c, 1};
    ad_rect atspi = {379, 106, 522, 812};
    assert_ptr_equal(ad_x11_client_pick(&l, 7, NULL, &atspi, false), &c);
    assert_rect(ad_x11_client_visible(&c), 379, 106, 522, 812);
    /* A GTK 4 origin is inside the client window, never the frame's title bar. */
    assert_origin(&c, 520, 787, 380, 126);
}

/* ad_x11_client_of_window: the one mapping list-windows and the window commands share. */
static void window_mapping_falls_back_on_title_then_geometry(void **state)
{
    (void)state;
    ad_x11_client items[] = {
        {.window = 11, .pid = 7, .x = 100, .y = 50, .width = 520, .height = 827,
         .wm_left = 1, .wm_right = 1, .wm_top = 20, .wm_bottom = 5, .title = "AD Fixture"},
        {.window = 12, .pid = 7, .x = 300, .y = 300, .width = 200, .height = 100,
         .title = "AD Dialog"},
    };
    ad_x11_clients l = {items, 2};
    ad_rect listed = ad_x11_client_visible(&items[0]); /* what list-windows reported */
    assert_int_equal(ad_x11_client_of_window(&l, 7, "AD Fixture", &listed, false)->window, 11);
    /* Another title on X (a Qt window's): the rectangle alone. */
    assert_int_equal(ad_x11_client_of_window(&l, 7, "Other", &listed, false)->window, 11);
    /* A minimized window's stale extents: the title alone. */
    ad_rect stale = {0, 0, 10, 10};
    assert_int_equal(ad_x11_client_of_window(&l, 7, "AD Dialog", &stale, false)->window, 12);
    /* Neither: no guess. */
    assert_null(ad_x11_client_of_window(&l, 7, "Other", &stale, false));
    assert_null(ad_x11_client_of_window(&l, 8, "AD Fixture", &listed, false));
    /* Two windows with one title and no rectangle to tell them apart: none. */
    items[1].title = "AD Fixture";
    assert_null(ad_x11_client_of_window(&l, 7, "AD Fixture", &stale, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gtk4_origin_is_the_content_box_inside_the_x_window),
        cmocka_unit_test(frame_extents_are_cut_off),
        cmocka_unit_test(pick_matches_pid_title_and_geometry),
        cmocka_unit_test(a_shadowed_gtk3_window_matches_its_whole_x_window),
        cmocka_unit_test(popups_are_matched_by_size_and_never_as_windows),
        cmocka_unit_test(a_server_side_frame_is_part_of_the_window),
        cmocka_unit_test(window_mapping_falls_back_on_title_then_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
