/* x11_geometry.h: matching an AT-SPI window to its X11 client window, and what that X
 * window says about the window's real place. Pure: the X reads are in x11_origin.c.
 *
 * Measured on Debian 12 (GTK 4.8.3, openbox, no compositor), gnome-calculator: the X window
 * is 365x508 at 457,276; AT-SPI says the frame is 0,0 355x498 and the '7' key 16,300 55x40.
 * The screenshot shows the solid CSD border drawn in the 5 px ring of the X window (no
 * _GTK_FRAME_EXTENTS: openbox does not support it), the '7' key's pixels at X-window
 * 17..79 x 303..346, i.e. its AT-SPI rectangle + 5,5 (its content box: GTK 4.8 leaves out the
 * key's CSS padding, the centre is exact). So GTK 4.8 extents are relative to the GtkWindow
 * widget's content box, which GTK centres inside the visible window rectangle (the X window
 * minus _GTK_FRAME_EXTENTS, the invisible shadow of a composited session).
 *
 * A GTK 4.8 popover is its own override-redirect surface, but its extents are computed
 * through the widget tree: the GtkPopoverMenu of the calculator's mode button is reported at
 * the button's place (105,6) with its surface's size (277x232, the X window at 468,300), its
 * items at that place plus their offset inside the surface. */
#ifndef AD_X11_GEOMETRY_H
#define AD_X11_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/node.h"

/* One managed client window (_NET_CLIENT_LIST), or a viewable override-redirect top level
 * (a GTK 4 popover's surface), as the X server describes it. */
typedef struct ad_x11_client {
    bool popup;                /* override-redirect: never a window list-windows lists */
    uint32_t window;           /* the X window (xcb_window_t) */
    int pid;                   /* _NET_WM_PID, 0 when unset */
    int x, y, width, height;   /* the client window's rectangle in root coordinates */
    int frame_left, frame_right, frame_top, frame_bottom; /* _GTK_FRAME_EXTENTS, 0 unset */
    int wm_left, wm_right, wm_top, wm_bottom; /* _NET_FRAME_EXTENTS (server-side frame) */
    char *title;               /* _NET_WM_NAME, else WM_NAME; NULL when neither; owned */
} ad_x11_client;

typedef struct ad_x11_clients {
    ad_x11_client *items; /* owned */
    size_t count;
} ad_x11_clients;

void ad_x11_clients_free(ad_x11_clients *l);

/* The one client of `pid` that is the AT-SPI window titled `title` (NULL or "": any title)
 * with AT-SPI rectangle `atspi` (NULL: unknown). A window-relative rectangle (GTK 4) is
 * compared by size (the X window without shadow holds it), a screen one by place and size
 * (the X window, its part without shadow or its visible rectangle, within 2 px). NULL when none or several match: a guess
 * would put bounds or a title on the wrong window. Borrowed from l. */
const ad_x11_client *ad_x11_client_pick(const ad_x11_clients *l, int pid, const char *title,
                                        const ad_rect *atspi, bool window_relative);

/* The X client of an AT-SPI window: ad_x11_client_pick by pid, title and rectangle, then,
 * for a screen rectangle when the X title differs (or there is none), by pid and rectangle
 * alone (a window-relative rectangle says too little without the title), then, when the
 * rectangle matches nothing (a minimized window's), by pid and title alone. The one mapping
 * list-windows (on the AT-SPI extents) and the window commands (on the bounds list-windows
 * reported) use. NULL when none or several match. Borrowed from l. */
const ad_x11_client *ad_x11_client_of_window(const ad_x11_clients *l, int pid,
                                             const char *title, const ad_rect *atspi,
                                             bool window_relative);

/* The one viewable popup surface of `pid` sized w x h (within 1 px); NULL when none or
 * several. Borrowed from l. */
const ad_x11_client *ad_x11_popup_pick(const ad_x11_clients *l, int pid, double w, double h);

/* What a screenshot of the window shows: the X window minus GTK's invisible shadow
 * (_GTK_FRAME_EXTENTS), plus the window manager's frame (_NET_FRAME_EXTENTS) around it. */
ad_rect ad_x11_client_visible(const ad_x11_client *c);

/* The screen point of a GTK 4 window's (0,0), for a frame of AT-SPI size frame_w x frame_h:
 * the shadowless X window's origin plus the centred inset (see the measurement above). */
void ad_x11_client_relative_origin(const ad_x11_client *c, double frame_w, double frame_h,
                                   int *ret_x, int *ret_y);

#endif
