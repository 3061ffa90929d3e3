/* x11_capture.c: RandR displays and GetImage captures of the root or a top-level window. */
#include "linux/x11_input_region.h"
#include "linux/x11_capture.h"

#include "linux/x11_connect.h"
#include "linux/physical.h" /* ad_linux_wayland_session */
#include "linux/x11_origin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/randr.h>
#include <xcb/xcb.h>

typedef struct {
    xcb_connection_t *c;
    xcb_screen_t *screen;
    int screen_no;
} conn;

static int open_conn(conn *x, ad_error *err)
{
    memset(x, 0, sizeof(*x));
    if (ad_linux_wayland_session()) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "Displays and screen capture need X11; this is a "
                                                     "Wayland session");
        ad_error_detail(err, "reason", json_string("wayland_session"));
        return -1;
    }
    if (!getenv("DISPLAY")) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "No X display: DISPLAY is not set");
        ad_error_suggest(err, "Run agent-desktop inside the graphical session");
        return -1;
    }
    x->c = ad_x11_connect(NULL, &x->screen_no);
    if (xcb_connection_has_error(x->c)) {
        xcb_disconnect(x->c);
        x->c = NULL;
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "Cannot connect to the X display");
        ad_error_platform_detail(err, getenv("DISPLAY"));
        return -1;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(x->c));
    for (int i = 0; i < x->screen_no && it.rem; i++)
        xcb_screen_next(&it);
    x->screen = it.data;
    return 0;
}

static void close_conn(conn *x)
{
    if (x->c)
        xcb_disconnect(x->c);
    x->c = NULL;
}

static char *atom_name(xcb_connection_t *c, xcb_atom_t atom)
{
    xcb_get_atom_name_reply_t *r = xcb_get_atom_name_reply(c, xcb_get_atom_name(c, atom), NULL);
    char *s = r ? strndup(xcb_get_atom_name_name(r), (size_t)xcb_get_atom_name_name_length(r))
                : NULL;
    free(r);
    return s;
}

int ad_x11_displays(ad_display_list *ret, ad_error *err)
{
    conn x;
    memset(ret, 0, sizeof(*ret));
    if (open_conn(&x, err) < 0)
        return -1;
    xcb_randr_get_monitors_reply_t *m = xcb_randr_get_monitors_reply(
        x.c, xcb_randr_get_monitors(x.c, x.screen->root, 1), NULL);
    int n = m ? xcb_randr_get_monitors_monitors_length(m) : 0;
    ret->items = calloc(n > 0 ? (size_t)n : 1, sizeof(*ret->items));
    if (!ret->items) {
        free(m);
        close_conn(&x);
        ad_error_set(err, AD_INTERNAL, "Out of memory");
        return -1;
    }
    xcb_randr_monitor_info_iterator_t it = m ? xcb_randr_get_monitors_monitors_iterator(m)
                                             : (xcb_randr_monitor_info_iterator_t){0};
    for (int i = 0; i < n; i++, xcb_randr_monitor_info_next(&it)) {
        xcb_randr_monitor_info_t *mi = it.data;
        /* primary first: a primary monitor goes to the front, the rest keep RandR order */
        size_t at = mi->primary ? 0 : ret->count;
        memmove(&ret->items[at + 1], &ret->items[at], (ret->count - at) * sizeof(ad_display));
        char *name = atom_name(x.c, mi->name);
        ret->items[at] = (ad_display){.id = name ? name : strdup("screen"),
                                      .bounds = {mi->x, mi->y, mi->width, mi->height},
                                      .scale = 1.0, .is_primary = mi->primary};
        ret->count++;
    }
    free(m);
    if (ret->count == 0) /* no RandR monitors: the root window is the one display */
        ret->items[ret->count++] =
            (ad_display){.id = strdup("screen"), .scale = 1.0, .is_primary = true,
                         .bounds = {0, 0, x.screen->width_in_pixels, x.screen->height_in_pixels}};
    else if (!ret->items[0].is_primary) /* none marked primary: the first one is */
        ret->items[0].is_primary = true;
    close_conn(&x);
    return 0;
}

