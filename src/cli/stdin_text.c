/* stdin_text.c: reading --stdin into the argument it stands for (cli/stdin_text.h). */
#include "cli/stdin_text.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/utf8.h"
#include "dispatch/arg_check.h"

/* The limit when the positional declares none: the largest text any command takes. */
#define STDIN_DEFAULT_LIMIT (128 * 1024)

/* Reads all of stdin into a new string of at most `limit` bytes. */
static char *read_all(const char *command, const char *target, size_t limit, size_t *ret_len,
                      ad_error *err)
{
    if (isatty(STDIN_FILENO)) {
        ad_error_set(err, AD_INVALID_ARGS, "--stdin needs a pipe or a redirected file, not a "
                                           "terminal");
        ad_error_suggest(err, "printf '%%s' '%s' | agent-desktop %s REF --stdin", target,
                         command);
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            char *b = cap > limit + 1 ? NULL : realloc(buf, cap * 2);
            if (!b)
                break;
            buf = b;
            cap *= 2;
        }
        ssize_t n = read(STDIN_FILENO, buf + len, cap - len - 1);
        if (n <= 0) {
            buf[len] = '\0';
            *ret_len = len;
            return buf;
        }
        len += (size_t)n;
        if (len > limit)
            break;
    }
    free(buf);
    ad_error_set(err, AD_INVALID_ARGS, "The input is longer than %zu bytes", limit);
    return NULL;
}

int ad_cli_read_stdin(const ad_command *cmd, json_t *args, ad_error *err)
{
    for (const ad_arg_spec *s = cmd->args; s && s->name; s++) {
        char key[128];
        ad_arg_key(s->name, key, sizeof(key));
        if (!s->front_end || !s->fills || !json_is_true(json_object_get(args, key)))
            continue;
        if (json_object_get(args, s->fills)) {
            ad_error_set(err, AD_INVALID_ARGS, "Provide either --stdin or a %s argument",
                         s->fills);
            ad_error_suggest(err, "To enter the literal text --stdin, put it after --");
            return -1;
        }
        const ad_arg_spec *target = ad_arg_spec_find(cmd->args, s->fills);
        size_t limit = target && target->max_bytes ? target->max_bytes : STDIN_DEFAULT_LIMIT;
        size_t len = 0;
        char *text = read_all(cmd->name, s->fills, limit, &len, err);
        if (!text)
            return -1;
        int rc = 0;
        if (memchr(text, '\0', len))
            rc = ad_error_set(err, AD_INVALID_ARGS, "The input holds a NUL byte");
        else if (!ad_utf8_valid(text, len))
            rc = ad_error_set(err, AD_INVALID_ARGS, "The %s is not valid UTF-8", s->fills);
        else
            json_object_set_new(args, s->fills, json_stringn(text, len));
        free(text);
        return rc;
    }
    return 0;
}
