/* action.c: the ref-action pipeline (action.h). */
#include "core/action.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/action_artifacts.h"
#include "core/action_wait.h"
#include "core/actionability.h"
#include "core/lease.h"
#include "core/modal_block.h"
#include "core/observe.h"
#include "core/overlay_input.h"
#include "core/overlay_session.h"
#include "core/present.h"
#include "core/resolve.h"
#include "core/surface.h"
#include "core/trace_event.h"
#include "core/visibility.h"

/* How long the readback waits for an asynchronous update (GTK applies many actions from an
 * idle callback) before a different value counts as a contradiction. */
#define SETTLE_MS 1500



static bool expanded(const ad_node *n)
{
    return n->states & (1u << AD_ST_EXPANDED);
}

/* scroll-to's postcondition (core/visibility.h): 1 visible, 0 proven not, -1 unreadable. */
static int shown(const ad_node *n, const ad_tree *tree)
{
    const char *why = NULL;
    ad_visibility v = ad_visibility_of(n, tree, &why);
    return v == AD_VISIBLE ? 1 : v == AD_NOT_VISIBLE ? 0 : -1;
}

/* The element's state as data.post_state reports it. The value appears for the actions
 * that write one, and otherwise only when the element has one. */
json_t *ad_post_state_json(const ad_node *n, bool hide_value, bool value_action)
{
    json_t *o = json_object();
    if (n->states_state == AD_FIELD_KNOWN)
        json_object_set_new(o, "enabled", json_boolean(!(n->states & (1u << AD_ST_DISABLED))));
    json_object_set_new(o, "role", json_string(n->role));
    if (n->states_state == AD_FIELD_KNOWN)
        json_object_set_new(o, "states", ad_states_json(n));
    const char *v = ad_text_get(&n->value);
    if (!hide_value && !n->secure && (v || (value_action && n->value.state == AD_FIELD_ABSENT)))
        json_object_set_new(o, "value", json_string(v ? v : ""));
    return o;
}

/* Does the element show `want` as its choice? A combo box by its value; a list, which has
 * none, by the state of its option that shows `want`. 1 yes, 0 no, -1 unreadable. */
static int shows_choice(const ad_node *n, const char *want)
{
    if (n->value.state == AD_FIELD_KNOWN)
        return strcmp(ad_text_get(&n->value), want) == 0;
    if (n->value.state == AD_FIELD_UNKNOWN)
        return -1;
    const ad_node *holder = n->n_children == 1 && strcmp(n->children[0]->role, "menu") == 0
                                ? n->children[0]
                                : n;
    for (size_t i = 0; i < holder->n_children; i++) {
        const ad_node *c = holder->children[i];
        const char *text = ad_node_display_text(c);
        if (text && strcmp(text, want) == 0)
            return c->states_state == AD_FIELD_KNOWN
                       ? (c->states & (1u << AD_ST_SELECTED)) != 0
                       : -1;
    }
    return -1; /* the option is not in this read */
}

/* Does the element's value read `want`? 1 yes, 0 no, -1 unreadable: a secure field, a failed
 * read, or a read as long as the walker's field limit (it may have been cut there). An empty
 * GTK entry reads as an absent value: that is "". */
static int value_equals(const ad_node *n, const char *want)
{
    const char *v = ad_text_get(&n->value);
    if (n->secure || n->value.state == AD_FIELD_UNKNOWN ||
        (v && strlen(v) >= ad_read_limits_default(0).max_field_bytes))
        return -1;
    return strcmp(v ? v : "", want) == 0;
}

/* Is the request already satisfied? Then nothing is delivered. `want` is the value a
 * set-value or clear writes. */
