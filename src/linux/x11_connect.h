/* x11_connect.h: the one way the library opens an X connection. */
#ifndef AD_X11_CONNECT_H
#define AD_X11_CONNECT_H

#include <stdbool.h>
#include <xcb/xcb.h>
#include <xcb/xcb_ewmh.h>

/* xcb_connect(display, screen), one call at a time in this process: xcb_connect reads the
 * X authority file through libXau's XauFileName, which returns a static buffer it reallocates
 * (libXau 1.0.11, Debian 12), so two threads connecting at once (two C library adapters) race
 * on it. The connection is the caller's, as xcb_connect's is (xcb_disconnect). */
xcb_connection_t *ad_x11_connect(const char *display, int *screen);

/* The process's shared X connection for reads (x11_origin.c), with its EWMH atoms: opened
 * on the first call, kept until exit, and opened again if it broke, so a command makes one
 * X connection (and one round of atom lookups), not one per read (issue 12). NULL without
 * $DISPLAY or when the server cannot be reached. Borrowed: never disconnect it or wipe
 * *ret_ewmh. Safe from several threads (xcb is; the atoms are read-only once read). */
xcb_connection_t *ad_x11_shared(const xcb_ewmh_connection_t **ret_ewmh, int *ret_screen_no);

/* The extensions ad_x11_has_extension knows. */
typedef enum { AD_X11_EXT_XTEST, AD_X11_EXT_SHAPE, AD_X11_EXT_RES } ad_x11_extension;

/* Whether the server behind c has extension `which` (xcb_get_extension_data: one round trip
 * per connection, then cached). Use it instead of &xcb_test_id, &xcb_shape_id, &xcb_res_id:
 * the executable binds the extension libraries lazily (src/cli/lazy_libs.h), and a data
 * symbol cannot be bound that way, so the code names none. */
bool ad_x11_has_extension(xcb_connection_t *c, ad_x11_extension which);

#endif
