/* x11_input.h: physical input on X11: pointer and keys through XTEST, windows through EWMH.
 *
 * One ad_x11 is one connection to the X server named by $DISPLAY. Every call that sends
 * something flushes and waits for a round trip (GetInputFocus) before it returns, so the
 * events are in the server; whether the application acted on them is not known, which is why
 * physical input is delivered_unverified and the caller confirms the effect with a read.
 *
 * Fallible calls return 0, or -1 with `err` filled:
 *   PLATFORM_NOT_SUPPORTED  no X display or no XTEST (platform_detail says which)
 *   INVALID_ARGS            a bad argument; nothing was sent
 *   ACTION_FAILED           the server refused a request or the connection broke;
 *                           err->delivery is delivery_uncertain when input had gone out
 * plus the codes named at each call; the window calls are ACTION_NOT_SUPPORTED when no EWMH
 * window manager publishes _NET_CLIENT_LIST. ret_* outputs are written only on success.
 * Coordinates are root-window pixels and must lie on the screen. A handle is not thread-safe.
 *
 * Keys need no Xlib or libxkbcommon: the core keyboard mapping is read with
 * GetKeyboardMapping and key names come from a built-in table (x11_input.c). A keysym that is
 * not in the keymap is typed by mapping it onto a spare (empty) keycode for the duration of
 * the call; the mapping is put back before the call returns, after a settle delay (see
 * ad_x11_type_text), or, with ad_x11_hold_spares, when the caller has seen the text arrive.
 */
#ifndef AD_X11_INPUT_H
#define AD_X11_INPUT_H

#include <stdint.h>

#include "core/error.h"

typedef struct ad_x11 ad_x11;

/* Most keysyms one combo holds: modifiers first, then the key. */
#define AD_X11_COMBO_MAX 8
/* Longest text ad_x11_type_text accepts, in bytes (the type command's limit). */
#define AD_X11_TYPE_MAX_BYTES 10000
/* Most keyboard mapping changes one ad_x11_type_text may make (see there). */
#define AD_X11_TYPE_MAX_REMAPS 64
/* The drop delay of ad_x11_drag: the Linux default of drag --drop-delay. */
#define AD_X11_DRAG_HOLD_MS 150

/* Modifier masks for the *_mods calls. */
enum {
    AD_X11_MOD_CTRL = 1u << 0,
    AD_X11_MOD_SHIFT = 1u << 1,
    AD_X11_MOD_ALT = 1u << 2,
    AD_X11_MOD_SUPER = 1u << 3, /* also meta, cmd, command, win */
};

/* Opens a connection to $DISPLAY and checks for XTEST. *ret is the caller's; free it with
 * ad_x11_close. */
int ad_x11_open(ad_x11 **ret, ad_error *err);
/* Puts back any keycode still remapped, closes the connection and frees x. NULL-safe. */
void ad_x11_close(ad_x11 *x);

/* Finds the top-level client window of `pid` titled `title` (exact; NULL: the only window of
 * pid) via _NET_CLIENT_LIST, _NET_WM_PID and _NET_WM_NAME. WINDOW_NOT_FOUND when none,
 * AMBIGUOUS_TARGET when several match (details.count). */
int ad_x11_find_window(ad_x11 *x, int pid, const char *title, uint32_t *ret_window,
                       ad_error *err);
/* Activates the window (_NET_ACTIVE_WINDOW client message, source indication 2) and waits,
 * on PropertyNotify with a 20 ms re-check, until _NET_ACTIVE_WINDOW reads it back, the
 * input focus is on it or inside it, and its frame has its final size (a window manager may
 * animate a restore from iconic), or until deadline_us (CLOCK_MONOTONIC, microseconds):
 * then TIMEOUT with details.kind "focus_verification". The state is checked at least once,
 * even with a deadline already past. WINDOW_NOT_FOUND when the window is not in
 * _NET_CLIENT_LIST. */
