/* notify_monitor.h: the helper's "notify" service: a D-Bus monitor on the session bus that
 * remembers who sent each notification, so list-notifications can name the app that GNOME
 * Shell's accessibility tree never shows (gnome_notifications.h).
 *
 * How: a second connection of this user calls org.freedesktop.DBus.Monitoring.BecomeMonitor
 * (allowed to the bus's own uid) with match rules for the Notify and CloseNotification
 * calls, the replies and errors sent by org.freedesktop.Notifications (the reply carries the
 * id) and the NotificationClosed signal. It sees only what happens while it runs: a
 * notification posted before the first `ensure` is never in the table.
 *
 * The table: the last AD_NOTIFY_TABLE_SIZE Notify calls, each {id (0 until the reply),
 * app_name, summary, body, sender (unique name), sender_pid (the "sender-pid" hint, 0
 * without), age_ms, open}. An entry is closed by NotificationClosed, CloseNotification, an
 * error reply or a later Notify that replaces its id; closed entries stay in the table
 * (they still count as twins for the matching rule, notify_match.h).
 *
 * Requests ({"service":"notify", "op":...}):
 *   "ensure": starts monitoring when it does not run. Reply {"monitoring": true,
 *             "since_ms": N} (how long it has monitored).
 *   "list":   the same, plus "entries": [...] (oldest first).
 *   "stop":   stops monitoring and forgets the table.
 * Idle: monitoring stops (and the table goes) after AD_NOTIFY_IDLE_MS without a request
 * (AGENT_DESKTOP_NOTIFY_IDLE_MS, read when the helper starts, overrides it); the service
 * then holds nothing, so the helper may exit.
 */
#ifndef AD_NOTIFY_MONITOR_H
#define AD_NOTIFY_MONITOR_H

#include <stdbool.h>
#include <jansson.h>

#define AD_NOTIFY_TABLE_SIZE 256
#define AD_NOTIFY_IDLE_MS (5 * 60 * 1000)

typedef struct ad_notify_monitor ad_notify_monitor;

/* A service that does not monitor yet. NULL on OOM. */
ad_notify_monitor *ad_notify_monitor_new(void);
void ad_notify_monitor_free(ad_notify_monitor *m);

/* The monitor connection's fd, or -1 when not monitoring. */
int ad_notify_monitor_fd(const ad_notify_monitor *m);

/* Reads every message the bus queued and stops monitoring once idle. */
int ad_notify_monitor_dispatch(ad_notify_monitor *m);

/* True while monitoring. */
bool ad_notify_monitor_holds(const ad_notify_monitor *m);

/* The longest the helper's poll may wait before the idle stop; -1 when not monitoring. */
int ad_notify_monitor_timeout_ms(const ad_notify_monitor *m);

/* Serves one request (borrowed); returns the reply header, a new reference. */
json_t *ad_notify_monitor_request(ad_notify_monitor *m, const json_t *req);

#endif
