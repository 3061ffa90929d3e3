/* validate.c: the table-driven validator of every door (dispatch/validate.h). */
#include "dispatch/validate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/arg_check.h"

/* "--max-depth" for a flag, "<ms>" for a positional: how the CLI user wrote it; the JSON
 * doors see the '_' key in details.argument. */
static void label_of(const ad_arg_spec *s, char *buf, size_t size)
{
    snprintf(buf, size, s->positional ? "<%s>" : "--%s", s->name);
}

static int fail_arg(ad_error *err, const ad_arg_spec *s, bool parse)
{
    char key[128];
    ad_arg_key(s->name, key, sizeof(key));
    ad_error_detail_text(err, "argument", key);
    if (parse)
        err->parse_error = true;
    return -1;
}

static bool given(const json_t *v)
{
    return v && !json_is_null(v) && !json_is_false(v);
}

static int check_type(const ad_arg_spec *s, const json_t *v, ad_error *err)
{
    char label[96];
    label_of(s, label, sizeof(label));
    switch (s->type) {
    case AD_ARG_BOOL:
        if (json_is_boolean(v))
            return 0;
        ad_error_set(err, AD_INVALID_ARGS, "%s is a switch: expected true or false", label);
        ad_error_suggest(err, "Pass %s as true or false, or leave it out", label);
        return fail_arg(err, s, true);
    case AD_ARG_INT: {
        if (json_is_integer(v))
            return ad_arg_int_check(s, (long long)json_integer_value(v), err) < 0
                       ? fail_arg(err, s, true)
                       : 0;
        int64_t min, max;
        ad_arg_int_bounds(s, &min, &max);
        ad_error_set(err, AD_INVALID_ARGS, "Invalid value for %s: expected a whole number",
                     label);
        ad_error_suggest(err, "Pass a whole number%s%s, for example %lld",
                         s->positional ? " as " : " with --", s->name,
                         (long long)(min > 10 || max < 10 ? min : 10));
        return fail_arg(err, s, true);
    }
    case AD_ARG_STRING:
        if (!json_is_string(v)) {
            ad_error_set(err, AD_INVALID_ARGS, "%s must be a string", label);
            return fail_arg(err, s, true);
        }
        if (s->max_bytes && json_string_length(v) > s->max_bytes) {
            ad_error_set(err, AD_INVALID_ARGS, "%s is %zu bytes, more than the %zu allowed",
                         label, json_string_length(v), s->max_bytes);
            ad_error_suggest(err, "Pass at most %zu bytes with %s", s->max_bytes, label);
            return fail_arg(err, s, false);
        }
        return 0;
    case AD_ARG_ENUM:
        if (json_is_string(v) &&
            ad_arg_list_has(s->choices, json_string_value(v), json_string_length(v)))
            return 0;
        ad_error_set(err, AD_INVALID_ARGS, "Invalid value for %s: expected one of %s", label,
                     s->choices);
        ad_error_suggest(err, "Use one of: %s", s->choices);
        return fail_arg(err, s, true);
    case AD_ARG_STRING_LIST: {
        bool ok = json_is_array(v);
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item) ok = ok && json_is_string(item);
        if (ok)
            return 0;
        ad_error_set(err, AD_INVALID_ARGS, "%s must be a list of strings", label);
        ad_error_suggest(err, "Pass %s as an array of strings (repeat the flag on the CLI)",
                         label);
        return fail_arg(err, s, true);
    }
    }
    ad_error_set(err, AD_INTERNAL, "%s has an unknown argument type", label);
    return -1;
}

const char *ad_arg_default(const ad_arg_spec *spec, const char *action)
{
    if (spec->action_defaults && action) {
        size_t n = strlen(action);
        for (const char *c = spec->action_defaults; c && *c;) {
            const char *eq = strchr(c, '='), *bar = strchr(c, '|');
            if (eq && (size_t)(eq - c) == n && strncmp(c, action, n) == 0) {
                static _Thread_local char buf[64];
                size_t len = bar ? (size_t)(bar - eq - 1) : strlen(eq + 1);
                if (len >= sizeof(buf))
                    len = sizeof(buf) - 1;
                memcpy(buf, eq + 1, len);
                buf[len] = '\0';
                return buf;
            }
            c = bar ? bar + 1 : NULL;
        }
    }
    return spec->default_value;
}

/* The typed value of a textual default from the table (new reference). */
static json_t *default_json(const ad_arg_spec *s, const char *text)
{
    switch (s->type) {
    case AD_ARG_BOOL:
        return NULL; /* a switch's default is "not given" */
    case AD_ARG_INT:
        return json_integer(strtoll(text, NULL, 10));
    case AD_ARG_STRING_LIST:
        return json_pack("[s]", text);
    default:
        return json_string(text);
    }
}

/* The accepted keys of cmd, for the error of an unknown one. */
static void accepted_keys(const ad_arg_spec *specs, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const ad_arg_spec *s = specs; s && s->name; s++) {
        if (s->front_end)
            continue;
        char key[128];
        ad_arg_key(s->name, key, sizeof(key));
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", key);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
    if (!used)
        snprintf(buf, size, "none");
}

