/* atspi_map.h: AT-SPI wire values -> agent-desktop's canonical vocabulary.
 *
 * Pure functions: no D-Bus, no I/O, no allocation, no libatspi. The numbers are those of
 * AtspiRole / AtspiStateType in at-spi2-core 2.46 (atspi-constants.h), copied as plain
 * integers so this file needs no AT-SPI header. Every returned string is static and is never
 * freed by the caller.
 *
 * API
 *   ad_atspi_role_canonical(role)  canonical role token for an AT-SPI role number (the value
 *                                  Accessible.GetRole returns); never NULL, "unknown" when the
 *                                  number is out of range or has no meaning of its own.
 *   ad_atspi_role_name(role)       the AT-SPI role's own name ("push button"), for debugging;
 *                                  "invalid" when out of range.
 *   ad_atspi_role_is_secure(role)  true for "password text" (a secure field).
 *   ad_atspi_state_has(s, n)       is AT-SPI state number n set in the two-word state set?
 *   ad_atspi_states_canonical(...) canonical state tokens in the fixed find --state order.
 *   ad_state_token_valid(token)    is token one of the 17 canonical state tokens?
 *   ad_atspi_action_canonical(raw) canonical action name for one raw Action.GetName(i) name,
 *                                  or NULL when it is not the element's own action.
 *   ad_atspi_extents_readable(x,y) false for the INT_MIN origin GTK3 gives an object with no
 *                                  on-screen geometry: those extents are unknown bounds.
 */
#ifndef AD_ATSPI_MAP_H
#define AD_ATSPI_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One past the last AtspiRole of at-spi2-core 2.46 (ATSPI_ROLE_PUSH_BUTTON_MENU = 129). */
#define AD_ATSPI_ROLE_COUNT 130u

/* The AtspiRole numbers the mapping logic itself refers to. */
#define AD_ATSPI_ROLE_PANEL 39u
#define AD_ATSPI_ROLE_PASSWORD_TEXT 40u
#define AD_ATSPI_ROLE_TERMINAL 60u
#define AD_ATSPI_ROLE_TEXT 61u
#define AD_ATSPI_ROLE_WINDOW 69u
#define AD_ATSPI_ROLE_APPLICATION 75u
#define AD_ATSPI_ROLE_EDITBAR 77u
#define AD_ATSPI_ROLE_ENTRY 79u

/* The AtspiStateType numbers read by ad_atspi_states_canonical. */
#define AD_ATSPI_STATE_INVALID 0u /* "probably an error": NOT the `invalid` token */
#define AD_ATSPI_STATE_BUSY 3u
#define AD_ATSPI_STATE_CHECKED 4u
#define AD_ATSPI_STATE_EDITABLE 7u
#define AD_ATSPI_STATE_ENABLED 8u
#define AD_ATSPI_STATE_EXPANDABLE 9u
#define AD_ATSPI_STATE_EXPANDED 10u
#define AD_ATSPI_STATE_FOCUSED 12u
#define AD_ATSPI_STATE_MODAL 16u
#define AD_ATSPI_STATE_MULTISELECTABLE 18u
#define AD_ATSPI_STATE_PRESSED 20u
#define AD_ATSPI_STATE_SELECTED 23u
#define AD_ATSPI_STATE_SENSITIVE 24u
#define AD_ATSPI_STATE_SHOWING 25u
#define AD_ATSPI_STATE_VISIBLE 30u
#define AD_ATSPI_STATE_INDETERMINATE 32u
#define AD_ATSPI_STATE_REQUIRED 33u
#define AD_ATSPI_STATE_INVALID_ENTRY 36u
#define AD_ATSPI_STATE_HAS_POPUP 42u
#define AD_ATSPI_STATE_READ_ONLY 43u

/* Number of canonical state tokens; an `out` array this large never truncates. */
#define AD_STATE_TOKEN_COUNT 17u

/* Canonical role for an AT-SPI role number (the value GetRole returns). Never NULL;
 * "unknown" when unmapped. */
const char *ad_atspi_role_canonical(uint32_t atspi_role);

/* The AT-SPI role's own name ("push button"), for debugging; "invalid" when out of range. */
const char *ad_atspi_role_name(uint32_t atspi_role);

/* True when the AT-SPI role is a password text (secure field). */
bool ad_atspi_role_is_secure(uint32_t atspi_role);

/* States: AT-SPI returns them as two uint32 words (bits 0-31, 32-63). */
typedef struct {
    uint32_t lo, hi;
} ad_atspi_states;

/* True when state number `atspi_state_number` is set; false for numbers >= 64. */
bool ad_atspi_state_has(ad_atspi_states s, unsigned atspi_state_number);

/* Appends canonical state tokens, in the fixed order of the find --state token list (focused,
 * disabled, secure, expanded, checked, selected, hidden, busy, modal, required, indeterminate,
 * pressed, readonly, offscreen, invalid, multiselectable, haspopup), to `out` (capacity `cap`),
 * returning the count written (at most `cap`; AD_STATE_TOKEN_COUNT always suffices). `secure`
 * comes from the role. The caller handles an element whose states could not be read: an
 * all-zero set here means "read, and nothing set". */
size_t ad_atspi_states_canonical(ad_atspi_states s, uint32_t atspi_role, const char **out,
                                 size_t cap);

/* True when `token` is exactly (case-sensitive, lowercase) one of the 17 canonical state
 * tokens. NULL is false. */
bool ad_state_token_valid(const char *token);

/* Maps one raw AT-SPI action name from Action.GetName(i) ("click", "press", "activate",
 * "toggle", "expand or contract", "menu.popup", "win.undo", ...) to a canonical action name
 * ("Click", "RightClick", "Toggle", "Expand", "Collapse", "Select", "SetFocus") or NULL when
 * the name is not the element's own action. Matching is ASCII case-insensitive (Qt sends
 * "Press", GTK "press"). "Expand" also stands for a toggle-style expander ("expand or
 * contract"): the caller offers Collapse through the same raw action. See atspi_map.c for the
 * reason behind every name. */
const char *ad_atspi_action_canonical(const char *raw_name);

/* GTK3 reports objects without on-screen geometry (items of a closed menu, a tree-view row
 * scrolled out of view: gtk3-demo's "Pickers" reads INT_MIN,INT_MIN,186,21, an unmapped
 * popup window) at an INT_MIN origin with a made-up size: never a rectangle. */
bool ad_atspi_extents_readable(int32_t x, int32_t y);

#endif /* AD_ATSPI_MAP_H */
