/* input.c: press, key-down, key-up and the mouse commands (commands/keyboard.md,
 * commands/mouse.md). Keys are physical input; an unscoped press needs no --headed. Every
 * mouse command moves the real cursor and needs --headed. The held-input commands validate
 * and then refuse: a short-lived process cannot guarantee the release. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/action.h"
#include "core/ctx.h"
#include "core/lease.h"
#include "core/observe.h"
#include "core/overlay_input.h"
#include "core/overlay_session.h"
#include "core/resolve.h"
#include "core/surface.h"
#include "core/window_select.h"

static bool headed(const ad_ctx *ctx)
{
    return json_is_true(json_object_get(ctx->globals, "headed"));
}

/* Lowercased, without spaces; a bare uppercase letter keeps its case (it adds Shift). */
/* Copies the combo without spaces into out; false when it does not fit (never cut: a cut
 * combo would be another combo, and a cut character is not UTF-8). */
static bool normalize_combo(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in; in++) {
        if (isspace((unsigned char)*in))
            continue;
        if (n + 1 >= size)
            return false;
        out[n++] = *in;
    }
    out[n] = '\0';
    if (!(n == 1 && isupper((unsigned char)out[0])))
        for (char *p = out; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return true;
}

/* Combos that end the session, close windows or lock the screen on Linux desktops. */
static bool blocked_combo(const char *combo)
{
    static const char *const blocked[] = {"alt+f4", "ctrl+alt+delete", "ctrl+alt+del",
                                          "ctrl+alt+backspace", "super+l", "meta+l",
                                          "ctrl+alt+l", "ctrl+q", NULL};
    for (size_t i = 0; blocked[i]; i++)
        if (strcmp(combo, blocked[i]) == 0)
            return true;
    return strncmp(combo, "ctrl+alt+f", 10) == 0; /* virtual terminal switches */
}

static int check_combo(ad_ctx *ctx, const json_t *args, char *combo, size_t size, ad_error *err)
{
    const char *raw = ad_arg_str(args, "combo");
    if (!normalize_combo(raw ? raw : "", combo, size))
        return ad_error_set(err, AD_INVALID_ARGS, "The key combo is longer than %zu bytes",
                            size - 1);
    if (!*combo)
        return ad_error_set(err, AD_INVALID_ARGS, "The key combo is empty");
    if (!ctx->adapter->ops->parse_combo)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "No keyboard on this adapter");
    if (ctx->adapter->ops->parse_combo(ctx->adapter, combo, err) < 0)
        return -1;
    if (blocked_combo(combo) && !ad_arg_bool(args, "force")) {
        ad_error_set(err, AD_POLICY_DENIED, "'%s' is blocked as a dangerous shortcut", combo);
        ad_error_suggest(err, "Pass --force only when you mean to send it");
        ad_error_detail(err, "kind", json_string("blocked_combo"));
        ad_error_detail(err, "retryable", json_false());
        return -1;
    }
    return 0;
}

/* Physical input under the interaction lease, like every mutation. */
static int run_physical(ad_ctx *ctx, ad_phys_req *req, ad_act_result *res, ad_error *err)
{
    if (!ctx->adapter->ops->physical)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "No physical input on this adapter");
    int64_t deadline = ad_deadline_after_ms(5000);
    ad_lease lease = AD_LEASE_INIT;
    if (ad_lease_acquire(&lease, deadline, err) < 0)
        return -1;
    int rc = ad_overlay_physical(ctx, req, deadline, res, err);
    ad_lease_release(&lease);
    if (rc == 0)
        ad_ctx_note_delivery(ctx, AD_DELIVERED_UNVERIFIED);
    return rc;
}

