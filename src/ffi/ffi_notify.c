/* ffi_notify.c: notifications (api.md "Notifications") through list-notifications,
 * notification-action, dismiss-notification and dismiss-all-notifications (GNOME Shell on
 * Linux: commands/notification*.c). Each call returns exactly the command's result or
 * error. */
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_exact.h"

FFI_LIST_DEFINE(AdNotificationList, AdNotificationInfo, ad_notification_list_count,
                ad_notification_list_get, ad_notification_list_free)

/* The list-notifications row shape (notifications.md) of every entry of rows into a new list
 * that owns `owner` (stolen; rows is inside it). NULL with INTERNAL recorded on OOM. */
static struct AdNotificationList *list_of(json_t *owner, const json_t *rows)
{
    size_t n = json_array_size(rows), n_actions = 0, i;
    json_t *row;
    json_array_foreach(rows, i, row)
        n_actions += json_array_size(json_object_get(row, "actions"));
    struct AdNotificationList *list = AdNotificationList_new(owner, n);
    char **actions = list ? calloc(n_actions ? n_actions : 1, sizeof(char *)) : NULL;
    if (list && !actions) {
        ad_notification_list_free(list);
        ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
        return NULL;
    }
    if (!list)
        return NULL;
    list->extra = actions;
    json_array_foreach(rows, i, row) {
        AdNotificationInfo *e = &list->items[i];
        e->index = ffi_json_pid(row, "index");
        e->app_name = ffi_json_str(row, "app_name");
        e->title = ffi_json_str(row, "title");
        e->body = ffi_json_str(row, "body");
        e->actions = actions;
        size_t k;
        json_t *name;
        json_array_foreach(json_object_get(row, "actions"), k, name)
            if (json_is_string(name))
                e->actions[e->action_count++] = (char *)json_string_value(name);
        actions += e->action_count;
    }
    list->count = (uint32_t)n;
    return list;
}

AdResult ad_list_notifications(const struct AdAdapter *adapter,
                               const struct AdNotificationFilter *filter,
                               struct AdNotificationList **out)
{
    AdResult rc = FFI_TAKE_OUT(out);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *args = json_object();
    if (filter) { /* NULL: no filter */
        if ((rc = ffi_check_string(filter->app, "filter.app", false)) == AD_RESULT_OK)
            rc = ffi_check_string(filter->text, "filter.text", false);
        if (rc != AD_RESULT_OK) {
            json_decref(args);
            return rc;
        }
        if (filter->app)
            json_object_set_new(args, "app", json_string(filter->app));
        if (filter->text)
            json_object_set_new(args, "text", json_string(filter->text));
        if (filter->has_limit)
            json_object_set_new(args, "limit", json_integer(filter->limit));
    }
    json_t *data = NULL;
    if ((rc = ffi_run(adapter, "list-notifications", args, &data, NULL)) != AD_RESULT_OK)
        return rc;
    *out = list_of(data, json_object_get(data, "notifications"));
    return *out ? AD_RESULT_OK : AD_RESULT_ERR_INTERNAL;
}

/* The identity flags every notification mutation takes; NULL values are left out. */
static json_t *identity_args(json_int_t index, const char *app_filter, const char *app,
                             const char *title)
{
    json_t *args = json_pack("{s:I}", "index", index);
    if (app_filter)
        json_object_set_new(args, "app", json_string(app_filter));
    if (app)
        json_object_set_new(args, "expected_app", json_string(app));
    if (title)
        json_object_set_new(args, "expected_title", json_string(title));
    return args;
}

static AdResult check_identity_strings(const char *app_filter, const char *app,
                                       const char *title)
{
    AdResult rc = ffi_check_string(app_filter, "app_filter", false);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(app, "expected_app", false);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(title, "expected_title", false);
    return rc;
}

