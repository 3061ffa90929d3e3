/* physical.c: synthesized input over X11 XTEST (on Wayland: wayland_input.h). Before pointer input to a window the window
 * is focused (and the focus read back) and the target point is hit-tested: input goes only
 * where the requested window shows. Nothing is sent until every check passed, so a refusal
 * is not_delivered; a failure between events is delivery_uncertain. */
#include "linux/physical.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linux/atspi_apps.h"
#include "linux/wayland_input.h"
#include "linux/window_ops.h"
#include "linux/x11_input.h"

static int64_t ad_now_us_local(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

bool ad_linux_wayland_session(void)
{
    const char *type = getenv("XDG_SESSION_TYPE");
    return (type && strcmp(type, "wayland") == 0) ||
           (getenv("WAYLAND_DISPLAY") && !getenv("DISPLAY"));
}

int ad_linux_require_x11(const char *what, ad_error *err)
{
    if (!ad_linux_wayland_session())
        return 0;
    ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "%s needs X11; this is a Wayland session", what);
    ad_error_detail(err, "cause", json_string("wayland_session"));
    return -1;
}

static void step(ad_act_result *r, const char *label, const char *outcome)
{
    if (r->n_steps >= sizeof(r->steps) / sizeof(r->steps[0]))
        return;
    ad_act_step *s = &r->steps[r->n_steps++];
    snprintf(s->label, sizeof(s->label), "%s", label);
    s->mechanism = "physical_synthetic";
    s->outcome = outcome;
}

/* True for an open GNOME Shell surface (ad_window kind "shell": linux/shell_surfaces.h). It
 * has no X window: gnome-shell draws it above every client and grabs the pointer and the
 * keyboard while it is open, so it is never focused, and a point shows it when the point lies
 * inside the surface's bounds. */
static bool shell_surface(const ad_window *w)
{
    return w->kind && strcmp(w->kind, "shell") == 0;
}

static bool inside(const ad_window *w, int px, int py)
{
    return w->bounds_known && px >= w->bounds.x && px < w->bounds.x + w->bounds.width &&
           py >= w->bounds.y && py < w->bounds.y + w->bounds.height;
}

/* The X client window behind an AT-SPI window id, by the mapping the window commands use
 * (ad_linux_x_client_of: pid, title and bounds), so two same-titled windows of one process,
 * or a window whose title changed, are told apart by their place. The caller's window
 * (known, NULL: none) is used when it is that one; otherwise it is looked up on the bus.
 * A shell surface returns 1 with *ret 0 and its row in *ret_shell when ret_shell is
 * non-NULL (the caller's: ad_window_clear); without ret_shell it has no X window (-1). */
static int x_window_of(sd_bus *bus, const ad_window *known, const char *window_id,
                       int64_t deadline_us, uint32_t *ret, int *ret_pid, ad_window *ret_shell,
                       ad_error *err)
{
    ad_window w = {0};
    if (!(known && known->id && strcmp(known->id, window_id) == 0)) {
        if (ad_atspi_window_lookup(bus, NULL, window_id, deadline_us, &w, err) < 0)
            return -1;
        known = &w;
    }
    int rc = 0;
    if (ret_shell && shell_surface(known)) {
        *ret = 0;
        *ret_pid = known->pid;
        rc = known == &w ? (*ret_shell = w, memset(&w, 0, sizeof(w)), 1)
                         : (ad_window_copy(ret_shell, known) == 0 ? 1 : -1);
    } else {
        *ret = ad_linux_x_client_of(known, err);
        *ret_pid = known->pid;
        rc = *ret ? 0 : -1;
    }
    ad_window_clear(&w);
    return rc;
}

static int modifier_mask(const json_t *mods, unsigned *ret, ad_error *err)
{
    size_t i;
    json_t *v;
    *ret = 0;
    json_array_foreach(mods, i, v) {
        unsigned m = 0;
        if (ad_x11_modifier_mask(json_string_value(v), &m, err) < 0)
            return -1;
        *ret |= m;
    }
    return 0;
}

/* Does (px, py) show `want`, or, for a target inside a popup (popup_ok), a popup window of
 * the same process? Menus and combo lists of GTK3 and Qt are override-redirect windows of
 * their own while AT-SPI keeps their items under the window that opened them. */
