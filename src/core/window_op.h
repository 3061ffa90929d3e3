/* window_op.h: the window commands' contract (app-window.md): focus-window, move-window,
 * resize-window, minimize, maximize and restore.
 *
 *   select the target (core/window_select.h) -> the adapter writes and reads back
 *   (ad_adapter_ops.window_op) -> judge the read against the request -> OperationReport
 *
 * A move or resize is verified when the bounds read back (the rectangle list-windows
 * reports) are within AD_WIN_TOLERANCE_PX of the request; minimize when the window reads
 * hidden, maximize when it reads maximized both ways. A read that never gets there is
 * ACTION_FAILED: the window manager clamped or ignored the request. restore has no single
 * read-back and reports delivered_unverified. */
#ifndef AD_WINDOW_OP_H
#define AD_WINDOW_OP_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"

#define AD_WIN_TOLERANCE_PX 2.0
/* How long the read-back waits for the window manager (a bounded poll, not a sleep). */
#define AD_WIN_SETTLE_MS 3000

/* Does state s show req done? RESTORE: neither hidden nor maximized (where its wait ends;
 * it stays unverified). FOCUS: always (the adapter reads the focus itself). */
bool ad_win_state_reached(const ad_win_req *req, const ad_win_state *s);

/* details.observed for a read-back (new reference). */
json_t *ad_win_state_json(const ad_win_state *s);

/* Runs a move, resize, minimize, maximize or restore on the window --app / --window-id
 * select (either may be NULL) and fills *ret_data (caller's) with the OperationReport. */
int ad_window_op_run(ad_ctx *ctx, const ad_win_req *req, const char *app,
                     const char *window_id, json_t **ret_data, ad_error *err);

/* focus-window: focuses the window --window-id / --app / --title select (at least one
 * given) and fills *ret_focused (caller clears it) with the window that holds the focus on
 * two consecutive reads afterwards: the target, or a modal dialog of its app that took it. */
int ad_window_focus_run(ad_ctx *ctx, const char *app, const char *window_id,
                        const char *title, ad_window *ret_focused, ad_error *err);

#endif