static bool already_satisfied(const ad_action_spec *spec, const ad_node *n,
                              const ad_tree *tree, const char *text, const char *want)
{
    if (spec->act == AD_ACT_SELECT)
        return text && shows_choice(n, text) == 1;
    if (spec->verify == AD_VERIFY_VALUE)
        return value_equals(n, want) == 1;
    if (n->states_state != AD_FIELD_KNOWN)
        return false;
    switch (spec->verify) {
    case AD_VERIFY_CHECKED: return ad_node_checked(n) == 1;
    case AD_VERIFY_UNCHECKED: return ad_node_checked(n) == 0;
    case AD_VERIFY_EXPANDED: return expanded(n);
    case AD_VERIFY_COLLAPSED: return !expanded(n);
    case AD_VERIFY_VISIBLE: return shown(n, tree) == 1;
    default: return false;
    }
}

json_t *ad_act_steps_json(const ad_act_result *r, int verified)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->n_steps; i++) {
        json_t *s = json_pack("{s:s, s:s, s:s}", "label", r->steps[i].label, "mechanism",
                              r->steps[i].mechanism, "outcome", r->steps[i].outcome);
        if (verified >= 0)
            json_object_set_new(s, "verified", json_boolean(verified));
        json_array_append_new(a, s);
    }
    return a;
}

static json_t *auto_wait_json(const ad_auto_wait *w)
{
    return json_pack("{s:i, s:I, s:i, s:i}", "lease_contention_count", (int)w->contention,
                     "lease_hold_ms", (json_int_t)w->hold_ms, "read_only_preflight_attempts",
                     w->preflight_attempts, "read_only_resolve_attempts", w->resolve_attempts);
}

/* Reads the element back until it shows the requested effect or the settle time passes.
 * Returns 1 verified, 0 contradicted (r->node is the contradicting read), -1 unreadable. */
static int read_back(ad_ctx *ctx, const ad_action_spec *spec, ad_resolved *r, const char *want,
                     int was_checked, const char *before_value)
{
    int64_t settle = ad_deadline_after_ms(SETTLE_MS);
    int outcome = -1;
    for (;;) {
        ad_tree_clear(&r->tree);
        ad_identity_index_free(r->idx);
        r->idx = NULL;
        ad_window_clear(&r->window);
        ad_error e = AD_ERROR_INIT;
        if (ad_resolve_live(ctx, r, ad_deadline_after_ms(2000), &e) < 0) {
            ad_error_clear(&e);
            outcome = -1;
            r->node = NULL;
        } else {
            const ad_node *n = r->node;
            const char *v = ad_text_get(&n->value);
            bool states = n->states_state == AD_FIELD_KNOWN;
            int now_checked = ad_node_checked(n);
            switch (spec->verify) {
            case AD_VERIFY_CHECKED: outcome = now_checked; break;
            case AD_VERIFY_UNCHECKED: outcome = now_checked < 0 ? -1 : !now_checked; break;
            case AD_VERIFY_TOGGLED:
                outcome = now_checked < 0 || was_checked < 0 ? -1 : now_checked != was_checked;
                break;
            case AD_VERIFY_EXPANDED: outcome = states ? expanded(n) : -1; break;
            case AD_VERIFY_COLLAPSED: outcome = states ? !expanded(n) : -1; break;
            case AD_VERIFY_VALUE:
                if (spec->act == AD_ACT_SELECT)
                    outcome = shows_choice(n, want);
                else
                    outcome = value_equals(n, want);
                break;
            case AD_VERIFY_INSERTED:
                /* An empty GTK entry reads as an absent value: that is "". */
                outcome = n->value.state == AD_FIELD_UNKNOWN
                              ? -1
                              : (strstr(v ? v : "", want) &&
                                 strlen(v ? v : "") ==
                                     strlen(before_value ? before_value : "") + strlen(want));
                break;
            case AD_VERIFY_VISIBLE: outcome = shown(n, &r->tree); break;
            case AD_VERIFY_NONE: outcome = 1; break;
            }
        }
        if (outcome == 1 || ad_now_us() >= settle)
            return outcome;
        ad_wait_next_poll(ctx, 50, settle);
    }
}