/* A compositing manager owns the _NET_WM_CM_S<screen> selection (EWMH). */
static bool compositing(conn *x)
{
    char name[32];
    snprintf(name, sizeof(name), "_NET_WM_CM_S%d", x->screen_no);
    xcb_intern_atom_reply_t *a = xcb_intern_atom_reply(
        x->c, xcb_intern_atom(x->c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_get_selection_owner_reply_t *o =
        a ? xcb_get_selection_owner_reply(x->c, xcb_get_selection_owner(x->c, a->atom), NULL)
          : NULL;
    bool on = o && o->owner != XCB_WINDOW_NONE;
    free(a);
    free(o);
    return on;
}

/* The shift and width of a colour mask, and one channel of a pixel scaled to 8 bits. */
static void mask_shape(uint32_t mask, int *shift, int *bits)
{
    *shift = 0;
    *bits = 0;
    while (mask && !(mask & 1u)) {
        mask >>= 1;
        (*shift)++;
    }
    while (mask & 1u) {
        mask >>= 1;
        (*bits)++;
    }
}

static unsigned char channel(uint32_t pix, int shift, int bits)
{
    uint32_t v = (pix >> shift) & ((1u << bits) - 1u);
    return bits >= 8 ? (unsigned char)(v >> (bits - 8)) : (unsigned char)(v * 255u / ((1u << bits) - 1u));
}

static const xcb_visualtype_t *find_visual(const xcb_screen_t *s, xcb_visualid_t id)
{
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(s); d.rem;
         xcb_depth_next(&d))
        for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem;
             xcb_visualtype_next(&v))
            if (v.data->visual_id == id)
                return v.data;
    return NULL;
}

static int bits_per_pixel(xcb_connection_t *c, uint8_t depth)
{
    const xcb_setup_t *setup = xcb_get_setup(c);
    for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem;
         xcb_format_next(&f))
        if (f.data->depth == depth)
            return f.data->bits_per_pixel;
    return 0;
}

/* GetImage (ZPixmap) of w x h at (x0, y0) of drawable d, as RGB. TrueColor 32 bpp only. */
static int get_rgb(conn *x, xcb_drawable_t d, int x0, int y0, int w, int h, ad_image *ret,
                   ad_error *err)
{
    xcb_generic_error_t *e = NULL;
    xcb_get_image_reply_t *r = xcb_get_image_reply(
        x->c, xcb_get_image(x->c, XCB_IMAGE_FORMAT_Z_PIXMAP, d, (int16_t)x0, (int16_t)y0,
                            (uint16_t)w, (uint16_t)h, ~0u), &e);
    if (!r) {
        ad_error_set(err, AD_ACTION_FAILED, "The X server refused the image read");
        char detail[48];
        snprintf(detail, sizeof(detail), "GetImage error %u", e ? e->error_code : 0);
        ad_error_platform_detail(err, detail);
        free(e);
        return -1;
    }
    const xcb_visualtype_t *v = find_visual(x->screen, r->visual ? r->visual
                                                                 : x->screen->root_visual);
    int bpp = bits_per_pixel(x->c, r->depth);
    size_t len = (size_t)xcb_get_image_data_length(r);
    size_t stride = h ? len / (size_t)h : 0;
    if (!v || v->_class != XCB_VISUAL_CLASS_TRUE_COLOR || bpp != 32 || stride < (size_t)w * 4) {
        char detail[48];
        snprintf(detail, sizeof(detail), "depth %d, %d bits per pixel", r->depth, bpp);
        free(r);
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "The X screen's pixel format is not 32-bit TrueColor");
        ad_error_platform_detail(err, detail);
        return -1;
    }
    int rs, rb, gs, gb, bs, bb;
    mask_shape(v->red_mask, &rs, &rb);
    mask_shape(v->green_mask, &gs, &gb);
    mask_shape(v->blue_mask, &bs, &bb);
    bool msb = xcb_get_setup(x->c)->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;
    ret->rgb = malloc((size_t)w * (size_t)h * 3);
    if (!ret->rgb) {
        free(r);
        ad_error_set(err, AD_INTERNAL, "Out of memory");
        return -1;
    }
    const uint8_t *src = xcb_get_image_data(r);
    unsigned char *o = ret->rgb;
    for (int row = 0; row < h; row++) {
        const uint8_t *p = src + (size_t)row * stride;
        for (int col = 0; col < w; col++, p += 4) {
            uint32_t pix = msb ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
                                     (uint32_t)p[2] << 8 | p[3]
                               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
                                     (uint32_t)p[1] << 8 | p[0];
            *o++ = channel(pix, rs, rb);
            *o++ = channel(pix, gs, gb);
            *o++ = channel(pix, bs, bb);
        }
    }
    ret->width = w;
    ret->height = h;
    free(r);
    return 0;
}

