/* wait.c: block until a condition holds (commands/wait.md). Modes: MS, --element (exists,
 * enabled, visible, actionable, value), --window, --text (with --count). Each poll is a
 * complete fresh read; a read that failed is "not yet", never "absent". Menu and event waits
 * are in wait_events.c; --notification is in notifications.c (GNOME Shell only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/wait_modes.h"
#include "core/actionability.h"
#include "core/ctx.h"
#include "core/present.h"
#include "core/refs.h"
#include "core/refstore.h"
#include "core/resolve.h"
#include "core/visibility.h"
#include "core/window_select.h"

#define POLL_MS 100

static int wait_timeout(ad_error *err, const char *what, const char *predicate,
                        int64_t timeout_ms)
{
    ad_error_set(err, AD_TIMEOUT, "%s not found within %lldms", what, (long long)timeout_ms);
    ad_error_detail(err, "kind", json_string("wait_timeout"));
    ad_error_detail(err, "predicate", json_string(predicate));
    ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
    return -1;
}

/* ---- mode checks ------------------------------------------------------------------------ */

/* The one mode of a wait, from what was given: --window is --event's filter when --event
 * is given, and --text is --notification's. NULL when not exactly one. */
static const char *mode_of(const json_t *given, int *ret_count)
{
    const char *modes[8];
    int n = 0;
    bool event = ad_arg_has(given, "event"), notification = ad_arg_bool(given, "notification");
    if (ad_arg_has(given, "ms"))
        modes[n++] = "ms";
    if (ad_arg_has(given, "element"))
        modes[n++] = "element";
    if (ad_arg_has(given, "window") && !event)
        modes[n++] = "window";
    if (ad_arg_has(given, "text") && !notification)
        modes[n++] = "text";
    if (ad_arg_bool(given, "menu"))
        modes[n++] = "menu";
    if (ad_arg_bool(given, "menu_closed"))
        modes[n++] = "menu-closed";
    if (notification)
        modes[n++] = "notification";
    if (event)
        modes[n++] = "event";
    if (ret_count)
        *ret_count = n;
    return n == 1 ? modes[0] : NULL;
}

/* The rules between wait's flags (commands/wait.md), checked by the validator before
 * anything runs: one mode; the element-only, text-only and event-only flags with their
 * mode; --predicate value with --value; --action with --predicate actionable; the window
 * filters only on window events; a surface event scoped to an app. */
int ad_wait_args_check(const json_t *given, const json_t *args, ad_error *err)
{
    int n = 0;
    const char *mode = mode_of(given, &n);
    if (!mode) {
        if (n)
            ad_error_set(err, AD_INVALID_ARGS, "wait takes one mode, got %d", n);
        else
            ad_error_set(err, AD_INVALID_ARGS, "wait needs a mode");
        ad_error_suggest(err, "Use one of: wait MS, --element REF, --window TITLE, --text TEXT, "
                              "--menu, --menu-closed, --notification, --event KIND");
        return -1;
    }
    const char *element_only[] = {"predicate", "value", "action"};
    for (size_t i = 0; i < 3; i++)
        if (ad_arg_has(given, element_only[i]) && strcmp(mode, "element") != 0)
            return ad_error_set(err, AD_INVALID_ARGS, "--%s needs --element", element_only[i]);
    if (ad_arg_has(given, "count") && strcmp(mode, "text") != 0)
        return ad_error_set(err, AD_INVALID_ARGS, "--count needs --text");
    if (ad_arg_has(given, "window_id") && strcmp(mode, "event") != 0)
        return ad_error_set(err, AD_INVALID_ARGS, "--window-id applies only to --event");
    const char *predicate = ad_arg_str(args, "predicate");
    if (strcmp(mode, "element") == 0) {
        if ((strcmp(predicate, "value") == 0) != ad_arg_has(given, "value"))
            return ad_error_set(err, AD_INVALID_ARGS, strcmp(predicate, "value") == 0
                                                          ? "--predicate value needs --value"
                                                          : "--value needs --predicate value");
        if (ad_arg_has(given, "action") && strcmp(predicate, "actionable") != 0)
            return ad_error_set(err, AD_INVALID_ARGS, "--action needs --predicate actionable");
    }
    if (strcmp(mode, "event") == 0)
        return ad_wait_event_args_check(given, err);
    return 0;
}