/* The report's disposition ("delivered_verified", ...) as the ABI's values. */
static AdDeliverySemantics disposition_of(const json_t *data)
{
    static const char *const deliveries[] = {"", "not_delivered", "delivery_uncertain",
                                             "delivered_unverified", "delivered_verified"};
    static const char *const retries[] = {"", "safe", "unsafe"};
    const json_t *d = json_object_get(data, "disposition");
    const char *delivery = ffi_json_str(d, "delivery"), *retry = ffi_json_str(d, "retry");
    AdDeliverySemantics s = {0};
    for (int32_t i = 1; delivery && i < 5; i++)
        if (strcmp(delivery, deliveries[i]) == 0)
            s.delivery = i;
    for (int32_t i = 1; retry && i < 3; i++)
        if (strcmp(retry, retries[i]) == 0)
            s.retry = i;
    return s;
}

AdResult ad_notification_action(const struct AdAdapter *adapter,
                                const struct AdNotificationActionRequest *request,
                                struct AdActionResult *out)
{
    AdResult rc = ffi_check_ptr(out, "out");
    if (rc != AD_RESULT_OK)
        return rc;
    memset(out, 0, sizeof(*out));
    if ((rc = ffi_check_ptr(request, "request")) != AD_RESULT_OK ||
        (rc = ffi_check_enum(request->policy, AD_POLICY_KIND_HEADLESS, AD_POLICY_KIND_HEADED,
                             "request.policy")) != AD_RESULT_OK ||
        (rc = ffi_check_string(request->action_name, "request.action_name", true)) !=
            AD_RESULT_OK ||
        (rc = check_identity_strings(NULL, request->identity.app, request->identity.title)) !=
            AD_RESULT_OK)
        return rc;
    json_t *args = identity_args(request->index, NULL, request->identity.app,
                                 request->identity.title);
    json_object_set_new(args, "action", json_string(request->action_name));
    json_t *data = NULL;
    /* Only the headed policy may press a notification's button (the CLI's --headed). */
    rc = request->policy == AD_POLICY_KIND_HEADED
             ? ffi_run_headed(adapter, "notification-action", args, &data, NULL)
             : ffi_run(adapter, "notification-action", args, &data, NULL);
    if (rc == AD_RESULT_OK)
        out->disposition = disposition_of(data); /* no strings: nothing for the free to own */
    json_decref(data);
    return rc;
}

AdResult ad_dismiss_notification(const struct AdAdapter *adapter, uint32_t index,
                                 const char *app_filter, const char *expected_app,
                                 const char *expected_title)
{
    AdResult rc = check_identity_strings(app_filter, expected_app, expected_title);
    if (rc != AD_RESULT_OK)
        return rc;
    /* The call is the caller's explicit request to dismiss, as --headed is on the CLI. */
    return ffi_run_headed(adapter, "dismiss-notification",
                          identity_args(index, app_filter, expected_app, expected_title), NULL,
                          NULL);
}

AdResult ad_dismiss_all_notifications(const struct AdAdapter *adapter, const char *app_filter,
                                      struct AdNotificationList **dismissed_out,
                                      struct AdNotificationList **failed_out)
{
    if (dismissed_out)
        *dismissed_out = NULL;
    if (failed_out)
        *failed_out = NULL;
    AdResult rc = ffi_check_ptr(dismissed_out, "dismissed_out");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_ptr(failed_out, "failed_out");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(app_filter, "app_filter", false);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *args = json_object();
    if (app_filter)
        json_object_set_new(args, "app", json_string(app_filter));
    json_t *data = NULL;
    if ((rc = ffi_run_headed(adapter, "dismiss-all-notifications", args, &data, NULL)) !=
        AD_RESULT_OK)
        return rc;
    /* Both lists share data: each holds a reference. */
    *dismissed_out = list_of(json_incref(data), json_object_get(data, "dismissed"));
    *failed_out = *dismissed_out ? list_of(json_incref(data), json_object_get(data, "failures"))
                                 : NULL;
    json_decref(data);
    if (!*failed_out) {
        ad_notification_list_free(*dismissed_out);
        *dismissed_out = NULL;
        return AD_RESULT_ERR_INTERNAL;
    }
    return AD_RESULT_OK;
}

void ad_dismiss_all_notifications_free(struct AdNotificationList *dismissed,
                                       struct AdNotificationList *failed)
{
    ad_notification_list_free(dismissed);
    ad_notification_list_free(failed);
}
