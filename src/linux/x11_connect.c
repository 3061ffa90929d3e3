/* x11_connect.c: xcb_connect serialized within the process (x11_connect.h). */
#include "linux/x11_connect.h"

#include <pthread.h>
#include <stdlib.h>
#include <xcb/xcbext.h>

/* Synchronization only, no state: it orders the connects, whose libXau lookup shares one
 * static buffer. */
static pthread_mutex_t connect_lock = PTHREAD_MUTEX_INITIALIZER;

xcb_connection_t *ad_x11_connect(const char *display, int *screen)
{
    pthread_mutex_lock(&connect_lock);
    xcb_connection_t *c = xcb_connect(display, screen);
    pthread_mutex_unlock(&connect_lock);
    return c;
}

/* Our own records of the extensions (xcbext.h: a name and the id libxcb assigns on first
 * use), the names as the extension libraries give them. */
static xcb_extension_t extensions[] = {
    [AD_X11_EXT_XTEST] = {"XTEST", 0},
    [AD_X11_EXT_SHAPE] = {"SHAPE", 0},
    [AD_X11_EXT_RES] = {"X-Resource", 0},
};

bool ad_x11_has_extension(xcb_connection_t *c, ad_x11_extension which)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &extensions[which]);
    return ext && ext->present;
}

/* The shared connection (ad_x11_shared) and the lock that orders its opening. A broken one
 * is replaced but not disconnected (another thread may still hold it); the last one
 * replaced stays reachable here. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    xcb_connection_t *c;
    xcb_ewmh_connection_t ewmh;
    int screen_no;
} shared, retired;

xcb_connection_t *ad_x11_shared(const xcb_ewmh_connection_t **ret_ewmh, int *ret_screen_no)
{
    if (!getenv("DISPLAY"))
        return NULL;
    pthread_mutex_lock(&shared_lock);
    if (shared.c && xcb_connection_has_error(shared.c)) {
        retired = shared;
        shared.c = NULL;
    }
    if (!shared.c) {
        int screen_no = 0;
        xcb_connection_t *c = ad_x11_connect(NULL, &screen_no);
        if (xcb_connection_has_error(c) ||
            !xcb_ewmh_init_atoms_replies(&shared.ewmh, xcb_ewmh_init_atoms(c, &shared.ewmh),
                                         NULL)) {
            xcb_disconnect(c);
        } else {
            shared.c = c;
            shared.screen_no = screen_no;
        }
    }
    xcb_connection_t *c = shared.c;
    *ret_ewmh = &shared.ewmh;
    *ret_screen_no = shared.screen_no;
    pthread_mutex_unlock(&shared_lock);
    return c;
}