static bool shows_target(uint32_t at, int at_pid, bool at_popup, uint32_t want, int want_pid,
                         bool popup_ok)
{
    return at == want || (popup_ok && at_popup && want_pid > 0 && at_pid == want_pid);
}

static int hit_test(ad_x11 *x, const ad_phys_req *req, uint32_t want, int want_pid,
                    ad_error *err)
{
    uint32_t at = 0;
    int pid = 0;
    bool popup = false;
    if (ad_x11_window_at(x, req->x, req->y, &at, &pid, &popup, err) < 0)
        return -1;
    if (!shows_target(at, pid, popup, want, want_pid, req->popup_ok)) {
        ad_error_set(err, AD_ACTION_FAILED, "The target point (%d,%d) shows another window",
                     req->x, req->y);
        ad_error_suggest(err, "Bring the window forward or close what covers it, then take a "
                              "fresh snapshot");
        ad_error_detail(err, "cause", json_string("point_not_in_window"));
        ad_error_detail(err, "occluder", json_pack("{s:i, s:I}", "pid", pid, "window",
                                                   (json_int_t)at));
        return -1;
    }
    return 0;
}

/* A headless scoped press goes only to a window that is already active: nothing is focused
 * and nothing is sent otherwise. */
static int require_active(sd_bus *bus, ad_x11 *x, const ad_phys_req *req, int64_t deadline_us,
                          ad_error *err)
{
    uint32_t want = 0, active = 0;
    int pid = 0, active_pid = 0;
    if (x_window_of(bus, req->window, req->require_active_window_id, deadline_us, &want, &pid,
                    NULL, err) < 0 ||
        ad_x11_active_window(x, &active, &active_pid, err) < 0)
        return -1;
    return active != want ? ad_linux_frame_not_active(err) : 0;
}

int ad_linux_frame_not_active(ad_error *err)
{
    ad_error_set(err, AD_ACTION_FAILED, "The target window is not active and focus changes "
                                        "are not allowed");
    ad_error_suggest(err, "Bring the window forward (a --headed ref action may focus it), "
                          "then act again");
    ad_error_detail(err, "cause", json_string("frame_not_active"));
    return -1;
}

