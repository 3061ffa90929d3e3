/* schema.c: JSON Schemas of command arguments from the command table (schema.h). */
#include "dispatch/schema.h"

#include <stdlib.h>
#include <string.h>

#include "dispatch/arg_check.h"
#include "dispatch/validate.h"

const ad_arg_spec *ad_command_action_spec(const ad_command *cmd)
{
    for (const ad_arg_spec *s = cmd ? cmd->args : NULL; s && s->name; s++) {
        if (!s->positional)
            continue;
        /* Only the first positional can select a subcommand. */
        return strcmp(s->name, "action") == 0 && s->type == AD_ARG_ENUM && s->choices ? s
                                                                                    : NULL;
    }
    return NULL;
}

bool ad_schema_includes(const ad_command *cmd, const ad_arg_spec *spec, const char *action)
{
    if (spec->front_end || spec == ad_command_action_spec(cmd))
        return false;
    return !spec->only_for || !action || ad_arg_list_has(spec->only_for, action, strlen(action));
}

/* "a|b|c" as a new JSON array of strings. */
static json_t *choices_array(const char *choices)
{
    json_t *arr = json_array();
    for (const char *p = choices; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        json_array_append_new(arr, json_stringn(p, n));
        p = bar ? bar + 1 : NULL;
    }
    return arr;
}

/* The default as a typed JSON value (new reference), or NULL when it has none. */
static json_t *typed_default(const ad_arg_spec *spec, const char *action)
{
    const char *d = ad_arg_default(spec, action);
    if (!d)
        return NULL;
    if (spec->type == AD_ARG_INT) {
        char *end = NULL;
        long long v = strtoll(d, &end, 10);
        return end && *end == '\0' ? json_integer(v) : NULL;
    }
    if (spec->type == AD_ARG_STRING || spec->type == AD_ARG_ENUM)
        return json_string(d);
    return NULL;
}

/* The schema of one argument (new reference). */
static json_t *property_schema(const ad_arg_spec *spec, const char *action)
{
    json_t *p = json_object();
    switch (spec->type) {
    case AD_ARG_BOOL:
        json_object_set_new(p, "type", json_string("boolean"));
        break;
    case AD_ARG_STRING:
        json_object_set_new(p, "type", json_string("string"));
        break;
    case AD_ARG_INT: {
        int64_t min, max;
        ad_arg_int_bounds(spec, &min, &max);
        json_object_set_new(p, "type", json_string("integer"));
        json_object_set_new(p, "minimum", json_integer((json_int_t)min));
        if (max != INT64_MAX)
            json_object_set_new(p, "maximum", json_integer((json_int_t)max));
        break;
    }
    case AD_ARG_ENUM:
        json_object_set_new(p, "type", json_string("string"));
        json_object_set_new(p, "enum", choices_array(spec->choices));
        break;
    case AD_ARG_STRING_LIST:
        json_object_set_new(p, "type", json_string("array"));
        json_object_set_new(p, "items", json_pack("{s:s}", "type", "string"));
        break;
    }
    if (spec->help)
        json_object_set_new(p, "description", json_string(spec->help));
    json_t *d = typed_default(spec, action);
    if (d)
        json_object_set_new(p, "default", d);
    return p;
}

json_t *ad_command_input_schema(const ad_command *cmd, const char *action)
{
    const ad_arg_spec *action_spec = ad_command_action_spec(cmd);
    if (!cmd || (action_spec == NULL) != (action == NULL))
        return NULL;
    if (action && !ad_arg_list_has(action_spec->choices, action, strlen(action)))
        return NULL;
    json_t *props = json_object();
    json_t *required = json_array();
    for (const ad_arg_spec *s = cmd->args; s && s->name; s++) {
        if (!ad_schema_includes(cmd, s, action))
            continue;
        char key[128];
        ad_arg_key(s->name, key, sizeof(key));
        json_object_set_new(props, key, property_schema(s, action));
        if (s->required)
            json_array_append_new(required, json_string(key));
    }
    json_t *schema = json_pack("{s:s, s:o, s:b}", "type", "object", "properties", props,
                               "additionalProperties", 0);
    if (json_array_size(required))
        json_object_set_new(schema, "required", required);
    else
        json_decref(required);
    return schema;
}
