/* actionability.c: visible, stable, enabled (transient); supported_action, policy, editable
 * (terminal). */
#include "core/actionability.h"

#include <string.h>

#include "core/visibility.h"

static bool has(const ad_node *n, unsigned bit)
{
    return n->states & (1u << bit);
}

static void check(ad_actionability *a, const char *name, const char *status, const char *reason)
{
    json_t *c = json_pack("{s:s, s:s}", "check", name, "status", status);
    if (reason)
        json_object_set_new(c, "reason", json_string(reason));
    json_array_append_new(a->checks, c);
    if (strcmp(status, "pass") != 0 && a->actionable) {
        a->actionable = false;
        a->failed_check = name;
        a->reason = reason;
    }
}

const char *ad_checked_state_problem(const ad_action_spec *spec, const ad_node *n)
{
    if (spec->act != AD_ACT_TOGGLE)
        return NULL;
    if (ad_node_checked(n) < 0)
        return "state_unreadable";
    return has(n, AD_ST_INDETERMINATE) ? "state_indeterminate" : NULL;
}

int ad_checked_state_error(const ad_action_spec *spec, const char *problem, ad_error *err)
{
    bool mixed = strcmp(problem, "state_indeterminate") == 0;
    ad_error_set(err, AD_ACTION_FAILED,
                 mixed ? "%s refused: the element reads neither checked nor unchecked"
                       : "%s refused: the element's checked state cannot be read",
                 spec->name);
    ad_error_suggest(err, mixed ? "Read the element and the UI around it, then use click if "
                                  "its next state is what you want"
                                : "Its toolkit does not report the state: verify the effect "
                                  "in the UI (or the app's settings) and use click");
    ad_error_detail(err, "cause", json_string(problem));
    err->delivery = AD_NOT_DELIVERED;
    return -1;
}

/* Does the element offer a semantic route for this action? NULL when it does. */
static const char *unsupported(const ad_action_spec *spec, const ad_node *n)
{
    switch (spec->act) {
    case AD_ACT_CLICK:
        /* An option whose only verb is "select" (Chromium's <select> options, Firefox list
         * options): choosing it is its click. */
        return ad_node_has_action(n, "Click") || (ad_option_role(n) &&
                                                  ad_node_has_action(n, "Select"))
                   ? NULL
                   : "the element exposes no Click action";
    case AD_ACT_RIGHT_CLICK:
        return ad_node_has_action(n, "RightClick") ? NULL
                                                   : "the element exposes no context-menu action";
    case AD_ACT_TOGGLE:
        if (!ad_node_checkable(n))
            return "the element cannot be checked";
        return ad_node_has_action(n, "Toggle") || ad_node_has_action(n, "Click")
                   ? NULL
                   : "the element exposes no toggle action";
    case AD_ACT_EXPAND:
    case AD_ACT_COLLAPSE:
        return ad_node_has_action(n, "Expand") || ad_node_has_action(n, "Collapse")
                   ? NULL
                   : "the element is not expandable";
    case AD_ACT_SET_TEXT:
    case AD_ACT_INSERT_TEXT:
    case AD_ACT_SET_NUMBER:
        return ad_node_has_action(n, "SetValue") || ad_node_has_action(n, "TypeText")
                   ? NULL
                   : "the element exposes no value write";
    case AD_ACT_SELECT:
        return ad_node_has_action(n, "Select") ? NULL : "the element offers no selection";
    case AD_ACT_SCROLL_TO:
    case AD_ACT_GRAB_FOCUS:
        return NULL;
    }
    return "unknown action";
}

/* visible (core/visibility.h). scroll-to exists to make its target visible, so there being
 * on screen is the readback, not a precondition: only a hidden element (not marked for
 * display at all) or unread states fail it beforehand. */
static void check_visible(ad_actionability *a, const ad_action_spec *spec, const ad_node *n,
                          const ad_tree *tree)
{
    const char *why = NULL;
    ad_visibility v = ad_visibility_of(n, tree, &why);
    bool reveals = spec->verify == AD_VERIFY_VISIBLE;
    if (reveals && n->states_state == AD_FIELD_KNOWN && !has(n, AD_ST_HIDDEN))
        return;
    if (v == AD_VISIBLE)
        check(a, "visible", "pass", NULL);
    else
        check(a, "visible", v == AD_NOT_VISIBLE ? "fail" : "unknown", why);
}

/* stable: the same bounds in two samples. Bounds that cannot be read never prove it
 * (scroll.md: "live bounds unavailable"). */
