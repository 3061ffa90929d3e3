/* x11_origin.c: _NET_CLIENT_LIST, _NET_WM_PID, titles and _GTK_FRAME_EXTENTS through xcb. */
#include "linux/x11_input_region.h"
#include "linux/x11_origin.h"

#include "linux/x11_connect.h"
#include "linux/x11_atom.h"
#include "linux/x11_private.h" /* ad_x11_title_request, ad_x11_title_reply */

#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>
#include <xcb/xcb_ewmh.h>

/* The process's shared X connection (x11_connect.h), its EWMH atoms copied into *ewmh; NULL
 * without a display. Borrowed: the caller neither wipes ewmh nor disconnects. */
static xcb_connection_t *open_ewmh(xcb_ewmh_connection_t *ewmh, int *screen_no)
{
    const xcb_ewmh_connection_t *shared = NULL;
    xcb_connection_t *c = ad_x11_shared(&shared, screen_no);
    if (c)
        *ewmh = *shared; /* the atoms and the screens array stay the shared record's */
    return c;
}

/* _GTK_FRAME_EXTENTS (left, right, top, bottom): GTK's invisible shadow around a client-side
 * decorated window, set only where the window manager supports it. */
static void frame_extents(xcb_connection_t *c, xcb_get_property_cookie_t cookie,
                          ad_x11_client *out)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(c, cookie, NULL);
    if (r && r->format == 32 && xcb_get_property_value_length(r) == 16) {
        const uint32_t *v = xcb_get_property_value(r);
        if (v[0] < 4096 && v[1] < 4096 && v[2] < 4096 && v[3] < 4096) {
            out->frame_left = (int)v[0];
            out->frame_right = (int)v[1];
            out->frame_top = (int)v[2];
            out->frame_bottom = (int)v[3];
        }
    }
    free(r);
}

#define MAX_WINDOWS 4096 /* bound on _NET_CLIENT_LIST and on the root's children */

typedef struct {
    xcb_window_t window;
    bool popup;
    xcb_get_property_cookie_t pid, net_name, wm_name, extents, wm_frame;
    xcb_get_geometry_cookie_t geometry;
    xcb_translate_coordinates_cookie_t origin;
} client_cookies;

/* The windows to describe: the managed clients, then the viewable override-redirect
 * children of the root (popup surfaces). Appends to *list (capacity MAX_WINDOWS * 2). */
static size_t windows_to_read(xcb_ewmh_connection_t *ewmh, int screen_no, xcb_window_t root,
                              client_cookies *list)
{
    xcb_connection_t *c = ewmh->connection;
    size_t n = 0;
    xcb_ewmh_get_windows_reply_t clients;
    if (!xcb_ewmh_get_client_list_reply(ewmh, xcb_ewmh_get_client_list(ewmh, screen_no),
                                        &clients, NULL))
        return 0;
    for (uint32_t i = 0; i < clients.windows_len && n < MAX_WINDOWS; i++)
        list[n++] = (client_cookies){.window = clients.windows[i]};
    xcb_ewmh_get_windows_reply_wipe(&clients);
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(c, xcb_query_tree(c, root), NULL);
    int kids = t ? xcb_query_tree_children_length(t) : 0;
    kids = kids < MAX_WINDOWS ? kids : MAX_WINDOWS;
    xcb_get_window_attributes_cookie_t *ac = malloc(sizeof(*ac) * (size_t)(kids + 1));
    for (int i = 0; ac && i < kids; i++)
        ac[i] = xcb_get_window_attributes(c, xcb_query_tree_children(t)[i]);
    for (int i = 0; ac && i < kids; i++) {
        xcb_get_window_attributes_reply_t *a = xcb_get_window_attributes_reply(c, ac[i], NULL);
        /* A popup takes input; the cursor overlay's windows do not and are no popup. */
        if (a && a->override_redirect && a->map_state == XCB_MAP_STATE_VIEWABLE &&
            !ad_x11_input_transparent(c, xcb_query_tree_children(t)[i]))
            list[n++] = (client_cookies){.window = xcb_query_tree_children(t)[i], .popup = true};
        free(a);
    }
    free(ac);
    free(t);
    return n;
}

/* Asks for everything an ad_x11_client holds about ck->window (ck->window and popup set). */
static void request_client(xcb_ewmh_connection_t *ewmh, xcb_atom_t gtk_extents,
                           xcb_window_t root, client_cookies *ck)
{
    xcb_connection_t *c = ewmh->connection;
    xcb_window_t w = ck->window;
    ck->pid = xcb_ewmh_get_wm_pid(ewmh, w);
    ad_x11_title_request(ewmh, w, &ck->net_name, &ck->wm_name);
    ck->extents = xcb_get_property(c, 0, w, gtk_extents, XCB_ATOM_CARDINAL, 0, 4);
    ck->wm_frame = xcb_ewmh_get_frame_extents(ewmh, w);
    ck->geometry = xcb_get_geometry(c, w);
    ck->origin = xcb_translate_coordinates(c, w, root, 0, 0);
}

/* Reads the replies of request_client into *out (zeroed first). False when the window is
 * gone (no geometry): *out is then empty. */
