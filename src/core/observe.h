/* observe.h: --observe on a ref action or press: what the action changed in the window it
 * acted on, in the same call (issue 13.3).
 *
 * The window is read just before the input is sent (a ref action reuses its own read under
 * the lease, which is the whole window) and again once the UI settled: the app has been
 * quiet for AD_OBSERVE_QUIET_MS (no change event from it), at most AD_OBSERVE_MAX_MS after
 * dispatch, or, with --wait-for / --wait-for-gone, once the wait is satisfied. The two reads
 * are diffed by core/tree_diff.h and the action's report gains:
 *   data.changes          the delta (tree_diff's JSON: unchanged: true, or added / removed /
 *                         changed), plus complete, settled ("quiet", "max_wait", "wait_for",
 *                         "no_events": the app's events could not be watched, so one quiet
 *                         period passed; "nothing_sent": the request was already satisfied)
 *                         and settle_ms; snapshot_id when something was added or changed:
 *                         the after read saved as a snapshot whose refs the delta's nodes
 *                         carry (core/observe_snapshot.h); or error (the code and message
 *                         of a read that failed) and no delta: an unread window is never
 *                         "unchanged"
 *   data.details.events   the change events the app emitted from dispatch until the settle
 *                         that the after read does not already show, grouped by source
 *                         element ({role, name, events: ["kind:detail", ...], count}), at
 *                         most AD_OBSERVE_EVENTS_LISTED; events_count counts every one, and
 *                         events_explained (when > 0) those left out because their source
 *                         is an added or changed entry of data.changes: that read is the
 *                         proof, and repeating its events cost the form loop of
 *                         bench/bench-tokens.sh ~40% of what --observe printed
 * Events are evidence only: they never change a disposition. The disposition stays what the
 * action's own readback established (core/action.c).
 */
#ifndef AD_OBSERVE_H
#define AD_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/ctx.h"
#include "core/observe_snapshot.h"
#include "core/tree_diff.h"
#include "platform/adapter.h"

#define AD_OBSERVE_QUIET_MS 300   /* GTK 4 applies a click about 250 ms after the call */
#define AD_OBSERVE_MAX_MS 3000    /* the settle never waits longer after dispatch */
#define AD_OBSERVE_EVENTS_LISTED 32

typedef struct ad_observe {
    ad_window window;       /* owned: the window acted on, as the action found it */
    ad_tree before;         /* owned: its read before dispatch */
    bool have_before;
    ad_error before_error;  /* why there is no before read */
    int64_t dispatched_us;  /* 0 until ad_observe_dispatch */
    ad_change_events events; /* from dispatch on (owned) */
    bool events_available;  /* the adapter watched the app's events */
    bool hide_values;       /* deferred: ad_observe_finish's hide_values */
} ad_observe;

/* Takes `before`, a complete-window read of `win` (copied) made just before dispatch: *before
 * is moved into o (and emptied). */
void ad_observe_hold(ad_observe *o, const ad_window *win, ad_tree *before);

/* Arms the adapter's watch on win's app and reads the whole window as the before read
 * (press, which has no read of its own). A failed read is kept in o->before_error and shows
 * in data.changes; the action still runs. */
void ad_observe_read_before(ad_ctx *ctx, ad_observe *o, const ad_window *win,
                            int64_t deadline_us);

/* Right before the input is sent: the events seen until now are not the action's. */
void ad_observe_dispatch(ad_ctx *ctx, ad_observe *o);

/* Waits for the settle (when `settle`; false after a satisfied --wait-for, which settled it),
 * reads the window again, and adds data.changes and data.details.events to report (an
 * object; borrowed). hide_values leaves every value out of the delta (the action's text came
 * from --stdin, or the target is a secure field). */
void ad_observe_finish(ad_ctx *ctx, ad_observe *o, bool settle, bool hide_values,
                       json_t *report);

/* True when the command has a post-action wait (--wait-for, --wait-for-gone), which then
 * settles the observation: ad_observe_defer instead of ad_observe_finish. */
bool ad_observe_waits(const ad_ctx *ctx);
/* Moves o into ctx->observe_pending (o is emptied); dispatch finishes it once the wait is
 * satisfied (ad_observe_finish_deferred) and frees it in every case (ad_observe_free). */
void ad_observe_defer(ad_ctx *ctx, ad_observe *o, bool hide_values);
/* Finishes ctx->observe_pending, if any, into report (the action's report: data.after_action
 * after a satisfied --wait-for) and frees it. */
void ad_observe_finish_deferred(ad_ctx *ctx, json_t *report);
void ad_observe_free(struct ad_observe *o); /* ad_observe_clear + free; NULL-safe */

/* What an action calls once its report is built: ad_observe_finish now, or ad_observe_defer
 * when a post-action wait will settle it. */
void ad_observe_report(ad_ctx *ctx, ad_observe *o, bool hide_values, json_t *report);

/* The report of a request that sent nothing (already satisfied): changes unchanged, settled
 * "nothing_sent". */
void ad_observe_nothing_sent(json_t *report);

void ad_observe_clear(ad_observe *o); /* NULL-safe */

/* ---- the report, without I/O (observe_report.c; unit-tested) ---------------------------- */

/* The delta of two whole-window reads (both borrowed; it points into them), or NULL when
 * either is missing (no root) or memory ran out. The caller frees it (ad_tree_delta_free). */
ad_tree_delta *ad_observe_diff(const ad_tree *before, const ad_tree *after);

/* data.changes for the two reads (both borrowed; before NULL with before_error set, after
 * NULL with after_error set) and d, their ad_observe_diff (NULL when either is missing),
 * settled as above, without any "value" when hide_values. With snap (the after read saved as
 * a snapshot, core/observe_snapshot.h; may be NULL or empty), the delta's nodes carry its
 * refs and changes.snapshot_id names it. A new reference. */
json_t *ad_observe_changes_json(const ad_tree *before, const ad_tree *after,
                                const ad_tree_delta *d, const ad_error *before_error,
                                const ad_error *after_error, const char *settled,
                                int64_t settle_ms, bool hide_values,
                                const ad_observe_snapshot *snap);

/* details.events: one entry per source element, in first-seen order, at most
 * AD_OBSERVE_EVENTS_LISTED, leaving out sources that are in after and that `changes`
 * (data.changes, borrowed, may be NULL) lists as an added or changed node at their path:
 * their events are counted in *ret_explained (may be NULL) instead. An entry has its
 * source's role and name when it is in after (else before); sources in neither read (gone,
 * nameless) share one entry without role or name; "events" the distinct events it sent
 * ("text-changed:insert", "state-changed:checked=true"), and "count" when it sent more than
 * those. A new array. */
json_t *ad_observe_events_json(const ad_change_events *ev, const ad_tree *before,
                               const ad_tree *after, const json_t *changes,
                               size_t *ret_explained);

/* Under a budget (--max-bytes with --wait-for --observe): shrinks the action's report (an
 * object with "changes" and "details"; borrowed) until it prints in at most max_bytes, in
 * steps, never silently:
 *   1. details.events goes (details.events_count stays; details.events_cut: true);
 *   2. then entries of changes go from the end of the delta (changed, then removed, then
 *      added, last first); changes then says truncated: true, entries_cut: N and
 *      complete: false.
 * 0 when it fits, -1 when even without every entry it does not (the report is then left cut
 * as far as it goes). */
int ad_observe_fit_report(json_t *report, long long max_bytes);

/* Appends src's events to dst (moved: src is emptied), keeping dst bounded like the
 * adapter's record (the rest counted in dropped). */
void ad_observe_events_append(ad_change_events *dst, ad_change_events *src);

#endif
