/* validate.h: the one validator every door uses (the CLI, batch, MCP, the C library).
 *
 * A front end turns what it received into "given" JSON: an object keyed by the argument's
 * '_' name (ad_arg_key), holding what the caller passed and nothing else (no defaults):
 *   AD_ARG_BOOL        true or false (false and null count as not given)
 *   AD_ARG_STRING      a string
 *   AD_ARG_INT         an integer (the CLI stores text that is not a whole number as the
 *                      string it got, so the validator gives the same error to every door)
 *   AD_ARG_ENUM        a string
 *   AD_ARG_STRING_LIST an array of strings (a repeatable flag, a variadic positional)
 * A null value counts as omitted.
 *
 * ad_args_validate checks, in this order, and stops at the first failure:
 *   1. every key is a declared argument of the command (an unknown one names the accepted
 *      ones; the CLI rejects unknown flags before, in its own words);
 *   2. every value has its declared type (the error names the argument);
 *   3. enums are one of their choices, whole numbers are within [min, max], strings are
 *      within max_bytes;
 *   4. a flag limited to some subcommands (`only_for`) is not given with another one, and
 *      a front-end flag (`front_end`, such as --stdin, which the CLI turns into the text) is
 *      never given to a command;
 *   5. required arguments are present;
 *   6. the command's rules (command_table.h, ad_arg_rule) hold over what was given, and its
 *      `check` function, for what data cannot say;
 * then returns a new object: the given values plus the typed defaults of everything not
 * given (a subcommand's own default where `action_defaults` names one).
 *
 * Every failure is INVALID_ARGS with details.argument naming the '_' key; the ones the CLI
 * always reported as parse errors (types, ranges, enums, required, unknown) carry
 * err->parse_error (exit 2), and each rule says which it is. Same input, same error, same
 * exit code, whichever door it came through.
 */
#ifndef AD_VALIDATE_H
#define AD_VALIDATE_H

#include <jansson.h>

#include "core/error.h"
#include "dispatch/command_table.h"

/* Validates `given` (borrowed; NULL means {}) for cmd. On success sets *ret_args to a new
 * object the caller owns (given + defaults) and returns 0; else -1 with err filled and
 * *ret_args untouched. */
int ad_args_validate(const ad_command *cmd, const json_t *given, json_t **ret_args,
                     ad_error *err);

/* The same for the global flags (ad_global_args): types and ranges; no defaults are added
 * (a global's default means "not given"). *ret_globals is a new object. */
int ad_globals_validate(const json_t *given, json_t **ret_globals, ad_error *err);

/* The default of spec for subcommand `action` (NULL: the command has none), as text, or
 * NULL when it has none: action_defaults wins over default_value. */
const char *ad_arg_default(const ad_arg_spec *spec, const char *action);

#endif
