/* wait_modes.h: the wait modes that live outside wait.c. */
#ifndef AD_WAIT_MODES_H
#define AD_WAIT_MODES_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "core/ctx.h"

/* wait --menu (closed = false) or --menu-closed (closed = true). */
int ad_wait_menu(ad_ctx *ctx, const json_t *args, bool closed, int64_t started,
                 int64_t timeout_ms, json_t **ret, ad_error *err);
/* The checks of --event's flags, on what was given (part of ad_wait_args_check). */
int ad_wait_event_args_check(const json_t *given, ad_error *err);
/* wait --event KIND. */
int ad_wait_event(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                  json_t **ret, ad_error *err);

/* wait --notification [--text] [--app]: the first notification not in the list read when
 * the wait starts (commands/notifications.c). */
int ad_wait_notification(ad_ctx *ctx, const json_t *args, int64_t started, int64_t timeout_ms,
                         json_t **ret, ad_error *err);

/* A wait --event baseline read before the action the wait follows (batch.md, "Event
 * waits"): batch captures it before the entry that precedes a `wait --event` entry and hands
 * it to that wait through ctx->event_baseline, so an event the action causes at once is not
 * part of the baseline. `args` are the wait entry's validated arguments. Returns 0 and a new
 * baseline in *ret (the caller's; ad_event_baseline_free), or -1 with err filled when the
 * apps or windows could not be read or --app names several processes. */
typedef struct ad_event_baseline ad_event_baseline;
int ad_event_baseline_capture(ad_ctx *ctx, const json_t *args, int64_t deadline_us,
                              ad_event_baseline **ret, ad_error *err);
void ad_event_baseline_free(ad_event_baseline *b); /* NULL-safe */

#endif