static int dispatch_semantic(ad_ctx *ctx, const ad_action_spec *spec, ad_resolved *r,
                             const char *text, int64_t deadline, ad_act_result *res,
                             ad_error *err)
{
    if (!ctx->adapter->ops->act)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "This adapter performs no actions");
    ad_act_req req = {.kind = spec->act, .text = text, .deadline_us = deadline};
    if (spec->act == AD_ACT_SET_TEXT && strcmp(r->node->role, "slider") == 0) {
        char *end = NULL;
        req.kind = AD_ACT_SET_NUMBER;
        req.number = strtod(text, &end);
        if (!end || *end || !isfinite(req.number)) {
            ad_error_set(err, AD_INVALID_ARGS, "A slider takes a number, not '%s'", text);
            return -1;
        }
    }
    return ctx->adapter->ops->act(ctx->adapter, r->node, &req, res, err);
}

/* Does n or something inside it hold the keyboard focus? GTK4 entries keep it on an inner
 * text child, so the target's subtree counts. */
static bool holds_focus(const ad_node *n)
{
    if (n->states_state == AD_FIELD_KNOWN && (n->states & (1u << AD_ST_FOCUSED)))
        return true;
    for (size_t i = 0; i < n->n_children; i++)
        if (holds_focus(n->children[i]))
            return true;
    return false;
}

/* A keystroke after the first of type --interval-ms goes only where the first one went: the
 * target still holds the focus (read under the lease) and its window is still the active
 * one (checked by the adapter before sending). Nothing is sent otherwise. */
static int require_kept_focus(const ad_resolved *r, ad_error *err)
{
    if (holds_focus(r->node))
        return 0;
    ad_error_set(err, AD_ACTION_FAILED, "The target lost the keyboard focus between keystrokes");
    ad_error_suggest(err, "Read the field with get, then type the rest of the text again");
    ad_error_detail(err, "cause", json_string("focus_changed"));
    return -1;
}

/* Physical input at the element's live center, in its own window, focused first. */
static int dispatch_physical(ad_ctx *ctx, const ad_action_spec *spec, ad_resolved *r,
                             const char *text, int64_t deadline, ad_act_result *res,
                             ad_error *err)
{
    if (!ctx->adapter->ops->physical)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "This adapter has no physical input");
    const ad_node *n = r->node;
    bool pointer = spec->phys != AD_PHYS_TEXT && spec->phys != AD_PHYS_FOCUS;
    if (pointer && n->bounds_state == AD_FIELD_WINDOW_RELATIVE) {
        /* Refused before any event: a physical_first action falls back to its semantic
         * route (dispatch). */
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED,
                     "The element's place on the screen is unknown in this Wayland session");
        ad_error_suggest(err, "Run it without --headed (its semantic action needs no screen "
                              "point), or see 'agent-desktop skills get linux troubleshooting' "
                              "for window positions on GNOME Wayland");
        ad_error_detail(err, "cause", json_string("wayland_session"));
        err->delivery = AD_NOT_DELIVERED;
        return -1;
    }
    if (pointer && (n->bounds_state != AD_FIELD_KNOWN || n->bounds.width <= 0 ||
                    n->bounds.height <= 0)) {
        ad_error_set(err, AD_ACTION_FAILED, "The element has no live bounds to point at");
        ad_error_detail(err, "cause", json_string("no_bounds"));
        return -1;
    }
    ad_phys_req req = {
        .kind = spec->phys,
        .focus_window_id = r->window.id,
        .verify_window_id = pointer ? r->window.id : NULL,
        .window = &r->window,
        .popup_ok = ad_surface_in_popup(n),
        .button = spec->button ? spec->button : 1,
        .count = spec->count ? spec->count : 1,
        .dx = spec->wheel_dx,
        .dy = spec->wheel_dy,
        .text = text,
    };
    if (spec->phys == AD_PHYS_TEXT && spec->text_no_click) {
        if (require_kept_focus(r, err) < 0)
            return -1;
        req.focus_window_id = NULL;
        req.require_active_window_id = r->window.id;
    }
    ad_surface_target_point(n, &req.x, &req.y);
    /* Typing goes to the focused element: click it first so the caret is in it. */
    if (spec->phys == AD_PHYS_TEXT && !spec->text_no_click) {
        ad_phys_req click = req;
        click.kind = AD_PHYS_CLICK;
        click.verify_window_id = r->window.id;
        click.count = 1;
        if (n->bounds_state != AD_FIELD_KNOWN)
            return ad_error_set(err, AD_ACTION_FAILED, "The text target has no live bounds");
        if (ctx->adapter->ops->physical(ctx->adapter, &click, deadline, res, err) < 0)
            return -1;
        req.focus_window_id = NULL;
        ad_act_result more = {0};
        if (ctx->adapter->ops->physical(ctx->adapter, &req, deadline, &more, err) < 0) {
            err->delivery = AD_DELIVERY_UNCERTAIN; /* the click already landed */
            return -1;
        }
        for (size_t i = 0; i < more.n_steps && res->n_steps < 4; i++)
            res->steps[res->n_steps++] = more.steps[i];
        return 0;
    }
    return ctx->adapter->ops->physical(ctx->adapter, &req, deadline, res, err);
}

