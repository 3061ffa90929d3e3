/* parse.c: the table-driven argv parser. Global flags are accepted before or after the
 * command name; `--flag value`, `--flag=value`, `-x value` and `--` are understood. */
#include "cli/parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stdin_text.h"
#include "dispatch/dispatch.h"
#include "dispatch/validate.h"

static int parse_fail(ad_error *err, const char *fmt, const char *a, const char *b)
{
    ad_error_set(err, AD_INVALID_ARGS, fmt, a, b);
    return ad_arg_parse_error(err);
}

int ad_arg_value_from_text(const ad_arg_spec *spec, const char *text, json_t **ret,
                           ad_error *err)
{
    if (spec->type == AD_ARG_BOOL) {
        *ret = json_true();
        return 0;
    }
    if (spec->type == AD_ARG_INT) {
        /* A whole number becomes an integer; anything else stays the text it was, and the
         * validator gives every door the same "expected a whole number" error. */
        char *end = NULL;
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (*text && !*end && !errno) {
            *ret = json_integer(v);
            return 0;
        }
    }
    *ret = json_string(text);
    if (!*ret)
        return parse_fail(err, "Value of %s is not valid UTF-8%s", spec->name, "");
    return 0;
}

static int store(json_t *obj, const ad_arg_spec *spec, const char *text, ad_error *err)
{
    char key[128];
    ad_arg_key(spec->name, key, sizeof(key));
    json_t *v = NULL;
    if (ad_arg_value_from_text(spec, text, &v, err) < 0)
        return -1;
    if (spec->type == AD_ARG_STRING_LIST) {
        json_t *arr = json_object_get(obj, key);
        if (!arr) {
            arr = json_array();
            json_object_set_new(obj, key, arr);
        }
        json_array_append_new(arr, v);
        return 0;
    }
    if (json_object_get(obj, key) && spec->type != AD_ARG_BOOL) {
        json_decref(v);
        return parse_fail(err, "%s%s was given more than once", spec->positional ? "" : "--",
                          spec->name);
    }
    json_object_set_new(obj, key, v);
    return 0;
}

static const ad_arg_spec *find_short(const ad_arg_spec *specs, char c)
{
    for (const ad_arg_spec *s = specs; s && s->name; s++)
        if (!s->positional && s->short_name == c)
            return s;
    return NULL;
}

static const ad_arg_spec *find_long(const ad_arg_spec *specs, const char *name, size_t len)
{
    for (const ad_arg_spec *s = specs; s && s->name; s++)
        if (!s->positional && strlen(s->name) == len && strncmp(s->name, name, len) == 0)
            return s;
    return NULL;
}

/* Handles one option token at argv[*i]; may consume the next token as its value. */
static int take_option(int argc, char **argv, int *i, ad_cli_parsed *p, ad_error *err)
{
    const char *tok = argv[*i];
    const ad_arg_spec *spec = NULL;
    json_t *target = NULL;
    const char *inline_value = NULL;
    const ad_arg_spec *cmd_specs = p->command ? p->command->args : NULL;
    if (tok[1] == '-') {
        const char *name = tok + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        inline_value = eq ? eq + 1 : NULL;
        if ((spec = find_long(ad_global_args, name, len)))
            target = p->globals;
        else if ((spec = find_long(cmd_specs, name, len)))
            target = p->args;
    } else if (tok[1] && !tok[2]) {
        if ((spec = find_short(ad_global_args, tok[1])))
            target = p->globals;
        else if ((spec = find_short(cmd_specs, tok[1])))
            target = p->args;
    }
    if (!spec) {
        parse_fail(err, "Unknown flag '%s'%s", tok, p->command ? "" : " before the command");
        ad_error_suggest(err, "Run agent-desktop %s%s--help to list the accepted flags",
                         p->command ? p->command->name : "", p->command ? " " : "");
        return -1;
    }
    if (spec->type == AD_ARG_BOOL) {
        if (inline_value)
            return parse_fail(err, "--%s takes no value%s", spec->name, "");
        return store(target, spec, "", err);
    }
    const char *value = inline_value;
    if (!value && spec->bare_value) {
        const char *next = *i + 1 < argc ? argv[*i + 1] : "";
        char *end = NULL;
        strtoll(next, &end, 10);
        if (!*next || *end) /* no whole number follows: the flag alone */
            value = spec->bare_value;
    }
    if (!value) {
        if (*i + 1 >= argc)
            return parse_fail(err, "Flag --%s needs a value%s", spec->name, "");
        value = argv[++*i];
    }
    return store(target, spec, value, err);
}

