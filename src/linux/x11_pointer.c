/* x11_pointer.c: XTEST pointer gestures for x11_input.h: move, click, wheel and drag (with
 * held modifiers), each waiting until the server has processed the last button release. */
#include "linux/x11_private.h"

#include <stdlib.h>

#define CLICK_GAP_MS 30
#define DRAG_STEP_MS 16
#define RELEASE_WAIT_MS 5000 /* bound on a window manager holding a click back */

int ad_x11_move(ad_x11 *x, int px, int py, ad_error *err)
{
    if (ad_x11_start(x, err, "ad_x11_move") < 0 || ad_x11_check_point(x, px, py, err) < 0)
        return -1;
    ad_x11_fake(x, XCB_MOTION_NOTIFY, 0, px, py);
    return ad_x11_sync(x, err);
}

/* The core button state bit of buttons 1..5; 6 and 7 have none. */
static uint16_t button_bit(int button)
{
    return button >= 1 && button <= 5 ? (uint16_t)(XCB_BUTTON_MASK_1 << (button - 1)) : 0;
}

/* The core pointer state (buttons and modifiers); 0 when it cannot be read. */
static uint16_t pointer_mask(ad_x11 *x)
{
    xcb_query_pointer_reply_t *p =
        xcb_query_pointer_reply(x->c, xcb_query_pointer(x->c, x->root), NULL);
    uint16_t m = p ? p->mask : 0;
    free(p);
    return m;
}

/* Sends what is queued and waits, polling the pointer state every millisecond, until the
 * buttons in `bits` read up. A window manager that binds clicks (openbox: Focus and Raise
 * on Press) takes them with a synchronous passive grab: the pointer freezes, the release
 * waits in the server until the manager replays the press, and key events sent meanwhile
 * would reach the application before the click. Once the release is processed the click
 * has been delivered. ACTION_FAILED when the pointer stays frozen. */
static int wait_release(ad_x11 *x, uint16_t bits, ad_error *err)
{
    if (ad_x11_sync(x, err) < 0)
        return -1;
    int64_t deadline = ad_x11_now_us() + RELEASE_WAIT_MS * 1000;
    while (bits && (pointer_mask(x) & bits)) {
        if (xcb_connection_has_error(x->c))
            return ad_x11_sync(x, err);
        if (ad_x11_now_us() > deadline) {
            ad_error_set(err, AD_ACTION_FAILED, "The pointer stayed frozen by another "
                                                "client's grab; the click was not delivered");
            ad_error_suggest(err, "Check that the window manager responds, then look at the "
                                  "application before retrying");
            ad_error_detail(err, "cause", json_string("pointer_frozen"));
            err->delivery = AD_DELIVERY_UNCERTAIN;
            return -1;
        }
        ad_x11_pause_ms(1);
    }
    return 0;
}

int ad_x11_click_mods(ad_x11 *x, int px, int py, int button, int count, unsigned mods,
                      ad_error *err)
{
    if (ad_x11_start(x, err, "ad_x11_click") < 0 || ad_x11_check_point(x, px, py, err) < 0)
        return -1;
    if (button < 1 || button > 3 || count < 1 || count > 100)
        return ad_x11_bad_arg(err, "A click needs button 1 (left), 2 (middle) or 3 (right) "
                                   "and a count from 1 to 100");
    xcb_keycode_t kcs[4];
    int nk = 0;
    if (ad_x11_mod_keycodes(x, mods, kcs, &nk, err) < 0)
        return -1;
    uint16_t held = pointer_mask(x); /* a button held already cannot be watched */
    ad_x11_fake(x, XCB_MOTION_NOTIFY, 0, px, py);
    ad_x11_fake_keys(x, kcs, nk, true);
    for (int i = 0; i < count; i++) {
        if (i > 0) {
            xcb_flush(x->c);
            ad_x11_pause_ms(CLICK_GAP_MS);
        }
        ad_x11_fake(x, XCB_BUTTON_PRESS, (uint8_t)button, 0, 0);
        ad_x11_fake(x, XCB_BUTTON_RELEASE, (uint8_t)button, 0, 0);
    }
    int rc = wait_release(x, button_bit(button) & ~held, err);
    /* Released even on failure, after the click when it went out. */
    ad_x11_fake_keys(x, kcs, nk, false);
    if (rc < 0) {
        ad_x11_sync_quiet(x);
        return -1;
    }
    return ad_x11_sync(x, err);
}