static int dispatch(ad_ctx *ctx, const ad_action_spec *spec, ad_resolved *r, const char *text,
                    bool headed, int64_t deadline, ad_act_result *res, ad_error *err)
{
    if (!headed || !(spec->physical_only || spec->physical_first))
        return dispatch_semantic(ctx, spec, r, text, deadline, res, err);
    ad_error perr = AD_ERROR_INIT;
    bool hid = ad_overlay_hide_for_input(ctx); /* real input: the cursors step aside */
    int rc = dispatch_physical(ctx, spec, r, text, deadline, res, &perr);
    ad_overlay_show_after_input(ctx, hid, NULL);
    if (rc == 0 && spec->focus_effect) {
        /* focus: the window is active; now the element itself. */
        ad_act_result sem = {0};
        rc = dispatch_semantic(ctx, spec, r, text, deadline, &sem, err);
        for (size_t i = 0; rc == 0 && i < sem.n_steps && res->n_steps < 4; i++)
            res->steps[res->n_steps++] = sem.steps[i];
        ad_error_clear(&perr);
        return rc;
    }
    /* Later keystrokes of a headed burst never switch route: a refusal stops the burst. */
    if (rc == 0 || spec->physical_only || spec->text_no_click ||
        perr.delivery != AD_NOT_DELIVERED) {
        if (rc < 0)
            ad_error_move(err, &perr);
        return rc;
    }
    /* Physical input was refused before anything was sent: the semantic route. */
    ad_act_step attempted = res->n_steps ? res->steps[0] : (ad_act_step){0};
    ad_error_clear(&perr);
    rc = dispatch_semantic(ctx, spec, r, text, deadline, res, err);
    if (rc == 0 && res->n_steps < 4) {
        memmove(&res->steps[1], &res->steps[0], res->n_steps * sizeof(res->steps[0]));
        if (!attempted.label[0])
            snprintf(attempted.label, sizeof(attempted.label), "XTEST.FakeInput");
        attempted.mechanism = "physical_synthetic";
        attempted.outcome = "attempted";
        res->steps[0] = attempted;
        res->n_steps++;
    }
    return rc;
}

/* The request as the readback compares it. */
static const char *expected_value(const ad_action_spec *spec, const char *text)
{
    if (spec->act == AD_ACT_SET_TEXT && !text)
        return "";
    return text ? text : "";
}

static void verification_details(json_t *details, bool value_kind, int outcome, bool secure)
{
    if (outcome == 0) {
        json_object_set_new(details, "verification_scope",
                            json_string(value_kind ? "element_value" : "element_state"));
        json_object_set_new(details, "verification_reason", json_string("postcondition_mismatch"));
        return;
    }
    if (outcome == 1) {
        json_object_set_new(details, "verification_scope",
                            json_string(value_kind ? "element_value" : "element_state"));
        if (value_kind)
            json_object_set_new(details, "application_commit", json_string("not_verified"));
        return;
    }
    json_object_set_new(details, "verification_scope", json_string("unavailable"));
    json_object_set_new(details, "verification_reason",
                        json_string(secure ? "secure_field" : "insufficient_evidence"));
}

