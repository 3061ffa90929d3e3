/* test_wayland_plan.c: physical requests as paced Mutter RemoteDesktop events
 * (linux/wayland_plan.h): keysyms of combos and text, pointer pacing, button codes, wheel
 * directions, and the refusals before anything would be sent. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linux/wayland_plan.h"

#define CTRL 0xffe3u
#define SHIFT 0xffe1u
#define RETURN 0xff0du

static ad_wl_plan build_ok(const ad_phys_req *req)
{
    ad_wl_plan p;
    ad_error err = AD_ERROR_INIT;
    if (ad_wl_plan_build(req, &p, &err) != 0)
        fail_msg("the plan failed: %s", err.message);
    return p;
}

/* The plan without its waits. */
static size_t sends(const ad_wl_plan *p, ad_wl_event *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->ev[i].kind != AD_WL_WAIT && n < max)
            out[n++] = p->ev[i];
    assert_int_equal((int)n, p->sends);
    return n;
}

static void expect_key(const ad_wl_event *e, uint32_t ks, bool down)
{
    assert_int_equal(e->kind, AD_WL_KEY);
    assert_int_equal(e->code, ks);
    assert_int_equal(e->down, down);
}

static void test_combo_presses_modifiers_first_releases_in_reverse(void **state)
{
    (void)state;
    ad_phys_req req = {.kind = AD_PHYS_KEYS, .combo = "ctrl+shift+v"};
    ad_wl_plan p = build_ok(&req);
    ad_wl_event e[16];
    assert_int_equal(sends(&p, e, 16), 6);
    expect_key(&e[0], CTRL, true);
    expect_key(&e[1], SHIFT, true);
    expect_key(&e[2], 'v', true);
    expect_key(&e[3], 'v', false);
    expect_key(&e[4], SHIFT, false);
    expect_key(&e[5], CTRL, false);
    for (size_t i = 0; i < p.n; i++) /* every key is followed by its gap, if any */
        if (p.ev[i].kind == AD_WL_KEY && AD_WL_KEY_GAP_MS > 0)
            assert_true(i + 1 < p.n && p.ev[i + 1].kind == AD_WL_WAIT &&
                        p.ev[i + 1].value == AD_WL_KEY_GAP_MS);
    if (AD_WL_KEY_GAP_MS == 0)
        assert_int_equal(p.n, 6);
    ad_wl_plan_clear(&p);
}

static void test_text_keysyms(void **state)
{
    (void)state;
    ad_phys_req req = {.kind = AD_PHYS_TEXT, .text = "aZ\xc3\xa9\xe2\x82\xac\r\n"};
    ad_wl_plan p = build_ok(&req);
    ad_wl_event e[16];
    assert_int_equal(sends(&p, e, 16), 10);
    uint32_t want[] = {'a', 'Z', 0xe9, 0x10020ac, RETURN};
    for (int i = 0; i < 5; i++) {
        expect_key(&e[2 * i], want[i], true);
        expect_key(&e[2 * i + 1], want[i], false);
    }
    ad_wl_plan_clear(&p);
}

