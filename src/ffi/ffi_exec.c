/* ffi_exec.c: the ref action and wait entrypoints, and the log callback. ad_execute_by_ref runs
 * the CLI's command for the action kind (click, type, scroll, ...) through ffi_run
 * (ffi_run_headed for a headed policy), so it gets the validator, the session, the trace and
 * the interaction lease of the CLI; ad_wait runs `wait`. Each ABI struct becomes the "given"
 * arguments the CLI's parser would build: only what the caller set, so the validator's rules
 * (wait's modes, one of REF or --xy, ...) see exactly what was asked and the table fills the
 * defaults. Nothing here re-checks what the validator checks, except the ref, which the ABI
 * wants refused before dispatch (ownership-and-threading.md, "Refs, enums, and panics").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "core/refs.h"
#include "ffi/ffi_private.h"

/* What one AdActionKind runs: the command and what of the AdAction it reads. */
typedef enum {
    TAKES_NOTHING, /* the ref only */
    TAKES_VALUE,   /* action->text as the "value" positional (set-value, select) */
    TAKES_TEXT,    /* action->text as "text" (type) */
    TAKES_SCROLL,  /* action->scroll (scroll) */
    TAKES_COMBO,   /* action->key as a '+' combo, no ref argument (key-down, key-up) */
    TAKES_DRAG,    /* the ref as --from, action->drag.to as --to-xy (drag) */
} action_input;

typedef struct {
    const char *command; /* NULL: no command acts on a ref this way (fails closed) */
    action_input input;
    bool ref_positional; /* the command takes the ref as ref_id */
    bool has_timeout;    /* the command takes --timeout-ms */
} action_map;

/* Indexed by AdActionKind (0 to AD_ACTION_KIND_DRAG). */
static const action_map action_maps[] = {
    [AD_ACTION_KIND_CLICK] = {"click", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_DOUBLE_CLICK] = {"double-click", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_RIGHT_CLICK] = {"right-click", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_TRIPLE_CLICK] = {"triple-click", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_SET_VALUE] = {"set-value", TAKES_VALUE, true, true},
    [AD_ACTION_KIND_SET_FOCUS] = {"focus", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_EXPAND] = {"expand", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_COLLAPSE] = {"collapse", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_SELECT] = {"select", TAKES_VALUE, true, true},
    [AD_ACTION_KIND_TOGGLE] = {"toggle", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_CHECK] = {"check", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_UNCHECK] = {"uncheck", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_SCROLL] = {"scroll", TAKES_SCROLL, true, true},
    [AD_ACTION_KIND_SCROLL_TO] = {"scroll-to", TAKES_NOTHING, true, true},
    /* press sends a combo to an app or the focused window, never to a ref: acting on
     * something other than the ref would be a fake success, so it fails closed. */
    [AD_ACTION_KIND_PRESS_KEY] = {NULL, TAKES_COMBO, false, false},
    /* Reserved in the CLI too: the command itself fails closed, with its own error. */
    [AD_ACTION_KIND_KEY_DOWN] = {"key-down", TAKES_COMBO, false, false},
    [AD_ACTION_KIND_KEY_UP] = {"key-up", TAKES_COMBO, false, false},
    [AD_ACTION_KIND_TYPE_TEXT] = {"type", TAKES_TEXT, true, true},
    [AD_ACTION_KIND_CLEAR] = {"clear", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_HOVER] = {"hover", TAKES_NOTHING, true, true},
    [AD_ACTION_KIND_DRAG] = {"drag", TAKES_DRAG, false, true},
};