int ad_cmd_press(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    char combo[128];
    if (check_combo(ctx, args, combo, sizeof(combo), err) < 0)
        return -1;
    const char *app = ad_arg_str(args, "app"), *wid = ad_arg_str(args, "window_id");
    int64_t deadline = ad_deadline_after_ms(5000);
    ad_window win = {0};
    bool scoped = app || wid;
    if (scoped && ad_window_select(ctx, app, wid, deadline, &win, err) < 0)
        return -1;
    /* --observe: the window the keys go to, read before they are sent (unscoped: the one
     * focused now). */
    ad_observe obs = {0};
    bool observe = ad_arg_bool(args, "observe");
    if (observe && scoped) {
        ad_observe_read_before(ctx, &obs, &win, deadline);
    } else if (observe) {
        ad_window focused = {0};
        if (ad_window_select(ctx, NULL, NULL, deadline, &focused, &obs.before_error) == 0)
            ad_observe_read_before(ctx, &obs, &focused, deadline);
        ad_window_clear(&focused);
    }
    ad_phys_req req = {.kind = AD_PHYS_KEYS, .combo = combo, .window = scoped ? &win : NULL};
    if (scoped && headed(ctx))
        req.focus_window_id = win.id; /* focus the target window first */
    else if (scoped)
        req.require_active_window_id = win.id; /* headless: it must already be active */
    ad_act_result res = {0};
    if (observe)
        ad_observe_dispatch(ctx, &obs);
    int rc = run_physical(ctx, &req, &res, err);
    if (rc == 0) {
        json_t *d = json_object();
        json_object_set_new(d, "action", json_string("press"));
        json_object_set_new(d, "disposition", ad_disposition_json(AD_DELIVERED_UNVERIFIED));
        json_object_set_new(d, "steps", ad_act_steps_json(&res, 0));
        if (scoped) {
            json_t *surfaces = ad_surfaces_of_pid(ctx, win.pid,
                                                  ad_deadline_within(deadline, 250, 2000));
            if (surfaces) /* unread surfaces are left out, never reported as none */
                json_object_set_new(d, "surfaces", surfaces);
            free(ctx->observed_window_id);
            ctx->observed_window_id = strdup(win.id);
        } else {
            ad_window focused = {0};
            ad_error ignored = AD_ERROR_INIT;
            if (ad_window_select(ctx, NULL, NULL, ad_deadline_after_ms(2000), &focused,
                                 &ignored) == 0) {
                free(ctx->observed_window_id);
                ctx->observed_window_id = strdup(focused.id);
            }
            ad_window_clear(&focused);
            ad_error_clear(&ignored);
        }
        if (observe)
            ad_observe_report(ctx, &obs, false, d);
        *ret_data = d;
    }
    ad_observe_clear(&obs);
    ad_window_clear(&win);
    return rc;
}

int ad_cmd_held_key(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    (void)ret_data;
    char combo[128];
    if (check_combo(ctx, args, combo, sizeof(combo), err) < 0)
        return -1;
    ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "%s is unavailable in stateless mode",
                 ctx->command_name);
    ad_error_suggest(err, "Use the atomic press command; held input requires a daemon-owned "
                          "transaction that can guarantee release");
    err->delivery = AD_DELIVERY_UNKNOWN;
    return -1;
}

/* ---- mouse ------------------------------------------------------------------------------ */

static int parse_xy(const char *text, const char *flag, int *x, int *y, ad_error *err)
{
    char tail = 0;
    if (!text || sscanf(text, "%d,%d%c", x, y, &tail) != 2) {
        ad_error_set(err, AD_INVALID_ARGS, "%s takes X,Y coordinates", flag);
        ad_error_suggest(err, "Write %s 640,400; a negative value needs =, as %s=-100,50",
                         flag, flag);
        return -1;
    }
    return 0;
}

static int require_headed(ad_ctx *ctx, ad_error *err)
{
    if (headed(ctx))
        return 0;
    ad_error_set(err, AD_POLICY_DENIED, "%s moves the cursor and is disabled in headless mode",
                 ctx->command_name);
    ad_error_suggest(err, "Pass --headed only when physical pointer input is intended");
    return -1;
}

static int button_of(const char *name)
{
    return !name || strcmp(name, "left") == 0 ? 1 : strcmp(name, "middle") == 0 ? 2 : 3;
}

static json_t *pointer_report(const char *action, const ad_act_result *res, int x, int y)
{
    json_t *d = json_object();
    json_object_set_new(d, "action", json_string(action));
    json_object_set_new(d, "details", json_pack("{s:i}", "delivered_events", res->events));
    json_object_set_new(d, "disposition", ad_disposition_json(AD_DELIVERED_UNVERIFIED));
    json_object_set_new(d, "steps", ad_act_steps_json(res, -1));
    json_object_set_new(d, "target", json_pack("{s:s, s:{s:f, s:f}}", "kind", "pointer",
                                               "point", "x", (double)x, "y", (double)y));
    json_object_set_new(d, "x", json_real(x));
    json_object_set_new(d, "y", json_real(y));
    return d;
}

const ad_mouse_gesture ad_gesture_move = AD_MOUSE_MOVE, ad_gesture_click = AD_MOUSE_CLICK,
                       ad_gesture_wheel = AD_MOUSE_WHEEL, ad_gesture_held = AD_MOUSE_HELD;

