/* overlay_x11.c: the helper's "overlay" service, agent cursors drawn on X11
 * (overlay_x11.h). */
#include "helper/overlay_x11.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/shape.h>
#include <xcb/xcb.h>
#include <xcb/xfixes.h>

#include "helper/helper_proto.h"
#include "helper/overlay_label.h"
#include "helper/overlay_x11_private.h"

#define OUTLINE_PX 3

ad_overlay *ad_overlay_new(void)
{
    return calloc(1, sizeof(ad_overlay));
}

static void cursor_free(ad_overlay *o, cursor *k)
{
    ov_glide_fail_all(k, "the cursor was stopped before its glide ended");
    if (o->c && !xcb_connection_has_error(o->c)) {
        xcb_window_t w[] = {k->body, k->label, k->outline, k->ripple};
        for (size_t i = 0; i < 4; i++)
            if (w[i])
                xcb_destroy_window(o->c, w[i]);
    }
    ad_paint_free(&k->body_px);
    ad_paint_free(&k->ripple_px);
    free(k->session);
    free(k->name);
    free(k);
}

static void forget_all(ad_overlay *o)
{
    for (size_t i = 0; i < o->n; i++)
        cursor_free(o, o->cursors[i]);
    free(o->cursors);
    o->cursors = NULL;
    o->n = 0;
}

static void disconnect(ad_overlay *o)
{
    forget_all(o);
    if (o->c)
        xcb_disconnect(o->c);
    o->c = NULL;
    free(o->display);
    o->display = NULL;
}

void ad_overlay_free(ad_overlay *o)
{
    if (!o)
        return;
    disconnect(o);
    free(o);
}

int ad_overlay_fd(const ad_overlay *o)
{
    return o->c ? xcb_get_file_descriptor(o->c) : -1;
}

bool ad_overlay_holds(const ad_overlay *o)
{
    return o->n > 0;
}

int ad_overlay_timeout_ms(const ad_overlay *o)
{
    int64_t soonest = ov_glide_next_us(o);
    for (size_t i = 0; i < o->n; i++)
        if (o->cursors[i]->effects_until &&
            (!soonest || o->cursors[i]->effects_until < soonest))
            soonest = o->cursors[i]->effects_until;
    if (!soonest)
        return -1;
    int64_t left = (soonest - ad_helper_now_us()) / 1000 + 1;
    return left < 0 ? 0 : (int)left;
}

static int connect_display(ad_overlay *o, const char *display)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return -1;
    }
    const xcb_query_extension_reply_t *shape = xcb_get_extension_data(c, &xcb_shape_id);
    /* XFixes requests need the version handshake first. */
    xcb_xfixes_query_version_reply_t *fx =
        xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 2, 0), NULL);
    if (!shape || !shape->present || !fx || fx->major_version < 2) {
        free(fx);
        xcb_disconnect(c);
        return -1;
    }
    free(fx);
    o->c = c;
    o->display = strdup(display);
    o->screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    xcb_font_t font = xcb_generate_id(c);
    xcb_void_cookie_t fc = xcb_open_font_checked(c, font, 5, "fixed");
    xcb_generic_error_t *e = xcb_request_check(c, fc);
    o->has_font = !e;
    free(e);
    o->gc = xcb_generate_id(c);
    uint32_t vals[] = {0xffffff, 0, font};
    xcb_create_gc(c, o->gc, o->screen->root,
                  XCB_GC_FOREGROUND | XCB_GC_BACKGROUND | (o->has_font ? XCB_GC_FONT : 0), vals);
    return 0;
}

