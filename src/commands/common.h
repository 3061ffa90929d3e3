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
/* Integer argument, or `fallback` when absent. */
int64_t ad_arg_int(const json_t *args, const char *key, int64_t fallback);
/* now + args[key] (or fallback) milliseconds, in CLOCK_MONOTONIC microseconds. */
int64_t ad_deadline_from(const json_t *args, const char *key, int64_t fallback_ms);

/* A list-windows row (new reference). */
json_t *ad_window_json(const ad_window *w);


#endif
