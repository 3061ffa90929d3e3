/* app_close.h: what close-app needs of Linux: close requests to a process's X11 windows,
 * signals to one process instance, and the processes that are never closed. */
#ifndef AD_APP_CLOSE_H
#define AD_APP_CLOSE_H

#include <stdbool.h>

#include "core/error.h"

/* Asks each top-level window of pid (_NET_CLIENT_LIST with _NET_WM_PID pid) to close: the
 * ICCCM WM_DELETE_WINDOW message when the window lists it in WM_PROTOCOLS, which is what a
 * window manager's close button sends, else the _NET_CLOSE_WINDOW request to the window
 * manager. *ret_count is how many windows were asked (0: the process has none). Errors of
 * x11_input.h (no display, no window manager). In x11_close.c. */
int ad_x11_close_pid_windows(int pid, int *ret_count, ad_error *err);

/* Why pid must never be closed, or NULL (app_close.c). Protected: pid 1, this process and its
 * parent (the caller that runs us), and by executable name the display servers (Xorg, Xvfb,
 * Xwayland), the message bus (dbus-daemon, dbus-broker), the AT-SPI bus and registry, the
 * session managers (systemd, gnome-session) and window managers and shells (openbox, mutter,
 * gnome-shell, kwin, xfwm4, ...): closing one ends the desktop every app runs in. The window
 * manager names are the fallback: the adapter asks ad_x11_protected_window_manager first. */
const char *ad_proc_protected(int pid);

/* The running window manager as EWMH names it: the root's _NET_SUPPORTING_WM_CHECK window,
 * when that window's own _NET_SUPPORTING_WM_CHECK points at itself (a property left by a
 * window manager that exited does not). *ret_name: its _NET_WM_NAME ("Openbox"), NULL when
 * unset, owned by the caller; *ret_pid: the pid of the X client that created it (X-Resource),
 * else its _NET_WM_PID, else 0. False without a display or an EWMH window manager. In
 * x11_wm.c. */
bool ad_x11_window_manager(char **ret_name, int *ret_pid);

/* "the window manager (NAME)" when pid is the one ad_x11_window_manager names, else NULL. The
 * text is this thread's until its next call. In x11_wm.c. */
const char *ad_x11_protected_window_manager(int pid);

/* SIGTERM (kill false) or SIGKILL to pid, only while it still has that instance token.
 * ACTION_FAILED (not_delivered) when it is gone or the signal is refused. */
int ad_proc_signal(int pid, const char *instance, bool kill, ad_error *err);

#endif
