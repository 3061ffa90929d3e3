/* x11_wm.c: the running window manager as EWMH publishes it (app_close.h). */
#include "linux/app_close.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/res.h>

#include "linux/x11_connect.h"
#include "linux/x11_private.h"

/* The window w's _NET_SUPPORTING_WM_CHECK, XCB_WINDOW_NONE when unset. */
static xcb_window_t check_window_of(ad_x11 *x, xcb_window_t w)
{
    xcb_window_t out = XCB_WINDOW_NONE;
    if (!xcb_ewmh_get_supporting_wm_check_reply(
            &x->ewmh, xcb_ewmh_get_supporting_wm_check(&x->ewmh, w), &out, NULL))
        return XCB_WINDOW_NONE;
    return out;
}

/* The pid of the local X client that created w (X-Resource 1.2 QueryClientIds), 0 when the
 * server has no X-Resource or the client is remote. The server knows it: a client cannot
 * claim another's pid the way it can write any _NET_WM_PID. */
static int creator_pid(ad_x11 *x, xcb_window_t w)
{
    /* xcb would close the connection on a request of an extension the server lacks. */
    if (!ad_x11_has_extension(x->c, AD_X11_EXT_RES))
        return 0;
    xcb_res_client_id_spec_t spec = {.client = w, .mask = XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID};
    xcb_res_query_client_ids_reply_t *r = xcb_res_query_client_ids_reply(
        x->c, xcb_res_query_client_ids(x->c, 1, &spec), NULL);
    int pid = 0;
    if (r) {
        xcb_res_client_id_value_iterator_t it =
            xcb_res_query_client_ids_ids_iterator(r);
        for (; it.rem && !pid; xcb_res_client_id_value_next(&it)) {
            if ((it.data->spec.mask & XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID) &&
                xcb_res_client_id_value_value_length(it.data) == 1)
                pid = (int)*xcb_res_client_id_value_value(it.data);
        }
    }
    free(r);
    return pid;
}

bool ad_x11_window_manager(char **ret_name, int *ret_pid)
{
    *ret_name = NULL;
    *ret_pid = 0;
    ad_x11 *x = NULL;
    ad_error err = AD_ERROR_INIT;
    if (ad_x11_open(&x, &err) < 0) {
        ad_error_clear(&err);
        return false;
    }
    /* EWMH: the check window names itself too; a root property that points elsewhere is
     * left over from a window manager that exited. */
    xcb_window_t w = check_window_of(x, x->root);
    bool found = w != XCB_WINDOW_NONE && check_window_of(x, w) == w;
    if (found) {
        xcb_ewmh_get_utf8_strings_reply_t name;
        if (xcb_ewmh_get_wm_name_reply(&x->ewmh, xcb_ewmh_get_wm_name(&x->ewmh, w), &name,
                                       NULL)) {
            *ret_name = strndup(name.strings, name.strings_len);
            xcb_ewmh_get_utf8_strings_reply_wipe(&name);
        }
        *ret_pid = creator_pid(x, w);
        uint32_t pid = 0;
        if (!*ret_pid &&
            xcb_ewmh_get_wm_pid_reply(&x->ewmh, xcb_ewmh_get_wm_pid(&x->ewmh, w), &pid, NULL))
            *ret_pid = (int)pid; /* a remote server or one without X-Resource */
    }
    ad_x11_close(x);
    return found;
}

const char *ad_x11_protected_window_manager(int pid)
{
    static _Thread_local char why[160];
    char *name = NULL;
    int wm_pid = 0;
    bool is_wm = ad_x11_window_manager(&name, &wm_pid) && wm_pid > 0 && wm_pid == pid;
    if (is_wm)
        snprintf(why, sizeof(why), "the window manager (%.100s)", name ? name : "unnamed");
    free(name);
    return is_wm ? why : NULL;
}
