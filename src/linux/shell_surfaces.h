/* shell_surfaces.h: the GNOME Shell surface kinds (surfaces.md; platforms/linux.md, "Shell
 * surfaces"), read from gnome-shell's tree (gnome_shell.h).
 *
 * - action-center: the clock's menu, which holds the message list and the calendar. It opens
 *   by a click on the clock (gnome-shell offers no action for it) and is read as the menu's
 *   panel, a window of gnome-shell with its own w- id.
 * - system-tray: the top bar's status area (where status notifier items show), offered only
 *   while org.kde.StatusNotifierWatcher has an owner on the session bus. It is always on
 *   screen, so it is never "opened".
 * quick-settings, taskbar, start-menu and system-tray-overflow are never offered. */
#ifndef AD_SHELL_SURFACES_H
#define AD_SHELL_SURFACES_H

#include <systemd/sd-bus.h>

#include "linux/session_bus.h" /* ad_session_link */
#include "platform/adapter.h"

/* Each function below asks the session bus whether a tray watcher runs through `session`
 * (the adapter's link, borrowed: one connection per adapter, not one per call).
 * The shell kinds this session can resolve now (static strings) into ret[0..cap), in the
 * order above; returns how many. 0 without GNOME Shell, or when the shell could not be read
 * (nothing is offered that cannot be proved). */
size_t ad_shell_surface_kinds(sd_bus *bus, ad_session_link *session, int64_t deadline_us,
                              const char **ret, size_t cap);

/* Finds one shell surface: 0 with *ret filled (open, or closed with where a click opens it;
 * the caller clears it with ad_shell_surface_clear), -1 with err: WINDOW_NOT_FOUND when the
 * session has no such surface, TIMEOUT when the shell did not answer in time. */
int ad_shell_surface_find(sd_bus *bus, ad_session_link *session, const char *kind,
                          int64_t deadline_us, ad_shell_surface *ret, ad_error *err);

/* list-windows for gnome-shell: the shell's stage (a nameless window covering the screen,
 * which is no application window) is taken out of l from index `from` on, and the shell
 * surfaces open now are put in, so their ids resolve like any window's. Best effort: a
 * shell that cannot be read adds nothing. */
void ad_shell_surface_windows(sd_bus *bus, ad_session_link *session, const ad_app *shell,
                              int64_t deadline_us, ad_window_list *l, size_t from);

#endif
