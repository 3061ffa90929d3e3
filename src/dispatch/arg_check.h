/* arg_check.h: the one rule for values the command table constrains.
 *
 * A value outside what the table declares for its argument (a whole number below `min` or
 * above `max`, a missing or mistyped value) is a parse error: INVALID_ARGS with
 * err->parse_error set, which the CLI turns into exit 2 (json-output.md, "Exit codes"). The
 * CLI parser checks each value as it reads it, and dispatch checks the arguments of every
 * front end (CLI, C library, later batch) once more, so a handler never range-checks a
 * flag the table can describe.
 */
#ifndef AD_ARG_CHECK_H
#define AD_ARG_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "dispatch/command_table.h"
#include "core/error.h"

/* The JSON key of a flag name: '-' becomes '_'. Writes into buf. */
void ad_arg_key(const char *name, char *buf, size_t size);

/* The inclusive bounds of an AD_ARG_INT spec: max 0 means no upper bound. */
void ad_arg_int_bounds(const ad_arg_spec *spec, int64_t *ret_min, int64_t *ret_max);

/* 0 when v is within the spec's bounds, else -1 with the parse error in err. */
int ad_arg_int_check(const ad_arg_spec *spec, long long v, ad_error *err);

/* True when the '|'-separated list (such as an enum's choices, "a|b|c") holds the first n
 * bytes of text. */
bool ad_arg_list_has(const char *list, const char *text, size_t n);

/* Marks err, already filled with INVALID_ARGS, as a parse error (exit 2) and returns -1. */
int ad_arg_parse_error(ad_error *err);

#endif
