/* x11_capture.h: pictures of the X screen: displays (RandR) and captures (GetImage).
 *
 * A capture reads the pixels the X server holds, so it must know what they show:
 *  - without a compositing manager (no owner of _NET_WM_CM_S<screen>), the root window's
 *    pixels are what is on screen; a window's picture is its rectangle cut from the root,
 *    which is only its own while nothing is stacked above it there: a window covered by
 *    another viewable top level fails ACTION_FAILED details.reason "covered";
 *  - under a compositing manager each top level is redirected to its own pixmap, so a
 *    window's picture is read from its top-level (frame) window, covered or not, while the
 *    root holds nothing true: a display capture fails PLATFORM_NOT_SUPPORTED
 *    details.reason "compositing" (platforms/linux.md).
 * Each call opens its own connection to $DISPLAY and closes it; PLATFORM_NOT_SUPPORTED
 * without one. */
#ifndef AD_X11_CAPTURE_H
#define AD_X11_CAPTURE_H

#include "platform/adapter.h"

/* The RandR 1.5 monitors, primary first; without RandR monitors, one display "screen" of the
 * root window's size. Fills *ret (the caller frees it with ad_display_list_clear). */
int ad_x11_displays(ad_display_list *ret, ad_error *err);

/* Captures `w` (a window of list_windows: its pid, title and bounds find its X client) or,
 * with w NULL, the root rectangle `rect` (clipped to the screen; INVALID_ARGS when nothing is
 * left). WINDOW_NOT_FOUND when no X client of the window manager matches w. Fills *ret (the
 * caller clears it with ad_image_clear). */
int ad_x11_capture(const ad_window *w, const ad_rect *rect, ad_image *ret, ad_error *err);

#endif
