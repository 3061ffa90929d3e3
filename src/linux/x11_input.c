/* x11_input.c: XTEST pointer and key events, EWMH window lookup and activation, and key
 * names without Xlib (a built-in table plus the server's core keyboard mapping).
 *
 * Requests are sent unchecked; sync() makes one GetInputFocus round trip and then drains the
 * event queue, where the errors of unchecked requests arrive, so a refused request turns into
 * ACTION_FAILED before the call returns. */
#include "linux/x11_input.h"

#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <xcb/xcb.h>
#include <xcb/xcb_ewmh.h>
#include <xcb/xtest.h>

#define MAX_WINDOWS 4096   /* bound on _NET_CLIENT_LIST and on the root's children */
#define MAX_DEPTH 32       /* bound on a parent walk */
#define FRAME_SEARCH 64    /* windows searched inside a frame for its client */
#define CLICK_GAP_MS 30
#define DRAG_STEP_MS 16
#define FOCUS_RECHECK_MS 20
#define REMAP_SETTLE_MS 100
#define MAX_SPARES 32
#define SYNC_EVERY 64      /* keystrokes between round trips while typing */

enum {
    KS_SHIFT_L = 0xffe1, KS_SHIFT_R, KS_CONTROL_L, KS_CONTROL_R, KS_CAPS, KS_SHIFT_LOCK,
    KS_META_L, KS_META_R, KS_ALT_L, KS_ALT_R, KS_SUPER_L, KS_SUPER_R,
    KS_RETURN = 0xff0d, KS_TAB = 0xff09, KS_F1 = 0xffbe, KS_KP_0 = 0xffb0,
};

struct ad_x11 {
    xcb_connection_t *c;
    xcb_ewmh_connection_t ewmh;
    int screen_no;
    xcb_window_t root;
    int width, height;
    bool root_events;
    unsigned sent;                  /* input events sent by the current call */
    xcb_keycode_t min_kc, max_kc;
    xcb_keysym_t *keysyms;          /* core mapping, kpk columns per keycode */
    int kpk, n_kc;
    xcb_keycode_t spare[MAX_SPARES]; /* empty keycodes found before any remap */
    int n_spare, n_used;            /* spare[0..n_used) hold a keysym of ours */
    int n_touched;                  /* spare[0..n_touched) to put back */
    bool dirty;                     /* some spare is mapped and not put back */
};

/* ---- time and errors --------------------------------------------------------------------- */

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Gesture pacing (click gaps, drag steps, the remap settle): time is the point here. */
static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
}

static int fail_x(ad_x11 *x, ad_error *err, const char *what, unsigned code)
{
    ad_error_set(err, AD_ACTION_FAILED, "The X server refused %s (X error %u)", what, code);
    if (x->sent > 0)
        err->delivery = AD_DELIVERY_UNCERTAIN;
    return -1;
}

static int bad_arg(ad_error *err, const char *msg)
{
    return ad_error_set(err, AD_INVALID_ARGS, "%s", msg);
}

/* One round trip, then the errors of every request sent before it. */
static int sync_x(ad_x11 *x, ad_error *err)
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
        return bad_arg(err, "ad_x11_open needs somewhere to put the handle");
    const char *display = getenv("DISPLAY");
    if (!display || !*display)
        return no_platform(err, "Physical input needs an X11 display", "DISPLAY is not set");
    ad_x11 *x = calloc(1, sizeof(*x));
    if (!x)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    x->c = xcb_connect(NULL, &x->screen_no);
    int ce = xcb_connection_has_error(x->c);
    const xcb_query_extension_reply_t *ext =
        ce ? NULL : xcb_get_extension_data(x->c, &xcb_test_id);
    if (ce || !ext || !ext->present) {
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

static void restore_spares(ad_x11 *x);

void ad_x11_close(ad_x11 *x)
{
    if (!x)
        return;
    restore_spares(x);
    xcb_ewmh_connection_wipe(&x->ewmh);
    xcb_disconnect(x->c);
    free(x->keysyms);
    free(x);
}

/* ---- windows ----------------------------------------------------------------------------- */

static int wm_pid(ad_x11 *x, xcb_window_t w)
{
    uint32_t pid = 0;
    if (!xcb_ewmh_get_wm_pid_reply(&x->ewmh, xcb_ewmh_get_wm_pid(&x->ewmh, w), &pid, NULL))
        return 0;
    return (int)pid;
}

/* _NET_CLIENT_LIST, at most MAX_WINDOWS (caller frees). -1 when the WM publishes none. */
static int client_list(ad_x11 *x, xcb_window_t **ret, int *ret_n, ad_error *err)
{
    xcb_ewmh_get_windows_reply_t list;
    if (!xcb_ewmh_get_client_list_reply(&x->ewmh, xcb_ewmh_get_client_list(&x->ewmh,
                                        x->screen_no), &list, NULL))
        return no_platform(err, "No window manager publishes _NET_CLIENT_LIST",
                           "Run a window manager (EWMH) on the display");
    int n = list.windows_len < MAX_WINDOWS ? (int)list.windows_len : MAX_WINDOWS;
    *ret = malloc(sizeof(xcb_window_t) * (size_t)(n ? n : 1));
    if (*ret)
        memcpy(*ret, list.windows, sizeof(xcb_window_t) * (size_t)n);
    xcb_ewmh_get_windows_reply_wipe(&list);
    if (!*ret)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    *ret_n = n;
    return 0;
}

static bool in_list(xcb_window_t w, const xcb_window_t *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] == w)
            return true;
    return false;
}

static bool title_is(ad_x11 *x, xcb_window_t w, const char *title)
{
    xcb_ewmh_get_utf8_strings_reply_t name;
    if (!xcb_ewmh_get_wm_name_reply(&x->ewmh, xcb_ewmh_get_wm_name(&x->ewmh, w), &name, NULL))
        return false;
    bool match = strlen(title) == name.strings_len &&
                 memcmp(name.strings, title, name.strings_len) == 0;
    xcb_ewmh_get_utf8_strings_reply_wipe(&name);
    return match;
}

