/* overlay_glide.c: the glides of the overlay service (overlay_x11_private.h).
 *
 * A glide no longer blocks the helper: its request is queued on its cursor and answered
 * when the cursor reaches the point (and dwelt there), while the helper's loop moves every
 * gliding cursor one frame at a time. Different cursors (each agent's own in a multi-agent
 * session) therefore travel at the same time, and the glides of one cursor take turns
 * (sessions.md "Agent identity"): the next starts only when the one before has ended on its
 * point with its ripple shown. A waiting glide whose client stopped waiting (it hung up:
 * its action went ahead without it) is dropped instead of showing a target acted on
 * already. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helper/helper_proto.h"
#include "helper/overlay_x11_private.h"

static void start(ad_overlay *o, cursor *k)
{
    const json_t *req = k->queue->req;
    const json_t *style = json_object_get(req, "style");
    ov_apply_style(o, k, style, json_is_true(json_object_get(req, "pressable")));
    ov_show_body(o, k);
    const json_t *bounds = json_object_get(req, "bounds");
    if (json_is_true(json_object_get(style, "highlight")) && json_array_size(bounds) == 4)
        ov_show_outline(o, k, bounds);
    ov_raise(o, k->body);
    json_t *travel = json_object_get(style, "travel_ms");
    json_t *seed = json_object_get(style, "motion_seed");
    ad_motion_params p = {
        .travel_min_ms = (int)json_integer_value(json_array_get(travel, 0)),
        .travel_max_ms = (int)json_integer_value(json_array_get(travel, 1)),
        .bow = ov_num(style, "bow", 1), .overshoot = ov_num(style, "overshoot", 0.035),
        .tremor = ov_num(style, "tremor", 1.1), .has_seed = json_is_integer(seed),
        .seed = json_integer_value(seed)};
    const json_t *point = json_object_get(req, "point");
    k->n_pts = ad_motion_path(&p, k->x, k->y, json_number_value(json_array_get(point, 0)),
                              json_number_value(json_array_get(point, 1)), k->pts,
                              AD_MOTION_MAX_POINTS);
    k->next_pt = 0;
    k->start_us = ad_helper_now_us();
    int64_t last_ms = k->n_pts ? k->pts[k->n_pts - 1].t_ms : 0;
    k->dwell_until = k->start_us + (last_ms + (int64_t)ov_num(style, "dwell_ms", 0)) * 1000;
    k->gliding = true;
}

/* True when the client closed its end (it sends nothing after its request). */
static bool client_gone(int fd)
{
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

static void pop(cursor *k)
{
    glide_req *g = k->queue;
    k->queue = g->next;
    json_decref(g->req);
    free(g);
}

/* The glide at the head ended on its point: its ripple, then the reply. */
static void finish(ad_overlay *o, cursor *k)
{
    const json_t *style = json_object_get(k->queue->req, "style");
    if (json_is_true(json_object_get(style, "ripple")))
        ov_show_ripple(o, k);
    ov_place(o, k); /* the body above its own effects */
    k->effects_until = ad_helper_now_us() + AD_OVERLAY_EFFECT_MS * 1000;
    bool mapped = ov_drain(o) == 0 && ov_viewable(o, k->body);
    char window[32];
    snprintf(window, sizeof(window), "0x%x", (unsigned)k->body);
    json_t *reply = json_pack("{s:b, s:b, s:s}", "ok", 1, "mapped", mapped, "window", window);
    ad_helper_reply(k->queue->fd, reply, ad_helper_now_us() + AD_HELPER_IO_MS * 1000);
    json_decref(reply);
    pop(k);
    k->gliding = false;
}

void ov_glide_enqueue(ad_overlay *o, cursor *k, const json_t *req, int fd)
{
    glide_req *g = calloc(1, sizeof(*g)), **tail = &k->queue;
    if (!g) {
        json_t *reply = ov_refuse("ACTION_FAILED", "out of memory");
        ad_helper_reply(fd, reply, ad_helper_now_us() + AD_HELPER_IO_MS * 1000);
        json_decref(reply);
        return;
    }
    g->req = json_incref((json_t *)req);
    g->fd = fd;
    while (*tail)
        tail = &(*tail)->next;
    *tail = g;
    if (!k->gliding)
        start(o, k);
    ov_glide_advance(o);
}

void ov_glide_advance(ad_overlay *o)
{
    for (size_t i = 0; i < o->n; i++) {
        cursor *k = o->cursors[i];
        while (k->gliding) {
            int64_t now = ad_helper_now_us();
            bool moved = false;
            while (k->next_pt < k->n_pts &&
                   now >= k->start_us + (int64_t)k->pts[k->next_pt].t_ms * 1000) {
                k->x = k->pts[k->next_pt].x;
                k->y = k->pts[k->next_pt].y;
                k->next_pt++;
                moved = true;
            }
            if (moved)
                ov_place(o, k);
            if (k->next_pt < k->n_pts || now < k->dwell_until)
                break;
            finish(o, k);
            while (k->queue && client_gone(k->queue->fd)) {
                close(k->queue->fd);
                pop(k);
            }
            if (k->queue)
                start(o, k); /* the next glide of this cursor: its turn now */
        }
    }
    ov_drain(o);
}

int64_t ov_glide_next_us(const ad_overlay *o)
{
    int64_t soonest = 0;
    for (size_t i = 0; i < o->n; i++) {
        const cursor *k = o->cursors[i];
        if (!k->gliding)
            continue;
        int64_t t = k->next_pt < k->n_pts
                        ? k->start_us + (int64_t)k->pts[k->next_pt].t_ms * 1000
                        : k->dwell_until;
        if (!soonest || t < soonest)
            soonest = t;
    }
    return soonest;
}

void ov_glide_fail_all(cursor *k, const char *message)
{
    while (k->queue) {
        json_t *reply = ov_refuse("ACTION_FAILED", message);
        /* A short wait: the client reads its reply at once, or has gone. */
        ad_helper_reply(k->queue->fd, reply, ad_helper_now_us() + 100 * 1000);
        json_decref(reply);
        pop(k);
    }
    k->gliding = false;
}
