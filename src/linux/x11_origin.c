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

int ad_x11_window_origin(int pid, const char *title, int *ret_x, int *ret_y)
{
    if (!getenv("DISPLAY") || pid <= 0)
        return -1;
    int screen_no = 0, rc = -1;
    xcb_connection_t *c = xcb_connect(NULL, &screen_no);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return -1;
    }
    xcb_ewmh_connection_t ewmh;
    if (!xcb_ewmh_init_atoms_replies(&ewmh, xcb_ewmh_init_atoms(c, &ewmh), NULL)) {
        xcb_disconnect(c);
        return -1;
    }
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