/* ---- element ---------------------------------------------------------------------------- */

static const ad_action_spec *actionable_spec(const char *action)
{
    static const ad_action_spec click = {.name = "click", .act = AD_ACT_CLICK};
    static const ad_action_spec type = {.name = "type", .act = AD_ACT_INSERT_TEXT};
    static const ad_action_spec set = {.name = "set-value", .act = AD_ACT_SET_TEXT};
    if (!action || strcmp(action, "click") == 0)
        return &click;
    return strcmp(action, "type") == 0 ? &type : &set;
}

/* Evaluates the predicate on a resolved node; fills *observed (new reference). */
static bool element_holds(const json_t *args, const char *predicate, const ad_node *n,
                          const ad_tree *tree, json_t **observed)
{
    bool known = n->states_state == AD_FIELD_KNOWN;
    if (strcmp(predicate, "exists") == 0) {
        *observed = json_pack("{s:b}", "exists", 1);
        return true;
    }
    if (strcmp(predicate, "visible") == 0) {
        const char *why = NULL;
        ad_visibility v = ad_visibility_of(n, tree, &why);
        *observed = json_pack("{s:b, s:b}", "applicable", v != AD_VISIBILITY_UNKNOWN,
                              predicate, v == AD_VISIBLE);
        return v == AD_VISIBLE;
    }
    if (strcmp(predicate, "enabled") == 0) {
        bool ok = !(n->states & (1u << AD_ST_DISABLED));
        *observed = json_pack("{s:b, s:b}", "applicable", known, predicate, known && ok);
        return known && ok;
    }
    if (strcmp(predicate, "actionable") == 0) {
        ad_actionability a;
        ad_actionability_eval(actionable_spec(ad_arg_str(args, "action")), n, tree, false,
                              NULL, 1, &a);
        *observed = json_pack("{s:b, s:O}", "actionable", a.actionable, "checks", a.checks);
        bool ok = a.actionable;
        ad_actionability_clear(&a);
        return ok;
    }
    /* value: counts only, never the value itself (it may be a secret). */
    const char *want = ad_arg_str(args, "value");
    const char *have = n->secure ? NULL : ad_text_get(&n->value);
    /* An empty field reads as an absent value: it matches "" (clear's readback agrees). */
    bool match = have ? strcmp(have, want) == 0
                      : !n->secure && n->value.state == AD_FIELD_ABSENT && want[0] == '\0';
    *observed = json_pack("{s:I, s:b, s:I, s:b}", "expected_chars",
                          (json_int_t)strlen(want), "matched", match, "value_chars",
                          (json_int_t)(have ? strlen(have) : 0), "value_present", have != NULL);
    return match;
}

static bool detail_is(const ad_error *e, const char *key, const char *want)
{
    const char *v = json_string_value(e->details ? json_object_get(e->details, key) : NULL);
    return v && strcmp(v, want) == 0;
}

/* last_observed for a poll whose ref did not resolve: "exists" is false only when the
 * resolution proved the element gone (STALE_REF); otherwise it is left out, unknown. The
 * reason is in last_error. New reference. */
static json_t *unresolved_observation(const ad_error *e)
{
    json_t *o = json_pack("{s:b}", "resolved", 0);
    if (e->code == AD_STALE_REF)
        json_object_set_new(o, "exists", json_false());
    return o;
}

/* Arms change wake-ups on the app that owns the ref's window (any app if unknown). */
static void arm_for_ref(ad_ctx *ctx, const char *ref, int64_t read_deadline)
{
    ad_resolved r = {0};
    ad_error e = AD_ERROR_INIT;
    const char *wid = NULL;
    if (ad_resolve_load(ctx, ref, &r, &e) == 0)
        wid = json_string_value(json_object_get(json_object_get(r.refmap, "source"),
                                                "source_window_id"));
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, wid, read_deadline);
    ad_resolved_clear(&r);
    ad_error_clear(&e);
}

static void arm_any(ad_ctx *ctx, int64_t read_deadline)
{
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, NULL, read_deadline);
}