/* An override-redirect window that takes no input and no focus. */
static xcb_window_t make_window(ad_overlay *o, const char *role, const cursor *k, uint32_t bg)
{
    xcb_connection_t *c = o->c;
    xcb_window_t w = xcb_generate_id(c);
    uint32_t vals[] = {bg, 1, XCB_EVENT_MASK_EXPOSURE};
    xcb_create_window(c, XCB_COPY_FROM_PARENT, w, o->screen->root, 0, 0, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, o->screen->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, vals);
    /* An empty input region: pointer events go to whatever lies below. */
    xcb_xfixes_region_t none = xcb_generate_id(c);
    xcb_xfixes_create_region(c, none, 0, NULL);
    xcb_xfixes_set_window_shape_region(c, w, XCB_SHAPE_SK_INPUT, 0, 0, none);
    xcb_xfixes_destroy_region(c, none);
    char name[512];
    int n = snprintf(name, sizeof(name), "agent-desktop %s %s/%s", role, k->session, k->name);
    if (n > 0)
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                            (uint32_t)(n < (int)sizeof(name) ? n : (int)sizeof(name) - 1),
                            name);
    uint32_t hints[9] = {1 /* InputHint */, 0 /* input: false */};
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_HINTS, XCB_ATOM_WM_HINTS, 32, 9,
                        hints);
    return w;
}

static cursor *find_cursor(ad_overlay *o, const char *session, const char *name, bool create)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->cursors[i]->session, session) == 0 &&
            strcmp(o->cursors[i]->name, name) == 0)
            return o->cursors[i];
    if (!create)
        return NULL;
    cursor **more = realloc(o->cursors, (o->n + 1) * sizeof(*more));
    cursor *k = calloc(1, sizeof(*k));
    if (more)
        o->cursors = more;
    if (!more || !k) {
        free(k);
        return NULL;
    }
    k->session = strdup(session);
    k->name = strdup(name);
    if (!k->session || !k->name) {
        free(k->session);
        free(k->name);
        free(k);
        return NULL;
    }
    for (size_t i = 0; i < o->n; i++) /* a session hidden for input hides its new cursors */
        if (strcmp(o->cursors[i]->session, session) == 0)
            k->hidden = o->cursors[i]->hidden;
    k->body = make_window(o, "cursor", k, 0);
    k->label = make_window(o, "cursor-label", k, 0x000000);
    k->outline = make_window(o, "cursor-outline", k, 0);
    k->ripple = make_window(o, "cursor-ripple", k, 0);
    o->cursors[o->n++] = k;
    return k;
}

