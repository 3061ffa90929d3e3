/* wayland_plan.h: a physical request (platform/adapter.h ad_phys_req) as the paced list of
 * Mutter RemoteDesktop events the helper's "wlinput" service sends (helper/wl_session.h).
 *
 * Pure: no bus, no helper; tests/unit/test_wayland_plan.c checks every kind.
 *
 * Pacing (mutter 43.8, headless). Each event is one synchronous D-Bus call (~2 ms), which
 * is pacing enough for keys: 47-character texts typed with no added gap arrived whole into a
 * GTK3 entry 3 of 3 times (0, 2 and 4 ms gaps alike), so AD_WL_KEY_GAP_MS is 0 and only the
 * session's priming matters (helper/wl_session.h). Pointer: clicks on gnome-shell's
 * Activities toggled the Overview 8 of 8 times at every settle/hold from 0/0 to 60/40 ms;
 * issue 10 saw app clicks lost when sent back to back (a client must get the pointer's enter
 * before the press), and app windows have no screen points yet to measure on, so a click
 * keeps AD_WL_MOTION_SETTLE_MS after the motion and AD_WL_PRESS_HOLD_MS before the release.
 */
#ifndef AD_WAYLAND_PLAN_H
#define AD_WAYLAND_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "core/error.h"
#include "platform/adapter.h"

#define AD_WL_MOTION_SETTLE_MS 60
#define AD_WL_PRESS_HOLD_MS 40
#define AD_WL_KEY_GAP_MS 0
/* Between the clicks of a double or triple click: inside any double-click time. */
#define AD_WL_CLICK_GAP_MS 40
#define AD_WL_DRAG_STEPS 10

typedef enum { AD_WL_KEY, AD_WL_MOTION, AD_WL_BUTTON, AD_WL_AXIS, AD_WL_WAIT } ad_wl_ev_kind;

typedef struct {
    ad_wl_ev_kind kind;
    uint32_t code;  /* keysym (KEY), evdev button (BUTTON), axis 0 vertical 1 horizontal */
    bool down;      /* KEY, BUTTON */
    int x, y;       /* MOTION: a screen point */
    int value;      /* AXIS: discrete steps (positive: down or right); WAIT: milliseconds */
} ad_wl_event;

typedef struct {
    ad_wl_event *ev; /* owned */
    size_t n, cap;
    int sends;       /* events that are not waits: what the helper's "sent" counts */
} ad_wl_plan;

/* Builds the plan for req into *plan (zeroed first; ad_wl_plan_clear frees it). Handles
 * AD_PHYS_CLICK, MOVE, WHEEL, DRAG, KEYS and TEXT; INVALID_ARGS for a bad combo, modifier or
 * text (the X11 parsers' messages: ad_x11_parse_combo, ad_x11_text_keysyms) or a FOCUS
 * request, before anything is sent. */
int ad_wl_plan_build(const ad_phys_req *req, ad_wl_plan *plan, ad_error *err);
void ad_wl_plan_clear(ad_wl_plan *plan);

/* The plan as the "events" array of a "send" request; a new reference (NULL on OOM). */
json_t *ad_wl_plan_json(const ad_wl_plan *plan);

/* The evdev code (BTN_LEFT, BTN_MIDDLE, BTN_RIGHT) of X button 1, 2 or 3; 0 otherwise. */
uint32_t ad_wl_evdev_button(int button);

#endif
