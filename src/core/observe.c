/* observe.c: the reads and the settle of --observe (observe.h). */
#include "core/observe.h"

#include <stdlib.h>
#include <string.h>

#include "core/deadline.h"
#include "core/trace_event.h"

void ad_observe_hold(ad_observe *o, const ad_window *win, ad_tree *before)
{
    ad_window_clear(&o->window);
    if (ad_window_copy(&o->window, win) < 0)
        ad_window_clear(&o->window); /* out of memory: no after read, so no delta */
    ad_tree_clear(&o->before);
    o->before = *before;
    memset(before, 0, sizeof(*before));
    o->have_before = o->before.root != NULL && o->window.id != NULL;
}

/* The whole window with every native id, as a snapshot reads it: the diff compares
 * identities. */
static int read_whole(ad_ctx *ctx, const char *window_id, int64_t deadline_us, ad_tree *ret,
                      ad_error *err)
{
    if (!window_id)
        return ad_error_set(err, AD_WINDOW_NOT_FOUND, "No window to observe");
    ad_read_limits lim = ad_read_limits_default(deadline_us);
    return ctx->adapter->ops->read_window(ctx->adapter, window_id, &lim, ret, err);
}

void ad_observe_read_before(ad_ctx *ctx, ad_observe *o, const ad_window *win,
                            int64_t deadline_us)
{
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, win->id, deadline_us);
    ad_tree t = {0};
    ad_error_clear(&o->before_error);
    if (read_whole(ctx, win->id, deadline_us, &t, &o->before_error) == 0)
        ad_observe_hold(o, win, &t);
}

/* Moves what the adapter recorded since the last take into o->events. */
static void take(ad_ctx *ctx, ad_observe *o)
{
    if (!ctx->adapter->ops->take_changes)
        return;
    ad_change_events got = {0};
    if (ctx->adapter->ops->take_changes(ctx->adapter, &got) == 1)
        o->events_available = true;
    ad_observe_events_append(&o->events, &got);
}

void ad_observe_dispatch(ad_ctx *ctx, ad_observe *o)
{
    take(ctx, o);
    ad_change_events_clear(&o->events); /* before the input: not the action's */
    o->dispatched_us = ad_now_us();
}

/* A pause inside the settle; cut at the enclosing budget (batch --timeout-ms), which only
 * ends the settle early. */
static void sleep_until(int64_t until_us)
{
    ad_error cut = AD_ERROR_INIT;
    int64_t left_ms = (until_us - ad_now_us() + 999) / 1000;
    if (left_ms > 0)
        (void)ad_deadline_sleep_ms(left_ms, &cut);
    ad_error_clear(&cut);
}

/* Waits until the app has sent no change event for AD_OBSERVE_QUIET_MS, at most
 * AD_OBSERVE_MAX_MS after dispatch: on the adapter's wake-up when it has one, else by
 * checking the record after each quiet period. Without a watch on the app's events one
 * quiet period passes ("no_events"): nothing better tells when the UI settled. */
static const char *settle(ad_ctx *ctx, ad_observe *o)
{
    int64_t cap = o->dispatched_us + (int64_t)AD_OBSERVE_MAX_MS * 1000;
    take(ctx, o);
    if (!o->events_available) {
        int64_t until = ad_now_us() + (int64_t)AD_OBSERVE_QUIET_MS * 1000;
        sleep_until(until < cap ? until : cap);
        return "no_events";
    }
    for (;;) {
        int64_t now = ad_now_us();
        if (now >= cap)
            return "max_wait";
        int64_t until = now + (int64_t)AD_OBSERVE_QUIET_MS * 1000;
        bool capped = until >= cap;
        size_t seen = o->events.count + o->events.dropped;
        int woke = 0;
        if (ctx->adapter->ops->wait_change)
            woke = ctx->adapter->ops->wait_change(ctx->adapter, capped ? cap : until);
        else
            sleep_until(capped ? cap : until);
        take(ctx, o);
        if (woke != 1 && o->events.count + o->events.dropped == seen)
            return capped ? "max_wait" : "quiet";
    }
}

