/* x11_origin.c: _NET_CLIENT_LIST + _NET_WM_PID + _NET_WM_NAME through xcb-ewmh. */
#include "linux/x11_origin.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>
#include <xcb/xcb_ewmh.h>

static bool title_matches(xcb_ewmh_connection_t *ewmh, xcb_window_t w, const char *title)
{
    if (!title)
        return true;
    xcb_ewmh_get_utf8_strings_reply_t name;
    bool match = false;
    if (xcb_ewmh_get_wm_name_reply(ewmh, xcb_ewmh_get_wm_name(ewmh, w), &name, NULL)) {
        match = strlen(title) == name.strings_len &&
                memcmp(name.strings, title, name.strings_len) == 0;
        xcb_ewmh_get_utf8_strings_reply_wipe(&name);
    }
    return match;
}

/* Connects to $DISPLAY with the EWMH atoms; NULL without a display. The caller wipes ewmh
 * and disconnects the returned connection. */
static xcb_connection_t *open_ewmh(int pid, xcb_ewmh_connection_t *ewmh, int *screen_no)
{
    if (!getenv("DISPLAY") || pid <= 0)
        return NULL;
    xcb_connection_t *c = xcb_connect(NULL, screen_no);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return NULL;
    }
    if (!xcb_ewmh_init_atoms_replies(ewmh, xcb_ewmh_init_atoms(c, ewmh), NULL)) {
        xcb_disconnect(c);
        return NULL;
    }
    return c;
}

int ad_x11_window_origin(int pid, const char *title, int *ret_x, int *ret_y)
{
    int screen_no = 0, rc = -1;
    xcb_ewmh_connection_t ewmh;
    xcb_connection_t *c = open_ewmh(pid, &ewmh, &screen_no);
    if (!c)
        return -1;
    xcb_window_t root = ewmh.screens[screen_no]->root;
    xcb_ewmh_get_windows_reply_t list;
    if (xcb_ewmh_get_client_list_reply(&ewmh, xcb_ewmh_get_client_list(&ewmh, screen_no), &list,
                                       NULL)) {
        xcb_window_t found = XCB_WINDOW_NONE;
        int matches = 0;
        for (uint32_t i = 0; i < list.windows_len && list.windows_len < 4096; i++) {
            uint32_t wpid = 0;
            xcb_window_t w = list.windows[i];
            if (!xcb_ewmh_get_wm_pid_reply(&ewmh, xcb_ewmh_get_wm_pid(&ewmh, w), &wpid, NULL) ||
                (int)wpid != pid || !title_matches(&ewmh, w, title))
                continue;
            found = w;
            matches++;
        }
        xcb_ewmh_get_windows_reply_wipe(&list);
        xcb_translate_coordinates_reply_t *t =
            matches == 1 ? xcb_translate_coordinates_reply(
                               c, xcb_translate_coordinates(c, found, root, 0, 0), NULL)
                         : NULL;
        if (t) {
            *ret_x = t->dst_x;
            *ret_y = t->dst_y;
            rc = 0;
            free(t);
        }
    }
    xcb_ewmh_connection_wipe(&ewmh);
    xcb_disconnect(c);
    return rc;
}

int ad_x11_screen_size(int *ret_width, int *ret_height)
{
    if (!getenv("DISPLAY"))
        return -1;
    int screen_no = 0, rc = -1;
    xcb_connection_t *c = xcb_connect(NULL, &screen_no);
    if (!xcb_connection_has_error(c)) {
        xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
        for (int i = 0; it.rem && i < screen_no; i++)
            xcb_screen_next(&it);
        if (it.rem) {
            *ret_width = it.data->width_in_pixels;
            *ret_height = it.data->height_in_pixels;
            rc = 0;
        }
    }
    xcb_disconnect(c);
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
    xcb_connection_t *c = open_ewmh(pid, &ewmh, &screen_no);
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
    xcb_ewmh_connection_wipe(&ewmh);
    xcb_disconnect(c);
    return shown;
}
