/* test_doors.c: the three doors agree on every argument of all 60 commands. For each command
 * (and each subcommand of the ones that have them) and each argument the table declares:
 *
 *   1. CLI help names it the way the CLI takes it (--name, <name> or [name]), with its
 *      choices and its default;
 *   2. batch decoding (the validator over given JSON, the format of batch args and MCP
 *      arguments) takes its '_' key with its type and refuses another type naming the key,
 *      and a flag of another subcommand is refused;
 *   3. the MCP input schema has the same key with the same type, enum, range, default and
 *      required-ness, and nothing else;
 *   4. the argv the MCP server builds from the given JSON parses back, through the CLI, to
 *      the same given JSON.
 * A front-end flag (--stdin) is in the help only: batch and MCP pass the text itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/help.h"
#include "cli/parse.h"
#include "dispatch/argv_build.h"
#include "dispatch/schema.h"
#include "dispatch/validate.h"

static char *help_of(const ad_command *cmd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    ad_cli_print_help(f, cmd);
    fclose(f);
    return buf;
}

static const char *json_type_of(ad_arg_type t)
{
    switch (t) {
    case AD_ARG_BOOL:
        return "boolean";
    case AD_ARG_INT:
        return "integer";
    case AD_ARG_STRING_LIST:
        return "array";
    default:
        return "string";
    }
}

/* A value of the argument's type that its own checks accept. */
static json_t *sample_of(const ad_arg_spec *s)
{
    int64_t min, max;
    switch (s->type) {
    case AD_ARG_BOOL:
        return json_true();
    case AD_ARG_INT:
        ad_arg_int_bounds(s, &min, &max);
        return json_integer(min > 1 ? min : max < 1 ? max : 1);
    case AD_ARG_ENUM: {
        const char *bar = strchr(s->choices, '|');
        return json_stringn(s->choices, bar ? (size_t)(bar - s->choices) : strlen(s->choices));
    }
    case AD_ARG_STRING_LIST:
        return json_pack("[s]", "x");
    default:
        return json_string(strcmp(s->name, "ref_id") == 0 ? "@s1:e1" : "x");
    }
}

static json_t *wrong_type_of(const ad_arg_spec *s)
{
    return s->type == AD_ARG_STRING || s->type == AD_ARG_ENUM ? json_integer(5)
                                                              : json_string("x");
}

/* The typed form of a textual default, as the schema states it. */
static json_t *typed_default(const ad_arg_spec *s, const char *text)
{
    if (s->type == AD_ARG_INT)
        return json_integer(strtoll(text, NULL, 10));
    return json_string(text);
}

/* The given JSON with `key` set to `v` (stolen), for a command with subcommand `action`. */
static json_t *given_with(const char *action, const char *key, json_t *v)
{
    json_t *g = action ? json_pack("{s:s}", "action", action) : json_object();
    json_object_set_new(g, key, v);
    return g;
}

static bool type_or_key_error(const ad_error *e)
{
    static const char *const words[] = {"has no argument", "must be a", "expected a whole",
                                        "is a switch", "expected one of", "out of range"};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (e->message && strstr(e->message, words[i]))
            return true;
    return false;
}

/* 4: argv built from the given JSON parses back to the same given JSON. */
static void check_argv_round_trip(const ad_command *cmd, const json_t *given)
{
    ad_argv v;
    ad_argv_init(&v);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_argv_push(&v, "agent-desktop"), 0);
    if (ad_argv_add_command(&v, cmd, given, &err) < 0)
        fail_msg("%s: argv_build refused: %s", cmd->name, err.message);
    ad_cli_parsed p;
    ad_error perr = AD_ERROR_INIT;
    int rc = ad_cli_parse((int)v.count, v.items, &p, &perr);
    /* A sample may break a rule (the parser validates too); the arguments still parsed. */
    if (rc == 0 || !type_or_key_error(&perr)) {
        if (!p.args || !json_equal(p.args, given)) {
            char *a = json_dumps(given, 0), *b = p.args ? json_dumps(p.args, 0) : NULL;
            fail_msg("%s: argv round trip %s -> %s", cmd->name, a, b ? b : "(none)");
        }
    } else {
        fail_msg("%s: the CLI refused the built argv: %s", cmd->name, perr.message);
    }
    ad_cli_parsed_clear(&p);
    ad_error_clear(&perr);
    ad_error_clear(&err);
    ad_argv_clear(&v);
}