static void test_bad_text_and_combo_refused(void **state)
{
    (void)state;
    ad_wl_plan p;
    ad_error err = AD_ERROR_INIT;
    ad_phys_req bad = {.kind = AD_PHYS_TEXT, .text = "a\x01"};
    assert_int_equal(ad_wl_plan_build(&bad, &p, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_null(p.ev);
    ad_error_clear(&err);
    ad_phys_req combo = {.kind = AD_PHYS_KEYS, .combo = "ctrl+"};
    assert_int_equal(ad_wl_plan_build(&combo, &p, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    ad_error_clear(&err);
    ad_phys_req focus = {.kind = AD_PHYS_FOCUS};
    assert_int_equal(ad_wl_plan_build(&focus, &p, &err), -1);
    ad_error_clear(&err);
}

static void test_click_paced(void **state)
{
    (void)state;
    ad_phys_req req = {.kind = AD_PHYS_CLICK, .x = 40, .y = 12, .button = 3, .count = 2};
    ad_wl_plan p = build_ok(&req);
    /* motion, settle, (press, hold, release, gap) x2 without the last gap */
    assert_int_equal(p.ev[0].kind, AD_WL_MOTION);
    assert_int_equal(p.ev[0].x, 40);
    assert_int_equal(p.ev[0].y, 12);
    assert_int_equal(p.ev[1].kind, AD_WL_WAIT);
    assert_int_equal(p.ev[1].value, AD_WL_MOTION_SETTLE_MS);
    assert_int_equal(p.ev[2].kind, AD_WL_BUTTON);
    assert_int_equal(p.ev[2].code, 0x111); /* BTN_RIGHT */
    assert_true(p.ev[2].down);
    assert_int_equal(p.ev[3].value, AD_WL_PRESS_HOLD_MS);
    assert_false(p.ev[4].down);
    assert_int_equal(p.ev[5].value, AD_WL_CLICK_GAP_MS);
    assert_int_equal(p.sends, 5);
    assert_int_equal(p.ev[p.n - 1].kind, AD_WL_BUTTON);
    ad_wl_plan_clear(&p);
}

static void test_click_with_modifiers(void **state)
{
    (void)state;
    json_t *mods = json_pack("[s]", "shift");
    ad_phys_req req = {.kind = AD_PHYS_CLICK, .x = 1, .y = 2, .modifiers = mods};
    ad_wl_plan p = build_ok(&req);
    ad_wl_event e[16];
    assert_int_equal(sends(&p, e, 16), 5);
    assert_int_equal(e[0].kind, AD_WL_MOTION);
    expect_key(&e[1], SHIFT, true);
    assert_int_equal(e[2].code, 0x110);
    expect_key(&e[4], SHIFT, false);
    ad_wl_plan_clear(&p);
    json_decref(mods);
    mods = json_pack("[s]", "a"); /* not a modifier */
    req.modifiers = mods;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_wl_plan_build(&req, &p, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    ad_error_clear(&err);
    json_decref(mods);
}

static void test_wheel_directions(void **state)
{
    (void)state;
    /* As X11: dy > 0 scrolls up (Mutter: negative vertical steps), dx > 0 right. */
    ad_phys_req req = {.kind = AD_PHYS_WHEEL, .x = 5, .y = 5, .dy = 3, .dx = -2};
    ad_wl_plan p = build_ok(&req);
    ad_wl_event e[8];
    assert_int_equal(sends(&p, e, 8), 3);
    assert_int_equal(e[1].kind, AD_WL_AXIS);
    assert_int_equal(e[1].code, 0);
    assert_int_equal(e[1].value, -3);
    assert_int_equal(e[2].code, 1);
    assert_int_equal(e[2].value, -2);
    ad_wl_plan_clear(&p);
    ad_phys_req none = {.kind = AD_PHYS_WHEEL};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_wl_plan_build(&none, &p, &err), -1);
    ad_error_clear(&err);
}

static void test_drag_steps_and_move(void **state)
{
    (void)state;
    ad_phys_req req = {.kind = AD_PHYS_DRAG, .x = 0, .y = 0, .x2 = 100, .y2 = 50,
                       .duration_ms = 200, .hold_ms = 0};
    ad_wl_plan p = build_ok(&req);
    ad_wl_event e[32];
    size_t n = sends(&p, e, 32);
    assert_int_equal(n, 1 + 1 + AD_WL_DRAG_STEPS + 1);
    assert_true(e[1].down);
    assert_int_equal(e[n - 2].x, 100);
    assert_int_equal(e[n - 2].y, 50);
    assert_false(e[n - 1].down);
    ad_wl_plan_clear(&p);
    ad_phys_req move = {.kind = AD_PHYS_MOVE, .x = 9, .y = 8};
    p = build_ok(&move);
    assert_int_equal(p.n, 1);
    assert_int_equal(p.ev[0].kind, AD_WL_MOTION);
    ad_wl_plan_clear(&p);
}

static void test_json(void **state)
{
    (void)state;
    ad_phys_req req = {.kind = AD_PHYS_CLICK, .x = 3, .y = 4};
    ad_wl_plan p = build_ok(&req);
    json_t *a = ad_wl_plan_json(&p);
    assert_int_equal(json_array_size(a), p.n);
    assert_string_equal(json_string_value(json_object_get(json_array_get(a, 0), "t")), "motion");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 0), "x")), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(a, 1), "t")), "wait");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 2), "button")), 0x110);
    assert_true(json_is_true(json_object_get(json_array_get(a, 2), "down")));
    json_decref(a);
    ad_wl_plan_clear(&p);
    assert_int_equal(ad_wl_evdev_button(2), 0x112);
    assert_int_equal(ad_wl_evdev_button(4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_combo_presses_modifiers_first_releases_in_reverse),
        cmocka_unit_test(test_text_keysyms),
        cmocka_unit_test(test_bad_text_and_combo_refused),
        cmocka_unit_test(test_click_paced),
        cmocka_unit_test(test_click_with_modifiers),
        cmocka_unit_test(test_wheel_directions),
        cmocka_unit_test(test_drag_steps_and_move),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
