/* notifications.h: what the notification commands share (commands/notifications.md):
 * reading the surface, the list-notifications row, the filters and the identity guard.
 * list-notifications and wait --notification are in notifications.c, the mutations
 * (dismiss-notification, dismiss-all-notifications, notification-action) in
 * notification_press.c. */
#ifndef AD_COMMANDS_NOTIFICATIONS_H
#define AD_COMMANDS_NOTIFICATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/ctx.h"

/* Reads the surface by deadline_us; PLATFORM_NOT_SUPPORTED when the adapter has none.
 * s is the caller's (ad_notification_surface_clear). */
int ad_notif_read(ad_ctx *ctx, int64_t deadline_us, ad_notification_surface *s, ad_error *err);

/* The list row that the banner shows (its title and body equal), or SIZE_MAX. */
size_t ad_notif_banner_row(const ad_notification_surface *s);

/* The list-notifications row of items[i] (1-based index i + 1): app_name only when the
 * surface shows it, body and actions omitted when empty; a row the banner shows has the
 * banner's actions. New reference. */
json_t *ad_notif_row_json(const ad_notification_surface *s, size_t i);

/* --app (equal ignoring case; an app the surface does not show never matches) and --text
 * (contained in the title or the body, ignoring case); NULL: no filter. */
bool ad_notif_matches(const ad_notification *n, const char *app, const char *text);

/* Same title and body (either may be NULL). */
bool ad_notif_same(const ad_notification *a, const ad_notification *b);

/* How many list rows have n's title and body: a baseline or a before-count is a count of
 * copies, so a second notification with the same text still tells. */
size_t ad_notif_copies(const ad_notification_surface *s, const ad_notification *n);

#endif