static void check_argument(const ad_command *cmd, const char *action, const ad_arg_spec *s,
                           const char *help, json_t *props, json_t *required, size_t *seen)
{
    char key[128], label[160];
    ad_arg_key(s->name, key, sizeof(key));
    /* 1. CLI help */
    if (s->positional)
        snprintf(label, sizeof(label), s->required ? "<%s>" : "[%s]", s->name);
    else
        snprintf(label, sizeof(label), "--%s", s->name);
    if (!strstr(help, label))
        fail_msg("%s: help lacks %s", cmd->name, label);
    if (s->choices) {
        char choices[512];
        snprintf(choices, sizeof(choices), "[%s]", s->choices);
        if (!strstr(help, choices))
            fail_msg("%s: help lacks %s's choices", cmd->name, label);
    }
    const char *def = ad_arg_default(s, action);
    if (def && s->type != AD_ARG_BOOL) {
        char want[160];
        snprintf(want, sizeof(want), "(default %s", s->action_defaults ? "" : def);
        if (!strstr(help, want))
            fail_msg("%s: help lacks %s's default %s", cmd->name, label, def);
    }
    json_t *prop = json_object_get(props, key);
    bool included = ad_schema_includes(cmd, s, action);
    if (s->front_end || !included) {
        /* 3: not in the schema; 2: a flag of another subcommand is refused */
        if (prop)
            fail_msg("%s %s: the schema offers %s", cmd->name, action ? action : "", key);
        if (!s->front_end) {
            json_t *g = given_with(action, key, sample_of(s)), *out = NULL;
            ad_error err = AD_ERROR_INIT;
            assert_int_equal(ad_args_validate(cmd, g, &out, &err), -1);
            assert_non_null(strstr(err.message, "does not take"));
            ad_error_clear(&err);
            json_decref(g);
        }
        return;
    }
    (*seen)++;
    /* 3. the schema */
    if (!prop)
        fail_msg("%s %s: the schema lacks %s", cmd->name, action ? action : "", key);
    const char *type = json_string_value(json_object_get(prop, "type"));
    if (!type || strcmp(type, json_type_of(s->type)) != 0)
        fail_msg("%s: schema type of %s is %s", cmd->name, key, type ? type : "none");
    if (s->type == AD_ARG_ENUM) {
        json_t *e = json_object_get(prop, "enum");
        size_t n = 0;
        for (const char *c = s->choices; c; c = strchr(c, '|'), c = c ? c + 1 : NULL)
            n++;
        assert_int_equal(json_array_size(e), n);
    }
    if (s->type == AD_ARG_INT) {
        int64_t min, max;
        ad_arg_int_bounds(s, &min, &max);
        assert_int_equal(json_integer_value(json_object_get(prop, "minimum")), min);
        if (max != INT64_MAX)
            assert_int_equal(json_integer_value(json_object_get(prop, "maximum")), max);
    }
    if (def && s->type != AD_ARG_BOOL) {
        json_t *want = typed_default(s, def);
        if (!json_equal(json_object_get(prop, "default"), want))
            fail_msg("%s %s: schema default of %s", cmd->name, action ? action : "", key);
        json_decref(want);
    }
    bool listed = false;
    size_t i;
    json_t *r;
    json_array_foreach(required, i, r) listed = listed || strcmp(json_string_value(r), key) == 0;
    if (listed != s->required)
        fail_msg("%s: %s required in the table %d, in the schema %d", cmd->name, key,
                 s->required, listed);
    /* 2. batch decoding: the key with its type is taken, another type is refused by name */
    json_t *g = given_with(action, key, wrong_type_of(s)), *out = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_args_validate(cmd, g, &out, &err), -1);
    if (!err.details || strcmp(json_string_value(json_object_get(err.details, "argument")),
                               key) != 0)
        fail_msg("%s: a wrong type for %s did not name it: %s", cmd->name, key, err.message);
    ad_error_clear(&err);
    json_decref(g);
    g = given_with(action, key, sample_of(s));
    if (ad_args_validate(cmd, g, &out, &err) == 0)
        json_decref(out);
    else if (type_or_key_error(&err))
        fail_msg("%s: batch decoding refused %s: %s", cmd->name, key, err.message);
    ad_error_clear(&err);
    /* 4. the CLI reads the MCP server's argv back (positionals need the ones before) */
    bool gap = false;
    for (const ad_arg_spec *o = cmd->args; o != s && s->positional; o++)
        gap = gap || (o->positional && strcmp(o->name, "action") != 0);
    if (!gap)
        check_argv_round_trip(cmd, g);
    json_decref(g);
}

