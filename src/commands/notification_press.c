/* notification_press.c: dismiss-notification, dismiss-all-notifications and
 * notification-action (commands/notifications.md). Each needs --headed: the shell offers no
 * semantic route (measured on GNOME Shell 43: the Action interface lists nothing, and
 * CloseNotification from another client fails while the sender is alive), so the pointer
 * presses the shell's own buttons at the screen coordinates its tree reports.
 *
 * The order, for one notification: read the list; the identity guard (the row at INDEX must
 * still be the one the caller saw, else NOTIFICATION_NOT_FOUND before any input); find it on
 * the screen (its banner, or its row in the message list, opened with the top-bar clock when
 * closed); move the pointer into it (a banner shows its buttons only then) and read again;
 * click the close or action button; read the list until the row is gone. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/notifications.h"
#include "core/deadline.h"
#include "core/overlay_input.h"

#define COMMAND_BUDGET_MS 10000
/* The shell animates a list opening, a banner expanding and a row leaving (~250 ms each);
 * each step re-reads until it shows, within this. */
#define STEP_MS 3000
#define POLL_MS 100

typedef struct {
    ad_ctx *ctx;
    int64_t deadline;
    int events;       /* input events delivered */
    bool opened_list; /* the command opened the message list (and closes it again) */
} press_run;

static int require_headed(ad_ctx *ctx, ad_error *err)
{
    if (json_is_true(json_object_get(ctx->globals, "headed")))
        return 0;
    ad_error_set(err, AD_POLICY_DENIED, "%s presses the notification surface with the pointer "
                 "and is disabled in headless mode", ctx->command_name);
    ad_error_suggest(err, "Pass --headed only when physical pointer input is intended");
    return -1;
}

static int not_found(ad_error *err, int64_t index, size_t count, const char *why)
{
    ad_error_set(err, AD_NOTIFICATION_NOT_FOUND, "The notification at index %lld %s",
                 (long long)index, why);
    ad_error_suggest(err, "Run list-notifications again and copy the index and identity from "
                          "that result");
    ad_error_detail(err, "index", json_integer(index));
    ad_error_detail(err, "count", json_integer((json_int_t)count));
    return -1;
}

/* The identity guard: the row at index (1-based) matches --expected-title, --expected-app
 * and --app. An app the surface does not show cannot be proven to match. */
static int guard(const ad_notification_surface *s, const json_t *args, int64_t index,
                 ad_error *err)
{
    if (index < 1 || (size_t)index > s->count)
        return not_found(err, index, s->count, "does not exist");
    const ad_notification *row = &s->items[index - 1];
    const char *title = ad_arg_str(args, "expected_title");
    const char *apps[] = {ad_arg_str(args, "expected_app"), ad_arg_str(args, "app")};
    if (title && (!row->title || strcmp(row->title, title) != 0))
        return not_found(err, index, s->count, "has another title");
    for (size_t i = 0; i < 2; i++) {
        if (!apps[i])
            continue;
        if (!row->app_name) {
            not_found(err, index, s->count, "does not show which app sent it");
            ad_error_detail(err, "app_name", json_string("unknown"));
            ad_error_suggest(err, "The sending app is known only for notifications posted "
                                  "after an earlier notification command, and not for twins: "
                                  "identify this one with --expected-title");
            return -1;
        }
        if (strcasecmp(row->app_name, apps[i]) != 0)
            return not_found(err, index, s->count, "is from another app");
    }
    return 0;
}

/* The copy of `want` showing on the screen: the banner, else its list row. NULL: none. */
static const ad_notification *shown_copy(const ad_notification_surface *s,
                                         const ad_notification *want)
{
    if (s->has_banner && ad_notif_same(&s->banner, want))
        return &s->banner;
    for (size_t i = 0; i < s->count; i++)
        if (s->items[i].on_screen && ad_notif_same(&s->items[i], want))
            return &s->items[i];
    return NULL;
}

