/* notify_client.h: asks the helper's "notify" service (helper/notify_monitor.h) for the
 * monitored notifications and names the apps of the rows it proves (notify_match.h).
 *
 * Best effort by design: the helper only adds a fact the shell's tree lacks, so a helper
 * that is not installed, does not answer within AD_NOTIFY_CLIENT_MS, or refuses a monitor
 * leaves every row as it was (app_name unknown) and the read succeeds as without it. The
 * first call starts the helper and its monitor; notifications posted before that are never
 * named. */
#ifndef AD_NOTIFY_CLIENT_H
#define AD_NOTIFY_CLIENT_H

#include <stdint.h>

#include "platform/adapter.h"

/* The longest one ask may take, so a stalled helper costs a read little. */
#define AD_NOTIFY_CLIENT_MS 1000

/* Names the rows of s that the monitor proves; never fails (see above). Ends by the earlier
 * of deadline_us and AD_NOTIFY_CLIENT_MS from now. */
void ad_notify_name_apps(ad_notification_surface *s, int64_t deadline_us);

#endif