static void check_stable(ad_actionability *a, const ad_node *n, const ad_rect *previous,
                         int samples)
{
    /* Window-relative bounds prove stability too: both samples are in one space. */
    bool known = n->bounds_state == AD_FIELD_KNOWN ||
                 n->bounds_state == AD_FIELD_WINDOW_RELATIVE;
    bool moved = known && previous && memcmp(previous, &n->bounds, sizeof(*previous)) != 0;
    const char *why = !known ? AD_NO_LIVE_BOUNDS
                      : moved ? "the element moved between samples"
                              : NULL;
    json_t *stab = json_pack("{s:s, s:s, s:{s:i}}", "check", "stable", "status",
                             why ? "fail" : "pass", "stability", "samples", samples);
    if (why)
        json_object_set_new(stab, "reason", json_string(why));
    json_array_append_new(a->checks, stab);
    if (why && a->actionable) {
        a->actionable = false;
        a->failed_check = "stable";
        a->reason = why;
    }
}

void ad_actionability_eval(const ad_action_spec *spec, const ad_node *n, const ad_tree *tree,
                           bool headed, const ad_rect *previous, int samples,
                           ad_actionability *a)
{
    memset(a, 0, sizeof(*a));
    a->actionable = true;
    a->checks = json_array();
    bool states_known = n->states_state == AD_FIELD_KNOWN;
    check_visible(a, spec, n, tree);
    check_stable(a, n, previous, samples);
    if (!states_known)
        check(a, "enabled", "unknown", "states could not be read");
    else
        check(a, "enabled", has(n, AD_ST_DISABLED) ? "fail" : "pass",
              has(n, AD_ST_DISABLED) ? "disabled" : NULL);
    /* Terminal checks. */
    const char *why = NULL;
    bool actions_unread = false;
    ad_error_code code = AD_ACTION_NOT_SUPPORTED;
    if (spec->physical_only && !headed) {
        why = "semantic gesture is unavailable and physical fallback is denied";
        code = AD_POLICY_DENIED;
    } else if (!spec->physical_only && !(spec->physical_first && headed)) {
        why = unsupported(spec, n);
        /* Action names that could not be read are not missing: wait for a read that has
         * them (transient), never refuse on a cut read. */
        if (why && n->actions_state == AD_FIELD_UNKNOWN) {
            actions_unread = true;
            why = NULL;
        }
        /* A context menu has a physical route: headless, that is a policy refusal. */
        if (why && spec->act == AD_ACT_RIGHT_CLICK) {
            why = "semantic gesture is unavailable and physical fallback is denied";
            code = AD_POLICY_DENIED;
        }
        /* A combo box without a selection route (Qt 5: QComboBox exposes Action and
         * Component only, its list items are not selectable through AT-SPI) can only be
         * operated with the pointer: open it, then click the option. */
        if (why && spec->act == AD_ACT_SELECT && strcmp(n->role, "combobox") == 0)
            a->kind = "pointer_required";
    }
    /* A checked state that cannot decide check/uncheck/toggle will not change by waiting
     * (a GTK3 inconsistent check button also reads disabled: that must not time out). */
    const char *problem = why || !states_known ? NULL : ad_checked_state_problem(spec, n);
    if (problem) {
        why = strcmp(problem, "state_indeterminate") == 0 ? "the checked state is indeterminate"
                                                           : "the checked state is unreadable";
        code = AD_ACTION_FAILED;
        a->cause = problem;
    }
    if (actions_unread)
        check(a, "supported_action", "unknown", "the action names could not be read");
    else
        check(a, "supported_action", why ? "fail" : "pass", why);
    bool policy_fail = spec->focus_effect && !headed;
    check(a, "policy", policy_fail ? "fail" : "pass",
          policy_fail ? "moving keyboard focus needs --headed" : NULL);
    if (spec->act == AD_ACT_SET_TEXT || spec->act == AD_ACT_INSERT_TEXT) {
        bool ro = has(n, AD_ST_READONLY) || has(n, AD_ST_DISABLED);
        bool text_write = ad_node_has_action(n, "TypeText") || !ad_node_has_action(n, "SetValue");
        check(a, "editable", ro && text_write ? "fail" : "pass",
              ro && text_write ? "the element is read-only" : NULL);
        if (ro && text_write && !why && !policy_fail)
            why = "the element is read-only";
    }
    if (why || policy_fail) {
        a->terminal = true;
        a->code = policy_fail || code == AD_POLICY_DENIED ? AD_POLICY_DENIED : code;
        if (a->code != AD_ACTION_FAILED)
            a->cause = NULL;
    }
}

void ad_actionability_clear(ad_actionability *a)
{
    json_decref(a->checks);
    a->checks = NULL;
}
