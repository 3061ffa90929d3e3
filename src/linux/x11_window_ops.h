/* x11_window_ops.h: window management through the EWMH window manager (app-window.md):
 * move, resize, minimize, maximize, restore, each read back through the X server. */
#ifndef AD_X11_WINDOW_OPS_H
#define AD_X11_WINDOW_OPS_H

#include <stdint.h>

#include "linux/x11_input.h"
#include "platform/adapter.h"

/* The window as list-windows reports it (ad_x11_client_visible of its client read) and its
 * _NET_WM_STATE (WM_STATE Iconic counts as hidden). *ret_pid is its _NET_WM_PID (0 unset).
 * -1 when the window is gone (ret->known false). */
int ad_x11_window_state(ad_x11 *x, uint32_t window, ad_win_state *ret, int *ret_pid);

/* Sends req (not AD_WIN_FOCUS) for client window `window` of process `pid`, then reads the
 * window back on ConfigureNotify / PropertyNotify until ad_win_state_reached or
 * req->deadline_us. STALE_REF, before anything is sent, when the window is gone or no longer
 * belongs to pid; ACTION_FAILED when the server refuses a request. Fills ret->observed,
 * ret->reached and ret->label. */
int ad_x11_window_apply(ad_x11 *x, uint32_t window, int pid, const ad_win_req *req,
                        ad_win_result *ret, ad_error *err);

#endif