double ov_num(const json_t *style, const char *key, double fallback)
{
    json_t *v = json_object_get(style, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

static const char *text(const json_t *style, const char *key)
{
    return json_string_value(json_object_get(style, key));
}

static void configure(ad_overlay *o, xcb_window_t w, int x, int y, int width, int height)
{
    uint32_t v[] = {(uint32_t)x, (uint32_t)y, (uint32_t)(width < 1 ? 1 : width),
                    (uint32_t)(height < 1 ? 1 : height)};
    xcb_configure_window(o->c, w, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y |
                                      XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, v);
}

static void move(ad_overlay *o, xcb_window_t w, int x, int y)
{
    uint32_t v[] = {(uint32_t)x, (uint32_t)y, XCB_STACK_MODE_ABOVE};
    xcb_configure_window(o->c, w, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y |
                                      XCB_CONFIG_WINDOW_STACK_MODE, v);
}

void ov_raise(ad_overlay *o, xcb_window_t w)
{
    uint32_t v[] = {XCB_STACK_MODE_ABOVE};
    xcb_configure_window(o->c, w, XCB_CONFIG_WINDOW_STACK_MODE, v);
}

/* Draws the body from the style: its image (or pointer image over a pressable target) when
 * one loads, else the arrow. */
void ov_apply_style(ad_overlay *o, cursor *k, const json_t *style, bool pressable)
{
    ad_paint_free(&k->body_px);
    uint32_t accent = ad_paint_colour(text(style, "accent"));
    const char *fill = text(style, "fill");
    const char *image = pressable && text(style, "pointer_image") ? "pointer_image" : "image";
    const char *hotspot = strcmp(image, "image") == 0 ? "hotspot" : "pointer_hotspot";
    if (text(style, image) && ad_paint_png(&k->body_px, text(style, image)) == 0) {
        json_t *hs = json_object_get(style, hotspot);
        k->body_px.hot_x = (int)json_integer_value(json_array_get(hs, 0));
        k->body_px.hot_y = (int)json_integer_value(json_array_get(hs, 1));
    } else {
        ad_paint_arrow(&k->body_px, ov_num(style, "size", 1.0),
                       fill ? ad_paint_colour(fill) : accent,
                       ad_paint_colour(text(style, "rim")));
    }
    configure(o, k->body, (int)k->x - k->body_px.hot_x, (int)k->y - k->body_px.hot_y,
              k->body_px.w, k->body_px.h);
    ad_paint_show(o->c, o->screen, k->body, o->gc, &k->body_px);
    uint32_t bg[] = {accent};
    xcb_change_window_attributes(o->c, k->outline, XCB_CW_BACK_PIXEL, bg);
    ad_paint_free(&k->ripple_px);
    double size = ov_num(style, "size", 1.0);
    ad_paint_ring(&k->ripple_px, (int)lround(16 * size), size >= 2 ? 4 : 3, accent);
    ad_overlay_label_text(text(style, "label"), (int)ov_num(style, "max_words", 6),
                          k->label_text, sizeof(k->label_text));
}

static void draw_label(ad_overlay *o, const cursor *k)
{
    size_t n = strlen(k->label_text);
    if (o->has_font && n)
        xcb_image_text_8(o->c, (uint8_t)(n > 255 ? 255 : n), k->label, o->gc, 6, 14,
                         k->label_text);
}

/* Puts the body (and the label beside it) at the cursor's point, above every window. */
void ov_place(ad_overlay *o, cursor *k)
{
    int bx = (int)lround(k->x) - k->body_px.hot_x, by = (int)lround(k->y) - k->body_px.hot_y;
    move(o, k->body, bx, by);
    if (k->label_text[0])
        move(o, k->label, bx + k->body_px.w + 4, by + k->body_px.h / 2);
}

void ov_show_body(ad_overlay *o, cursor *k)
{
    if (!k->placed) { /* a new cursor starts where the real pointer is */
        xcb_query_pointer_reply_t *p =
            xcb_query_pointer_reply(o->c, xcb_query_pointer(o->c, o->screen->root), NULL);
        k->x = p ? p->root_x : o->screen->width_in_pixels / 2;
        k->y = p ? p->root_y : o->screen->height_in_pixels / 2;
        free(p);
        k->placed = true;
    }
    if (k->label_text[0]) {
        int w = (int)strlen(k->label_text) * 6 + 12;
        configure(o, k->label, 0, 0, w, 20);
        if (!k->hidden)
            xcb_map_window(o->c, k->label);
    } else {
        xcb_unmap_window(o->c, k->label);
    }
    ov_place(o, k);
    if (!k->hidden)
        xcb_map_window(o->c, k->body);
    draw_label(o, k);
}

static void redraw(ad_overlay *o, xcb_window_t w)
{
    for (size_t i = 0; i < o->n; i++) {
        cursor *k = o->cursors[i];
        if (w == k->body)
            ad_paint_redraw(o->c, o->screen, w, o->gc, &k->body_px);
        else if (w == k->ripple)
            ad_paint_redraw(o->c, o->screen, w, o->gc, &k->ripple_px);
        else if (w == k->label)
            draw_label(o, k);
    }
}

/* Handles every queued event; -1 when the connection broke. */
int ov_drain(ad_overlay *o)
{
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(o->c))) {
        if ((ev->response_type & 0x7f) == XCB_EXPOSE)
            redraw(o, ((xcb_expose_event_t *)ev)->window);
        free(ev); /* errors (response_type 0) of a window already gone: nothing to do */
    }
    xcb_flush(o->c);
    return xcb_connection_has_error(o->c) ? -1 : 0;
}

int ad_overlay_dispatch(ad_overlay *o)
{
    if (!o->c)
        return 0;
    ov_glide_advance(o);
    int64_t now = ad_helper_now_us();
    for (size_t i = 0; i < o->n; i++) {
        cursor *k = o->cursors[i];
        if (k->effects_until && now >= k->effects_until) {
            xcb_unmap_window(o->c, k->outline);
            xcb_unmap_window(o->c, k->ripple);
            k->effects_until = 0;
        }
    }
    if (ov_drain(o) < 0) {
        disconnect(o);
        return -1;
    }
    return 0;
}

