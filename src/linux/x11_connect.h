/* x11_connect.h: the one way the library opens an X connection. */
#ifndef AD_X11_CONNECT_H
#define AD_X11_CONNECT_H

#include <xcb/xcb.h>

/* xcb_connect(display, screen), one call at a time in this process: xcb_connect reads the
 * X authority file through libXau's XauFileName, which returns a static buffer it reallocates
 * (libXau 1.0.11, Debian 12), so two threads connecting at once (two C library adapters) race
 * on it. The connection is the caller's, as xcb_connect's is (xcb_disconnect). */
xcb_connection_t *ad_x11_connect(const char *display, int *screen);

#endif
