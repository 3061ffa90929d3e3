/* x11_windows.c: windows for x11_input.h through EWMH: ad_x11_find_window,
 * ad_x11_focus_window, ad_x11_active_window and ad_x11_window_at. Every walk over the
 * server's windows is bounded (MAX_WINDOWS, MAX_DEPTH, FRAME_SEARCH). */
#include "linux/x11_input_region.h"
#include "linux/x11_private.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WINDOWS 4096   /* bound on _NET_CLIENT_LIST and on the root's children */
#define MAX_DEPTH 32       /* bound on a parent walk */
#define FRAME_SEARCH 64    /* windows searched inside a frame for its client */
#define FOCUS_RECHECK_MS 20

static int wm_pid(ad_x11 *x, xcb_window_t w)
{
    uint32_t pid = 0;
    if (!xcb_ewmh_get_wm_pid_reply(&x->ewmh, xcb_ewmh_get_wm_pid(&x->ewmh, w), &pid, NULL))
        return 0;
    return (int)pid;
}

/* _NET_CLIENT_LIST, at most MAX_WINDOWS (caller frees). ACTION_NOT_SUPPORTED without an
 * EWMH window manager. */
static int client_list(ad_x11 *x, xcb_window_t **ret, int *ret_n, ad_error *err)
{
    xcb_ewmh_get_windows_reply_t list;
    if (!xcb_ewmh_get_client_list_reply(&x->ewmh, xcb_ewmh_get_client_list(&x->ewmh,
                                        x->screen_no), &list, NULL)) {
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "No window manager publishes the window "
                     "list, so windows cannot be matched to their X11 clients");
        ad_error_suggest(err, "Run inside a desktop session, or start a window manager");
        ad_error_platform_detail(err, "_NET_CLIENT_LIST is not set on the root window");
        return -1;
    }
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

void ad_x11_title_request(xcb_ewmh_connection_t *ewmh, xcb_window_t w,
                          xcb_get_property_cookie_t *ret_net_name,
                          xcb_get_property_cookie_t *ret_wm_name)
{
    *ret_net_name = xcb_ewmh_get_wm_name(ewmh, w);
    *ret_wm_name = xcb_get_property(ewmh->connection, 0, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING,
                                    0, 1024);
}

char *ad_x11_title_reply(xcb_ewmh_connection_t *ewmh, xcb_get_property_cookie_t net_name,
                         xcb_get_property_cookie_t wm_name)
{
    xcb_ewmh_get_utf8_strings_reply_t name;
    char *title = NULL;
    if (xcb_ewmh_get_wm_name_reply(ewmh, net_name, &name, NULL)) {
        title = strndup(name.strings, name.strings_len);
        xcb_ewmh_get_utf8_strings_reply_wipe(&name);
    }
    xcb_get_property_reply_t *r = xcb_get_property_reply(ewmh->connection, wm_name, NULL);
    if (!title && r && r->format == 8 && xcb_get_property_value_length(r) > 0)
        title = strndup(xcb_get_property_value(r), (size_t)xcb_get_property_value_length(r));
    free(r);
    return title;
}

/* The title a window list shows for w (ad_x11_title_reply) is `title`. */
static bool title_is(ad_x11 *x, xcb_window_t w, const char *title)
{
    xcb_get_property_cookie_t net_name, wm_name;
    ad_x11_title_request(&x->ewmh, w, &net_name, &wm_name);
    char *name = ad_x11_title_reply(&x->ewmh, net_name, wm_name);
    bool match = name && strcmp(name, title) == 0;
    free(name);
    return match;
}

int ad_x11_find_window(ad_x11 *x, int pid, const char *title, uint32_t *ret_window,
                       ad_error *err)
{
    if (!x || !ret_window || pid <= 0)
        return ad_x11_bad_arg(err, "ad_x11_find_window needs a connection and a pid > 0");
    x->sent = 0;
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
        return ad_x11_bad_arg(err, "ad_x11_active_window needs a connection and outputs");
    x->sent = 0;
    xcb_window_t w = active(x);
    int pid = w ? wm_pid(x, w) : 0;
    if (xcb_connection_has_error(x->c))
        return ad_x11_sync(x, err);
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

bool ad_x11_wait_event(ad_x11 *x, int64_t deadline_us)
{
    bool got = false;
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(x->c))) {
        free(ev);
        got = true;
    }
    int64_t left = deadline_us - ad_x11_now_us();
    if (left <= 0)
        return false;
    if (got)
        return true;
    int ms = left / 1000 + 1 < FOCUS_RECHECK_MS ? (int)(left / 1000 + 1) : FOCUS_RECHECK_MS;
    struct pollfd p = {.fd = xcb_get_file_descriptor(x->c), .events = POLLIN};
    poll(&p, 1, ms);
    return true;
}

/* WM_TRANSIENT_FOR of w, XCB_WINDOW_NONE when unset. */
static xcb_window_t transient_for(ad_x11 *x, xcb_window_t w)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        x->c, xcb_get_property(x->c, 0, w, XCB_ATOM_WM_TRANSIENT_FOR, XCB_ATOM_WINDOW, 0, 1),
        NULL);
    xcb_window_t t = XCB_WINDOW_NONE;
    if (r && r->format == 32 && xcb_get_property_value_length(r) == 4)
        t = *(xcb_window_t *)xcb_get_property_value(r);
    free(r);
    return t;
}