/* The label of the step an already satisfied request skips: the call it would have made. */
static const char *skipped_label(const ad_action_spec *spec, const ad_node *n)
{
    switch (spec->act) {
    case AD_ACT_SELECT: return "Selection.SelectChild";
    case AD_ACT_SCROLL_TO: return "Component.ScrollTo";
    case AD_ACT_SET_TEXT:
        return strcmp(n->role, "slider") == 0 ? "Value.CurrentValue"
                                               : "EditableText.SetTextContents";
    default: return "Action.DoAction";
    }
}

/* The report of a request the element already satisfies: nothing delivered, the step
 * skipped and verified by the read that showed it (n). New reference. */
static json_t *skipped_report(const ad_action_spec *spec, const ad_node *n,
                              const ad_auto_wait *w, bool hide, bool value_action)
{
    ad_act_result res = {.n_steps = 1};
    snprintf(res.steps[0].label, sizeof(res.steps[0].label), "%s", skipped_label(spec, n));
    res.steps[0].mechanism = "semantic_api";
    res.steps[0].outcome = "skipped";
    json_t *d = json_object();
    json_object_set_new(d, "action", json_string(spec->name));
    json_object_set_new(d, "details", json_pack("{s:s, s:o}", "verification_scope",
                                                value_action ? "element_value"
                                                             : "element_state",
                                                "auto_wait", auto_wait_json(w)));
    json_object_set_new(d, "disposition", ad_disposition_json(AD_NOT_DELIVERED));
    json_object_set_new(d, "post_state", ad_post_state_json(n, hide, value_action));
    json_object_set_new(d, "steps", ad_act_steps_json(&res, 1));
    return d;
}

/* What the read under the lease decides before anything is sent: a checked state that cannot
 * decide the action, a request already satisfied (*ret_satisfied: then nothing is sent), a
 * modal dialog blocking the window. 0 go on, -1 refused (err set, nothing sent). Scrolling
 * into view is not input to the application: a modal dialog does not stop it. */
static int precheck_under_lease(ad_ctx *ctx, const ad_action_spec *spec, const ad_resolved *r,
                                const char *text, const char *want, int64_t deadline,
                                bool *ret_satisfied, ad_error *err)
{
    const char *problem = ad_checked_state_problem(spec, r->node);
    if (problem)
        return ad_checked_state_error(spec, problem, err);
    *ret_satisfied = already_satisfied(spec, r->node, &r->tree, text, want);
    if (*ret_satisfied || (spec->act == AD_ACT_SCROLL_TO && !spec->physical_only))
        return 0;
    /* Under the lease every other agent waits: a silent registry costs at most 1 s here. */
    return ad_modal_block_check(ctx, &r->window, ad_deadline_within(deadline, 250, 1000), err);
}

int ad_ref_action_run(ad_ctx *ctx, const ad_action_spec *spec, const char *ref,
                      const char *text, int64_t timeout_ms, bool secret_io, json_t **ret_data,
                      ad_error *err)
{
    return ad_ref_action_run_observed(ctx, spec, ref, text, timeout_ms, secret_io, false,
                                      ret_data, err);
}