static const ad_arg_spec *spec_of_key(const ad_arg_spec *specs, const char *key)
{
    /* Keys are '_' names; a '-' in a JSON key is not the same key. */
    if (strchr(key, '-'))
        return NULL;
    return ad_arg_spec_find(specs, key);
}

/* True when `term` holds in `given`: "key" (given), "key=value" (given with that value) or
 * "key!=value" (given with another value). */
static bool term_holds(const json_t *given_args, const char *term, size_t len)
{
    char key[128], want[128] = "";
    const char *eq = memchr(term, '=', len);
    bool negated = eq && eq > term && eq[-1] == '!';
    size_t klen = eq ? (size_t)(eq - term) - negated : len;
    if (klen >= sizeof(key))
        return false;
    memcpy(key, term, klen);
    key[klen] = '\0';
    const json_t *v = json_object_get(given_args, key);
    if (!given(v))
        return false;
    if (!eq)
        return true;
    size_t wlen = len - (size_t)(eq + 1 - term);
    if (wlen >= sizeof(want))
        return false;
    memcpy(want, eq + 1, wlen);
    want[wlen] = '\0';
    bool same = json_is_string(v) && strcmp(json_string_value(v), want) == 0;
    return negated ? !same : same;
}

/* "--a, --b or --c" from a rule's keys (how the CLI user writes them). */
static void rule_names(const char *keys, const char *joiner, char *buf, size_t size)
{
    size_t used = 0, count = 0;
    buf[0] = '\0';
    for (const char *c = keys; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        const char *next = bar ? bar + 1 : NULL;
        const char *sep = !count ? "" : next ? ", " : joiner;
        char name[128];
        size_t n = len < sizeof(name) - 1 ? len : sizeof(name) - 1;
        for (size_t i = 0; i < n; i++)
            name[i] = c[i] == '_' ? '-' : c[i];
        name[n] = '\0';
        char *eq = strchr(name, '=');
        bool negated = eq && eq > name && eq[-1] == '!';
        if (eq)
            eq[negated ? -1 : 0] = '\0';
        int w = !eq      ? snprintf(buf + used, size - used, "%s--%s", sep, name)
                : negated ? snprintf(buf + used, size - used, "%s--%s other than %s", sep,
                                     name, eq + 1)
                          : snprintf(buf + used, size - used, "%s%s %s", sep, name, eq + 1);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
        count++;
        c = next;
    }
}

static int check_rule(const ad_command *cmd, const ad_arg_rule *r, const json_t *given_args,
                      ad_error *err)
{
    size_t held = 0;
    const char *first_held = NULL;
    for (const char *c = r->args; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (term_holds(given_args, c, len)) {
            held++;
            if (!first_held)
                first_held = c;
        }
        c = bar ? bar + 1 : NULL;
    }
    bool ok = true;
    char names[512], other[160];
    switch (r->kind) {
    case AD_RULE_AT_MOST_ONE:
        ok = held <= 1;
        rule_names(r->args, " and ", names, sizeof(names));
        if (!ok)
            ad_error_set(err, AD_INVALID_ARGS, "%s: %s cannot combine", cmd->name, names);
        break;
    case AD_RULE_EXACTLY_ONE:
    case AD_RULE_AT_LEAST_ONE:
        ok = r->kind == AD_RULE_EXACTLY_ONE ? held == 1 : held >= 1;
        rule_names(r->args, " or ", names, sizeof(names));
        if (!ok && held > 1)
            ad_error_set(err, AD_INVALID_ARGS, "%s takes only one of %s", cmd->name, names);
        else if (!ok)
            ad_error_set(err, AD_INVALID_ARGS, "%s needs %s%s", cmd->name,
                         r->kind == AD_RULE_EXACTLY_ONE ? "one of " : "", names);
        break;
    case AD_RULE_REQUIRES:
        ok = !held || term_holds(given_args, r->other, strlen(r->other));
        rule_names(r->args, " or ", names, sizeof(names));
        rule_names(r->other, " or ", other, sizeof(other));
        if (!ok)
            ad_error_set(err, AD_INVALID_ARGS, "%s requires %s", names, other);
        break;
    case AD_RULE_END:
        break;
    }
    if (ok)
        return 0;
    if (r->message) {
        free(err->message);
        err->message = strdup(r->message);
    }
    if (r->suggestion)
        ad_error_suggest(err, "%s", r->suggestion);
    if (first_held) {
        char key[128];
        const char *end = strpbrk(first_held, "|=!");
        size_t len = end ? (size_t)(end - first_held) : strlen(first_held);
        snprintf(key, sizeof(key), "%.*s", (int)len, first_held);
        ad_error_detail_text(err, "argument", key);
    }
    if (r->parse_error)
        err->parse_error = true;
    return -1;
}