int ad_x11_focus_window(ad_x11 *x, uint32_t window, int64_t deadline_us, ad_error *err);
/* ad_x11_focus_window for focus-window: the focus may also settle on a modal dialog
 * (_NET_WM_STATE_MODAL) of the same process transient for `window` (a modal dialog takes it), and *ret_active names the window
 * that holds it. Both read the state twice in a row, a round trip apart, before they return. */
int ad_x11_activate_window(ad_x11 *x, uint32_t window, int64_t deadline_us,
                           uint32_t *ret_active, ad_error *err);
/* The active window (_NET_ACTIVE_WINDOW) and its _NET_WM_PID; 0 for either when none. */
int ad_x11_active_window(ad_x11 *x, uint32_t *ret_window, int *ret_pid, ad_error *err);
/* What gets pointer input at root point (px, py): walks the root's children topmost first
 * (QueryTree order, so override-redirect popups and menus count too) and returns the first
 * viewable one containing the point, translated to its client window when it is a window
 * manager frame. *ret_pid is that window's _NET_WM_PID or 0; both are 0 over the bare root.
 * *ret_popup (when non-NULL) tells an override-redirect window: a menu, a combo's list, a
 * tooltip, which the window manager never frames. */
int ad_x11_window_at(ad_x11 *x, int px, int py, uint32_t *ret_window, int *ret_pid,
                     bool *ret_popup, ad_error *err);

/* Pointer. Button 1 is left, 2 middle, 3 right. A click is a motion to the point, then
 * `count` (1..100) press/release pairs 30 ms apart, so toolkits see a double or triple click.
 * The *_mods variants hold the AD_X11_MOD_* keys in `mods` around the gesture.
 *
 * Click, wheel and drag return only once the server has processed the last release (the
 * core button state reads up again; polled every 1 ms, at most 5 s). A window manager that
 * binds clicks (openbox: Focus and Raise on Press) freezes the pointer with a synchronous
 * grab until it replays the press; without this wait, keys sent next would reach the
 * application before the click. ACTION_FAILED with details.cause "pointer_frozen" and
 * delivery_uncertain when the release never goes through. Buttons 6 and 7 have no state bit
 * and are not waited for. */
int ad_x11_move(ad_x11 *x, int px, int py, ad_error *err);
int ad_x11_click(ad_x11 *x, int px, int py, int button, int count, ad_error *err);
int ad_x11_click_mods(ad_x11 *x, int px, int py, int button, int count, unsigned mods,
                      ad_error *err);
/* Wheel at a point: dy > 0 scrolls up (button 4), dy < 0 down (5), dx > 0 right (7), dx < 0
 * left (6); |dx|, |dy| <= 1000 clicks, not both 0. */
int ad_x11_wheel(ad_x11 *x, int px, int py, int dx, int dy, ad_error *err);
int ad_x11_wheel_mods(ad_x11 *x, int px, int py, int dx, int dy, unsigned mods,
                      ad_error *err);
/* Presses button 1 at from, moves to `to` in steps spread over duration_ms (0..60000), holds
 * there hold_ms (0..10000) so a drop target can react, and releases. ad_x11_drag holds
 * AD_X11_DRAG_HOLD_MS. Blocks for the whole gesture. */
int ad_x11_drag(ad_x11 *x, int fx, int fy, int tx, int ty, int duration_ms, ad_error *err);
int ad_x11_drag_hold(ad_x11 *x, int fx, int fy, int tx, int ty, int duration_ms, int hold_ms,
                     ad_error *err);

