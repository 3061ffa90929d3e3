/* x11_window_ops.c: EWMH move, resize, minimize, maximize and restore (x11_window_ops.h).
 *
 * Coordinates: the request is the rectangle list-windows reports (the window manager's
 * frame around the client, minus GTK's invisible shadow: ad_x11_client_visible), so the
 * client window's own place is derived from _NET_FRAME_EXTENTS and _GTK_FRAME_EXTENTS and
 * sent with StaticGravity, which names the client window itself (EWMH
 * _NET_MOVERESIZE_WINDOW). */
#include "linux/x11_window_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/window_op.h"
#include "linux/x11_atom.h"
#include "linux/x11_origin.h"
#include "linux/x11_private.h"

#define ICONIC_STATE 3u /* ICCCM WM_STATE / WM_CHANGE_STATE */

/* _NET_WM_STATE flags, and ICCCM WM_STATE Iconic as hidden. */
static void read_wm_state(ad_x11 *x, xcb_window_t w, ad_win_state *s)
{
    xcb_ewmh_get_atoms_reply_t st;
    xcb_atom_t wm_state = ad_x11_atom(x->c, "WM_STATE", false);
    xcb_get_property_cookie_t icccm = xcb_get_property(x->c, 0, w, wm_state, wm_state, 0, 2);
    if (xcb_ewmh_get_wm_state_reply(&x->ewmh, xcb_ewmh_get_wm_state(&x->ewmh, w), &st, NULL)) {
        for (uint32_t i = 0; i < st.atoms_len; i++) {
            xcb_atom_t a = st.atoms[i];
            s->hidden |= a == x->ewmh._NET_WM_STATE_HIDDEN;
            s->maximized_horizontal |= a == x->ewmh._NET_WM_STATE_MAXIMIZED_HORZ;
            s->maximized_vertical |= a == x->ewmh._NET_WM_STATE_MAXIMIZED_VERT;
        }
        xcb_ewmh_get_atoms_reply_wipe(&st);
    }
    xcb_get_property_reply_t *r = xcb_get_property_reply(x->c, icccm, NULL);
    if (r && r->format == 32 && xcb_get_property_value_length(r) >= 4)
        s->hidden |= *(uint32_t *)xcb_get_property_value(r) == ICONIC_STATE;
    free(r);
}

/* The client read and the state of `window`: false when it is gone. */
static bool read_window(ad_x11 *x, uint32_t window, ad_x11_client *c, ad_win_state *s)
{
    memset(s, 0, sizeof(*s));
    if (ad_x11_client_read_one(&x->ewmh, x->screen_no, window, c) < 0)
        return false;
    s->known = true;
    s->bounds = ad_x11_client_visible(c);
    read_wm_state(x, window, s);
    return true;
}

int ad_x11_window_state(ad_x11 *x, uint32_t window, ad_win_state *ret, int *ret_pid)
{
    ad_x11_client c;
    bool alive = read_window(x, window, &c, ret);
    *ret_pid = alive ? c.pid : 0;
    free(c.title);
    return alive ? 0 : -1;
}

/* WM_CHANGE_STATE IconicState: the ICCCM request to minimize. */
static void request_iconic(ad_x11 *x, xcb_window_t w)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof(ev));
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.format = 32;
    ev.window = w;
    ev.type = ad_x11_atom(x->c, "WM_CHANGE_STATE", false);
    ev.data.data32[0] = ICONIC_STATE;
    xcb_send_event(x->c, 0, x->root,
                   XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT,
                   (const char *)&ev);
}

static void request_maximized(ad_x11 *x, xcb_window_t w, xcb_ewmh_wm_state_action_t action)
{
    xcb_ewmh_request_change_wm_state(&x->ewmh, x->screen_no, w, action,
                                     x->ewmh._NET_WM_STATE_MAXIMIZED_VERT,
                                     x->ewmh._NET_WM_STATE_MAXIMIZED_HORZ,
                                     XCB_EWMH_CLIENT_SOURCE_TYPE_OTHER);
}

