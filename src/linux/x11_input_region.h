/* x11_input_region.h: whether a window takes pointer input at all.
 *
 * A window whose input region (SHAPE's ShapeInput, set with XFixes SetWindowShapeRegion) is
 * empty never receives a pointer event: the server sends clicks on it to the window below.
 * The cursor overlay's windows are such windows (src/helper/overlay_x11.h), drawn over the
 * apps. Every X read that asks "which window is at this point" (the headed hit test), "is this
 * window covered" (screenshot) or "which override-redirect windows are popups" (list-windows,
 * surfaces) skips them, so the overlay never changes what those reads, and the actions and
 * pictures built on them, find.
 *
 * Cost: one ShapeGetRectangles round trip per window asked about. Without the SHAPE
 * extension every window takes input (false).
 */
#ifndef AD_X11_INPUT_REGION_H
#define AD_X11_INPUT_REGION_H

#include <stdbool.h>
#include <xcb/xcb.h>

/* True when w's input region is empty (it takes no pointer input). */
bool ad_x11_input_transparent(xcb_connection_t *c, xcb_window_t w);

#endif