int ad_x11_find_window(ad_x11 *x, int pid, const char *title, uint32_t *ret_window,
                       ad_error *err)
{
    if (!x || !ret_window || pid <= 0)
        return bad_arg(err, "ad_x11_find_window needs a connection and a pid > 0");
    xcb_window_t *list, found = XCB_WINDOW_NONE;
    int n, matches = 0;
    if (client_list(x, &list, &n, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (wm_pid(x, list[i]) != pid || (title && !title_is(x, list[i], title)))
            continue;
        found = list[i];
        matches++;
    }
    free(list);
    if (matches == 0) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "No top-level window of pid %d%s%s%s", pid,
                     title ? " titled '" : "", title ? title : "", title ? "'" : "");
        return -1;
    }
    if (matches > 1) {
        ad_error_set(err, AD_AMBIGUOUS_TARGET, "%d top-level windows of pid %d match",
                     matches, pid);
        ad_error_detail(err, "count", json_integer(matches));
        return -1;
    }
    *ret_window = found;
    return 0;
}

static xcb_window_t active(ad_x11 *x)
{
    xcb_window_t w = XCB_WINDOW_NONE;
    if (!xcb_ewmh_get_active_window_reply(&x->ewmh, xcb_ewmh_get_active_window(&x->ewmh,
                                          x->screen_no), &w, NULL))
        return XCB_WINDOW_NONE;
    return w;
}

int ad_x11_active_window(ad_x11 *x, uint32_t *ret_window, int *ret_pid, ad_error *err)
{
    if (!x || !ret_window || !ret_pid)
        return bad_arg(err, "ad_x11_active_window needs a connection and outputs");
    xcb_window_t w = active(x);
    int pid = w ? wm_pid(x, w) : 0;
    if (xcb_connection_has_error(x->c))
        return sync_x(x, err);
    *ret_window = w;
    *ret_pid = pid;
    return 0;
}

static xcb_window_t parent_of(ad_x11 *x, xcb_window_t w)
{
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(x->c, xcb_query_tree(x->c, w), NULL);
    xcb_window_t p = t ? t->parent : XCB_WINDOW_NONE;
    free(t);
    return p;
}

/* Is the input focus on `window` or one of its descendants? */
static bool focus_inside(ad_x11 *x, xcb_window_t window)
{
    xcb_get_input_focus_reply_t *f =
        xcb_get_input_focus_reply(x->c, xcb_get_input_focus(x->c), NULL);
    xcb_window_t w = f ? f->focus : XCB_WINDOW_NONE;
    free(f);
    for (int d = 0; d < MAX_DEPTH && w != XCB_WINDOW_NONE && w != x->root && w > 1; d++) {
        if (w == window)
            return true;
        w = parent_of(x, w);
    }
    return false;
}

static bool size_of(ad_x11 *x, xcb_window_t w, int *width, int *height)
{
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(x->c, xcb_get_geometry(x->c, w), NULL);
    if (g) {
        *width = g->width;
        *height = g->height;
    }
    free(g);
    return g != NULL;
}

/* Has the frame around `window` its final size (client size plus _NET_FRAME_EXTENTS)?
 * Openbox animates a restore from iconic for about 200 ms, during which the frame is a
 * title-bar-high strip that pointer input would miss. True without extents or a frame. */
static bool frame_settled(ad_x11 *x, xcb_window_t window)
{
    xcb_ewmh_get_extents_reply_t ext;
    if (!xcb_ewmh_get_frame_extents_reply(&x->ewmh, xcb_ewmh_get_frame_extents(&x->ewmh,
                                          window), &ext, NULL))
        return true;
    xcb_window_t frame = window, up;
    for (int d = 0; d < MAX_DEPTH && (up = parent_of(x, frame)) != x->root; d++) {
        if (up == XCB_WINDOW_NONE)
            return false;
        frame = up;
    }
    int fw, fh, cw, ch;
    if (frame == window)
        return true;
    return size_of(x, frame, &fw, &fh) && size_of(x, window, &cw, &ch) &&
           fw == cw + (int)(ext.left + ext.right) && fh == ch + (int)(ext.top + ext.bottom);
}

/* Waits until an event arrives (PropertyNotify on the root), FOCUS_RECHECK_MS pass, or the
 * deadline; the caller re-reads the state either way. False once the deadline has passed. */
static bool wait_root_event(ad_x11 *x, int64_t deadline_us)
{
    bool got = false;
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(x->c))) {
        free(ev);
        got = true;
    }
    int64_t left = deadline_us - now_us();
    if (left <= 0)
        return false;
    if (got)
        return true;
    int ms = left / 1000 + 1 < FOCUS_RECHECK_MS ? (int)(left / 1000 + 1) : FOCUS_RECHECK_MS;
    struct pollfd p = {.fd = xcb_get_file_descriptor(x->c), .events = POLLIN};
    poll(&p, 1, ms);
    return true;
}

int ad_x11_focus_window(ad_x11 *x, uint32_t window, int64_t deadline_us, ad_error *err)
{
    if (!x || window == XCB_WINDOW_NONE)
        return bad_arg(err, "ad_x11_focus_window needs a connection and a window");
    xcb_window_t *list;
    int n;
    if (client_list(x, &list, &n, err) < 0)
        return -1;
    bool known = in_list(window, list, n);
    free(list);
    if (!known)
        return ad_error_set(err, AD_WINDOW_NOT_FOUND,
                            "Window 0x%x is not a managed top-level window", window);
    if (!x->root_events) {
        uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_change_window_attributes(x->c, x->root, XCB_CW_EVENT_MASK, &mask);
        x->root_events = true;
    }
    xcb_ewmh_request_change_active_window(&x->ewmh, x->screen_no, window,
                                          XCB_EWMH_CLIENT_SOURCE_TYPE_OTHER, XCB_CURRENT_TIME,
                                          active(x));
    if (sync_x(x, err) < 0)
        return -1;
    xcb_window_t now;
    do {
        now = active(x);
        if (now == window && focus_inside(x, window) && frame_settled(x, window))
            return 0;
    } while (wait_root_event(x, deadline_us));
    ad_error_set(err, AD_TIMEOUT, "Window 0x%x did not become the active window in time",
                 window);
    ad_error_suggest(err, "Check for a modal dialog or a window that holds the focus, "
                          "then retry with a longer timeout");
    ad_error_detail(err, "kind", json_string("focus_verification"));
    ad_error_detail(err, "window", json_integer(window));
    ad_error_detail(err, "active_window", json_integer(now));
    return -1;
}

