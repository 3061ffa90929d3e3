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

#endif
