/* notify_match.h: which app sent each row of GNOME Shell's notification list, proved from
 * the helper's monitored Notify calls (helper/notify_monitor.h), or left unknown.
 *
 * The rule (commands/notifications.md: app_name from the best source that can be proved):
 * a row gets app_name only when exactly one monitored entry, open or closed, has the row's
 * title and body (a missing body and an empty one are equal), that entry is still open and
 * not nameless, and no other row of the list shows the same title and body. Twins (two
 * entries, or two rows, with the same text), a closed entry, or no entry at all (posted
 * before the monitor ran) leave app_name out: unproved, never guessed. */
#ifndef AD_NOTIFY_MATCH_H
#define AD_NOTIFY_MATCH_H

#include <jansson.h>

#include "platform/adapter.h"

/* Sets app_name (strdup'd, owned by the row) of the rows of s that the rule proves, from
 * entries (borrowed: the helper's "entries" array) ; rows that already have one are kept.
 * The showing banner gets the app_name of its row. -1 only when out of memory (rows
 * already named keep their names). */
int ad_notify_match_apps(ad_notification_surface *s, const json_t *entries);

#endif
