/* window_select.h: which window a window-owned observation reads (snapshots-and-refs.md,
 * "Choose the window"). */
#ifndef AD_WINDOW_SELECT_H
#define AD_WINDOW_SELECT_H

#include <stdbool.h>

#include "core/ctx.h"

/* Finds the apps matching --app (exact, case-insensitive, on the app name, its desktop entry
 * Name or its desktop id). APP_NOT_FOUND only when none matches in a complete inventory; when
 * an app was not read, APP_UNRESPONSIVE if it is this one (its executable has the name and it
 * stayed silent past its own budget), else TIMEOUT (kind "inventory_incomplete"). Another
 * app that does not answer never fails a match. ret is the caller's. */
int ad_apps_matching(ad_ctx *ctx, const char *app, int64_t deadline_us, ad_app_list *ret,
                     ad_error *err);

/* The `skipped` array of an incomplete app inventory: one object per app that was not read,
 * with `handle`, `reason` and, when known, `pid` and `executable` (new reference). */
json_t *ad_app_skips_json(const ad_app_list *apps);

/* The error for windows that could not be read (wins->unanswered > 0 and nothing to show):
 * APP_UNRESPONSIVE when an app stayed silent past its own budget, else TIMEOUT. app may be
 * NULL. Returns -1. */
int ad_windows_unanswered_error(const ad_window_list *wins, const char *app, ad_error *err);

/* The apps --app names when they are all one running instance (one process, possibly
 * registered more than once); caller frees *ret. Several instances (distinct processes) fail
 * with AMBIGUOUS_TARGET, details.candidates listing their windows for --window-id and
 * details.instance_count: a command that acts on "the app" never picks one for the caller
 * (keyboard.md, app-window.md). APP_NOT_FOUND as ad_apps_matching. */
int ad_app_one_instance(ad_ctx *ctx, const char *app, int64_t deadline_us, ad_app_list *ret,
                        ad_error *err);

/* The windows of that one instance (caller frees *ret), with the same refusals. */
int ad_app_instance_windows(ad_ctx *ctx, const char *app, int64_t deadline_us,
                            ad_window_list *ret, ad_error *err);

/* The live window --window-id names. With --app too, --app narrows: a window of another app
 * fails with WINDOW_NOT_FOUND (details.kind window_not_of_app), or TIMEOUT when an unfinished
 * inventory leaves that unproven. Fills *ret (caller clears it; zeroed on failure). */
int ad_window_by_id(ad_ctx *ctx, const char *app, const char *window_id, int64_t deadline_us,
                    ad_window *ret, ad_error *err);

/* Chooses one window: by --window-id (ad_window_by_id), else among the windows of --app's one
 * instance (ad_app_instance_windows) by the narrowing steps, else the focused window. Fills
 * *ret (caller clears it). */
int ad_window_select(ad_ctx *ctx, const char *app, const char *window_id, int64_t deadline_us,
                     ad_window *ret, ad_error *err);

/* ad_window_select with --title too (focus-window): the windows whose title contains `title`
 * (case-insensitive) among --app's or, without --app, all windows, then the narrowing steps;
 * with --window-id the window's title must contain it (else WINDOW_NOT_FOUND, details.kind
 * title_mismatch). title NULL is ad_window_select. */
int ad_window_select_titled(ad_ctx *ctx, const char *app, const char *window_id,
                            const char *title, int64_t deadline_us, ad_window *ret,
                            ad_error *err);

/* Applies the narrowing steps (one window; not a popup-menu top level, ad_window.kind "menu";
 * visible; focused; accessible). Returns the index
 * chosen, or -1 when several remain; keep[i] (count entries, caller's) then marks the windows
 * still left. Exposed for unit tests. */
int ad_window_narrow(const ad_window *wins, size_t count, bool *keep);

#endif