/* True when the server reports w mapped and viewable (a round trip). */
bool ov_viewable(ad_overlay *o, xcb_window_t w)
{
    xcb_get_window_attributes_reply_t *a =
        xcb_get_window_attributes_reply(o->c, xcb_get_window_attributes(o->c, w), NULL);
    bool v = a && a->map_state == XCB_MAP_STATE_VIEWABLE;
    free(a);
    return v;
}

void ov_show_outline(ad_overlay *o, cursor *k, const json_t *bounds)
{
    int x = (int)json_number_value(json_array_get(bounds, 0)) - OUTLINE_PX;
    int y = (int)json_number_value(json_array_get(bounds, 1)) - OUTLINE_PX;
    int w = (int)json_number_value(json_array_get(bounds, 2)) + 2 * OUTLINE_PX;
    int h = (int)json_number_value(json_array_get(bounds, 3)) + 2 * OUTLINE_PX;
    if (w <= 2 * OUTLINE_PX || h <= 2 * OUTLINE_PX)
        return;
    configure(o, k->outline, x, y, w, h);
    /* A frame: the four edges, the inside left out so the target shows through. */
    xcb_rectangle_t r[] = {{0, 0, (uint16_t)w, OUTLINE_PX},
                           {0, (int16_t)(h - OUTLINE_PX), (uint16_t)w, OUTLINE_PX},
                           {0, 0, OUTLINE_PX, (uint16_t)h},
                           {(int16_t)(w - OUTLINE_PX), 0, OUTLINE_PX, (uint16_t)h}};
    xcb_shape_rectangles(o->c, XCB_SHAPE_SO_SET, XCB_SHAPE_SK_BOUNDING,
                         XCB_CLIP_ORDERING_UNSORTED, k->outline, 0, 0, 4, r);
    if (!k->hidden)
        xcb_map_window(o->c, k->outline);
    ov_raise(o, k->outline);
}

void ov_show_ripple(ad_overlay *o, cursor *k)
{
    if (!k->ripple_px.px)
        return;
    configure(o, k->ripple, (int)lround(k->x) - k->ripple_px.hot_x,
              (int)lround(k->y) - k->ripple_px.hot_y, k->ripple_px.w, k->ripple_px.h);
    ad_paint_show(o->c, o->screen, k->ripple, o->gc, &k->ripple_px);
    if (!k->hidden)
        xcb_map_window(o->c, k->ripple);
    ov_raise(o, k->ripple);
}

json_t *ov_refuse(const char *code, const char *message)
{
    return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", code, "message", message);
}

static int round_trip(ad_overlay *o)
{
    xcb_get_input_focus_reply_t *r =
        xcb_get_input_focus_reply(o->c, xcb_get_input_focus(o->c), NULL);
    free(r);
    if (!r || ov_drain(o) < 0) {
        disconnect(o);
        return -1;
    }
    return 0;
}

static json_t *do_stop(ad_overlay *o, const char *session)
{
    int stopped = 0;
    for (size_t i = 0; i < o->n;) {
        if (strcmp(o->cursors[i]->session, session) != 0) {
            i++;
            continue;
        }
        cursor_free(o, o->cursors[i]);
        o->cursors[i] = o->cursors[--o->n];
        stopped++;
    }
    if (round_trip(o) < 0) /* the destroys were processed */
        return ov_refuse("ACTION_FAILED", "the X connection broke while removing the cursors");
    return json_pack("{s:b, s:i}", "ok", 1, "stopped", stopped);
}

/* A round trip: every request before it was processed (an error would break the
 * connection). 0, or -1 after the connection broke (then disconnected). */
/* "hide": unmaps every window of the session's cursors and replies once the server has
 * processed the unmaps, so input the caller sends after the reply finds them unmapped.
 * "unhide": maps the bodies and labels again, the cursor `name` first moved to `point`
 * when one is given (where the input left the real pointer: a drag's drop point). */
