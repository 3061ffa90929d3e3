/* overlay_paint.h: the pictures of the cursor overlay, as ARGB pixels, and how a window
 * shows one (src/helper/overlay_x11.c).
 *
 * A picture is drawn in memory (the built-in arrow, the click ripple's ring, or a PNG the
 * user gave), then shown by a window cut to its shape: the window's bounding region is the
 * picture's opaque pixels (alpha >= 128, in row runs through the SHAPE extension), and its
 * pixels are written with PutImage in bands that fit the server's maximum request. Without
 * a compositor there is no translucency: a pixel is either the picture's colour or the
 * window is not there. Needs a 24-bit TrueColor root visual at 32 bits per pixel (Xvfb's and
 * any modern server's default); elsewhere ad_paint_show returns -1 and nothing is drawn.
 */
#ifndef AD_OVERLAY_PAINT_H
#define AD_OVERLAY_PAINT_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

typedef struct {
    int w, h;
    uint32_t *px; /* w * h pixels, 0xAARRGGBB, malloc'd; NULL when empty */
    int hot_x, hot_y; /* the click point within the picture */
} ad_paint;

/* "#RRGGBB" as 0xFFRRGGBB; opaque black for anything else. */
uint32_t ad_paint_colour(const char *hex);

/* The built-in arrow scaled by size (0.5 to 4): a body of `fill` inside a 1-2 px rim of
 * `rim`; its tip is the hotspot. -1 on OOM. */
int ad_paint_arrow(ad_paint *out, double size, uint32_t fill, uint32_t rim);

/* A ring of outer radius r and width `width` in `colour`, centred in a 2r x 2r picture. */
int ad_paint_ring(ad_paint *out, int r, int width, uint32_t colour);

/* A PNG file (at most 1024 px per side: checked again here). -1 when it cannot be read. */
int ad_paint_png(ad_paint *out, const char *path);

void ad_paint_free(ad_paint *p);

/* Sets win's bounding shape to p's opaque pixels and writes p into win with gc. 0, or -1
 * when the screen's format is not one this draws (see above). The window must be p's size. */
int ad_paint_show(xcb_connection_t *c, const xcb_screen_t *screen, xcb_window_t win,
                  xcb_gcontext_t gc, const ad_paint *p);

/* Repaints p into win (an Expose): the pixels only, the shape stays. */
void ad_paint_redraw(xcb_connection_t *c, const xcb_screen_t *screen, xcb_window_t win,
                     xcb_gcontext_t gc, const ad_paint *p);

#endif
