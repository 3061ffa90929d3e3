/* ffi_action.c: actions on a native handle (ad_execute_action, _with_policy), their
 * AdActionResult and its free, and the two exact-entry calls that always fail closed.
 *
 * No command takes a native handle, so these call the platform adapter directly: the handle
 * lands on its element in a fresh read of its window (ffi_handle.c), the interaction lease
 * is taken around the dispatch like every mutation, and the element is read back for
 * post_state. As api.md says, there is no preflight: no strict re-identification (the
 * handle's address is the identity) and no actionability checks.
 *
 * The policy (AdPolicyKind) decides the route as --headed does for the CLI: semantic kinds go
 * through the accessibility API under every policy; the pointer and keyboard gestures
 * (double and triple click, hover, scroll, press_key, drag) have no semantic route, so
 * headless refuses them with POLICY_DENIED and focus_fallback or headed sends them as
 * physical input in the element's window. key_down and key_up fail closed everywhere, as
 * the CLI's key-down and key-up do.
 *
 * Ownership: every string and array of an AdActionResult is allocated on its own and
 * released by ad_free_action_result. */
#include <stdlib.h>
#include <string.h>

#include "core/action.h"
#include "core/deadline.h"
#include "core/lease.h"
#include "core/surface.h"
#include "ffi/ffi_private.h"

/* AdActionKind in order: the CLI's action name, the semantic act, and whether it has one. */
static const struct {
    const char *name;
    ad_act_kind act;
    bool semantic;
} kinds[] = {
    {"click", AD_ACT_CLICK, true},         {"double-click", AD_ACT_CLICK, false},
    {"right-click", AD_ACT_RIGHT_CLICK, true}, {"triple-click", AD_ACT_CLICK, false},
    {"set-value", AD_ACT_SET_TEXT, true},  {"focus", AD_ACT_GRAB_FOCUS, true},
    {"expand", AD_ACT_EXPAND, true},       {"collapse", AD_ACT_COLLAPSE, true},
    {"select", AD_ACT_SELECT, true},       {"toggle", AD_ACT_TOGGLE, true},
    {"check", AD_ACT_TOGGLE, true},        {"uncheck", AD_ACT_TOGGLE, true},
    {"scroll", AD_ACT_SCROLL_TO, false},   {"scroll-to", AD_ACT_SCROLL_TO, true},
    {"press", AD_ACT_CLICK, false},        {"key-down", AD_ACT_CLICK, false},
    {"key-up", AD_ACT_CLICK, false},       {"type", AD_ACT_INSERT_TEXT, true},
    {"clear", AD_ACT_SET_TEXT, true},      {"hover", AD_ACT_CLICK, false},
    {"drag", AD_ACT_CLICK, false},
};
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == AD_ACTION_KIND_DRAG + 1,
               "one entry per AdActionKind");

#define ACTION_TIMEOUT_MS 5000

/* AdModifier values in order, as a key combo names them. */
static const char *const modifier_names[] = {"meta", "ctrl", "alt", "shift"};

/* The combo "ctrl+shift+a" of an AdKeyCombo (owned), or NULL with INVALID_ARGS recorded. */
static char *combo_text(const AdKeyCombo *k)
{
    if (ffi_check_string(k->key, "action.key.key", true) != AD_RESULT_OK ||
        (k->modifier_count && ffi_check_ptr(k->modifiers, "action.key.modifiers") !=
                                  AD_RESULT_OK))
        return NULL;
    size_t len = strlen(k->key) + 1;
    for (uint32_t i = 0; i < k->modifier_count; i++) {
        if (ffi_check_enum(k->modifiers[i], AD_MODIFIER_META, AD_MODIFIER_SHIFT,
                           "action.key.modifiers") != AD_RESULT_OK)
            return NULL;
        len += strlen(modifier_names[k->modifiers[i]]) + 1;
    }
    char *combo = malloc(len);
    if (!combo) {
        ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
        return NULL;
    }
    combo[0] = '\0';
    for (uint32_t i = 0; i < k->modifier_count; i++) {
        strcat(combo, modifier_names[k->modifiers[i]]);
        strcat(combo, "+");
    }
    strcat(combo, k->key);
    return combo;
}

