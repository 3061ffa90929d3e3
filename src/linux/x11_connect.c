/* x11_connect.c: xcb_connect serialized within the process (x11_connect.h). */
#include "linux/x11_connect.h"

#include <pthread.h>

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