static void check_tool(const ad_command *cmd, const char *action, const char *help)
{
    json_t *schema = ad_command_input_schema(cmd, action);
    if (!schema)
        fail_msg("%s %s: no schema", cmd->name, action ? action : "");
    json_t *props = json_object_get(schema, "properties");
    json_t *required = json_object_get(schema, "required");
    assert_true(json_is_false(json_object_get(schema, "additionalProperties")));
    size_t seen = 0;
    for (const ad_arg_spec *s = cmd->args; s && s->name; s++) {
        if (action && strcmp(s->name, "action") == 0)
            continue;
        check_argument(cmd, action, s, help, props, required, &seen);
    }
    /* nothing in the schema that the table does not declare */
    assert_int_equal(json_object_size(props), seen);
    json_decref(schema);
}

static void test_every_argument_of_every_command(void **state)
{
    (void)state;
    size_t tools = 0;
    assert_int_equal(ad_commands_count, 60);
    for (size_t i = 0; i < ad_commands_count; i++) {
        const ad_command *cmd = &ad_commands[i];
        char *help = help_of(cmd);
        const ad_arg_spec *act = ad_command_action_spec(cmd);
        if (!act) {
            check_tool(cmd, NULL, help);
            tools++;
        } else {
            for (const char *c = act->choices; c;) {
                const char *bar = strchr(c, '|');
                char action[32];
                snprintf(action, sizeof(action), "%.*s",
                         (int)(bar ? (size_t)(bar - c) : strlen(c)), c);
                check_tool(cmd, action, help);
                tools++;
                c = bar ? bar + 1 : NULL;
            }
        }
        free(help);
    }
    assert_true(tools > 60);
}

/* Exactly one entry is what a satisfied --wait-for returns (post_wait.c runs it over the
 * observed window without a name lookup): a read that takes --window-id and has a handler. */
static void test_one_fresh_observation_command(void **state)
{
    (void)state;
    size_t marked = 0;
    for (size_t i = 0; i < ad_commands_count; i++)
        marked += ad_commands[i].fresh_observation;
    assert_int_equal(marked, 1);
    const ad_command *cmd = ad_command_fresh_observation();
    assert_non_null(cmd);
    assert_string_equal(cmd->name, "snapshot");
    assert_false(cmd->mutates);
    assert_non_null(cmd->handler);
    assert_non_null(ad_arg_spec_find(cmd->args, "window_id"));
}

/* The accepted arguments an unknown key's error names are the schema's. */
static void test_unknown_key_names_the_schema_keys(void **state)
{
    (void)state;
    const ad_command *cmd = ad_command_find("snapshot");
    json_t *schema = ad_command_input_schema(cmd, NULL);
    json_t *g = json_pack("{s:i}", "colour", 1), *out = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_args_validate(cmd, g, &out, &err), -1);
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(schema, "properties"), key, v) {
        if (!strstr(err.message, key))
            fail_msg("the unknown-key error lacks %s: %s", key, err.message);
    }
    ad_error_clear(&err);
    json_decref(g);
    json_decref(schema);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_argument_of_every_command),
        cmocka_unit_test(test_unknown_key_names_the_schema_keys),
        cmocka_unit_test(test_one_fresh_observation_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