static int pointer(press_run *r, ad_phys_kind kind, ad_rect at, ad_error *err)
{
    ad_phys_req req = {.kind = kind, .x = (int)(at.x + at.width / 2), .y = (int)(at.y + at.height / 2), .button = 1,
                       .count = 1};
    ad_act_result res = {0};
    if (!r->ctx->adapter->ops->physical)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "No pointer input on this adapter");
    if (ad_overlay_physical(r->ctx, &req, r->deadline, &res, err) < 0)
        return -1;
    ad_ctx_note_delivery(r->ctx, AD_DELIVERED_UNVERIFIED);
    r->events += res.events;
    return 0;
}

/* The notification a press is about, kept across reads (each read replaces the surface):
 * its text, the button (NULL: close) and how many rows had that text before the press. */
typedef struct {
    ad_notification key; /* title and body only, owned */
    const char *action;
    size_t before;
} press_target;

/* What a step waits for in a fresh read of the surface. */
typedef bool (*step_done)(const ad_notification_surface *s, const press_target *t);

/* Re-reads s until done holds or STEP_MS pass (s then holds the last read). 1 when it held,
 * 0 when not, -1 when no read could be made. */
static int read_until(press_run *r, ad_notification_surface *s, const press_target *t,
                      step_done done, ad_error *err)
{
    int64_t until = ad_deadline_add_ms(ad_now_us(), STEP_MS);
    if (until > r->deadline)
        until = r->deadline;
    for (;;) {
        ad_notification_surface next;
        if (ad_notif_read(r->ctx, r->deadline, &next, err) < 0)
            return -1;
        ad_notification_surface_clear(s);
        *s = next;
        if (done(s, t))
            return 1;
        if (ad_now_us() >= until)
            return 0;
        ad_wait_next_poll(r->ctx, POLL_MS, until);
    }
}

static const ad_rect *button_of(const ad_notification *n, const char *action)
{
    if (!action)
        return n->close_known ? &n->close : NULL;
    for (size_t i = 0; i < n->n_actions; i++)
        if (strcmp(n->actions[i], action) == 0 && n->action_at[i].width > 0)
            return &n->action_at[i];
    return NULL;
}

static bool is_shown(const ad_notification_surface *s, const press_target *t)
{
    return shown_copy(s, &t->key) != NULL;
}

static bool button_shown(const ad_notification_surface *s, const press_target *t)
{
    const ad_notification *n = shown_copy(s, &t->key);
    return n && button_of(n, t->action);
}

static bool is_gone(const ad_notification_surface *s, const press_target *t)
{
    return ad_notif_copies(s, &t->key) < t->before;
}

/* Brings the row onto the screen: the message list opened with the top-bar clock unless
 * its banner or its row already shows, then the guard again on what the list shows. */
static int bring_on_screen(press_run *r, ad_notification_surface *s, const json_t *args,
                           int64_t index, const press_target *t, ad_error *err)
{
    if (shown_copy(s, &t->key))
        return 0;
    if (!s->toggle_known)
        return ad_error_set(err, AD_ACTION_FAILED, "The notification is not on the screen and "
                            "the top-bar clock that opens the message list is not showing");
    if (pointer(r, AD_PHYS_CLICK, s->toggle, err) < 0)
        return -1;
    r->opened_list = true;
    int shown = read_until(r, s, t, is_shown, err);
    if (shown <= 0)
        return shown < 0 ? -1 : ad_error_set(err, AD_ACTION_FAILED, "The message list did not "
                                             "show the notification");
    /* The list may have changed while it opened: the guard again, before any press. */
    if (guard(s, args, index, err) < 0)
        return -1;
    if (!ad_notif_same(&s->items[index - 1], &t->key))
        return not_found(err, index, s->count, "changed while the list opened");
    return 0;
}

static char *dup_or_null(const char *s, bool *oom)
{
    char *d = s ? strdup(s) : NULL;
    *oom |= s && !d;
    return d;
}

/* Presses the close button (action NULL) or the named action button of the row at index
 * (guarded already in *s). Returns 1 when a read shows the row gone, 0 when it is still
 * listed after the press, -1 with err (nothing pressed unless err's delivery says so). */
