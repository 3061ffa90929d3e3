/* action_wait.c: the auto-wait before a ref action: resolution and the actionability
 * checks polled until the target is actionable (action_wait.h). */
#include "core/action_wait.h"

#include <string.h>

#include "core/actionability.h"
#include "core/ctx.h"
#include "core/surface.h"
#include "core/trace_event.h"

#define POLL_MS 100

static bool pointer_delivery(const ad_action_spec *spec, bool headed)
{
    return headed && (spec->physical_only || spec->physical_first) &&
           spec->phys != AD_PHYS_TEXT && spec->phys != AD_PHYS_FOCUS;
}

/* receives_events (transient, pointer delivery only): the element's center must show its own
 * window. A covered target fails with the occluder and is polled like the other checks. */
static void check_receives_events(ad_ctx *ctx, const ad_resolved *r, ad_actionability *a)
{
    const ad_node *n = r->node;
    if (!ctx->adapter->ops->hit_test || n->bounds_state != AD_FIELD_KNOWN)
        return; /* dispatch refuses a target without bounds */
    json_t *occluder = NULL;
    ad_error e = AD_ERROR_INIT;
    int px, py;
    ad_surface_target_point(n, &px, &py);
    int hit = ctx->adapter->ops->hit_test(ctx->adapter, r->window.id, px, py,
                                          ad_surface_in_popup(n), &occluder, &e);
    /* A headed pointer action activates the element's window first, which raises it over
     * other top-level windows; dispatch verifies the point again after that. Only what stays
     * on top (a menu, a tooltip: a popup the window manager never stacks) is worth waiting
     * for here. */
    bool raised_over = hit == 0 && occluder &&
                       json_is_false(json_object_get(occluder, "popup"));
    json_t *c = json_pack("{s:s, s:s}", "check", "receives_events", "status",
                          hit > 0 || raised_over ? "pass" : hit == 0 ? "fail" : "unknown");
    if (raised_over)
        json_object_set_new(c, "reason", json_string("another window covers the target; its "
                                                     "window is raised first"));
    if (occluder)
        json_object_set_new(c, "occluder", occluder);
    json_array_append_new(a->checks, c);
    if (hit == 0 && !raised_over) {
        a->actionable = false;
        a->failed_check = "receives_events";
        a->reason = "another window covers the target";
    }
    ad_error_clear(&e);
}

/* Turns the last evaluation into the error ad_wait_actionable reports. */
static void not_actionable(const ad_action_spec *spec, bool headed, ad_actionability *a,
                           ad_error *err)
{
    if (a->terminal && spec->focus_effect && !headed) {
        ad_error_set(err, AD_POLICY_DENIED, "Focusing an element moves the keyboard focus of "
                                            "the application");
        ad_error_suggest(err, "Pass --headed only when a focus change is intended");
        ad_error_detail(err, "foreground_effect", json_true());
    } else if (a->terminal && a->cause) {
        ad_checked_state_error(spec, a->cause, err);
    } else if (a->terminal) {
        ad_error_set(err, a->code, "Target is not actionable: %s (%s)", a->failed_check,
                     a->reason ? a->reason : "failed");
        if (a->kind && strcmp(a->kind, "pointer_required") == 0) {
            ad_error_suggest(err, "Open it with --headed click, then click the option's ref "
                                  "from a fresh snapshot");
            ad_error_detail(err, "kind", json_string(a->kind));
        }
    } else {
        ad_error_set(err, AD_TIMEOUT, "Target did not become actionable: %s (%s)",
                     a->failed_check, a->reason ? a->reason : "failed");
        ad_error_detail(err, "kind", json_string("actionability_timeout"));
        ad_error_detail(err, "last_report", json_pack("{s:s, s:s?}", "check", a->failed_check,
                                                      "reason", a->reason));
    }
    ad_error_detail(err, "actionable", json_false());
    ad_error_detail(err, "checks", json_incref(a->checks));
}

/* The ref action's resolution and pre-dispatch checks, as trace events: ref.resolve.ok and
 * an actionability.check.ok/error when the target was resolved and checked (checked: the
 * error, if any, is the checks'), else ref.resolve.error with the error's code. r->node is
 * read only on success: a failed last attempt has freed the tree it pointed into. */
