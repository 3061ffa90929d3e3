/* window_op.c: the window commands' contract (window_op.h). */
#include "core/window_op.h"

#include <math.h>
#include <string.h>

#include "core/lease.h"
#include "core/trace_event.h"
#include "core/window_select.h"

/* The selection's deadline: the inventory reads, before anything is sent. */
#define SELECT_MS 5000

typedef struct {
    const char *action;  /* the command */
    const char *step;    /* data.steps[0].label */
    const char *scope;   /* details.verification_scope, NULL: unverified (restore) */
} op_names;

static op_names names_of(ad_win_op op)
{
    switch (op) {
    case AD_WIN_MOVE:
        return (op_names){"move-window", "window_move", "window_position"};
    case AD_WIN_RESIZE:
        return (op_names){"resize-window", "window_resize", "window_size"};
    case AD_WIN_MINIMIZE:
        return (op_names){"minimize", "window_minimize", "window_minimized_state"};
    case AD_WIN_MAXIMIZE:
        return (op_names){"maximize", "window_maximize", "window_maximized_state"};
    case AD_WIN_RESTORE:
        return (op_names){"restore", "window_restore", NULL};
    case AD_WIN_FOCUS:
        break;
    }
    return (op_names){"focus-window", "window_focus", "window_focused"};
}

/* An adapter without window operations (a platform of its own): as dispatch's refusal of a
 * command without a handler. */
static int not_in_build(const char *action, ad_error *err)
{
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                 "%s is not available in this build of agent-desktop", action);
    ad_error_detail(err, "kind", json_string("not_in_this_build"));
    ad_error_detail(err, "retryable", json_false());
    return -1;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= AD_WIN_TOLERANCE_PX;
}

bool ad_win_state_reached(const ad_win_req *req, const ad_win_state *s)
{
    switch (req->op) {
    case AD_WIN_MOVE:
        return s->known && !s->hidden && near(s->bounds.x, req->x) && near(s->bounds.y, req->y);
    case AD_WIN_RESIZE:
        return s->known && !s->hidden && near(s->bounds.width, req->width) &&
               near(s->bounds.height, req->height);
    case AD_WIN_MINIMIZE:
        return s->known && s->hidden;
    case AD_WIN_MAXIMIZE:
        return s->known && !s->hidden && s->maximized_horizontal && s->maximized_vertical;
    case AD_WIN_RESTORE: /* the wait's end only: restore reports delivered_unverified */
        return s->known && !s->hidden && !s->maximized_horizontal && !s->maximized_vertical;
    case AD_WIN_FOCUS:
        break;
    }
    return true;
}

json_t *ad_win_state_json(const ad_win_state *s)
{
    return json_pack("{s:i, s:b, s:b, s:b, s:i, s:i, s:i}", "height", (int)s->bounds.height,
                     "hidden", s->hidden, "maximized_horizontal", s->maximized_horizontal,
                     "maximized_vertical", s->maximized_vertical, "width",
                     (int)s->bounds.width, "x", (int)s->bounds.x, "y", (int)s->bounds.y);
}

/* OperationReport target for a window (json-output.md). */
static json_t *target_json(const ad_window *w)
{
    json_t *process = json_object();
    if (w->process_instance)
        json_object_set_new(process, "instance", json_string(w->process_instance));
    json_object_set_new(process, "pid", json_integer(w->pid));
    return json_pack("{s:s, s:s, s:o, s:o}", "id", w->id, "kind", "window", "process", process,
                     "title", w->title ? json_string(w->title) : json_null());
}

/* The window chosen must still be the process it was read from: a pid that now belongs to
 * another process (or none) means the window's identity changed before the write. */
static int check_identity(ad_ctx *ctx, const ad_window *w, ad_error *err)
{
    ad_adapter *a = ctx->adapter;
    if (w->pid <= 0 || !w->process_instance ||
        a->ops->process_alive(a, w->pid, w->process_instance))
        return 0;
    ad_error_set(err, AD_STALE_REF, "The process of window '%s' (pid %d) is gone", w->id,
                 w->pid);
    ad_error_suggest(err, "Run list-windows and use an id it reports");
    ad_error_detail(err, "kind", json_string("window_identity_changed"));
    return -1;
}

/* The write: the identity check, then the adapter's op under the interaction lease, like
 * every mutation. The read-back's deadline starts once the lease is held. */
static int write_window(ad_ctx *ctx, const ad_window *w, const ad_win_req *req,
                        ad_win_result *res, ad_error *err)
{
    if (check_identity(ctx, w, err) < 0)
        return -1;
    ad_lease lease = AD_LEASE_INIT;
    if (ad_lease_acquire(&lease, ad_deadline_after_ms(SELECT_MS), err) < 0)
        return -1;
    ad_win_req r = *req;
    r.deadline_us = ad_deadline_after_ms(AD_WIN_SETTLE_MS);
    int rc = ctx->adapter->ops->window_op(ctx->adapter, w, &r, res, err);
    ad_lease_release(&lease);
    return rc;
}

