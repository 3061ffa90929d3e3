/* x11_origin.h: the X11 server's view of top-level windows, for what AT-SPI does not say.
 *
 * GTK 4.8 answers Component.GetExtents(SCREEN) with coordinates relative to its own window
 * (a GTK4 surface does not know its position), and a nameless AT-SPI window may still have
 * a title on X. The adapter reads the managed client windows (_NET_CLIENT_LIST) once and
 * matches its AT-SPI window among them (x11_geometry.h). */
#ifndef AD_X11_ORIGIN_H
#define AD_X11_ORIGIN_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb_ewmh.h>

#include "linux/x11_geometry.h"

/* Reads every managed client window and viewable popup surface: pid, root rectangle,
 * _GTK_FRAME_EXTENTS, _NET_FRAME_EXTENTS, title. One connection, all requests in flight
 * together. Returns 0 and fills *ret (the caller frees it with ad_x11_clients_free; empty
 * without an EWMH window manager); -1 without an X display. */
int ad_x11_clients_read(ad_x11_clients *ret);

/* One client window read as ad_x11_clients_read reads each, on the caller's connection
 * (ewmh initialised for it): 0, or -1 when the window is gone (*ret then empty). *ret is
 * the caller's (free its title). */
int ad_x11_client_read_one(xcb_ewmh_connection_t *ewmh, int screen_no, uint32_t window,
                           ad_x11_client *ret);

/* The size of the X screen (the root window, which spans every monitor). 0, or -1 when
 * there is no X display. */
int ad_x11_screen_size(int *ret_width, int *ret_height);

/* Does the X server show a viewable window of `pid` with this root rectangle (within 2 px)?
 * Looks at the root's children and, for window-manager frames, their children. 1 yes, 0 no,
 * -1 when there is no X display. */
int ad_x11_pid_shows_rect(int pid, int x, int y, int w, int h);

#endif