/* True when tok names a flag of the globals or of the command (so "-dash" as a text value
 * is not mistaken for one). */
static bool known_option(const char *tok, const ad_cli_parsed *p)
{
    const ad_arg_spec *cmd_specs = p->command ? p->command->args : NULL;
    if (tok[1] == '-') {
        const char *name = tok + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        return find_long(ad_global_args, name, len) || find_long(cmd_specs, name, len);
    }
    return tok[2] == '\0' && (find_short(ad_global_args, tok[1]) || find_short(cmd_specs, tok[1]));
}

/* The next positional that can take a string, or NULL. */
static const ad_arg_spec *string_positional(const ad_arg_spec *next)
{
    while (next && next->name && !next->positional)
        next++;
    return next && next->name && (next->type == AD_ARG_STRING ||
                                  next->type == AD_ARG_STRING_LIST)
               ? next
               : NULL;
}

int ad_cli_parse(int argc, char **argv, ad_cli_parsed *p, ad_error *err)
{
    memset(p, 0, sizeof(*p));
    p->args = json_object();
    p->globals = json_object();
    const ad_arg_spec *next_positional = NULL;
    bool only_positionals = false;
    for (int i = 1; i < argc; i++) {
        const char *tok = argv[i];
        bool is_option = !only_positionals && tok[0] == '-' && tok[1] != '\0' &&
                         !(tok[1] >= '0' && tok[1] <= '9');
        /* A text that starts with one hyphen ("type REF -dash") is a value, not a flag, when
         * no flag has that name and a string positional is still open; "--x" stays a flag
         * (put such text after --). */
        if (is_option && tok[1] != '-' && p->command && !known_option(tok, p) &&
            string_positional(next_positional))
            is_option = false;
        if (!only_positionals && strcmp(tok, "--") == 0) {
            only_positionals = true;
            continue;
        }
        if (is_option) {
            if (take_option(argc, argv, &i, p, err) < 0)
                return -1;
            continue;
        }
        if (!p->command) {
            p->command_name = tok;
            p->command = ad_command_find(tok);
            if (!p->command) {
                parse_fail(err, "Unknown command '%s'%s", tok, "");
                ad_error_suggest(err, "Run agent-desktop --help to list the 60 commands");
                return -1;
            }
            next_positional = p->command->args;
            continue;
        }
        while (next_positional && next_positional->name && !next_positional->positional)
            next_positional++;
        if (!next_positional || !next_positional->name) {
            parse_fail(err, "Unexpected argument '%s' for %s", tok, p->command->name);
            return -1;
        }
        if (store(p->args, next_positional, tok, err) < 0)
            return -1;
        if (next_positional->type != AD_ARG_STRING_LIST)
            next_positional++;
    }
    if (json_is_true(json_object_get(p->globals, "help"))) {
        p->action = AD_CLI_HELP;
        return 0;
    }
    if (json_is_true(json_object_get(p->globals, "version"))) {
        p->action = AD_CLI_VERSION_TEXT;
        return 0;
    }
    if (!p->command) {
        /* json-output.md: only --help, --version and a bare agent-desktop print text; global
         * flags without a command, or a lone --, are a parse error with its envelope. */
        if (argc <= 1) {
            p->action = AD_CLI_HELP;
            return 0;
        }
        ad_error_set(err, AD_INVALID_ARGS, "No command given");
        ad_error_suggest(err, "Name a command, for example agent-desktop status; run "
                              "agent-desktop --help to list them");
        return ad_arg_parse_error(err);
    }
    /* The validator every door uses, so a bad argv fails here with exit 2 before anything
     * else runs; dispatch validates the same given arguments again. */
    json_t *checked = NULL;
    if (ad_cli_read_stdin(p->command, p->args, err) < 0)
        return -1;
    if (ad_globals_validate(p->globals, &checked, err) < 0)
        return -1;
    json_decref(checked);
    if (ad_args_validate(p->command, p->args, &checked, err) < 0)
        return -1;
    json_decref(checked);
    p->action = AD_CLI_RUN;
    return 0;
}

void ad_cli_parsed_clear(ad_cli_parsed *p)
{
    json_decref(p->args);
    json_decref(p->globals);
    memset(p, 0, sizeof(*p));
}

json_t *ad_cli_parse_error_envelope(const ad_cli_parsed *p, const ad_error *err)
{
    const char *name = p->command ? p->command->name
                       : p->command_name ? p->command_name
                                         : "agent-desktop";
    return ad_envelope_error(name, err);
}
