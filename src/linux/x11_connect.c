/* x11_connect.c: xcb_connect serialized within the process (x11_connect.h). */
#include "linux/x11_connect.h"

#include <pthread.h>
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
