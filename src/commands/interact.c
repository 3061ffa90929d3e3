/* interact.c: the ref actions (commands/interaction.md, scroll-to). Each command is one
 * ad_action_spec run through the shared pipeline in core/action.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/type_keys.h"
#include "core/action.h"
#include "core/ctx.h"
#include "core/utf8.h"

#define TYPE_MAX_BYTES 10000
#define SET_VALUE_MAX_BYTES (128 * 1024)
#define TYPE_MS_PER_CHAR 30

static const ad_action_spec specs[] = {
    {.name = "click", .act = AD_ACT_CLICK, .physical_first = true, .phys = AD_PHYS_CLICK,
     .reports_surfaces = true},
    {.name = "double-click", .act = AD_ACT_CLICK, .physical_only = true, .phys = AD_PHYS_CLICK,
     .count = 2, .reports_surfaces = true},
    {.name = "triple-click", .act = AD_ACT_CLICK, .physical_only = true, .phys = AD_PHYS_CLICK,
     .count = 3, .reports_surfaces = true},
    {.name = "right-click", .act = AD_ACT_RIGHT_CLICK, .physical_first = true,
     .phys = AD_PHYS_CLICK, .button = 3, .reports_surfaces = true},
    {.name = "type", .act = AD_ACT_INSERT_TEXT, .verify = AD_VERIFY_INSERTED,
     .physical_first = true, .phys = AD_PHYS_TEXT},
    {.name = "set-value", .act = AD_ACT_SET_TEXT, .verify = AD_VERIFY_VALUE},
    {.name = "clear", .act = AD_ACT_SET_TEXT, .verify = AD_VERIFY_VALUE},
    {.name = "focus", .act = AD_ACT_GRAB_FOCUS, .focus_effect = true, .physical_only = true,
     .phys = AD_PHYS_FOCUS},
    {.name = "select", .act = AD_ACT_SELECT, .verify = AD_VERIFY_VALUE,
     .reports_surfaces = true},
    {.name = "toggle", .act = AD_ACT_TOGGLE, .verify = AD_VERIFY_TOGGLED},
    {.name = "check", .act = AD_ACT_TOGGLE, .verify = AD_VERIFY_CHECKED},
    {.name = "uncheck", .act = AD_ACT_TOGGLE, .verify = AD_VERIFY_UNCHECKED},
    {.name = "expand", .act = AD_ACT_EXPAND, .verify = AD_VERIFY_EXPANDED,
     .reports_surfaces = true},
    {.name = "collapse", .act = AD_ACT_COLLAPSE, .verify = AD_VERIFY_COLLAPSED},
    {.name = "scroll-to", .act = AD_ACT_SCROLL_TO, .verify = AD_VERIFY_VISIBLE},
    {.name = "hover", .act = AD_ACT_SCROLL_TO, .physical_only = true, .phys = AD_PHYS_MOVE},
};

static const ad_action_spec *spec_for(const char *name)
{
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
        if (strcmp(specs[i].name, name) == 0)
            return &specs[i];
    return NULL;
}

/* Reads all of stdin (a pipe or a file, never a terminal) into a new string. */
static char *read_stdin(const char *command, size_t limit, ad_error *err)
{
    if (isatty(STDIN_FILENO)) {
        ad_error_set(err, AD_INVALID_ARGS, "--stdin needs a pipe or a redirected file, not a "
                                           "terminal");
        ad_error_suggest(err, "printf '%%s' 'text' | agent-desktop %s REF --stdin", command);
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
            if (memchr(buf, '\0', len)) {
                free(buf);
                ad_error_set(err, AD_INVALID_ARGS, "The input holds a NUL byte");
                return NULL;
            }
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

/* The text of type / set-value: the positional or --stdin, exactly one of them. The text
 * is never echoed in an error: it may be a secret. */
static int text_argument(const char *command, const json_t *args, const char *key,
                         size_t limit, char **ret, bool *ret_stdin, ad_error *err)
{
    const char *inline_text = ad_arg_str(args, key);
    *ret_stdin = ad_arg_bool(args, "stdin");
    if (*ret_stdin == (inline_text != NULL)) {
        ad_error_set(err, AD_INVALID_ARGS, "Provide either --stdin or a %s argument", key);
        ad_error_suggest(err, "To enter the literal text --stdin, put it after --");
        return -1;
    }
    char *text = *ret_stdin ? read_stdin(command, limit, err) : strdup(inline_text);
    if (!text)
        return err->message ? -1 : ad_error_set(err, AD_INTERNAL, "out of memory");
    size_t len = strlen(text);
    int rc = 0;
    if (len > limit)
        rc = ad_error_set(err, AD_INVALID_ARGS, "The %s is longer than the limit of %zu bytes",
                          key, limit);
    else if (!ad_utf8_valid(text, len))
        rc = ad_error_set(err, AD_INVALID_ARGS, "The %s is not valid UTF-8", key);
    if (rc < 0) {
        free(text);
        return -1;
    }
    *ret = text;
    return 0;
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

int ad_cmd_ref_action(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const ad_action_spec *spec = spec_for(ctx->command->name);
    if (!spec)
        return ad_error_set(err, AD_INTERNAL, "no action spec for %s", ctx->command->name);
    const char *ref = ad_arg_str(args, "ref_id");
    char *text = NULL;
    bool from_stdin = false;
    int64_t timeout = ad_arg_int(args, "timeout_ms", 5000);
    if (strcmp(spec->name, "type") == 0) {
        if (text_argument(spec->name, args, "text", TYPE_MAX_BYTES, &text, &from_stdin,
                          err) < 0)
            return -1;
        if (json_object_get(args, "interval_ms")) {
            /* The budget applies to each keystroke. */
            int rc = ad_type_keystrokes(ctx, spec, ref, text, ad_arg_int(args, "interval_ms", 1),
                                        timeout, from_stdin, ret_data, err);
            free(text);
            return rc;
        }
        if (!json_object_get(args, "timeout_ms"))
            timeout = 5000 + TYPE_MS_PER_CHAR * (int64_t)utf8_chars(text);
    } else if (strcmp(spec->name, "set-value") == 0) {
        if (text_argument(spec->name, args, "value", SET_VALUE_MAX_BYTES, &text, &from_stdin,
                          err) < 0)
            return -1;
    } else if (strcmp(spec->name, "select") == 0) {
        text = strdup(ad_arg_str(args, "value"));
    } else if (strcmp(spec->name, "clear") == 0) {
        text = strdup("");
    }
    int rc = ad_ref_action_run(ctx, spec, ref, text, timeout, from_stdin, ret_data, err);
    free(text);
    return rc;
}

/* Wheel scrolling is physical input: headless it is refused, --headed turns the wheel over
 * the element's center in its focused window. */
int ad_cmd_scroll(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    if (!json_is_true(json_object_get(ctx->globals, "headed"))) {
        ad_error_set(err, AD_POLICY_DENIED, "Wheel scrolling is physical input, which headless "
                                            "mode does not permit");
        ad_error_suggest(err, "Use scroll-to REF to bring an element into view semantically; "
                              "use --headed only when physical input is intended");
        ad_error_detail(err, "kind", json_string("physical_input_required"));
        return -1;
    }
    const char *dir = ad_arg_str(args, "direction");
    int amount = (int)ad_arg_int(args, "amount", 3);
    ad_action_spec spec = {.name = "scroll", .act = AD_ACT_SCROLL_TO, .physical_only = true,
                           .phys = AD_PHYS_WHEEL};
    /* The wheel convention of mouse-wheel: a negative dy scrolls down. */
    if (strcmp(dir, "up") == 0)
        spec.wheel_dy = amount;
    else if (strcmp(dir, "down") == 0)
        spec.wheel_dy = -amount;
    else if (strcmp(dir, "left") == 0)
        spec.wheel_dx = -amount;
    else
        spec.wheel_dx = amount;
    return ad_ref_action_run(ctx, &spec, ad_arg_str(args, "ref_id"), NULL,
                             ad_arg_int(args, "timeout_ms", 5000), false, ret_data, err);
}