static int press_row(press_run *r, ad_notification_surface *s, const json_t *args,
                     int64_t index, const char *action, ad_error *err)
{
    bool oom = false;
    press_target t = {.action = action};
    t.key.title = dup_or_null(s->items[index - 1].title, &oom);
    t.key.body = dup_or_null(s->items[index - 1].body, &oom);
    t.before = ad_notif_copies(s, &t.key);
    int rc = -1, ready = 0;
    if (oom) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
    } else if (bring_on_screen(r, s, args, index, &t, err) == 0 &&
               pointer(r, AD_PHYS_MOVE, shown_copy(s, &t.key)->bounds, err) == 0 &&
               (ready = read_until(r, s, &t, button_shown, err)) > 0 &&
               pointer(r, AD_PHYS_CLICK, *button_of(shown_copy(s, &t.key), action), err) == 0) {
        rc = read_until(r, s, &t, is_gone, err);
    } else if (ready == 0 && !err->code) {
        /* The pointer is in the notification and the button never showed. */
        if (action)
            ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "The notification shows no button '%s'",
                         action);
        else
            ad_error_set(err, AD_ACTION_FAILED, "The notification shows no close button");
    }
    free(t.key.title);
    free(t.key.body);
    return rc;
}

/* Closes the message list the command opened (the clock again), best effort: the result
 * is the press's, and a list left open is visible, never harmful. */
static void close_list(press_run *r)
{
    ad_notification_surface s;
    ad_error e = AD_ERROR_INIT;
    if (r->opened_list && ad_notif_read(r->ctx, r->deadline, &s, &e) == 0) {
        if (s.toggle_known)
            pointer(r, AD_PHYS_CLICK, s.toggle, &e);
        ad_notification_surface_clear(&s);
    }
    ad_error_clear(&e);
}

static json_t *report(const char *name, ad_delivery d, const press_run *r, json_t *target)
{
    return json_pack("{s:s, s:o, s:{s:i, s:b}, s:o}", "action", name, "disposition",
                     ad_disposition_json(d), "details", "delivered_events", r->events,
                     "opened_message_list", r->opened_list, "target", target);
}

static bool has_action(const json_t *row, const char *action)
{
    size_t i;
    json_t *name;
    json_array_foreach(json_object_get(row, "actions"), i, name)
        if (strcmp(json_string_value(name), action) == 0)
            return true;
    return false;
}

static int press_one(ad_ctx *ctx, const json_t *args, const char *action, json_t **ret_data,
                     ad_error *err)
{
    if (require_headed(ctx, err) < 0)
        return -1;
    press_run r = {.ctx = ctx, .deadline = ad_deadline_after_ms(COMMAND_BUDGET_MS)};
    int64_t index = ad_arg_int(args, "index");
    ad_notification_surface s;
    if (ad_notif_read(ctx, r.deadline, &s, err) < 0)
        return -1;
    if (guard(&s, args, index, err) < 0) {
        ad_notification_surface_clear(&s);
        return -1;
    }
    json_t *row = ad_notif_row_json(&s, (size_t)index - 1);
    if (action && !has_action(row, action)) {
        json_decref(row);
        ad_notification_surface_clear(&s);
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "The notification at index %lld shows no "
                     "button '%s'", (long long)index, action);
        ad_error_suggest(err, "GNOME Shell shows action buttons only on a notification's "
                              "banner; its message-list row has none");
        return -1;
    }
    int rc = press_row(&r, &s, args, index, action, err);
    close_list(&r);
    ad_notification_surface_clear(&s);
    if (rc < 0 || (rc == 0 && !action)) {
        if (rc == 0) {
            ad_error_set(err, AD_ACTION_FAILED, "The notification is still listed after its "
                         "close button was clicked");
            err->delivery = AD_DELIVERED_UNVERIFIED;
        }
        json_decref(row);
        return -1;
    }
    json_t *target = json_pack("{s:s, s:I}", "kind", "notification", "index", (json_int_t)index);
    if (action) {
        /* The app's answer to the action is not visible here: delivered_unverified. */
        *ret_data = report(ctx->command_name, AD_DELIVERED_UNVERIFIED, &r, target);
        json_object_set_new(*ret_data, "notification", row);
        json_object_set_new(json_object_get(*ret_data, "details"), "notification_closed",
                            json_boolean(rc == 1));
        return 0;
    }
    *ret_data = report(ctx->command_name, AD_DELIVERED_VERIFIED, &r, target);
    json_object_set_new(*ret_data, "dismissed", row);
    return 0;
}