static int wait_element(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                        json_t **ret, ad_error *err)
{
    const char *ref = ad_arg_str(args, "element");
    const char *predicate = ad_arg_str(args, "predicate");
    int64_t deadline = ad_deadline_add_ms(started, timeout_ms);
    json_t *last = NULL, *last_error = NULL;
    arm_for_ref(ctx, ref, ad_wait_read_deadline(started, deadline));
    for (;;) {
        ad_resolved r = {0};
        ad_error e = AD_ERROR_INIT;
        int rc = ad_resolve_load(ctx, ref, &r, &e);
        if (rc < 0 || (rc = ad_resolve_live(ctx, &r, ad_wait_read_deadline(started, deadline), &e)) < 0) {
            /* Refs that can never resolve fail now (an exited process never comes back);
             * the rest are "not yet". */
            bool final = e.code == AD_INVALID_ARGS || e.code == AD_SNAPSHOT_NOT_FOUND ||
                         (e.code == AD_AMBIGUOUS_TARGET &&
                          detail_is(&e, "kind", "identity_not_unique")) ||
                         (e.code == AD_STALE_REF && detail_is(&e, "process_state", "exited")) ||
                         e.code == AD_PLATFORM_NOT_SUPPORTED;
            if (final) {
                ad_error_move(err, &e);
                ad_resolved_clear(&r);
                json_decref(last);
                json_decref(last_error);
                return -1;
            }
            json_decref(last_error);
            last_error = json_pack("{s:s, s:s}", "code", ad_error_code_name(e.code), "message",
                                   e.message ? e.message : "");
            /* A ref proven gone (STALE_REF) replaces what an earlier poll saw; an unproven
             * read keeps it, and is reported only when nothing was ever seen. */
            if (!last || e.code == AD_STALE_REF) {
                json_decref(last);
                last = unresolved_observation(&e);
            }
            ad_error_clear(&e);
        } else {
            json_t *observed = NULL;
            bool ok = element_holds(args, predicate, r.node, &r.tree, &observed);
            if (ok) {
                *ret = json_pack("{s:I, s:b, s:o, s:s, s:s}", "elapsed_ms",
                                 (json_int_t)((ad_now_us() - started) / 1000), "found", 1,
                                 "observed", observed, "predicate", predicate, "ref", ref);
                ad_resolved_clear(&r);
                json_decref(last);
                json_decref(last_error);
                return 0;
            }
            json_decref(last);
            last = observed;
        }
        ad_resolved_clear(&r);
        if (ad_now_us() >= deadline)
            break;
        ad_wait_next_poll(ctx, POLL_MS, deadline);
    }
    wait_timeout(err, "Element condition", predicate, timeout_ms);
    ad_error_detail(err, "ref", json_string(ref));
    if (last)
        ad_error_detail(err, "last_observed", last);
    if (last_error)
        ad_error_detail(err, "last_error", last_error);
    return -1;
}

/* ---- window ----------------------------------------------------------------------------- */

static int wait_window(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                       json_t **ret, ad_error *err)
{
    const char *title = ad_arg_str(args, "window");
    const char *app = ad_arg_str(args, "app");
    int64_t deadline = ad_deadline_add_ms(started, timeout_ms);
    json_t *last = NULL;
    arm_any(ctx, ad_wait_read_deadline(started, deadline));
    for (;;) {
        ad_app_list apps = {0};
        ad_window_list wins = {0};
        ad_error e = AD_ERROR_INIT;
        int rc = app ? ad_apps_matching(ctx, app, ad_wait_read_deadline(started, deadline), &apps, &e) : 0;
        if (rc == 0)
            rc = ctx->adapter->ops->list_windows(ctx->adapter, app ? &apps : NULL,
                                                 ad_wait_read_deadline(started, deadline), &wins, &e);
        if (rc == 0) {
            json_decref(last);
            last = json_pack("{s:I, s:[], s:b}", "count", (json_int_t)wins.count, "titles",
                             "truncated", wins.count > 10);
            for (size_t i = 0; i < wins.count; i++) {
                /* An untitled window is counted and listed as null, as list-windows shows
                 * it, so count always matches titles up to the truncation. */
                const char *t = wins.items[i].title;
                if (i < 10)
                    json_array_append_new(json_object_get(last, "titles"),
                                          t ? json_string(t) : json_null());
                if (ad_contains_ci(wins.items[i].title, title)) {
                    *ret = json_pack("{s:I, s:b, s:o}", "elapsed_ms",
                                     (json_int_t)((ad_now_us() - started) / 1000), "found", 1,
                                     "window", ad_window_json(&wins.items[i]));
                    ad_window_list_clear(&wins);
                    ad_app_list_clear(&apps);
                    json_decref(last);
                    return 0;
                }
            }
        } else if (e.code == AD_PLATFORM_NOT_SUPPORTED) {
            ad_error_move(err, &e);
            json_decref(last);
            return -1;
        }
        ad_error_clear(&e);
        ad_window_list_clear(&wins);
        ad_app_list_clear(&apps);
        if (ad_now_us() >= deadline)
            break;
        ad_wait_next_poll(ctx, POLL_MS, deadline);
    }
    ad_error_set(err, AD_TIMEOUT, "Window title (%zu chars) not found within %lldms",
                 strlen(title), (long long)timeout_ms);
    ad_error_detail(err, "kind", json_string("wait_timeout"));
    ad_error_detail(err, "predicate", json_string("window"));
    ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
    ad_error_detail(err, "title", json_string(title));
    if (app)
        ad_error_detail(err, "app", json_string(app));
    if (last)
        ad_error_detail(err, "last_observed", last);
    return -1;
}

