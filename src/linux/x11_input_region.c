/* x11_input_region.c: a window's empty input region (x11_input_region.h). */
#include "linux/x11_input_region.h"

#include "linux/x11_connect.h"

#include <stdlib.h>
#include <xcb/shape.h>

bool ad_x11_input_transparent(xcb_connection_t *c, xcb_window_t w)
{
    if (!ad_x11_has_extension(c, AD_X11_EXT_SHAPE))
        return false;
    xcb_shape_get_rectangles_reply_t *r = xcb_shape_get_rectangles_reply(
        c, xcb_shape_get_rectangles(c, w, XCB_SHAPE_SK_INPUT), NULL);
    bool empty = r && r->rectangles_len == 0;
    free(r);
    return empty;
}