/* r clipped to the screen, in whole pixels; false when nothing is left. */
static bool clip(const conn *x, const ad_rect *r, int *x0, int *y0, int *w, int *h)
{
    int l = (int)floor(r->x), t = (int)floor(r->y);
    int rr = (int)ceil(r->x + r->width), b = (int)ceil(r->y + r->height);
    l = l < 0 ? 0 : l;
    t = t < 0 ? 0 : t;
    rr = rr > x->screen->width_in_pixels ? x->screen->width_in_pixels : rr;
    b = b > x->screen->height_in_pixels ? x->screen->height_in_pixels : b;
    *x0 = l;
    *y0 = t;
    *w = rr - l;
    *h = b - t;
    return *w > 0 && *h > 0;
}

/* The child of the root that holds w (w itself, or its window manager's frame). */
static xcb_window_t top_level_of(conn *x, xcb_window_t w)
{
    for (int depth = 0; w && depth < 64; depth++) {
        xcb_query_tree_reply_t *t = xcb_query_tree_reply(x->c, xcb_query_tree(x->c, w), NULL);
        xcb_window_t parent = t ? t->parent : XCB_WINDOW_NONE;
        free(t);
        if (parent == x->screen->root)
            return w;
        w = parent;
    }
    return XCB_WINDOW_NONE;
}

static int pid_of(conn *x, xcb_window_t w)
{
    xcb_intern_atom_reply_t *a =
        xcb_intern_atom_reply(x->c, xcb_intern_atom(x->c, 0, 11, "_NET_WM_PID"), NULL);
    xcb_get_property_reply_t *p =
        a ? xcb_get_property_reply(x->c, xcb_get_property(x->c, 0, w, a->atom,
                                                          XCB_ATOM_CARDINAL, 0, 1), NULL)
          : NULL;
    int pid = p && p->format == 32 && xcb_get_property_value_length(p) == 4
                  ? (int)*(uint32_t *)xcb_get_property_value(p) : 0;
    free(a);
    free(p);
    return pid;
}

/* 1 when a viewable, drawn top level stacked above `top` (the root's children come bottom
 * first) intersects the rectangle, 0 when none, -1 when the stack cannot be read. An
 * override-redirect popup of the same process (its open menu) is part of its picture. */
static int covered(conn *x, xcb_window_t top, int pid, int x0, int y0, int w, int h,
                   xcb_window_t *ret_by)
{
    xcb_query_tree_reply_t *t =
        xcb_query_tree_reply(x->c, xcb_query_tree(x->c, x->screen->root), NULL);
    if (!t)
        return -1;
    const xcb_window_t *kids = xcb_query_tree_children(t);
    int n = xcb_query_tree_children_length(t), at = -1, rc = 0;
    for (int i = 0; i < n; i++)
        if (kids[i] == top)
            at = i;
    rc = at < 0 ? -1 : 0;
    for (int i = at + 1; at >= 0 && i < n && rc == 0; i++) {
        xcb_get_window_attributes_reply_t *a = xcb_get_window_attributes_reply(
            x->c, xcb_get_window_attributes(x->c, kids[i]), NULL);
        xcb_get_geometry_reply_t *g =
            xcb_get_geometry_reply(x->c, xcb_get_geometry(x->c, kids[i]), NULL);
        bool drawn = a && g && a->map_state == XCB_MAP_STATE_VIEWABLE &&
                     a->_class != XCB_WINDOW_CLASS_INPUT_ONLY;
        if (drawn) {
            int gw = g->width + 2 * g->border_width, gh = g->height + 2 * g->border_width;
            drawn = g->x < x0 + w && x0 < g->x + gw && g->y < y0 + h && y0 < g->y + gh;
        }
        if (drawn && a->override_redirect && pid > 0 && pid_of(x, kids[i]) == pid)
            drawn = false;
        /* The cursor overlay (override-redirect, no input) is presentation drawn over the
         * apps, not a window that hides this one: its pixels are part of the picture. */
        if (drawn && a->override_redirect && ad_x11_input_transparent(x->c, kids[i]))
            drawn = false;
        if (drawn) {
            *ret_by = kids[i];
            rc = 1;
        }
        free(a);
        free(g);
    }
    free(t);
    return rc;
}