/* ---- text ------------------------------------------------------------------------------- */

static void find_text(const ad_node *n, const char *text, size_t *count, const ad_node **first)
{
    if (ad_node_has_text(n, text)) {
        if (!*first)
            *first = n;
        (*count)++;
    }
    for (size_t i = 0; i < n->n_children; i++)
        find_text(n->children[i], text, count, first);
}

/* Saves the read as a snapshot (every ref-able node gets a ref) and returns the first match's
 * ref, or NULL when it earns none. */
static int save_text_snapshot(ad_ctx *ctx, const ad_window *win, const ad_tree *tree,
                              const ad_node *match, char *ret_id, json_t **ret_ref,
                              ad_error *err)
{
    ad_identity_index *idx = ad_identity_index_build(tree->root);
    if (!idx || ad_snapshot_id_new(ret_id) < 0) {
        ad_identity_index_free(idx);
        return ad_error_set(err, AD_INTERNAL, "cannot allocate a snapshot");
    }
    ad_present_source src = {.window = win, .app_name = win->app_name, .surface = "window",
                             .identity_proven = tree->complete};
    ad_present_opts opts = {.max_depth = 50};
    uint64_t next = 1;
    json_t *map = json_pack("{s:s, s:I, s:s, s:{s:s, s:s?}, s:s, s:o, s:{}}", "snapshot_id",
                            ret_id, "created_at", (json_int_t)ad_wall_ms(), "app",
                            win->app_name ? win->app_name : "", "window", "id", win->id,
                            "title", win->title, "surface", "window", "source",
                            ad_refmap_source_new(&src), "refs");
    ad_present_result pr = {0};
    int rc = ad_present(tree->root, idx, &opts, &src, ret_id, json_object_get(map, "refs"),
                        &next, &pr);
    *ret_ref = json_null();
    for (size_t i = 0; rc == 0 && i < pr.refs_added; i++)
        if (pr.ref_nodes && pr.ref_nodes[i] == match) {
            json_decref(*ret_ref);
            *ret_ref = json_sprintf("@%s:e%llu", ret_id,
                                    (unsigned long long)(pr.first_ref + i));
        }
    free(pr.ref_nodes);
    json_decref(pr.tree);
    json_object_set_new(map, "next_ref", json_integer((json_int_t)next));
    if (rc < 0)
        ad_error_set(err, AD_INTERNAL, "cannot present the snapshot");
    else
        rc = ad_refstore_save(ctx, map, err);
    json_decref(map);
    ad_identity_index_free(idx);
    return rc;
}