static void trace_preflight(ad_ctx *ctx, const ad_resolved *r, const ad_auto_wait *w,
                            bool checked, int rc, const ad_error *err)
{
    const char *code = rc < 0 ? ad_error_code_name(err->code) : NULL;
    char ref[128];
    ad_ref_format(&r->ref, ref, sizeof(ref));
    json_t *attempts = json_integer((json_int_t)w->resolve_attempts);
    if (!checked) {
        ad_trace_event(ctx, "ref.resolve.error", json_pack("{s:s, s:s?, s:o}", "ref", ref, "code",
                                                           code, "attempts", attempts));
        return;
    }
    ad_trace_event(ctx, "ref.resolve.ok", json_pack("{s:s, s:s?, s:o}", "ref", ref, "role",
                                                    rc == 0 && r->node ? r->node->role : NULL,
                                                    "attempts", json_incref(attempts)));
    ad_trace_event(ctx, rc == 0 ? "actionability.check.ok" : "actionability.check.error",
                   json_pack("{s:s, s:s?, s:o}", "ref", ref, "code", code, "samples",
                             json_integer((json_int_t)w->preflight_attempts)));
    json_decref(attempts);
}

/* Polls resolution and the transient checks until the target is actionable, a terminal
 * check fails, or the deadline passes. On success *r holds the live read. A resolution cut
 * by the deadline after some evaluation failed reports that evaluation: it is why the wait
 * lasted. */
int ad_wait_actionable(ad_ctx *ctx, const ad_action_spec *spec, ad_resolved *r,
                       int64_t deadline, bool headed, ad_auto_wait *w, ad_error *err)
{
    ad_rect prev = {0};
    bool have_prev = false, have_last = false;
    ad_actionability last = {0};
    int samples = 0, rc = -1;
    bool checked = false; /* the outcome is the checks' (else the resolution's) */
    for (;;) {
        ad_tree_clear(&r->tree);
        ad_identity_index_free(r->idx);
        r->idx = NULL;
        ad_window_clear(&r->window);
        w->preflight_attempts++;
        w->resolve_attempts++;
        ad_error e = AD_ERROR_INIT;
        int64_t attempt_deadline = deadline > ad_now_us() ? deadline : ad_deadline_after_ms(1000);
        if (ad_resolve_live(ctx, r, attempt_deadline, &e) < 0) {
            /* Only an unproven identity is worth waiting for; absence and ambiguity are
             * answers. */
            if (e.code == AD_TIMEOUT && ad_now_us() >= deadline && have_last) {
                ad_error_clear(&e);
                not_actionable(spec, headed, &last, err);
                checked = true;
                break;
            }
            if (e.code != AD_TIMEOUT || ad_now_us() >= deadline) {
                ad_error_move(err, &e);
                break;
            }
            ad_error_clear(&e);
            ad_wait_next_poll(ctx, POLL_MS, deadline);
            continue;
        }
        samples++;
        ad_actionability a;
        ad_actionability_eval(spec, r->node, &r->tree, headed, have_prev ? &prev : NULL,
                              samples, &a);
        if (a.actionable && pointer_delivery(spec, headed))
            check_receives_events(ctx, r, &a);
        if (a.actionable || a.terminal || ad_now_us() >= deadline) {
            checked = true;
            if (a.actionable)
                rc = 0;
            else
                not_actionable(spec, headed, &a, err);
            ad_actionability_clear(&a);
            break;
        }
        if (have_last)
            ad_actionability_clear(&last);
        last = a;
        have_last = true;
        if (r->node->bounds_state == AD_FIELD_KNOWN ||
            r->node->bounds_state == AD_FIELD_WINDOW_RELATIVE) {
            prev = r->node->bounds;
            have_prev = true;
        }
        ad_wait_next_poll(ctx, POLL_MS, deadline);
    }
    if (have_last)
        ad_actionability_clear(&last);
    trace_preflight(ctx, r, w, checked, rc, err);
    return rc;
}