/* AdDirection values in order, as scroll's --direction names them. */
static const char *const direction_names[] = {"up", "down", "left", "right"};
/* The given arguments of `map` for `action` on ref_id into *ret (owned). */
static AdResult action_args(const action_map *map, const char *ref_id, const AdAction *action,
                            int64_t timeout_ms, json_t **ret)
{
    *ret = NULL;
    json_t *args = json_object();
    if (!args)
        return ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    AdResult rc = AD_RESULT_OK;
    if (map->ref_positional)
        json_object_set_new(args, "ref_id", json_string(ref_id));
    switch (map->input) {
    case TAKES_NOTHING: break;
    case TAKES_VALUE:
    case TAKES_TEXT:
        /* Required: a NULL text would reach the command as "missing", not as empty. */
        rc = ffi_check_string(action->text, "action.text", true);
        if (rc == AD_RESULT_OK)
            json_object_set_new(args, map->input == TAKES_TEXT ? "text" : "value",
                                json_string(action->text));
        break;
    case TAKES_SCROLL:
        rc = ffi_check_enum(action->scroll.direction, AD_DIRECTION_UP, AD_DIRECTION_RIGHT,
                            "action.scroll.direction");
        if (rc == AD_RESULT_OK) {
            json_object_set_new(args, "direction",
                                json_string(direction_names[action->scroll.direction]));
            /* amount 0 is out of scroll's range (1 or more): the validator says so. */
            json_object_set_new(args, "amount", json_integer(action->scroll.amount));
        }
        break;
    case TAKES_COMBO: {
        char *combo = ffi_combo_text(&action->key, "action.key");
        if (combo)
            json_object_set_new(args, "combo", json_string(combo));
        else
            rc = ad_last_error_code();
        free(combo);
        break;
    }
    case TAKES_DRAG: {
        char xy[96];
        snprintf(xy, sizeof(xy), "%.0f,%.0f", action->drag.to.x, action->drag.to.y);
        json_object_set_new(args, "from", json_string(ref_id));
        json_object_set_new(args, "to_xy", json_string(xy));
        /* A zero-initialized AdDragParams means the platform's durations (drag's table
         * defaults), not a zero-length gesture; values above the ranges reach the validator. */
        if (action->drag.duration_ms)
            json_object_set_new(args, "duration",
                                json_integer((json_int_t)(action->drag.duration_ms > INT64_MAX
                                                              ? INT64_MAX
                                                              : action->drag.duration_ms)));
        if (action->drag.drop_delay_ms)
            json_object_set_new(args, "drop_delay",
                                json_integer((json_int_t)(action->drag.drop_delay_ms > INT64_MAX
                                                              ? INT64_MAX
                                                              : action->drag.drop_delay_ms)));
        break;
    }
    }
    /* -1: the command's default (5000, or type's 5000 + 30 per character); 0: one attempt. */
    if (rc == AD_RESULT_OK && map->has_timeout && timeout_ms >= 0)
        json_object_set_new(args, "timeout_ms", json_integer(timeout_ms));
    if (rc != AD_RESULT_OK) {
        json_decref(args);
        return rc;
    }
    *ret = args;
    return AD_RESULT_OK;
}

/* A bare or malformed ref is refused before dispatch (no envelope), with ad_ref_parse's
 * message and suggestion. */
static AdResult check_ref(const char *ref_id)
{
    ad_ref parsed;
    ad_error err = AD_ERROR_INIT;
    if (ad_ref_parse(ref_id, &parsed, &err) == 0)
        return AD_RESULT_OK;
    AdResult rc = ffi_fail_record(&err);
    ad_error_clear(&err);
    return rc;
}

AdResult ad_execute_by_ref_timeout(const struct AdAdapter *adapter, const char *ref_id,
                                   const struct AdAction *action, int32_t policy,
                                   int64_t timeout_ms, char **out)
{
    if (!out)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "out must not be NULL", NULL);
    *out = NULL;
    AdResult rc = ffi_check_ptr(action, "action");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_enum(action->kind, AD_ACTION_KIND_CLICK, AD_ACTION_KIND_DRAG,
                            "action.kind");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_enum(policy, AD_POLICY_KIND_HEADLESS, AD_POLICY_KIND_HEADED, "policy");
    if (rc == AD_RESULT_OK && timeout_ms < -1)
        rc = ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "timeout_ms must be -1 (the default), 0 (one "
                      "attempt) or a positive budget in ms", NULL);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(ref_id, "ref_id", true);
    if (rc != AD_RESULT_OK)
        return rc;
    rc = check_ref(ref_id);
    if (rc != AD_RESULT_OK)
        return rc;
    const action_map *map = &action_maps[action->kind];
    if (!map->command)
        return ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                        "AD_ACTION_KIND_PRESS_KEY has no ref form: press sends a combo to an app "
                        "or the focused window, not to an element",
                        "Focus the element with AD_ACTION_KIND_SET_FOCUS, then send the combo "
                        "with the CLI's press command; or type text with "
                        "AD_ACTION_KIND_TYPE_TEXT");
    json_t *args = NULL;
    rc = action_args(map, ref_id, action, timeout_ms, &args);
    if (rc != AD_RESULT_OK)
        return rc;
    /* The CLI has two policies: headless (the accessibility API only) and --headed (focus
     * the window and fall back to physical input when needed). AD_POLICY_KIND_FOCUS_FALLBACK
     * is --headed; AD_POLICY_KIND_HEADED asks for no more than that on Linux. */
    return policy == AD_POLICY_KIND_HEADLESS
               ? ffi_run(adapter, map->command, args, NULL, out)
               : ffi_run_headed(adapter, map->command, args, NULL, out);
}