int ad_cmd_mouse(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *name = ctx->command_name;
    ad_mouse_gesture gesture = *(const ad_mouse_gesture *)ctx->command->data;
    int x = 0, y = 0;
    bool wheel = gesture == AD_MOUSE_WHEEL;
    if (wheel) {
        x = (int)ad_arg_int(args, "x");
        y = (int)ad_arg_int(args, "y");
    } else if (parse_xy(ad_arg_str(args, "xy"), "--xy", &x, &y, err) < 0) {
        return -1;
    }
    if (require_headed(ctx, err) < 0)
        return -1;
    if (gesture == AD_MOUSE_HELD) {
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "%s is unavailable in stateless mode", name);
        ad_error_suggest(err, "Use mouse-click or drag; held input requires a daemon-owned "
                              "transaction that can guarantee release");
        err->delivery = AD_DELIVERY_UNKNOWN;
        return -1;
    }
    ad_phys_req req = {.x = x, .y = y, .modifiers = json_object_get(args, "modifiers")};
    ad_act_result res = {0};
    if (gesture == AD_MOUSE_CLICK) {
        req.kind = AD_PHYS_CLICK;
        req.button = button_of(ad_arg_str(args, "button"));
        req.count = (int)ad_arg_int(args, "count");
    } else if (wheel) {
        req.kind = AD_PHYS_WHEEL;
        req.dx = (int)ad_arg_int(args, "dx");
        /* A derived default (commands/mouse.md): three lines down unless --dx scrolls. */
        req.dy = ad_arg_has(args, "dy") ? (int)ad_arg_int(args, "dy") : req.dx ? 0 : -3;
    } else {
        req.kind = AD_PHYS_MOVE;
    }
    /* Presentation only: the same input follows. */
    ad_overlay_before_action(ctx, NULL, x, y, gesture == AD_MOUSE_CLICK);
    if (run_physical(ctx, &req, &res, err) < 0)
        return -1;
    json_t *d = pointer_report(name, &res, x, y);
    if (req.kind == AD_PHYS_CLICK)
        json_object_set_new(d, "count", json_integer(req.count));
    if (wheel) {
        json_object_set_new(d, "dx", json_integer(req.dx));
        json_object_set_new(d, "dy", json_integer(req.dy));
    }
    *ret_data = d;
    return 0;
}

/* A post-action wait polls the window of a ref; a screen point has none. Refused before any
 * input is sent, instead of failing after the pointer moved (configuration.md, "Which owner
 * is polled"). `point_flag` names the flag that gave the point. */
static int check_wait_owner(const ad_ctx *ctx, bool has_window, const char *point_flag,
                            ad_error *err)
{
    if (has_window || (!json_object_get(ctx->globals, "wait_for") &&
                       !json_object_get(ctx->globals, "wait_for_gone")))
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "--wait-for and --wait-for-gone poll a window, and %s "
                 "is a screen point with none", point_flag);
    ad_error_suggest(err, "Target a ref instead of %s, or run wait as a separate command",
                     point_flag);
    return -1;
}

int ad_cmd_hover(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *ref = ad_arg_str(args, "ref_id");
    int x = 0, y = 0;
    if (check_wait_owner(ctx, ref != NULL, "--xy", err) < 0)
        return -1;
    if (!ref && parse_xy(ad_arg_str(args, "xy"), "--xy", &x, &y, err) < 0)
        return -1;
    if (require_headed(ctx, err) < 0)
        return -1;
    if (ref) {
        static const ad_action_spec hover = {.name = "hover", .act = AD_ACT_SCROLL_TO,
                                             .physical_only = true, .phys = AD_PHYS_MOVE};
        json_t *d = NULL;
        if (ad_ref_action_run(ctx, &hover, ref, NULL, ad_arg_int(args, "timeout_ms"),
                              false, &d, err) < 0)
            return -1;
        json_object_set_new(d, "action", json_string("mouse-move"));
        *ret_data = d;
        return 0;
    }
    ad_phys_req req = {.kind = AD_PHYS_MOVE, .x = x, .y = y};
    ad_act_result res = {0};
    ad_overlay_before_action(ctx, NULL, x, y, false); /* presentation only, as mouse-move */
    if (run_physical(ctx, &req, &res, err) < 0)
        return -1;
    *ret_data = pointer_report("mouse-move", &res, x, y);
    return 0;
}

int ad_hover_args_check(const json_t *given, const json_t *args, ad_error *err)
{
    (void)given;
    if (ad_arg_int(args, "duration") > 0)
        return ad_error_set(err, AD_INVALID_ARGS, "--duration is reserved; run hover, then "
                                                  "wait MS");
    return 0;
}