static json_t *report_details(const ad_win_req *req, const ad_win_result *res,
                              const op_names *n)
{
    if (!n->scope)
        return NULL;
    json_t *d = json_pack("{s:s}", "verification_scope", n->scope);
    if (req->op == AD_WIN_MOVE || req->op == AD_WIN_RESIZE) {
        json_object_set_new(d, "observed", ad_win_state_json(&res->observed));
        json_object_set_new(d, "tolerance", json_real(AD_WIN_TOLERANCE_PX));
        json_object_set_new(d, "units", json_string("pixels"));
    }
    return d;
}

/* ACTION_FAILED for a request the window manager clamped or ignored: what was read. */
static int not_reached(const ad_window *w, const ad_win_req *req, const ad_win_result *res,
                       const op_names *n, ad_error *err)
{
    ad_error_set(err, AD_ACTION_FAILED, "The window manager did not apply %s to window '%s'",
                 n->action, w->id);
    ad_error_suggest(err, "Read the window with list-windows before you retry");
    ad_error_detail(err, "kind", json_string(res->observed.known ? "window_manager_refused"
                                                                 : "window_unreadable"));
    if (res->observed.known)
        ad_error_detail(err, "observed", ad_win_state_json(&res->observed));
    if (req->op == AD_WIN_MOVE || req->op == AD_WIN_RESIZE)
        ad_error_detail(err, "tolerance", json_real(AD_WIN_TOLERANCE_PX));
    ad_error_detail(err, "verification_scope", json_string(n->scope));
    err->delivery = AD_DELIVERED_UNVERIFIED; /* the request went out; its effect is not it */
    return -1;
}

int ad_window_op_run(ad_ctx *ctx, const ad_win_req *req, const char *app,
                     const char *window_id, json_t **ret_data, ad_error *err)
{
    ad_adapter *a = ctx->adapter;
    op_names n = names_of(req->op);
    if (!a->ops->window_op)
        return not_in_build(n.action, err);
    ad_window w = {0};
    ad_win_result res = {0};
    int rc = -1;
    if (ad_window_select(ctx, app, window_id, ad_deadline_after_ms(SELECT_MS), &w, err) < 0)
        return -1;
    if (write_window(ctx, &w, req, &res, err) < 0)
        goto done;
    ad_trace_event(ctx, "window.op", json_pack("{s:s, s:s, s:s, s:b}", "action", n.action,
                                               "window", w.id, "request", res.label,
                                               "reached", res.reached));
    if (!res.reached && n.scope) {
        not_reached(&w, req, &res, &n, err);
        goto done;
    }
    ad_delivery delivery = n.scope ? AD_DELIVERED_VERIFIED : AD_DELIVERED_UNVERIFIED;
    json_t *step = json_pack("{s:s, s:s, s:s}", "label", n.step, "mechanism", "semantic_api",
                             "outcome", "succeeded");
    if (n.scope)
        json_object_set_new(step, "verified", json_true());
    json_t *d = json_pack("{s:s, s:o, s:[o], s:o}", "action", n.action, "disposition",
                          ad_disposition_json(delivery), "steps", step, "target",
                          target_json(&w));
    json_t *details = report_details(req, &res, &n);
    if (details)
        json_object_set_new(d, "details", details);
    if (req->op == AD_WIN_MOVE) { /* the echoed request */
        json_object_set_new(d, "x", json_real(req->x));
        json_object_set_new(d, "y", json_real(req->y));
    } else if (req->op == AD_WIN_RESIZE) {
        json_object_set_new(d, "width", json_real(req->width));
        json_object_set_new(d, "height", json_real(req->height));
    }
    ad_ctx_note_delivery(ctx, delivery);
    *ret_data = d;
    rc = 0;
done:
    ad_window_clear(&res.focused);
    ad_window_clear(&w);
    return rc;
}

int ad_window_focus_run(ad_ctx *ctx, const char *app, const char *window_id,
                        const char *title, ad_window *ret_focused, ad_error *err)
{
    ad_adapter *a = ctx->adapter;
    if (!a->ops->window_op)
        return not_in_build("focus-window", err);
    ad_window w = {0};
    ad_win_result res = {0};
    int rc = -1;
    if (ad_window_select_titled(ctx, app, window_id, title, ad_deadline_after_ms(SELECT_MS), &w,
                                err) < 0)
        return -1;
    ad_win_req r = {.op = AD_WIN_FOCUS};
    if (write_window(ctx, &w, &r, &res, err) < 0)
        goto done;
    if (!res.reached || !res.focused.id) {
        ad_error_set(err, AD_ACTION_FAILED, "The window manager never reported window '%s' "
                     "focused", w.id);
        ad_error_suggest(err, "Read list-windows: another window may hold the focus");
        ad_error_detail(err, "kind", json_string("focus_not_verified"));
        err->delivery = AD_DELIVERED_UNVERIFIED;
        goto done;
    }
    ad_trace_event(ctx, "window.op", json_pack("{s:s, s:s, s:s, s:s}", "action",
                                               "focus-window", "window", w.id, "request",
                                               res.label, "focused", res.focused.id));
    ad_ctx_note_delivery(ctx, AD_DELIVERED_VERIFIED);
    *ret_focused = res.focused;
    memset(&res.focused, 0, sizeof(res.focused));
    rc = 0;
done:
    ad_window_clear(&res.focused);
    ad_window_clear(&w);
    return rc;
}
