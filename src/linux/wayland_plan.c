/* wayland_plan.c: physical requests as paced RemoteDesktop events (wayland_plan.h). */
#include "linux/wayland_plan.h"

#include <stdlib.h>
#include <string.h>

#include "linux/x11_input.h"

static int push(ad_wl_plan *p, ad_wl_event e, ad_error *err)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        ad_wl_event *ev = realloc(p->ev, cap * sizeof(*ev));
        if (!ev)
            return ad_error_set(err, AD_INTERNAL, "Out of memory");
        p->ev = ev;
        p->cap = cap;
    }
    p->ev[p->n++] = e;
    p->sends += e.kind != AD_WL_WAIT;
    return 0;
}

static int wait_ms(ad_wl_plan *p, int ms, ad_error *err)
{
    return ms > 0 ? push(p, (ad_wl_event){.kind = AD_WL_WAIT, .value = ms}, err) : 0;
}

static int key(ad_wl_plan *p, uint32_t keysym, bool down, ad_error *err)
{
    if (push(p, (ad_wl_event){.kind = AD_WL_KEY, .code = keysym, .down = down}, err) < 0)
        return -1;
    return wait_ms(p, AD_WL_KEY_GAP_MS, err);
}

static int motion(ad_wl_plan *p, int x, int y, int settle_ms, ad_error *err)
{
    if (push(p, (ad_wl_event){.kind = AD_WL_MOTION, .x = x, .y = y}, err) < 0)
        return -1;
    return wait_ms(p, settle_ms, err);
}

static int button(ad_wl_plan *p, uint32_t code, bool down, int after_ms, ad_error *err)
{
    if (push(p, (ad_wl_event){.kind = AD_WL_BUTTON, .code = code, .down = down}, err) < 0)
        return -1;
    return wait_ms(p, after_ms, err);
}

uint32_t ad_wl_evdev_button(int button)
{
    return button == 1 ? 0x110 /* BTN_LEFT */ : button == 2 ? 0x112 /* BTN_MIDDLE */
         : button == 3 ? 0x111 /* BTN_RIGHT */ : 0;
}

/* The keysyms of the held modifiers (names as in combos) into ks; their count or -1. */
static int modifier_keysyms(const json_t *mods, uint32_t *ks, ad_error *err)
{
    size_t i;
    json_t *v;
    int n = 0;
    json_array_foreach(mods, i, v) {
        unsigned mask = 0;
        uint32_t one[AD_X11_COMBO_MAX];
        int m = 0;
        const char *name = json_string_value(v);
        /* Checked as a modifier first, so "a" is refused, not taken as a key. */
        if (ad_x11_modifier_mask(name, &mask, err) < 0 ||
            ad_x11_parse_combo(name, one, &m, err) < 0)
            return -1;
        if (n == AD_X11_COMBO_MAX)
            return ad_error_set(err, AD_INVALID_ARGS, "Too many modifiers");
        ks[n++] = one[m - 1];
    }
    return n;
}

static int mods_press(ad_wl_plan *p, const uint32_t *ks, int n, bool down, ad_error *err)
{
    for (int i = 0; i < n; i++)
        if (key(p, ks[down ? i : n - 1 - i], down, err) < 0)
            return -1;
    return 0;
}