/* The client window inside frame `w` (w itself when it is a client), else XCB_WINDOW_NONE:
 * a breadth-first search over at most FRAME_SEARCH windows. */
static xcb_window_t client_in(ad_x11 *x, xcb_window_t w, const xcb_window_t *list, int n)
{
    xcb_window_t queue[FRAME_SEARCH];
    int head = 0, tail = 0;
    queue[tail++] = w;
    while (head < tail) {
        xcb_window_t cur = queue[head++];
        if (in_list(cur, list, n))
            return cur;
        xcb_query_tree_reply_t *t = xcb_query_tree_reply(x->c, xcb_query_tree(x->c, cur), NULL);
        if (!t)
            continue;
        xcb_window_t *kids = xcb_query_tree_children(t);
        for (int i = 0; i < xcb_query_tree_children_length(t) && tail < FRAME_SEARCH; i++)
            queue[tail++] = kids[i];
        free(t);
    }
    return XCB_WINDOW_NONE;
}

static int check_point(ad_x11 *x, int px, int py, ad_error *err)
{
    if (px >= 0 && py >= 0 && px < x->width && py < x->height)
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "Point %d,%d is outside the %dx%d screen", px, py,
                 x->width, x->height);
    return -1;
}

/* The topmost viewable child of the root containing the point, or XCB_WINDOW_NONE. */
static xcb_window_t top_child_at(ad_x11 *x, int px, int py)
{
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(x->c, xcb_query_tree(x->c, x->root), NULL);
    if (!t)
        return XCB_WINDOW_NONE;
    xcb_window_t *kids = xcb_query_tree_children(t), hit = XCB_WINDOW_NONE;
    int n = xcb_query_tree_children_length(t), first = n > MAX_WINDOWS ? n - MAX_WINDOWS : 0;
    xcb_get_window_attributes_cookie_t *ac = malloc(sizeof(*ac) * (size_t)(n - first + 1));
    xcb_get_geometry_cookie_t *gc = malloc(sizeof(*gc) * (size_t)(n - first + 1));
    for (int i = first; ac && gc && i < n; i++) {
        ac[i - first] = xcb_get_window_attributes(x->c, kids[i]);
        gc[i - first] = xcb_get_geometry(x->c, kids[i]);
    }
    for (int i = n - 1; ac && gc && i >= first; i--) { /* topmost first */
        xcb_get_window_attributes_reply_t *a =
            xcb_get_window_attributes_reply(x->c, ac[i - first], NULL);
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(x->c, gc[i - first], NULL);
        int bw = g ? 2 * g->border_width : 0;
        if (!hit && a && g && a->map_state == XCB_MAP_STATE_VIEWABLE && px >= g->x &&
            py >= g->y && px < g->x + g->width + bw && py < g->y + g->height + bw)
            hit = kids[i];
        free(a);
        free(g);
    }
    free(ac);
    free(gc);
    free(t);
    return hit;
}

int ad_x11_window_at(ad_x11 *x, int px, int py, uint32_t *ret_window, int *ret_pid,
                     ad_error *err)
{
    if (!x || !ret_window || !ret_pid)
        return bad_arg(err, "ad_x11_window_at needs a connection and outputs");
    if (check_point(x, px, py, err) < 0)
        return -1;
    xcb_window_t *list;
    int n;
    if (client_list(x, &list, &n, err) < 0)
        return -1;
    xcb_window_t hit = top_child_at(x, px, py);
    xcb_window_t client = hit ? client_in(x, hit, list, n) : XCB_WINDOW_NONE;
    free(list);
    if (client)
        hit = client;
    int pid = hit ? wm_pid(x, hit) : 0;
    if (xcb_connection_has_error(x->c))
        return sync_x(x, err);
    *ret_window = hit;
    *ret_pid = pid;
    return 0;
}

/* ---- pointer ----------------------------------------------------------------------------- */

static void fake(ad_x11 *x, uint8_t type, uint8_t detail, int px, int py)
{
    bool motion = type == XCB_MOTION_NOTIFY;
    xcb_test_fake_input(x->c, type, detail, XCB_CURRENT_TIME, motion ? x->root : XCB_NONE,
                        (int16_t)(motion ? px : 0), (int16_t)(motion ? py : 0), 0);
    x->sent++;
}

static int start(ad_x11 *x, ad_error *err, const char *who)
{
    if (!x)
        return ad_error_set(err, AD_INVALID_ARGS, "%s needs a connection", who);
    x->sent = 0;
    return 0;
}

int ad_x11_move(ad_x11 *x, int px, int py, ad_error *err)
{
    if (start(x, err, "ad_x11_move") < 0 || check_point(x, px, py, err) < 0)
        return -1;
    fake(x, XCB_MOTION_NOTIFY, 0, px, py);
    return sync_x(x, err);
}

static int mod_keycodes(ad_x11 *x, unsigned mods, xcb_keycode_t *kcs, int *n, ad_error *err);

static void keys(ad_x11 *x, const xcb_keycode_t *kcs, int n, bool press)
{
    for (int i = 0; i < n; i++) {
        int k = press ? i : n - 1 - i;
        fake(x, press ? XCB_KEY_PRESS : XCB_KEY_RELEASE, kcs[k], 0, 0);
    }
}

