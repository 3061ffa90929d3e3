/* overlay_input.h: real input hides the session's agent cursors (guides/headed-mode.md
 * "See where actions land": "a headed command hides it while it dispatches real input").
 *
 * Around the adapter's `physical` op: the overlay service's "hide" before it (answered once
 * the X server has unmapped the session's cursor windows, so the input sent after the answer
 * arrives after the unmaps), "unhide" after it (core/overlay_session.h lists the requests).
 * Each waits at most AD_OVERLAY_HIDE_MS and never starts the service (none running: nothing
 * is drawn). A service that does not answer delays the input that long and no more, and is a
 * trace event only: the input is sent either way and its result is the op's own.
 */
#ifndef AD_OVERLAY_INPUT_H
#define AD_OVERLAY_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctx.h"
#include "platform/adapter.h"

#define AD_OVERLAY_HIDE_MS 150

/* Hides the session's cursors when the session draws them. True when it asked (then
 * ad_overlay_show_after_input must follow). */
bool ad_overlay_hide_for_input(ad_ctx *ctx);

/* Shows the cursors again after the input of req (borrowed; NULL: none): a drag's cursor
 * reappears at the drop point, where the real pointer now is. No-op unless hid. */
void ad_overlay_show_after_input(ad_ctx *ctx, bool hid, const ad_phys_req *req);

/* The adapter's physical op between a hide and a show: its return, *res and *err. */
int ad_overlay_physical(ad_ctx *ctx, const ad_phys_req *req, int64_t deadline_us,
                        ad_act_result *res, ad_error *err);

#endif