/* Keyboard. A combo is keys joined by '+', the last one the key and the rest modifiers:
 * ctrl/control, shift, alt/option, super/meta/cmd/command/win. Spaces are ignored. A key is
 * a name (case-insensitive: return/enter, escape/esc, tab, space, backspace, delete, insert,
 * up, down, left, right, home, end, page_up, page_down, f1..f24, kp_0..kp_9, menu, the
 * X names of punctuation such as plus or comma, a modifier name, 0x<hex keysym>, u<hex code
 * point>) or one character; "ctrl++" is ctrl with the plus key. A bare uppercase letter
 * ("A") adds shift; with modifiers a letter is lowercased ("ctrl+A" is ctrl+a).
 *
 * Parses without sending anything: fills ret_keysyms (room for AD_X11_COMBO_MAX) and *ret_n,
 * modifier keysyms (Control_L, Shift_L, Alt_L, Super_L) first. INVALID_ARGS for an empty
 * combo, an empty part ("ctrl+", "+a"), an unknown modifier or key (with a suggestion), a
 * modifier given twice, or too many parts. Pure: needs no connection. */
int ad_x11_parse_combo(const char *combo, uint32_t *ret_keysyms, int *ret_n, ad_error *err);
/* Presses the modifiers, then the key (adding shift when its keysym sits on the shifted
 * level), and releases in reverse order. */
int ad_x11_key_combo(ad_x11 *x, const char *combo, ad_error *err);
/* The AD_X11_MOD_* bit for a modifier name, as accepted in combos. INVALID_ARGS otherwise. */
int ad_x11_modifier_mask(const char *name, unsigned *ret_mask, ad_error *err);
/* The keysym that types code point cp: Latin-1 code points are their own keysym, others are
 * 0x1000000 + cp. Pure. */
uint32_t ad_x11_codepoint_keysym(uint32_t cp);
/* UTF-8 text (at most AD_X11_TYPE_MAX_BYTES) as the keysyms that type it, one per character:
 * "\n", "\r" and "\r\n" are Return and "\t" Tab. *ret is malloc'd (the caller frees).
 * INVALID_ARGS for invalid UTF-8 or another control character. Pure: also the Wayland path's
 * mapping (wayland_plan.h). */
int ad_x11_text_keysyms(const char *s, uint32_t **ret, int *ret_n, ad_error *err);

/* Types UTF-8 text (at most AD_X11_TYPE_MAX_BYTES) as key events to whatever has the input
 * focus. "\n", "\r" and "\r\n" press Return and "\t" Tab; other control characters and
 * invalid UTF-8 are INVALID_ARGS before anything is sent. A character whose keysym is in the
 * keymap on the plain or shifted level is pressed directly (with shift when needed); Caps
 * Lock, when on, is switched off for the text and on again after it. Any other character is
 * typed by mapping its keysym onto a spare (empty) keycode; as many as the spares hold are
 * mapped before the first key event, followed by one 100 ms settle (a client may refresh its
 * layout late: Chromium). Because a client translates a
 * keycode with the keymap it fetches when it processes the event, a remapped keycode is
 * changed again (reused or put back) only after a 250 ms settle delay: a heuristic, not a
 * guarantee, for a client that lags more. Every mapping change makes each X client reload
 * the keymap, and a window manager re-grab its key bindings (openbox: ~40 ms each), so a
 * text needing more than AD_X11_TYPE_MAX_REMAPS changes (distinct characters outside the
 * keymap, plus one restore per spare keycode used) is INVALID_ARGS before anything is sent
 * (details.keymap_changes). On failure after input went out, details.keystrokes_sent counts
 * the characters sent. */
int ad_x11_type_text(ad_x11 *x, const char *utf8, ad_error *err);

/* With hold, a successful ad_x11_type_text or ad_x11_key_combo leaves its remapped spare
 * keycodes mapped, so the caller can put them back once it has read the characters in the
 * application (the only proof the client translated the keys) instead of after a blind
 * settle delay. Later calls on the same handle keep using the held spares. */
void ad_x11_hold_spares(ad_x11 *x, bool hold);
/* True while some spare keycode is remapped and not yet put back. NULL-safe. */
bool ad_x11_spares_held(const ad_x11 *x);
/* Puts the held spares back to NoSymbol: at once when `seen` (the caller read the typed
 * characters in the application), else after the settle delay. NULL-safe. */
void ad_x11_release_spares(ad_x11 *x, bool seen);

#endif