int ad_x11_click_mods(ad_x11 *x, int px, int py, int button, int count, unsigned mods,
                      ad_error *err)
{
    if (start(x, err, "ad_x11_click") < 0 || check_point(x, px, py, err) < 0)
        return -1;
    if (button < 1 || button > 3 || count < 1 || count > 100)
        return bad_arg(err, "A click needs button 1 (left), 2 (middle) or 3 (right) and a "
                            "count from 1 to 100");
    xcb_keycode_t kcs[4];
    int nk = 0;
    if (mod_keycodes(x, mods, kcs, &nk, err) < 0)
        return -1;
    fake(x, XCB_MOTION_NOTIFY, 0, px, py);
    keys(x, kcs, nk, true);
    for (int i = 0; i < count; i++) {
        if (i > 0) {
            xcb_flush(x->c);
            pause_ms(CLICK_GAP_MS);
        }
        fake(x, XCB_BUTTON_PRESS, (uint8_t)button, 0, 0);
        fake(x, XCB_BUTTON_RELEASE, (uint8_t)button, 0, 0);
    }
    keys(x, kcs, nk, false);
    return sync_x(x, err);
}

int ad_x11_click(ad_x11 *x, int px, int py, int button, int count, ad_error *err)
{
    return ad_x11_click_mods(x, px, py, button, count, 0, err);
}

int ad_x11_wheel_mods(ad_x11 *x, int px, int py, int dx, int dy, unsigned mods,
                      ad_error *err)
{
    if (start(x, err, "ad_x11_wheel") < 0 || check_point(x, px, py, err) < 0)
        return -1;
    if ((dx == 0 && dy == 0) || abs(dx) > 1000 || abs(dy) > 1000)
        return bad_arg(err, "A wheel scroll needs dx or dy, each from -1000 to 1000 clicks");
    xcb_keycode_t kcs[4];
    int nk = 0;
    if (mod_keycodes(x, mods, kcs, &nk, err) < 0)
        return -1;
    fake(x, XCB_MOTION_NOTIFY, 0, px, py);
    keys(x, kcs, nk, true);
    for (int i = 0; i < abs(dy) + abs(dx); i++) {
        uint8_t b = i < abs(dy) ? (dy > 0 ? 4 : 5) : (dx > 0 ? 7 : 6);
        fake(x, XCB_BUTTON_PRESS, b, 0, 0);
        fake(x, XCB_BUTTON_RELEASE, b, 0, 0);
    }
    keys(x, kcs, nk, false);
    return sync_x(x, err);
}

int ad_x11_wheel(ad_x11 *x, int px, int py, int dx, int dy, ad_error *err)
{
    return ad_x11_wheel_mods(x, px, py, dx, dy, 0, err);
}

int ad_x11_drag_hold(ad_x11 *x, int fx, int fy, int tx, int ty, int duration_ms, int hold_ms,
                     ad_error *err)
{
    if (start(x, err, "ad_x11_drag") < 0 || check_point(x, fx, fy, err) < 0 ||
        check_point(x, tx, ty, err) < 0)
        return -1;
    if (duration_ms < 0 || duration_ms > 60000 || hold_ms < 0 || hold_ms > 10000)
        return bad_arg(err, "A drag needs a duration of 0 to 60000 ms and a hold of 0 to "
                            "10000 ms");
    /* At least 8 motions, so a toolkit sees the pointer pass its drag threshold. */
    int steps = duration_ms / DRAG_STEP_MS < 8 ? 8 : duration_ms / DRAG_STEP_MS;
    int64_t t0 = now_us();
    fake(x, XCB_MOTION_NOTIFY, 0, fx, fy);
    fake(x, XCB_BUTTON_PRESS, 1, 0, 0);
    for (int i = 1; i <= steps; i++) {
        xcb_flush(x->c);
        int64_t due = t0 + (int64_t)duration_ms * 1000 * i / steps - now_us();
        if (due > 0)
            pause_ms((int)(due / 1000));
        fake(x, XCB_MOTION_NOTIFY, 0, fx + (tx - fx) * i / steps, fy + (ty - fy) * i / steps);
    }
    xcb_flush(x->c);
    if (hold_ms > 0)
        pause_ms(hold_ms);
    fake(x, XCB_BUTTON_RELEASE, 1, 0, 0);
    return sync_x(x, err);
}

int ad_x11_drag(ad_x11 *x, int fx, int fy, int tx, int ty, int duration_ms, ad_error *err)
{
    return ad_x11_drag_hold(x, fx, fy, tx, ty, duration_ms, AD_X11_DRAG_HOLD_MS, err);
}

/* ---- key names --------------------------------------------------------------------------- */

