/* argv_build.c: given JSON to a child's argv (argv_build.h). */
#include "dispatch/argv_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/arg_check.h"

void ad_argv_init(ad_argv *v)
{
    memset(v, 0, sizeof(*v));
}

int ad_argv_push(ad_argv *v, const char *s)
{
    if (v->count + 2 > v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        char **items = realloc(v->items, cap * sizeof(*items));
        if (!items)
            return -1;
        v->items = items;
        v->cap = cap;
    }
    char *copy = strdup(s);
    if (!copy)
        return -1;
    v->items[v->count++] = copy;
    v->items[v->count] = NULL;
    return 0;
}

void ad_argv_clear(ad_argv *v)
{
    for (size_t i = 0; i < v->count; i++)
        free(v->items[i]);
    free(v->items);
    ad_argv_init(v);
}

static int fail(ad_error *err, const char *key, const char *why)
{
    ad_error_set(err, AD_INVALID_ARGS, "Argument '%s' %s", key, why);
    ad_error_detail_text(err, "argument", key);
    return -1;
}

static int out_of_memory(ad_error *err)
{
    ad_error_set(err, AD_INTERNAL, "Out of memory while building the command line");
    return -1;
}

/* One value as argv text into buf (a string is borrowed through *ret). */
static int value_text(const char *key, const json_t *v, char *buf, size_t size,
                      const char **ret, ad_error *err)
{
    if (json_is_string(v)) {
        /* argv cannot carry a NUL byte: cutting the value there would pass another one. */
        if (strlen(json_string_value(v)) != json_string_length(v))
            return fail(err, key, "holds a NUL byte, which a command line cannot carry");
        *ret = json_string_value(v);
        return 0;
    }
    if (json_is_integer(v)) {
        snprintf(buf, size, "%lld", (long long)json_integer_value(v));
        *ret = buf;
        return 0;
    }
    return fail(err, key, "must be a string or a whole number");
}

/* Pushes prefix + text as one token. */
static int push_token(ad_argv *v, const char *prefix, const char *text, ad_error *err)
{
    size_t n = strlen(prefix) + strlen(text) + 1;
    char *tok = malloc(n);
    if (!tok)
        return out_of_memory(err);
    snprintf(tok, n, "%s%s", prefix, text);
    int rc = ad_argv_push(v, tok);
    free(tok);
    return rc < 0 ? out_of_memory(err) : 0;
}

/* Pushes each value (one, or each item of an array) as its own token, prefix + its text. */
static int push_values(ad_argv *v, const char *prefix, const char *key, const json_t *val,
                       ad_error *err)
{
    size_t count = json_is_array(val) ? json_array_size(val) : 1;
    for (size_t i = 0; i < count; i++) {
        const json_t *item = json_is_array(val) ? json_array_get(val, i) : val;
        char num[32];
        const char *text = NULL;
        if (value_text(key, item, num, sizeof(num), &text, err) < 0 ||
            push_token(v, prefix, text, err) < 0)
            return -1;
    }
    return 0;
}

/* Pushes a flag: "--name" for a true bool, else "--name=text" once per value. */
static int push_flag(ad_argv *v, const ad_arg_spec *spec, const char *key, const json_t *val,
                     ad_error *err)
{
    if (spec->type == AD_ARG_BOOL) {
        if (!json_is_boolean(val))
            return fail(err, key, "must be true or false");
        return json_is_true(val) ? push_token(v, "--", spec->name, err) : 0;
    }
    if (json_is_array(val) != (spec->type == AD_ARG_STRING_LIST))
        return fail(err, key, spec->type == AD_ARG_STRING_LIST ? "must be an array"
                                                               : "must not be an array");
    char prefix[160];
    snprintf(prefix, sizeof(prefix), "--%s=", spec->name);
    return push_values(v, prefix, key, val, err);
}

/* A value that counts as given: not null, not false. */
static const json_t *given_value(const json_t *obj, const char *key)
{
    const json_t *val = json_object_get(obj, key);
    return val && !json_is_null(val) && !json_is_false(val) ? val : NULL;
}

/* 0 when every key of obj names a spec of specs. */
static int keys_known(const ad_arg_spec *specs, const json_t *obj, ad_error *err)
{
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        const ad_arg_spec *s = ad_arg_spec_find(specs, key);
        char canon[128];
        if (s)
            ad_arg_key(s->name, canon, sizeof(canon));
        if (!s || strcmp(canon, key) != 0)
            return fail(err, key, "is not an accepted argument");
    }
    return 0;
}

int ad_argv_add_globals(ad_argv *v, const json_t *globals, ad_error *err)
{
    if (globals && keys_known(ad_global_args, globals, err) < 0)
        return -1;
    for (const ad_arg_spec *s = ad_global_args; globals && s->name; s++) {
        char key[128];
        ad_arg_key(s->name, key, sizeof(key));
        const json_t *val = given_value(globals, key);
        if (val && push_flag(v, s, key, val, err) < 0)
            return -1;
    }
    return 0;
}

int ad_argv_add_command(ad_argv *v, const ad_command *cmd, const json_t *given, ad_error *err)
{
    if (given && keys_known(cmd->args, given, err) < 0)
        return -1;
    if (ad_argv_push(v, cmd->name) < 0)
        return out_of_memory(err);
    for (const ad_arg_spec *s = cmd->args; given && s && s->name; s++) {
        char key[128];
        ad_arg_key(s->name, key, sizeof(key));
        const json_t *val = given_value(given, key);
        if (!s->positional && val && push_flag(v, s, key, val, err) < 0)
            return -1;
    }
    /* After "--" every token is a positional, so "--help" as a value stays a value. */
    if (ad_argv_push(v, "--") < 0)
        return out_of_memory(err);
    const char *missing = NULL;
    for (const ad_arg_spec *s = cmd->args; given && s && s->name; s++) {
        if (!s->positional)
            continue;
        char key[128];
        ad_arg_key(s->name, key, sizeof(key));
        const json_t *val = given_value(given, key);
        if (!val) {
            if (!missing)
                missing = s->name;
            continue;
        }
        if (missing) {
            ad_error_set(err, AD_INVALID_ARGS, "Argument '%s' needs '%s' before it", key,
                         missing);
            ad_error_detail_text(err, "argument", missing);
            return -1;
        }
        if (push_values(v, "", key, val, err) < 0)
            return -1;
    }
    return 0;
}
