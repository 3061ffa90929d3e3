/* overlay_paint.c: the overlay's pictures and shaped windows (overlay_paint.h). */
#include "helper/overlay_paint.h"

#include <ctype.h>
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/shape.h>

#define MAX_SIDE 1024

uint32_t ad_paint_colour(const char *hex)
{
    if (!hex || hex[0] != '#' || strlen(hex) != 7)
        return 0xff000000u;
    for (int i = 1; i < 7; i++)
        if (!isxdigit((unsigned char)hex[i]))
            return 0xff000000u;
    return 0xff000000u | (uint32_t)strtoul(hex + 1, NULL, 16);
}

static int paint_new(ad_paint *p, int w, int h)
{
    *p = (ad_paint){0};
    p->w = w;
    p->h = h;
    p->px = calloc((size_t)w * (size_t)h, sizeof(uint32_t));
    return p->px ? 0 : -1;
}

void ad_paint_free(ad_paint *p)
{
    free(p->px);
    *p = (ad_paint){0};
}

/* The classic arrow in a 12 x 19 grid, tip at (0, 0). */
static const double arrow[][2] = {{0, 0}, {0, 16}, {4, 12}, {7, 18.5}, {9.5, 17.5},
                                   {6.5, 11}, {11.5, 11}};
#define ARROW_N (sizeof(arrow) / sizeof(arrow[0]))

/* Even-odd point in polygon. */
static bool inside(double x, double y, double s)
{
    bool in = false;
    for (size_t i = 0, j = ARROW_N - 1; i < ARROW_N; j = i++) {
        double xi = arrow[i][0] * s, yi = arrow[i][1] * s;
        double xj = arrow[j][0] * s, yj = arrow[j][1] * s;
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi)
            in = !in;
    }
    return in;
}

int ad_paint_arrow(ad_paint *out, double size, uint32_t fill, uint32_t rim)
{
    double s = size < 0.5 ? 0.5 : size > 4 ? 4 : size;
    double rim_w = s >= 2 ? 2.0 : 1.2;
    int w = (int)ceil(12 * s + 2 * rim_w) + 1, h = (int)ceil(19 * s + 2 * rim_w) + 1;
    if (paint_new(out, w, h) < 0)
        return -1;
    out->hot_x = out->hot_y = (int)rim_w;
    /* The body is the polygon shifted by the rim; the rim is what lies within rim_w of it. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double px = x + 0.5 - rim_w, py = y + 0.5 - rim_w;
            if (inside(px, py, s)) {
                out->px[y * w + x] = fill;
                continue;
            }
            bool near = false;
            for (int k = 0; k < 8 && !near; k++) {
                double a = k * M_PI / 4;
                near = inside(px + rim_w * cos(a), py + rim_w * sin(a), s);
            }
            if (near)
                out->px[y * w + x] = rim;
        }
    return 0;
}

int ad_paint_ring(ad_paint *out, int r, int width, uint32_t colour)
{
    if (paint_new(out, 2 * r, 2 * r) < 0)
        return -1;
    out->hot_x = out->hot_y = r;
    for (int y = 0; y < 2 * r; y++)
        for (int x = 0; x < 2 * r; x++) {
            double d = hypot(x + 0.5 - r, y + 0.5 - r);
            if (d <= r && d >= r - width)
                out->px[y * 2 * r + x] = colour;
        }
    return 0;
}

int ad_paint_png(ad_paint *out, const char *path)
{
    png_image img;
    memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return -1;
    if (img.width < 1 || img.height < 1 || img.width > MAX_SIDE || img.height > MAX_SIDE) {
        png_image_free(&img);
        return -1;
    }
    /* BGRA bytes are 0xAARRGGBB words on a little-endian host. */
    img.format = PNG_FORMAT_BGRA;
    if (paint_new(out, (int)img.width, (int)img.height) < 0) {
        png_image_free(&img);
        return -1;
    }
    if (!png_image_finish_read(&img, NULL, out->px, 0, NULL)) {
        png_image_free(&img);
        ad_paint_free(out);
        return -1;
    }
    return 0;
}

static bool drawable_format(const xcb_screen_t *screen, xcb_connection_t *c)
{
    if (screen->root_depth != 24)
        return false;
    xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(xcb_get_setup(c));
    for (; f.rem; xcb_format_next(&f))
        if (f.data->depth == 24)
            return f.data->bits_per_pixel == 32;
    return false;
}

void ad_paint_redraw(xcb_connection_t *c, const xcb_screen_t *screen, xcb_window_t win,
                     xcb_gcontext_t gc, const ad_paint *p)
{
    if (!p->px || !drawable_format(screen, c))
        return;
    /* Bands of whole rows that fit one request (the header is 24 bytes). */
    size_t max = (size_t)xcb_get_maximum_request_length(c) * 4 - 64;
    int rows = (int)(max / ((size_t)p->w * 4));
    if (rows < 1)
        return;
    for (int y = 0; y < p->h; y += rows) {
        int n = p->h - y < rows ? p->h - y : rows;
        xcb_put_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, win, gc, (uint16_t)p->w, (uint16_t)n, 0,
                      (int16_t)y, 0, 24, (uint32_t)((size_t)p->w * n * 4),
                      (const uint8_t *)(p->px + (size_t)y * p->w));
    }
}

int ad_paint_show(xcb_connection_t *c, const xcb_screen_t *screen, xcb_window_t win,
                  xcb_gcontext_t gc, const ad_paint *p)
{
    if (!p->px || !drawable_format(screen, c))
        return -1;
    /* The opaque pixels as row runs: the window's bounding shape. */
    size_t cap = 64, n = 0;
    xcb_rectangle_t *rects = malloc(cap * sizeof(*rects));
    if (!rects)
        return -1;
    for (int y = 0; y < p->h; y++) {
        for (int x = 0; x < p->w;) {
            if ((p->px[y * p->w + x] >> 24) < 128) {
                x++;
                continue;
            }
            int start = x;
            while (x < p->w && (p->px[y * p->w + x] >> 24) >= 128)
                x++;
            if (n == cap) {
                xcb_rectangle_t *more = realloc(rects, 2 * cap * sizeof(*rects));
                if (!more) {
                    free(rects);
                    return -1;
                }
                rects = more;
                cap *= 2;
            }
            rects[n++] = (xcb_rectangle_t){(int16_t)start, (int16_t)y, (uint16_t)(x - start), 1};
        }
    }
    xcb_shape_rectangles(c, XCB_SHAPE_SO_SET, XCB_SHAPE_SK_BOUNDING, XCB_CLIP_ORDERING_UNSORTED,
                         win, 0, 0, (uint32_t)n, rects);
    free(rects);
    ad_paint_redraw(c, screen, win, gc, p);
    return 0;
}