static const struct { const char *name; uint32_t keysym; } key_names[] = {
    {"return", KS_RETURN}, {"enter", KS_RETURN}, {"escape", 0xff1b}, {"esc", 0xff1b},
    {"tab", KS_TAB}, {"space", ' '}, {"backspace", 0xff08}, {"delete", 0xffff},
    {"del", 0xffff}, {"insert", 0xff63}, {"home", 0xff50}, {"end", 0xff57},
    {"page_up", 0xff55}, {"pageup", 0xff55}, {"prior", 0xff55}, {"page_down", 0xff56},
    {"pagedown", 0xff56}, {"next", 0xff56}, {"up", 0xff52}, {"down", 0xff54},
    {"left", 0xff51}, {"right", 0xff53}, {"menu", 0xff67}, {"print", 0xff61},
    {"pause", 0xff13}, {"scroll_lock", 0xff14}, {"num_lock", 0xff7f}, {"caps_lock", KS_CAPS},
    {"iso_left_tab", 0xfe20}, {"kp_enter", 0xff8d}, {"kp_add", 0xffab},
    {"kp_subtract", 0xffad}, {"kp_multiply", 0xffaa}, {"kp_divide", 0xffaf},
    {"kp_decimal", 0xffae}, {"shift_l", KS_SHIFT_L}, {"shift_r", KS_SHIFT_R},
    {"control_l", KS_CONTROL_L}, {"control_r", KS_CONTROL_R}, {"alt_l", KS_ALT_L},
    {"alt_r", KS_ALT_R}, {"meta_l", KS_META_L}, {"meta_r", KS_META_R},
    {"super_l", KS_SUPER_L}, {"super_r", KS_SUPER_R}, {"exclam", '!'}, {"quotedbl", '"'},
    {"numbersign", '#'}, {"dollar", '$'}, {"percent", '%'}, {"ampersand", '&'},
    {"apostrophe", '\''}, {"parenleft", '('}, {"parenright", ')'}, {"asterisk", '*'},
    {"plus", '+'}, {"comma", ','}, {"minus", '-'}, {"period", '.'}, {"slash", '/'},
    {"colon", ':'}, {"semicolon", ';'}, {"less", '<'}, {"equal", '='}, {"greater", '>'},
    {"question", '?'}, {"at", '@'}, {"bracketleft", '['}, {"backslash", '\\'},
    {"bracketright", ']'}, {"asciicircum", '^'}, {"underscore", '_'}, {"grave", '`'},
    {"braceleft", '{'}, {"bar", '|'}, {"braceright", '}'}, {"asciitilde", '~'},
    {"xf86audiomute", 0x1008ff12}, {"xf86audiolowervolume", 0x1008ff11},
    {"xf86audioraisevolume", 0x1008ff13}, {"xf86audioplay", 0x1008ff14},
    {"xf86audiostop", 0x1008ff15}, {"xf86audioprev", 0x1008ff16},
    {"xf86audionext", 0x1008ff17},
};
#define N_KEY_NAMES (sizeof(key_names) / sizeof(key_names[0]))

/* Modifier names; the keysym pressed for each mask bit is the first alternative below. */
static const struct { const char *name; unsigned mask; } mod_names[] = {
    {"ctrl", AD_X11_MOD_CTRL}, {"control", AD_X11_MOD_CTRL}, {"shift", AD_X11_MOD_SHIFT},
    {"alt", AD_X11_MOD_ALT}, {"option", AD_X11_MOD_ALT}, {"super", AD_X11_MOD_SUPER},
    {"meta", AD_X11_MOD_SUPER}, {"cmd", AD_X11_MOD_SUPER}, {"command", AD_X11_MOD_SUPER},
    {"win", AD_X11_MOD_SUPER},
};
#define N_MOD_NAMES (sizeof(mod_names) / sizeof(mod_names[0]))

static const struct { unsigned mask; uint32_t alt[3]; } mod_keys[] = {
    {AD_X11_MOD_CTRL, {KS_CONTROL_L, KS_CONTROL_R, 0}},
    {AD_X11_MOD_SHIFT, {KS_SHIFT_L, KS_SHIFT_R, 0}},
    {AD_X11_MOD_ALT, {KS_ALT_L, KS_ALT_R, KS_META_L}},
    {AD_X11_MOD_SUPER, {KS_SUPER_L, KS_SUPER_R, 0}},
};

static uint32_t mod_keysym(unsigned mask)
{
    for (size_t i = 0; i < 4; i++)
        if (mod_keys[i].mask == mask)
            return mod_keys[i].alt[0];
    return 0;
}

/* The modifier bit a keysym stands for, 0 when it is not a modifier. */
static unsigned keysym_mod(uint32_t ks)
{
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 3 && mod_keys[i].alt[j]; j++)
            if (mod_keys[i].alt[j] == ks)
                return mod_keys[i].mask;
    return 0;
}

static unsigned mod_lookup(const char *name)
{
    for (size_t i = 0; name && i < N_MOD_NAMES; i++)
        if (strcasecmp(name, mod_names[i].name) == 0)
            return mod_names[i].mask;
    return 0;
}

int ad_x11_modifier_mask(const char *name, unsigned *ret_mask, ad_error *err)
{
    unsigned m = mod_lookup(name);
    if (m && ret_mask) {
        *ret_mask = m;
        return 0;
    }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown modifier '%s'", name ? name : "");
    ad_error_suggest(err, "Modifiers are ctrl, shift, alt and super (also meta or cmd)");
    return -1;
}

uint32_t ad_x11_codepoint_keysym(uint32_t cp)
{
    if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff))
        return cp;
    return 0x1000000u + cp;
}

