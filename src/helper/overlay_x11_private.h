/* overlay_x11_private.h: what the overlay service's files share (overlay_x11.h has the
 * windows and the requests):
 *   overlay_x11.c    the X connection, the cursors' windows, the requests
 *   overlay_glide.c  the glides: each cursor's queue, moved one frame at a time from the
 *                    helper's loop, so several cursors glide at once
 *   overlay_label.c  the label pill's text
 */
#ifndef AD_OVERLAY_X11_PRIVATE_H
#define AD_OVERLAY_X11_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>
#include <xcb/xcb.h>

#include "core/overlay_motion.h"
#include "helper/overlay_paint.h"
#include "helper/overlay_x11.h"

#define LABEL_MAX 200

/* A glide request waiting for its reply. */
typedef struct glide_req {
    json_t *req;            /* the request (a reference held) */
    int fd;                 /* the client's socket, owned until the reply closes it */
    struct glide_req *next;
} glide_req;

typedef struct {
    char *session, *name;
    xcb_window_t body, label, outline, ripple;
    ad_paint body_px, ripple_px;
    char label_text[LABEL_MAX];
    double x, y;
    bool placed;
    bool hidden;            /* a headed command sends real input: no window of it mapped */
    int64_t effects_until;  /* 0: no outline or ripple shown */
    /* The glides of this cursor take turns: the queue's head is the one in progress while
     * `gliding`; its path pts[0..n_pts), next_pt the next to show. */
    glide_req *queue;
    bool gliding;
    ad_motion_point pts[AD_MOTION_MAX_POINTS];
    size_t n_pts, next_pt;
    int64_t start_us, dwell_until;
} cursor;

struct ad_overlay {
    xcb_connection_t *c;
    char *display;
    xcb_screen_t *screen;
    xcb_gcontext_t gc;
    bool has_font;
    cursor **cursors;
    size_t n;
};

/* overlay_x11.c */
json_t *ov_refuse(const char *code, const char *message);
/* Restyles k from style (its body image, colours, ripple, label). */
void ov_apply_style(ad_overlay *o, cursor *k, const json_t *style, bool pressable);
/* Maps the body (and label) at the cursor's point, unless hidden. */
void ov_show_body(ad_overlay *o, cursor *k);
void ov_show_outline(ad_overlay *o, cursor *k, const json_t *bounds);
void ov_show_ripple(ad_overlay *o, cursor *k);
void ov_place(ad_overlay *o, cursor *k);
void ov_raise(ad_overlay *o, xcb_window_t w);
int ov_drain(ad_overlay *o);
bool ov_viewable(ad_overlay *o, xcb_window_t w);
double ov_num(const json_t *style, const char *key, double fallback);

/* overlay_glide.c */
/* Queues a glide of k (req borrowed, fd owned): it starts now when k is not gliding. */
void ov_glide_enqueue(ad_overlay *o, cursor *k, const json_t *req, int fd);
/* Moves every gliding cursor to where its path is now; replies to the glides that ended. */
void ov_glide_advance(ad_overlay *o);
/* When ov_glide_advance must run next (CLOCK_MONOTONIC us), 0 when nothing glides. */
int64_t ov_glide_next_us(const ad_overlay *o);
/* Replies a refusal to each of k's glides still waiting (the cursor is going away). */
void ov_glide_fail_all(cursor *k, const char *message);

#endif