int ad_ref_action_run_observed(ad_ctx *ctx, const ad_action_spec *spec, const char *ref,
                               const char *text, int64_t timeout_ms, bool secret_io,
                               bool observe, json_t **ret_data, ad_error *err)
{
    bool headed = json_is_true(json_object_get(ctx->globals, "headed"));
    int64_t deadline = ad_deadline_after_ms(timeout_ms);
    ad_auto_wait w = {0};
    ad_resolved r = {0};
    ad_lease lease = AD_LEASE_INIT;
    ad_act_result res = {0};
    ad_artifacts art = {0};
    ad_observe obs = {0};
    int rc = -1;
    if (ad_resolve_load(ctx, ref, &r, err) < 0) {
        ad_trace_event(ctx, "ref.resolve.error", json_pack("{s:s, s:s}", "ref", ref, "code",
                                                           ad_error_code_name(err->code)));
        goto done;
    }
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(
            ctx->adapter, json_string_value(json_object_get(json_object_get(r.refmap, "source"),
                                                            "source_window_id")),
            deadline);
    if (ad_wait_actionable(ctx, spec, &r, deadline, headed, &w, err) < 0)
        goto done;
    bool secure = r.node->secure;
    bool hide = secret_io || secure;
    /* A list has no value: a select there is checked through its option's state. */
    bool value_action = (spec->verify == AD_VERIFY_VALUE &&
                         !(spec->act == AD_ACT_SELECT && r.node->value.state == AD_FIELD_ABSENT)) ||
                        spec->verify == AD_VERIFY_INSERTED;
    const char *want = expected_value(spec, text);
    if (already_satisfied(spec, r.node, &r.tree, text, want)) {
        *ret_data = skipped_report(spec, r.node, &w, hide, value_action);
        if (observe)
            ad_observe_nothing_sent(*ret_data);
        rc = 0;
        goto done;
    }
    /* The agent cursor glides to the target before the lease, so several agents' cursors
     * travel at once while their actions take turns (sessions.md); presentation only. */
    if (r.node->bounds_state == AD_FIELD_KNOWN)
        ad_overlay_before_action(ctx, &r.node->bounds,
                                 r.node->bounds.x + r.node->bounds.width / 2,
                                 r.node->bounds.y + r.node->bounds.height / 2,
                                 spec->act == AD_ACT_CLICK);
    /* The lease, then the same strict resolution again: what was checked without the lease
     * may have changed while another agent acted. */
    if (ad_lease_acquire(&lease, deadline > ad_now_us() ? deadline : ad_deadline_after_ms(1000),
                         err) < 0) {
        w.contention = 1;
        ad_error_detail(err, "auto_wait", auto_wait_json(&w));
        goto done;
    }
    w.contention = lease.contention;
    ad_error e = AD_ERROR_INIT;
    r.node = NULL;
    ad_tree_clear(&r.tree);
    ad_identity_index_free(r.idx);
    r.idx = NULL;
    ad_window_clear(&r.window);
    w.resolve_attempts++;
    /* At least 2 s, more when the action's own budget is longer: an animating GTK 4 app
     * answers once per frame, so a whole-window read can take seconds under load. */
    int64_t read_until = ad_deadline_after_ms(2000);
    int64_t until = deadline > read_until ? deadline : read_until;
    bool satisfied = false;
    /* With --observe this read is also the window before dispatch: every native id is read,
     * as the diff compares identities. */
    int ok = ad_resolve_live_read(ctx, &r, until, (ad_resolve_read){.all_native_ids = observe},
                                  &e) == 0 ? 0 : -1;
    if (ok < 0) /* the same strict resolution under the lease failed */
        ad_trace_event(ctx, "ref.resolve.error", json_pack("{s:s, s:s, s:b}", "ref", ref,
                                                           "code", ad_error_code_name(e.code),
                                                           "under_lease", 1));
    if (ok == 0)
        ok = precheck_under_lease(ctx, spec, &r, text, want, until, &satisfied, &e);
    if (ok == 0 && satisfied) {
        w.hold_ms = ad_lease_release(&lease);
        *ret_data = skipped_report(spec, r.node, &w, hide, value_action);
        if (observe)
            ad_observe_nothing_sent(*ret_data);
        rc = 0;
        goto done;
    }
    /* The state the readback compares with: read under the lease, just before dispatch. */
    int was_checked = ok == 0 ? ad_node_checked(r.node) : -1;
    char *before = ok == 0 && ad_text_get(&r.node->value) ? strdup(ad_text_get(&r.node->value))
                                                          : NULL;
    if (ok == 0) /* --screenshots sessions: the picture before, once the target is live */
        ad_artifacts_before(ctx, &r.window, r.refmap, spec->name, ref, &art);
    if (ok == 0 && observe)
        ad_observe_dispatch(ctx, &obs);
    if (ok == 0)
        ok = dispatch(ctx, spec, &r, spec->act == AD_ACT_SET_TEXT ? want : text, headed,
                      deadline > ad_now_us() ? deadline : ad_deadline_after_ms(2000), &res, &e);
    w.hold_ms = ad_lease_release(&lease);
    if (ok == 0)
        ad_ctx_note_delivery(ctx, res.delivery);
    if (ok < 0) {
        ad_error_move(err, &e);
        ad_error_detail(err, "auto_wait", auto_wait_json(&w));
        free(before);
        goto done;
    }
    if (observe) /* the read under the lease is the window before; the readback reads anew */
        ad_observe_hold(&obs, &r.window, &r.tree);
    json_t *d = json_object();
    json_t *details = json_object();
    int outcome = 1;
    ad_delivery delivery = res.delivery;
    if (spec->verify != AD_VERIFY_NONE) {
        outcome = secure ? -1 : read_back(ctx, spec, &r, want, was_checked, before);
        verification_details(details, value_action, outcome, secure);
        if (outcome == 1)
            delivery = AD_DELIVERED_VERIFIED;
    }
    /* Keys remapped for headed text go back once the text was read in the app. */
    if (spec->phys == AD_PHYS_TEXT && spec->verify != AD_VERIFY_NONE &&
        ctx->adapter->ops->settle_input)
        ctx->adapter->ops->settle_input(ctx->adapter, outcome == 1);
    free(before);
    json_object_set_new(details, "auto_wait", auto_wait_json(&w));
    json_object_set_new(d, "action", json_string(spec->name));
    json_object_set_new(d, "details", details);
    json_object_set_new(d, "disposition", ad_disposition_json(delivery));
    if (spec->verify != AD_VERIFY_NONE && r.node)
        json_object_set_new(d, "post_state", ad_post_state_json(r.node, hide, value_action));
    json_object_set_new(d, "steps", ad_act_steps_json(&res, spec->verify != AD_VERIFY_NONE
                                                         ? outcome == 1
                                                         : -1));
    if (res.has_point)
        json_object_set_new(d, "target", json_pack("{s:s, s:{s:f, s:f}}", "kind", "pointer",
                                                   "point", "x", (double)res.x, "y",
                                                   (double)res.y));
    json_t *surfaces = spec->reports_surfaces
                           ? ad_surfaces_of_pid(ctx, r.window.pid,
                                                ad_deadline_within(deadline, 250, 2000))
                           : NULL;
    if (surfaces) /* unread surfaces are left out, never reported as none */
        json_object_set_new(d, "surfaces", surfaces);
    if (observe)
        ad_observe_report(ctx, &obs, hide, d);
    if (outcome == 0) {
        /* A readable contradiction: the action landed, the state says otherwise. */
        ad_error_set(err, AD_ACTION_FAILED, "%s was delivered but the element reads otherwise",
                     spec->name);
        ad_error_suggest(err, "Read post_state and the UI before acting again; do not repeat "
                              "the action blindly");
        err->delivery = AD_DELIVERED_UNVERIFIED;
        ad_error_detail(err, "kind", json_string("post_action_verification"));
        json_t *ps = json_object_get(d, "post_state");
        if (ps)
            ad_error_detail(err, "post_state", json_incref(ps));
        ad_error_detail(err, "after_action", d);
        goto done;
    }
    *ret_data = d;
    rc = 0;
done:
    ad_artifacts_after(ctx, &r.window, &art); /* after the readback: the settled window */
    if (r.window.id) {
        free(ctx->observed_window_id);
        ctx->observed_window_id = strdup(r.window.id);
    }
    ad_lease_release(&lease);
    ad_resolved_clear(&r);
    ad_observe_clear(&obs);
    return rc;
}
