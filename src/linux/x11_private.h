/* x11_private.h: what the x11_*.c files behind x11_input.h share, and nothing else includes.
 *
 *   x11_conn.c      the connection, time, errors, the sync round trip, sending fake events
 *   x11_connect.c   xcb_connect serialized in the process (libXau's static buffer)
 *   x11_windows.c   EWMH windows: find, focus, active, window_at
 *   x11_window_ops.c  EWMH window management: move, resize, (un)minimize, (un)maximize
 *   x11_pointer.c   XTEST pointer gestures: move, click, wheel, drag
 *   x11_keys.c      combos, the core keyboard mapping and spare keycodes, typing
 *   x11_keynames.c  key and modifier names to keysyms, UTF-8 decoding
 *   x11_close.c     close requests to a process's windows (close-app)
 *   x11_wm.c        the EWMH window manager: its check window, name and pid (close-app)
 *
 * Requests are sent unchecked; ad_x11_sync makes one GetInputFocus round trip and then drains
 * the event queue, where the errors of unchecked requests arrive, so a refused request turns
 * into ACTION_FAILED before the call returns.
 */
#ifndef AD_X11_PRIVATE_H
#define AD_X11_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/xcb_ewmh.h>

#include "linux/x11_input.h"

#define MAX_SPARES 32 /* empty keycodes kept for remapping */

enum {
    KS_SHIFT_L = 0xffe1, KS_SHIFT_R, KS_CONTROL_L, KS_CONTROL_R, KS_CAPS, KS_SHIFT_LOCK,
    KS_META_L, KS_META_R, KS_ALT_L, KS_ALT_R, KS_SUPER_L, KS_SUPER_R,
    KS_RETURN = 0xff0d, KS_TAB = 0xff09, KS_F1 = 0xffbe, KS_KP_0 = 0xffb0,
};

struct ad_x11 {
    xcb_connection_t *c;
    xcb_ewmh_connection_t ewmh;
    int screen_no;
    xcb_window_t root;
    int width, height;
    bool root_events;
    unsigned sent;                  /* input events sent by the current call */
    xcb_keycode_t min_kc, max_kc;
    xcb_keysym_t *keysyms;          /* core mapping, kpk columns per keycode */
    int kpk, n_kc;
    xcb_keycode_t spare[MAX_SPARES]; /* empty keycodes found before any remap */
    int n_spare, n_used;            /* spare[0..n_used) hold a keysym of ours */
    int n_touched;                  /* spare[0..n_touched) to put back */
    bool dirty;                     /* some spare is mapped and not put back */
    bool hold;                      /* typing leaves spares mapped (ad_x11_hold_spares) */
};

/* ---- x11_conn.c -------------------------------------------------------------------------- */

/* CLOCK_MONOTONIC in microseconds. */
int64_t ad_x11_now_us(void);
/* Sleeps ms milliseconds: gesture pacing only, never a wait for an effect. */
void ad_x11_pause_ms(int ms);
/* INVALID_ARGS with msg; returns -1. */
int ad_x11_bad_arg(ad_error *err, const char *msg);
/* One round trip, then the errors of every request sent before it (ACTION_FAILED). */
int ad_x11_sync(ad_x11 *x, ad_error *err);
/* ad_x11_sync with the error dropped: cleanup after a failure already reported. */
void ad_x11_sync_quiet(ad_x11 *x);
/* Starts a sending call: INVALID_ARGS naming `who` without a connection, else zeroes sent. */
int ad_x11_start(ad_x11 *x, ad_error *err, const char *who);
/* INVALID_ARGS unless root point (px, py) lies on the screen. */
int ad_x11_check_point(ad_x11 *x, int px, int py, ad_error *err);
/* Queues one XTEST event (px, py used by motion only) and counts it in x->sent. */
void ad_x11_fake(ad_x11 *x, uint8_t type, uint8_t detail, int px, int py);
/* Presses kcs[0..n) in order, or releases them in reverse order. */
void ad_x11_fake_keys(ad_x11 *x, const xcb_keycode_t *kcs, int n, bool press);

/* ---- x11_windows.c ----------------------------------------------------------------------- */

/* Waits until an event arrives (for what the connection selected: PropertyNotify,
 * ConfigureNotify), 20 ms pass, or the deadline; the caller re-reads the state either way.
 * False once the deadline has passed. */
bool ad_x11_wait_event(ad_x11 *x, int64_t deadline_us);

/* ---- x11_keys.c -------------------------------------------------------------------------- */

/* Puts every remapped spare keycode back to NoSymbol, after the settle delay. */
void ad_x11_restore_spares(ad_x11 *x);
/* Keycodes (at most 4) for the AD_X11_MOD_* bits in mods; INVALID_ARGS for unknown bits. */
int ad_x11_mod_keycodes(ad_x11 *x, unsigned mods, xcb_keycode_t *kcs, int *n, ad_error *err);

/* ---- x11_keynames.c ---------------------------------------------------------------------- */

/* The keysyms that press each AD_X11_MOD_* bit, in ctrl, shift, alt, super order; alt[0] is
 * the one sent, the others are accepted as the same modifier; unused slots are 0. */
struct ad_x11_mod_key {
    unsigned mask;
    uint32_t alt[3];
};
extern const struct ad_x11_mod_key ad_x11_mod_keys[4];

/* A window's title: _NET_WM_NAME (UTF8_STRING), else WM_NAME (the list-windows fallback when
 * AT-SPI has no name). Request both, then read: NULL when neither is set, else owned by the
 * caller. In x11_windows.c. */
void ad_x11_title_request(xcb_ewmh_connection_t *ewmh, xcb_window_t w,
                          xcb_get_property_cookie_t *ret_net_name,
                          xcb_get_property_cookie_t *ret_wm_name);
char *ad_x11_title_reply(xcb_ewmh_connection_t *ewmh, xcb_get_property_cookie_t net_name,
                         xcb_get_property_cookie_t wm_name);

/* The top-level client windows (_NET_CLIENT_LIST) whose _NET_WM_PID is pid: *ret (the
 * caller frees it) holds *ret_n of them. ACTION_NOT_SUPPORTED without an EWMH window manager.
 * In x11_windows.c; x11_close.c closes them. */
int ad_x11_pid_windows(ad_x11 *x, int pid, uint32_t **ret, int *ret_n, ad_error *err);

/* The keysym sent for one modifier bit, 0 for anything else. */
uint32_t ad_x11_mod_keysym(unsigned mask);
/* The modifier bit a keysym stands for, 0 when it is not a modifier. */
unsigned ad_x11_keysym_mod(uint32_t ks);
/* The keysym of one non-empty key part of a combo (name, character, f<n>, kp_<n>, 0x<hex>,
 * u<hex>), or 0 when it is unknown. */
uint32_t ad_x11_key_keysym(const char *name);
/* INVALID_ARGS for an unknown key name, suggesting the nearest known name; returns -1. */
int ad_x11_unknown_key(ad_error *err, const char *name);
/* Decodes one UTF-8 code point at s; returns its length, 0 when invalid. */
int ad_x11_utf8_decode(const unsigned char *s, uint32_t *cp);

#endif