int ad_args_validate(const ad_command *cmd, const json_t *given_in, json_t **ret_args,
                     ad_error *err)
{
    json_t *empty = NULL;
    const json_t *given_args = given_in;
    if (!given_args)
        given_args = empty = json_object();
    if (!json_is_object(given_args)) {
        ad_error_set(err, AD_INVALID_ARGS, "The arguments of %s must be a JSON object",
                     cmd->name);
        ad_arg_parse_error(err);
        return -1;
    }
    const char *key;
    json_t *v;
    /* 1-4: every given key, in the object's order. */
    json_object_foreach((json_t *)given_args, key, v) {
        const ad_arg_spec *s = spec_of_key(cmd->args, key);
        if (!s) {
            char list[1024];
            accepted_keys(cmd->args, list, sizeof(list));
            ad_error_set(err, AD_INVALID_ARGS, "%s has no argument '%s'; it accepts: %s",
                         cmd->name, key, list);
            ad_error_suggest(err, "Run agent-desktop %s --help to list its arguments",
                             cmd->name);
            ad_error_detail_text(err, "argument", key);
            json_decref(empty);
            return ad_arg_parse_error(err);
        }
        if (json_is_null(v))
            continue;
        /* A front-end flag comes with the text it stood for (the CLI read it), and then
         * only marks it as piped; alone, it asks this process to read a stdin it must not. */
        if (s->front_end && given(v) && !json_object_get(given_args, s->fills)) {
            ad_error_set(err, AD_INVALID_ARGS, "--%s is read by the command line only",
                         s->name);
            ad_error_suggest(err, "Pass the text itself as %s", s->fills);
            json_decref(empty);
            return fail_arg(err, s, true);
        }
        if (check_type(s, v, err) < 0) {
            json_decref(empty);
            return -1;
        }
    }
    const char *action = json_string_value(json_object_get(given_args, "action"));
    if (!action) {
        const ad_arg_spec *as = ad_arg_spec_find(cmd->args, "action");
        action = as ? ad_arg_default(as, NULL) : NULL;
    }
    json_t *out = json_object();
    for (const ad_arg_spec *s = cmd->args; s && s->name; s++) {
        char k[128];
        ad_arg_key(s->name, k, sizeof(k));
        json_t *gv = json_object_get(given_args, k);
        bool has = gv && !json_is_null(gv);
        if (has && s->only_for && action && given(gv) &&
            !ad_arg_list_has(s->only_for, action, strlen(action))) {
            char label[96];
            label_of(s, label, sizeof(label));
            ad_error_set(err, AD_INVALID_ARGS, "%s %s does not take %s", cmd->name, action,
                         label);
            ad_error_suggest(err, "Pass %s only with %s %s", label, cmd->name, s->only_for);
            json_decref(out);
            json_decref(empty);
            return fail_arg(err, s, true);
        }
        if (has) {
            json_object_set(out, k, gv);
            continue;
        }
        if (s->required) {
            ad_error_set(err, AD_INVALID_ARGS, "Missing required argument %s%s",
                         s->positional ? "" : "--", s->name);
            ad_error_suggest(err, "Run agent-desktop %s --help for its arguments", cmd->name);
            json_decref(out);
            json_decref(empty);
            return fail_arg(err, s, true);
        }
        const char *d = (!s->only_for || !action ||
                         ad_arg_list_has(s->only_for, action, strlen(action)))
                            ? ad_arg_default(s, action)
                            : NULL;
        json_t *dv = d ? default_json(s, d) : NULL;
        if (dv)
            json_object_set_new(out, k, dv);
    }
    for (const ad_arg_rule *r = cmd->rules; r && r->kind != AD_RULE_END; r++) {
        if (check_rule(cmd, r, given_args, err) < 0) {
            json_decref(out);
            json_decref(empty);
            return -1;
        }
    }
    if (cmd->check && cmd->check(given_args, out, err) < 0) {
        json_decref(out);
        json_decref(empty);
        return -1;
    }
    json_decref(empty);
    *ret_args = out;
    return 0;
}

int ad_globals_validate(const json_t *given_in, json_t **ret_globals, ad_error *err)
{
    if (given_in && !json_is_object(given_in)) {
        ad_error_set(err, AD_INVALID_ARGS, "The global flags must be a JSON object");
        return ad_arg_parse_error(err);
    }
    const char *key;
    json_t *v;
    json_t *out = json_object();
    json_object_foreach((json_t *)given_in, key, v) {
        const ad_arg_spec *s = spec_of_key(ad_global_args, key);
        if (!s) {
            char list[1024];
            accepted_keys(ad_global_args, list, sizeof(list));
            ad_error_set(err, AD_INVALID_ARGS, "There is no global flag '%s'; the global "
                                               "flags are: %s", key, list);
            ad_error_detail_text(err, "argument", key);
            json_decref(out);
            return ad_arg_parse_error(err);
        }
        if (json_is_null(v))
            continue;
        if (check_type(s, v, err) < 0) {
            json_decref(out);
            return -1;
        }
        if (!json_is_false(v))
            json_object_set(out, key, v);
    }
    static const ad_command globals = {.name = "the global flags"};
    for (const ad_arg_rule *r = ad_global_rules; r->kind != AD_RULE_END; r++) {
        if (check_rule(&globals, r, out, err) < 0) {
            json_decref(out);
            return -1;
        }
    }
    *ret_globals = out;
    return 0;
}