static int plan_pointer(const ad_phys_req *req, ad_wl_plan *p, ad_error *err)
{
    uint32_t mods[AD_X11_COMBO_MAX];
    int nm = modifier_keysyms(req->modifiers, mods, err);
    if (nm < 0)
        return -1;
    if (req->kind == AD_PHYS_MOVE)
        return motion(p, req->x, req->y, 0, err);
    uint32_t code = ad_wl_evdev_button(req->button ? req->button : 1);
    if (req->kind == AD_PHYS_CLICK && !code)
        return ad_error_set(err, AD_INVALID_ARGS, "Button %d is not 1, 2 or 3", req->button);
    if (motion(p, req->x, req->y, AD_WL_MOTION_SETTLE_MS, err) < 0 ||
        mods_press(p, mods, nm, true, err) < 0)
        return -1;
    if (req->kind == AD_PHYS_CLICK) {
        int count = req->count ? req->count : 1;
        for (int i = 0; i < count; i++)
            if (button(p, code, true, AD_WL_PRESS_HOLD_MS, err) < 0 ||
                button(p, code, false, i + 1 < count ? AD_WL_CLICK_GAP_MS : 0, err) < 0)
                return -1;
    } else if (req->kind == AD_PHYS_WHEEL) {
        if ((req->dx == 0 && req->dy == 0) || abs(req->dx) > 1000 || abs(req->dy) > 1000)
            return ad_error_set(err, AD_INVALID_ARGS, "A wheel scroll needs dx or dy, each "
                                                      "from -1000 to 1000");
        /* As on X11 (x11_pointer.c): dy > 0 scrolls up, dx > 0 right; Mutter's positive
         * vertical steps go down. */
        if (req->dy && push(p, (ad_wl_event){.kind = AD_WL_AXIS, .code = 0, .value = -req->dy},
                            err) < 0)
            return -1;
        if (req->dx && push(p, (ad_wl_event){.kind = AD_WL_AXIS, .code = 1, .value = req->dx},
                            err) < 0)
            return -1;
    } else { /* AD_PHYS_DRAG */
        if (button(p, 0x110, true, AD_WL_PRESS_HOLD_MS, err) < 0)
            return -1;
        int step_ms = req->duration_ms / AD_WL_DRAG_STEPS;
        for (int i = 1; i <= AD_WL_DRAG_STEPS; i++)
            if (motion(p, req->x + (req->x2 - req->x) * i / AD_WL_DRAG_STEPS,
                       req->y + (req->y2 - req->y) * i / AD_WL_DRAG_STEPS,
                       step_ms, err) < 0)
                return -1;
        if (wait_ms(p, req->hold_ms > AD_WL_PRESS_HOLD_MS ? req->hold_ms : AD_WL_PRESS_HOLD_MS,
                    err) < 0 ||
            button(p, 0x110, false, 0, err) < 0)
            return -1;
    }
    return mods_press(p, mods, nm, false, err);
}

int ad_wl_plan_build(const ad_phys_req *req, ad_wl_plan *p, ad_error *err)
{
    memset(p, 0, sizeof(*p));
    int rc = -1;
    if (req->kind == AD_PHYS_KEYS) {
        uint32_t ks[AD_X11_COMBO_MAX];
        int n = 0;
        /* Mutter picks the level of each keysym itself (an uppercase letter gets its shift). */
        rc = ad_x11_parse_combo(req->combo, ks, &n, err) < 0 ||
             mods_press(p, ks, n, true, err) < 0 || mods_press(p, ks, n, false, err) < 0 ? -1 : 0;
    } else if (req->kind == AD_PHYS_TEXT) {
        uint32_t *ks = NULL;
        int n = 0;
        rc = ad_x11_text_keysyms(req->text ? req->text : "", &ks, &n, err);
        for (int i = 0; rc == 0 && i < n; i++)
            if (key(p, ks[i], true, err) < 0 || key(p, ks[i], false, err) < 0)
                rc = -1;
        free(ks);
    } else if (req->kind == AD_PHYS_FOCUS) {
        rc = ad_error_set(err, AD_INVALID_ARGS, "A focus request sends no input");
    } else {
        rc = plan_pointer(req, p, err);
    }
    if (rc < 0)
        ad_wl_plan_clear(p);
    return rc;
}

void ad_wl_plan_clear(ad_wl_plan *p)
{
    free(p->ev);
    memset(p, 0, sizeof(*p));
}

json_t *ad_wl_plan_json(const ad_wl_plan *p)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < p->n; i++) {
        const ad_wl_event *e = &p->ev[i];
        json_t *o = NULL;
        switch (e->kind) {
        case AD_WL_KEY:
            o = json_pack("{s:s, s:I, s:b}", "t", "key", "keysym", (json_int_t)e->code, "down",
                          e->down);
            break;
        case AD_WL_MOTION:
            o = json_pack("{s:s, s:i, s:i}", "t", "motion", "x", e->x, "y", e->y);
            break;
        case AD_WL_BUTTON:
            o = json_pack("{s:s, s:I, s:b}", "t", "button", "button", (json_int_t)e->code,
                          "down", e->down);
            break;
        case AD_WL_AXIS:
            o = json_pack("{s:s, s:I, s:i}", "t", "axis", "axis", (json_int_t)e->code, "steps",
                          e->value);
            break;
        case AD_WL_WAIT:
            o = json_pack("{s:s, s:i}", "t", "wait", "ms", e->value);
            break;
        }
        if (!o || json_array_append_new(a, o) < 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}