/* The physical request of a gesture at the element's live center (x, y). */
static int gesture_request(const AdAction *action, const ad_node *n, const char *window_id,
                           const char *combo, ad_phys_req *req, ad_error *err)
{
    *req = (ad_phys_req){.focus_window_id = window_id, .verify_window_id = window_id,
                         .popup_ok = ad_surface_in_popup(n), .button = 1, .count = 1,
                         .combo = combo};
    if (action->kind != AD_ACTION_KIND_PRESS_KEY && action->kind != AD_ACTION_KIND_DRAG &&
        (n->bounds_state != AD_FIELD_KNOWN || n->bounds.width <= 0 || n->bounds.height <= 0)) {
        ad_error_set(err, AD_ACTION_FAILED, "The element has no live bounds to point at");
        ad_error_detail(err, "cause", json_string("no_bounds"));
        return -1;
    }
    ad_surface_target_point(n, &req->x, &req->y);
    int amount = (int)(action->scroll.amount > 1000 ? 1000 : action->scroll.amount);
    switch (action->kind) {
    case AD_ACTION_KIND_DOUBLE_CLICK: req->kind = AD_PHYS_CLICK; req->count = 2; break;
    case AD_ACTION_KIND_TRIPLE_CLICK: req->kind = AD_PHYS_CLICK; req->count = 3; break;
    case AD_ACTION_KIND_HOVER: req->kind = AD_PHYS_MOVE; break;
    case AD_ACTION_KIND_SCROLL:
        /* The wheel convention of mouse-wheel: a negative dy scrolls down. */
        req->kind = AD_PHYS_WHEEL;
        req->dy = action->scroll.direction == AD_DIRECTION_UP     ? amount
                  : action->scroll.direction == AD_DIRECTION_DOWN ? -amount
                                                                  : 0;
        req->dx = action->scroll.direction == AD_DIRECTION_LEFT    ? -amount
                  : action->scroll.direction == AD_DIRECTION_RIGHT ? amount
                                                                   : 0;
        break;
    case AD_ACTION_KIND_PRESS_KEY:
        req->kind = AD_PHYS_KEYS;
        req->verify_window_id = NULL; /* keys go to the focused window, focused first */
        break;
    default: /* DRAG: the points the action names */
        req->kind = AD_PHYS_DRAG;
        req->x = (int)action->drag.from.x;
        req->y = (int)action->drag.from.y;
        req->x2 = (int)action->drag.to.x;
        req->y2 = (int)action->drag.to.y;
        req->duration_ms = (int)(action->drag.duration_ms > 60000 ? 60000
                                                                  : action->drag.duration_ms);
        req->hold_ms = (int)(action->drag.drop_delay_ms > 60000 ? 60000
                                                                 : action->drag.drop_delay_ms);
        req->verify_window_id = NULL; /* raw screen points, as ad_drag sends them */
    }
    return 0;
}