int ad_x11_click(ad_x11 *x, int px, int py, int button, int count, ad_error *err)
{
    return ad_x11_click_mods(x, px, py, button, count, 0, err);
}

int ad_x11_wheel_mods(ad_x11 *x, int px, int py, int dx, int dy, unsigned mods,
                      ad_error *err)
{
    if (ad_x11_start(x, err, "ad_x11_wheel") < 0 || ad_x11_check_point(x, px, py, err) < 0)
        return -1;
    if ((dx == 0 && dy == 0) || abs(dx) > 1000 || abs(dy) > 1000)
        return ad_x11_bad_arg(err, "A wheel scroll needs dx or dy, each from -1000 to 1000 "
                                   "clicks");
    xcb_keycode_t kcs[4];
    int nk = 0;
    if (ad_x11_mod_keycodes(x, mods, kcs, &nk, err) < 0)
        return -1;
    uint16_t held = pointer_mask(x), bits = 0;
    ad_x11_fake(x, XCB_MOTION_NOTIFY, 0, px, py);
    ad_x11_fake_keys(x, kcs, nk, true);
    for (int i = 0; i < abs(dy) + abs(dx); i++) {
        uint8_t b = i < abs(dy) ? (dy > 0 ? 4 : 5) : (dx > 0 ? 7 : 6);
        ad_x11_fake(x, XCB_BUTTON_PRESS, b, 0, 0);
        ad_x11_fake(x, XCB_BUTTON_RELEASE, b, 0, 0);
        bits |= button_bit(b);
    }
    int rc = wait_release(x, bits & ~held, err); /* 6 and 7 cannot be watched */
    ad_x11_fake_keys(x, kcs, nk, false);
    if (rc < 0) {
        ad_x11_sync_quiet(x);
        return -1;
    }
    return ad_x11_sync(x, err);
}

int ad_x11_wheel(ad_x11 *x, int px, int py, int dx, int dy, ad_error *err)
{
    return ad_x11_wheel_mods(x, px, py, dx, dy, 0, err);
}

int ad_x11_drag_hold(ad_x11 *x, int fx, int fy, int tx, int ty, int duration_ms, int hold_ms,
                     ad_error *err)
{
    if (ad_x11_start(x, err, "ad_x11_drag") < 0 || ad_x11_check_point(x, fx, fy, err) < 0 ||
        ad_x11_check_point(x, tx, ty, err) < 0)
        return -1;
    if (duration_ms < 0 || duration_ms > 60000 || hold_ms < 0 || hold_ms > 10000)
        return ad_x11_bad_arg(err, "A drag needs a duration of 0 to 60000 ms and a hold of 0 "
                                   "to 10000 ms");
    /* At least 8 motions, so a toolkit sees the pointer pass its drag threshold. */
    int steps = duration_ms / DRAG_STEP_MS < 8 ? 8 : duration_ms / DRAG_STEP_MS;
    int64_t t0 = ad_x11_now_us();
    uint16_t held = pointer_mask(x);
    ad_x11_fake(x, XCB_MOTION_NOTIFY, 0, fx, fy);
    ad_x11_fake(x, XCB_BUTTON_PRESS, 1, 0, 0);
    for (int i = 1; i <= steps; i++) {
        xcb_flush(x->c);
        int64_t due = t0 + (int64_t)duration_ms * 1000 * i / steps - ad_x11_now_us();
        if (due > 0)
            ad_x11_pause_ms((int)(due / 1000));
        ad_x11_fake(x, XCB_MOTION_NOTIFY, 0, fx + (tx - fx) * i / steps,
                    fy + (ty - fy) * i / steps);
    }
    xcb_flush(x->c);
    if (hold_ms > 0)
        ad_x11_pause_ms(hold_ms);
    ad_x11_fake(x, XCB_BUTTON_RELEASE, 1, 0, 0);
    return wait_release(x, button_bit(1) & ~held, err);
}

int ad_x11_drag(ad_x11 *x, int fx, int fy, int tx, int ty, int duration_ms, ad_error *err)
{
    return ad_x11_drag_hold(x, fx, fy, tx, ty, duration_ms, AD_X11_DRAG_HOLD_MS, err);
}
