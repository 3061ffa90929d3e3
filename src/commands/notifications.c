/* notifications.c: list-notifications and wait --notification (commands/notifications.md,
 * commands/wait.md "Notification"). Both only read the surface: headless, even with the
 * list closed. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/notifications.h"
#include "commands/wait_modes.h"
#include "core/deadline.h"

#define READ_BUDGET_MS 5000
#define POLL_MS 100

int ad_notif_read(ad_ctx *ctx, int64_t deadline_us, ad_notification_surface *s, ad_error *err)
{
    memset(s, 0, sizeof(*s));
    if (!ctx->adapter->ops->read_notifications) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "This platform has no notification surface");
        ad_error_detail(err, "retryable", json_false());
        return -1;
    }
    return ctx->adapter->ops->read_notifications(ctx->adapter, deadline_us, s, err);
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

bool ad_notif_same(const ad_notification *a, const ad_notification *b)
{
    return same_text(a->title, b->title) && same_text(a->body, b->body);
}

size_t ad_notif_banner_row(const ad_notification_surface *s)
{
    for (size_t i = 0; s->has_banner && i < s->count; i++)
        if (ad_notif_same(&s->items[i], &s->banner))
            return i;
    return SIZE_MAX;
}

json_t *ad_notif_row_json(const ad_notification_surface *s, size_t i)
{
    const ad_notification *n = &s->items[i];
    const ad_notification *shown = ad_notif_banner_row(s) == i ? &s->banner : n;
    json_t *row = json_pack("{s:I}", "index", (json_int_t)(i + 1));
    /* Omitted when unknown (json-output.md: a None field is left out); on GNOME Shell only
     * the helper's monitor can prove it (linux/notify_match.h). */
    if (n->app_name)
        json_object_set_new(row, "app_name", json_string(n->app_name));
    json_object_set_new(row, "title", json_string(n->title ? n->title : ""));
    if (n->body)
        json_object_set_new(row, "body", json_string(n->body));
    if (shown->n_actions) {
        json_t *actions = json_array();
        for (size_t k = 0; k < shown->n_actions; k++)
            json_array_append_new(actions, json_string(shown->actions[k]));
        json_object_set_new(row, "actions", actions);
    }
    return row;
}

bool ad_notif_matches(const ad_notification *n, const char *app, const char *text)
{
    if (app && (!n->app_name || strcasecmp(n->app_name, app) != 0))
        return false;
    return !text || ad_contains_ci(n->title, text) || ad_contains_ci(n->body, text);
}

int ad_cmd_list_notifications(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    ad_notification_surface s;
    if (ad_notif_read(ctx, ad_deadline_after_ms(READ_BUDGET_MS), &s, err) < 0)
        return -1;
    const char *app = ad_arg_str(args, "app"), *text = ad_arg_str(args, "text");
    bool limited = ad_arg_has(args, "limit");
    int64_t limit = limited ? ad_arg_int(args, "limit") : 0;
    json_t *rows = json_array();
    for (size_t i = 0; i < s.count && (!limited || (int64_t)json_array_size(rows) < limit); i++)
        if (ad_notif_matches(&s.items[i], app, text))
            json_array_append_new(rows, ad_notif_row_json(&s, i));
    ad_notification_surface_clear(&s);
    *ret_data = json_pack("{s:I, s:o}", "count", (json_int_t)json_array_size(rows),
                          "notifications", rows);
    return 0;
}

/* ---- wait --notification ----------------------------------------------------------------- */

size_t ad_notif_copies(const ad_notification_surface *s, const ad_notification *n)
{
    size_t k = 0;
    for (size_t i = 0; i < s->count; i++)
        k += ad_notif_same(&s->items[i], n);
    return k;
}

/* The first row of now (in list order, newest first on GNOME) that matches the filters and
 * has more copies than the baseline had; SIZE_MAX when none. */
static size_t first_new(const ad_notification_surface *base, const ad_notification_surface *now,
                        const char *app, const char *text)
{
    for (size_t i = 0; i < now->count; i++) {
        const ad_notification *n = &now->items[i];
        if (ad_notif_matches(n, app, text) && ad_notif_copies(now, n) > ad_notif_copies(base, n))
            return i;
    }
    return SIZE_MAX;
}

int ad_wait_notification(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                         json_t **ret, ad_error *err)
{
    const char *app = ad_arg_str(args, "app"), *text = ad_arg_str(args, "text");
    int64_t deadline = ad_deadline_add_ms(started, timeout_ms);
    ad_notification_surface base;
    /* The baseline must be read: without it every old notification would look new. */
    if (ad_notif_read(ctx, ad_wait_read_deadline(started, deadline), &base, err) < 0)
        return -1;
    /* Wake-ups on any app's change: the shell's children-changed as a notification arrives
     * ends the 100 ms poll early. */
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, NULL, ad_wait_read_deadline(started, deadline));
    json_t *last_error = NULL;
    size_t polls = 0;
    for (;;) {
        if (ad_now_us() >= deadline)
            break;
        ad_wait_next_poll(ctx, POLL_MS, deadline);
        ad_notification_surface now;
        ad_error e = AD_ERROR_INIT;
        polls++;
        if (ad_notif_read(ctx, ad_wait_read_deadline(started, deadline), &now, &e) < 0) {
            if (e.code == AD_PLATFORM_NOT_SUPPORTED) { /* the shell went away */
                ad_error_move(err, &e);
                ad_notification_surface_clear(&base);
                json_decref(last_error);
                return -1;
            }
            json_decref(last_error);
            last_error = json_pack("{s:s, s:s}", "code", ad_error_code_name(e.code), "message",
                                   e.message ? e.message : "");
            ad_error_clear(&e);
            continue;
        }
        size_t hit = first_new(&base, &now, app, text);
        if (hit != SIZE_MAX) {
            *ret = json_pack("{s:s, s:b, s:o, s:I}", "condition", "notification", "matched", 1,
                             "notification", ad_notif_row_json(&now, hit), "elapsed_ms",
                             (json_int_t)((ad_now_us() - started) / 1000));
            ad_notification_surface_clear(&now);
            ad_notification_surface_clear(&base);
            json_decref(last_error);
            return 0;
        }
        ad_notification_surface_clear(&now);
    }
    ad_error_set(err, AD_TIMEOUT, "No new notification within %lldms", (long long)timeout_ms);
    ad_error_detail(err, "kind", json_string("wait_timeout"));
    ad_error_detail(err, "predicate", json_string("notification"));
    ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
    ad_error_detail(err, "last_observed", json_pack("{s:I, s:I}", "baseline_count",
                                                    (json_int_t)base.count, "polls",
                                                    (json_int_t)polls));
    if (last_error)
        ad_error_detail(err, "last_error", last_error);
    ad_notification_surface_clear(&base);
    return -1;
}