void ad_observe_finish(ad_ctx *ctx, ad_observe *o, bool settle_first, bool hide_values,
                       json_t *report)
{
    if (!o->dispatched_us)
        o->dispatched_us = ad_now_us();
    const char *settled = settle_first ? settle(ctx, o) : "wait_for";
    if (!settle_first)
        take(ctx, o);
    int64_t settle_ms = (ad_now_us() - o->dispatched_us) / 1000;
    ad_tree after = {0};
    ad_error after_error = AD_ERROR_INIT;
    bool have_after = o->have_before &&
                      read_whole(ctx, o->window.id, ad_deadline_after_ms(3000), &after,
                                 &after_error) == 0;
    /* Something added or changed: the after read becomes a snapshot, so those nodes carry
     * refs (observe_snapshot.h). A failed save leaves the delta without refs, and says why. */
    ad_tree_delta *d = have_after ? ad_observe_diff(&o->before, &after) : NULL;
    ad_observe_snapshot snap = {0};
    ad_error snap_error = AD_ERROR_INIT;
    bool snap_failed = d && (d->n_added || d->n_changed) &&
                       ad_observe_snapshot_save(ctx, &o->window, &after, &snap, &snap_error) < 0;
    json_t *changes = ad_observe_changes_json(o->have_before ? &o->before : NULL,
                                              have_after ? &after : NULL, d, &o->before_error,
                                              &after_error, settled, settle_ms, hide_values,
                                              &snap);
    ad_tree_delta_free(d);
    if (snap_failed)
        json_object_set_new(changes, "snapshot_error",
                            json_pack("{s:s, s:s}", "code", ad_error_code_name(snap_error.code),
                                      "message", snap_error.message ? snap_error.message : ""));
    ad_error_clear(&snap_error);
    json_object_set_new(report, "changes", changes);
    json_t *details = json_object_get(report, "details");
    if (!json_is_object(details)) {
        details = json_object();
        json_object_set_new(report, "details", details);
    }
    if (o->events_available) {
        size_t explained = 0;
        json_object_set_new(details, "events",
                            ad_observe_events_json(&o->events, &o->before,
                                                   have_after ? &after : NULL, changes,
                                                   &explained));
        json_object_set_new(details, "events_count",
                            json_integer((json_int_t)(o->events.count + o->events.dropped)));
        if (explained)
            json_object_set_new(details, "events_explained", json_integer((json_int_t)explained));
    } else {
        json_object_set_new(details, "events_available", json_false());
    }
    ad_trace_event(ctx, "observe.settled",
                   json_pack("{s:s, s:I, s:I, s:b}", "settled", settled, "settle_ms",
                             (json_int_t)settle_ms, "events",
                             (json_int_t)(o->events.count + o->events.dropped), "unchanged",
                             json_is_true(json_object_get(changes, "unchanged"))));
    ad_observe_snapshot_clear(&snap);
    ad_tree_clear(&after);
    ad_error_clear(&after_error);
}

void ad_observe_nothing_sent(json_t *report)
{
    json_object_set_new(report, "changes",
                        json_pack("{s:b, s:b, s:s, s:i}", "unchanged", 1, "complete", 1,
                                  "settled", "nothing_sent", "settle_ms", 0));
}

void ad_observe_clear(ad_observe *o)
{
    if (!o)
        return;
    ad_window_clear(&o->window);
    ad_tree_clear(&o->before);
    ad_error_clear(&o->before_error);
    ad_change_events_clear(&o->events);
    memset(o, 0, sizeof(*o));
}

bool ad_observe_waits(const ad_ctx *ctx)
{
    return json_object_get(ctx->globals, "wait_for") ||
           json_object_get(ctx->globals, "wait_for_gone");
}

void ad_observe_defer(ad_ctx *ctx, ad_observe *o, bool hide_values)
{
    ad_observe *kept = malloc(sizeof(*kept));
    if (!kept) {
        ad_observe_clear(o); /* out of memory: the report goes without changes */
        return;
    }
    *kept = *o;
    kept->hide_values = hide_values;
    memset(o, 0, sizeof(*o));
    ad_observe_free(ctx->observe_pending);
    ctx->observe_pending = kept;
}

void ad_observe_finish_deferred(ad_ctx *ctx, json_t *report)
{
    ad_observe *o = ctx->observe_pending;
    ctx->observe_pending = NULL;
    if (o && json_is_object(report))
        ad_observe_finish(ctx, o, false, o->hide_values, report);
    ad_observe_free(o);
}

void ad_observe_free(ad_observe *o)
{
    ad_observe_clear(o);
    free(o);
}

void ad_observe_report(ad_ctx *ctx, ad_observe *o, bool hide_values, json_t *report)
{
    if (ad_observe_waits(ctx))
        ad_observe_defer(ctx, o, hide_values);
    else
        ad_observe_finish(ctx, o, true, hide_values, report);
}