/* _NET_WM_STATE of w holds _NET_WM_STATE_MODAL. */
static bool is_modal(ad_x11 *x, xcb_window_t w)
{
    xcb_ewmh_get_atoms_reply_t st;
    bool modal = false;
    if (!xcb_ewmh_get_wm_state_reply(&x->ewmh, xcb_ewmh_get_wm_state(&x->ewmh, w), &st, NULL))
        return false;
    for (uint32_t i = 0; i < st.atoms_len; i++)
        modal |= st.atoms[i] == x->ewmh._NET_WM_STATE_MODAL;
    xcb_ewmh_get_atoms_reply_wipe(&st);
    return modal;
}

/* Does `now` hold the focus for `window`: it is the window, or (accept_modal) a modal
 * dialog of the same process transient for it, which is where a modal dialog takes the
 * focus. */
static bool holds_focus(ad_x11 *x, xcb_window_t now, xcb_window_t window, bool accept_modal)
{
    if (now == XCB_WINDOW_NONE)
        return false;
    if (now != window && !(accept_modal && transient_for(x, now) == window && is_modal(x, now) &&
                           wm_pid(x, now) == wm_pid(x, window)))
        return false;
    return focus_inside(x, now) && frame_settled(x, now);
}

/* Activates `window` and waits until the focus holds on two consecutive reads
 * (holds_focus), or the deadline: then TIMEOUT, details.kind focus_verification. */
static int focus_loop(ad_x11 *x, uint32_t window, int64_t deadline_us, bool accept_modal,
                      uint32_t *ret_active, ad_error *err)
{
    if (!x || window == XCB_WINDOW_NONE)
        return ad_x11_bad_arg(err, "ad_x11_focus_window needs a connection and a window");
    x->sent = 0;
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
    if (ad_x11_sync(x, err) < 0)
        return -1;
    xcb_window_t now = XCB_WINDOW_NONE;
    do {
        if (xcb_connection_has_error(x->c))
            return ad_x11_sync(x, err);
        now = active(x);
        if (!holds_focus(x, now, window, accept_modal))
            continue;
        ad_x11_sync_quiet(x); /* a round trip, then the second read */
        xcb_window_t again = active(x);
        if (again == now && holds_focus(x, again, window, accept_modal)) {
            if (ret_active)
                *ret_active = now;
            return 0;
        }
    } while (ad_x11_wait_event(x, deadline_us));
    ad_error_set(err, AD_TIMEOUT, "Window 0x%x did not become the active window in time",
                 window);
    ad_error_suggest(err, "Check for a modal dialog or a window that holds the focus, "
                          "then retry with a longer timeout");
    ad_error_detail(err, "kind", json_string("focus_verification"));
    ad_error_detail(err, "window", json_integer(window));
    ad_error_detail(err, "active_window", json_integer(now));
    return -1;
}

int ad_x11_focus_window(ad_x11 *x, uint32_t window, int64_t deadline_us, ad_error *err)
{
    return focus_loop(x, window, deadline_us, false, NULL, err);
}

int ad_x11_activate_window(ad_x11 *x, uint32_t window, int64_t deadline_us,
                           uint32_t *ret_active, ad_error *err)
{
    return focus_loop(x, window, deadline_us, true, ret_active, err);
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

/* The topmost viewable child of the root containing the point, or XCB_WINDOW_NONE. */
static xcb_window_t top_child_at(ad_x11 *x, int px, int py, bool *ret_override)
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
        /* A window without input (the cursor overlay) is not what a click there hits. */
        if (!hit && a && g && a->map_state == XCB_MAP_STATE_VIEWABLE && px >= g->x &&
            py >= g->y && px < g->x + g->width + bw && py < g->y + g->height + bw &&
            !ad_x11_input_transparent(x->c, kids[i])) {
            hit = kids[i];
            *ret_override = a->override_redirect;
        }
        free(a);
        free(g);
    }
    free(ac);
    free(gc);
    free(t);
    return hit;
}

int ad_x11_window_at(ad_x11 *x, int px, int py, uint32_t *ret_window, int *ret_pid,
                     bool *ret_popup, ad_error *err)
{
    if (!x || !ret_window || !ret_pid)
        return ad_x11_bad_arg(err, "ad_x11_window_at needs a connection and outputs");
    x->sent = 0;
    if (ad_x11_check_point(x, px, py, err) < 0)
        return -1;
    xcb_window_t *list;
    int n;
    if (client_list(x, &list, &n, err) < 0)
        return -1;
    bool popup = false;
    xcb_window_t hit = top_child_at(x, px, py, &popup);
    xcb_window_t client = hit ? client_in(x, hit, list, n) : XCB_WINDOW_NONE;
    free(list);
    if (client)
        hit = client;
    int pid = hit ? wm_pid(x, hit) : 0;
    if (xcb_connection_has_error(x->c))
        return ad_x11_sync(x, err);
    *ret_window = hit;
    *ret_pid = pid;
    if (ret_popup)
        *ret_popup = popup;
    return 0;
}

int ad_x11_pid_windows(ad_x11 *x, int pid, uint32_t **ret, int *ret_n, ad_error *err)
{
    xcb_window_t *list = NULL;
    int n = 0, k = 0;
    if (client_list(x, &list, &n, err) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (wm_pid(x, list[i]) == pid)
            list[k++] = list[i];
    *ret = list;
    *ret_n = k;
    return 0;
}
