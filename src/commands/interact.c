/* interact.c: the ref actions (commands/interaction.md, scroll-to). Each command is one
 * ad_action_spec run through the shared pipeline in core/action.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/type_keys.h"
#include "core/action.h"
#include "core/ctx.h"

#define TYPE_MS_PER_CHAR 30

/* The table's data for each ref action (dispatch/command_table.c): the pipeline's spec and
 * where the text comes from. */
#define RA(id, ...) const ad_ref_action_def id = {__VA_ARGS__}
RA(ad_ra_click, .spec = {.name = "click", .act = AD_ACT_CLICK, .physical_first = true,
                         .phys = AD_PHYS_CLICK, .reports_surfaces = true});
RA(ad_ra_double_click, .spec = {.name = "double-click", .act = AD_ACT_CLICK,
                                .physical_only = true, .phys = AD_PHYS_CLICK, .count = 2,
                                .reports_surfaces = true});
RA(ad_ra_triple_click, .spec = {.name = "triple-click", .act = AD_ACT_CLICK,
                                .physical_only = true, .phys = AD_PHYS_CLICK, .count = 3,
                                .reports_surfaces = true});
RA(ad_ra_right_click, .spec = {.name = "right-click", .act = AD_ACT_RIGHT_CLICK,
                               .physical_first = true, .phys = AD_PHYS_CLICK, .button = 3,
                               .reports_surfaces = true});
RA(ad_ra_type, .spec = {.name = "type", .act = AD_ACT_INSERT_TEXT,
                        .verify = AD_VERIFY_INSERTED, .physical_first = true,
                        .phys = AD_PHYS_TEXT},
   .text_key = "text", .keystrokes = true);
RA(ad_ra_set_value, .spec = {.name = "set-value", .act = AD_ACT_SET_TEXT,
                             .verify = AD_VERIFY_VALUE},
   .text_key = "value");
RA(ad_ra_clear, .spec = {.name = "clear", .act = AD_ACT_SET_TEXT, .verify = AD_VERIFY_VALUE},
   .empty_text = true);
RA(ad_ra_focus, .spec = {.name = "focus", .act = AD_ACT_GRAB_FOCUS, .focus_effect = true,
                         .physical_only = true, .phys = AD_PHYS_FOCUS});
RA(ad_ra_select, .spec = {.name = "select", .act = AD_ACT_SELECT, .verify = AD_VERIFY_VALUE,
                          .reports_surfaces = true},
   .text_key = "value");
RA(ad_ra_toggle, .spec = {.name = "toggle", .act = AD_ACT_TOGGLE, .verify = AD_VERIFY_TOGGLED});
RA(ad_ra_check, .spec = {.name = "check", .act = AD_ACT_TOGGLE, .verify = AD_VERIFY_CHECKED});
RA(ad_ra_uncheck, .spec = {.name = "uncheck", .act = AD_ACT_TOGGLE,
                           .verify = AD_VERIFY_UNCHECKED});
RA(ad_ra_expand, .spec = {.name = "expand", .act = AD_ACT_EXPAND, .verify = AD_VERIFY_EXPANDED,
                          .reports_surfaces = true});
RA(ad_ra_collapse, .spec = {.name = "collapse", .act = AD_ACT_COLLAPSE,
                            .verify = AD_VERIFY_COLLAPSED});
RA(ad_ra_scroll_to, .spec = {.name = "scroll-to", .act = AD_ACT_SCROLL_TO,
                             .verify = AD_VERIFY_VISIBLE});
#undef RA

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The text is never echoed in an error: it may be a secret. The validator has checked it
 * (present, within the table's max_bytes; JSON strings are valid UTF-8 without NUL), and
 * the CLI read --stdin into it (cli/stdin_text.c); `stdin` still says it came from a pipe,
 * so the report hides what it observes. */
int ad_cmd_ref_action(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const ad_ref_action_def *def = ctx->command->data;
    if (!def)
        return ad_error_set(err, AD_INTERNAL, "no action spec for %s", ctx->command_name);
    const ad_action_spec *spec = &def->spec;
    const char *ref = ad_arg_str(args, "ref_id");
    const char *text = def->empty_text ? "" : def->text_key ? ad_arg_str(args, def->text_key)
                                                            : NULL;
    bool from_stdin = ad_arg_bool(args, "stdin");
    int64_t timeout = ad_arg_int(args, "timeout_ms");
    if (def->keystrokes) {
        if (ad_arg_has(args, "interval_ms")) /* the budget applies to each keystroke */
            return ad_type_keystrokes(ctx, spec, ref, text, ad_arg_int(args, "interval_ms"),
                                      ad_arg_has(args, "timeout_ms") ? timeout : 5000,
                                      from_stdin, ret_data, err);
        /* A derived default (commands/interaction.md): 5000 ms plus 30 per character. */
        if (!ad_arg_has(args, "timeout_ms"))
            timeout = 5000 + TYPE_MS_PER_CHAR * (int64_t)utf8_chars(text);
    }
    return ad_ref_action_run_observed(ctx, spec, ref, text, timeout, from_stdin,
                                      ad_arg_bool(args, "observe"), ret_data, err);
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
    int amount = (int)ad_arg_int(args, "amount");
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
                             ad_arg_int(args, "timeout_ms"), false, ret_data, err);
}
