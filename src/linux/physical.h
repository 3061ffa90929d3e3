/* physical.h: XTEST input for the adapter (--headed ref actions, press, mouse commands). */
#ifndef AD_PHYSICAL_H
#define AD_PHYSICAL_H

#include <systemd/sd-bus.h>

#include "linux/x11_input.h"
#include "platform/adapter.h"

/* Sends req. *held is the adapter's connection that still holds keys remapped for text
 * typed earlier (or NULL): it is used instead of a new one, and on return it is the
 * connection when the input left remapped keys behind, NULL otherwise. */
int ad_linux_physical(sd_bus *bus, ad_x11 **held, const ad_phys_req *req,
                      int64_t deadline_us, ad_act_result *ret, ad_error *err);
/* Puts the remapped keys of *held back (at once when `seen`: the typed text was read in the
 * application; else after the settle delay) and closes it. NULL-safe. */
void ad_linux_physical_settle(ad_x11 **held, bool seen);
int ad_linux_hit_test(sd_bus *bus, const char *window_id, int px, int py, bool popup_ok,
                      json_t **ret_occluder, ad_error *err);
/* 0 on X11; in a Wayland session (XDG_SESSION_TYPE, or WAYLAND_DISPLAY without DISPLAY)
 * ACTION_NOT_SUPPORTED, details.cause wayland_session, "<what> needs X11", and -1. */
int ad_linux_require_x11(const char *what, ad_error *err);
/* ACTION_FAILED, cause frame_not_active (a scoped headless press to a window that is not
 * active), and -1: the one refusal for X11 and Wayland. */
int ad_linux_frame_not_active(ad_error *err);
int ad_linux_active_window(int *ret_pid, char **ret_title, ad_error *err);

/* A Wayland session: XDG_SESSION_TYPE=wayland, or a Wayland display and no X one. X11 input
 * and capture (x11_capture.h) refuse there: XWayland shows only its own clients. */
bool ad_linux_wayland_session(void);

#endif
