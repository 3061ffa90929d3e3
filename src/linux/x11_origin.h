/* x11_origin.h: where a top-level window sits on the X11 screen.
 *
 * GTK 4.8 answers Component.GetExtents(SCREEN) with coordinates relative to its own window
 * (a GTK4 surface does not know its position). To report screen coordinates the adapter adds
 * the window's origin, read from the X server: the client window with the app's _NET_WM_PID
 * and the same title in _NET_CLIENT_LIST, translated to root coordinates. */
#ifndef AD_X11_ORIGIN_H
#define AD_X11_ORIGIN_H

#include <stdbool.h>

/* Finds the origin of the window of `pid` titled `title` (NULL: the only window of pid).
 * Returns 0 and fills x, y; -1 when there is no X display, no such window, or several. */
int ad_x11_window_origin(int pid, const char *title, int *ret_x, int *ret_y);

/* The size of the X screen (the root window, which spans every monitor). 0, or -1 when
 * there is no X display. */
int ad_x11_screen_size(int *ret_width, int *ret_height);

/* Does the X server show a viewable window of `pid` with this root rectangle (within 2 px)?
 * Looks at the root's children and, for window-manager frames, their children. 1 yes, 0 no,
 * -1 when there is no X display. */
int ad_x11_pid_shows_rect(int pid, int x, int y, int w, int h);

#endif
