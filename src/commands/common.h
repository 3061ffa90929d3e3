/* common.h: small helpers the command handlers share. */
#ifndef AD_COMMANDS_COMMON_H
#define AD_COMMANDS_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "core/error.h"
#include "platform/adapter.h"

/* Borrowed string argument, or NULL. */
const char *ad_arg_str(const json_t *args, const char *key);
bool ad_arg_bool(const json_t *args, const char *key);
/* Integer argument. Handlers read validated arguments (dispatch/validate.h), so an argument
 * with a table default is always there; one without a default is read only after
 * ad_arg_has. 0 when absent. */
int64_t ad_arg_int(const json_t *args, const char *key);
/* True when the argument was given (or has a default). */
bool ad_arg_has(const json_t *args, const char *key);
/* now + args[key] milliseconds, in CLOCK_MONOTONIC microseconds. */
int64_t ad_deadline_from(const json_t *args, const char *key);

/* A list-windows row (new reference). */
json_t *ad_window_json(const ad_window *w);


#endif