static int wait_text(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                     json_t **ret, ad_error *err)
{
    const char *text = ad_arg_str(args, "text");
    json_t *count_arg = json_object_get(args, "count");
    int64_t deadline = ad_deadline_add_ms(started, timeout_ms);
    json_t *last_error = NULL;
    size_t last_count = 0;
    arm_any(ctx, ad_wait_read_deadline(started, deadline));
    for (;;) {
        ad_window win = {0};
        ad_tree tree = {0};
        ad_error e = AD_ERROR_INIT;
        int rc = ad_window_select(ctx, ad_arg_str(args, "app"), NULL, ad_wait_read_deadline(started, deadline),
                                  &win, &e);
        if (rc < 0 && (e.code == AD_AMBIGUOUS_TARGET || e.code == AD_PLATFORM_NOT_SUPPORTED)) {
            ad_error_move(err, &e);
            json_decref(last_error);
            return -1;
        }
        if (rc == 0) {
            ad_read_limits lim = ad_read_limits_default(ad_wait_read_deadline(started, deadline));
            rc = ctx->adapter->ops->read_window(ctx->adapter, win.id, &lim, &tree, &e);
        }
        if (rc == 0) {
            size_t count = 0;
            const ad_node *first = NULL;
            find_text(tree.root, text, &count, &first);
            last_count = count;
            /* Absence counts only from a complete read; a count must be exact. */
            bool ok = count_arg ? tree.complete && count == (size_t)json_integer_value(count_arg)
                                : count > 0;
            if (ok) {
                char id[AD_SNAPSHOT_ID_MAX + 1];
                json_t *ref = NULL;
                rc = save_text_snapshot(ctx, &win, &tree, first, id, &ref, err);
                if (rc == 0)
                    *ret = json_pack("{s:I, s:b, s:o, s:s?, s:s, s:s}", "elapsed_ms",
                                     (json_int_t)((ad_now_us() - started) / 1000), "found", 1,
                                     "ref", ref, "role", first ? first->role : NULL,
                                     "snapshot_id", id, "text", text);
                ad_tree_clear(&tree);
                ad_window_clear(&win);
                json_decref(last_error);
                return rc;
            }
        } else {
            json_decref(last_error);
            last_error = json_pack("{s:s, s:s}", "code", ad_error_code_name(e.code), "message",
                                   e.message ? e.message : "");
        }
        ad_error_clear(&e);
        ad_tree_clear(&tree);
        ad_window_clear(&win);
        if (ad_now_us() >= deadline)
            break;
        ad_wait_next_poll(ctx, POLL_MS, deadline);
    }
    wait_timeout(err, "Text", "text", timeout_ms);
    ad_error_detail(err, "text_chars", json_integer((json_int_t)strlen(text)));
    if (count_arg)
        ad_error_detail(err, "expected_count", json_incref(count_arg));
    ad_error_detail(err, "last_observed", json_pack("{s:I}", "count", (json_int_t)last_count));
    if (last_error)
        ad_error_detail(err, "last_error", last_error);
    return -1;
}

int ad_cmd_wait(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    /* The validator has checked the modes (ad_wait_args_check); the mode flags have no
     * defaults, so the filled arguments name the same mode. */
    const char *mode = mode_of(args, NULL);
    if (!mode)
        return ad_error_set(err, AD_INTERNAL, "wait reached its handler without one mode");
    int64_t started = ad_now_us();
    int64_t timeout_ms = ad_arg_int(args, "timeout");
    if (strcmp(mode, "ms") == 0) {
        int64_t ms = ad_arg_int(args, "ms");
        /* Cut (TIMEOUT) where a batch's budget ends (core/deadline.h, the ceiling). */
        if (ad_deadline_sleep_ms(ms, err) < 0)
            return -1;
        *ret_data = json_pack("{s:I}", "waited_ms", (json_int_t)ms);
        return 0;
    }
    if (strcmp(mode, "element") == 0)
        return wait_element(ctx, args, started, timeout_ms, ret_data, err);
    if (strcmp(mode, "window") == 0)
        return wait_window(ctx, args, started, timeout_ms, ret_data, err);
    if (strcmp(mode, "text") == 0)
        return wait_text(ctx, args, started, timeout_ms, ret_data, err);
    if (strcmp(mode, "menu") == 0 || strcmp(mode, "menu-closed") == 0)
        return ad_wait_menu(ctx, args, strcmp(mode, "menu-closed") == 0, started, timeout_ms,
                            ret_data, err);
    if (strcmp(mode, "event") == 0)
        return ad_wait_event(ctx, args, started, timeout_ms, ret_data, err);
    if (strcmp(mode, "notification") == 0)
        return ad_wait_notification(ctx, args, started, timeout_ms, ret_data, err);
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "wait --%s is not available in this build",
                 mode);
    ad_error_detail(err, "retryable", json_false());
    return -1;
}
