/* x11_connect.h: the one way the library opens an X connection. */
#ifndef AD_X11_CONNECT_H
#define AD_X11_CONNECT_H

#include <stdbool.h>
#include <xcb/xcb.h>

/* xcb_connect(display, screen), one call at a time in this process: xcb_connect reads the
 * X authority file through libXau's XauFileName, which returns a static buffer it reallocates
 * (libXau 1.0.11, Debian 12), so two threads connecting at once (two C library adapters) race
 * on it. The connection is the caller's, as xcb_connect's is (xcb_disconnect). */
xcb_connection_t *ad_x11_connect(const char *display, int *screen);

/* The extensions ad_x11_has_extension knows. */
typedef enum { AD_X11_EXT_XTEST, AD_X11_EXT_SHAPE, AD_X11_EXT_RES } ad_x11_extension;

/* Whether the server behind c has extension `which` (xcb_get_extension_data: one round trip
 * per connection, then cached). Use it instead of &xcb_test_id, &xcb_shape_id, &xcb_res_id:
 * the executable binds the extension libraries lazily (src/cli/lazy_libs.h), and a data
 * symbol cannot be bound that way, so the code names none. */
bool ad_x11_has_extension(xcb_connection_t *c, ad_x11_extension which);

#endif
