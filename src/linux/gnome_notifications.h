/* gnome_notifications.h: GNOME Shell's notification surface, read from the shell's own
 * accessibility tree (commands/notifications.md, platforms/linux.md "Notifications").
 *
 * Measured on gnome-shell 43.9 (Debian 12), X11 and Wayland: every notification in the
 * message list is an AT-SPI `notification` object inside the shell's tree, also while the
 * list is closed (its extents then read INT_MIN, so bounds are unknown); a banner showing now
 * is a second `notification` object, with screen-coordinate extents. Neither names the app
 * that sent it (no app label, the Action interface lists nothing), and
 * CloseNotification(id) from another client fails while the sender is alive, so the shell
 * is driven by pointer input at these coordinates. */
#ifndef AD_GNOME_NOTIFICATIONS_H
#define AD_GNOME_NOTIFICATIONS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

#include "platform/adapter.h"

/* Checks that GNOME Shell owns org.freedesktop.Notifications on the session bus
 * (PLATFORM_NOT_SUPPORTED with details daemon and detail otherwise: "absent" without an
 * owner, the owner's executable name else), then reads its tree on the accessibility bus
 * `a11y` and fills ret (the caller's: ad_notification_surface_clear). */
int ad_gnome_read_notifications(sd_bus *a11y, int64_t deadline_us, ad_notification_surface *ret,
                                ad_error *err);

/* The surface in a tree read from GNOME Shell's application root (root: its application
 * node). Fills ret (the caller's). -1 only when out of memory. */
int ad_gnome_notifications_parse(const ad_node *root, ad_notification_surface *ret);

#endif