int ad_drag_args_check(const json_t *given, const json_t *args, ad_error *err)
{
    (void)given;
    if (ad_arg_int(args, "duration") + ad_arg_int(args, "drop_delay") >=
        ad_arg_int(args, "timeout_ms"))
        return ad_error_set(err, AD_INVALID_ARGS, "--duration plus --drop-delay must be below "
                                                  "--timeout-ms");
    return 0;
}

/* One end of a drag: a ref's live center (and its window), or a raw point. */
static int drag_end(ad_ctx *ctx, const json_t *args, const char *ref_key, const char *xy_key,
                    int64_t deadline, int *x, int *y, char **ret_window, ad_error *err)
{
    const char *ref = ad_arg_str(args, ref_key);
    *ret_window = NULL;
    if (!ref) {
        char flag[32];
        snprintf(flag, sizeof(flag), "--%s", xy_key);
        for (char *p = flag; *p; p++)
            *p = *p == '_' ? '-' : *p;
        return parse_xy(ad_arg_str(args, xy_key), flag, x, y, err);
    }
    ad_resolved r = {0};
    if (ad_resolve_load(ctx, ref, &r, err) < 0 ||
        ad_resolve_live_read(ctx, &r, deadline, (ad_resolve_read){.all_bounds = true}, err) < 0) {
        ad_resolved_clear(&r);
        return -1;
    }
    const ad_node *n = r.node;
    int rc = 0;
    if (n->bounds_state != AD_FIELD_KNOWN || n->bounds.width <= 0 || n->bounds.height <= 0) {
        rc = ad_error_set(err, AD_ACTION_FAILED, "%s has no live bounds to drag", ref);
    } else {
        *x = (int)(n->bounds.x + n->bounds.width / 2);
        *y = (int)(n->bounds.y + n->bounds.height / 2);
        *ret_window = strdup(r.window.id);
    }
    ad_resolved_clear(&r);
    return rc;
}

int ad_cmd_drag(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    int64_t timeout = ad_arg_int(args, "timeout_ms");
    int64_t duration = ad_arg_int(args, "duration"), drop = ad_arg_int(args, "drop_delay");
    const char *scope = ad_arg_str(args, "wait_for_scope");
    bool from_scope = scope && strcmp(scope, "from") == 0;
    if (check_wait_owner(ctx, ad_arg_str(args, from_scope ? "from" : "to") != NULL,
                         from_scope ? "--from-xy" : "--to-xy", err) < 0)
        return -1;
    int64_t deadline = ad_deadline_after_ms(timeout);
    int fx = 0, fy = 0, tx = 0, ty = 0;
    char *from_win = NULL, *to_win = NULL;
    int rc = -1;
    if (drag_end(ctx, args, "from", "from_xy", deadline, &fx, &fy, &from_win, err) < 0 ||
        drag_end(ctx, args, "to", "to_xy", deadline, &tx, &ty, &to_win, err) < 0 ||
        require_headed(ctx, err) < 0)
        goto done;
    /* The source window is focused and hit-tested; the destination is never focused first,
     * because raising it could cover the source. */
    ad_phys_req req = {.kind = AD_PHYS_DRAG, .focus_window_id = from_win,
                       .verify_window_id = from_win, .x = fx, .y = fy, .x2 = tx, .y2 = ty,
                       .duration_ms = (int)duration, .hold_ms = (int)drop};
    ad_act_result res = {0};
    /* The cursor glides to the press; it reappears at the drop after the input (run_physical
     * hides it while the drag's real input moves the pointer). */
    ad_overlay_before_action(ctx, NULL, fx, fy, true);
    if (run_physical(ctx, &req, &res, err) < 0)
        goto done;
    json_t *d = json_object();
    json_object_set_new(d, "action", json_string("drag"));
    json_object_set_new(d, "disposition", ad_disposition_json(AD_DELIVERED_UNVERIFIED));
    json_object_set_new(d, "steps", ad_act_steps_json(&res, -1));
    json_t *from = json_pack("{s:f, s:f}", "x", (double)fx, "y", (double)fy);
    json_t *to = json_pack("{s:f, s:f}", "x", (double)tx, "y", (double)ty);
    json_object_set_new(d, "target", json_pack("{s:s, s:O, s:O}", "kind", "drag", "from", from,
                                               "to", to));
    json_object_set_new(d, "from", from);
    json_object_set_new(d, "to", to);
    const char *observed = from_scope ? from_win : to_win;
    if (observed) {
        free(ctx->observed_window_id);
        ctx->observed_window_id = strdup(observed);
    }
    *ret_data = d;
    rc = 0;
done:
    free(from_win);
    free(to_win);
    return rc;
}