/* Decodes one UTF-8 code point at s; returns its length, 0 when invalid. */
static int utf8_decode(const unsigned char *s, uint32_t *cp)
{
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    int len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
            : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (len == 0)
        return 0;
    uint32_t v = len == 1 ? s[0] : s[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

/* Parses "0x<hex>" or "u<hex>" (the keysym or code point written out), 0 otherwise. */
static uint32_t hex_keysym(const char *s)
{
    bool unicode = (s[0] == 'u' || s[0] == 'U') && s[1];
    const char *h = unicode ? s + 1 : (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? s + 2 : 0;
    if (!h || !*h || strlen(h) > 8 || h[strspn(h, "0123456789abcdefABCDEF")])
        return 0;
    uint32_t v = (uint32_t)strtoul(h, NULL, 16);
    if (unicode)
        return v >= 0x20 && v <= 0x10ffff ? ad_x11_codepoint_keysym(v) : 0;
    return v;
}

/* The keysym of one key part (already known not to be empty), or 0. */
static uint32_t key_keysym(const char *k)
{
    uint32_t cp;
    int len = utf8_decode((const unsigned char *)k, &cp);
    if (len > 0 && k[len] == '\0')
        return cp >= 0x20 && cp != 0x7f && (cp < 0x80 || cp >= 0xa0)
                   ? ad_x11_codepoint_keysym(cp) : 0;
    for (size_t i = 0; i < N_KEY_NAMES; i++)
        if (strcasecmp(k, key_names[i].name) == 0)
            return key_names[i].keysym;
    if (mod_lookup(k))
        return mod_keysym(mod_lookup(k));
    char *end;
    if ((k[0] == 'f' || k[0] == 'F') && k[1] >= '1' && k[1] <= '9') {
        long n = strtol(k + 1, &end, 10);
        return *end == '\0' && n >= 1 && n <= 24 ? KS_F1 + (uint32_t)n - 1 : 0;
    }
    if (strncasecmp(k, "kp_", 3) == 0 && k[3] >= '0' && k[3] <= '9' && k[4] == '\0')
        return KS_KP_0 + (uint32_t)(k[3] - '0');
    return hex_keysym(k);
}

static int edit_distance(const char *a, const char *b)
{
    int prev[24], cur[24], lb = (int)strlen(b), la = (int)strlen(a);
    if (la > 22 || lb > 22)
        return 99;
    for (int j = 0; j <= lb; j++)
        prev[j] = j;
    for (int i = 1; i <= la; i++) {
        cur[0] = i;
        for (int j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + ((a[i - 1] | 32) != (b[j - 1] | 32));
            int del = prev[j] + 1 < cur[j - 1] + 1 ? prev[j] + 1 : cur[j - 1] + 1;
            cur[j] = sub < del ? sub : del;
        }
        memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
    }
    return prev[lb];
}

static int unknown_key(ad_error *err, const char *k)
{
    const char *best = NULL;
    int best_d = 3;
    for (size_t i = 0; i < N_KEY_NAMES; i++) {
        int d = edit_distance(k, key_names[i].name);
        if (d < best_d) {
            best_d = d;
            best = key_names[i].name;
        }
    }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown key name '%s'", k);
    if (best)
        ad_error_suggest(err, "Did you mean '%s'? Keys are names such as return, escape, tab, "
                              "space, up or f5, or a single character", best);
    else
        ad_error_suggest(err, "Use a key name such as return, escape, tab, space, backspace, "
                              "delete, up, down, left, right, home, end, page_up, page_down "
                              "or f1 to f24, or a single character");
    ad_error_detail(err, "key", json_string(k));
    return -1;
}

static int combo_error(ad_error *err, const char *combo, const char *msg, const char *hint)
{
    ad_error_set(err, AD_INVALID_ARGS, "%s in key combo '%s'", msg, combo);
    ad_error_suggest(err, "%s", hint);
    return -1;
}

#define TOO_MANY "A combo is at most 8 keys: each modifier once, then the key"

int ad_x11_parse_combo(const char *combo, uint32_t *ret_keysyms, int *ret_n, ad_error *err)
{
    if (!combo || !ret_keysyms || !ret_n)
        return bad_arg(err, "ad_x11_parse_combo needs a combo and outputs");
    char buf[257];
    size_t len = 0;
    for (const char *p = combo; *p; p++) {
        if (*p == ' ' || *p == '\t')
            continue;
        if (len == sizeof(buf) - 1)
            return combo_error(err, combo, "Too long", "A combo is at most 256 bytes");
        buf[len++] = *p;
    }
    buf[len] = '\0';
    if (len == 0)
        return combo_error(err, combo, "No key", "Name a key, for example return or ctrl+s");
    char *parts[AD_X11_COMBO_MAX + 2];
    int np = 0;
    for (char *s = buf, *plus; s; s = plus ? plus + 1 : NULL) {
        if (np == AD_X11_COMBO_MAX + 2)
            return combo_error(err, combo, "Too many parts", TOO_MANY);
        plus = strchr(s, '+');
        if (plus)
            *plus = '\0';
        parts[np++] = s;
    }
    const char *key = parts[np - 1];
    int nmods = np - 1;
    if (np >= 2 && !*parts[np - 1] && !*parts[np - 2]) { /* "ctrl++" or "+": the plus key */
        key = "+";
        nmods = np - 2;
    }
    if (nmods + 1 > AD_X11_COMBO_MAX)
        return combo_error(err, combo, "Too many parts", TOO_MANY);
    uint32_t out[AD_X11_COMBO_MAX];
    unsigned seen = 0;
    int n = 0;
    for (int i = 0; i < nmods; i++) {
        unsigned m;
        if (!*parts[i])
            return combo_error(err, combo, "An empty part",
                               "Join keys with a single '+', as in ctrl+s");
        if (ad_x11_modifier_mask(parts[i], &m, err) < 0)
            return -1;
        if (seen & m)
            return combo_error(err, combo, "A modifier given twice", "Name each modifier once");
        seen |= m;
        out[n++] = mod_keysym(m);
    }
    if (!*key)
        return combo_error(err, combo, "No key after the last '+'",
                           "Name the key after the last '+', as in ctrl+s; the plus key is "
                           "'plus'");
    char lower[2] = {key[0], '\0'};
    if (key[0] >= 'A' && key[0] <= 'Z' && key[1] == '\0') {
        lower[0] = (char)(key[0] + 32);
        if (nmods == 0)
            out[n++] = KS_SHIFT_L, seen |= AD_X11_MOD_SHIFT;
        key = lower;
    }
    uint32_t ks = key_keysym(key);
    if (ks == 0)
        return unknown_key(err, key);
    if (seen & keysym_mod(ks))
        return combo_error(err, combo, "A modifier given twice", "Name each modifier once");
    out[n++] = ks;
    memcpy(ret_keysyms, out, sizeof(uint32_t) * (size_t)n);
    *ret_n = n;
    return 0;
}

/* ---- keymap ------------------------------------------------------------------------------ */

static int keymap_load(ad_x11 *x, ad_error *err)
{
    int count = x->max_kc - x->min_kc + 1;
    xcb_get_keyboard_mapping_reply_t *r = xcb_get_keyboard_mapping_reply(
        x->c, xcb_get_keyboard_mapping(x->c, x->min_kc, (uint8_t)count), NULL);
    if (!r)
        return ad_error_set(err, AD_ACTION_FAILED, "Cannot read the keyboard mapping");
    int len = xcb_get_keyboard_mapping_keysyms_length(r);
    xcb_keysym_t *ks = malloc(sizeof(xcb_keysym_t) * (size_t)(len ? len : 1));
    if (!ks || r->keysyms_per_keycode == 0) {
        free(ks);
        free(r);
        return ad_error_set(err, AD_ACTION_FAILED, "The keyboard mapping is empty");
    }
    memcpy(ks, xcb_get_keyboard_mapping_keysyms(r), sizeof(xcb_keysym_t) * (size_t)len);
    free(x->keysyms);
    x->keysyms = ks;
    x->kpk = r->keysyms_per_keycode;
    x->n_kc = len / x->kpk;
    free(r);
    if (!x->dirty) { /* empty keycodes, highest first; ours are put back, so still empty */
        x->n_spare = x->n_used = x->n_touched = 0;
        for (int k = x->n_kc - 1; k >= 0 && x->n_spare < MAX_SPARES; k--) {
            bool empty = true;
            for (int j = 0; j < x->kpk; j++)
                empty = empty && ks[k * x->kpk + j] == 0;
            if (empty)
                x->spare[x->n_spare++] = (xcb_keycode_t)(x->min_kc + k);
        }
    }
    return 0;
}

/* Finds keysym ks on the plain (level 0) or shifted (level 1) column of some keycode. */
static bool keymap_find(ad_x11 *x, uint32_t ks, xcb_keycode_t *kc, int *level)
{
    for (int lv = 0; lv < 2; lv++) {
        for (int k = 0; k < x->n_kc; k++) {
            uint32_t c0 = x->keysyms[k * x->kpk];
            uint32_t c1 = x->kpk > 1 ? x->keysyms[k * x->kpk + 1] : 0;
            bool hit = lv == 0 ? c0 == ks
                               : c1 == ks || (c1 == 0 && c0 >= 'a' && c0 <= 'z' && ks == c0 - 32);
            if (hit) {
                *kc = (xcb_keycode_t)(x->min_kc + k);
                *level = lv;
                return true;
            }
        }
    }
    return false;
}

static void set_mapping(ad_x11 *x, xcb_keycode_t kc, uint32_t ks)
{
    xcb_keysym_t row[2] = {ks, ks};
    xcb_change_keyboard_mapping(x->c, 1, kc, 2, row);
    for (int j = 0; j < x->kpk; j++)
        x->keysyms[(kc - x->min_kc) * x->kpk + j] = j < 2 ? ks : 0;
}

/* The keycode and level that type ks, remapping a spare keycode when the keymap lacks it. */
static int resolve(ad_x11 *x, uint32_t ks, xcb_keycode_t *kc, int *level, ad_error *err)
{
    if (keymap_find(x, ks, kc, level))
        return 0;
    if (x->n_spare == 0) {
        ad_error_set(err, AD_ACTION_FAILED, "Keysym 0x%x is not in the keymap and no keycode "
                                            "is free to map it", ks);
        if (x->sent > 0)
            err->delivery = AD_DELIVERY_UNCERTAIN;
        return -1;
    }
    if (x->n_used == x->n_spare) { /* all spares hold keysyms whose events may be pending */
        xcb_flush(x->c);
        pause_ms(REMAP_SETTLE_MS);
        x->n_used = 0;
    }
    *kc = x->spare[x->n_used++];
    if (x->n_used > x->n_touched)
        x->n_touched = x->n_used;
    *level = 0;
    set_mapping(x, *kc, ks);
    x->dirty = true;
    return 0;
}

/* Puts every spare back to NoSymbol, after the settle delay. Best effort: errors surface in
 * the caller's next sync. */
static void restore_spares(ad_x11 *x)
{
    if (!x->dirty)
        return;
    xcb_flush(x->c);
    pause_ms(REMAP_SETTLE_MS);
    for (int i = 0; i < x->n_touched; i++) {
        xcb_keysym_t none[1] = {0};
        xcb_change_keyboard_mapping(x->c, 1, x->spare[i], 1, none);
        for (int j = 0; x->keysyms && j < x->kpk; j++)
            x->keysyms[(x->spare[i] - x->min_kc) * x->kpk + j] = 0;
    }
    x->dirty = false;
    x->n_used = x->n_touched = 0;
    xcb_flush(x->c);
}

static int finish_keys(ad_x11 *x, ad_error *err)
{
    int rc = sync_x(x, err);
    restore_spares(x);
    ad_error tmp = AD_ERROR_INIT;
    if (sync_x(x, rc < 0 ? &tmp : err) < 0 && rc == 0)
        rc = -1;
    ad_error_clear(&tmp);
    return rc;
}

/* Keycodes for the modifier bits in `mods` (keymap loaded), in ctrl, shift, alt, super
 * order; the first alternative keysym the keymap holds wins. */
static int mod_codes(ad_x11 *x, unsigned mods, xcb_keycode_t *kcs, int *n, ad_error *err)
{
    static const char *const names[] = {"Control", "Shift", "Alt", "Super"};
    *n = 0;
    for (size_t i = 0; i < 4; i++) {
        if (!(mods & mod_keys[i].mask))
            continue;
        int level;
        bool found = false;
        for (size_t j = 0; j < 3 && mod_keys[i].alt[j] && !found; j++)
            found = keymap_find(x, mod_keys[i].alt[j], &kcs[*n], &level);
        if (!found) {
            ad_error_set(err, AD_ACTION_FAILED, "The keymap has no %s key", names[i]);
            ad_error_suggest(err, "Load a keymap with a %s key (setxkbmap us)", names[i]);
            return -1;
        }
        (*n)++;
    }
    return 0;
}

/* Pointer gestures: validates the mask and finds its keycodes (none for 0). */
static int mod_keycodes(ad_x11 *x, unsigned mods, xcb_keycode_t *kcs, int *n, ad_error *err)
{
    *n = 0;
    if (mods & ~0xfu)
        return bad_arg(err, "Unknown modifier bits");
    if (mods == 0)
        return 0;
    return keymap_load(x, err) < 0 ? -1 : mod_codes(x, mods, kcs, n, err);
}

int ad_x11_key_combo(ad_x11 *x, const char *combo, ad_error *err)
{
    uint32_t ks[AD_X11_COMBO_MAX];
    int n, level = 0, nm = 0;
    if (start(x, err, "ad_x11_key_combo") < 0 || ad_x11_parse_combo(combo, ks, &n, err) < 0 ||
        keymap_load(x, err) < 0)
        return -1;
    unsigned mods = 0, key_mod = keysym_mod(ks[n - 1]);
    for (int i = 0; i < n - 1; i++)
        mods |= keysym_mod(ks[i]);
    xcb_keycode_t kc, mk[4];
    int rc = key_mod ? mod_codes(x, key_mod, &kc, &nm, err) : resolve(x, ks[n - 1], &kc,
                                                                        &level, err);
    if (rc == 0 && level == 1)
        mods |= AD_X11_MOD_SHIFT; /* the key's keysym is on the shifted level */
    if (rc == 0)
        rc = mod_codes(x, mods, mk, &nm, err);
    if (rc < 0) {
        restore_spares(x);
        return -1;
    }
    keys(x, mk, nm, true);
    fake(x, XCB_KEY_PRESS, kc, 0, 0);
    fake(x, XCB_KEY_RELEASE, kc, 0, 0);
    keys(x, mk, nm, false);
    return finish_keys(x, err);
}

/* Text -> keysyms (caller frees *ret). INVALID_ARGS for bad UTF-8 or control characters. */
static int text_keysyms(const char *s, uint32_t **ret, int *ret_n, ad_error *err)
{
    size_t len = strlen(s);
    if (len > AD_X11_TYPE_MAX_BYTES)
        return ad_error_set(err, AD_INVALID_ARGS, "Text is %zu bytes; the limit is %d", len,
                            AD_X11_TYPE_MAX_BYTES);
    uint32_t *ks = malloc(sizeof(uint32_t) * (len + 1));
    if (!ks)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    int n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        int l = utf8_decode((const unsigned char *)s + i, &cp);
        if (l == 0 || ((cp < 0x20 && cp != '\n' && cp != '\r' && cp != '\t') ||
                       (cp >= 0x7f && cp < 0xa0))) {
            free(ks);
            if (l == 0)
                return ad_error_set(err, AD_INVALID_ARGS, "Text is not valid UTF-8 at byte %zu",
                                    i);
            return ad_error_set(err, AD_INVALID_ARGS, "Text holds control character U+%04X at "
                                "byte %zu", cp, i);
        }
        i += (size_t)l;
        if (cp == '\r' && s[i] == '\n')
            i++;
        ks[n++] = cp == '\r' || cp == '\n' ? KS_RETURN : cp == '\t' ? KS_TAB
                                                             : ad_x11_codepoint_keysym(cp);
    }
    *ret = ks;
    *ret_n = n;
    return 0;
}

/* Letters whose level Caps Lock flips: ASCII and Latin-1 letters. */
static bool cased(uint32_t ks)
{
    return (ks >= 'a' && ks <= 'z') || (ks >= 'A' && ks <= 'Z') ||
           (ks >= 0xc0 && ks <= 0xfe && ks != 0xd7 && ks != 0xf7 && ks != 0xdf);
}

static bool caps_locked(ad_x11 *x)
{
    xcb_query_pointer_reply_t *p = xcb_query_pointer_reply(x->c, xcb_query_pointer(x->c,
                                                            x->root), NULL);
    bool lock = p && (p->mask & XCB_MOD_MASK_LOCK);
    free(p);
    return lock;
}

static void tap(ad_x11 *x, xcb_keycode_t kc)
{
    fake(x, XCB_KEY_PRESS, kc, 0, 0);
    fake(x, XCB_KEY_RELEASE, kc, 0, 0);
}

/* Sends the keystrokes; *typed counts the characters sent. `flip`: Caps Lock is on and
 * could not be switched off, so ASCII and Latin-1 letters take the other level. */
static int type_keys(ad_x11 *x, const uint32_t *ks, int n, bool flip, int *typed,
                     ad_error *err)
{
    xcb_keycode_t shift;
    int nsh;
    if (mod_codes(x, AD_X11_MOD_SHIFT, &shift, &nsh, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        xcb_keycode_t kc;
        int level;
        bool spare = !keymap_find(x, ks[i], &kc, &level);
        if (spare && resolve(x, ks[i], &kc, &level, err) < 0)
            return -1;
        if (flip && !spare && cased(ks[i]))
            level ^= 1;
        if (level)
            fake(x, XCB_KEY_PRESS, shift, 0, 0);
        tap(x, kc);
        if (level)
            fake(x, XCB_KEY_RELEASE, shift, 0, 0);
        *typed = i + 1;
        if ((i + 1) % SYNC_EVERY == 0 && sync_x(x, err) < 0)
            return -1;
    }
    return 0;
}

/* Caps Lock would turn every cased character, remapped ones included, into the other case
 * in the client, so it is switched off for the text and on again afterwards. */
int ad_x11_type_text(ad_x11 *x, const char *utf8, ad_error *err)
{
    uint32_t *ks = NULL;
    int n = 0, typed = 0, level;
    if (start(x, err, "ad_x11_type_text") < 0)
        return -1;
    if (!utf8)
        return bad_arg(err, "ad_x11_type_text needs text");
    if (text_keysyms(utf8, &ks, &n, err) < 0)
        return -1;
    if (n == 0 || keymap_load(x, err) < 0) {
        free(ks);
        return n == 0 ? 0 : -1;
    }
    xcb_keycode_t caps = 0;
    bool lock = caps_locked(x), unlock = lock && keymap_find(x, KS_CAPS, &caps, &level);
    if (unlock)
        tap(x, caps);
    int rc = type_keys(x, ks, n, lock && !unlock, &typed, err);
    free(ks);
    if (unlock)
        tap(x, caps);
    if (rc < 0) {
        restore_spares(x);
    } else if ((rc = finish_keys(x, err)) < 0) {
        typed = n;
    }
    if (rc < 0 && x->sent > 0) {
        err->delivery = AD_DELIVERY_UNCERTAIN;
        ad_error_detail(err, "keystrokes_sent", json_integer(typed));
    }
    return rc;
}
