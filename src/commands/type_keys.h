/* type_keys.h: type --interval-ms, one keystroke at a time. */
#ifndef AD_TYPE_KEYS_H
#define AD_TYPE_KEYS_H

#include <stddef.h>

#include "core/action.h"

/* Bytes in the keystroke that starts at s (0 at the end). */
size_t ad_next_keystroke(const char *s);

int ad_type_keystrokes(ad_ctx *ctx, const ad_action_spec *spec, const char *ref,
                       const char *text, int64_t interval_ms, int64_t timeout_ms, bool secret,
                       json_t **ret_data, ad_error *err);

#endif
