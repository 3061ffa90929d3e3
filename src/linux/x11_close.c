/* x11_close.c: close requests to the windows of one process (app_close.h). */
#include "linux/app_close.h"

#include <stdlib.h>
#include <string.h>

#include "linux/physical.h" /* ad_linux_require_x11 */
#include "linux/x11_private.h"

/* True when w lists the atom `want` in its WM_PROTOCOLS. */
static bool has_protocol(ad_x11 *x, xcb_window_t w, xcb_atom_t want)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        x->c, xcb_get_property(x->c, 0, w, x->ewmh.WM_PROTOCOLS, XCB_ATOM_ATOM, 0, 64), NULL);
    bool found = false;
    if (r && r->format == 32) {
        const xcb_atom_t *atoms = xcb_get_property_value(r);
        int n = xcb_get_property_value_length(r) / 4;
        for (int i = 0; i < n && !found; i++)
            found = atoms[i] == want;
    }
    free(r);
    return found;
}

static xcb_atom_t intern(ad_x11 *x, const char *name)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(
        x->c, xcb_intern_atom(x->c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a = r ? r->atom : XCB_ATOM_NONE;
    free(r);
    return a;
}

static void send_delete(ad_x11 *x, xcb_window_t w, xcb_atom_t wm_delete)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof(ev));
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.format = 32;
    ev.window = w;
    ev.type = x->ewmh.WM_PROTOCOLS;
    ev.data.data32[0] = wm_delete;
    ev.data.data32[1] = XCB_CURRENT_TIME;
    xcb_send_event(x->c, 0, w, XCB_EVENT_MASK_NO_EVENT, (const char *)&ev);
}

int ad_x11_close_pid_windows(int pid, int *ret_count, ad_error *err)
{
    ad_x11 *x = NULL;
    uint32_t *wins = NULL;
    int n = 0;
    /* Wayland has no protocol for asking another client's window to close (the spec: graceful
     * close needs an X11 client); the refusal names the way that works there. */
    if (ad_linux_require_x11("A graceful close-app", err) < 0) {
        ad_error_suggest(err, "Run close-app --force, which terminates the process");
        return -1;
    }
    if (ad_x11_open(&x, err) < 0)
        return -1;
    if (ad_x11_pid_windows(x, pid, &wins, &n, err) < 0) {
        ad_x11_close(x);
        return -1;
    }
    xcb_atom_t wm_delete = intern(x, "WM_DELETE_WINDOW");
    for (int i = 0; i < n; i++) {
        if (wm_delete != XCB_ATOM_NONE && has_protocol(x, wins[i], wm_delete))
            send_delete(x, wins[i], wm_delete);
        else /* source 2: a pager, i.e. on the user's behalf */
            xcb_ewmh_request_close_window(&x->ewmh, x->screen_no, wins[i], XCB_CURRENT_TIME,
                                          XCB_EWMH_CLIENT_SOURCE_TYPE_OTHER);
    }
    int rc = ad_x11_sync(x, err);
    free(wins);
    ad_x11_close(x);
    if (rc < 0)
        return -1;
    *ret_count = n;
    return 0;
}