static bool needs_text(int32_t kind)
{
    return kind == AD_ACTION_KIND_SET_VALUE || kind == AD_ACTION_KIND_SELECT ||
           kind == AD_ACTION_KIND_TYPE_TEXT;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* Fills out from the report (steps, post-state read, delivery). Returns INTERNAL (recorded)
 * when out of memory; out is then freed. */
static AdResult fill_result(AdActionResult *out, const char *name, const ad_act_result *res,
                            const ad_node *after)
{
    /* A secure field's value is never reported (ad_post_state_json hides it). */
    json_t *details = json_object(), *post = after ? ad_post_state_json(after, false, false)
                                                  : json_null();
    json_object_set_new(details, "action", json_string(name));
    json_object_set_new(details, "steps", ad_act_steps_json(res, -1));
    json_object_set_new(details, "post_state", post);
    out->action = strdup(name);
    out->details_json = json_dumps(details, JSON_COMPACT);
    out->disposition = ffi_semantics_of(res->delivery);
    bool ok = out->action && out->details_json;
    if (res->n_steps && ok) {
        out->steps = calloc(res->n_steps, sizeof(*out->steps));
        ok = out->steps != NULL;
        for (size_t i = 0; ok && i < res->n_steps; i++) {
            AdActionStep *s = &out->steps[i];
            out->step_count = (uint32_t)i + 1;
            s->label = strdup(res->steps[i].label);
            s->outcome = dup_or_null(res->steps[i].outcome);
            s->has_mechanism = res->steps[i].mechanism != NULL;
            s->mechanism = s->has_mechanism && strcmp(res->steps[i].mechanism,
                                                      "physical_synthetic") == 0
                               ? AD_STEP_MECHANISM_PHYSICAL_SYNTHETIC
                               : AD_STEP_MECHANISM_SEMANTIC_API;
            ok = s->label && (s->outcome || !res->steps[i].outcome);
        }
    }
    if (ok && after) {
        AdElementState *st = calloc(1, sizeof(*st));
        out->post_state = st;
        const json_t *states = json_object_get(post, "states");
        const char *value = json_string_value(json_object_get(post, "value"));
        ok = st && (st->role = strdup(after->role)) && (!value || (st->value = strdup(value)));
        if (ok && json_array_size(states)) {
            st->states = calloc(json_array_size(states), sizeof(char *));
            ok = st->states != NULL;
            for (size_t i = 0; ok && i < json_array_size(states); i++) {
                st->state_count = (uint32_t)i + 1;
                ok = (st->states[i] = strdup(json_string_value(json_array_get(states, i))));
            }
        }
    }
    json_decref(details);
    if (ok)
        return AD_RESULT_OK;
    ad_free_action_result(out);
    return ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
}

/* Under the lease: lands, dispatches, reads back. err is filled on failure. */
static int act_on(ad_adapter *platform, const ffi_element *e, const AdAction *action,
                  const char *combo, ad_act_result *res, ad_tree *after_tree, ad_node **after,
                  ad_error *err)
{
    ad_tree tree;
    ad_node *n = NULL;
    bool gesture = !kinds[action->kind].semantic;
    AdResult rc = ffi_handle_land(platform, e, gesture, &tree, &n);
    if (rc != AD_RESULT_OK)
        return -2; /* recorded already */
    int32_t kind = action->kind;
    int checked = ad_node_checked(n);
    bool satisfied = (kind == AD_ACTION_KIND_CHECK && checked == 1) ||
                     (kind == AD_ACTION_KIND_UNCHECK && checked == 0);
    int ok = 0;
    if ((kind == AD_ACTION_KIND_CHECK || kind == AD_ACTION_KIND_UNCHECK) && checked < 0)
        ok = ad_error_set(err, AD_ACTION_NOT_SUPPORTED,
                          "The element's checked state cannot be read, so %s cannot decide",
                          kinds[kind].name);
    ad_phys_req phys;
    if (ok == 0 && gesture && (ok = gesture_request(action, n, ffi_handle_window(e), combo,
                                                    &phys, err)) == 0)
        ok = platform->ops->physical
                 ? platform->ops->physical(platform, &phys,
                                           ad_deadline_after_ms(ACTION_TIMEOUT_MS), res, err)
                 : ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "No physical input here");
    if (ok == 0 && !gesture && !satisfied) {
        ad_act_req req = {.kind = kinds[kind].act,
                          .text = kind == AD_ACTION_KIND_CLEAR ? "" : action->text,
                          .deadline_us = ad_deadline_after_ms(ACTION_TIMEOUT_MS)};
        ok = platform->ops->act(platform, n, &req, res, err);
    }
    bool secure = n->secure;
    ad_tree_clear(&tree);
    if (ok < 0)
        return -1;
    if (ffi_handle_land(platform, e, false, after_tree, after) != AD_RESULT_OK)
        *after = NULL; /* the element went away (a click that closed it): no post state */
    if (*after)
        (*after)->secure = (*after)->secure || secure;
    return 0;
}