AdResult ad_execute_by_ref(const struct AdAdapter *adapter, const char *ref_id,
                           const struct AdAction *action, int32_t policy, char **out)
{
    return ad_execute_by_ref_timeout(adapter, ref_id, action, policy, -1, out);
}

/* Sets `key` to the string s when the caller gave it (not NULL). */
static AdResult given_string(json_t *args, const char *key, const char *s, const char *what)
{
    AdResult rc = ffi_check_string(s, what, false);
    if (rc == AD_RESULT_OK && s)
        json_object_set_new(args, key, json_string(s));
    return rc;
}

static json_int_t clamp_int(uint64_t v)
{
    return (json_int_t)(v > INT64_MAX ? INT64_MAX : v); /* the validator refuses the range */
}

AdResult ad_wait(const struct AdAdapter *adapter, const struct AdWaitArgs *wa, char **out)
{
    if (!out)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "out must not be NULL", NULL);
    *out = NULL;
    AdResult rc = ffi_check_ptr(wa, "args");
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *args = json_object();
    if (!args)
        return ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    const AdWaitMode *m = &wa->mode;
    const AdWaitPredicate *p = &wa->predicate;
    if (m->pause.present)
        json_object_set_new(args, "ms", json_integer(clamp_int(m->pause.value)));
    if (m->surfaces.menu)
        json_object_set_new(args, "menu", json_true());
    if (m->surfaces.menu_closed)
        json_object_set_new(args, "menu_closed", json_true());
    if (m->surfaces.notification)
        json_object_set_new(args, "notification", json_true());
    if (p->count.present)
        json_object_set_new(args, "count", json_integer(clamp_int(p->count.value)));
    /* The timeout is always given: a zeroed AdWaitArgs waits 0 ms (one check), as the ABI
     * says ad_wait blocks for at most scope.timeout_ms. */
    json_object_set_new(args, "timeout", json_integer(clamp_int(wa->scope.timeout_ms)));
    const struct {
        const char *key, *value, *what;
    } strings[] = {
        {"element", m->element, "mode.element"},       {"window", m->window, "mode.window"},
        {"text", m->text, "mode.text"},                {"predicate", p->predicate, "predicate"},
        {"value", p->value, "predicate.value"},        {"action", p->action, "predicate.action"},
        {"app", wa->scope.app, "scope.app"},
    };
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]) && rc == AD_RESULT_OK; i++)
        rc = given_string(args, strings[i].key, strings[i].value, strings[i].what);
    if (rc == AD_RESULT_OK && m->element) /* a ref, refused before dispatch like any ref */
        rc = check_ref(m->element);
    if (rc != AD_RESULT_OK) {
        json_decref(args);
        return rc;
    }
    return ffi_run(adapter, "wait", args, NULL, out);
}

AdResult ad_set_log_callback(void (*callback)(int32_t level, const char *msg))
{
    /* One process-wide callback (core/ctx.h): every ad_log line of every command the library
     * runs, on the calling thread, at AD_LOG_LEVEL_DEBUG. NULL clears it. */
    ad_log_set_sink(callback);
    return AD_RESULT_OK;
}