int ad_cmd_dismiss_notification(ad_ctx *ctx, const json_t *args, json_t **ret_data,
                                ad_error *err)
{
    return press_one(ctx, args, NULL, ret_data, err);
}

int ad_cmd_notification_action(ad_ctx *ctx, const json_t *args, json_t **ret_data,
                               ad_error *err)
{
    return press_one(ctx, args, ad_arg_str(args, "action"), ret_data, err);
}

/* The index (0-based) of the skip-th row matching --app, or SIZE_MAX. */
static size_t nth_match(const ad_notification_surface *s, const char *app, size_t skip)
{
    for (size_t i = 0; i < s->count; i++)
        if (ad_notif_matches(&s->items[i], app, NULL) && skip-- == 0)
            return i;
    return SIZE_MAX;
}

/* An error that would repeat on every row (no pointer input, the service gone): the whole
 * command fails with it instead of listing each row as a failure. */
static bool whole_command_error(const ad_error *e)
{
    return e->code == AD_ACTION_NOT_SUPPORTED || e->code == AD_PLATFORM_NOT_SUPPORTED ||
           e->code == AD_POLICY_DENIED || e->code == AD_PERM_DENIED;
}

int ad_cmd_dismiss_all_notifications(ad_ctx *ctx, const json_t *args, json_t **ret_data,
                                     ad_error *err)
{
    if (require_headed(ctx, err) < 0)
        return -1;
    press_run r = {.ctx = ctx, .deadline = ad_deadline_after_ms(COMMAND_BUDGET_MS)};
    const char *app = ad_arg_str(args, "app");
    ad_notification_surface s;
    if (ad_notif_read(ctx, r.deadline, &s, err) < 0)
        return -1;
    json_t *dismissed = json_array(), *failures = json_array();
    size_t skip = 0, rounds = s.count;
    int rc = 0;
    /* One row per round, the first not yet failed; a failed row is skipped after. */
    for (size_t round = 0; round < rounds; round++) {
        size_t i = nth_match(&s, app, skip);
        if (i == SIZE_MAX)
            break;
        json_t *row = ad_notif_row_json(&s, i);
        ad_error e = AD_ERROR_INIT;
        /* Each row gets the budget of one dismiss-notification: a long list takes longer,
         * never a row cut short by the ones before it. */
        r.deadline = ad_deadline_after_ms(COMMAND_BUDGET_MS);
        int pressed = press_row(&r, &s, args, (int64_t)i + 1, NULL, &e);
        if (pressed < 0 && whole_command_error(&e) && !json_array_size(dismissed)) {
            ad_error_move(err, &e);
            json_decref(row);
            rc = -1;
            break;
        }
        if (pressed == 1) {
            json_array_append_new(dismissed, row);
        } else {
            if (e.code)
                json_object_set_new(row, "error", json_string(ad_error_code_name(e.code)));
            json_array_append_new(failures, row);
            skip++;
        }
        ad_error_clear(&e);
    }
    close_list(&r);
    ad_notification_surface_clear(&s);
    if (rc < 0) {
        json_decref(dismissed);
        json_decref(failures);
        return -1;
    }
    *ret_data = json_pack("{s:I, s:o}", "dismissed_count", (json_int_t)json_array_size(dismissed),
                          "dismissed", dismissed);
    if (json_array_size(failures)) {
        json_object_set_new(*ret_data, "failed_count",
                            json_integer((json_int_t)json_array_size(failures)));
        json_object_set_new(*ret_data, "failures", failures);
    } else {
        json_decref(failures);
    }
    return 0;
}
