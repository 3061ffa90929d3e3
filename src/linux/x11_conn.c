/* x11_conn.c: the X11 connection behind x11_input.h (ad_x11_open, ad_x11_close) and the
 * low-level helpers the other x11_*.c files share: time, errors, the sync round trip that
 * surfaces the errors of unchecked requests, and queueing XTEST events. */
#include "linux/x11_private.h"

#include "linux/x11_connect.h"
#include "linux/x11_hold.h"

#include <stdlib.h>
#include <time.h>
#include <xcb/xtest.h>

/* ---- time and errors --------------------------------------------------------------------- */

/* CLOCK_MONOTONIC in microseconds. */
int64_t ad_x11_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Gesture pacing (click gaps, drag steps, the remap settle): time is the point here. */
void ad_x11_pause_ms(int ms)
{
    /* Cut short by SIGTERM while a key or button is held, so the release comes soon. */
    ad_x11_hold_pause_ms(ms);
}

static int fail_x(ad_x11 *x, ad_error *err, const char *what, unsigned code)
{
    ad_error_set(err, AD_ACTION_FAILED, "The X server refused %s (X error %u)", what, code);
    if (x->sent > 0)
        err->delivery = AD_DELIVERY_UNCERTAIN;
    return -1;
}

/* INVALID_ARGS with msg; returns -1. */
int ad_x11_bad_arg(ad_error *err, const char *msg)
{
    return ad_error_set(err, AD_INVALID_ARGS, "%s", msg);
}

/* One round trip, then the errors of every request sent before it. */
int ad_x11_sync(ad_x11 *x, ad_error *err)
{
    free(xcb_get_input_focus_reply(x->c, xcb_get_input_focus(x->c), NULL));
    if (xcb_connection_has_error(x->c)) {
        ad_error_set(err, AD_ACTION_FAILED, "The connection to the X server broke");
        if (x->sent > 0)
            err->delivery = AD_DELIVERY_UNCERTAIN;
        return -1;
    }
    unsigned code = 0;
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(x->c))) {
        if (ev->response_type == 0 && code == 0)
            code = ((xcb_generic_error_t *)ev)->error_code;
        free(ev);
    }
    return code ? fail_x(x, err, "an input or keymap request", code) : 0;
}

/* A round trip whose error is dropped: cleanup after a failure already reported. */
void ad_x11_sync_quiet(ad_x11 *x)
{
    ad_error tmp = AD_ERROR_INIT;
    ad_x11_sync(x, &tmp);
    ad_error_clear(&tmp);
}

/* ---- connection -------------------------------------------------------------------------- */

static int no_platform(ad_error *err, const char *msg, const char *detail)
{
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "%s", msg);
    ad_error_platform_detail(err, detail);
    return -1;
}

int ad_x11_open(ad_x11 **ret, ad_error *err)
{
    if (!ret)
        return ad_x11_bad_arg(err, "ad_x11_open needs somewhere to put the handle");
    const char *display = getenv("DISPLAY");
    if (!display || !*display)
        return no_platform(err, "Physical input needs an X11 display", "DISPLAY is not set");
    ad_x11 *x = calloc(1, sizeof(*x));
    if (!x)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    x->c = ad_x11_connect(NULL, &x->screen_no);
    int ce = xcb_connection_has_error(x->c);
    if (ce || !ad_x11_has_extension(x->c, AD_X11_EXT_XTEST)) {
        xcb_disconnect(x->c);
        free(x);
        if (ce)
            return no_platform(err, "Cannot connect to the X11 display",
                               "xcb_connect failed for $DISPLAY");
        return no_platform(err, "The X server has no XTEST extension",
                           "XTEST is missing; physical input cannot be synthesized");
    }
    if (!xcb_ewmh_init_atoms_replies(&x->ewmh, xcb_ewmh_init_atoms(x->c, &x->ewmh), NULL)) {
        xcb_disconnect(x->c);
        free(x);
        return no_platform(err, "Cannot read EWMH atoms from the X server", "InternAtom failed");
    }
    xcb_screen_t *s = x->ewmh.screens[x->screen_no];
    x->root = s->root;
    x->width = s->width_in_pixels;
    x->height = s->height_in_pixels;
    const xcb_setup_t *setup = xcb_get_setup(x->c);
    x->min_kc = setup->min_keycode;
    x->max_kc = setup->max_keycode;
    *ret = x;
    return 0;
}

void ad_x11_close(ad_x11 *x)
{
    if (!x)
        return;
    ad_x11_restore_spares(x);
    xcb_ewmh_connection_wipe(&x->ewmh);
    xcb_disconnect(x->c);
    free(x->keysyms);
    free(x);
}

/* ---- sending ----------------------------------------------------------------------------- */

/* Starts a sending call: INVALID_ARGS naming `who` without a connection, else zeroes sent. */
int ad_x11_start(ad_x11 *x, ad_error *err, const char *who)
{
    if (!x)
        return ad_error_set(err, AD_INVALID_ARGS, "%s needs a connection", who);
    x->sent = 0;
    return 0;
}

/* INVALID_ARGS unless root point (px, py) lies on the screen. */
int ad_x11_check_point(ad_x11 *x, int px, int py, ad_error *err)
{
    if (px >= 0 && py >= 0 && px < x->width && py < x->height)
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "Point %d,%d is outside the %dx%d screen", px, py,
                 x->width, x->height);
    return -1;
}

/* Queues one XTEST event (px, py used by motion only) and counts it in x->sent. */
void ad_x11_fake(ad_x11 *x, uint8_t type, uint8_t detail, int px, int py)
{
    bool motion = type == XCB_MOTION_NOTIFY;
    xcb_test_fake_input(x->c, type, detail, XCB_CURRENT_TIME, motion ? x->root : XCB_NONE,
                        (int16_t)(motion ? px : 0), (int16_t)(motion ? py : 0), 0);
    x->sent++;
    /* A termination signal waits until what this process pressed is up (x11_hold.h). */
    ad_x11_hold_note(x->c, type, detail);
}

/* Presses kcs[0..n) in order, or releases them in reverse order. */
void ad_x11_fake_keys(ad_x11 *x, const xcb_keycode_t *kcs, int n, bool press)
{
    for (int i = 0; i < n; i++) {
        int k = press ? i : n - 1 - i;
        ad_x11_fake(x, press ? XCB_KEY_PRESS : XCB_KEY_RELEASE, kcs[k], 0, 0);
    }
}