static json_t *do_hide(ad_overlay *o, const char *session, bool hide, const char *name,
                       const json_t *point)
{
    int count = 0;
    for (size_t i = 0; i < o->n; i++) {
        cursor *k = o->cursors[i];
        if (strcmp(k->session, session) != 0)
            continue;
        k->hidden = hide;
        count++;
        if (hide) {
            xcb_window_t w[] = {k->body, k->label, k->outline, k->ripple};
            for (size_t j = 0; j < 4; j++)
                xcb_unmap_window(o->c, w[j]);
            continue;
        }
        if (name && strcmp(k->name, name) == 0 && json_array_size(point) == 2) {
            k->x = json_number_value(json_array_get(point, 0));
            k->y = json_number_value(json_array_get(point, 1));
            /* The input went ahead of a glide still under way (its client stopped waiting on
             * a loaded machine): the rest of the path is stale, so the glide ends now, at the
             * point the input left the pointer. Ignoring the point left the cursor at the
             * drag's press point. */
            if (k->gliding) {
                k->next_pt = k->n_pts;
                k->dwell_until = 0;
            }
        }
        if (k->placed)
            ov_show_body(o, k);
    }
    if (!hide)
        ov_glide_advance(o); /* a glide ended above ends now, at its new point */
    if (round_trip(o) < 0)
        return ov_refuse("ACTION_FAILED", "the X connection broke while hiding the cursors");
    return json_pack("{s:b, s:i}", "ok", 1, hide ? "hidden" : "shown", count);
}

json_t *ad_overlay_request(ad_overlay *o, const json_t *req, const unsigned char *payload,
                           size_t len, int client_fd)
{
    (void)payload;
    (void)len;
    const char *op = json_string_value(json_object_get(req, "op"));
    const char *display = json_string_value(json_object_get(req, "display"));
    const char *session = json_string_value(json_object_get(req, "session"));
    const char *name = json_string_value(json_object_get(req, "cursor"));
    const json_t *style = json_object_get(req, "style");
    if (!op || !display || !display[0] || !session)
        return ov_refuse("INVALID_ARGS", "an overlay request names its op, display and session");
    if (o->c && xcb_connection_has_error(o->c))
        disconnect(o);
    if (o->c && strcmp(o->display, display) != 0)
        return ov_refuse("ACTION_FAILED", "the running helper serves another X display");
    bool is_stop = strcmp(op, "stop") == 0;
    bool is_hide = strcmp(op, "hide") == 0, is_unhide = strcmp(op, "unhide") == 0;
    if ((is_stop || is_hide || is_unhide) && !o->c) /* nothing drawn */
        return json_pack("{s:b, s:i}", "ok", 1, is_stop ? "stopped" : is_hide ? "hidden"
                                                                              : "shown", 0);
    if (!o->c && connect_display(o, display) < 0)
        return ov_refuse("PLATFORM_NOT_SUPPORTED",
                         "the helper cannot draw on the X display (SHAPE and XFixes 2 needed)");
    if (is_stop)
        return do_stop(o, session);
    if (is_hide || is_unhide)
        return do_hide(o, session, is_hide, name, json_object_get(req, "point"));
    bool is_glide = strcmp(op, "glide") == 0;
    if ((!is_glide && strcmp(op, "show") != 0) || !name || !json_is_object(style))
        return ov_refuse("INVALID_ARGS",
                         "an overlay request is show, glide, hide, unhide or stop");
    cursor *k = find_cursor(o, session, name, true);
    if (!k)
        return ov_refuse("ACTION_FAILED", "out of memory");
    if (is_glide && json_array_size(json_object_get(req, "point")) == 2) {
        ov_glide_enqueue(o, k, req, client_fd);
        return NULL; /* the reply is the glide's end */
    }
    ov_apply_style(o, k, style, json_is_true(json_object_get(req, "pressable")));
    ov_show_body(o, k);
    bool mapped = ov_drain(o) == 0 && ov_viewable(o, k->body);
    char window[32];
    snprintf(window, sizeof(window), "0x%x", (unsigned)k->body);
    return json_pack("{s:b, s:b, s:s}", "ok", 1, "mapped", mapped, "window", window);
}