/* Sends the request; label names it. */
static void send_request(ad_x11 *x, xcb_window_t w, const ad_x11_client *c,
                         const ad_win_state *now, const ad_win_req *req, char *label,
                         size_t label_size)
{
    const char *what = "";
    switch (req->op) {
    case AD_WIN_MOVE: {
        /* visible.x = client.x + shadow_left - frame_left (ad_x11_client_visible) */
        int cx = req->x - c->frame_left + c->wm_left, cy = req->y - c->frame_top + c->wm_top;
        xcb_ewmh_request_moveresize_window(&x->ewmh, x->screen_no, w, XCB_GRAVITY_STATIC,
                                           XCB_EWMH_CLIENT_SOURCE_TYPE_OTHER,
                                           XCB_EWMH_MOVERESIZE_WINDOW_X |
                                               XCB_EWMH_MOVERESIZE_WINDOW_Y,
                                           (uint32_t)cx, (uint32_t)cy, 0, 0);
        what = "EWMH._NET_MOVERESIZE_WINDOW";
        break;
    }
    case AD_WIN_RESIZE: {
        int cw = req->width + c->frame_left + c->frame_right - c->wm_left - c->wm_right;
        int ch = req->height + c->frame_top + c->frame_bottom - c->wm_top - c->wm_bottom;
        xcb_ewmh_request_moveresize_window(&x->ewmh, x->screen_no, w, XCB_GRAVITY_STATIC,
                                           XCB_EWMH_CLIENT_SOURCE_TYPE_OTHER,
                                           XCB_EWMH_MOVERESIZE_WINDOW_WIDTH |
                                               XCB_EWMH_MOVERESIZE_WINDOW_HEIGHT,
                                           0, 0, (uint32_t)(cw > 1 ? cw : 1),
                                           (uint32_t)(ch > 1 ? ch : 1));
        what = "EWMH._NET_MOVERESIZE_WINDOW";
        break;
    }
    case AD_WIN_MINIMIZE:
        request_iconic(x, w);
        what = "ICCCM.WM_CHANGE_STATE";
        break;
    case AD_WIN_MAXIMIZE:
        request_maximized(x, w, XCB_EWMH_WM_STATE_ADD);
        what = "EWMH._NET_WM_STATE";
        break;
    case AD_WIN_RESTORE:
        /* A minimized window comes back through activation (the window manager maps it);
         * a maximized one loses both maximized states. */
        if (now->hidden)
            xcb_ewmh_request_change_active_window(&x->ewmh, x->screen_no, w,
                                                  XCB_EWMH_CLIENT_SOURCE_TYPE_OTHER,
                                                  XCB_CURRENT_TIME, XCB_WINDOW_NONE);
        if (now->maximized_horizontal || now->maximized_vertical)
            request_maximized(x, w, XCB_EWMH_WM_STATE_REMOVE);
        what = now->hidden ? "EWMH._NET_ACTIVE_WINDOW"
             : now->maximized_horizontal || now->maximized_vertical ? "EWMH._NET_WM_STATE"
                                                                    : "none";
        break;
    case AD_WIN_FOCUS:
        break;
    }
    snprintf(label, label_size, "%s", what);
}

int ad_x11_window_apply(ad_x11 *x, uint32_t window, int pid, const ad_win_req *req,
                        ad_win_result *ret, ad_error *err)
{
    if (!x || window == XCB_WINDOW_NONE || req->op == AD_WIN_FOCUS)
        return ad_x11_bad_arg(err, "ad_x11_window_apply needs a connection, a window and an "
                                   "operation other than focus");
    x->sent = 0;
    /* Events first, so no change between the read and the wait is missed. */
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_change_window_attributes(x->c, window, XCB_CW_EVENT_MASK, &mask);
    ad_x11_client c;
    ad_win_state now;
    bool alive = read_window(x, window, &c, &now);
    if (!alive || c.pid != pid) {
        free(c.title);
        ad_error_set(err, AD_STALE_REF, "X window 0x%x %s", window,
                     alive ? "now belongs to another process" : "is gone");
        ad_error_suggest(err, "Run list-windows and use an id it reports");
        ad_error_detail(err, "kind", json_string("window_identity_changed"));
        return -1;
    }
    send_request(x, window, &c, &now, req, ret->label, sizeof(ret->label));
    free(c.title);
    if (ad_x11_sync(x, err) < 0) {
        err->delivery = AD_DELIVERY_UNCERTAIN;
        return -1;
    }
    do {
        if (xcb_connection_has_error(x->c))
            return ad_x11_sync(x, err);
        ret->reached = read_window(x, window, &c, &ret->observed) &&
                       ad_win_state_reached(req, &ret->observed);
        free(c.title);
        if (ret->reached)
            return 0;
    } while (ad_x11_wait_event(x, req->deadline_us));
    return 0;
}