AdResult ad_execute_action_with_policy(const struct AdAdapter *adapter,
                                       const struct AdNativeHandle *handle,
                                       const struct AdAction *action, int32_t policy,
                                       struct AdActionResult *out)
{
    AdResult rc = ffi_check_ptr(out, "out");
    if (rc != AD_RESULT_OK)
        return rc;
    memset(out, 0, sizeof(*out));
    const ffi_element *e = NULL;
    if ((rc = ffi_handle_check(adapter, handle, &e)) != AD_RESULT_OK ||
        (rc = ffi_check_ptr(action, "action")) != AD_RESULT_OK ||
        (rc = ffi_check_enum(action->kind, AD_ACTION_KIND_CLICK, AD_ACTION_KIND_DRAG,
                             "action.kind")) != AD_RESULT_OK ||
        (rc = ffi_check_enum(policy, AD_POLICY_KIND_HEADLESS, AD_POLICY_KIND_HEADED,
                             "policy")) != AD_RESULT_OK ||
        (rc = ffi_check_string(action->text, "action.text", needs_text(action->kind))) !=
            AD_RESULT_OK)
        return rc;
    if (action->kind == AD_ACTION_KIND_KEY_DOWN || action->kind == AD_ACTION_KIND_KEY_UP)
        return ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                        "key_down and key_up are not supported on any platform",
                        "Send the whole chord with AD_ACTION_KIND_PRESS_KEY");
    if (!kinds[action->kind].semantic && policy == AD_POLICY_KIND_HEADLESS)
        return ffi_fail(AD_RESULT_ERR_POLICY_DENIED,
                        "This action is a pointer or keyboard gesture, which has no semantic "
                        "route, and the headless policy refuses physical input",
                        "Pass AD_POLICY_KIND_HEADED (or FOCUS_FALLBACK) to "
                        "ad_execute_action_with_policy");
    if (action->kind == AD_ACTION_KIND_SCROLL &&
        ((rc = ffi_check_enum(action->scroll.direction, AD_DIRECTION_UP, AD_DIRECTION_RIGHT,
                              "action.scroll.direction")) != AD_RESULT_OK ||
         (!action->scroll.amount &&
          (rc = ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "action.scroll.amount must be at least 1",
                         NULL)) != AD_RESULT_OK)))
        return rc;
    char *combo = NULL;
    if (action->kind == AD_ACTION_KIND_PRESS_KEY && !(combo = combo_text(&action->key)))
        return ad_last_error_code();
    ad_adapter *platform = NULL;
    if ((rc = ffi_call_begin(adapter, &platform)) != AD_RESULT_OK) {
        free(combo);
        return rc;
    }
    ad_error err = AD_ERROR_INIT;
    if (combo && platform->ops->parse_combo &&
        platform->ops->parse_combo(platform, combo, &err) < 0) {
        ffi_call_end(adapter);
        free(combo);
        rc = ffi_fail_record(&err);
        ad_error_clear(&err);
        return rc;
    }
    ad_lease lease = AD_LEASE_INIT;
    ad_act_result res = {.delivery = AD_NOT_DELIVERED};
    ad_tree after_tree = {0};
    ad_node *after = NULL;
    int ok = ad_lease_acquire(&lease, ad_deadline_after_ms(ACTION_TIMEOUT_MS), &err);
    if (ok == 0)
        ok = act_on(platform, e, action, combo, &res, &after_tree, &after, &err);
    free(combo);
    ad_lease_release(&lease);
    ffi_call_end(adapter);
    if (ok == 0)
        rc = fill_result(out, kinds[action->kind].name, &res, after);
    else if (ok == -1)
        rc = ffi_fail_record(&err);
    else
        rc = ad_last_error_code();
    ad_tree_clear(&after_tree);
    ad_error_clear(&err);
    return rc;
}

AdResult ad_execute_action(const struct AdAdapter *adapter, const struct AdNativeHandle *handle,
                           const struct AdAction *action, struct AdActionResult *out)
{
    return ad_execute_action_with_policy(adapter, handle, action, AD_POLICY_KIND_HEADLESS, out);
}

void ad_free_action_result(struct AdActionResult *result)
{
    if (!result)
        return;
    free((char *)result->action);
    free((char *)result->ref_id);
    free((char *)result->details_json);
    for (uint32_t i = 0; result->steps && i < result->step_count; i++) {
        free((char *)result->steps[i].label);
        free((char *)result->steps[i].outcome);
    }
    free(result->steps);
    if (result->post_state) {
        for (uint32_t i = 0; result->post_state->states && i < result->post_state->state_count;
             i++)
            free(result->post_state->states[i]);
        free(result->post_state->states);
        free((char *)result->post_state->role);
        free((char *)result->post_state->value);
        free(result->post_state);
    }
    memset(result, 0, sizeof(*result));
}

/* An AdExactRefEntry carries no retained element token and no capture proof, so the element
 * it names cannot be re-identified (api.md): both calls fail closed and allocate nothing. */
static AdResult exact_entry_refused(void)
{
    return ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                    "An exact ref entry carries no retained element token and no capture "
                    "proof, so the element it names cannot be re-identified",
                    "Act through a snapshot ref with ad_execute_by_ref, or get a native "
                    "handle with ad_find_exact");
}

AdResult ad_execute_ref_action_exact_with_policy(const struct AdAdapter *adapter,
                                                 const struct AdExactRefEntry *entry,
                                                 const struct AdAction *action, int32_t policy,
                                                 struct AdActionResult *out)
{
    (void)adapter;
    (void)entry;
    (void)action;
    (void)policy;
    if (out)
        memset(out, 0, sizeof(*out));
    return exact_entry_refused();
}

AdResult ad_resolve_element_exact(const struct AdAdapter *adapter,
                                  const struct AdExactRefEntry *entry, struct AdNativeHandle *out)
{
    (void)adapter;
    (void)entry;
    if (out)
        out->ptr = NULL;
    return exact_entry_refused();
}
