/* argv_build.h: given JSON (validate.h) back to an argv the CLI parses to the same JSON.
 *
 * The MCP server runs each tool call as a child agent-desktop; this builds the child's argv
 * so that no value can ever be read as a flag: every flag as one `--name=value` token (a
 * bool as `--name`, a repeatable flag once per array item), then `--`, then the positionals
 * in declaration order. Build it from what the caller GAVE, not from the validator's output
 * with defaults, so a flag with a default does not look given to the child.
 */
#ifndef AD_ARGV_BUILD_H
#define AD_ARGV_BUILD_H

#include <stddef.h>

#include <jansson.h>

#include "core/error.h"
#include "dispatch/command_table.h"

/* A growing NULL-terminated vector of strings it owns. */
typedef struct {
    char **items; /* items[count] is NULL once anything was pushed */
    size_t count;
    size_t cap;
} ad_argv;

void ad_argv_init(ad_argv *v);
/* Appends a copy of s. 0, or -1 when out of memory. */
int ad_argv_push(ad_argv *v, const char *s);
/* Frees every string and the vector; v is empty (and reusable) afterwards. */
void ad_argv_clear(ad_argv *v);

/* Appends the global flags of `globals` (given JSON of ad_global_args, borrowed) in table
 * order. -1 with INVALID_ARGS in err for a key or value it cannot pass. */
int ad_argv_add_globals(ad_argv *v, const json_t *globals, ad_error *err);

/* Appends cmd's name, its flags, "--" and its positionals from `given` (borrowed). -1 with
 * INVALID_ARGS in err when a key is not cmd's, a value has the wrong type or holds a NUL
 * byte, or a positional is given while an earlier one is not (positions would shift). */
int ad_argv_add_command(ad_argv *v, const ad_command *cmd, const json_t *given, ad_error *err);

#endif
