/* server_args.c: the command line of `agent-desktop mcp` (server.h, server_args.h). */
#include "mcp/server_args.h"

#include "mcp/server.h"

#include <string.h>

#include "cli/parse.h"
#include "dispatch/validate.h"

/* Global flags that make no sense for a server of many calls: a per-call wait, a per-call
 * debug page, text output. */
static bool refused_for_server(const ad_arg_spec *s)
{
    static const char *const refused[] = {"wait-for", "wait-for-gone", "wait-timeout", "debug",
                                          "screenshot", "version"};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        if (strcmp(s->name, refused[i]) == 0)
            return true;
    return false;
}

/* The global flag tok names (its inline value in *ret_inline), or NULL. */
static const ad_arg_spec *global_flag(const char *tok, const char **ret_inline)
{
    *ret_inline = NULL;
    if (tok[0] != '-' || tok[1] == '\0')
        return NULL;
    if (tok[1] == '-') {
        const char *name = tok + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (const ad_arg_spec *s = ad_global_args; s->name; s++)
            if (strlen(s->name) == len && strncmp(s->name, name, len) == 0) {
                *ret_inline = eq ? eq + 1 : NULL;
                return s;
            }
        return NULL;
    }
    for (const ad_arg_spec *s = ad_global_args; tok[2] == '\0' && s->name; s++)
        if (s->short_name == tok[1])
            return s;
    return NULL;
}

bool ad_mcp_invoked(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *inline_value;
        const ad_arg_spec *s = global_flag(argv[i], &inline_value);
        if (!s)
            return strcmp(argv[i], "mcp") == 0;
        if (s->type != AD_ARG_BOOL && !inline_value)
            i++;
    }
    return false;
}

int ad_mcp_parse_args(int argc, char **argv, json_t **ret_globals, bool *ret_help,
                      ad_error *err)
{
    json_t *given = json_object();
    bool seen_mcp = false;
    *ret_help = false;
    for (int i = 1; i < argc; i++) {
        const char *tok = argv[i];
        if (!seen_mcp && strcmp(tok, "mcp") == 0) {
            seen_mcp = true;
            continue;
        }
        const char *inline_value;
        const ad_arg_spec *s = global_flag(tok, &inline_value);
        if (!s) {
            ad_error_set(err, AD_INVALID_ARGS, "mcp takes only global flags, not '%s'", tok);
            goto fail;
        }
        if (refused_for_server(s)) {
            ad_error_set(err, AD_INVALID_ARGS, "--%s does not apply to mcp", s->name);
            goto fail;
        }
        if (strcmp(s->name, "help") == 0) {
            *ret_help = true;
            continue;
        }
        const char *text = "";
        if (s->type != AD_ARG_BOOL) {
            if (!inline_value && i + 1 >= argc) {
                ad_error_set(err, AD_INVALID_ARGS, "Flag --%s needs a value", s->name);
                goto fail;
            }
            text = inline_value ? inline_value : argv[++i];
        } else if (inline_value) {
            ad_error_set(err, AD_INVALID_ARGS, "--%s takes no value", s->name);
            goto fail;
        }
        json_t *v = NULL;
        if (ad_arg_value_from_text(s, text, &v, err) < 0)
            goto fail;
        char key[64];
        ad_arg_key(s->name, key, sizeof(key));
        json_object_set_new(given, key, v);
    }
    json_t *checked = NULL;
    if (ad_globals_validate(given, &checked, err) < 0)
        goto fail;
    json_decref(checked);
    *ret_globals = given;
    return 0;
fail:
    json_decref(given);
    return -1;
}