int ad_linux_physical(sd_bus *bus, ad_x11 **held, const ad_phys_req *req,
                      int64_t deadline_us, ad_act_result *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (ad_linux_wayland_session())
        return ad_wayland_physical(bus, req, deadline_us, ret, err);
    ad_x11 *x = *held; /* a connection still holding remapped keys goes on with them */
    unsigned mods = 0;
    int rc = -1;
    ad_window shell = {0}; /* the target is a shell surface (shell_surface) */
    int is_shell = 0;
    *held = NULL;
    if ((!x && ad_x11_open(&x, err) < 0) || modifier_mask(req->modifiers, &mods, err) < 0)
        goto done;
    ad_x11_hold_spares(x, true);
    if (req->kind == AD_PHYS_KEYS) {
        uint32_t ks[AD_X11_COMBO_MAX];
        int n = 0;
        if (ad_x11_parse_combo(req->combo, ks, &n, err) < 0)
            goto done;
    }
    uint32_t win = 0;
    int pid = 0;
    if (req->require_active_window_id && require_active(bus, x, req, deadline_us, err) < 0)
        goto done;
    if (req->focus_window_id) {
        is_shell = x_window_of(bus, req->window, req->focus_window_id, deadline_us, &win, &pid,
                               &shell, err);
        if (is_shell < 0 || (!is_shell && ad_x11_focus_window(x, win, deadline_us, err) < 0))
            goto done;
        if (!is_shell)
            step(ret, "EWMH._NET_ACTIVE_WINDOW", "succeeded");
    }
    if (req->verify_window_id) {
        if (!win && !is_shell)
            is_shell = x_window_of(bus, req->window, req->verify_window_id, deadline_us, &win,
                                   &pid, &shell, err);
        if (is_shell < 0 || (!is_shell && hit_test(x, req, win, pid, err) < 0))
            goto done;
        if (is_shell && !inside(&shell, req->x, req->y)) {
            ad_error_set(err, AD_ACTION_FAILED, "The target point (%d,%d) is outside the open "
                                                "shell surface", req->x, req->y);
            ad_error_suggest(err, "Take a fresh snapshot of the surface and act again");
            ad_error_detail(err, "cause", json_string("point_not_in_window"));
            goto done;
        }
    }
    /* From here on events are sent. */
    int r = 0;
    const char *label = "XTEST.FakeInput";
    switch (req->kind) {
    case AD_PHYS_CLICK:
        label = "pointer_click";
        r = ad_x11_click_mods(x, req->x, req->y, req->button ? req->button : 1,
                              req->count ? req->count : 1, mods, err);
        break;
    case AD_PHYS_MOVE:
        label = "pointer_move";
        r = ad_x11_move(x, req->x, req->y, err);
        break;
    case AD_PHYS_WHEEL:
        label = "pointer_wheel";
        r = ad_x11_wheel_mods(x, req->x, req->y, req->dx, req->dy, mods, err);
        break;
    case AD_PHYS_DRAG:
        label = "pointer_drag";
        r = ad_x11_drag_hold(x, req->x, req->y, req->x2, req->y2, req->duration_ms,
                             req->hold_ms, err);
        break;
    case AD_PHYS_KEYS:
        label = "XTEST.press_key";
        r = ad_x11_key_combo(x, req->combo, err);
        break;
    case AD_PHYS_TEXT:
        label = "XTEST.type_text";
        r = ad_x11_type_text(x, req->text, err);
        break;
    case AD_PHYS_FOCUS:
        break;
    }
    if (r < 0)
        goto done; /* the input module says how far delivery got */
    if (req->kind != AD_PHYS_FOCUS)
        step(ret, label, "succeeded");
    if (req->kind == AD_PHYS_CLICK || req->kind == AD_PHYS_MOVE || req->kind == AD_PHYS_WHEEL ||
        req->kind == AD_PHYS_DRAG) {
        ret->has_point = true;
        ret->x = req->x;
        ret->y = req->y;
    }
    /* Press and release per click plus the motion; one motion for a move. */
    ret->events = req->kind == AD_PHYS_CLICK ? 1 + 2 * (req->count ? req->count : 1)
                : req->kind == AD_PHYS_MOVE  ? 1
                : req->kind == AD_PHYS_WHEEL ? 1 + 2 * (abs(req->dx) + abs(req->dy))
                                             : 0;
    ret->delivery = AD_DELIVERED_UNVERIFIED;
    rc = 0;
done:
    ad_window_clear(&shell);
    if (rc == 0 && ad_x11_spares_held(x))
        *held = x; /* put back by ad_linux_physical_settle once the text was read */
    else
        ad_x11_close(x);
    return rc;
}

void ad_linux_physical_settle(ad_x11 **held, bool seen)
{
    ad_x11_release_spares(*held, seen);
    ad_x11_close(*held);
    *held = NULL;
}

int ad_linux_hit_test(sd_bus *bus, const char *window_id, int px, int py, bool popup_ok,
                      json_t **ret_occluder, ad_error *err)
{
    ad_x11 *x = NULL;
    uint32_t want = 0, at = 0;
    int pid = 0, at_pid = 0, rc = -1;
    bool at_popup = false;
    ad_window shell = {0};
    int is_shell = x_window_of(bus, NULL, window_id, ad_now_us_local() + 2000000, &want, &pid,
                               &shell, err);
    if (is_shell < 0)
        goto done;
    if (is_shell) {
        rc = inside(&shell, px, py);
        ad_window_clear(&shell);
        goto done;
    }
    if (ad_x11_open(&x, err) < 0 || ad_x11_window_at(x, px, py, &at, &at_pid, &at_popup, err) < 0)
        goto done;
    rc = shows_target(at, at_pid, at_popup, want, pid, popup_ok);
    if (!rc && ret_occluder)
        *ret_occluder = json_pack("{s:i, s:I, s:b}", "pid", at_pid, "window", (json_int_t)at,
                                  "popup", at_popup);
done:
    ad_x11_close(x);
    return rc;
}

int ad_linux_active_window(int *ret_pid, char **ret_title, ad_error *err)
{
    /* The X server knows the active window's pid; its title is not needed by any caller. */
    ad_x11 *x = NULL;
    uint32_t win = 0;
    *ret_pid = 0;
    *ret_title = NULL;
    if (ad_x11_open(&x, err) < 0)
        return -1;
    int rc = ad_x11_active_window(x, &win, ret_pid, err);
    ad_x11_close(x);
    return rc;
}