static bool reply_client(xcb_ewmh_connection_t *ewmh, const client_cookies *ck,
                         ad_x11_client *out)
{
    xcb_connection_t *c = ewmh->connection;
    uint32_t pid = 0;
    memset(out, 0, sizeof(*out));
    if (xcb_ewmh_get_wm_pid_reply(ewmh, ck->pid, &pid, NULL))
        out->pid = (int)pid;
    out->window = ck->window;
    out->popup = ck->popup;
    out->title = ad_x11_title_reply(ewmh, ck->net_name, ck->wm_name);
    frame_extents(c, ck->extents, out);
    xcb_ewmh_get_extents_reply_t wm;
    if (xcb_ewmh_get_frame_extents_reply(ewmh, ck->wm_frame, &wm, NULL) && wm.left < 4096 &&
        wm.right < 4096 && wm.top < 4096 && wm.bottom < 4096) {
        out->wm_left = (int)wm.left;
        out->wm_right = (int)wm.right;
        out->wm_top = (int)wm.top;
        out->wm_bottom = (int)wm.bottom;
    }
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(c, ck->geometry, NULL);
    xcb_translate_coordinates_reply_t *t = xcb_translate_coordinates_reply(c, ck->origin, NULL);
    bool alive = g && t;
    if (alive) {
        out->x = t->dst_x;
        out->y = t->dst_y;
        out->width = g->width;
        out->height = g->height;
    } else {
        free(out->title);
        memset(out, 0, sizeof(*out));
    }
    free(g);
    free(t);
    return alive;
}

static xcb_atom_t gtk_frame_extents_atom(xcb_connection_t *c)
{
    return ad_x11_atom(c, "_GTK_FRAME_EXTENTS", true);
}

int ad_x11_client_read_one(xcb_ewmh_connection_t *ewmh, int screen_no, uint32_t window,
                           ad_x11_client *ret)
{
    client_cookies ck = {.window = window};
    request_client(ewmh, gtk_frame_extents_atom(ewmh->connection),
                   ewmh->screens[screen_no]->root, &ck);
    return reply_client(ewmh, &ck, ret) ? 0 : -1;
}

int ad_x11_clients_read(ad_x11_clients *ret)
{
    int screen_no = 0;
    xcb_ewmh_connection_t ewmh;
    memset(ret, 0, sizeof(*ret));
    xcb_connection_t *c = open_ewmh(&ewmh, &screen_no);
    if (!c)
        return -1;
    xcb_window_t root = ewmh.screens[screen_no]->root;
    xcb_atom_t extents = gtk_frame_extents_atom(c);
    client_cookies *ck = calloc(2 * MAX_WINDOWS, sizeof(*ck));
    size_t n = ck ? windows_to_read(&ewmh, screen_no, root, ck) : 0;
    ret->items = calloc(n ? n : 1, sizeof(*ret->items));
    for (size_t i = 0; ck && ret->items && i < n; i++) /* all requests, then the replies */
        request_client(&ewmh, extents, root, &ck[i]);
    for (size_t i = 0; ck && ret->items && i < n; i++) /* a window gone meanwhile is left out */
        ret->count += reply_client(&ewmh, &ck[i], &ret->items[ret->count]);
    int rc = ck && ret->items ? 0 : -1;
    free(ck);
    if (rc < 0)
        ad_x11_clients_free(ret);
    return rc;
}

int ad_x11_screen_size(int *ret_width, int *ret_height)
{
    int screen_no = 0, rc = -1;
    xcb_ewmh_connection_t ewmh;
    xcb_connection_t *c = open_ewmh(&ewmh, &screen_no);
    if (c) {
        xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
        for (int i = 0; it.rem && i < screen_no; i++)
            xcb_screen_next(&it);
        if (it.rem) {
            *ret_width = it.data->width_in_pixels;
            *ret_height = it.data->height_in_pixels;
            rc = 0;
        }
    }
    return rc;
}

static bool near(int a, int b)
{
    return abs(a - b) <= 2;
}

/* The window's _NET_WM_PID, or that of one of its children (a frame's client). */
static bool owned_by(xcb_ewmh_connection_t *ewmh, xcb_window_t w, int pid, bool look_below)
{
    uint32_t wpid = 0;
    if (xcb_ewmh_get_wm_pid_reply(ewmh, xcb_ewmh_get_wm_pid(ewmh, w), &wpid, NULL) &&
        (int)wpid == pid)
        return true;
    if (!look_below)
        return false;
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(ewmh->connection,
                                                     xcb_query_tree(ewmh->connection, w), NULL);
    bool found = false;
    for (int i = 0; t && i < xcb_query_tree_children_length(t) && !found; i++)
        found = owned_by(ewmh, xcb_query_tree_children(t)[i], pid, false);
    free(t);
    return found;
}

int ad_x11_pid_shows_rect(int pid, int x, int y, int w, int h)
{
    int screen_no = 0, shown = 0;
    xcb_ewmh_connection_t ewmh;
    xcb_connection_t *c = pid > 0 ? open_ewmh(&ewmh, &screen_no) : NULL;
    if (!c)
        return -1;
    xcb_window_t root = ewmh.screens[screen_no]->root;
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(c, xcb_query_tree(c, root), NULL);
    int n = t ? xcb_query_tree_children_length(t) : 0;
    for (int i = 0; i < n && i < 4096 && !shown; i++) {
        xcb_window_t kid = xcb_query_tree_children(t)[i];
        xcb_get_window_attributes_reply_t *a =
            xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, kid), NULL);
        xcb_get_geometry_reply_t *g = a && a->map_state == XCB_MAP_STATE_VIEWABLE
                                          ? xcb_get_geometry_reply(c, xcb_get_geometry(c, kid),
                                                                   NULL)
                                          : NULL;
        if (g && near(g->x, x) && near(g->y, y) && near(g->width, w) && near(g->height, h))
            shown = owned_by(&ewmh, kid, pid, true);
        free(a);
        free(g);
    }
    free(t);
    return shown;
}