static int capture_window(conn *x, const ad_window *w, ad_image *ret, ad_error *err)
{
    ad_x11_clients clients;
    const ad_x11_client *cl = NULL;
    if (w->bounds_known && ad_x11_clients_read(&clients) == 0)
        cl = ad_x11_client_of_window(&clients, w->pid, w->title, &w->bounds, false);
    else
        memset(&clients, 0, sizeof(clients));
    xcb_window_t client = cl ? cl->window : XCB_WINDOW_NONE;
    ad_x11_clients_free(&clients);
    if (!client) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND,
                     "No X11 window of the window manager matches this window");
        ad_error_suggest(err, "Run list-windows and pass the window's id with --window-id");
        return -1;
    }
    int x0, y0, cw, ch;
    xcb_window_t top = top_level_of(x, client);
    xcb_get_window_attributes_reply_t *a =
        top ? xcb_get_window_attributes_reply(x->c, xcb_get_window_attributes(x->c, top), NULL)
            : NULL;
    bool viewable = a && a->map_state == XCB_MAP_STATE_VIEWABLE;
    free(a);
    if (!viewable || !clip(x, &w->bounds, &x0, &y0, &cw, &ch)) {
        ad_error_set(err, AD_ACTION_FAILED, "The window is not on screen (minimized or "
                                            "outside the display)");
        ad_error_detail(err, "reason", json_string("not_viewable"));
        ad_error_suggest(err, "Restore the window, then take the screenshot again");
        return -1;
    }
    if (compositing(x)) { /* redirected: the window's own pixmap holds its pixels */
        xcb_translate_coordinates_reply_t *o = xcb_translate_coordinates_reply(
            x->c, xcb_translate_coordinates(x->c, top, x->screen->root, 0, 0), NULL);
        int ox = o ? o->dst_x : 0, oy = o ? o->dst_y : 0;
        free(o);
        ret->x = x0;
        ret->y = y0;
        return get_rgb(x, top, x0 - ox, y0 - oy, cw, ch, ret, err);
    }
    xcb_window_t by = XCB_WINDOW_NONE;
    int cov = covered(x, top, w->pid, x0, y0, cw, ch, &by);
    if (cov != 0) {
        ad_error_set(err, AD_ACTION_FAILED,
                     cov > 0 ? "Another window covers this window, and without a compositing "
                               "window manager its pixels under it are not kept"
                             : "The X window stack could not be read to prove the window "
                               "uncovered");
        ad_error_detail(err, "reason", json_string(cov > 0 ? "covered" : "stack_unknown"));
        if (cov > 0) {
            char id[16];
            snprintf(id, sizeof(id), "0x%x", (unsigned)by);
            ad_error_detail(err, "covered_by", json_string(id));
        }
        ad_error_suggest(err, "Raise the window above the others, or capture the display "
                              "with --screen 0");
        return -1;
    }
    ret->x = x0;
    ret->y = y0;
    return get_rgb(x, x->screen->root, x0, y0, cw, ch, ret, err);
}

int ad_x11_capture(const ad_window *w, const ad_rect *rect, ad_image *ret, ad_error *err)
{
    conn x;
    memset(ret, 0, sizeof(*ret));
    if (open_conn(&x, err) < 0)
        return -1;
    int rc, x0, y0, cw, ch;
    if (w) {
        rc = capture_window(&x, w, ret, err);
    } else if (compositing(&x)) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "A compositing window manager runs: the root window does not hold what "
                     "the display shows");
        ad_error_detail(err, "reason", json_string("compositing"));
        ad_error_suggest(err, "Capture one window with --app or --window-id instead");
        rc = -1;
    } else if (!clip(&x, rect, &x0, &y0, &cw, &ch)) {
        ad_error_set(err, AD_INVALID_ARGS, "The rectangle to capture is off the screen");
        rc = -1;
    } else {
        ret->x = x0;
        ret->y = y0;
        rc = get_rgb(&x, x.screen->root, x0, y0, cw, ch, ret, err);
    }
    close_conn(&x);
    return rc;
}
