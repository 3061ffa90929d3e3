/* parse.h: argv -> command + arguments, driven only by the command table. */
#ifndef AD_CLI_PARSE_H
#define AD_CLI_PARSE_H

#include <jansson.h>

#include "dispatch/arg_check.h" /* ad_arg_key */
#include "dispatch/command_table.h"
#include "core/error.h"

typedef enum {
    AD_CLI_RUN,          /* run `command` */
    AD_CLI_HELP,         /* print general help (command NULL) or one command's help */
    AD_CLI_VERSION_TEXT, /* print the version as text */
} ad_cli_action;

typedef struct {
    ad_cli_action action;
    const ad_command *command; /* NULL for general help */
    const char *command_name;  /* as typed, for the envelope of an unknown command */
    json_t *args;              /* owned */
    json_t *globals;           /* owned */
} ad_cli_parsed;

/* Parses argv[1..]. On failure fills err (with parse_error set for exit 2) and leaves
 * command_name set when one was seen. ad_cli_parsed_clear releases the result either way. */
int ad_cli_parse(int argc, char **argv, ad_cli_parsed *ret, ad_error *err);
void ad_cli_parsed_clear(ad_cli_parsed *p);
/* The envelope of a failed parse: its command is the one parsed, else the name as typed,
 * else "agent-desktop". Returns a new reference; err is borrowed. */
json_t *ad_cli_parse_error_envelope(const ad_cli_parsed *p, const ad_error *err);

/* Converts one textual value per its spec into a JSON value (new reference), or fails with
 * INVALID_ARGS. Shared with the decoders of other front ends. */
int ad_arg_value_from_text(const ad_arg_spec *spec, const char *text, json_t **ret,
                           ad_error *err);

#endif
