/* surface_shell.h: OS shell surfaces (surfaces.md, "Open an OS shell surface"): the shell
 * kinds, the ones this session can resolve (status supported_surfaces), reading an open one
 * (snapshot --surface, find --surface) and opening one (open-system-surface). No application
 * owns them, so --app and --window-id play no part. The adapter finds them
 * (adapter.h: shell_surface_kinds, shell_surface). */
#ifndef AD_SURFACE_SHELL_H
#define AD_SURFACE_SHELL_H

#include <stdbool.h>
#include <jansson.h>

#include "core/surface.h"

/* The spec's spelling of a kind, a static string: underscores read as hyphens
 * (system_tray is system-tray). NULL when kind names no surface kind at all. */
const char *ad_surface_kind_canonical(const char *kind);

/* True for the OS shell group of surfaces.md (taskbar, system-tray, action-center, ...). */
bool ad_surface_is_shell_kind(const char *kind);

/* Every kind this session supports, as status reports it and INVALID_ARGS details name
 * them: the adapter's app kinds, then the shell kinds it resolves by deadline_us. A new
 * JSON array of strings. */
json_t *ad_surface_supported_json(ad_ctx *ctx, int64_t deadline_us);

/* INVALID_ARGS for a kind this session does not support, with details.supported_surfaces
 * and details.requested_surface. Returns -1. */
int ad_surface_unsupported(ad_ctx *ctx, const char *kind, int64_t deadline_us, ad_error *err);

/* Reads an open shell surface into ret (kind static, from ad_surface_kind_canonical):
 * WINDOW_NOT_FOUND when it is closed (surfaces.md), INVALID_ARGS when the session has no
 * such kind. ret is cleared by the caller (ad_surface_clear) on success. */
int ad_surface_read_shell(ad_ctx *ctx, const char *kind, const ad_read_limits *lim,
                          ad_surface *ret, ad_error *err);

/* open-system-surface: INVALID_ARGS for a kind this session cannot open (naming the ones it
 * can), POLICY_DENIED without --headed (nothing sent), an open surface returned as it is (no
 * input), a closed one opened by one click at its opener and returned once a read of the
 * shell shows it open (ACTION_FAILED, delivered_unverified, when it has not by deadline_us).
 * *ret_already_open tells which. *ret_window is the caller's (ad_window_clear). */
int ad_surface_open_shell(ad_ctx *ctx, const char *kind, bool headed, int64_t deadline_us,
                          ad_window *ret_window, bool *ret_already_open, ad_error *err);

#endif
