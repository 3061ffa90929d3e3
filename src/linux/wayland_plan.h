/* wayland_plan.h: a physical request (platform/adapter.h ad_phys_req) as the paced list of
 * Mutter RemoteDesktop events the helper's "wlinput" service sends (helper/wl_session.h).
 *
 * Pure: no bus, no helper; tests/unit/test_wayland_plan.c checks every kind.
 *
 * Pacing (mutter 43.8, headless, measured with bench/bench-wayland-input.sh and the e2e
 * tests): pointer events sent back to back were lost, so a click is motion, a settle of
 * AD_WL_MOTION_SETTLE_MS (the pointer's new position must reach the client before the
 * press), press, AD_WL_PRESS_HOLD_MS, release; keys get AD_WL_KEY_GAP_MS after each event.
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
#define AD_WL_KEY_GAP_MS 4
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
